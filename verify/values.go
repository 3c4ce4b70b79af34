package verify

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/dtb-draughts/dtb/draughts"
	"github.com/dtb-draughts/dtb/index"
	"github.com/dtb-draughts/dtb/parallel"
	"github.com/dtb-draughts/dtb/probe"
	"github.com/dtb-draughts/dtb/table"
)

// memTable is a table decoded into memory, its capture positions resolved.
// A table of kings alone holds an entry per orbit of its placements
// under the board's symmetries (index.Orbits), that of the orbit's
// representative: symmetric positions have the same entry (see
// index.Canonical), so the others are read from the file as they are
// checked (checkValues). Another holds an entry per position.
type memTable struct {
	m      index.Material
	x      *index.Index
	orbits *index.Orbits // nil for a material with men
	path   string        // the file, "" for a table answered by a search
	class  table.Class
	cols   table.Columns // an entry per slot (see slot)
	// captures has bit n%64 of word n/64 set for the capture positions of
	// slot n.
	captures []uint64
	header   table.Stats // from the file header, without example positions
	stats    table.Stats // counted from the entries, likewise
}

// newMemTable returns a table of m of class c, its columns those of l,
// zeroed.
func newMemTable(m index.Material, c table.Class, l table.Layout, threads int) *memTable {
	t := &memTable{m: m, x: index.New(m), class: c}
	n := t.x.Size()
	if m.Men() == 0 {
		t.orbits = index.NewOrbits(t.x, threads)
		n = t.orbits.Len()
	}
	t.cols, t.captures = l.MakeColumns(n), make([]uint64, (n+63)/64)
	return t
}

// slot returns the slot of t that holds the entry of placement p,
// position i (its orbit, or i for a material with men), and whether it
// holds p's own: whether p is its orbit's representative.
func (t *memTable) slot(p index.Placement, i int64) (n int64, held bool) {
	switch {
	case t.orbits == nil:
		return i, true
	case t.orbits.IsRepresentative(i):
		return t.orbits.RankRepresentative(i), true
	}
	n, _ = t.orbits.Rank(p)
	return n, false
}

// positions returns the number of positions the slot that holds p's
// entry stands for: the size of p's orbit, or 1.
func (t *memTable) positions(p index.Placement) int {
	if t.orbits == nil {
		return 1
	}
	_, stab := index.Canonical(p)
	return 4 / stab
}

// placementSlot returns the slot of placement p.
func (t *memTable) placementSlot(p index.Placement) int64 {
	if t.orbits != nil {
		n, _ := t.orbits.Rank(p)
		return n
	}
	return t.x.Rank(p)
}

// capture reports whether slot n holds capture positions.
func (t *memTable) capture(n int64) bool { return t.captures[n/64]>>(n%64)&1 != 0 }

// entry returns the entry of slot n.
func (t *memTable) entry(n int64) table.Entry {
	e, _ := t.cols.Entry(n)
	return e
}

// add records e, the entry of slot n, which holds p's, a capture
// position if capture, in t and in s, which counts it as the positions
// the slot stands for.
func (t *memTable) add(s *table.Stats, n int64, p index.Placement, e table.Entry, capture bool) {
	t.cols.Set(n, e)
	if capture {
		atomic.OrUint64(&t.captures[n/64], 1<<(n%64)) // orbits of two chunks may share a word
	}
	for range t.positions(p) {
		s.Add(t.class, e, capture, nil)
	}
}

// load decodes the table of m at path, block by block, resolves its
// capture positions with the prober, and the forced threats and short
// rule-2 distances of a slim directory's table (table.Info.Threats,
// Short), and counts its stats.
func (v *verifier) load(ctx context.Context, path string, m index.Material) (*memTable, error) {
	f, err := table.Open(path, m)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	t := newMemTable(m, f.Class, f.Layout, v.o.Threads)
	t.path, t.header = path, f.Stats
	t.header.LongestDistanceFEN, t.header.LongestDTWFEN, t.header.LongestMTCFEN = "", "", ""
	for _, n := range captureTables(m) { // so that resolving t's capture positions reads memory only
		if _, ok := v.entries[n]; ok || v.searched[n] != (index.Material{}) {
			if err := v.pt.Preload(n); err != nil {
				return nil, err
			}
		}
	}
	var mu sync.Mutex
	err = v.blocks(ctx, f, t.x, func(lo int64, cols *table.Columns) error {
		var s table.Stats
		err := t.walk(lo, lo+cols.Len(), false, func(i int64, pl index.Placement, n int64, _ bool) error {
			e, capture, err := v.stored(f, cols, i-lo, i, table.Position(pl))
			if err == nil {
				t.add(&s, n, pl, e, capture)
			}
			return err
		})
		mu.Lock()
		t.stats.Merge(s)
		mu.Unlock()
		return err
	})
	if err != nil {
		return nil, err
	}
	return t, nil
}

