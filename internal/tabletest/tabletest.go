// Package tabletest helps tests of the packages that read table
// directories: it makes the files they must cope with.
//
//	var kmvkk = tabletest.Tables{Options: retro.Options{Pieces: 4, Only: &m, MTC: true}}
//	dir := kmvkk.Dir(t)                // built on first use, shared by the tests
//	tabletest.FirstVersion(t, dir, m)  // the table of m as written before rule 2
//	kmvkk.Remove()                     // in TestMain, after the tests
package tabletest

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"

	"github.com/dtb-draughts/dtb/codec"
	"github.com/dtb-draughts/dtb/index"
	"github.com/dtb-draughts/dtb/retro"
	"github.com/dtb-draughts/dtb/table"
)

// Tables are tables that a test binary builds once, on first use, in a
// temporary directory, with Options (its Dir is ignored).
type Tables struct {
	Options retro.Options
	once    sync.Once
	dir     string
	err     error
}

// Dir returns the directory of the tables, building them on first use;
// a failed build fails tb.
func (t *Tables) Dir(tb testing.TB) string {
	tb.Helper()
	t.once.Do(func() {
		if t.dir, t.err = os.MkdirTemp("", "dtb-test-tables"); t.err == nil {
			o := t.Options
			o.Dir = t.dir
			t.err = retro.Generate(context.Background(), o)
		}
	})
	if t.err != nil {
		tb.Fatal(t.err)
	}
	return t.dir
}

// Remove removes the tables' directory, if they were built.
func (t *Tables) Remove() {
	if t.dir != "" {
		os.RemoveAll(t.dir)
	}
}

// FirstVersion rewrites the table of m in dir as the first version wrote it,
// before rule 2 was tracked: rules flags table.RulesFlagsNo25Move, no
// distance column (the values are kept: no 4-piece rules value depends on
// rule 2 with a fresh count) and the mtc itself in the mtc column, and
// updates the manifest.
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
	var dist, mtc []byte
	for i, c := range h.Columns {
		b, err := r.ReadColumn(i)
		if err != nil {
			tb.Fatal(err)
		}
		switch c.Name {
		case table.DistanceColumn.Name():
			dist = b
			continue
		case table.MTCColumn.Name():
			mtc = b
		}
		cols, data = append(cols, c), append(data, b)
	}
	r.Close()
	if dist == nil {
		tb.Fatalf("%s has no distance column", path)
	}
	for i := range mtc {
		mtc[i] += dist[i] // the mtc itself, not less the distance (table.RulesCompact)
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
