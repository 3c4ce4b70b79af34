package retro

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/dtb-draughts/dtb/draughts"
	"github.com/dtb-draughts/dtb/index"
	"github.com/dtb-draughts/dtb/internal/dirlock"
	"github.com/dtb-draughts/dtb/internal/testenv"
	"github.com/dtb-draughts/dtb/rules"
	"github.com/dtb-draughts/dtb/table"
)

func TestUnitsOrderAndCounts(t *testing.T) {
	for pieces, want := range map[int]int{2: 3, 3: 9, 4: 23, 5: 45, 7: 134} {
		units, err := Units(Options{Pieces: pieces})
		if err != nil {
			t.Fatal(err)
		}
		if len(units) != want {
			t.Errorf("%d pieces: %d units, want %d", pieces, len(units), want)
		}
		seen := map[string]bool{}
		tables := 0
		for _, u := range units {
			if seen[u.ID] {
				t.Errorf("%d pieces: unit %s twice", pieces, u.ID)
			}
			for _, d := range u.Deps {
				if !seen[d] {
					t.Errorf("%d pieces: unit %s comes before its dep %s", pieces, u.ID, d)
				}
			}
			seen[u.ID] = true
			if u.ID != u.Materials[0].String() || UnitID(u.Materials[len(u.Materials)-1]) != u.ID {
				t.Errorf("%d pieces: unit %s writes %v", pieces, u.ID, u.Materials)
			}
			tables += len(u.Materials)
		}
		if n := len(index.Materials(pieces)); tables != n {
			t.Errorf("%d pieces: the units write %d tables, want %d", pieces, tables, n)
		}
	}
}

// TestUnitDepsAreReached checks, for every unit up to 3 pieces (4 under
// DTB_LONG=1), that its deps are exactly the units whose tables the
// captures and crownings of its positions lead to (its other moves stay
// in the unit's group).
func TestUnitDepsAreReached(t *testing.T) {
	pieces := 3
	if testenv.Long() {
		pieces = 4
	}
	units, err := Units(Options{Pieces: pieces})
	if err != nil {
		t.Fatal(err)
	}
	for _, u := range units {
		reached := map[string]bool{}
		for _, m := range u.Materials {
			x := index.New(m)
			var buf [draughts.MaxMoves]draughts.Move
			for pl, ok := x.Unrank(0), true; ok; pl, ok = x.Next(pl) {
				p := rules.Position(pl)
				for _, mv := range p.Moves(buf[:0]) {
					if q := p.Play(mv); !lost(&q) && UnitID(rules.MaterialOf(&q)) != u.ID {
						reached[UnitID(rules.MaterialOf(&q))] = true
					}
				}
			}
		}
		var want []string
		for _, v := range units {
			if reached[v.ID] {
				want = append(want, v.ID)
			}
		}
		if !slices.Equal(u.Deps, want) {
			t.Errorf("unit %s: deps %v, but its moves reach %v", u.ID, u.Deps, want)
		}
	}
}

func TestUnitsOnly(t *testing.T) {
	m, _ := index.ParseMaterial("KvKKM")
	units, err := Units(Options{Only: &m})
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, u := range units {
		ids = append(ids, u.ID)
	}
	if want := []string{"KvK", "KvM", "KKvK", "KMvK", "KKKvK", "KKMvK"}; !slices.Equal(ids, want) {
		t.Errorf("units of KvKKM: %v, want %v", ids, want)
	}
	if big, _ := index.ParseMaterial("KKKKvKKKK"); !errorsOf(Units(Options{Only: &big})) {
		t.Error("Units of 8 pieces: no error")
	}
}

func errorsOf(_ []Unit, err error) bool { return err != nil }

