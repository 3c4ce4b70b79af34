// Package retro builds endgame tables by retrograde analysis.
//
//	err := retro.Generate(ctx, retro.Options{Pieces: 4, Dir: "tables"})
//
// Generate solves every material of 2..Pieces pieces in dependency order.
// Fewer pieces come first, then fewer men, so every capture and crowning
// leads to a table already solved. Generate writes one file per material
// with package codec, atomically. It also writes the manifest, which lists
// exactly the valid tables of the directory however the run ends. Valid
// tables already in the directory are kept instead of solved. So an
// interrupted run resumes where it stopped. Kept tables are loaded only
// where a group still to build reads them (see survey). A file whose size
// and CRC-32C match the manifest is not decoded to check it (see catalog).
//
// A scheduler (make, ninja, Slurm: see package plan) can run the build as
// units instead. Units lists them with their dependencies. BuildUnit
// builds one from the tables of the units it depends on. Several may run
// at once in one directory. WriteManifest writes the manifest at the end.
//
//	units, err := retro.Units(retro.Options{Pieces: 4})
//	err = retro.BuildUnit(ctx, units[0].ID, retro.Options{Dir: "tables"})
//	err = retro.WriteManifest("tables")
//
// A material and its colour flip (a group) are solved together, since a
// quiet move leads from one to the other. The solver splits a group into
// units that fit the memory budget Options.Mem (see unit). A scheduler's
// Unit is a whole group, or with Parts a run of one level's units. Each
// unit is solved by min-max retrograde analysis (see solve). One
// analysis finds the theoretical value. It finds the distance to the
// end of the game too if Options.DTW is set. Another
// finds the value under the rules. There the class A and B move limits
// and the count of rule 2 apply. A position's distance is then the least
// budget under which it is won or lost. A third finds the mtc. Analyses
// whose inputs agree share one solve. A group of kings alone is solved on
// the orbits of the board's symmetries (index.Orbits), a quarter of its
// positions. Finished units wait in the output directory's work folder
// until the group's tables are written.
//
// # Outline
//
// The call tree of a build, with the memory each step holds under the
// budget Options.Mem (M; the shares of budget.go):
//
//	Generate, BuildUnit                 generate.go, schedule.go: the materials in order (plan)
//	  builder.run                       generate.go: every group (Generate) or one unit (BuildUnit)
//	    survey, lastUses                the groups kept; the tables read; when each is last read
//	    newStore                        tables in memory within M/4; a prober (files) with a cache of M/16
//	    for each group:
//	      buildGroup                    loadKept if its tables are valid, else
//	        groupBuild.run              build.go
//	          store.shrink              a unit over the solver's share takes the store's: spills
//	          for each unit, highest level first:
//	            openAbove               above.go: the finished units of the level above, read by blocks (an eighth of the solver's share)
//	            solveUnit               the unit: 2-3.25 B a position (an orbit in a group of kings alone) (positionSize)
//	              solve                 solve.go: the analyses one after the other, each:
//	                solver.analyse        a first pass over every position's moves (unit.walk),
//	                                      external successors through store.outcome
//	                analysis.propagate    the passes over predecessors, until no position changes
//	                groupBuild.spill      resultfile.go: a result another analysis follows, to the work folder
//	              fill, writeUnit       the unit's entries, to the work folder (a codec file)
//	          writeTables, assemble     the tables, block by block, from the units' blocks (cache of M/8)
//	          store.unspill             the tables spilled, back into memory as far as they fit
//	      forgetUnread                  the tables no group left reads leave the store
//	      catalog.write                 catalog.go: the manifest (Generate's), however the run ends
//
// A table the store knows is in one of the states of tableState (store.go).
// BuildUnit builds only its unit's group. The tables of the groups it
// reads must be in the directory. EstimateOf (estimate.go) is the
// pre-flight of dtb gen and dtb plan. It gives the tables, time and memory
// a build takes.
package retro

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"time"

	"github.com/dtb-draughts/dtb/codec"
	"github.com/dtb-draughts/dtb/index"
	"github.com/dtb-draughts/dtb/internal/dirlock"
	"github.com/dtb-draughts/dtb/rules"
	"github.com/dtb-draughts/dtb/table"
)

