package retro

import (
	"math/bits"

	"github.com/dtb-draughts/dtb/draughts"
	"github.com/dtb-draughts/dtb/table"
)

// maxUnmoves bounds the predecessors of a position in the usual case (six
// kings have at most 6*17); predecessors appends past it if needed.
const maxUnmoves = 128

// White men move towards row 1, so they come from the two squares behind.
var whiteBackward = [2]int{5, 6}

// kingSteps are the four diagonal steps of a king, as bit rotations.
var kingSteps = [4]int{-6, -5, 5, 6}

func stepBits(x uint64, d int) uint64 { return bits.RotateLeft64(x, d) & draughts.Board }

// predecessors appends to buf the global ids of the positions from which a
// quiet, non-crowning move leads to the position id. Those positions are
// White to move in the other table of the group: id is the colour flip of
// the position after White's move.
func (g *group) predecessors(id int64, buf []int64) []int64 {
	t, _ := g.locate(id)
	p := g.position(id)
	q := p.Flip() // Black to move, after White's move
	o := g.other(t)
	empty := q.Empty()
	add := func(from, to uint64) {
		r := q
		r.Side = draughts.White
		r.White = r.White&^from | to
		if q.Kings&from != 0 {
			r.Kings = r.Kings&^from | to
		}
		if !r.HasCapture() {
			buf = append(buf, g.offset[o]+g.tables[o].Rank(table.Placement(&r)))
		}
	}
	for kings := q.White & q.Kings; kings != 0; kings &= kings - 1 {
		k := kings & -kings
		for _, d := range kingSteps {
			for x := stepBits(k, d) & empty; x != 0; x = stepBits(x, d) & empty {
				add(k, x)
			}
		}
	}
	for men := q.White &^ q.Kings; men != 0; men &= men - 1 {
		m := men & -men
		for _, d := range whiteBackward {
			if x := stepBits(m, d) & empty; x != 0 {
				add(m, x)
			}
		}
	}
	return buf
}
