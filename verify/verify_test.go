package verify_test

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/dtb-draughts/dtb/codec"
	"github.com/dtb-draughts/dtb/draughts"
	"github.com/dtb-draughts/dtb/index"
	"github.com/dtb-draughts/dtb/internal/slim"
	"github.com/dtb-draughts/dtb/internal/tabletest"
	"github.com/dtb-draughts/dtb/internal/testenv"
	"github.com/dtb-draughts/dtb/retro"
	"github.com/dtb-draughts/dtb/rules"
	"github.com/dtb-draughts/dtb/table"
	"github.com/dtb-draughts/dtb/verify"
)

// The tests build their tables with the generator (tabletest); the
// package under test does not use it.

// three is every table up to 3 pieces with the dtw and mtc columns.
var three = &tabletest.Tables{Options: retro.Options{Pieces: 3, DTW: true, MTC: true}}

func TestMain(m *testing.M) {
	code := tabletest.Run(m)
	if changed.dir != "" {
		os.RemoveAll(changed.dir)
	}
	os.Exit(code)
}

// copyTables copies the 3-piece tables to a new directory.
func copyTables(t *testing.T) string { return tabletest.Copy(t, three.Dir(t)) }

// run verifies dir and returns the reports by file name.
func run(t *testing.T, dir string, o verify.Options) map[string]verify.Report {
	t.Helper()
	reports, err := verify.Verify(context.Background(), dir, o)
	if err != nil {
		t.Fatal(err)
	}
	byFile := map[string]verify.Report{}
	for _, r := range reports {
		byFile[filepath.Base(r.File)] = r
	}
	return byFile
}

// TestFreshTables verifies the tables as built: every table up to 3
// pieces, up to 4 under DTB_LONG=1. (The quick tests check fresh
// rule-2 tables too: KKvKK in TestChangedRule2Distance, the kept side
// of KMvKK in TestSlim.)
func TestFreshTables(t *testing.T) {
	set := three
	if testenv.Long() {
		set = tabletest.Four
	}
	reports, err := verify.Verify(context.Background(), set.Dir(t), verify.Options{})
	if err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join(set.Dir(t), "*.dtb"))
	if want := len(files); len(reports) != want || want < 12 {
		t.Errorf("%d reports, want one per material: %d", len(reports), want)
	}
	for _, r := range reports {
		if !r.OK() || r.Checked == 0 || r.Checked > r.Positions {
			t.Errorf("%s: %d of %d positions checked, %d mismatches %v, errors %v", r.File, r.Checked, r.Positions, r.Mismatches, r.Examples, r.Errors)
		}
	}
}

// mustContain fails unless err is among errs and its text names every
// one of words.
func mustContain(t *testing.T, what string, errs []error, words ...string) {
	t.Helper()
	for _, err := range errs {
		ok := true
		for _, w := range words {
			ok = ok && strings.Contains(err.Error(), w)
		}
		if ok {
			return
		}
	}
	t.Errorf("%s: errors %v, want one naming %q", what, errs, words)
}