// Options configure Generate and BuildUnit. The state of a run is a
// builder's.
type Options struct {
	Pieces  int             // build every material of 2..Pieces pieces
	Only    *index.Material // if set, build only this material and what it depends on
	Dir     string          // output directory, created if missing
	Threads int             // 0 means runtime.NumCPU()
	DTW     bool            // also store the theoretical distance of every position
	// DTWPieces, without DTW, stores the theoretical distance in the
	// tables of at most DTWPieces pieces. Their captures lead to tables
	// of fewer pieces, which have it too.
	DTWPieces int
	MTC       bool // also store the moves to conversion of every position
	// Mem bounds the memory of the solver (see unitPositions). A unit and
	// the blocks it reads of the finished level above it must fit in Mem.
	// So must the tables held in memory and the prober's cache. A group is
	// solved in units sized to fit. 0 means no bound: one unit per level.
	Mem int64
	// Split cuts each level of a group with men into at least Split units
	// where it has that many pairs of men configurations (levelUnits).
	// Mem may cut finer. Split lets the levels of a group be cut into
	// parts whatever the budget. Every job of a group (Parts) must run
	// with the same Split, which fixes its units. 0 or 1 leaves the cut
	// to Mem.
	Split int
	// KeepWork keeps each group's finished units in the work folder after
	// its tables are written.
	KeepWork bool

	// Progress, if set, is called after every table and during long
	// solves.
	Progress func(Progress)
	// Done, if set, is called once for each table, built or kept.
	Done func(Report)
}

// A builder is the state of one Generate or BuildUnit. It holds the
// configuration, which groups it builds, and what it knows of the
// directory's files.
type builder struct {
	Options
	// unit, if set, is the one unit the run builds (BuildUnit's). The
	// groups it reads must be in the directory already. Generate builds
	// every group whose tables are missing.
	unit string
	// part, if set, is the part of the unit's group that the run solves
	// (see BuildUnit). It writes no table.
	part *part
	// cat, if set, keeps the manifest of the directory (Generate's). It
	// vouches for the files it lists. It is written after each group.
	cat *catalog
	// valid holds the table files checked in this run.
	valid map[string]bool
}

// checked reports whether the table file at path, open as f, is
// undamaged. The manifest or an earlier check in this run may vouch for
// it. Otherwise checked decodes every block.
func (r *builder) checked(path string, f *table.File) bool {
	if r.cat != nil && r.cat.vouches(path) || r.valid[path] {
		return true
	}
	if f.Check() != nil {
		return false
	}
	if r.valid == nil {
		r.valid = map[string]bool{}
	}
	r.valid[path] = true
	return true
}

// testHookUnitDone, if set, is called after each unit is solved or read
// back. It gets the unit's name and whether it was solved. An error stops
// the build there: a crash point for the tests.
var testHookUnitDone func(name string, solved bool) error

// extra returns the optional columns o asks for in the table of m.
func (o Options) extra(m index.Material) table.Extra {
	return table.Extra{DTW: o.DTW || m.Pieces() <= o.DTWPieces, MTC: o.MTC}
}

// done calls o.Done, if set.
func (o Options) done(r Report) {
	if o.Done != nil {
		o.Done(r)
	}
}

// progress calls o.Progress, if set, with p.
func (o Options) progress(p Progress) {
	if o.Progress != nil {
		o.Progress(p)
	}
}

// Progress tells how far Generate or BuildUnit is.
type Progress struct {
	Tables, TablesTotal       int
	Positions, PositionsTotal int64  // positions of the tables and units done
	Current                   string // the group or unit at work
}

// Report describes one finished table.
type Report struct {
	Material index.Material
	Stats    table.Stats
	Built    bool          // false: kept from an earlier run
	Elapsed  time.Duration // time spent on its group (shared by a material and its flip)
}

