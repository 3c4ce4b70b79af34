package retro

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/dtb-draughts/dtb/codec"
	"github.com/dtb-draughts/dtb/draughts"
	"github.com/dtb-draughts/dtb/index"
	"github.com/dtb-draughts/dtb/rules"
)

// A groupSolver solves the units of a group, each into its work file
// (groupWork). The man moves of a level lead to the finished units of
// the level above. While the level is solved, those are read by blocks
// from their files (aboveLevel).
type groupSolver struct {
	*groupWork
	st *store
	// scratch is the folder of the spills and result files: the work
	// folder, or a part's own folder in it.
	scratch string
	// part, if set, is the part of the group to solve: its units only
	// (see BuildUnit).
	part  *part
	above *aboveLevel // the finished units of the level above, nil for the first level
	// progress, if set, is called with a unit's name and the positions
	// done. It is called as the unit starts, while it is solved and when
	// it is finished. The positions done are those of the finished units,
	// plus a share of the unit at work (see report).
	progress func(unit string, done int64)
}

// solverNeed returns the most memory the solver takes for a unit of the
// group. It counts the unit at positionSize. It adds the blocks the unit
// reads of the level above (budget.above). A group of kings alone is one
// unit, which adds the orbits' marks instead.
func (s *groupSolver) solverNeed() int64 {
	_, bits := positionSize(s.extra, s.class)
	var need int64
	for _, u := range s.units {
		need = max(need, u.size()*bits/8)
	}
	if s.g.kingsAlone() {
		return need + s.g.size()/7 // the orbits (see index.Orbits)
	}
	return need + budget(s.o.Mem).above()
}

// run solves the units of the group not yet finished, or of its part.
func (s *groupSolver) run(ctx context.Context) error {
	lo, hi, err := s.span()
	if err != nil {
		return err
	}
	if err := os.MkdirAll(s.scratch, 0o755); err != nil {
		return err
	}
	if err := s.removeTemps(lo, hi); err != nil {
		return err
	}
	return s.solveUnits(ctx, lo, hi)
}

// removeTemps removes the scratch files an interrupted run left: those
// of the scratch folder, and the temporary files of units lo to hi.
// Those are all of the work folder's for a whole group. A part removes
// only its own, since its siblings write theirs beside.
func (s *groupSolver) removeTemps(lo, hi int) error {
	if err := codec.RemoveTemps(s.scratch, "*.tmp", "*"+spillExt, "*"+resultExt); err != nil || s.scratch == s.dir {
		return err
	}
	for n := lo; n < hi; n++ {
		if err := codec.RemoveTemps(s.dir, codec.TempGlob(filepath.Base(s.unitPath(n)))); err != nil {
			return err
		}
	}
	return nil
}

// solveUnits solves units lo to hi, those not finished. Before each
// level it opens the finished units of the level above. The positions
// of the units before lo count as done.
func (s *groupSolver) solveUnits(ctx context.Context, lo, hi int) error {
	var done int64
	for _, u := range s.units[:lo] {
		done += u.positions()
	}
	defer func() { s.above.close() }()
	for n := lo; n < hi; n++ {
		u := s.units[n]
		if n == lo || u.level != s.units[n-1].level {
			// The level above is done with. The level just finished
			// becomes the level above, read from its work files.
			s.above.close()
			s.above = nil
			if ns := s.levelAbove(n); len(ns) > 0 {
				var err error
				if s.above, err = s.openAbove(ns); err != nil {
					return err
				}
			}
		}
		if s.progress != nil {
			s.progress(u.name, min(done, s.g.size()))
		}
		solved := !s.finished(n)
		if solved {
			stop := s.report(u, done)
			err := s.solveUnit(ctx, n)
			stop()
			if err != nil {
				return err
			}
		}
		done += u.positions()
		if testHookUnitDone != nil {
			if err := testHookUnitDone(u.name, solved); err != nil {
				return err
			}
		}
	}
	s.above.close()
	s.above = nil
	return nil
}

// levelAbove returns the units of the level above unit n's, those its
// man moves lead to: none for the highest level.
func (s *groupSolver) levelAbove(n int) []int {
	first := n
	for first > 0 && s.units[first-1].level == s.units[n].level {
		first--
	}
	var ns []int
	for m := first - 1; m >= 0 && s.units[m].level == s.units[first-1].level; m-- {
		ns = append(ns, m)
	}
	return ns
}

