package retro

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/dtb-draughts/dtb/codec"
	"github.com/dtb-draughts/dtb/draughts"
	"github.com/dtb-draughts/dtb/index"
	"github.com/dtb-draughts/dtb/internal/parallel"
	"github.com/dtb-draughts/dtb/rules"
	"github.com/dtb-draughts/dtb/table"
)

// WorkDir is the folder of the output directory that keeps finished
// units. Each group has a folder there until its tables are written.
const WorkDir = "work"

// A groupBuild solves one group unit by unit. Each finished unit is
// written to the group's work folder: a codec file, written atomically,
// checksummed. A run that stops thus resumes with the units not yet
// finished. The tables are written from the units read back. The man
// moves of a level lead to the finished units of the level above. While
// the level is solved, those are read by blocks from their files
// (aboveLevel).
type groupBuild struct {
	g     *group
	st    *store
	o     Options
	class rules.Class
	extra table.Extra // the optional columns of the group's tables
	dir   string      // the group's work folder
	// scratch is the folder of the spills and result files: dir, or a
	// part's own folder in it.
	scratch string
	// part, if set, is the part of the group to solve: its units only,
	// and no table (see BuildUnit).
	part *part
	*layout
	above *aboveLevel // the finished units of the level above, nil for the first level
	// readLater, if set, reports whether a group built after this one
	// reads the table of m. Such a table gets a resolved copy if the store
	// will not hold it in memory (see resolvedCopy).
	readLater func(m index.Material) bool
	// progress, if set, is called with a unit's name and the positions
	// done. It is called as the unit starts, while it is solved and when
	// it is finished. The positions done are those of the finished units,
	// plus a share of the unit at work (see report).
	progress func(unit string, done int64)
}

// captureColumn is the column of a unit's work file beside the entry's
// columns. It holds 1 where the side to move must capture, else 0.
const captureColumn = "capture"

func newGroupBuild(st *store, g *group, o Options) *groupBuild {
	m := g.tables[0].Material()
	b := &groupBuild{g: g, st: st, o: o, class: rules.ClassOf(m), extra: o.extra(m), dir: filepath.Join(o.Dir, WorkDir, m.String())}
	b.scratch = b.dir
	b.layout = g.newLayout(o.unitPositions(b.extra, b.class), o.Split)
	return b
}

// solverNeed returns the most memory the solver takes for a unit of the
// group. It counts the unit at positionSize. It adds the blocks the unit
// reads of the level above (budget.above). A group of kings alone is one
// unit, which adds the orbits' marks instead.
func (b *groupBuild) solverNeed() int64 {
	_, bits := positionSize(b.extra, b.class)
	var need int64
	for _, u := range b.units {
		need = max(need, u.size()*bits/8)
	}
	if b.g.kingsAlone() {
		return need + b.g.size()/7 // the orbits (see index.Orbits)
	}
	return need + budget(b.o.Mem).above()
}

// run solves every unit of the group and writes the group's tables. A
// unit already in the work folder is read back instead. A part solves
// its units only.
func (b *groupBuild) run(ctx context.Context) error {
	lo, hi, err := b.span()
	if err != nil {
		return err
	}
	if err := os.MkdirAll(b.scratch, 0o755); err != nil {
		return err
	}
	if err := b.removeTemps(lo, hi); err != nil {
		return err
	}
	// A unit may not fit in the solver's share; a kings-only group is one
	// unit. It then takes as much of the store's share as it goes over.
	// The store keeps the tables the group reads (see reach). Those
	// include the tables that resolve the capture positions of a table
	// read from its file. Lookups from files would be slower. The store
	// spills the other tables to the scratch folder. It reads them back
	// once the group's tables are written.
	var dropped []spill
	restore := func() {}
	over := b.solverNeed() - budget(b.o.Mem).solver()
	if b.o.Mem > 0 && over > 0 {
		var ms []index.Material
		for _, x := range b.g.tables {
			ms = append(ms, x.Material())
		}
		reads := reach(ms)
		dropped, restore = b.st.shrink(b.st.limit-over, func(m index.Material) bool { return reads[m] }, b.scratch)
	}
	defer restore()
	if err := b.solveUnits(ctx, lo, hi); err != nil || b.part != nil {
		return err
	}
	restore() // the units' memory is free: the tables written may be kept
	if b.o.Mem > 0 && over > 0 {
		// Collect the last unit's memory now. The caches of the
		// writing then reuse it rather than add to it.
		runtime.GC()
	}
	if err := b.writeTables(); err != nil {
		return err
	}
	b.st.unspill(dropped) // after the writing's caches are gone
	return removeWork(b.o, b.g)
}

