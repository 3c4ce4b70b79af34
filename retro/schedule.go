package retro

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"

	"github.com/dtb-draughts/dtb/codec"
	"github.com/dtb-draughts/dtb/index"
	"github.com/dtb-draughts/dtb/internal/dirlock"
	"github.com/dtb-draughts/dtb/rules"
	"github.com/dtb-draughts/dtb/table"
)

// A Unit is one job of a build that a scheduler (make, ninja, Slurm) runs
// on its own. It runs once the units it depends on are done. BuildUnit
// builds it. A unit is a group, a material and its colour flip solved
// together, or a part of a group (see Parts).
type Unit struct {
	// ID names the unit. A group is named by its first material in index
	// order (index.Materials): KKMvK names the unit of KKMvK and KvKKM.
	// A part is named GROUP.lLEVEL.IofP: part I of P of the solver units
	// of level LEVEL of men advancement, KKMvK.l9.1of2. An ID is a safe
	// file name: letters, digits and dots.
	ID string
	// Deps are the IDs of the units the unit reads: those whose tables
	// its captures and crownings lead to and, for a part, the parts of
	// the level above; for a group after its parts, the parts of its
	// lowest level. They are in build order.
	Deps []string
	// Group is, for a part, the ID of its group; empty for a group.
	Group string
	// Split is the Options.Split (dtb gen --split) that every job of a
	// cut group runs with: its parts and the group after them. It fixes
	// the solver's units, which the parts name. 0 for the others.
	Split int
	// Assembles is set on a group after its parts. It solves no unit: it
	// reads the parts' units back and writes the tables.
	Assembles bool
	// Materials are the tables the unit writes, one file each: none for
	// a part.
	Materials []index.Material
	// Positions counts the positions of those tables; for a part, of its
	// units, an estimate.
	Positions int64
	// Memory estimates the unit's peak memory in bytes. It counts its
	// group's (see groupMemory). It adds the tables of its deps held
	// while it solves: their columns and capture bits. A budget
	// Options.Mem bounds it where the group's smallest parts fit in the
	// budget. The solver then works in parts within it.
	Memory int64
}

// UnitID returns the ID of the unit that writes the table of m.
func UnitID(m index.Material) string {
	return min(m.String(), m.Flip().String())
}

// Units returns the units of the build o describes, each after the units
// it depends on. It reads o.Pieces and o.Only. The memory estimate also
// reads o.Mem and the options of the optional columns. Units sizes the
// tables without building them, so it is quick up to MaxPieces.
func Units(o Options) ([]Unit, error) {
	if err := checkPieces(o); err != nil {
		return nil, err
	}
	mats, err := plan(o)
	if err != nil {
		return nil, err
	}
	var units []Unit
	size := map[index.Material]int64{}
	for _, m := range mats {
		if UnitID(m) != m.String() {
			continue
		}
		g := newGroup(m)
		all, least := groupMemory(m, o.extra(m))
		u := Unit{ID: m.String(), Positions: g.size(), Memory: all}
		for _, x := range g.tables {
			u.Materials = append(u.Materials, x.Material())
			size[x.Material()] = x.Size()
		}
		deps := map[string]bool{}
		for _, s := range successors(m) {
			deps[UnitID(s)] = true
		}
		for _, v := range units { // in build order
			if deps[v.ID] {
				u.Deps = append(u.Deps, v.ID)
				for _, x := range v.Materials {
					u.Memory += tableBytes(x, size[x], o.extra(x))
				}
			}
		}
		u.Memory = memoryWithin(u.Memory, least, o.Mem)
		units = append(units, u)
	}
	return units, nil
}

// Parts returns the units of Units(o), where the levels of men worth
// cutting are cut into parts, jobs of their own that can run on several
// nodes at once. A part is a run of the solver units of one level, of
// nearly equal counts. A part has the group's deps and memory, and
// depends on every part of the level above. The group's own unit
// follows the parts of its lowest level.
//
// A part holds about a share of the build's largest level: its
// positions over n. A level gets as many parts as such shares it
// holds, at most n. A smaller level stays one part: cut, it would add
// jobs, not save time. A group with a level to cut gets Split n, so that
// the solver cuts each of its levels into n units whatever o.Mem (see
// Options.Split).
func Parts(o Options, n int) ([]Unit, error) {
	units, err := Units(o)
	if err != nil || n < 2 {
		return units, err
	}
	positions := make([][]int64, len(units))
	var largest int64
	for i, u := range units {
		positions[i] = levelPositions(u)
		for _, l := range positions[i] {
			largest = max(largest, l)
		}
	}
	share := max((largest+int64(n)-1)/int64(n), 1)
	var out []Unit
	for i, u := range units {
		out = append(out, splitUnit(u, o, n, share, positions[i])...)
	}
	return out, nil
}