// blocks calls f, on up to Options.Threads goroutines, with each block of
// the table file f, of index x, decoded, and the index of its first entry.
func (v *verifier) blocks(ctx context.Context, f *table.File, x *index.Index, do func(lo int64, cols *table.Columns) error) error {
	size := int64(f.Header().BlockSize)
	return parallel.Chunks(ctx, x.Size(), size, v.o.Threads, func(lo, hi int64) error {
		cols, err := f.ReadBlock(int(lo / size))
		if err != nil {
			return err
		}
		return do(lo, &cols)
	})
}

// walk calls f with the positions i of t from lo to hi, their placements
// and slots (see slot), and stops at its first error; it leaves out the
// positions whose entries their slots do not hold unless all.
func (t *memTable) walk(lo, hi int64, all bool, f func(i int64, pl index.Placement, n int64, held bool) error) error {
	pl := t.x.Unrank(lo)
	for i := lo; i < hi; i++ {
		if i > lo {
			pl, _ = t.x.Next(pl)
		}
		if !all && t.orbits != nil && !t.orbits.IsRepresentative(i) {
			continue
		}
		n, held := t.slot(pl, i)
		if err := f(i, pl, n, held); err != nil {
			return err
		}
	}
	return nil
}

// stored returns the entry of position p, entry j of cols and i of the
// table file f, as the table means it, and whether p is a capture
// position: the entries of capture positions, and of the forced threats
// and short rule-2 distances of a slim directory's table, are the
// prober's.
func (v *verifier) stored(f *table.File, cols *table.Columns, j, i int64, p draughts.Position) (e table.Entry, capture bool, err error) {
	capture = p.HasCapture()
	if theory, _ := cols.Values(j); capture || f.Threats && table.ForcedThreat(&p) || f.Short && theory != table.Draw {
		r, err := v.pt.Probe(p, probe.Clocks{}, probe.WithDistances)
		if err != nil {
			return e, capture, fmt.Errorf("position %s of %s: %w", p.FEN(), f.Path(), err)
		}
		return r.Entry, capture, nil
	}
	e, ok := cols.Entry(j)
	if !ok {
		return e, capture, fmt.Errorf("%s: entry %d (%s): bad value byte %#x", f.Path(), i, p.FEN(), cols[table.ValueColumn][j])
	}
	return e, capture, nil
}

// loadSearched returns the table of m of a slim directory, answered by a
// search through its colour flip: every position searched (probe's
// Preload), its stats counted from the entries, as its header's.
func (v *verifier) loadSearched(ctx context.Context, m index.Material) (*memTable, error) {
	if err := v.pt.Preload(m); err != nil {
		return nil, err
	}
	h, err := v.pt.Header(v.searched[m]) // its layout: the table it is searched through has the same
	if err != nil {
		return nil, err
	}
	class, err := v.pt.Class(m)
	if err != nil {
		return nil, err
	}
	extra := table.Extra{DTW: table.HasColumn(h, table.DTWColumn), MTC: table.HasColumn(h, table.MTCColumn)}
	t := newMemTable(m, class, table.NewLayout(m, extra), v.o.Threads)
	var mu sync.Mutex
	err = parallel.Range(ctx, t.x.Size(), v.o.Threads, func(lo, hi int64) error {
		var s table.Stats
		err := t.walk(lo, hi, false, func(_ int64, pl index.Placement, n int64, _ bool) error {
			p := table.Position(pl)
			r, err := v.pt.Probe(p, probe.Clocks{}, probe.WithDistances)
			if err == nil {
				t.add(&s, n, pl, r.Entry, p.HasCapture())
			}
			return err
		})
		mu.Lock()
		t.stats.Merge(s)
		mu.Unlock()
		return err
	})
	t.header = t.stats
	return t, err
}

// captureTables returns the tables that the captures from m's positions
// lead to: Black keeps some of its pieces, a White man may be crowned,
// and Black is to move (so the tables are colour flips).
func captureTables(m index.Material) []index.Material {
	var ms []index.Material
	for crowned := range min(m.WhiteMen, 1) + 1 {
		for bm := range m.BlackMen + 1 {
			for bk := range m.BlackKings + 1 {
				if bm+bk > 0 && bm+bk < m.BlackMen+m.BlackKings {
					ms = append(ms, index.Material{WhiteMen: m.WhiteMen - crowned, WhiteKings: m.WhiteKings + crowned,
						BlackMen: bm, BlackKings: bk}.Flip())
				}
			}
		}
	}
	return ms
}

