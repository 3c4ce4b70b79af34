package retro

import (
	"github.com/dtb-draughts/dtb/draughts"
	"github.com/dtb-draughts/dtb/table"
)

// maxUnmoves bounds the predecessors of a position in the usual case (six
// kings have at most 6*17); predecessors appends past it if needed.
const maxUnmoves = 128

// squareBit converts one bitboard bit to its square-set bit.
func squareBit(b uint64) uint64 { return 1 << (draughts.Square(b) - 1) }

// predecessors appends to buf the global ids of the positions from which a
// quiet, non-crowning move leads to the position id. Those positions are
// White to move in the other table of the group: id is the colour flip of
// the position after White's move (q below). captures marks the positions
// with a capture, which have no quiet moves.
func (g *group) predecessors(id int64, captures []uint64, buf []int64) []int64 {
	t, i := g.locate(id)
	pl := g.tables[t].Unrank(i)
	q := table.FlipPlacement(pl) // White has just moved
	qb := table.Position(q)
	empty := qb.Empty()
	o := g.other(t)
	x, off := g.tables[o], g.offset[o]
	men := x.RankMen(q.WhiteMen, q.BlackMen) * x.KingPlacements()
	for kings := qb.White & qb.Kings; kings != 0; kings &= kings - 1 {
		to := kings & -kings
		for _, d := range draughts.Directions {
			for from := draughts.Step(to, d) & empty; from != 0; from = draughts.Step(from, d) & empty {
				r := q
				r.WhiteKings = r.WhiteKings&^squareBit(to) | squareBit(from)
				if pred := off + men + x.RankKings(r); captures[pred/64]&(1<<(pred%64)) == 0 {
					buf = append(buf, pred)
				}
			}
		}
	}
	for pieces := qb.White &^ qb.Kings; pieces != 0; pieces &= pieces - 1 {
		to := pieces & -pieces
		for _, d := range draughts.Directions[2:] { // White men move towards row 1: they come from rows nearer 10
			if from := draughts.Step(to, d) & empty; from != 0 {
				r := q
				r.WhiteMen = r.WhiteMen&^squareBit(to) | squareBit(from)
				if pred := off + x.Rank(r); captures[pred/64]&(1<<(pred%64)) == 0 {
					buf = append(buf, pred)
				}
			}
		}
	}
	return buf
}
