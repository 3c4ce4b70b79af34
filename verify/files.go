package verify

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"

	"github.com/dtb-draughts/dtb/codec"
	"github.com/dtb-draughts/dtb/index"
	"github.com/dtb-draughts/dtb/table"
)

// rulesFlags are the rules whose values Verify knows how to recompute.
const rulesFlags = table.RulesRepetition | table.RulesClassLimits | table.RulesNo25Move | table.RulesCapturesDontCare

// checkFile checks the file at path against its manifest entry e and its
// material m: size and CRC-32C of the whole file, header, and the checksum
// of every block. It returns every problem it finds.
func checkFile(path string, e codec.ManifestEntry, m index.Material) []error {
	size, crc, err := codec.FileCRC(path)
	if errors.Is(err, fs.ErrNotExist) {
		return []error{fmt.Errorf("%s: missing (listed in %s)", path, codec.ManifestName)}
	} else if err != nil {
		return []error{err}
	}
	var errs []error
	if size != e.Size {
		errs = append(errs, fmt.Errorf("%s: %d bytes, %s says %d", path, size, codec.ManifestName, e.Size))
	} else if crc != e.CRC32C {
		errs = append(errs, fmt.Errorf("%s: CRC-32C %08x, %s says %08x", path, crc, codec.ManifestName, e.CRC32C))
	}
	if n := index.New(m).Size(); e.Positions != n {
		errs = append(errs, fmt.Errorf("%s: %s says %d positions, want %d", path, codec.ManifestName, e.Positions, n))
	}
	r, err := codec.Open(path) // checks the header checksum and the block table
	if err != nil {
		return append(errs, err)
	}
	defer r.Close()
	if _, err := checkHeader(path, r.Header(), m); err != nil {
		errs = append(errs, err)
	}
	if err := r.Check(); err != nil { // names the first bad block
		errs = append(errs, err)
	}
	return errs
}

// checkHeader checks that the header h of the file at path fits material
// m, and returns the stats it holds, their example positions left out.
func checkHeader(path string, h codec.Header, m index.Material) (table.Stats, error) {
	var s table.Stats
	bad := func(format string, args ...any) (table.Stats, error) {
		return s, fmt.Errorf("%s: header: %s", path, fmt.Sprintf(format, args...))
	}
	switch {
	case h.Material != m.String():
		return bad("material %q, want %s", h.Material, m)
	case h.IndexVersion != table.IndexVersion:
		return bad("index version %d, want %d", h.IndexVersion, table.IndexVersion)
	case h.Positions != index.New(m).Size():
		return bad("%d positions, want %d", h.Positions, index.New(m).Size())
	case h.Rules != rulesFlags:
		return bad("rules flags %#x, want %#x", h.Rules, rulesFlags)
	}
	widths := map[string]int{table.ColumnValue: 1, table.ColumnDTW: 2}
	if table.ClassOf(m) != table.NoClass {
		widths[table.ColumnDistance] = 1
	}
	for _, c := range h.Columns {
		if widths[c.Name] != c.Width {
			return bad("unexpected column %q of width %d", c.Name, c.Width)
		}
		widths[c.Name] = 0
	}
	if widths[table.ColumnValue] != 0 || widths[table.ColumnDistance] != 0 {
		return bad("missing the value or distance column")
	}
	if err := json.Unmarshal([]byte(h.Meta[table.StatsKey]), &s); err != nil {
		return bad("no valid %q: %v", table.StatsKey, err)
	}
	s.LongestDistanceFEN, s.LongestDTWFEN = "", ""
	return s, nil
}