// statsDiff lists the fields, by JSON name, in which the stats of a file
// header differ from those counted from its entries.
func statsDiff(header, counted table.Stats) string {
	h, c := jsonFields(header), jsonFields(counted)
	keys := slices.Collect(maps.Keys(h))
	for k := range c {
		if _, ok := h[k]; !ok {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	var diffs []string
	for _, k := range keys {
		if h[k] != c[k] { // a field left out is zero
			diffs = append(diffs, fmt.Sprintf("%s %s, counted %s", k, cmp.Or(h[k], "0"), cmp.Or(c[k], "0")))
		}
	}
	return strings.Join(diffs, "; ")
}

// jsonFields returns the fields of s as JSON, by name.
func jsonFields(s table.Stats) map[string]string {
	b, _ := json.Marshal(s) // numbers and strings: cannot fail
	var raw map[string]json.RawMessage
	json.Unmarshal(b, &raw)
	m := map[string]string{}
	for k, v := range raw {
		m[k] = string(v)
	}
	return m
}

// checker recomputes the entries of one table's stored positions.
type checker struct {
	class table.Class
	succ  []*memTable // the tables quiet moves lead to: the colour flip, then the crowned material's
	dtw   bool        // recompute dtw too
	mtc   bool        // recompute mtc too (the colour flip has it)
}

// recompute returns the entry of the stored position with placement pl
// (White to move) and (quiet) moves from its successors' entries. A
// successor, Black to move, is held in its table as its colour flip (see
// table.Placement): the board turned by 180 degrees (square s becomes
// 51-s), Black's pieces made White's and the other way round. So the
// successors' placements are pl's flip with the moving piece changed.
func (c *checker) recompute(pl index.Placement, moves []draughts.Move) table.Entry {
	flip := table.FlipPlacement(pl)
	flipped := c.succ[0]
	men := flipped.x.RankMen(flip.WhiteMen, flip.BlackMen) * flipped.x.KingPlacements() // what king moves leave alone
	ms := table.NewMoves(c.class)
	var om index.OrbitMove // of the king moved last, in a table of kings alone
	moved := 0
	for _, mv := range moves {
		from, to := mv.FromSquare(), mv.ToSquare()
		mfrom, mto := uint64(1)<<(50-from), uint64(1)<<(50-to) // square 51-s in a square set
		q, s := flip, flipped
		var i int64
		king := pl.WhiteKings>>(from-1)&1 != 0
		switch {
		case king && s.orbits != nil:
			if from != moved { // a king's moves come one after the other
				om, moved = s.orbits.MoveBlackKing(q, mfrom), from
			}
			i, _ = om.RankTo(mto)
		case king:
			q.BlackKings ^= mfrom | mto
			i = men + s.x.RankKings(q)
		case draughts.Bit(to)&draughts.WhiteCrown != 0:
			q.BlackMen ^= mfrom
			q.BlackKings |= mto
			s = c.succ[1]
			i = s.placementSlot(q)
		default:
			q.BlackMen ^= mfrom | mto
			i = s.placementSlot(q)
		}
		e := s.entry(i)
		if king { // the clocks run on
			ms.AddKingMove(e)
		} else {
			ms.AddConversion(e.TheoryOutcome(), e.RulesOutcome(c.class, s.class))
		}
	}
	r := ms.Entry()
	if !c.dtw {
		r.DTW = -1
	}
	if !c.mtc {
		r.MTC = -1
	}
	return r
}

// checkValues recomputes the entry of every stored position of own
// that its slot holds, and checks that each other position holds its
// slot's (a symmetric position's), reading own's file; it tallies the
// mismatches in r.
func (v *verifier) checkValues(ctx context.Context, own *memTable, c *checker, r *Report) error {
	f, err := table.Open(own.path, own.m)
	if err != nil {
		return err
	}
	defer f.Close()
	return v.blocks(ctx, f, own.x, func(lo int64, cols *table.Columns) error {
		var buf [draughts.MaxMoves]draughts.Move
		var checked, found int64
		var ms []Mismatch
		hi := lo + cols.Len()
		err := own.walk(lo, hi, true, func(i int64, pl index.Placement, n int64, held bool) error {
			if own.capture(n) {
				return nil
			}
			p := table.Position(pl)
			checked++
			got, want := own.entry(n), table.Entry{}
			if held {
				want = c.recompute(pl, p.Moves(buf[:0]))
				if !c.dtw {
					want.DTW = got.DTW
				}
				if !c.mtc {
					want.MTC = got.MTC
				}
			} else {
				var err error
				if got, _, err = v.stored(f, cols, i-lo, i, p); err != nil {
					return err
				}
				want = own.entry(n)
			}
			if got != want {
				if found++; len(ms) < v.o.Examples {
					ms = append(ms, Mismatch{Index: i, Position: p, Stored: got, Recomputed: want})
				}
			}
			return nil
		})
		v.positionsDone.Add(hi - lo)
		v.tally(r, checked, found, ms)
		return err
	})
}