// removeTemps removes the scratch files an interrupted run left: those
// of the scratch folder, and the temporary files of units lo to hi.
// Those are all of the work folder's for a whole group. A part removes
// only its own, since its siblings write theirs beside.
func (b *groupBuild) removeTemps(lo, hi int) error {
	if err := codec.RemoveTemps(b.scratch, "*.tmp", "*"+spillExt, "*"+resultExt); err != nil || b.scratch == b.dir {
		return err
	}
	for n := lo; n < hi; n++ {
		if err := codec.RemoveTemps(b.dir, codec.TempGlob(filepath.Base(b.unitPath(n)))); err != nil {
			return err
		}
	}
	return nil
}

// solveUnits solves units lo to hi, those not finished. Before each
// level it opens the finished units of the level above. The positions
// of the units before lo count as done.
func (b *groupBuild) solveUnits(ctx context.Context, lo, hi int) error {
	var done int64
	for _, u := range b.units[:lo] {
		done += u.positions()
	}
	defer func() { b.above.close() }()
	for n := lo; n < hi; n++ {
		u := b.units[n]
		if n == lo || u.level != b.units[n-1].level {
			// The level above is done with. The level just finished
			// becomes the level above, read from its work files.
			b.above.close()
			b.above = nil
			if ns := b.levelAbove(n); len(ns) > 0 {
				var err error
				if b.above, err = b.openAbove(ns); err != nil {
					return err
				}
			}
		}
		if b.progress != nil {
			b.progress(u.name, min(done, b.g.size()))
		}
		solved := !b.finished(n)
		if solved {
			stop := b.report(u, done)
			err := b.solveUnit(ctx, n)
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
	b.above.close()
	b.above = nil
	return nil
}

// levelAbove returns the units of the level above unit n's, those its
// man moves lead to: none for the highest level.
func (b *groupBuild) levelAbove(n int) []int {
	first := n
	for first > 0 && b.units[first-1].level == b.units[n].level {
		first--
	}
	var ns []int
	for m := first - 1; m >= 0 && b.units[m].level == b.units[first-1].level; m-- {
		ns = append(ns, m)
	}
	return ns
}

// span returns the units to solve: every unit, or the part's. A part
// is a run of its level's units, the level's units cut into b.part.of
// runs of nearly equal counts. It needs the units of the level above
// finished.
func (b *groupBuild) span() (lo, hi int, err error) {
	p := b.part
	if p == nil {
		return 0, len(b.units), nil
	}
	lo = slices.IndexFunc(b.units, func(u *unit) bool { return u.level == p.level })
	hi = lo
	for lo >= 0 && hi < len(b.units) && b.units[hi].level == p.level {
		hi++
	}
	m := b.g.tables[0].Material()
	if lo < 0 {
		return 0, 0, fmt.Errorf("part %s: %s has no level %d", partName(m, *p), m, p.level)
	}
	n := hi - lo
	lo, hi = lo+(p.i-1)*n/p.of, lo+p.i*n/p.of
	if lo == hi { // more parts than units: nothing to solve
		return lo, hi, nil
	}
	for _, a := range b.levelAbove(lo) {
		r, err := b.openUnit(a)
		if err != nil {
			lv := b.units[a].level
			return 0, 0, fmt.Errorf("part %s needs the units of level %d of %s finished in %s under the same --mem and --split: build the parts %s.l%d.* first",
				partName(m, *p), lv, m, b.o.Dir, m, lv)
		}
		r.Close()
	}
	return lo, hi, nil
}

// writeTables writes the group's tables from its finished units. It
// writes two at once where Options.Threads allows. It puts the tables in
// the store. Those that a later group reads (readLater) stay in memory,
// as far as they fit beside each other. The others are read from their
// files.
func (b *groupBuild) writeTables() error {
	n := len(b.g.tables)
	keep := make([]bool, n)
	var kept int64
	for t, x := range b.g.tables {
		size := tableBytes(x.Material(), x.Size(), b.extra)
		if (b.readLater == nil || b.readLater(x.Material())) && b.st.fits(kept+size) {
			keep[t], kept = true, kept+size
		}
	}
	limit := int64(math.MaxInt64)
	if b.o.Mem > 0 {
		limit = budget(b.o.Mem).writing(n)
	}
	tables := make([]*solved, n)
	var g errgroup.Group
	g.SetLimit(b.o.Threads)
	for t, x := range b.g.tables {
		copied := !keep[t] && b.readLater != nil && b.readLater(x.Material())
		g.Go(func() (err error) {
			tables[t], err = b.assemble(t, keep[t], copied, limit)
			return err
		})
	}
	if err := g.Wait(); err != nil {
		return err
	}
	for t, x := range b.g.tables {
		if err := b.st.put(x.Material(), tables[t]); err != nil {
			return err
		}
	}
	return nil
}

// reportEvery is how often progress is reported while a unit is solved.
// It is a variable for the tests.
var reportEvery = 250 * time.Millisecond

// report calls b.progress every reportEvery from a goroutine of its own.
// It stops when the returned function is called. That function waits for
// the goroutine to end, so progress is never called twice at once.
//
// The positions of u count as done in proportion to u.work, out of
// u.passes passes' worth. Each analysis passes through every position
// once, then through the positions it decides. No analysis decides the
// draws, so the last share comes when the unit is finished. The
// positions done are at most the group's. The units of a symmetric group
// count a copy of the configurations that are their own flip (see unit).
func (b *groupBuild) report(u *unit, done int64) (stop func()) {
	if b.progress == nil {
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
				b.progress(u.name, min(done+int64(share*float64(u.positions())), b.g.size()))
			}
		}
	}()
	return func() {
		close(quit)
		<-exited
	}
}