// Generate builds the tables described by o. Done, failed or cancelled,
// it leaves a manifest that lists exactly the valid tables in o.Dir. It
// starts by removing the temporary files an interrupted run left there.
// So rerunning it resumes and repairs. One Generate at a time may write
// to a directory. Generate refuses a slim directory.
func Generate(ctx context.Context, o Options) (err error) {
	if err := checkPieces(o); err != nil {
		return err
	}
	mats, err := plan(o)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(o.Dir, 0o755); err != nil {
		return err
	}
	l, err := lock(o.Dir, o.Dir, dirlock.Exclusive)
	if err != nil {
		return err
	}
	defer l.Release() // after the manifest is written
	if entries, err := codec.ReadManifest(o.Dir); err == nil && slices.ContainsFunc(entries, func(e codec.ManifestEntry) bool { return e.Searched != "" }) {
		return fmt.Errorf("%s is a slim directory (dtb slim wrote it): build in another directory, then write the slim tables from there", o.Dir)
	}
	// Resolved copies left by an interrupted run are not trusted. Their
	// tables are read from their files.
	if err := codec.RemoveTemps(o.Dir, append(table.TempGlobs, filepath.Join(WorkDir, "*.dtb*"))...); err != nil {
		return err
	}
	// Whole tables (formats 1 and 2) become value and distance files
	// without solving, as Convert makes them. Tables of format 3 are read
	// as they are.
	if err := convertTables(ctx, o.Dir, nil, true); err != nil {
		return err
	}
	r := &builder{Options: o, cat: newCatalog(o.Dir)}
	defer func() {
		if merr := r.cat.write(); merr != nil {
			err = errors.Join(err, merr)
		}
	}()
	if err := r.run(ctx, mats); err != nil {
		return err
	}
	os.Remove(filepath.Join(o.Dir, WorkDir)) // empty once every group is built
	return nil
}

// ours reports whether the group of m is r's. The builder builds such a
// group if its tables are missing, and reports its progress and tables.
func (r *builder) ours(m index.Material) bool { return r.unit == "" || UnitID(m) == r.unit }

// lock takes the lock of the directory dir by take. If another dtb gen
// holds it, the error names that gen as building what.
func lock(dir, what string, take func(string) (*dirlock.Lock, error)) (*dirlock.Lock, error) {
	l, err := take(dir)
	var held *dirlock.HeldError
	if !errors.As(err, &held) {
		return l, err
	}
	who := "another dtb gen"
	if held.PID != 0 {
		who += fmt.Sprintf(" (pid %d)", held.PID)
	}
	return nil, fmt.Errorf("%s is building %s", who, what)
}

// totals returns the progress of r before it starts. It counts the
// tables of mats that r builds, and their positions.
func (r *builder) totals(mats []index.Material) Progress {
	var p Progress
	for _, m := range mats {
		if r.ours(m) {
			p.TablesTotal++
			p.PositionsTotal += index.New(m).Size()
		}
	}
	return p
}

// run builds the groups of mats in order. It builds those that r.ours
// names and whose tables are not in the directory and valid. It loads
// into a store the tables that a group still to build reads. It forgets
// each table once no group left reads it.
func (r *builder) run(ctx context.Context, mats []index.Material) error {
	if r.Threads <= 0 {
		r.Threads = runtime.NumCPU()
	}
	prog := r.totals(mats)
	r.progress(prog)
	st := newStore(r.Mem)
	last := lastUses(mats)
	kept, load := survey(mats, r)
	seen := map[index.Material]bool{}
	for i, m := range mats {
		if seen[m.Flip()] { // a group stands at its first material
			continue
		}
		seen[m] = true
		g, ours := newGroup(m), r.ours(m)
		start, base := time.Now(), prog.Positions
		if ours {
			prog.Current = m.String()
			r.progress(prog)
		}
		var stats []table.Stats
		built := false
		switch read := load[m] || load[m.Flip()]; {
		case kept[m] != nil && !read: // built, and no group left to build reads it: not loaded
			if !ours {
				continue
			}
			if r.part != nil { // the group's tables are written: the part is done
				return nil
			}
			if err := removeWork(r.Options, g); err != nil {
				return err
			}
			for _, s := range kept[m] {
				stats = append(stats, s.stats)
			}
		case kept[m] == nil && !ours:
			if read {
				return fmt.Errorf("unit %s needs %s in %s: build unit %s first", r.unit, table.FileName(m), r.Dir, UnitID(m))
			}
			continue
		default:
			var err error
			readLater := func(m index.Material) bool { return last[m] > i }
			built, err = buildGroup(ctx, st, g, r, readLater, func(unit string, done int64) {
				prog.Current, prog.Positions = unit, base+done
				r.progress(prog)
			})
			if err != nil || r.part != nil && ours { // a part's group is the last
				return err
			}
			for _, x := range g.tables {
				stats = append(stats, st.get(x.Material()).stats)
			}
		}
		if ours {
			for t, x := range g.tables {
				prog.Tables++
				r.done(Report{Material: x.Material(), Stats: stats[t], Built: built, Elapsed: time.Since(start)})
			}
			prog.Positions = base + g.size()
		}
		if built && r.cat != nil {
			if err := r.cat.write(); err != nil {
				return err
			}
		}
		if err := forgetUnread(st, mats, last, i); err != nil {
			return err
		}
		if ours {
			r.progress(prog)
		}
	}
	return forgetUnread(st, mats, last, len(mats)-1) // after kept groups too
}

