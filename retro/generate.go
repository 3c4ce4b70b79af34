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
// # Terms
//
//   - A group is a material and its colour flip, solved together, since a
//     quiet move leads from one to the other. Captures and crownings lead
//     to groups solved before.
//   - A level is how far the men of a position have advanced. A man move
//     leads one level up, so the highest level is solved first.
//   - A unit is what the solver holds at once: some men configurations of
//     one level, with every placement of the kings, in both tables of the
//     group, sized to the memory budget Options.Mem (see unit). A
//     scheduler's Unit (Units) is a whole group, or with Parts a run of
//     one level's units.
//   - An analysis is one min-max retrograde analysis of a unit (see
//     solve). One finds the theoretical value, and the distance to the end
//     of the game with Options.DTW. Another finds the value under the
//     rules, where the class A and B move limits and the count of rule 2
//     apply; a position's distance is then the least budget under which
//     it is won or lost. A third finds the mtc. Analyses whose inputs
//     agree share one solve. A group of kings alone is solved on the
//     orbits of the board's symmetries (index.Orbits), a quarter of its
//     positions.
//   - The work folder of the output directory holds a group's finished
//     units until its tables are written from them.
//   - The store holds the solved tables that groups still to build read
//     (store.go).
//
// # Outline
//
// The call tree of a build, with the memory each step holds under the
// budget Options.Mem (M; the shares of budget.go):
//
//	Generate, BuildUnit                 generate.go, schedule.go: the materials in order (plan)
//	  builder.run                       job.go: the steps of the run's job
//	    newJob                          the groups kept (survey), what the run does with each, when each table is last read
//	    newStore                        tables in memory within M/4; a reader of files (internal/reader) with a cache of M/16
//	    for each step:
//	      builder.do                    loadKept if its tables are valid, else
//	        buildGroup                  build.go: the two halves
//	          store.shrink              a unit over the solver's share takes the store's: spills
//	          groupSolver.run           solveunits.go: for each unit, highest level first:
//	            openAbove               above.go: the finished units of the level above, read by blocks (an eighth of the solver's share)
//	            solveUnit               the unit: 2-3.25 B a position (an orbit in a group of kings alone) (positionSize)
//	              solve                 solve.go: the analyses one after the other, each:
//	                solver.analyse        a first pass over every position's moves (unit.walk),
//	                                      external successors through store.outcome
//	                analysis.propagate    propagate.go: the passes over predecessors, until no position changes
//	                groupSolver.spill     resultfile.go: a result another analysis follows, to the work folder
//	              writeUnit, fill       work.go: the unit's entries, to the work folder (a codec file)
//	          assembler.writeTables     assemble.go: the tables, block by block, from the units' blocks (cache of M/8)
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
	"slices"
	"time"

	"github.com/dtb-draughts/dtb/codec"
	"github.com/dtb-draughts/dtb/index"
	"github.com/dtb-draughts/dtb/internal/dirlock"
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
	// So must the tables held in memory and the reader's cache. A group is
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
// directory's files. Only newJob asks which kind of run it is.
type builder struct {
	Options
	// unit, if set, is the one unit the run builds (BuildUnit's). The
	// groups it reads must be in the directory already. Generate builds
	// every group whose tables are missing.
	unit string
	// part, if set, is the part of the unit's group that the run solves
	// (see BuildUnit). It writes no table.
	part *part
	// cat keeps the manifest of the directory: Generate's, nil for
	// BuildUnit. It vouches for the files it lists. It is written after
	// each group.
	cat *catalog
	// valid holds the table files checked in this run.
	valid map[string]bool
}

// checked reports whether the table file at path, open as f, is
// undamaged. The manifest or an earlier check in this run may vouch for
// it. Otherwise checked decodes every block.
func (r *builder) checked(path string, f *table.File) bool {
	if r.cat.vouches(path) || r.valid[path] {
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