// removeWork removes the work folder of group g in o.Dir, unless
// o.KeepWork is set. Generate and WriteManifest remove the work folder
// itself once it is empty.
func removeWork(o Options, g *group) error {
	if o.KeepWork {
		return nil
	}
	return os.RemoveAll(filepath.Join(o.Dir, WorkDir, g.tables[0].Material().String()))
}

// finished reports whether unit n is whole in its work file. It verifies
// every block's checksum, a block at a time, without holding the unit's
// columns.
func (b *groupBuild) finished(n int) bool {
	r, err := b.openUnit(n)
	if err != nil {
		return false
	}
	defer r.Close()
	return r.Check() == nil
}

// solveUnit solves unit n and writes it to the work folder.
func (b *groupBuild) solveUnit(ctx context.Context, n int) error {
	u := b.units[n]
	b.load(u)
	defer func() { u.blocks = nil }()
	b.g.makeOrbits(b.o.Threads)
	spill := func(r *result) (*result, error) { return b.spill(ctx, u, r) }
	results, err := solve(ctx, u, unitExits{b, u}, b.class, b.extra, b.o.Threads, spill)
	defer closeResults(results)
	if err == nil {
		err = b.st.failed()
	}
	if err != nil {
		return err
	}
	return b.writeUnit(ctx, n, results)
}

// fill sets the entries and capture flags of positions lo to hi of unit
// u. The positions are in the order of its work file. It takes them from
// the results of the unit's analyses. It sets them in cols and capture,
// which hold the batch that starts at position base. It returns an error
// where the analyses disagree on a value, or a distance does not fit its
// column.
func (b *groupBuild) fill(u *unit, cols *table.Columns, capture []byte, results [numAnalyses]*result, base, lo, hi int64) error {
	ids := u.localIDs(lo)
	theory, rulesRes, mtcs := results[theoryAnalysis], results[rulesAnalysis], results[mtcAnalysis]
	for pos := lo; pos < hi; pos++ {
		id, i := ids.next(), pos-base
		w := theory.word(id, i)
		if w.capture() {
			capture[i] = 1
		}
		th, ru := theory.outcome(w), rulesRes.outcome(rulesRes.word(id, i))
		if b.class != rules.NoClass && ru.Value != rules.Draw {
			if ru.Dist >= table.NoDistance && b.class.Carries() {
				return fmt.Errorf("%s: class distance %d too long", u.name, ru.Dist)
			}
			if ru.Value != th.Value {
				return fmt.Errorf("%s id %d: rules %v but theoretical %v", u.name, id, ru.Value, th.Value)
			}
		}
		if !b.o.MTC || th.Value == rules.Draw {
			cols.SetOutcomes(i, b.class, th, ru)
			continue
		}
		mtc := mtcs.outcome(mtcs.word(id, i))
		if mtc.Value != th.Value || mtc.Dist >= table.NoMTC {
			return fmt.Errorf("%s id %d: mtc %v at %d plies, theoretical %v", u.name, id, mtc.Value, mtc.Dist, th.Value)
		}
		e := rules.NewEntry(b.class, th, ru)
		e.MTC = mtc.Dist
		cols.Set(i, e)
	}
	return nil
}