// survey finds the groups of mats whose tables are in r.Dir and valid.
// It returns them in kept, by each of their materials. It also returns
// in load the materials whose tables a group still to build reads (see
// reach). The group reads them directly or through the capture positions
// of a table it reads. Only the kept tables that load names are loaded.
// A group that r does not build is looked for only if load names it.
func survey(mats []index.Material, r *builder) (kept map[index.Material][]*solved, load map[index.Material]bool) {
	kept = map[index.Material][]*solved{}
	find := func(m index.Material) {
		if k, ok := kept[m.Flip()]; ok {
			kept[m] = k
		} else {
			kept[m] = keptTables(newGroup(m), r)
		}
	}
	var build []index.Material
	for _, m := range mats {
		if r.ours(m) {
			if find(m); kept[m] == nil {
				build = append(build, m)
			}
		}
	}
	load = reach(build)
	for _, m := range mats {
		if !r.ours(m) && (load[m] || load[m.Flip()]) {
			find(m)
		}
	}
	return kept, load
}

// lastUses returns, for each material of mats, the position in mats of
// the last group that reads it. It is 0 if none does. The group of a
// material and its flip stands at the first of the two.
func lastUses(mats []index.Material) map[index.Material]int {
	first := map[index.Material]int{}
	for i, m := range mats {
		if _, ok := first[m.Flip()]; ok {
			first[m] = first[m.Flip()]
		} else {
			first[m] = i
		}
	}
	last := map[index.Material]int{}
	for _, m := range mats {
		for _, s := range successors(m) {
			last[s] = max(last[s], first[m])
			last[s.Flip()] = max(last[s.Flip()], first[m])
		}
	}
	return last
}

// forgetUnread removes from st the tables of mats[:i+1] that no group
// after the i-th reads. Their resolved copies go too. The map last is
// lastUses(mats).
func forgetUnread(st *store, mats []index.Material, last map[index.Material]int, i int) error {
	for _, d := range mats[:i+1] {
		if last[d] <= i {
			if err := st.put(d, nil); err != nil {
				return err
			}
		}
	}
	return nil
}

// plan returns the materials to build, in dependency order.
func plan(o Options) ([]index.Material, error) {
	if o.Pieces < 2 && o.Only == nil {
		return nil, fmt.Errorf("pieces must be at least 2, got %d", o.Pieces)
	}
	if o.Only == nil {
		return index.Materials(o.Pieces), nil
	}
	need := reach([]index.Material{*o.Only})
	need[*o.Only], need[o.Only.Flip()] = true, true
	var mats []index.Material
	for _, m := range index.Materials(o.Only.Pieces()) {
		if need[m] {
			mats = append(mats, m)
		}
	}
	return mats, nil
}

// successors returns the materials one move away from m, by either side.
// The moves are captures of any number of pieces, with or without a
// crowning, and plain crownings. Captures that end the game are left out.
// A successor with Black to move is looked up in its colour flip's table.
// So callers take the flips too.
func successors(m index.Material) []index.Material {
	var out []index.Material
	for _, side := range []index.Material{m, m.Flip()} { // White moves in side
		for men := 0; men <= side.BlackMen; men++ {
			for kings := 0; kings <= side.BlackKings; kings++ {
				for crown := 0; crown <= min(side.WhiteMen, 1); crown++ {
					d := index.Material{WhiteMen: side.WhiteMen - crown, WhiteKings: side.WhiteKings + crown,
						BlackMen: side.BlackMen - men, BlackKings: side.BlackKings - kings}
					if d != side && d.BlackMen+d.BlackKings > 0 {
						if side != m {
							d = d.Flip()
						}
						out = append(out, d)
					}
				}
			}
		}
	}
	return out
}

