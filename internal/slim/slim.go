// Package slim writes the tables an engine's search reads, from a
// directory that dtb gen built: the value files, and of each colour pair
// of tables (KKvK and KvKK) one, the other answered by a search through
// it, or both where that search is dear (Options.Sides).
//
//	err := slim.Write(ctx, "tables", "engine", slim.Options{})
//	t, err := probe.Open("engine", probe.Options{}) // answers every position
//
// A table and its colour flip hold the same positions with the other side
// to move, so each answers the other by a one-ply search (package probe):
// a position of the table left out is answered from its moves, whose
// successors the kept table holds. Write keeps the smaller value file of
// each pair. A value file kept may leave out the entries of forced
// threats too (rules.ForcedThreat: every move leaves the other side a
// capture), which the prober then finds from their moves' captures, a
// search of two plies: by default only where that makes the file at
// least ThreatSaving smaller (Options.Threats). Where
// both sides have a king (rules.Rule2), a quiet king move
// carries the rule-2 count one ply on; the kept value file marks the
// positions that count draws (table.WriteSlim), so that a search with
// fresh clocks reads value files alone; every value file of such a
// material is marked, so that a probe with the count at 1 needs no
// distance either. Their distance files, where copied, leave out the
// rule-2 distances of at most table.ShortDistance plies, which the prober
// finds by a search (as Syzygy's DTZ files leave out what a search
// gives). Class A and B keep both tables
// and their distance files, which their rules values need; symmetric
// materials (KvK, KMvKM) have no pair.
//
// The build directory keeps every table: the next piece count's build and
// dtb verify read both sides whole. The slim directory is for probing
// (engines, dtb probe, dtb serve); its manifest names each table left out
// beside the one that answers it (codec.ManifestEntry.Searched).
package slim

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"

	"github.com/dtb-draughts/dtb/codec"
	"github.com/dtb-draughts/dtb/index"
	"github.com/dtb-draughts/dtb/internal/dirlock"
	"github.com/dtb-draughts/dtb/probe"
	"github.com/dtb-draughts/dtb/rules"
	"github.com/dtb-draughts/dtb/table"
)

// Options configure Write.
type Options struct {
	// Distances copies the distance files of the tables kept, which
	// probes with running clocks, dtw and mtc read; class A and B always
	// have theirs.
	Distances bool
	// Threats says which value files leave out their forced threats.
	Threats Threats
	// Sides says which colour pairs keep both tables.
	Sides Sides
	// Done, if not nil, is called with each table written or left out.
	Done func(Table)
}

// Threats says which value files of a slim directory leave out the
// entries of their forced threats (table.SlimFlags.ForcedThreats).
type Threats int

const (
	// ThreatsWherePaying leaves them out of a table's value file where
	// that makes it at least ThreatSaving smaller, measured by writing
	// the file both ways.
	ThreatsWherePaying Threats = iota
	// ThreatsKept leaves them in every value file: every quiet position
	// of a table kept is read, none searched.
	ThreatsKept
	// ThreatsLeftOut leaves them out of every value file: the smallest
	// files.
	ThreatsLeftOut
)

// ThreatSaving is the part of a value file that leaving out its forced
// threats must save for ThreatsWherePaying to leave them out. Measured on
// the value files of 2 to 5 pieces that a slim directory keeps, leaving
// them out saves 0 to 18% of a file and 4% of all; a probe of a forced
// threat left out costs a search of two plies (about 7 us at 5 pieces,
// cached), a read 0.1 us (medians).
const ThreatSaving = 0.1

// threatSaving is ThreatSaving, which the tests change.
var threatSaving = ThreatSaving

// Sides says which colour pairs of a slim directory keep both tables,
// the other pairs keeping the smaller one.
type Sides int

const (
	// SidesOne keeps one table of every pair.
	SidesOne Sides = iota
	// SidesBoth keeps both tables of every pair: no table is searched.
	SidesBoth
	// SidesWhereDear keeps both tables of a pair where the search of the
	// table left out would cost at least SearchCost probes a position
	// (Table.Cost).
	SidesWhereDear
)

