package retro

import (
	"math/bits"

	"github.com/dtb-draughts/dtb/draughts"
	"github.com/dtb-draughts/dtb/table"
)

// maxUnmoves bounds the predecessors of a position in the usual case (six
// kings have at most 6*17); predecessors appends past it if needed.
const maxUnmoves = 128

// kingSteps are the four diagonal steps of a king, as bit rotations; White
// men come from the last two (they move towards row 1).
var kingSteps = [4]int{-6, -5, 5, 6}

func stepBits(x uint64, d int) uint64 { return bits.RotateLeft64(x, d) & draughts.Board }

// predecessors appends to buf the global ids of the positions from which a
// quiet, non-crowning move leads to the position id. Those positions are
// White to move in the other table of the group: id is the colour flip of
// the position after White's move. captures marks the positions with a
// capture, which have no quiet moves.
func (g *group) predecessors(id int64, captures []uint64, buf []int64) []int64 {
	t, _ := g.locate(id)
	p := g.position(id)
	q := p.Flip() // Black to move, after White's move
	q.Side = draughts.White
	o := g.other(t)
	empty := q.Empty()
	for pieces := q.White; pieces != 0; pieces &= pieces - 1 {
		to := pieces & -pieces
		king := q.Kings&to != 0
		steps := kingSteps[:]
		if !king {
			steps = kingSteps[2:]
		}
		for _, d := range steps {
			for from := stepBits(to, d) & empty; from != 0; from = stepBits(from, d) & empty {
				r := q
				r.White = r.White&^to | from
				if king {
					r.Kings = r.Kings&^to | from
				}
				pred := g.offset[o] + g.tables[o].Rank(table.Placement(&r))
				if captures[pred/64]&(1<<(pred%64)) == 0 {
					buf = append(buf, pred)
				}
				if !king {
					break
				}
			}
		}
	}
	return buf
}
