// Package tabletest gives the tests of the packages that read table
// directories the tables they need, each set built once per machine and
// version of the sources (package testcache), and makes the files they must
// cope with.
//
//	func TestMain(m *testing.M) { os.Exit(tabletest.Run(m)) } // removes the sets built outside the cache
//	dir := tabletest.Four.Dir(t)                      // up to 4 pieces, built on first use
//	dir := tabletest.Golden                           // up to 3 pieces, in testdata
//	tabletest.FirstVersion(t, dir, m)                 // the table of m as written before rule 2
//	tabletest.Rewrite(t, dir, m, edit)                // the table of m edited, as one whole file
//	dir := tabletest.Keep(t, dir, keep)               // a copy with the tables of some materials alone
//
// A set costs its build once, then a check of its sums: Four about 40
// CPU-seconds, Rule2 about 5, ClassA about 3, Five (under DTB_LONG=1)
// about 850. Use the smallest that answers the test.
package tabletest

import (
	"context"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"

	"github.com/dtb-draughts/dtb/codec"
	"github.com/dtb-draughts/dtb/index"
	"github.com/dtb-draughts/dtb/internal/testcache"
	"github.com/dtb-draughts/dtb/retro"
	"github.com/dtb-draughts/dtb/table"
)

// The sets the tests share.
var (
	// Four is every table up to 4 pieces with the dtw and mtc columns.
	Four = &Tables{Options: retro.Options{Pieces: 4, DTW: true, MTC: true}}
	// Five is every table up to 5 pieces with the columns dtb gen keeps
	// by default (the dtw up to 4 pieces), for the checks under
	// DTB_LONG=1.
	Five = &Tables{Options: retro.Options{Pieces: 5, DTWPieces: 4}}
	// Rule2 is KMvKK and the tables it needs (KKvKK among them), with
	// the dtw and mtc columns: the smallest set where rule 2 runs and
	// where a man move leads into a table of the same size.
	Rule2 = &Tables{Options: retro.Options{Pieces: 4, Only: &index.Material{WhiteKings: 1, WhiteMen: 1, BlackKings: 2}, DTW: true, MTC: true}}
	// ClassA is KKKvK and the tables it needs (KKvK, KvKK and KvK), with
	// the dtw and mtc columns: the smallest set where a class A clock
	// runs and carries into class B with a capture.
	ClassA = &Tables{Options: retro.Options{Pieces: 4, Only: &index.Material{WhiteKings: 3, BlackKings: 1}, DTW: true, MTC: true}}
)

// Golden is the directory of the golden tables, every table up to 3
// pieces with the dtw column (testdata/README.md), from the directory of
// any package of the module.
var Golden = filepath.Join(testcache.ModuleRoot(), "testdata", "golden")

// Tables are tables that the tests build once, on first use, with
// Options (its Dir is ignored): in the machine's cache (package testcache), or in a
// temporary directory of the test binary.
type Tables struct {
	Options retro.Options
	once    sync.Once
	dir     string
	err     error
}

// built are the sets built by this test binary outside the cache, for
// Run to remove.
var built struct {
	sync.Mutex
	dirs []string
}

// Dir returns the directory of the tables, building them on first use;
// a failed build fails tb. The tests must not change the directory: a
// test that damages a table copies the set first (Copy).
func (t *Tables) Dir(tb testing.TB) string {
	tb.Helper()
	dir, err := t.Build()
	if err != nil {
		tb.Fatal(err)
	}
	return dir
}

// Build is Dir for an example, which has no testing.TB.
func (t *Tables) Build() (string, error) {
	t.once.Do(func() {
		if root := testcache.Root(); root != "" {
			o, only := t.Options, ""
			if o.Only != nil {
				o.Only, only = nil, o.Only.String()
			}
			o.Progress, o.Done = nil, nil
			t.dir, t.err = testcache.Dir(root, testcache.Key(o, only), t.generate)
			return
		}
		if t.dir, t.err = os.MkdirTemp("", "dtb-test-tables"); t.err != nil {
			return
		}
		built.Lock()
		built.dirs = append(built.dirs, t.dir)
		built.Unlock()
		t.err = t.generate(t.dir)
	})
	return t.dir, t.err
}

// generate builds the tables in dir.
func (t *Tables) generate(dir string) error {
	o := t.Options
	o.Dir = dir
	return retro.Generate(context.Background(), o)
}

// Copy returns a copy of the directory dir in a temporary directory of tb.
func Copy(tb testing.TB, dir string) string {
	tb.Helper()
	c := tb.TempDir()
	if err := os.CopyFS(c, os.DirFS(dir)); err != nil {
		tb.Fatal(err)
	}
	return c
}

// Run runs the tests, removes the sets they built and returns the exit
// code for os.Exit.
func Run(m *testing.M) int {
	code := m.Run()
	built.Lock()
	for _, d := range built.dirs {
		os.RemoveAll(d)
	}
	built.Unlock()
	return code
}