// SearchCost is the mean probes a search of the positions of a table
// left out must cost for SidesWhereDear to keep both tables of its pair.
// A stored probe reads one position; a search probes a successor for each
// move (cost.go). At 2 to 5 pieces it splits the 7 pairs with kings on
// both sides (18.4 to 60.3 probes) from the other 28 (1.7 to 10.3); on
// the engine-search stream, keeping both tables of those 7 takes a probe
// from 3.3 us to 0.52 us (both sides of every pair: 0.36 us) and the
// value files from 10.7 MB to 23.3 MB (30.7 MB); docs/engines.md.
const SearchCost = 16.0

// searchCost is SearchCost, which the tests change.
var searchCost = SearchCost

// Table is what Write did with one table.
type Table struct {
	Material index.Material
	// SearchedIn is the table that answers this one by a search, its
	// colour flip; the zero Material for a table written.
	SearchedIn index.Material
	// Cost is, where SidesWhereDear measured the table's colour pair and
	// the table is its larger, the mean probes of a search of one of its
	// positions through its colour flip (cost.go); else 0. The table is
	// searched where Cost is under SearchCost, kept beside its flip
	// otherwise.
	Cost    float64
	Marked  bool  // its value file was written marked (table.WriteSlim)
	Threats bool  // its value file leaves out its forced threats
	Bytes   int64 // of the files written, 0 for a table left out
}

// Write writes to out the tables of dir, as the package doc says, then
// out's manifest. Each file is written atomically; a Write interrupted
// and run again writes every file anew. dir must hold tables of format 3
// with a manifest (dtb convert rewrites older ones).
func Write(ctx context.Context, dir, out string, o Options) error {
	if _, err := os.Stat(filepath.Join(dir, codec.ManifestName)); errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("%s has no %s: build tables there with: dtb gen --out %s", dir, codec.ManifestName, dir)
	}
	if same, err := sameDir(dir, out); err != nil || same {
		return errors.Join(err, fmt.Errorf("%s: the slim tables must go to another directory", out))
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}
	release, err := lock(dir, out)
	if err != nil {
		return err
	}
	defer release()
	entries, err := codec.ReadManifest(dir) // as it stands with dir locked
	if err != nil {
		return err
	}
	if slimListed(dir, entries) {
		return fmt.Errorf("%s is a slim directory already: write from the directory dtb gen built", dir)
	}
	if listed, err := codec.ReadManifest(out); err == nil && len(listed) > 0 && !slimListed(out, listed) {
		return fmt.Errorf("%s holds the tables of a build (no table there is a slim directory's): write the slim tables to another directory", out)
	}
	// No manifest until every file is written: an interrupted Write
	// leaves a directory that vouches for nothing. The files an
	// interrupted Write left half written (codec.Write's NAME.*.tmp) go
	// too.
	if err := os.Remove(filepath.Join(out, codec.ManifestName)); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	if err := codec.RemoveTemps(out, table.TempGlobs...); err != nil {
		return err
	}
	// The value files that leave out their forced threats, where
	// ThreatsWherePaying writes them both ways, go to scratch first.
	scratch := filepath.Join(out, ".threats")
	if err := os.RemoveAll(scratch); err != nil {
		return err
	}
	defer os.RemoveAll(scratch)
	ps, err := newPairs(dir, entries)
	if err != nil {
		return err
	}
	if err := ps.choose(ctx, dir, o.Sides); err != nil {
		return err
	}
	var listed []codec.ManifestEntry
	for _, e := range entries {
		if err := ctx.Err(); err != nil {
			return err
		}
		m, _ := index.ParseMaterial(e.Material)
		if ps.keeper(m) != m {
			continue // written with its flip
		}
		w, threats, err := write(dir, out, scratch, e, m, ps, o)
		if err != nil {
			return err
		}
		listed = append(listed, w)
		if o.Done != nil {
			o.Done(Table{Material: m, Cost: ps.cost[m], Marked: rules.ClassOf(m) == rules.Rule2, Threats: threats, Bytes: w.Size + distanceSize(w)})
			if w.Searched != "" {
				o.Done(Table{Material: m.Flip(), SearchedIn: m, Cost: ps.cost[m.Flip()]})
			}
		}
	}
	return codec.WriteManifest(out, listed)
}

// Is reports whether dir's manifest lists the tables of a slim
// directory (slimListed).
func Is(dir string) bool {
	entries, err := codec.ReadManifest(dir)
	return err == nil && slimListed(dir, entries)
}

