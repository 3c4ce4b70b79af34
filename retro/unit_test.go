package retro

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/dtb-draughts/dtb/codec"
	"github.com/dtb-draughts/dtb/draughts"
	"github.com/dtb-draughts/dtb/index"
	"github.com/dtb-draughts/dtb/internal/testenv"
	"github.com/dtb-draughts/dtb/rules"
	"github.com/dtb-draughts/dtb/table"
)

// TestUnits checks the split of groups into units: every block is in
// exactly one unit (a configuration that is its own flip in a symmetric
// group: twice, as its own pair), next to its pair (the same men turned
// and recoloured, in the other table), where locate finds it; units stay
// within the budget, levels come highest first, and every man move leads
// one level up. With a split, a level of at least that many pairs has
// at least that many units; the units of a level differ by a pair at
// most.
func TestUnits(t *testing.T) {
	for _, name := range []string{"KvK", "MvM", "KMvM", "KMvKM", "MMvMM", "KKMvK", "MMMvK"} {
		m, _ := index.ParseMaterial(name)
		g := newGroup(m)
		k := g.tables[0].KingPlacements()
		for _, c := range []struct {
			max   int64
			split int
		}{{1, 0}, {4 * k, 0}, {1 << 62, 0}, {1 << 62, 3}, {4 * k, 5}} {
			max := c.max
			l := g.newLayout(max, c.split)
			checkSplit(t, name, l, c.split)
			var seen [2][]int
			for tt, x := range g.tables {
				seen[tt] = make([]int, x.MenConfigs())
			}
			prev := 1 << 30
			for n, u := range l.units {
				if u.level > prev {
					t.Fatalf("%s: unit %s after level %d", name, u.name, prev)
				}
				prev = u.level
				if u.size() > max && u.pairs > 1 {
					t.Errorf("%s: unit %s has %d positions, budget %d", name, u.name, u.size(), max)
				}
				l.load(u)
				for j, b := range u.blocks {
					seen[b.t][b.r]++
					wm, bm := g.tables[b.t].UnrankMen(b.r)
					if level(wm, bm) != u.level {
						t.Errorf("%s: block %d/%d of level %d in unit %s", name, b.t, b.r, level(wm, bm), u.name)
					}
					p := u.blocks[j^1]
					flip := rules.FlipPlacement(index.Placement{WhiteMen: wm, BlackMen: bm})
					if p.t != g.other(b.t) || g.tables[p.t].RankMen(flip.WhiteMen, flip.BlackMen) != p.r {
						t.Errorf("%s: block %d/%d paired with %d/%d", name, b.t, b.r, p.t, p.r)
					}
					if ln, lj := l.locate(b.t, b.r); ln != n || lj != j && !(b == p && lj == j^1) {
						t.Errorf("%s: block %d/%d is block %d of unit %d, located at %d of %d", name, b.t, b.r, j, n, lj, ln)
					}
					if max == 1 { // the levels are those of every budget
						checkManMoves(t, g, b, u.level)
					}
				}
			}
			for tt, x := range g.tables {
				for r := range x.MenConfigs() {
					want := 1
					if len(g.tables) == 1 && g.flipRank(0, r) == r {
						want = 2
					}
					if seen[tt][r] != want {
						t.Errorf("%s, max %d: block %d/%d in %d units' blocks, want %d", name, max, tt, r, seen[tt][r], want)
					}
				}
			}
		}
	}
}

// checkSplit checks that each level of l of at least split pairs has at
// least split units, and that its units differ by a pair at most.
func checkSplit(t *testing.T, name string, l *layout, split int) {
	pairs := map[int][]int64{}
	for _, u := range l.units {
		pairs[u.level] = append(pairs[u.level], u.pairs)
	}
	for lv, p := range pairs {
		if n := l.pairs[lv]; int64(len(p)) < min(int64(split), n) || slices.Max(p)-slices.Min(p) > 1 {
			t.Errorf("%s, split %d: level %d of %d pairs cut into units of %v pairs", name, split, lv, n, p)
		}
	}
}

