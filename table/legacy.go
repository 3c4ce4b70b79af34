package table

import (
	"errors"
	"fmt"

	"github.com/dtb-draughts/dtb/codec"
	"github.com/dtb-draughts/dtb/index"
	"github.com/dtb-draughts/dtb/rules"
	"github.com/dtb-draughts/dtb/runs"
)

// This file holds what this version knows of the layouts of older
// versions: the rules flags of their files, the changes to Info that
// reading them takes, and Convert, which rewrites them as this version
// writes them (docs/format.md, section 8).

// rulesFlagsPlain are the rules of the tables written with rule 2
// before rulesCompact. This version still reads them. They hold the same
// entries, with real bytes in a draw's distance, dtw and mtc. Their mtc
// byte is the mtc itself; File converts it as it reads it.
const rulesFlagsPlain = rulesFlagsFull &^ rulesCompact

// rulesFlagsNoRule2 are the rules of the tables written before rule 2
// was tracked. This version still reads them. Their rules values ignore
// rule 2. Their Rule2 materials have no clock and no distance column.
const rulesFlagsNoRule2 = rulesRepetition | rulesClassLimits | rulesNo25Move | rulesCapturesDontCare

// legacy sets what t says of a file of an older version, whose header
// has the rules flags r: Plain, where its mtc bytes are the mtc itself;
// for one written before rule 2 was tracked, no class for a Rule2
// material, whose rules values ignore rule 2.
func (t *Info) legacy(r uint32) {
	t.Plain = r&rulesCompact == 0
	if t.Variant == NoRule2 && t.Class == rules.Rule2 {
		t.Class = rules.NoClass
	}
}

// plainRuns is ReadRuns of a column of a plain file but its values: its
// mtc bytes are converted as they are decoded (read).
func (f *File) plainRuns(b int, col Column) (runs.Column, error) {
	cols, err := f.ReadBlock(b, col)
	if err != nil {
		return runs.Column{}, err
	}
	return runs.Compact(cols[col], nil), nil
}

// compactMTC stores c's mtc bytes, read from a plain file, relative to
// the distance byte, as this version does (mtcBase). It drops the
// distance column, which read read for it, unless keep is set.
func (c *Columns) compactMTC(keep bool) {
	for i := range c[MTCColumn] {
		c[MTCColumn][i] -= c.mtcBase(int64(i))
	}
	if !keep {
		c[DistanceColumn] = nil
	}
}

// ErrOtherRules is wrapped by the error of Convert for a table whose
// entries are not those of a current table.
var ErrOtherRules = errors.New("a table built before rule 2 was tracked, or a work file")

// Convert rewrites the table of m at path in the current format version,
// without solving. The table is a whole table (formats 1 and 2) or the
// value and distance files of format 3. It becomes a value file at path
// and its distance file, byte for byte those of a build of the table.
// The entries are kept as they are. The mtc bytes of a plain file are
// made compact. Don't-cares are filled as a build fills them. Convert
// reports whether it converted the table. A table of the current version
// is left as it is. So are the split files that a build does not write:
// a slim directory's, a resolved copy. A whole table built before rule 2
// was tracked, or a resolved copy, is refused: its entries are not those
// of a current table.
func Convert(path string, m index.Material) (bool, error) {
	f, err := Open(path, m)
	if err != nil {
		return false, err
	}
	defer f.Close()
	switch {
	case f.Split && (f.values.Format() == codec.Version || f.Header().Rules != rulesFlagsFull):
		return false, nil
	case !f.Split && f.Variant != Full:
		return false, fmt.Errorf("%s: %w (rules flags %#x): rebuild it", path, ErrOtherRules, f.Header().Rules)
	}
	w, err := NewWriter(path, m, f.Layout.extra(), Full)
	if err != nil {
		return false, err
	}
	return true, w.copyFrom(f)
}