// unitExits are the exits of unit u of b. The store gives the outcomes
// of captures and crownings. The other man moves lead to the finished
// units of the level above.
type unitExits struct {
	b *groupBuild
	u *unit
}

func (x unitExits) outcomes(q draughts.Position) [2]rules.Outcome {
	return x.b.st.outcome(x.b.class, &q)
}

func (x unitExits) manMoves(j int64, buf []manMove) ([]manMove, error) {
	b, blk := x.b, x.u.blocks[j]
	wm, bm := b.g.tables[blk.t].UnrankMen(blk.r)
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
		t := b.g.other(blk.t)
		m.x, m.men = b.g.tables[t], rules.Placement(&q)
		var r int64
		side := 0
		if t == 0 {
			r = m.x.RankMen(m.men.WhiteMen, m.men.BlackMen)
		}
		if t == 1 || b.lvl[r] == second {
			r, side = b.g.tables[0].RankMen(draughts.SquareSet(q.White), draughts.SquareSet(q.Black)), 1
		}
		n, jq := b.pairAt(r, side)
		cols, err := b.above.positions(n, int64(jq)*b.k, int64(jq+1)*b.k)
		if err != nil {
			return nil, err
		}
		m.cols = cols
		buf = append(buf, m)
	}
	return buf, nil
}

// unitPath returns the work file of unit n.
func (b *groupBuild) unitPath(n int) string {
	return filepath.Join(b.dir, b.units[n].name+".unit")
}

// unitHeader returns the header of the work file of unit n. Its name,
// size and first block identify the unit. Its columns are the entry
// columns of the group's first table, with the build's optional
// columns. The capture flags come last. A file block holds whole blocks
// of the unit: as many as fit in 2^16 positions, and at least one. A
// block may exceed writeBatch positions. A file block then holds
// writeBatch positions.
func (b *groupBuild) unitHeader(n int) codec.Header {
	u := b.units[n]
	h := codec.Header{
		Material:     u.name,
		IndexVersion: table.IndexVersion,
		Rules:        table.Full.Rules(),
		Positions:    u.positions(),
		BlockSize:    int(min(u.kings*max(1, 1<<16/u.kings), writeBatch)),
		Meta:         map[string]string{"first": strconv.FormatInt(u.firstRank, 10)},
	}
	l := table.NewLayout(b.g.tables[0].Material(), b.extra)
	for col := range table.NumColumns {
		if l.Has(col) {
			h.Columns = append(h.Columns, codec.Column{Name: col.Name(), Width: col.Width()})
		}
	}
	h.Columns = append(h.Columns, codec.Column{Name: captureColumn, Width: 1})
	return h
}

// writeBatch is the most entries of a unit held at once, in writeUnit
// and assemble.
const writeBatch = 1 << 20

// writeUnit writes the entries and capture flags of unit n to its work
// file, every position of it. It fills them a batch at a time from the
// results of the unit's analyses (fill). Only the last result is held
// whole. The others are read from their files.
func (b *groupBuild) writeUnit(ctx context.Context, n int, results [numAnalyses]*result) error {
	u := b.units[n]
	w, err := codec.NewWriter(b.unitPath(n), b.unitHeader(n))
	if err != nil {
		return err
	}
	defer w.Abort()
	w.SetCompression(codec.Fastest) // read once or twice: see codec.Fastest
	batch := min(u.positions(), writeBatch)
	cols := table.NewLayout(b.g.tables[0].Material(), b.extra).MakeColumns(batch)
	capture := make([]byte, batch)
	for base := int64(0); base < u.positions(); base += batch {
		k := min(batch, u.positions()-base)
		for col := range cols {
			clear(cols[col])
		}
		clear(capture)
		for i, r := range results {
			if r != nil && r.file != nil && !slices.Contains(results[:i], r) {
				if err := r.file.next(k); err != nil {
					return err
				}
			}
		}
		err := parallel.Range(ctx, k, b.o.Threads, func(lo, hi int64) error {
			return b.fill(u, &cols, capture, results, base, base+lo, base+hi)
		})
		if err != nil {
			return err
		}
		i := 0
		for col := range table.NumColumns {
			if cols.Has(col) {
				if _, err := w.Write(i, cols[col][:k*int64(col.Width())]); err != nil {
					return err
				}
				i++
			}
		}
		if _, err := w.Write(i, capture[:k]); err != nil {
			return err
		}
	}
	return w.Close()
}