// FirstVersion rewrites the table of m in dir as the first version wrote it,
// before rule 2 was tracked: rules flags of table.NoRule2, no
// distance column (the values are kept: no 4-piece rules value depends on
// rule 2 with a fresh count) and the mtc itself in the mtc column, and
// updates the manifest.
func FirstVersion(tb testing.TB, dir string, m index.Material) {
	tb.Helper()
	Rewrite(tb, dir, m, func(h *codec.Header, cols *table.Columns) {
		dist, mtc := cols[table.DistanceColumn], cols[table.MTCColumn]
		if dist == nil {
			tb.Fatalf("%s has no distance column", m)
		}
		for i := range mtc {
			mtc[i] += dist[i] // the mtc itself, not less the distance (rules flag 32, docs/format.md)
		}
		h.Rules, cols[table.DistanceColumn] = table.NoRule2.Rules(), nil
	})
}

// Rewrite rewrites the table of m in dir as one whole file through the
// codec, as formats 1 and 2 keep a table: edit changes its header and its
// columns as table.File decodes them (a column set to nil is dropped).
// It removes the distance file and updates the manifest.
func Rewrite(tb testing.TB, dir string, m index.Material, edit func(h *codec.Header, cols *table.Columns)) {
	tb.Helper()
	path := filepath.Join(dir, table.FileName(m))
	f, err := table.Open(path, m)
	if err != nil {
		tb.Fatal(err)
	}
	cols, err := f.ReadColumns()
	h := f.Header()
	f.Close()
	if err != nil {
		tb.Fatal(err)
	}
	h.Kind = codec.Whole
	delete(h.Meta, "distances") // the list of the distance file's columns (docs/format.md)
	edit(&h, &cols)
	h.Columns = nil
	var data [][]byte
	for col := range table.NumColumns {
		if cols.Has(col) {
			h.Columns = append(h.Columns, codec.Column{Name: col.Name(), Width: col.Width()})
			data = append(data, cols[col])
		}
	}
	if err := codec.Write(path, h, data); err != nil {
		tb.Fatal(err)
	}
	if err := os.Remove(table.DistancePath(path)); err != nil && !errors.Is(err, fs.ErrNotExist) {
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
	entries[i].Distances = nil
	if entries[i].Size, entries[i].CRC32C, err = codec.FileCRC(path); err != nil {
		tb.Fatal(err)
	}
	r, err := codec.Open(path)
	if err != nil {
		tb.Fatal(err)
	}
	entries[i].HeaderCRC32C = r.HeaderCRC()
	r.Close()
	if err := codec.WriteManifest(dir, entries); err != nil {
		tb.Fatal(err)
	}
}

// ForgeRules sets the rules flags in the header of the table file at
// path and recomputes the header checksum (ForgedRules), leaving the
// manifest as it is.
func ForgeRules(tb testing.TB, path string, rules uint32) {
	tb.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		tb.Fatal(err)
	}
	if err := os.WriteFile(path, ForgedRules(rules)(b), 0o644); err != nil {
		tb.Fatal(err)
	}
}

// ForgedRules returns a function that sets the rules flags in the header
// of a table file's bytes b and recomputes its header checksum, as damage
// before the checksum or a foreign tool would.
func ForgedRules(rules uint32) func(b []byte) []byte {
	return func(b []byte) []byte {
		h, t := int(binary.LittleEndian.Uint32(b[12:])), int(binary.LittleEndian.Uint64(b[16:]))
		at := 24 + 2 + int(binary.LittleEndian.Uint16(b[24:])) + 1 + 4 // prefix, material, kind, index version
		binary.LittleEndian.PutUint32(b[at:], rules)
		end := 24 + h + t
		binary.LittleEndian.PutUint32(b[end:], crc32.Checksum(b[:end], crc32.MakeTable(crc32.Castagnoli)))
		return b
	}
}

// Keep returns a copy of the directory dir that keeps the tables of the
// materials keep reports, its manifest rewritten to list them alone.
func Keep(tb testing.TB, dir string, keep func(m index.Material) bool) string {
	tb.Helper()
	c := Copy(tb, dir)
	entries, err := codec.ReadManifest(c)
	if err != nil {
		tb.Fatal(err)
	}
	var kept []codec.ManifestEntry
	for _, e := range entries {
		m, err := index.ParseMaterial(e.Material)
		if err != nil {
			tb.Fatal(err)
		}
		if keep(m) {
			kept = append(kept, e)
			continue
		}
		if err := os.Remove(filepath.Join(c, e.File)); err != nil {
			tb.Fatal(err)
		}
		if e.Distances != nil {
			if err := os.Remove(filepath.Join(c, e.Distances.File)); err != nil {
				tb.Fatal(err)
			}
		}
	}
	if err := codec.WriteManifest(c, kept); err != nil {
		tb.Fatal(err)
	}
	return c
}
