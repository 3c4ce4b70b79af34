package retro

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"

	"github.com/dtb-draughts/dtb/codec"
	"github.com/dtb-draughts/dtb/internal/parallel"
	"github.com/dtb-draughts/dtb/rules"
	"github.com/dtb-draughts/dtb/table"
)

// WorkDir is the folder of the output directory that keeps finished
// units. Each group has a folder there until its tables are written.
const WorkDir = "work"

// groupWork is what both halves of a group's build share: the group, its
// layout in units, and its work folder. The solver (groupSolver) writes
// each finished unit there as a codec file, written atomically and
// checksummed, so that a run that stops resumes with the units not yet
// finished. The assembler (assembler) writes the tables from them.
type groupWork struct {
	g     *group
	o     Options
	class rules.Class
	extra table.Extra // the optional columns of the group's tables
	dir   string      // the group's work folder
	*layout
}

func newGroupWork(g *group, o Options) *groupWork {
	m := g.tables[0].Material()
	w := &groupWork{g: g, o: o, class: rules.ClassOf(m), extra: o.extra(m), dir: filepath.Join(o.Dir, WorkDir, m.String())}
	w.layout = g.newLayout(o.unitPositions(w.extra, w.class), o.Split)
	return w
}

// captureColumn is the column of a unit's work file beside the entry's
// columns. It holds 1 where the side to move must capture, else 0.
const captureColumn = "capture"

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
func (w *groupWork) finished(n int) bool {
	r, err := w.openUnit(n)
	if err != nil {
		return false
	}
	defer r.Close()
	return r.Check() == nil
}

// unitPath returns the work file of unit n.
func (w *groupWork) unitPath(n int) string {
	return filepath.Join(w.dir, w.units[n].name+".unit")
}

// unitHeader returns the header of the work file of unit n. Its name,
// size and first block identify the unit. Its columns are the entry
// columns of the group's first table, with the build's optional
// columns. The capture flags come last. A file block holds whole blocks
// of the unit: as many as fit in 2^16 positions, and at least one. A
// block may exceed writeBatch positions. A file block then holds
// writeBatch positions.
func (w *groupWork) unitHeader(n int) codec.Header {
	u := w.units[n]
	h := codec.Header{
		Material:     u.name,
		IndexVersion: table.IndexVersion,
		Rules:        table.Full.Rules(),
		Positions:    u.positions(),
		BlockSize:    int(min(u.kings*max(1, 1<<16/u.kings), writeBatch)),
		Meta:         map[string]string{"first": strconv.FormatInt(u.firstRank, 10)},
	}
	l := table.NewLayout(w.g.tables[0].Material(), w.extra)
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
func (w *groupWork) writeUnit(ctx context.Context, n int, results [numAnalyses]*result) error {
	u := w.units[n]
	fw, err := codec.NewWriter(w.unitPath(n), w.unitHeader(n))
	if err != nil {
		return err
	}
	defer fw.Abort()
	fw.SetCompression(codec.Fastest) // read once or twice: see codec.Fastest
	batch := min(u.positions(), writeBatch)
	cols := table.NewLayout(w.g.tables[0].Material(), w.extra).MakeColumns(batch)
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
		err := parallel.Range(ctx, k, w.o.Threads, func(lo, hi int64) error {
			return w.fill(u, &cols, capture, results, base, base+lo, base+hi)
		})
		if err != nil {
			return err
		}
		i := 0
		for col := range table.NumColumns {
			if cols.Has(col) {
				if _, err := fw.Write(i, cols[col][:k*int64(col.Width())]); err != nil {
					return err
				}
				i++
			}
		}
		if _, err := fw.Write(i, capture[:k]); err != nil {
			return err
		}
	}
	return fw.Close()
}

// fill sets the entries and capture flags of positions lo to hi of unit
// u. The positions are in the order of its work file. It takes them from
// the results of the unit's analyses. It sets them in cols and capture,
// which hold the batch that starts at position base. It returns an error
// where the analyses disagree on a value, or a distance does not fit its
// column.
func (w *groupWork) fill(u *unit, cols *table.Columns, capture []byte, results [numAnalyses]*result, base, lo, hi int64) error {
	ids := u.localIDs(lo)
	theory, rulesRes, mtcs := results[theoryAnalysis], results[rulesAnalysis], results[mtcAnalysis]
	for pos := lo; pos < hi; pos++ {
		id, i := ids.next(), pos-base
		wd := theory.word(id, i)
		if wd.capture() {
			capture[i] = 1
		}
		th, ru := theory.outcome(wd), rulesRes.outcome(rulesRes.word(id, i))
		if w.class != rules.NoClass && ru.Value != rules.Draw {
			if ru.Dist >= table.NoDistance && w.class.Carries() {
				return fmt.Errorf("%s: class distance %d too long", u.name, ru.Dist)
			}
			if ru.Value != th.Value {
				return fmt.Errorf("%s id %d: rules %v but theoretical %v", u.name, id, ru.Value, th.Value)
			}
		}
		if !w.o.MTC || th.Value == rules.Draw {
			cols.SetOutcomes(i, w.class, th, ru)
			continue
		}
		mtc := mtcs.outcome(mtcs.word(id, i))
		if mtc.Value != th.Value || mtc.Dist >= table.NoMTC {
			return fmt.Errorf("%s id %d: mtc %v at %d plies, theoretical %v", u.name, id, mtc.Value, mtc.Dist, th.Value)
		}
		e := rules.NewEntry(w.class, th, ru)
		e.MTC = mtc.Dist
		cols.Set(i, e)
	}
	return nil
}

// openUnit opens the work file of unit n, if it is there. It returns an
// error unless the file is that unit's, written under the same rules with
// the same columns.
func (w *groupWork) openUnit(n int) (*codec.Reader, error) {
	r, err := codec.Open(w.unitPath(n))
	if err != nil {
		return nil, err
	}
	h, want := r.Header(), w.unitHeader(n)
	if h.Material != want.Material || h.Positions != want.Positions || h.Meta["first"] != want.Meta["first"] ||
		h.Rules != want.Rules || !slices.Equal(h.Columns, want.Columns) {
		r.Close()
		return nil, fmt.Errorf("%s: not unit %s as this build solves it", w.unitPath(n), want.Material)
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
