package slim_test

import (
	"context"
	"errors"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/dtb-draughts/dtb/codec"
	"github.com/dtb-draughts/dtb/draughts"
	"github.com/dtb-draughts/dtb/index"
	"github.com/dtb-draughts/dtb/internal/dirlock"
	"github.com/dtb-draughts/dtb/internal/slim"
	"github.com/dtb-draughts/dtb/internal/tabletest"
	"github.com/dtb-draughts/dtb/probe"
	"github.com/dtb-draughts/dtb/retro"
	"github.com/dtb-draughts/dtb/rules"
	"github.com/dtb-draughts/dtb/table"
)

func TestMain(m *testing.M) { os.Exit(tabletest.Run(m)) }

// write writes the slim tables of dir to a temporary directory.
func write(t testing.TB, dir string, o slim.Options) string {
	t.Helper()
	out := filepath.Join(t.TempDir(), "slim")
	if err := slim.Write(context.Background(), dir, out, o); err != nil {
		t.Fatal(err)
	}
	return out
}

func open(t testing.TB, dir string) *probe.Tables {
	t.Helper()
	tb, err := probe.Open(dir, probe.Options{CacheBytes: 256 << 20})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tb.Close() })
	return tb
}

// positions calls f with positions of m (White to move): every one of a
// table of up to limit positions, else every k-th for about limit.
func positions(m index.Material, limit int64, f func(p draughts.Position)) {
	x := index.New(m)
	step := max(x.Size()/limit, 1)
	for i := int64(0); i < x.Size(); i += step {
		p := rules.Position(x.Unrank(i))
		if probe.Check(p) == nil {
			f(p)
		}
	}
}

// TestSearchedAnswers checks that a slim directory answers positions as
// the directory it was written from: the positions of the tables left
// out, found by a search through their colour flips, and of the kept
// ones, whose short rule-2 distances a search finds, with their whole
// entry (distances, dtw and mtc included) under fresh and running clocks
// and their value with ValuesOnly; without distance files, the values
// with ValuesOnly under a rule-2 count one ply on (the marks).
// Every position of a table of up to 20,000, evenly spaced ones of a
// larger; under DTB_LONG also the tables of 4 pieces, up to 300,000
// positions of each (about a tenth of the largest).
func TestSearchedAnswers(t *testing.T) {
	sets := map[string]string{"golden": tabletest.Golden, "rule2": tabletest.Rule2.Dir(t)}
	limit := int64(20000)
	if os.Getenv("DTB_LONG") != "" {
		sets["four"], limit = tabletest.Four.Dir(t), 300000
	}
	for name, dir := range sets {
		t.Run(name, func(t *testing.T) {
			full := open(t, dir)
			// Forced threats left out of one, searched; kept in the
			// other where they save little, as in every table here.
			withDist := open(t, write(t, dir, slim.Options{Distances: true, Threats: slim.ThreatsLeftOut}))
			valuesOnly := open(t, write(t, dir, slim.Options{}))
			searched, rule2 := 0, 0
			for _, m := range full.Materials() {
				class, err := full.Class(m)
				if err != nil {
					t.Fatal(err)
				}
				isSearched := !stored(withDist, m)
				if isSearched {
					searched++
					if class == rules.Rule2 {
						rule2++
					}
				}
				clocks := []probe.Clocks{{}}
				if class == rules.Rule2 {
					clocks = append(clocks, probe.Clocks{Rule2: 1}, probe.Clocks{Rule2: 30}, probe.Clocks{Rule2: 49})
				}
				checked := 0
				positions(m, limit, func(p draughts.Position) {
					for _, c := range clocks {
						want, err := full.Probe(p, c, 0)
						if err != nil {
							t.Fatalf("%s: %v", p.FEN(), err)
						}
						got, err := withDist.Probe(p, c, 0)
						if err != nil || got != want {
							t.Fatalf("%s %+v: slim %+v, %v; built %+v (searched: %v)", p.FEN(), c, got, err, want, isSearched)
						}
						got, err = withDist.Probe(p, c, probe.ValuesOnly)
						if err != nil || got.Value != want.Value {
							t.Fatalf("%s %+v: slim values only %+v, %v; built %+v (searched: %v)", p.FEN(), c, got, err, want, isSearched)
						}
						if c.Rule2 > 1 || c.Rule2 == 1 && isSearched {
							continue // ValuesOnly reads the distances
						}
						got, err = valuesOnly.Probe(p, c, probe.ValuesOnly)
						if err != nil || got.Value != want.Value || got.Entry.Theory != want.Entry.Theory || got.Entry.Rules != want.Entry.Rules {
							t.Fatalf("%s %+v: values only %+v, %v; stored %+v", p.FEN(), c, got, err, want)
						}
					}
					checked++
				})
				if checked == 0 {
					t.Errorf("%s: no position checked", m)
				}
			}
			if searched == 0 || name == "rule2" && rule2 == 0 {
				t.Errorf("%d tables searched, %d of them with a rule-2 count: the test checks nothing", searched, rule2)
			}
		})
	}
}