// TestBuildUnit builds the 3-piece units one by one into a directory and
// compares the files with those of Generate.
func TestBuildUnit(t *testing.T) {
	ref, err := generated()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	o := Options{Dir: dir, DTW: true, MTC: true, Threads: 2}
	// A unit needs its deps' tables first.
	err = BuildUnit(context.Background(), "KKvK", o)
	if want := "unit KKvK needs KvK.dtb in " + dir + ": build unit KvK first"; err == nil || err.Error() != want {
		t.Errorf("KKvK before KvK: %v, want %q", err, want)
	}
	// Another unit's temporary file stays; the unit's own goes.
	other, own := filepath.Join(dir, "KKKvK.dtb.1.tmp"), filepath.Join(dir, "KvK.dtb.1.tmp")
	for _, f := range []string{other, own} {
		if err := os.WriteFile(f, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	units, err := Units(Options{Pieces: 3})
	if err != nil {
		t.Fatal(err)
	}
	for _, u := range units {
		if err := BuildUnit(context.Background(), u.ID, o); err != nil {
			t.Fatalf("unit %s: %v", u.ID, err)
		}
	}
	if _, err := os.Stat(own); err == nil {
		t.Error("the unit's own temporary file is left")
	}
	if _, err := os.Stat(other); err != nil {
		t.Errorf("another unit's temporary file is gone: %v", err)
	}
	os.Remove(other)
	for _, m := range index.Materials(3) {
		for _, name := range []string{table.FileName(m), table.DistancePath(table.FileName(m))} {
			got, err1 := os.ReadFile(filepath.Join(dir, name))
			want, err2 := os.ReadFile(filepath.Join(ref, name))
			if err1 != nil || err2 != nil || !bytes.Equal(got, want) {
				t.Errorf("%s differs from Generate's (%v, %v)", name, err1, err2)
			}
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "MANIFEST.json")); err == nil {
		t.Error("BuildUnit wrote the manifest")
	}
	// A unit already built is kept; the manifest lists every table.
	var reports []Report
	o.Done = func(r Report) { reports = append(reports, r) }
	if err := BuildUnit(context.Background(), "KMvK", o); err != nil || len(reports) != 2 || reports[0].Built {
		t.Errorf("KMvK again: %v, %+v", err, reports)
	}
	if err := WriteManifest(dir); err != nil {
		t.Fatal(err)
	}
	entries, err := os.ReadFile(filepath.Join(dir, "MANIFEST.json"))
	if err != nil || strings.Count(string(entries), `"material"`) != len(index.Materials(3)) {
		t.Errorf("manifest: %v %s", err, entries)
	}
}

func TestBuildUnitBadID(t *testing.T) {
	for _, id := range []string{"KvKKM", "KXvK", "", "KKKKvKKKK", "KvK.l1", "KvK.l0.1of1", "KKvKM.l9.1of2", "KKvKM.l8.3of2",
		"KKvKM.l08.1of2", "KKvKM.l8.0of2", "KMvKK.l8.1of2", "KKKKvKKKM.l1.1of2"} {
		if err := BuildUnit(context.Background(), id, Options{Dir: t.TempDir()}); err == nil {
			t.Errorf("unit %q: no error", id)
		}
	}
}

// TestOneWriterPerDirectory checks that a build refuses at once, naming
// the holder, a directory whose lock another build holds (here through
// another open of the directory, which flock treats as another process),
// and writes nothing there: Generate and WriteManifest beside any build,
// BuildUnit beside a Generate or a job of the same unit, but not beside
// jobs of other units.
func TestOneWriterPerDirectory(t *testing.T) {
	if runtime.GOOS == "windows" || runtime.GOOS == "plan9" {
		t.Skip("no flock on " + runtime.GOOS)
	}
	dir := t.TempDir()
	held := func(what string) string {
		if _, err := os.Stat("/proc/locks"); err != nil {
			return "another dtb gen is building " + what
		}
		return fmt.Sprintf("another dtb gen (pid %d) is building %s", os.Getpid(), what)
	}
	ex, err := dirlock.Exclusive(dir)
	if err != nil {
		t.Fatal(err)
	}
	o := Options{Pieces: 2, Dir: dir, Threads: 1}
	if err := Generate(context.Background(), o); err == nil || err.Error() != held(dir) {
		t.Errorf("Generate beside a build: %v, want %q", err, held(dir))
	}
	if err := BuildUnit(context.Background(), "KvK", o); err == nil || err.Error() != held(dir) {
		t.Errorf("BuildUnit beside a Generate: %v, want %q", err, held(dir))
	}
	if err := WriteManifest(dir); err == nil || err.Error() != held(dir) {
		t.Errorf("WriteManifest beside a build: %v, want %q", err, held(dir))
	}
	ex.Release()
	if left, _ := os.ReadDir(dir); len(left) != 0 {
		t.Errorf("refused builds left %v", left)
	}

	shared, err := dirlock.Shared(dir) // a job of another unit
	if err != nil {
		t.Fatal(err)
	}
	defer shared.Release()
	if err := WriteManifest(dir); err == nil || err.Error() != held(dir) {
		t.Errorf("WriteManifest beside a unit: %v, want %q", err, held(dir))
	}
	work := filepath.Join(dir, WorkDir, "KvK")
	if err := os.MkdirAll(work, 0o755); err != nil {
		t.Fatal(err)
	}
	unit, err := dirlock.Exclusive(work) // a job of KvK
	if err != nil {
		t.Fatal(err)
	}
	if err := BuildUnit(context.Background(), "KvK", o); err == nil || err.Error() != held("unit KvK in "+dir) {
		t.Errorf("BuildUnit beside a job of the same unit: %v, want %q", err, held("unit KvK in "+dir))
	}
	unit.Release()
	if err := BuildUnit(context.Background(), "KvK", o); err != nil {
		t.Errorf("BuildUnit beside a job of another unit: %v", err)
	}
}