// checkManMoves checks that the man moves of block b that stay in the
// group lead to blocks of level l+1.
func checkManMoves(t *testing.T, g *group, b block, l int) {
	x := g.tables[b.t]
	p := rules.Position(x.Unrank(b.r * x.KingPlacements()))
	for _, m := range p.Moves(nil) {
		if m.IsCapture() || p.Kings&(1<<m.From) != 0 || (1<<m.To)&draughts.WhiteCrown != 0 {
			continue
		}
		q := p.Play(m)
		pl := rules.Placement(&q)
		if got := level(pl.WhiteMen, pl.BlackMen); got != l+1 {
			t.Errorf("%s: man move %v leads from level %d to %d", p.FEN(), m, l, got)
		}
	}
}

// TestBudgetAndResume builds KKvM (KKvKM under DTB_LONG=1) and what it
// needs with the smallest budget (one pair of blocks a unit), stops the
// build after some units and checks that the rerun reads them back and
// ends with the files of a build without a budget (generated).
func TestBudgetAndResume(t *testing.T) {
	ref, err := generated()
	if err != nil {
		t.Fatal(err)
	}
	only, _ := index.ParseMaterial("KKvM")
	if testenv.Long() {
		only, _ = index.ParseMaterial("KKvKM")
	}
	dir := t.TempDir()
	stop := errors.New("stop")
	units, read, copies := 0, 0, 0
	o := Options{Only: &only, DTW: true, MTC: true, Mem: 1, Dir: dir}
	t.Cleanup(func() { testHookUnitDone = nil })
	testHookUnitDone = func(name string, solved bool) error {
		c, _ := filepath.Glob(filepath.Join(dir, WorkDir, "*.dtb"))
		copies = max(copies, len(c))
		if units++; units == 40 {
			return stop
		}
		return nil
	}
	if err := Generate(context.Background(), o); !errors.Is(err, stop) {
		t.Fatalf("interrupted build: %v", err)
	}
	if copies == 0 { // the store holds none of the tables within the budget
		t.Error("no resolved copies of the tables read later")
	}
	work, _ := filepath.Glob(filepath.Join(dir, WorkDir, "*", "*.unit"))
	if len(work) == 0 {
		t.Fatal("no unit files after the interruption")
	}
	testHookUnitDone = func(name string, solved bool) error {
		if !solved {
			read++
		}
		return nil
	}
	if err := Generate(context.Background(), o); err != nil {
		t.Fatal(err)
	}
	if read != len(work) {
		t.Errorf("the rerun read %d units back, want the %d on disk", read, len(work))
	}
	if _, err := os.Stat(filepath.Join(dir, WorkDir)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the work folder, resolved copies included, is left: %v", err)
	}
	got, want := map[string][]byte{}, map[string][]byte{}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if e.Name() == codec.ManifestName {
			continue // it lists the tables of the directory
		}
		got[e.Name()], _ = os.ReadFile(filepath.Join(dir, e.Name()))
		if want[e.Name()], err = os.ReadFile(filepath.Join(ref, e.Name())); err != nil {
			t.Fatal(err)
		}
	}
	if got[table.FileName(only)] == nil {
		t.Fatalf("no table of %s in %v", only, entries)
	}
	sameFiles(t, "after resuming", got, want)
}

func sameFiles(t *testing.T, what string, got, want map[string][]byte) {
	t.Helper()
	names := func(m map[string][]byte) []string {
		var s []string
		for k := range m {
			s = append(s, k)
		}
		slices.Sort(s)
		return s
	}
	if !slices.Equal(names(got), names(want)) {
		t.Fatalf("%s: files %v, want %v", what, names(got), names(want))
	}
	for name, b := range want {
		if !bytes.Equal(got[name], b) {
			t.Errorf("%s: %s differs", what, name)
		}
	}
}

