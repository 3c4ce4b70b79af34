package retro

import (
	"context"
	"fmt"
	"runtime"
	"time"

	"github.com/dtb-draughts/dtb/index"
	"github.com/dtb-draughts/dtb/table"
)

// A job is what one run of Generate or BuildUnit does, fixed before it
// starts (newJob): the groups of its plan that it builds, loads or
// reports, in order. The run then follows its steps without asking which
// kind of run it is.
type job struct {
	steps []step
	kept  map[index.Material][]*solved // the groups whose tables are valid, by each material (survey)
	last  map[index.Material]int       // lastUses of the plan
	total Progress                     // of the groups the run reports, before it starts
}

// A step is one group of a job and what the run does with it.
type step struct {
	g    *group
	at   int  // the place of the group's first material in the plan
	ours bool // the run reports the group's tables: every group of Generate, its own of BuildUnit
	do   action
	part *part // the part whose units the step solves (solvePart)
}

// An action is what a run does with a group.
type action uint8

const (
	reportKept  action = iota // its tables are valid and no group left reads them: reported, not loaded
	buildOrLoad               // its tables are loaded if valid, else built
	solvePart                 // a part of it is solved, and the run ends
	partDone                  // its tables are written, so the part is done: the run ends
)

// newJob returns the job of a run of r over the plan mats. A run of
// BuildUnit builds the group of unit alone (r.unit), or part r.part of
// it; Generate builds every group (r.unit empty). A group another builds
// is loaded where a group to build reads it. It must then be valid in
// r.Dir: else newJob fails, naming the unit that builds it.
func newJob(r *builder, mats []index.Material) (*job, error) {
	ours := func(m index.Material) bool { return r.unit == "" || UnitID(m) == r.unit }
	kept, load := survey(mats, ours, r)
	j := &job{kept: kept, last: lastUses(mats)}
	seen := map[index.Material]bool{}
	for i, m := range mats {
		if seen[m.Flip()] { // a group stands at its first material
			continue
		}
		seen[m] = true
		s := step{g: newGroup(m), at: i, ours: ours(m), do: buildOrLoad}
		read := load[m] || load[m.Flip()]
		switch {
		case !s.ours && kept[m] == nil && read:
			return nil, fmt.Errorf("unit %s needs %s in %s: build unit %s first", r.unit, table.FileName(m), r.Dir, UnitID(m))
		case !s.ours && !read:
			continue
		case s.ours && r.part != nil && kept[m] != nil && !read:
			s.do = partDone
		case s.ours && r.part != nil:
			s.do, s.part = solvePart, r.part
		case kept[m] != nil && !read:
			s.do = reportKept
		}
		j.steps = append(j.steps, s)
		if s.ours {
			j.total.TablesTotal += len(s.g.tables)
			j.total.PositionsTotal += s.g.size()
		}
	}
	return j, nil
}

// run does the job's steps in order. It builds the groups whose tables
// are not in the directory and valid. It loads into a store the tables
// that a group still to build reads. It forgets each table once no group
// left reads it.
func (r *builder) run(ctx context.Context, mats []index.Material) error {
	if r.Threads <= 0 {
		r.Threads = runtime.NumCPU()
	}
	j, err := newJob(r, mats)
	if err != nil {
		return err
	}
	prog := j.total
	r.progress(prog)
	st := newStore(r.Mem)
	for _, s := range j.steps {
		start, base := time.Now(), prog.Positions
		if s.ours {
			prog.Current = s.g.tables[0].Material().String()
			r.progress(prog)
		}
		built, err := r.do(ctx, st, j, s, func(unit string, done int64) {
			prog.Current, prog.Positions = unit, base+done
			r.progress(prog)
		})
		if err != nil || s.do == solvePart || s.do == partDone {
			return err
		}
		if s.ours {
			for t, x := range s.g.tables {
				prog.Tables++
				var stats table.Stats
				if s.do == reportKept {
					stats = j.kept[x.Material()][t].stats
				} else {
					stats = st.get(x.Material()).stats
				}
				r.done(Report{Material: x.Material(), Stats: stats, Built: built, Elapsed: time.Since(start)})
			}
			prog.Positions = base + s.g.size()
		}
		if built {
			if err := r.cat.write(); err != nil {
				return err
			}
		}
		if err := forgetUnread(st, mats, j.last, s.at); err != nil {
			return err
		}
		if s.ours {
			r.progress(prog)
		}
	}
	return forgetUnread(st, mats, j.last, len(mats)-1) // after kept groups too
}

// do does step s of job j, and reports whether it solved the group.
// progress is buildGroup's.
func (r *builder) do(ctx context.Context, st *store, j *job, s step, progress func(unit string, done int64)) (bool, error) {
	switch s.do {
	case reportKept:
		return false, removeWork(r.Options, s.g)
	case partDone:
		return false, nil
	}
	if loaded, err := loadKept(st, s.g, r); err != nil || loaded {
		if err == nil { // units left by a run stopped after the tables were written
			err = removeWork(r.Options, s.g)
		}
		return false, err
	}
	readLater := func(m index.Material) bool { return j.last[m] > s.at }
	if err := buildGroup(ctx, st, s.g, r.Options, s.part, readLater, progress); err != nil {
		return false, err
	}
	return true, nil
}

// survey finds the groups of mats whose tables are in r.Dir and valid.
// It returns them in kept, by each of their materials. It also returns
// in load the materials whose tables a group still to build reads (see
// reach). The group reads them directly or through the capture positions
// of a table it reads. Only the kept tables that load names are loaded.
// A group that r does not build is looked for only if load names it.
func survey(mats []index.Material, ours func(index.Material) bool, r *builder) (kept map[index.Material][]*solved, load map[index.Material]bool) {
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
		if ours(m) {
			if find(m); kept[m] == nil {
				build = append(build, m)
			}
		}
	}
	load = reach(build)
	for _, m := range mats {
		if !ours(m) && (load[m] || load[m.Flip()]) {
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