// span returns the units to solve: every unit, or the part's. A part
// is a run of its level's units, the level's units cut into s.part.of
// runs of nearly equal counts. It needs the units of the level above
// finished.
func (s *groupSolver) span() (lo, hi int, err error) {
	p := s.part
	if p == nil {
		return 0, len(s.units), nil
	}
	lo = slices.IndexFunc(s.units, func(u *unit) bool { return u.level == p.level })
	hi = lo
	for lo >= 0 && hi < len(s.units) && s.units[hi].level == p.level {
		hi++
	}
	m := s.g.tables[0].Material()
	if lo < 0 {
		return 0, 0, fmt.Errorf("part %s: %s has no level %d", partName(m, *p), m, p.level)
	}
	n := hi - lo
	lo, hi = lo+(p.i-1)*n/p.of, lo+p.i*n/p.of
	if lo == hi { // more parts than units: nothing to solve
		return lo, hi, nil
	}
	for _, a := range s.levelAbove(lo) {
		r, err := s.openUnit(a)
		if err != nil {
			lv := s.units[a].level
			return 0, 0, fmt.Errorf("part %s needs the units of level %d of %s finished in %s under the same --mem and --split: build the parts %s.l%d.* first",
				partName(m, *p), lv, m, s.o.Dir, m, lv)
		}
		r.Close()
	}
	return lo, hi, nil
}

// reportEvery is how often progress is reported while a unit is solved.
// It is a variable for the tests.
var reportEvery = 250 * time.Millisecond

// report calls s.progress every reportEvery from a goroutine of its own.
// It stops when the returned function is called. That function waits for
// the goroutine to end, so progress is never called twice at once.
//
// The positions of u count as done in proportion to u.work, out of
// u.passes passes' worth. Each analysis passes through every position
// once, then through the positions it decides. No analysis decides the
// draws, so the last share comes when the unit is finished. The
// positions done are at most the group's. The units of a symmetric group
// count a copy of the configurations that are their own flip (see unit).
func (s *groupSolver) report(u *unit, done int64) (stop func()) {
	if s.progress == nil {
		return func() {}
	}
	u.work.Store(0)
	u.passes.Store(2 * numAnalyses) // at most: solve lowers it, so that the share never goes back
	quit, exited := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(exited)
		t := time.NewTicker(reportEvery)
		defer t.Stop()
		for {
			select {
			case <-quit:
				return
			case <-t.C:
				share := float64(min(u.work.Load()/u.passes.Load(), u.size())) / float64(u.size())
				s.progress(u.name, min(done+int64(share*float64(u.positions())), s.g.size()))
			}
		}
	}()
	return func() {
		close(quit)
		<-exited
	}
}

// solveUnit solves unit n and writes it to the work folder.
func (s *groupSolver) solveUnit(ctx context.Context, n int) error {
	u := s.units[n]
	s.load(u)
	defer func() { u.blocks = nil }()
	s.g.makeOrbits(s.o.Threads)
	spill := func(r *result) (*result, error) { return s.spill(ctx, u, r) }
	results, err := solve(ctx, u, unitExits{s, u}, s.class, s.extra, s.o.Threads, spill)
	defer closeResults(results)
	if err == nil {
		err = s.st.failed()
	}
	if err != nil {
		return err
	}
	return s.writeUnit(ctx, n, results)
}

// unitExits are the exits of unit u of s. The store gives the outcomes
// of captures and crownings. The other man moves lead to the finished
// units of the level above.
type unitExits struct {
	s *groupSolver
	u *unit
}

func (x unitExits) outcomes(q draughts.Position) [2]rules.Outcome {
	return x.s.st.outcome(x.s.class, &q)
}

func (x unitExits) manMoves(j int64, buf []manMove) ([]manMove, error) {
	s, blk := x.s, x.u.blocks[j]
	wm, bm := s.g.tables[blk.t].UnrankMen(blk.r)
	p := rules.Position(index.Placement{WhiteMen: wm, BlackMen: bm})
	var moves [draughts.MaxMoves]draughts.Move
	for _, mv := range p.ManMoves(moves[:0]) {
		m := manMove{move: mv, to: 1 << mv.To}
		q := p.Play(mv)
		if q.Kings != 0 {
			m.crown = true
			buf = append(buf, m)
			continue
		}
		// q is in the other table of the group. That may be the second
		// table, or q's men may be the second of a pair. The pair's first
		// block then holds q's men as they stand.
		t := s.g.other(blk.t)
		m.x, m.men = s.g.tables[t], rules.Placement(&q)
		var r int64
		side := 0
		if t == 0 {
			r = m.x.RankMen(m.men.WhiteMen, m.men.BlackMen)
		}
		if t == 1 || s.lvl[r] == second {
			r, side = s.g.tables[0].RankMen(draughts.SquareSet(q.White), draughts.SquareSet(q.Black)), 1
		}
		n, jq := s.pairAt(r, side)
		cols, err := s.above.positions(n, int64(jq)*s.k, int64(jq+1)*s.k)
		if err != nil {
			return nil, err
		}
		m.cols = cols
		buf = append(buf, m)
	}
	return buf, nil
}