// openUnit opens the work file of unit n, if it is there. It returns an
// error unless the file is that unit's, written under the same rules with
// the same columns.
func (b *groupBuild) openUnit(n int) (*codec.Reader, error) {
	r, err := codec.Open(b.unitPath(n))
	if err != nil {
		return nil, err
	}
	h, want := r.Header(), b.unitHeader(n)
	if h.Material != want.Material || h.Positions != want.Positions || h.Meta["first"] != want.Meta["first"] ||
		h.Rules != want.Rules || !slices.Equal(h.Columns, want.Columns) {
		r.Close()
		return nil, fmt.Errorf("%s: not unit %s as this build solves it", b.unitPath(n), want.Material)
	}
	return r, nil
}

// unitColumn returns the entry column named name.
func unitColumn(name string) (table.Column, bool) {
	for c := range table.NumColumns {
		if c.Name() == name {
			return c, true
		}
	}
	return 0, false
}

// resolvedCopy returns the path of the resolved copy of the table of m
// in the work folder of dir. Generate writes a copy of a table built in
// the run that the store does not hold in memory. It does so where a
// later group reads the table. The store's prober then reads the real
// entries of its capture positions. The table's file holds them as
// don't-cares. Each lookup would resolve them by a search and by probes
// of smaller tables. A crowning leads into the group built just before,
// often too large to hold. So a group with men looks up many such
// positions. The copy is removed at the start of a run, and once no group
// left to build reads the table.
func resolvedCopy(dir string, m index.Material) string {
	return filepath.Join(dir, WorkDir, table.FileName(m))
}

// assemble writes table t of the group from its finished units, block by
// block in index order. If keep is set, it holds the entries in memory,
// for the store. If copied is set, it also writes the resolved copy. It
// holds decoded blocks of the units within limit bytes (see unitFiles).
func (b *groupBuild) assemble(t int, keep, copied bool, limit int64) (*solved, error) {
	x := b.g.tables[t]
	m, k := x.Material(), x.KingPlacements()
	s := &solved{x: x, class: b.class, state: onDisk, path: filepath.Join(b.o.Dir, table.FileName(m))}
	if keep {
		s.state, s.cols = solvedInMemory, table.NewLayout(m, b.extra).MakeColumns(x.Size())
		lookupColumns(&s.cols, s.class)
	}
	w, err := table.NewWriter(s.path, m, b.extra, table.Full)
	if err != nil {
		return nil, err
	}
	defer w.Abort()
	var wc *table.Writer // of the resolved copy, if copied
	if copied {
		s.state, s.copy = copiedOnDisk, resolvedCopy(b.o.Dir, m)
		if wc, err = table.NewWriter(s.copy, m, b.extra, table.Work); err != nil {
			return nil, err
		}
		defer wc.Abort()
	}
	files := newUnitFiles(b, limit)
	defer files.close()
	// A block of over writeBatch positions is read a part at a time. The
	// one unit of a group of kings only may have such blocks. The parts
	// end where the unit's file blocks do (see unitHeader). A part that is
	// a whole file block is not cached.
	for r := range x.MenConfigs() {
		n, j := b.locate(t, r)
		for lo, hi := int64(0), int64(0); lo < k; lo = hi {
			hi = k
			if k > writeBatch {
				hi = min(lo+writeBatch-(int64(j)*k+lo)%writeBatch, k)
			}
			cols, captures, err := files.entries(n, int64(j)*k+lo, int64(j)*k+hi)
			if err != nil {
				return nil, err
			}
			if !b.extra.DTW {
				cols[table.DTWColumn] = nil
			}
			if err := w.AddColumns(&cols, captures); err != nil {
				return nil, err
			}
			if wc != nil {
				if err := wc.AddColumns(&cols, captures); err != nil {
					return nil, err
				}
			}
			if keep {
				for col, c := range cols {
					if s.cols[col] != nil {
						wd := int64(table.Column(col).Width())
						copy(s.cols[col][(r*k+lo)*wd:], c)
					}
				}
			}
		}
	}
	if wc != nil {
		if err := wc.Close(); err != nil {
			return nil, err
		}
	}
	if err := w.Close(); err != nil {
		return nil, err
	}
	s.stats = w.Stats()
	return s, nil
}

