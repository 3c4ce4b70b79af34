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

	"github.com/dtb-draughts/dtb/draughts"
	"github.com/dtb-draughts/dtb/index"
	"github.com/dtb-draughts/dtb/parallel"
	"github.com/dtb-draughts/dtb/probe"
	"github.com/dtb-draughts/dtb/table"
)

// memTable is a table decoded into memory, its capture positions resolved.
type memTable struct {
	m     index.Material
	x     *index.Index
	class table.Class
	cols  table.Columns
	// captures has bit i%64 of word i/64 set for a capture position i.
	captures []uint64
	header   table.Stats // from the file header, without example positions
	stats    table.Stats // counted from the entries, likewise
}

// capture reports whether position i is a capture position.
func (t *memTable) capture(i int64) bool { return t.captures[i/64]>>(i%64)&1 != 0 }

// entry returns the entry of position i.
func (t *memTable) entry(i int64) table.Entry {
	e, _ := t.cols.Entry(i)
	return e
}

// load decodes the table of m at path, resolves its capture positions
// with the prober, and the forced threats and short rule-2 distances of
// a slim directory's table (table.Info.Threats, Short), and counts its
// stats.
func (v *verifier) load(ctx context.Context, path string, m index.Material) (*memTable, error) {
	f, err := table.Open(path, m)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	t := &memTable{m: m, x: index.New(m), class: f.Class, header: f.Stats}
	t.header.LongestDistanceFEN, t.header.LongestDTWFEN, t.header.LongestMTCFEN = "", "", ""
	if t.cols, err = f.ReadColumns(); err != nil {
		return nil, err
	}
	for _, n := range captureTables(m) { // so that resolving t's capture positions reads memory only
		if _, ok := v.entries[n]; ok || v.searched[n] != (index.Material{}) {
			if err := v.pt.Preload(n); err != nil {
				return nil, err
			}
		}
	}
	t.captures = make([]uint64, (t.x.Size()+63)/64)
	var mu sync.Mutex
	err = parallel.Range(ctx, t.x.Size(), v.o.Threads, func(lo, hi int64) error {
		var s table.Stats
		pl := t.x.Unrank(lo)
		for i := lo; i < hi; i++ {
			if i > lo {
				pl, _ = t.x.Next(pl)
			}
			p := table.Position(pl)
			capture := p.HasCapture()
			if theory, _ := t.cols.Values(i); capture || f.Threats && table.ForcedThreat(&p) || f.Short && theory != table.Draw {
				r, err := v.pt.Probe(p, probe.Clocks{}, probe.WithDistances)
				if err != nil {
					return fmt.Errorf("position %s of %s: %w", p.FEN(), path, err)
				}
				t.cols.Set(i, r.Entry)
			}
			if capture {
				t.captures[i/64] |= 1 << (i % 64) // a chunk holds whole words
			}
			e, ok := t.cols.Entry(i)
			if !ok {
				return fmt.Errorf("%s: entry %d (%s): bad value byte %#x", path, i, p.FEN(), t.cols[table.ValueColumn][i])
			}
			s.Add(t.class, e, capture, nil)
		}
		mu.Lock()
		t.stats.Merge(s)
		mu.Unlock()
		return nil
	})
	if err != nil {
		return nil, err
	}
	return t, nil
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
	x := index.New(m)
	class, err := v.pt.Class(m)
	if err != nil {
		return nil, err
	}
	extra := table.Extra{DTW: table.HasColumn(h, table.DTWColumn), MTC: table.HasColumn(h, table.MTCColumn)}
	t := &memTable{m: m, x: x, class: class, cols: table.MakeColumns(m, x.Size(), extra), captures: make([]uint64, (x.Size()+63)/64)}
	var mu sync.Mutex
	err = parallel.Range(ctx, x.Size(), v.o.Threads, func(lo, hi int64) error {
		var s table.Stats
		pl := x.Unrank(lo)
		for i := lo; i < hi; i++ {
			if i > lo {
				pl, _ = x.Next(pl)
			}
			p := table.Position(pl)
			r, err := v.pt.Probe(p, probe.Clocks{}, probe.WithDistances)
			if err != nil {
				return err
			}
			t.cols.Set(i, r.Entry)
			capture := p.HasCapture()
			if capture {
				t.captures[i/64] |= 1 << (i % 64)
			}
			s.Add(class, r.Entry, capture, nil)
		}
		mu.Lock()
		t.stats.Merge(s)
		mu.Unlock()
		return nil
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
	for _, mv := range moves {
		from, to := mv.FromSquare(), mv.ToSquare()
		mfrom, mto := uint64(1)<<(50-from), uint64(1)<<(50-to) // square 51-s in a square set
		q, s := flip, flipped
		var i int64
		king := pl.WhiteKings>>(from-1)&1 != 0
		switch {
		case king:
			q.BlackKings ^= mfrom | mto
			i = men + s.x.RankKings(q)
		case draughts.Bit(to)&draughts.WhiteCrown != 0:
			q.BlackMen ^= mfrom
			q.BlackKings |= mto
			s = c.succ[1]
			i = s.x.Rank(q)
		default:
			q.BlackMen ^= mfrom | mto
			i = s.x.Rank(q)
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

// checkValues recomputes every stored position of own and tallies the
// mismatches in r.
func (v *verifier) checkValues(ctx context.Context, own *memTable, c *checker, r *Report) error {
	return parallel.Range(ctx, own.x.Size(), v.o.Threads, func(lo, hi int64) error {
		var buf [draughts.MaxMoves]draughts.Move
		var checked, found int64
		var ms []Mismatch
		pl := own.x.Unrank(lo)
		for i := lo; i < hi; i++ {
			if i > lo {
				pl, _ = own.x.Next(pl)
			}
			if own.capture(i) {
				continue
			}
			p := table.Position(pl)
			checked++
			got, want := own.entry(i), c.recompute(pl, p.Moves(buf[:0]))
			if !c.dtw {
				want.DTW = got.DTW
			}
			if !c.mtc {
				want.MTC = got.MTC
			}
			if got != want {
				if found++; len(ms) < v.o.Examples {
					ms = append(ms, Mismatch{Index: i, Position: p, Stored: got, Recomputed: want})
				}
			}
		}
		v.positionsDone.Add(hi - lo)
		v.tally(r, checked, found, ms)
		return nil
	})
}
