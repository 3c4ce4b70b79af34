// Package tabletest helps tests of the packages that read table
// directories: it makes the files they must cope with.
//
//	tabletest.FirstVersion(t, dir, m) // the table of m as written before rule 2
package tabletest

import (
	"path/filepath"
	"slices"
	"testing"

	"github.com/dtb-draughts/dtb/codec"
	"github.com/dtb-draughts/dtb/index"
	"github.com/dtb-draughts/dtb/table"
)

// FirstVersion rewrites the table of m in dir as the first version wrote it,
// before rule 2 was tracked: rules flags table.RulesFlagsNo25Move and no
// distance column (the values are kept: no 4-piece rules value depends on
// rule 2 with a fresh count), and updates the manifest.
func FirstVersion(tb testing.TB, dir string, m index.Material) {
	tb.Helper()
	path := filepath.Join(dir, table.FileName(m))
	r, err := codec.Open(path)
	if err != nil {
		tb.Fatal(err)
	}
	h := r.Header()
	var cols []codec.Column
	var data [][]byte
	for i, c := range h.Columns {
		if c.Name == table.DistanceColumn.Name() {
			continue
		}
		b, err := r.ReadColumn(i)
		if err != nil {
			tb.Fatal(err)
		}
		cols, data = append(cols, c), append(data, b)
	}
	r.Close()
	if len(cols) == len(h.Columns) {
		tb.Fatalf("%s has no distance column", path)
	}
	h.Rules, h.Columns = table.RulesFlagsNo25Move, cols
	if err := codec.Write(path, h, data); err != nil {
		tb.Fatal(err)
	}
	entries, err := codec.ReadManifest(dir)
	if err != nil {
		tb.Fatal(err)
	}
	i := slices.IndexFunc(entries, func(e codec.ManifestEntry) bool { return e.Material == m.String() })
	if i < 0 {
		tb.Fatalf("%s: no manifest entry", m)
	}
	if entries[i].Size, entries[i].CRC32C, err = codec.FileCRC(path); err != nil {
		tb.Fatal(err)
	}
	if err := codec.WriteManifest(dir, entries); err != nil {
		tb.Fatal(err)
	}
}