// unitFiles reads blocks of finished units from their work files. It
// decodes file blocks, every column. It keeps them while they fit in
// limit bytes, dropping the least recently used first.
//
// In index order a table's blocks come from the units of every level in
// turn. The units of a level come in order. Those of the group's second
// table come in the order of their pairs. A file block holds whole
// blocks where they are small (see unitHeader). So the file block last
// read of each level serves the blocks that follow.
type unitFiles struct {
	b      *groupBuild
	limit  int64
	used   int64
	open   map[int]*codec.Reader // by unit, until close
	cached map[fileBlock]*decodedBlock
	recent []fileBlock // least recently used first
}

// fileBlock names block blk of the work file of unit n.
type fileBlock struct{ n, blk int }

// decodedBlock is a file block decoded: by column of the work file.
type decodedBlock struct {
	cols  [][]byte
	bytes int64
}

func newUnitFiles(b *groupBuild, limit int64) *unitFiles {
	return &unitFiles{b: b, limit: limit, open: map[int]*codec.Reader{}, cached: map[fileBlock]*decodedBlock{}}
}

// close closes the work files opened.
func (f *unitFiles) close() {
	for _, r := range f.open {
		r.Close()
	}
	clear(f.open)
}

// reader returns the work file of unit n, opened.
func (f *unitFiles) reader(n int) (*codec.Reader, error) {
	if r := f.open[n]; r != nil {
		return r, nil
	}
	r, err := f.b.openUnit(n)
	if err != nil {
		return nil, err
	}
	f.open[n] = r
	return r, nil
}

// fileBlock returns file block fb of r, decoded. It caches the block
// unless once is set. A block read whole at once is not read again: a
// table's assembly reads each position once.
func (f *unitFiles) fileBlock(r *codec.Reader, fb fileBlock, once bool) (*decodedBlock, error) {
	if d := f.cached[fb]; d != nil {
		if f.recent[len(f.recent)-1] != fb {
			f.recent = append(slices.DeleteFunc(f.recent, func(x fileBlock) bool { return x == fb }), fb)
		}
		return d, nil
	}
	d := &decodedBlock{}
	for c := range r.Header().Columns {
		data, err := r.ReadBlock(c, fb.blk, nil)
		if err != nil {
			return nil, err
		}
		d.cols = append(d.cols, data)
		d.bytes += int64(len(data))
	}
	if once {
		return d, nil
	}
	for len(f.recent) > 0 && f.used+d.bytes > f.limit {
		f.used -= f.cached[f.recent[0]].bytes
		delete(f.cached, f.recent[0])
		f.recent = f.recent[1:]
	}
	f.cached[fb], f.used = d, f.used+d.bytes
	f.recent = append(f.recent, fb)
	return d, nil
}

// entries returns the entries and the capture bits of the positions lo
// to hi of unit n, by local id. The entries have every column, dtw
// included.
func (f *unitFiles) entries(n int, lo, hi int64) (table.Columns, []uint64, error) {
	k := hi - lo
	var cols table.Columns
	var capture []byte
	r, err := f.reader(n)
	if err != nil {
		return table.Columns{}, nil, err
	}
	size := int64(r.Header().BlockSize)
	for pos := lo; pos < hi; {
		from, to := pos%size, min(hi-pos+pos%size, size)
		whole := from == 0 && to == min(size, r.Header().Positions-pos)
		d, err := f.fileBlock(r, fileBlock{n, int(pos / size)}, whole)
		if err != nil {
			return table.Columns{}, nil, err
		}
		for c, col := range r.Header().Columns {
			w := int64(col.Width)
			part := d.cols[c][from*w : to*w]
			dst := &capture
			if k, ok := unitColumn(col.Name); ok {
				dst = &cols[k]
			}
			if pos == lo && to-from == k { // the block lies in one file block
				*dst = part
			} else {
				*dst = append(*dst, part...)
			}
		}
		pos += to - from
	}
	captures := make([]uint64, (k+63)/64)
	for i, v := range capture {
		captures[i/64] |= uint64(v&1) << (i % 64)
	}
	return cols, captures, nil
}