// levelPositions returns the positions of each level of group u, from
// the lowest level up; none for a group of kings alone.
func levelPositions(u Unit) []int64 {
	m := u.Materials[0]
	if m.Men() == 0 {
		return nil
	}
	k, tables := index.New(m).KingPlacements(), int64(len(u.Materials))
	levels := levelConfigs(m)
	for lv := range levels {
		levels[lv] *= k * tables
	}
	return levels
}

// splitUnit returns the parts of group u, whose levels hold positions
// (levelPositions), then u after them (see Parts); u alone if no level
// of it holds more than one share. It counts a
// level's units as the solver's layout does (levelUnits), with half the
// configurations of a symmetric group, most of which pair with another.
// A count a little off leaves parts empty or runs fewer, never a wrong
// table.
func splitUnit(u Unit, o Options, n int, share int64, positions []int64) []Unit {
	if !slices.ContainsFunc(positions, func(l int64) bool { return l > share }) {
		return []Unit{u}
	}
	m := u.Materials[0]
	u.Split = n
	k, tables := index.New(m).KingPlacements(), int64(len(u.Materials))
	unitPositions := o.unitPositions(o.extra(m), rules.ClassOf(m))
	levels := levelConfigs(m)
	var parts []Unit
	var above []string
	for lv := len(levels) - 1; lv >= 0; lv-- {
		pairs := levels[lv]
		if pairs == 0 {
			continue
		}
		if tables == 1 {
			pairs = (pairs + 1) / 2
		}
		units := levelUnits(pairs, unitPositions, k, u.Split)
		of := min(int64(n), units, (positions[lv]+share-1)/share)
		var level []string
		for i := range of {
			p := Unit{ID: partName(m, part{lv, int(i) + 1, int(of)}), Group: u.ID, Split: u.Split, Memory: u.Memory,
				Deps: append(slices.Clone(u.Deps), above...)}
			lo, hi := unitStart(i*units/of, units, pairs), unitStart((i+1)*units/of, units, pairs)
			p.Positions = positions[lv] * (hi - lo) / pairs
			parts = append(parts, p)
			level = append(level, p.ID)
		}
		above = level
	}
	u.Deps, u.Assembles = append(slices.Clone(u.Deps), above...), true
	return append(parts, u)
}

// ParseUnit returns the material that the unit id is named after: the
// group's first material, for a group or a part of it. It returns an
// error unless id names a unit of at most MaxPieces pieces.
func ParseUnit(id string) (index.Material, error) {
	m, _, err := parseUnit(id)
	return m, err
}

// A part is a run of the solver units of one level of a group: part i
// of of (from 1), in the order of the level's units (see unitSpan).
type part struct{ level, i, of int }

// partID matches the ID of a part: GROUP.lLEVEL.IofP.
var partID = regexp.MustCompile(`^([^.]+)\.l(\d+)\.(\d+)of(\d+)$`)

// partName returns the ID of part p of the group of m.
func partName(m index.Material, p part) string {
	return fmt.Sprintf("%s.l%d.%dof%d", m, p.level, p.i, p.of)
}

// parseUnit returns the group's first material of the unit id, and its
// part if id names one.
func parseUnit(id string) (index.Material, *part, error) {
	if s := partID.FindStringSubmatch(id); s != nil {
		m, err := parseGroup(s[1])
		if err != nil {
			return m, nil, err
		}
		var p part
		p.level, _ = strconv.Atoi(s[2])
		p.i, _ = strconv.Atoi(s[3])
		p.of, _ = strconv.Atoi(s[4])
		levels := levelConfigs(m)
		if m.Men() == 0 || p.level >= len(levels) || levels[p.level] == 0 || p.i < 1 || p.i > p.of || partName(m, p) != id {
			return m, nil, fmt.Errorf("no part %q: a part is GROUP.lLEVEL.IofP, part I of P of a level of men advancement of a group with men, e.g. %s", id, partName(m, part{level: len(levels) - 1, i: 1, of: 2}))
		}
		return m, &p, nil
	}
	m, err := parseGroup(id)
	return m, nil, err
}

// parseGroup returns the material of the group unit id.
func parseGroup(id string) (index.Material, error) {
	m, err := index.ParseMaterial(id)
	if err != nil || UnitID(m) != id {
		return index.Material{}, fmt.Errorf("no unit %q: a unit is named by the first material in index order of a material and its flip, e.g. KKMvK, or is a part of one, e.g. KKMvK.l9.1of2", id)
	}
	return m, checkPieces(Options{Only: &m})
}