// TestKeepWork checks that the work folder is removed after a build, and
// kept with its units when asked.
func TestKeepWork(t *testing.T) {
	for _, keep := range []bool{false, true} {
		dir := t.TempDir()
		if err := Generate(context.Background(), Options{Pieces: 3, Dir: dir, KeepWork: keep}); err != nil {
			t.Fatal(err)
		}
		units, _ := filepath.Glob(filepath.Join(dir, WorkDir, "*", "*.unit"))
		_, err := os.Stat(filepath.Join(dir, WorkDir))
		if keep != (len(units) > 0) || keep != (err == nil) {
			t.Errorf("KeepWork %v: %d unit files, work folder: %v", keep, len(units), err)
		}
	}
}

// TestResultFiles checks that the results a unit spills (with dtw and
// mtc, the theory analysis' before the mtc analysis runs) are removed
// once the unit is written, and those an interrupted run left when the
// group is built again.
func TestResultFiles(t *testing.T) {
	only, _ := index.ParseMaterial("KMvK")
	dir := t.TempDir()
	stale := filepath.Join(dir, WorkDir, only.String(), only.String()+".l0.0.1"+resultExt)
	if err := os.MkdirAll(filepath.Dir(stale), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(stale, []byte("left by a crash"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { testHookUnitDone = nil })
	units := 0
	testHookUnitDone = func(name string, solved bool) error {
		units++
		group, _, _ := strings.Cut(name, ".")
		if left, _ := filepath.Glob(filepath.Join(dir, WorkDir, group, "*"+resultExt)); len(left) > 0 {
			return fmt.Errorf("after unit %s: %v", name, left)
		}
		return nil
	}
	if err := Generate(context.Background(), Options{Only: &only, Dir: dir, DTW: true, MTC: true, KeepWork: true}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(stale); units == 0 || err == nil {
		t.Errorf("%d units solved; the result file left by a crash: %v", units, err)
	}
}

// TestUnitBudget checks that a unit, the blocks it reads of the level
// above, the store's tables and the prober's cache fit in the budget
// together.
func TestUnitBudget(t *testing.T) {
	for _, c := range []struct {
		mem int64
		mtc bool
	}{{8 << 30, false}, {512 << 20, false}, {8 << 30, true}, {512 << 20, true}} {
		o := Options{Mem: c.mem, MTC: c.mtc}
		n := o.unitPositions(o.extra(index.Material{}), rules.Rule2)
		_, unitBits := positionSize(o.extra(index.Material{}), rules.Rule2)
		b := budget(c.mem)
		if used := n*unitBits/8 + b.above() + b.store() + b.cache(); used > c.mem {
			t.Errorf("budget %d, mtc %v: units of %d positions, %d bytes in all", c.mem, c.mtc, n, used)
		}
		if n < c.mem/40 {
			t.Errorf("budget %d, mtc %v: units of only %d positions", c.mem, c.mtc, n)
		}
	}
}

// TestProgressInsideUnits checks that progress advances while a unit is
// solved, never goes back and ends at the total.
func TestProgressInsideUnits(t *testing.T) {
	defer func(d time.Duration) { reportEvery = d }(reportEvery)
	reportEvery = time.Millisecond
	m, _ := index.ParseMaterial("KKvK")
	var got []Progress
	o := Options{Only: &m, Dir: t.TempDir(), Threads: 2, Progress: func(p Progress) { got = append(got, p) }}
	if err := Generate(context.Background(), o); err != nil {
		t.Fatal(err)
	}
	// Without reports inside a unit, a unit shows at most two values: as
	// it starts and as its group is finished.
	values := map[string]map[int64]bool{}
	for i, p := range got {
		if p.Positions > p.PositionsTotal || i > 0 && p.Positions < got[i-1].Positions {
			t.Fatalf("report %d: %d of %d positions after %d", i, p.Positions, p.PositionsTotal, got[i-1].Positions)
		}
		if strings.Contains(p.Current, ".l") {
			if values[p.Current] == nil {
				values[p.Current] = map[int64]bool{}
			}
			values[p.Current][p.Positions] = true
		}
	}
	inside := false
	for _, v := range values {
		inside = inside || len(v) > 2
	}
	if last := got[len(got)-1]; last.Positions != last.PositionsTotal {
		t.Errorf("last report: %d of %d positions", last.Positions, last.PositionsTotal)
	}
	if !inside {
		t.Errorf("no report advanced inside a unit: %v", got)
	}
}
