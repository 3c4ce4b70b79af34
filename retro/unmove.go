package retro

import (
	"math/bits"

	"github.com/dtb-draughts/dtb/draughts"
	"github.com/dtb-draughts/dtb/index"
	"github.com/dtb-draughts/dtb/table"
)

// maxUnmoves bounds the predecessors of a position in the usual case (six
// kings have at most 6*17); predecessors appends past it if needed.
const maxUnmoves = 128

// kingSteps are the four diagonal steps of a king, as bit rotations; White
// men come from the last two (they move towards row 1).
var kingSteps = [4]int{-6, -5, 5, 6}

func stepBits(x uint64, d int) uint64 { return bits.RotateLeft64(x, d) & draughts.Board }

// squareBit converts one bitboard bit to its square-set bit.
func squareBit(b uint64) uint64 { return 1 << (draughts.Square(b) - 1) }

// mirror rotates a square set by 180 degrees: square s goes to 51-s.
func mirror(set uint64) uint64 { return bits.Reverse64(set) >> 14 }

// predecessors appends to buf the global ids of the positions from which a
// quiet, non-crowning move leads to the position id. Those positions are
// White to move in the other table of the group: id is the colour flip of
// the position after White's move (q below). captures marks the positions
// with a capture, which have no quiet moves.
func (g *group) predecessors(id int64, captures []uint64, buf []int64) []int64 {
	t, i := g.locate(id)
	pl := g.tables[t].Unrank(i)
	q := index.Placement{ // the flip of pl: White has just moved
		WhiteMen: mirror(pl.BlackMen), WhiteKings: mirror(pl.BlackKings),
		BlackMen: mirror(pl.WhiteMen), BlackKings: mirror(pl.WhiteKings),
	}
	qb := table.Position(q)
	empty := qb.Empty()
	o := g.other(t)
	x, off := g.tables[o], g.offset[o]
	men := x.RankMen(q.WhiteMen, q.BlackMen) * x.KingPlacements()
	for kings := qb.White & qb.Kings; kings != 0; kings &= kings - 1 {
		to := kings & -kings
		for _, d := range kingSteps {
			for from := stepBits(to, d) & empty; from != 0; from = stepBits(from, d) & empty {
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
		for _, d := range kingSteps[2:] {
			if from := stepBits(to, d) & empty; from != 0 {
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