// slimListed reports whether entries, the manifest of dir, list a slim
// directory's tables: a table answered by a search, or a value file that
// marks or leaves out positions (table.Slim). A directory of SidesBoth
// has no table searched; its files say what it is, but where no
// material has a rule-2 count and every file keeps its forced threats,
// which leaves them as a build's.
func slimListed(dir string, entries []codec.ManifestEntry) bool {
	for _, e := range entries {
		if e.Searched != "" {
			return true
		}
		m, err := index.ParseMaterial(e.Material)
		if err != nil {
			continue
		}
		if f, err := table.Open(filepath.Join(dir, e.File), m); err == nil {
			slim := f.Variant == table.Slim
			f.Close()
			if slim {
				return true
			}
		}
	}
	return false
}

// lock locks dir, so that the tables read do not change meanwhile (a dtb
// gen or convert holds it alone), and out, written by this Write alone;
// release releases both.
func lock(dir, out string) (release func(), err error) {
	var locks []*dirlock.Lock
	release = func() {
		for _, l := range locks {
			l.Release()
		}
	}
	for _, l := range []struct {
		dir  string
		take func(string) (*dirlock.Lock, error)
	}{{dir, dirlock.Shared}, {out, dirlock.Exclusive}} {
		lock, err := l.take(l.dir)
		var held *dirlock.HeldError
		if errors.As(err, &held) {
			who := "another dtb"
			if held.PID != 0 {
				who += fmt.Sprintf(" (pid %d)", held.PID)
			}
			err = fmt.Errorf("%s is writing %s: wait for it to end", who, l.dir)
		}
		if err != nil {
			release()
			return nil, err
		}
		locks = append(locks, lock)
	}
	return release, nil
}

// pairs are the tables of a build by material, and what Write keeps of
// each colour pair.
type pairs struct {
	byMat map[index.Material]codec.ManifestEntry
	whole map[index.Material]bool    // both tables kept, by either material
	cost  map[index.Material]float64 // SidesWhereDear's measure, by the larger material
}

// newPairs returns the pairs of the manifest entries of dir, each pair
// keeping one table.
func newPairs(dir string, entries []codec.ManifestEntry) (*pairs, error) {
	ps := &pairs{byMat: map[index.Material]codec.ManifestEntry{}, whole: map[index.Material]bool{}, cost: map[index.Material]float64{}}
	for _, e := range entries {
		m, err := index.ParseMaterial(e.Material)
		if err != nil {
			return nil, fmt.Errorf("%s: entry %q: %v", filepath.Join(dir, codec.ManifestName), e.File, err)
		}
		ps.byMat[m] = e
	}
	return ps, nil
}

// choose chooses the pairs that keep both tables, as sides says:
// SidesWhereDear measures the search of each pair's larger table
// through the smaller in the tables of dir (meanProbes).
func (ps *pairs) choose(ctx context.Context, dir string, sides Sides) error {
	if sides == SidesOne {
		return nil
	}
	var t *probe.Tables
	if sides == SidesWhereDear {
		var err error
		if t, err = probe.Open(dir, probe.Options{CacheBytes: 256 << 20}); err != nil {
			return err
		}
		defer t.Close()
	}
	for _, m := range slices.SortedFunc(maps.Keys(ps.byMat), index.Compare) {
		if m == m.Flip() || ps.smaller(m) != m || ps.smaller(m.Flip()) != m {
			continue // no pair, or the pair once, by its smaller table
		}
		if t != nil {
			cost, err := meanProbes(ctx, t, m.Flip())
			if err != nil {
				return err
			}
			ps.cost[m.Flip()] = cost
			if cost < searchCost {
				continue
			}
		}
		ps.whole[m], ps.whole[m.Flip()] = true, true
	}
	return nil
}

// keeper returns the material whose table answers the positions of m in
// the slim directory: m itself where its pair keeps both tables, else
// the smaller.
func (ps *pairs) keeper(m index.Material) index.Material {
	if ps.whole[m] {
		return m
	}
	return ps.smaller(m)
}

// smaller returns the material of m's pair whose value file is the
// smaller (by material order on a tie): m itself where m has no pair
// (its colour flip is not listed or is m) or m's class has a class
// clock, which keeps both tables.
func (ps *pairs) smaller(m index.Material) index.Material {
	f := m.Flip()
	e, ok := ps.byMat[f]
	if f == m || !ok || rules.ClassOf(m).Carries() {
		return m
	}
	if s, t := e.Size, ps.byMat[m].Size; s < t || s == t && index.Compare(f, m) < 0 {
		return f
	}
	return m
}