// TestDamagedFiles damages files in several ways and checks that each is
// reported by name (and block, or its size against the manifest's), each
// problem once, that what depends on it is not checked and that the rest
// passes.
func TestDamagedFiles(t *testing.T) {
	for _, c := range []struct {
		name   string
		damage func(t *testing.T, dir string)
		file   string   // the damaged table's value file
		words  []string // what its errors name
		source string   // the damaged file the tables that read it name, "" if missing
	}{
		{"block byte", func(t *testing.T, dir string) { changeByte(t, filepath.Join(dir, "KKvK.dtb"), -10) },
			"KKvK.dtb", []string{"KKvK.dtb is damaged (block 0 of column value"}, "KKvK.dtb"},
		{"distance block byte", func(t *testing.T, dir string) { changeByte(t, filepath.Join(dir, "KKvK.dtbd"), -10) },
			"KKvK.dtb", []string{"KKvK.dtbd is damaged (block 0 of column mtc"}, "KKvK.dtbd"},
		{"distance file missing", func(t *testing.T, dir string) {
			if err := os.Remove(filepath.Join(dir, "KKvK.dtbd")); err != nil {
				t.Fatal(err)
			}
		}, "KKvK.dtb", []string{"KKvK.dtbd", "missing"}, ""},
		{"header byte", func(t *testing.T, dir string) { changeByte(t, filepath.Join(dir, "KKvK.dtb"), 30) },
			"KKvK.dtb", []string{"KKvK.dtb is damaged (header checksum"}, "KKvK.dtb"},
		{"truncated", func(t *testing.T, dir string) {
			path := filepath.Join(dir, "KKvK.dtb")
			st, err := os.Stat(path)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.Truncate(path, st.Size()-40); err != nil {
				t.Fatal(err)
			}
		}, "KKvK.dtb", []string{"KKvK.dtb", "bytes, MANIFEST.json says"}, "KKvK.dtb"},
		{"missing", func(t *testing.T, dir string) {
			if err := os.Remove(filepath.Join(dir, "KKvK.dtb")); err != nil {
				t.Fatal(err)
			}
		}, "KKvK.dtb", []string{"KKvK.dtb", "missing"}, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := copyTables(t)
			c.damage(t, dir)
			reports := run(t, dir, verify.Options{})
			if len(reports) != len(index.Materials(3)) {
				t.Errorf("%d reports, want %d", len(reports), len(index.Materials(3)))
			}
			mustContain(t, c.file, reports[c.file].Errors, c.words...)
			for i, err := range reports[c.file].Errors {
				if slices.ContainsFunc(reports[c.file].Errors[:i], func(e error) bool { return e.Error() == err.Error() }) {
					t.Errorf("%s: %v said twice", c.file, err)
				}
			}
			// KvKK's quiet moves lead to KKvK.
			mustContain(t, "KvKK.dtb", reports["KvKK.dtb"].Errors, "not checked", "KKvK.dtb")
			// Damaged, not missing: KvKK is not checked for KKvK's damage,
			// which only KKvK's report says.
			var src *verify.SourceError
			if damaged := c.source != ""; damaged != slices.ContainsFunc(reports["KvKK.dtb"].Errors, func(err error) bool {
				return errors.As(err, &src) && err.Error() == "not checked: reads the damaged "+filepath.Join(dir, c.source)
			}) {
				t.Errorf("KvKK.dtb: errors %v; want a SourceError naming %s: %v", reports["KvKK.dtb"].Errors, c.source, damaged)
			}
			if c.source != "" && !slices.ContainsFunc(reports[c.file].Errors, func(err error) bool { return errors.As(err, new(*codec.FileError)) }) {
				t.Errorf("%s: errors %v, want a codec.FileError", c.file, reports[c.file].Errors)
			}
			for _, name := range []string{"KvK.dtb", "KMvK.dtb", "MMvM.dtb"} {
				if r := reports[name]; !r.OK() {
					t.Errorf("%s (undamaged, needs no KKvK): %v %v", name, r.Errors, r.Examples)
				}
			}
		})
	}
}