// stored reports whether t has a file of m's table, not a search through
// its colour flip (whose header Header returns).
func stored(t *probe.Tables, m index.Material) bool {
	h, err := t.Header(m)
	return err == nil && h.Material == m.String()
}

// TestKeepsSmaller checks which table of a pair Write keeps: the smaller
// value file, both of a class A or B pair, a table without a pair.
func TestKeepsSmaller(t *testing.T) {
	dir := tabletest.Golden
	entries, err := codec.ReadManifest(dir)
	if err != nil {
		t.Fatal(err)
	}
	size := map[string]int64{}
	for _, e := range entries {
		size[e.Material] = e.Size
	}
	out := write(t, dir, slim.Options{})
	got, err := codec.ReadManifest(out)
	if err != nil {
		t.Fatal(err)
	}
	listed := map[string]bool{}
	for _, e := range got {
		listed[e.Material] = true
		if e.Searched != "" {
			listed[e.Searched] = false
		}
	}
	for _, e := range entries {
		m, _ := index.ParseMaterial(e.Material)
		f := m.Flip()
		_, paired := size[f.String()]
		want := true
		if paired && f != m && !rules.ClassOf(m).Carries() {
			want = size[e.Material] < size[f.String()] || size[e.Material] == size[f.String()] && index.Compare(m, f) < 0
		}
		if stored, ok := listed[e.Material]; !ok || stored != want {
			t.Errorf("%s (%d bytes, flip %d): stored %v (listed %v), want %v", m, e.Size, size[f.String()], stored, ok, want)
		}
		if _, err := os.Stat(filepath.Join(out, e.File)); (err == nil) != want {
			t.Errorf("%s: file %v, want stored %v", e.File, err, want)
		}
	}
}

// TestWriteErrors checks the refusals: the same directory, a slim one, one
// without a manifest.
func TestWriteErrors(t *testing.T) {
	ctx := context.Background()
	dir := tabletest.Copy(t, tabletest.Golden)
	out := write(t, dir, slim.Options{})
	empty := t.TempDir()
	for _, tc := range []struct {
		dir, out, want string
	}{
		{dir, dir, "another directory"},
		{out, filepath.Join(t.TempDir(), "again"), "slim directory already"},
		{empty, filepath.Join(t.TempDir(), "x"), "dtb gen --out " + empty},
		{dir, tabletest.Copy(t, tabletest.Golden), "holds the tables of a build"},
	} {
		err := slim.Write(ctx, tc.dir, tc.out, slim.Options{})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Write(%s, %s) = %v, want %q", tc.dir, tc.out, err, tc.want)
		}
	}
	if _, err := codec.ReadManifest(dir); err != nil {
		t.Errorf("the source's manifest: %v", err)
	}
	if err := slim.Write(ctx, dir, out, slim.Options{}); err != nil {
		t.Errorf("written again over itself: %v", err)
	}
}

