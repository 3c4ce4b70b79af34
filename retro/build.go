package retro

import (
	"context"
	"path/filepath"
	"runtime"

	"github.com/dtb-draughts/dtb/index"
	"github.com/dtb-draughts/dtb/rules"
	"github.com/dtb-draughts/dtb/table"
)

// buildGroup builds the group's tables in two halves. The solver
// (groupSolver) solves the units into the group's work folder, the
// assembler (assembler) writes the tables from there. With part p set it
// solves the units of p alone, and writes no table. It calls progress,
// if not nil, as each unit starts and ends. readLater, if set, reports
// whether a group built later reads the table of m (see assembler).
//
// A unit may not fit in the solver's share; a kings-only group is one
// unit. It then takes as much of the store's share as it goes over. The
// store keeps the tables the group reads (see reach). Those include the
// tables that resolve the capture positions of a table read from its
// file. Lookups from files would be slower. The store spills the other
// tables to the scratch folder. It reads them back once the group's
// tables are written.
func buildGroup(ctx context.Context, st *store, g *group, o Options, p *part, readLater func(m index.Material) bool, progress func(unit string, done int64)) error {
	w := newGroupWork(g, o)
	s := &groupSolver{groupWork: w, st: st, scratch: w.dir, progress: progress}
	if p != nil {
		s.part, s.scratch = p, partDir(o, g.tables[0].Material(), *p)
	}
	var dropped []spill
	restore := func() {}
	over := s.solverNeed() - budget(o.Mem).solver()
	if o.Mem > 0 && over > 0 {
		reads := reach(g.materials())
		dropped, restore = st.shrink(st.limit-over, func(m index.Material) bool { return reads[m] }, s.scratch)
	}
	defer restore()
	if err := s.run(ctx); err != nil || p != nil {
		return err
	}
	restore() // the units' memory is free: the tables written may be kept
	if o.Mem > 0 && over > 0 {
		// Collect the last unit's memory now. The caches of the
		// writing then reuse it rather than add to it.
		runtime.GC()
	}
	a := &assembler{groupWork: w, st: st, readLater: readLater}
	if err := a.writeTables(); err != nil {
		return err
	}
	st.unspill(dropped) // after the writing's caches are gone
	return removeWork(o, g)
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