// changeByte flips the bits of the byte at offset off of a file (from
// the end if negative).
func changeByte(t *testing.T, path string, off int) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if off < 0 {
		off += len(b)
	}
	b[off] ^= 0xff
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestUnlistedFile checks that a value file and a distance file the
// manifest does not list are reported.
func TestUnlistedFile(t *testing.T) {
	dir := copyTables(t)
	for _, name := range []string{"KKKvK.dtb", "KKKvK" + table.DistanceExt} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("stray"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	reports := run(t, dir, verify.Options{})
	for _, name := range []string{"KKKvK.dtb", "KKKvK" + table.DistanceExt} {
		mustContain(t, name, reports[name].Errors, "not listed")
	}
}

// TestChangedEntry rewrites KKvK through the codec, valid but for one
// column entry of a position, and checks the mismatches of KKvK: a
// material of kings alone, whose entries are recomputed for the
// representatives of the orbits (index.Canonical) and compared with
// theirs for the other positions. A changed representative is a
// mismatch, and so is each other position of its orbit; another changed
// position is the one mismatch. Under a budget that holds KvKK alone,
// KKvK is read from its file, every position recomputed: a changed
// position is the one mismatch.
func TestChangedEntry(t *testing.T) {
	kkvk, _ := index.ParseMaterial("KKvK")
	win7 := rules.Entry{Rules: rules.Win, Theory: rules.Win, Distance: 7, DTW: 7, MTC: 7}
	for _, c := range []struct {
		column string
		change func(b []byte, i int64)
		stats  string // how the header's stats differ from the entries, if they do
	}{
		{table.ValueColumn.Name(), func(b []byte, i int64) { b[i] = table.ValueByte(rules.Draw, rules.Draw) }, `theory {"win":19398,"draw":39402,"loss":0}, counted {"win":19397,"draw":39403,"loss":0}`},
		{table.DistanceColumn.Name(), func(b []byte, i int64) { b[i]-- }, ""},
		{table.DTWColumn.Name(), func(b []byte, i int64) { binary.LittleEndian.PutUint16(b[2*i:], 9) }, "longest_dtw 7, counted 9"},
		{table.MTCColumn.Name(), func(b []byte, i int64) { b[i] = 3 }, ""},
	} {
		// A quiet win in 7 plies, the representative of its orbit, and its half turn.
		for _, fen := range []string{"W:WK1,K2:BK45", "W:WK50,K49:BK6"} {
			p, err := draughts.ParseFEN(fen)
			if err != nil {
				t.Fatal(err)
			}
			pl := rules.Placement(&p)
			rep, stab := index.Canonical(pl)
			orbit := 4 / stab
			for _, memory := range []int64{0, 64 << 10} {
				t.Run(fmt.Sprintf("%s/%s/memory=%d", c.column, fen, memory), func(t *testing.T) {
					dir := copyTables(t)
					rewrite(t, dir, "KKvK", func(col string, b []byte) {
						if col == c.column {
							c.change(b, index.New(rules.MaterialOf(&p)).Rank(pl))
						}
					})
					r := run(t, dir, verify.Options{Only: []index.Material{kkvk}, Memory: memory})["KKvK.dtb"]
					want := int64(1)
					if rep == pl && memory == 0 {
						want = int64(orbit)
					}
					if r.Mismatches != want || len(r.Examples) != int(want) {
						t.Fatalf("%d mismatches %v, want %d", r.Mismatches, r.Examples, want)
					}
					found := false
					for _, e := range r.Examples {
						if e.Position == p {
							found = true
							if e.Recomputed != win7 {
								t.Errorf("recomputed %+v, want a win in 7", e.Recomputed)
							}
						}
						if q, _ := index.Canonical(rules.Placement(&e.Position)); q != rep {
							t.Errorf("mismatch at %s, outside the orbit of %s", e.Position.FEN(), fen)
						}
					}
					if !found {
						t.Errorf("no mismatch at %s", fen)
					}
					if c.stats != "" {
						mustContain(t, "KKvK.dtb", r.Errors, "KKvK.dtb: header stats differ from the entries: ", c.stats)
					}
				})
			}
		}
	}
}

// TestChangedRule2Distance changes the rule-2 distance of one quiet
// position of KKvKK, where both sides have a king, and checks KKvKK: the
// position is its first mismatch, with the other positions of its orbit.
func TestChangedRule2Distance(t *testing.T) {
	dir := tabletest.Copy(t, tabletest.Rule2.Dir(t))
	x := index.New(index.Material{WhiteKings: 2, BlackKings: 2})
	var p draughts.Position
	var stored int
	rewrite(t, dir, "KKvKK", func(col string, b []byte) {
		if col != table.DistanceColumn.Name() {
			return
		}
		for i, d := range b { // the first quiet position won or lost in 2 to 8 plies
			if p = rules.Position(x.Unrank(int64(i))); d >= 2 && d <= 8 && !p.HasCapture() {
				stored, b[i] = int(d), 9
				return
			}
		}
		t.Fatal("KKvKK: no quiet position at rule-2 distance 2 to 8")
	})
	r := run(t, dir, verify.Options{Only: []index.Material{x.Material()}})["KKvKK.dtb"]
	pl := rules.Placement(&p)
	want := 1 // a position that is not its orbit's representative: compared with it (see TestChangedEntry)
	if rep, stab := index.Canonical(pl); rep == pl {
		want = 4 / stab // and the other positions of its orbit with it
	}
	if r.Mismatches != int64(want) || len(r.Examples) != want || r.Examples[0].Position != p {
		t.Fatalf("%d mismatches %v, want %d, the first at %s", r.Mismatches, r.Examples, want, p.FEN())
	}
	if got := r.Examples[0].Recomputed.Distance; got != stored || got == 9 {
		t.Errorf("recomputed rule-2 distance %d, stored before the change %d", got, stored)
	}
}

// TestMemory checks KKvKM, an entry changed, under a budget that holds a
// few of the blocks read (64 Ki positions, 320 KiB each) beside KKvKK
// held whole by orbit: the report, mismatches and all, is that of a check
// without a limit.
func TestMemory(t *testing.T) {
	dir, want := changedRule2(t)
	got := run(t, dir, verify.Options{Only: changedOnly, Memory: 4 << 20})
	for name, w := range want {
		g := got[name]
		w.Elapsed, g.Elapsed = 0, 0
		if fmt.Sprint(g) != fmt.Sprint(w) {
			t.Errorf("%s with 4 MiB: %+v, without a limit %+v", name, g, w)
		}
	}
}

// changed holds the Rule2 set with a value of KKvKM changed, and the
// report of KKvKM (changedOnly), for the tests that check it again under
// other options. Its directory outlives the tests that share it; it is
// not modified.
var changed struct {
	once    sync.Once
	dir     string
	reports map[string]verify.Report
	err     error
}

// changedOnly is the table that changed checks.
var changedOnly = []index.Material{{WhiteKings: 2, BlackKings: 1, BlackMen: 1}}

// changedRule2 returns the directory of changed and its reports.
func changedRule2(t *testing.T) (string, map[string]verify.Report) {
	t.Helper()
	changed.once.Do(func() {
		if changed.dir, changed.err = os.MkdirTemp("", "dtb-verify-test"); changed.err != nil {
			return
		}
		if changed.err = os.CopyFS(changed.dir, os.DirFS(tabletest.Rule2.Dir(t))); changed.err != nil {
			return
		}
		changeQuiet(t, changed.dir, "KKvKM")
		changed.reports = run(t, changed.dir, verify.Options{Only: changedOnly, Threads: 2})
	})
	if changed.err != nil {
		t.Fatal(changed.err)
	}
	if r := changed.reports["KKvKM.dtb"]; r.Mismatches == 0 {
		t.Fatalf("KKvKM: no mismatch after a change: %+v", r)
	}
	return changed.dir, changed.reports
}

// changeQuiet changes the value of a quiet position halfway through the
// table of material name in dir: a draw made a win, or the other way
// round.
func changeQuiet(t *testing.T, dir, name string) {
	t.Helper()
	m, _ := index.ParseMaterial(name)
	x := index.New(m)
	rewrite(t, dir, name, func(col string, b []byte) {
		if col != table.ValueColumn.Name() {
			return
		}
		for i := len(b) / 2; i < len(b); i++ {
			if p := rules.Position(x.Unrank(int64(i))); !p.HasCapture() {
				draw := table.ValueByte(rules.Draw, rules.Draw)
				if b[i] == draw {
					b[i] = table.ValueByte(rules.Win, rules.Win)
				} else {
					b[i] = draw
				}
				return
			}
		}
	})
}

// rewrite rewrites the table of material name in dir as one whole
// file, each column changed by change, and updates the manifest.
func rewrite(t *testing.T, dir, name string, change func(col string, b []byte)) {
	t.Helper()
	m, _ := index.ParseMaterial(name)
	tabletest.Rewrite(t, dir, m, func(_ *codec.Header, cols *table.Columns) {
		for col, b := range cols {
			if b != nil {
				change(table.Column(col).Name(), b)
			}
		}
	})
}

// TestStreamed checks the group KKvK, KvKK (tables of kings alone) under
// a budget too small to hold both, so that each is read from its file
// and every position recomputed: the reports are those of a check that
// holds both.
func TestStreamed(t *testing.T) {
	dir := three.Dir(t)
	m, _ := index.ParseMaterial("KKvK")
	only := []index.Material{m, m.Flip()}
	held := run(t, dir, verify.Options{Only: only})
	streamed := run(t, dir, verify.Options{Only: only, Memory: 64 << 10})
	for name, h := range held {
		s := streamed[name]
		h.Elapsed, s.Elapsed = 0, 0
		if !h.OK() || h.Checked == 0 || fmt.Sprint(s) != fmt.Sprint(h) {
			t.Errorf("%s read from its file: %+v; held whole: %+v", name, s, h)
		}
	}
}

// TestOnly checks one table, reading the ones it needs, then the two
// tables of a group in dependency order, and refuses a material without
// a table.
func TestOnly(t *testing.T) {
	dir := copyTables(t)
	changeByte(t, filepath.Join(dir, "MvMM.dtb"), -10) // not needed by KMvK
	m, _ := index.ParseMaterial("KMvK")
	reports, err := verify.Verify(context.Background(), dir, verify.Options{Only: []index.Material{m}})
	if err != nil || len(reports) != 1 || !reports[0].OK() || reports[0].Material != m {
		t.Errorf("--only KMvK: %v %+v", err, reports)
	}
	group := []index.Material{m.Flip(), m} // in dependency order, whatever the order given
	if slices.Index(index.Materials(3), m) < slices.Index(index.Materials(3), m.Flip()) {
		group[0], group[1] = m, m.Flip()
	}
	reports, err = verify.Verify(context.Background(), dir, verify.Options{Only: []index.Material{group[1], group[0]}})
	if err != nil || len(reports) != 2 || !reports[0].OK() || !reports[1].OK() || reports[0].Material != group[0] || reports[1].Material != group[1] {
		t.Errorf("--only %v,%v: %v %+v", group[1], group[0], err, reports)
	}
	m, _ = index.ParseMaterial("KKKKvK")
	if _, err := verify.Verify(context.Background(), dir, verify.Options{Only: []index.Material{group[0], m}}); err == nil {
		t.Error("--only KKKKvK: no error, but there is no such table")
	}
}

// TestGolden verifies the committed golden tables (every table up to 3
// pieces with the dtw column): files and every value.
func TestGolden(t *testing.T) {
	reports := run(t, filepath.Join("..", "testdata", "golden"), verify.Options{})
	if len(reports) != len(index.Materials(3)) {
		t.Errorf("%d reports, want one per material: %d", len(reports), len(index.Materials(3)))
	}
	for name, r := range reports {
		if !r.OK() || r.Checked == 0 {
			t.Errorf("%s: %d of %d positions checked, %d mismatches %v, errors %v", name, r.Checked, r.Positions, r.Mismatches, r.Examples, r.Errors)
		}
	}
}

// TestSlim verifies slim directories (package slim) of the golden tables
// and of the Rule2 set:
// with distance files, every stored table recomputed through the tables
// searched (and its forced threats, left out of the Rule2 set's), each
// of those noted; without them, the files alone, each
// table noted. A value changed in a stored table before the slim tables
// are written is a mismatch there; a searched table checked alone
// (Options.Only) is checked with the table it is searched through, and
// fails where that one fails, missing or with a mismatch.
func TestSlim(t *testing.T) {
	ctx := context.Background()
	write := func(dir string, o slim.Options) string {
		out := filepath.Join(t.TempDir(), "slim")
		if err := slim.Write(ctx, dir, out, o); err != nil {
			t.Fatal(err)
		}
		return out
	}
	// The pair with rule-2 clocks of the Rule2 set and the tables its
	// captures and crownings lead to: the others check the same code.
	pair := []index.Material{{WhiteKings: 1, WhiteMen: 1, BlackKings: 2}, {WhiteKings: 2, BlackKings: 1, BlackMen: 1}}
	for _, c := range []struct {
		dir  string
		o    slim.Options
		only []index.Material
	}{
		{tabletest.Golden, slim.Options{Distances: true}, nil},
		{tabletest.Golden, slim.Options{}, nil},
		{tabletest.Rule2.Dir(t), slim.Options{Distances: true, Threats: slim.ThreatsLeftOut}, pair}, // forced threats searched
	} {
		o := c.o
		reports, err := verify.Verify(ctx, write(c.dir, o), verify.Options{Only: c.only})
		if err != nil {
			t.Fatal(err)
		}
		searched, unchecked := 0, 0
		for _, r := range reports {
			if !r.OK() {
				t.Errorf("distances %v: %s: %+v", o.Distances, r.Material, r)
			}
			if r.Checked == 0 && r.Note == "" || r.Checked > 0 && r.Note != "" {
				t.Errorf("distances %v: %s: %d checked, note %q", o.Distances, r.Material, r.Checked, r.Note)
			}
			if r.File == "" {
				searched++
			} else if r.Note != "" {
				unchecked++
			}
		}
		if searched == 0 || (unchecked > 0) == o.Distances {
			t.Errorf("distances %v: %d tables searched, %d not recomputed", o.Distances, searched, unchecked)
		}
	}
	// A table searched through a missing one: --only checks both.
	out := write(tabletest.Golden, slim.Options{})
	if err := os.Remove(filepath.Join(out, "KKvM.dtb")); err != nil {
		t.Fatal(err)
	}
	mvkk, _ := index.ParseMaterial("MvKK")
	missing, err := verify.Verify(ctx, out, verify.Options{Only: []index.Material{mvkk}})
	if err != nil {
		t.Fatal(err)
	}
	want := "values not checked: " + filepath.Join(out, "KKvM.dtb") + ": missing (listed in MANIFEST.json)"
	if len(missing) != 2 || missing[0].OK() || searchedError(missing, mvkk) != want {
		t.Errorf("MvKK searched through a missing KKvM.dtb: %+v, want both failed, MvKK with %q", missing, want)
	}

	dir := copyTables(t)
	m, _ := index.ParseMaterial("KKvM")
	x := index.New(m)
	rewrite(t, dir, m.String(), func(col string, b []byte) {
		if col != table.ValueColumn.Name() {
			return
		}
		for i, v := range b { // the first quiet position won
			if p := rules.Position(x.Unrank(int64(i))); v == table.ValueByte(rules.Win, rules.Win) && !p.HasCapture() {
				b[i] = table.ValueByte(rules.Draw, rules.Draw)
				return
			}
		}
	})
	if _, err := table.Convert(filepath.Join(dir, table.FileName(m)), m); err != nil {
		t.Fatal(err)
	}
	if err := retro.WriteManifest(dir); err != nil {
		t.Fatal(err)
	}
	all, err := verify.Verify(ctx, write(dir, slim.Options{Distances: true}), verify.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range all {
		if r.Material == m && r.Mismatches == 0 {
			t.Errorf("KKvM with a win made a draw: %+v", r)
		}
	}
	if got := searchedError(all, mvkk); !strings.HasPrefix(got, "values not checked: ") || !strings.Contains(got, "KKvM.dtb") {
		t.Errorf("MvKK searched through KKvM with a win made a draw: %q, want its values not checked", got)
	}

	// A rule-2 distance that the distance file keeps, one ply too long,
	// in both tables of a pair: the one kept is wrong.
	dir = tabletest.Copy(t, tabletest.Rule2.Dir(t))
	for _, m := range pair {
		x := index.New(m)
		tabletest.Rewrite(t, dir, m, func(h *codec.Header, cols *table.Columns) {
			for i := range x.Size() {
				d := cols[table.DistanceColumn][i]
				p := rules.Position(x.Unrank(i))
				if theory, _ := cols.Values(i); theory != rules.Draw && d > table.ShortDistance && d < table.NoDistance-1 && !p.HasCapture() {
					cols[table.DistanceColumn][i]++
					return
				}
			}
			t.Fatalf("%s: no distance over %d", m, table.ShortDistance)
		})
		if _, err := table.Convert(filepath.Join(dir, table.FileName(m)), m); err != nil {
			t.Fatal(err)
		}
	}
	if err := retro.WriteManifest(dir); err != nil {
		t.Fatal(err)
	}
	reports := run(t, write(dir, slim.Options{Distances: true}), verify.Options{Only: pair[:1]})
	if r := reports[table.FileName(pair[0])]; r.Mismatches+reports[table.FileName(pair[1])].Mismatches == 0 {
		t.Errorf("%s with a distance one ply too long: %+v", pair[0], r)
	}
}

// searchedError returns the errors of the report of m, a table answered
// by a search, in one string.
func searchedError(reports []verify.Report, m index.Material) string {
	for _, r := range reports {
		if r.Material == m {
			return fmt.Sprint(errors.Join(r.Errors...))
		}
	}
	return "no report"
}

// TestResume interrupts a check in the middle of a table, then calls
// Verify again with the same work folder: it goes on where the first
// stopped (some positions resumed, none checked twice) and its reports
// are those of a check run at once, mismatches and stats included. A
// progress kept under other options is started over.
func TestResume(t *testing.T) {
	dir, want := changedRule2(t)
	work := filepath.Join(t.TempDir(), "work")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	chunks := 0
	verify.SetTestHooks(t.Cleanup, func() {
		if chunks++; chunks == 10 { // of the 38 blocks of KKvKM
			cancel()
		}
	}, 0)
	if _, err := verify.Verify(ctx, dir, verify.Options{Only: changedOnly, Threads: 2, Work: work}); !errors.Is(err, context.Canceled) {
		t.Fatalf("interrupted check: %v, want %v", err, context.Canceled)
	}
	kept, _ := filepath.Glob(filepath.Join(work, "*.json"))
	if len(kept) == 0 {
		t.Fatal("an interrupted check kept no progress")
	}
	for _, c := range []struct {
		examples int
		resumed  bool
	}{{5, false}, {10, true}} {
		saved := filepath.Join(t.TempDir(), "saved")
		if err := os.CopyFS(saved, os.DirFS(work)); err != nil {
			t.Fatal(err)
		}
		reports, err := verify.Verify(context.Background(), dir, verify.Options{Only: changedOnly, Threads: 2, Work: work, Examples: c.examples})
		if err != nil {
			t.Fatal(err)
		}
		var resumed, checked int64
		midTable := false // a table resumed in its middle
		for _, r := range reports {
			name := filepath.Base(r.File)
			resumed += r.Resumed
			midTable = midTable || r.Resumed > 0 && r.Resumed < r.Checked
			w := want[name]
			checked += r.Checked
			if c.examples < len(w.Examples) {
				w.Examples = w.Examples[:c.examples]
			}
			r.Elapsed, w.Elapsed, r.Resumed = 0, 0, 0
			if fmt.Sprint(r) != fmt.Sprint(w) {
				t.Errorf("examples %d: %s resumed: %+v; checked at once: %+v", c.examples, name, r, w)
			}
		}
		if (resumed > 0) != c.resumed || resumed >= checked || midTable != c.resumed {
			t.Errorf("examples %d: %d of %d positions checked resumed (a table in its middle: %v), want resumed %v", c.examples, resumed, checked, midTable, c.resumed)
		}
		if _, err := os.Stat(work); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("examples %d: the work folder is still there after the check: %v", c.examples, err)
		}
		if err := os.CopyFS(work, os.DirFS(saved)); err != nil {
			t.Fatal(err)
		}
	}
}