// write writes the table of m, the manifest entry e of dir, to out, and
// returns its entry there and whether its value file leaves out its
// forced threats: its value file, marked where the rule-2 count runs,
// forced threats left out as o.Threats says but in class A and B, and
// its distance file if asked for or of class A or B.
func write(dir, out, scratch string, e codec.ManifestEntry, m index.Material, ps *pairs, o Options) (codec.ManifestEntry, bool, error) {
	src, dst := filepath.Join(dir, e.File), filepath.Join(out, e.File)
	f, err := table.OpenListed(dir, e, m)
	if err != nil {
		return e, false, err
	}
	defer f.Close()
	if !f.Split {
		return e, false, fmt.Errorf("%s is a table of format 2: convert it first with: dtb convert --dir %s", src, dir)
	}
	searched := m != m.Flip() && ps.keeper(m.Flip()) == m
	copyDistances := e.Distances != nil && (o.Distances || f.Class.Carries())
	threats := false
	if !f.Class.Carries() {
		threats, err = writeSlim(f, dst, scratch, copyDistances, o.Threats)
	} else {
		if copyDistances {
			err = codec.CopyFile(table.DistancePath(dst), table.DistancePath(src))
		}
		if err == nil {
			err = codec.CopyFile(dst, src)
		}
	}
	if err != nil {
		return e, false, err
	}
	w := codec.ManifestEntry{File: e.File, Material: e.Material, Positions: e.Positions}
	if w.Size, w.CRC32C, w.HeaderCRC32C, err = listing(dst); err != nil {
		return e, false, err
	}
	if searched {
		w.Searched = m.Flip().String()
	}
	if copyDistances {
		d := codec.ManifestFile{File: e.Distances.File}
		if d.Size, d.CRC32C, d.HeaderCRC32C, err = listing(table.DistancePath(dst)); err != nil {
			return e, false, err
		}
		w.Distances = &d
	}
	return w, threats, nil
}

// writeSlim writes the table of f to dst with table.WriteSlim, its forced
// threats left out as policy says, and reports whether they are.
// ThreatsWherePaying writes the files both ways, those that leave them
// out in scratch, and moves them to dst where their value file is the
// smaller by ThreatSaving.
func writeSlim(f *table.File, dst, scratch string, distances bool, policy Threats) (bool, error) {
	if policy != ThreatsWherePaying {
		leftOut := policy == ThreatsLeftOut
		return leftOut, table.WriteSlim(f, dst, distances, !leftOut)
	}
	if err := table.WriteSlim(f, dst, distances, true); err != nil {
		return false, err
	}
	if err := os.MkdirAll(scratch, 0o755); err != nil {
		return false, err
	}
	alt := filepath.Join(scratch, filepath.Base(dst))
	if err := table.WriteSlim(f, alt, distances, false); err != nil {
		return false, err
	}
	kept, err := os.Stat(dst)
	if err != nil {
		return false, err
	}
	left, err := os.Stat(alt)
	if err != nil {
		return false, err
	}
	if float64(left.Size()) > (1-threatSaving)*float64(kept.Size()) {
		return false, nil // scratch goes when Write ends
	}
	if distances {
		if err := os.Rename(table.DistancePath(alt), table.DistancePath(dst)); err != nil {
			return false, err
		}
	}
	return true, os.Rename(alt, dst)
}

// listing returns what a manifest lists of the file at path: its size,
// its CRC-32C and its header's.
func listing(path string) (size int64, crc, headerCRC uint32, err error) {
	if size, crc, err = codec.FileCRC(path); err != nil {
		return 0, 0, 0, err
	}
	r, err := codec.Open(path)
	if err != nil {
		return 0, 0, 0, err
	}
	defer r.Close()
	return size, crc, r.HeaderCRC(), nil
}

// distanceSize returns the bytes of e's distance file, 0 for none.
func distanceSize(e codec.ManifestEntry) int64 {
	if e.Distances == nil {
		return 0
	}
	return e.Distances.Size
}

// sameDir reports whether a and b name one directory; b need not exist.
func sameDir(a, b string) (bool, error) {
	sa, err := os.Stat(a)
	if err != nil {
		return false, err
	}
	sb, err := os.Stat(b)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	} else if err != nil {
		return false, err
	}
	return os.SameFile(sa, sb), nil
}
