package retro

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/dtb-draughts/dtb/codec"
	"github.com/dtb-draughts/dtb/index"
	"github.com/dtb-draughts/dtb/internal/dirlock"
	"github.com/dtb-draughts/dtb/table"
)

// A Unit is one job of a build that a scheduler (make, ninja, Slurm) runs
// on its own. It runs once the units it depends on are done. BuildUnit
// builds it. A unit is a group: a material and its colour flip, solved
// together.
type Unit struct {
	// ID names the unit: the group's first material in index order
	// (index.Materials). KKMvK names the unit of KKMvK and KvKKM. Finer
	// units will split a group by men advancement level and chunks of men
	// placements. They will extend the scheme with dotted suffixes, such
	// as KKMMvKM.l12.3. An ID is a safe file name: letters, digits and
	// dots.
	ID string
	// Deps are the IDs of the units whose tables the unit's captures and
	// crownings lead to. They are in build order.
	Deps []string
	// Materials are the tables the unit writes, one file each.
	Materials []index.Material
	// Positions counts the positions of those tables.
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

// ParseUnit returns the material that the unit id is named after. It
// returns an error unless id names a unit of at most MaxPieces pieces.
func ParseUnit(id string) (index.Material, error) {
	m, err := index.ParseMaterial(id)
	if err != nil || UnitID(m) != id {
		return index.Material{}, fmt.Errorf("no unit %q: a unit is named by the first material in index order of a material and its flip, e.g. KKMvK", id)
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
func BuildUnit(ctx context.Context, id string, o Options) error {
	m, err := ParseUnit(id)
	if err != nil {
		return err
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
	work := filepath.Join(o.Dir, WorkDir, id)
	if err := os.MkdirAll(work, 0o755); err != nil {
		return err
	}
	own, err := lock(work, "unit "+id+" in "+o.Dir, dirlock.Exclusive)
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
	mats, err := plan(Options{Only: &m})
	if err != nil {
		return err
	}
	r := &builder{Options: o, unit: id}
	return r.run(ctx, mats)
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