// BuildUnit builds the tables of the unit id in o.Dir as Generate would.
// It ignores o.Pieces and o.Only. It reads the tables of the units it
// depends on from their files there. Those must have been built first. A
// unit whose tables are already there and valid returns at once. Several
// BuildUnit may run at once in one directory, for different units. Each
// removes only its own tables' temporary files. It leaves the manifest
// alone (see WriteManifest).
//
// A part (GROUP.lLEVEL.IofP) solves its units into the group's work
// folder and writes no table. It needs the Options.Split of its plan
// (Unit.Split), which its ID does not tell: an error names the flag
// without one. It needs the units of the level above finished under the
// same Options.Mem and Split: an error names them otherwise.
// The group's own unit then reads every finished unit back and solves
// those missing. The parts of a group run side by side, not beside the
// group's unit.
func BuildUnit(ctx context.Context, id string, o Options) error {
	m, p, err := parseUnit(id)
	if err != nil {
		return err
	}
	if p != nil && o.Split < 2 {
		return fmt.Errorf("part %s needs the --split of its plan: run dtb gen --unit %s --split N, N the --nodes of its dtb plan", id, id)
	}
	if err := os.MkdirAll(o.Dir, 0o755); err != nil {
		return err
	}
	// Units build side by side in one directory. They do not run beside
	// a Generate or WriteManifest there, nor beside another job of the
	// same unit.
	shared, err := lock(o.Dir, o.Dir, dirlock.Shared)
	if err != nil {
		return err
	}
	defer shared.Release()
	work := filepath.Join(o.Dir, WorkDir, m.String())
	if err := os.MkdirAll(work, 0o755); err != nil {
		return err
	}
	mats, err := plan(Options{Only: &m})
	if err != nil {
		return err
	}
	if p != nil {
		return buildPart(ctx, o, mats, m, p)
	}
	own, err := lock(work, "unit "+runningPart(work, id)+" in "+o.Dir, dirlock.Exclusive)
	if err != nil {
		return err
	}
	defer own.Release()
	defer os.Remove(work) // if empty: the unit failed before building
	var temps []string
	for _, x := range newGroup(m).tables {
		temps = append(temps, codec.TempGlob(table.FileName(x.Material())), codec.TempGlob(x.Material().String()+table.DistanceExt))
	}
	if err := codec.RemoveTemps(o.Dir, temps...); err != nil {
		return err
	}
	r := &builder{Options: o, unit: id}
	return r.run(ctx, mats)
}

// runningPart returns what holds work, the work folder of group id, for
// the error of the group's unit that it refuses: the ID of the part
// whose job holds it, where the system names the holder (dirlock.Holder);
// id otherwise: no job holds it, another job of the group's unit does,
// or the holder is not known.
func runningPart(work, id string) string {
	pid := dirlock.Holder(work)
	if pid == 0 {
		return id
	}
	des, _ := os.ReadDir(work)
	for _, d := range des {
		if _, p, err := parseUnit(d.Name()); err == nil && p != nil && d.IsDir() && dirlock.Holder(filepath.Join(work, d.Name())) == pid {
			return d.Name()
		}
	}
	return id
}

// buildPart solves part p of the group of m, from the materials mats.
// The part shares the group's work folder with the group's other parts.
// It keeps its scratch files in a folder of its own there (partDir),
// which it locks. It removes that folder once empty, and never the
// group's: a sibling may be starting there.
func buildPart(ctx context.Context, o Options, mats []index.Material, m index.Material, p *part) error {
	id := partName(m, *p)
	l, err := lock(filepath.Join(o.Dir, WorkDir, m.String()), "unit "+m.String()+" in "+o.Dir, dirlock.Shared)
	if err != nil {
		return err
	}
	defer l.Release()
	scratch := partDir(o, m, *p)
	if err := os.MkdirAll(scratch, 0o755); err != nil {
		return err
	}
	own, err := lock(scratch, "unit "+id+" in "+o.Dir, dirlock.Exclusive)
	if err != nil {
		return err
	}
	defer own.Release()
	defer os.Remove(scratch) // if empty: its spills and results are gone
	r := &builder{Options: o, unit: m.String(), part: p}
	return r.run(ctx, mats)
}

// partDir returns the folder of part p of the group of m: in the group's
// work folder, named after the part.
func partDir(o Options, m index.Material, p part) string {
	return filepath.Join(o.Dir, WorkDir, m.String(), partName(m, p))
}

// keptTables reads the group's tables from r.Dir. It does not resolve
// their capture positions. It returns nil unless the tables are all
// there and valid.
func keptTables(g *group, r *builder) []*solved {
	var out []*solved
	for _, x := range g.tables {
		s := readTable(filepath.Join(r.Dir, table.FileName(x.Material())), x, r, false)
		if s == nil {
			return nil
		}
		out = append(out, s)
	}
	return out
}

// WriteManifest writes the manifest of dir as Generate leaves it. The
// manifest lists exactly the valid tables there. WriteManifest removes a
// temporary manifest file that an interrupted run of it left. Run it
// once the BuildUnit of every unit is done. Run one at a time per
// directory.
func WriteManifest(dir string) error {
	l, err := lock(dir, dir, dirlock.Exclusive)
	if err != nil {
		return err
	}
	defer l.Release()
	if err := codec.RemoveTemps(dir, codec.TempGlob(codec.ManifestName)); err != nil {
		return err
	}
	os.Remove(filepath.Join(dir, WorkDir)) // empty once every unit is built
	return newCatalog(dir).write()
}