// TestGenRefusesSlim checks that dtb gen does not take a slim
// directory's files for its own: it refuses to build in a slim
// directory, and over a build whose tables were overwritten by slim
// value files (marked, forced threats left out) it rebuilds those,
// byte for byte as they were.
func TestGenRefusesSlim(t *testing.T) {
	ctx := context.Background()
	build := tabletest.Golden
	o := retro.Options{Pieces: 3, DTW: true} // as testdata/README.md says
	out := write(t, build, slim.Options{Threats: slim.ThreatsLeftOut})
	o.Dir = out
	if err := retro.Generate(ctx, o); err == nil || !strings.Contains(err.Error(), "is a slim directory") {
		t.Errorf("gen in a slim directory: %v, want a refusal", err)
	}
	mixed := tabletest.Copy(t, build)
	files, err := filepath.Glob(filepath.Join(write(t, build, slim.Options{Distances: true, Threats: slim.ThreatsLeftOut}), "*.dtb"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(mixed, filepath.Base(f)), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := retro.WriteManifest(mixed); err != nil { // vouching for the slim files, as dtb slim --out over a build did
		t.Fatal(err)
	}
	o.Dir = mixed
	if err := retro.Generate(ctx, o); err != nil {
		t.Fatal(err)
	}
	differed := 0
	for _, f := range files {
		name := filepath.Base(f)
		want, _ := os.ReadFile(filepath.Join(build, name))
		if slim, _ := os.ReadFile(f); !slices.Equal(slim, want) {
			differed++
		}
		if got, _ := os.ReadFile(filepath.Join(mixed, name)); !slices.Equal(got, want) {
			t.Errorf("%s: the slim value file kept, not rebuilt", name)
		}
	}
	if differed == 0 {
		t.Errorf("no slim value file differs from the build's")
	}
}

// TestLocksAndLeftovers checks that Write refuses a source that another
// process writes (dtb gen holds it alone) and an out that another
// process holds, each naming the directory, reads a source beside
// another reader, and removes what a Write killed before its end left in
// out: half-written files and the scratch folder.
func TestLocksAndLeftovers(t *testing.T) {
	ctx := context.Background()
	dir := tabletest.Copy(t, tabletest.Golden)
	out := filepath.Join(t.TempDir(), "slim")
	if err := os.Mkdir(out, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, held := range []string{dir, out} {
		l, err := dirlock.Exclusive(held)
		if err != nil {
			t.Fatal(err)
		}
		err = slim.Write(ctx, dir, out, slim.Options{})
		l.Release()
		if err == nil || !strings.Contains(err.Error(), "is writing "+held+": wait for it to end") {
			t.Errorf("%s held: %v, want a refusal naming it", held, err)
		}
	}
	left := []string{"KvK.dtb.123.tmp", "KvK" + table.DistanceExt + ".4.tmp", codec.ManifestName + ".5.tmp", filepath.Join(".threats", "KKvK.dtb")}
	for _, f := range left {
		path := filepath.Join(out, f)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte("half"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	reader, err := dirlock.Shared(dir) // another slim reading dir
	if err != nil {
		t.Fatal(err)
	}
	defer reader.Release()
	if err := slim.Write(ctx, dir, out, slim.Options{}); err != nil {
		t.Fatalf("beside another reader: %v", err)
	}
	for _, f := range append(left, ".threats") {
		if _, err := os.Stat(filepath.Join(out, f)); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%s left in %s: %v", f, out, err)
		}
	}
}

// TestMarks checks the marks on which a search with ValuesOnly relies,
// on tables where they matter: no table up to 5 pieces has a rule-2
// distance of 50, so the test forges one. In both tables of the pair
// KMvKK and KKvKM every third quiet position won or lost under the rules
// at a distance a search does not find (over table.ShortDistance) gets
// distance 50. A slim directory of the forged tables must answer the
// positions of the table it searches with ValuesOnly and fresh clocks (the
// marks) as without (the distances), and the kept table's positions with
// ValuesOnly under a count of 1 as under the distances.
func TestMarks(t *testing.T) {
	dir := tabletest.Copy(t, tabletest.Rule2.Dir(t))
	pair := []index.Material{{WhiteKings: 1, WhiteMen: 1, BlackKings: 2}, {WhiteKings: 2, BlackKings: 1, BlackMen: 1}}
	forged := 0
	for _, m := range pair {
		x := index.New(m)
		tabletest.Rewrite(t, dir, m, func(h *codec.Header, cols *table.Columns) {
			for i := range x.Size() {
				p := rules.Position(x.Unrank(i))
				if _, ru := cols.Values(i); ru != rules.Draw && !p.HasCapture() && i%3 == 0 && cols[table.DistanceColumn][i] > table.ShortDistance {
					cols[table.DistanceColumn][i] = rules.Rule2Plies
					forged++
				}
			}
		})
		if _, err := table.Convert(filepath.Join(dir, table.FileName(m)), m); err != nil {
			t.Fatal(err)
		}
	}
	if err := retro.WriteManifest(dir); err != nil {
		t.Fatal(err)
	}
	tb := open(t, write(t, dir, slim.Options{Distances: true}))
	changed := 0
	for _, m := range pair {
		searched := !stored(tb, m)
		c := probe.Clocks{}
		if !searched {
			c.Rule2 = 1
		}
		positions(m, 50000, func(p draughts.Position) {
			want, err := tb.Probe(p, c, 0)
			if err != nil {
				t.Fatal(err)
			}
			got, err := tb.Probe(p, c, probe.ValuesOnly)
			if err != nil || got.Value != want.Value {
				t.Fatalf("%s %+v: values only %+v, %v; with distances %+v", p.FEN(), c, got, err, want)
			}
			if want.Value != want.Entry.Theory {
				changed++ // drawn by the count where theory decides
			}
		})
	}
	if changed == 0 {
		t.Errorf("%d distances forged, no value changed: the test checks nothing", forged)
	}
	t.Logf("%d distances forged, %d values drawn by the count", forged, changed)
}

// TestStoredOnly checks that a probe with StoredOnly answers a stored
// quiet position and fails with ErrNotStored for a position of a table
// answered by a search and for one that must capture.
func TestStoredOnly(t *testing.T) {
	tb := open(t, write(t, tabletest.Golden, slim.Options{}))
	for _, c := range []struct {
		fen    string
		stored bool
	}{
		{"W:W20:BK1,K10", false}, // MvKK, searched through KKvM
		{"B:W20:BK1,K10", true},  // KKvM
		{"W:W28:B23", false},     // must capture
	} {
		p, err := draughts.ParseFEN(c.fen)
		if err != nil {
			t.Fatal(err)
		}
		_, err = tb.Probe(p, probe.Clocks{}, probe.StoredOnly|probe.ValuesOnly)
		if (err == nil) != c.stored || err != nil && !errors.Is(err, probe.ErrNotStored) {
			t.Errorf("%s: %v, want stored %v", c.fen, err, c.stored)
		}
		if _, err := tb.Probe(p, probe.Clocks{}, probe.ValuesOnly); err != nil {
			t.Errorf("%s without StoredOnly: %v", c.fen, err)
		}
	}

	// The wins and losses of a table with short distances: their
	// distance is not stored where it may be short, their value is
	// where the count leaves more plies than the distance can be (most).
	tb = open(t, write(t, tabletest.Rule2.Dir(t), slim.Options{Distances: true, Threats: slim.ThreatsLeftOut}))
	m := index.Material{WhiteKings: 2, BlackKings: 2} // KKvKK, its own colour flip
	checked, answered := 0, 0
	threats := 0
	positions(m, 20000, func(p draughts.Position) {
		if p.HasCapture() {
			return
		}
		r, err := tb.Probe(p, probe.Clocks{}, probe.StoredOnly|probe.ValuesOnly)
		if rules.ForcedThreat(&p) {
			if !errors.Is(err, probe.ErrNotStored) {
				t.Fatalf("%s, a forced threat: %v, want %v", p.FEN(), err, probe.ErrNotStored)
			}
			threats++
			return
		}
		if err != nil {
			t.Fatalf("%s fresh: %v", p.FEN(), err)
		}
		if r.Entry.Theory == rules.Draw {
			return
		}
		checked++
		if _, err := tb.Probe(p, probe.Clocks{Rule2: 40}, probe.StoredOnly); !errors.Is(err, probe.ErrNotStored) {
			t.Fatalf("%s at count 40: %v, want %v", p.FEN(), err, probe.ErrNotStored)
		}
		switch r, err := tb.Probe(p, probe.Clocks{Rule2: 2}, probe.StoredOnly|probe.ValuesOnly); {
		case err == nil && r.Value == r.Entry.Theory:
			answered++
		case !errors.Is(err, probe.ErrNotStored):
			t.Fatalf("%s at count 2, values only: %+v, %v", p.FEN(), r, err)
		}
	})
	if checked == 0 || answered == 0 || threats == 0 {
		t.Errorf("%d wins and losses in %s, %d answered at count 2, %d forced threats", checked, m, answered, threats)
	}
}

// TestThreats checks which value files leave out their forced threats
// under each Options.Threats: every one that may (a table kept, of a
// material without a class clock) with ThreatsLeftOut, none with
// ThreatsKept, and with ThreatsWherePaying those that the other two show
// to save at least the threshold, set between the savings of the test
// set's tables so that both choices occur; and that the directories
// answer alike.
func TestThreats(t *testing.T) {
	dir := tabletest.Rule2.Dir(t)
	kept, left := write(t, dir, slim.Options{Threats: slim.ThreatsKept}), write(t, dir, slim.Options{Threats: slim.ThreatsLeftOut})
	saving := map[index.Material]float64{}
	keptTables := open(t, kept)
	for _, m := range keptTables.Materials() {
		if rules.ClassOf(m).Carries() || !stored(keptTables, m) {
			continue
		}
		k, l := info(t, kept, m), info(t, left, m)
		if k.Slim.ForcedThreats || !l.Slim.ForcedThreats {
			t.Errorf("%s: forced threats left out %v with ThreatsKept, %v with ThreatsLeftOut", m, k.Slim.ForcedThreats, l.Slim.ForcedThreats)
		}
		saving[m] = 1 - float64(size(t, left, m))/float64(size(t, kept, m))
	}
	savings := slices.Sorted(maps.Values(saving))
	if len(savings) < 2 || savings[0] == savings[len(savings)-1] {
		t.Fatalf("savings %v: too few to split", savings)
	}
	threshold := (savings[len(savings)/2-1] + savings[len(savings)/2]) / 2
	if threshold == savings[len(savings)/2] {
		threshold = (savings[0] + savings[len(savings)-1]) / 2
	}
	defer slim.SetThreatSaving(threshold)()
	paying := write(t, dir, slim.Options{})
	for m, s := range saving {
		if got, want := info(t, paying, m).Slim.ForcedThreats, s >= threshold; got != want {
			t.Errorf("%s saves %.3f by leaving out forced threats: left out %v at threshold %.3f, want %v", m, s, got, threshold, want)
		}
	}
	a, b := keptTables, open(t, paying)
	for m := range saving {
		positions(m, 5000, func(p draughts.Position) {
			x, errX := a.Probe(p, probe.Clocks{}, probe.ValuesOnly)
			y, errY := b.Probe(p, probe.Clocks{}, probe.ValuesOnly)
			if errX != nil || errY != nil || x.Value != y.Value || x.Entry.Theory != y.Entry.Theory {
				t.Fatalf("%s: %+v, %v with forced threats kept; %+v, %v where paying", p.FEN(), x, errX, y, errY)
			}
		})
	}
}

// info returns the file information of the value file of m in dir.
func info(t *testing.T, dir string, m index.Material) table.Info {
	t.Helper()
	f, err := table.Open(filepath.Join(dir, table.FileName(m)), m)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	return f.Info
}

// size returns the bytes of the value file of m in dir.
func size(t *testing.T, dir string, m index.Material) int64 {
	t.Helper()
	st, err := os.Stat(filepath.Join(dir, table.FileName(m)))
	if err != nil {
		t.Fatal(err)
	}
	return st.Size()
}

// TestShortDistances checks the files of a slim directory's Rule2 tables
// against those they were written from: every entry keeps its bytes but
// those of capture positions and forced threats and the rule-2 distances
// of at most table.ShortDistance plies (don't-cares), some of which are
// left out. TestSearchedAnswers checks that a probe finds them.
func TestShortDistances(t *testing.T) {
	dir := tabletest.Rule2.Dir(t)
	out := write(t, dir, slim.Options{Distances: true})
	left, threats, tb := 0, 0, open(t, out)
	for _, m := range tb.Materials() {
		if rules.ClassOf(m) != rules.Rule2 || !stored(tb, m) {
			continue
		}
		built, short := columns(t, dir, m), columns(t, out, m)
		x := index.New(m)
		for i := range int64(len(built[table.ValueColumn])) {
			if p := rules.Position(x.Unrank(i)); p.HasCapture() {
				continue
			} else if rules.ForcedThreat(&p) {
				threats++
				continue
			}
			b, _ := built.Entry(i)
			s, _ := short.Entry(i)
			if b.Distance >= 0 && b.Distance <= table.ShortDistance && b.Theory != rules.Draw {
				if s.Distance != b.Distance {
					left++
				}
				s.Distance = b.Distance
			}
			if s != b {
				t.Fatalf("%s entry %d: %+v in the slim directory, %+v built", m, i, s, b)
			}
		}
	}
	if left == 0 || threats == 0 {
		t.Errorf("%d short distances left out, %d forced threats", left, threats)
	}
}

// columns returns the entries of the table of m in dir, as its files hold
// them.
func columns(t *testing.T, dir string, m index.Material) table.Columns {
	t.Helper()
	f, err := table.Open(filepath.Join(dir, table.FileName(m)), m)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if info := f.Info; info.Slim.ShortDistances != (dir != tabletest.Rule2.Dir(t)) {
		t.Fatalf("%s in %s: short distances %v", m, dir, info.Slim.ShortDistances)
	}
	cols, err := f.ReadColumns()
	if err != nil {
		t.Fatal(err)
	}
	return cols
}