// reach returns the materials whose tables the tables of ms read. These
// are their successors and the successors' flips, and so on down. It goes
// down because a table read from its file resolves its capture positions
// from its successors.
func reach(ms []index.Material) map[index.Material]bool {
	r := map[index.Material]bool{}
	var visit func(m index.Material)
	visit = func(m index.Material) {
		for _, s := range successors(m) {
			for _, t := range [2]index.Material{s, s.Flip()} {
				if !r[t] {
					r[t] = true
					visit(t)
				}
			}
		}
	}
	for _, m := range ms {
		visit(m)
	}
	return r
}

// loadKept puts the group's tables into st and reports true if they are
// all in r.Dir and valid. Otherwise it leaves st as it was.
func loadKept(st *store, g *group, r *builder) (bool, error) {
	loaded := make([]*solved, len(g.tables))
	for t, x := range g.tables {
		if loaded[t] = loadTable(st, filepath.Join(r.Dir, table.FileName(x.Material())), x, r); loaded[t] == nil {
			return false, nil
		}
	}
	for t, x := range g.tables {
		if err := st.put(x.Material(), loaded[t]); err != nil {
			return false, err
		}
	}
	return true, nil
}

// buildGroup loads the group's tables from r.Dir if they are all there and
// valid. Otherwise it solves and writes them. It calls progress, if not
// nil, as each unit starts and ends. readLater, if set, reports whether a
// group built later reads the table of m (see groupBuild). buildGroup
// reports whether it solved.
func buildGroup(ctx context.Context, st *store, g *group, r *builder, readLater func(m index.Material) bool, progress func(unit string, done int64)) (bool, error) {
	if loaded, err := loadKept(st, g, r); err != nil || loaded {
		if err == nil { // units left by a run stopped after the tables were written
			err = removeWork(r.Options, g)
		}
		return false, err
	}
	b := newGroupBuild(st, g, r.Options)
	b.readLater, b.progress = readLater, progress
	if r.part != nil && r.ours(g.tables[0].Material()) {
		b.part, b.scratch = r.part, partDir(r.Options, g.tables[0].Material(), *r.part)
	}
	if err := b.run(ctx); err != nil {
		return false, err
	}
	return true, nil
}

// loadTable reads the table of x from path if it is there, valid and has
// what r asks for. It returns nil otherwise. It keeps the entries if st
// can hold them.
func loadTable(st *store, path string, x *index.Index, r *builder) *solved {
	return readTable(path, x, r, st.fits(tableBytes(x.Material(), x.Size(), r.extra(x.Material()))))
}

// readTable reads the table of x from path, with its stats from the
// header. It returns nil if the file is missing or invalid. It returns
// nil too if the file is not a full table (table.Full) under this
// version's rules. The same goes for a file that lacks an optional column
// r asks for. If keep is set it reads the entries too, their capture
// positions unresolved (see solved). Else it only checks the file with
// r.checked.
func readTable(path string, x *index.Index, r *builder, keep bool) *solved {
	extra := r.extra(x.Material())
	f, err := table.Open(path, x.Material())
	if err != nil {
		return nil
	}
	defer f.Close()
	if f.Variant != table.Full || // a slim directory's file, a work file, or one before rule 2
		extra.DTW && !f.Layout.Has(table.DTWColumn) || extra.MTC && !f.Layout.Has(table.MTCColumn) {
		return nil
	}
	s := &solved{x: x, class: rules.ClassOf(x.Material()), state: onDisk, path: path, stats: f.Stats}
	if !keep {
		if !r.checked(path, f) {
			return nil
		}
		return s
	}
	if s.cols, err = f.ReadColumns(); err != nil {
		return nil
	}
	s.state, s.final = readInMemory, make([]uint64, (x.Size()+63)/64)
	if !extra.DTW {
		s.cols[table.DTWColumn] = nil
	}
	if !extra.MTC {
		s.cols[table.MTCColumn] = nil
	}
	return s
}
