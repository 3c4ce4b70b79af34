package retro

import (
	"context"
	"fmt"
	"math/bits"
	"slices"

	"github.com/dtb-draughts/dtb/draughts"
	"github.com/dtb-draughts/dtb/index"
	"github.com/dtb-draughts/dtb/parallel"
	"github.com/dtb-draughts/dtb/table"
)

// A unit is the part of a group that the solver holds at once: some men
// configurations, each with every placement of the kings, in both tables
// of the group.
//
// A block is the positions of one table of the group that share one men
// configuration (contiguous in the table: the index is men-major), so a
// king move leads from a block to the block of the other table with the
// same men turned by 180 degrees and the colours swapped: its pair. A unit
// holds whole pairs of blocks, so every king move stays inside it. A man
// move advances a man by one row, so it leads to a block of the next level
// (the total advancement of the men, which a colour flip keeps): units are
// solved from the highest level down, and the units of one level read the
// finished units of the level above. Captures and crownings lead to other
// groups, solved before. So inside a unit only king moves are iterated;
// every other move is an external successor whose value is known.
//
// A unit's local ids number its blocks' positions block by block: id
// j*k+i is position i (in king order) of blocks[j].
type unit struct {
	g      *group
	name   string // GROUP.lLEVEL.N, a safe file name: KKMvKM.l3.0
	level  int
	k      int64 // positions per block: the king placements of the material
	blocks []block
}

// block is the positions of table t of the group with men configuration
// r (of the table's index).
type block struct {
	t    int
	r    int64
	pair int // the block of the unit king moves lead to
}

func (u *unit) size() int64 { return int64(len(u.blocks)) * u.k }

// advancement[c][s-1] is how far a man of colour c on square s has
// advanced from its own back row, in rows.
var advancement = func() (a [2][50]int) {
	for sq := 1; sq <= 50; sq++ {
		row, _ := draughts.RowCol(sq)
		a[draughts.White][sq-1], a[draughts.Black][sq-1] = 9-row, row
	}
	return a
}()

// level returns the total advancement of the men of a configuration.
func level(whiteMen, blackMen uint64) int {
	n := 0
	for c, set := range [2]uint64{whiteMen, blackMen} {
		for ; set != 0; set &= set - 1 {
			n += advancement[c][bits.TrailingZeros64(set)]
		}
	}
	return n
}

// units splits the group into units of at most maxPositions positions
// (but at least one pair of blocks each), highest level first; units of
// one level are consecutive and in the order of their first block.
func (g *group) units(maxPositions int64) []*unit {
	x := g.tables[0]
	k := x.KingPlacements()
	type pair struct{ a, b block }
	byLevel := map[int][]pair{}
	for r := range x.MenConfigs() {
		wm, bm := x.UnrankMen(r)
		flip := table.FlipPlacement(index.Placement{WhiteMen: wm, BlackMen: bm})
		o := g.other(0)
		r2 := g.tables[o].RankMen(flip.WhiteMen, flip.BlackMen)
		if o == 0 && r2 < r {
			continue // the pair was taken at r2
		}
		l := level(wm, bm)
		byLevel[l] = append(byLevel[l], pair{block{t: 0, r: r}, block{t: o, r: r2}})
	}
	levels := slices.Sorted(func(yield func(int) bool) {
		for l := range byLevel {
			if !yield(l) {
				return
			}
		}
	})
	slices.Reverse(levels)
	var us []*unit
	for _, l := range levels {
		n := 0
		var u *unit
		for _, p := range byLevel[l] {
			if u == nil || u.size() > 0 && u.size()+2*k > maxPositions {
				u = &unit{g: g, name: fmt.Sprintf("%s.l%d.%d", x.Material(), l, n), level: l, k: k}
				us = append(us, u)
				n++
			}
			j := len(u.blocks)
			if p.a == p.b { // a symmetric configuration: its own pair
				u.blocks = append(u.blocks, block{t: p.a.t, r: p.a.r, pair: j})
				continue
			}
			u.blocks = append(u.blocks, block{t: p.a.t, r: p.a.r, pair: j + 1}, block{t: p.b.t, r: p.b.r, pair: j})
		}
	}
	return us
}

// position returns the placement of local id.
func (u *unit) placement(id int64) (t int, i int64) {
	b := u.blocks[id/u.k]
	return b.t, b.r*u.k + id%u.k
}

// walk calls f for every position of the unit, on up to threads
// goroutines, with a move buffer of the goroutine's own.
func (u *unit) walk(ctx context.Context, threads int, f func(id int64, p draughts.Position, buf []draughts.Move) error) error {
	return parallel.Range(ctx, u.size(), threads, func(lo, hi int64) error {
		var buf [draughts.MaxMoves]draughts.Move
		for lo < hi {
			t, i := u.placement(lo)
			x := u.g.tables[t]
			pl := x.Unrank(i)
			for end := min(hi, (lo/u.k+1)*u.k); lo < end; lo++ {
				if err := f(lo, table.Position(pl), buf[:0]); err != nil {
					return err
				}
				pl, _ = x.Next(pl)
			}
		}
		return nil
	})
}

// internal reports whether the move m of p stays in the unit: a quiet
// king move.
func internal(p *draughts.Position, m draughts.Move) bool {
	return !m.IsCapture() && p.Kings&(1<<m.From) != 0
}

// maxUnmoves bounds the predecessors of a position in the usual case (six
// kings have at most 6*17); predecessors appends past it if needed.
const maxUnmoves = 128

// squareBit converts one bitboard bit to its square-set bit.
func squareBit(b uint64) uint64 { return 1 << (draughts.Square(b) - 1) }

// predecessors appends to buf the local ids of the positions from which a
// quiet king move leads to the position id. Those positions are White to
// move in the pair of id's block: id is the colour flip of the position
// after White's move (q below). captures marks the positions with a
// capture, which have no quiet moves.
func (u *unit) predecessors(id int64, captures []uint64, buf []int64) []int64 {
	j := id / u.k
	b := u.blocks[j]
	q := table.FlipPlacement(u.g.tables[b.t].Unrank(b.r*u.k + id%u.k)) // White has just moved
	qb := table.Position(q)
	empty := qb.Empty()
	x, base := u.g.tables[u.blocks[b.pair].t], int64(b.pair)*u.k
	for kings := qb.White & qb.Kings; kings != 0; kings &= kings - 1 {
		to := kings & -kings
		for _, d := range draughts.Directions {
			for from := draughts.Step(to, d) & empty; from != 0; from = draughts.Step(from, d) & empty {
				r := q
				r.WhiteKings = r.WhiteKings&^squareBit(to) | squareBit(from)
				if pred := base + x.RankKings(r); captures[pred/64]&(1<<(pred%64)) == 0 {
					buf = append(buf, pred)
				}
			}
		}
	}
	return buf
}
