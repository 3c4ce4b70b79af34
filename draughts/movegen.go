package draughts

import (
	"math/bits"
	"slices"
)

// MaxMoves is a buffer size for Moves that no position reached in play has
// been found to exceed; Moves still appends past it if needed.
const MaxMoves = 128

// Move is a legal move: the bit indices of its from and to squares and the
// bitboard of the pieces it captures. Capture sequences with the same from
// square, to square and captured set are one Move.
type Move struct {
	From, To uint8
	Captured uint64
}

// FromSquare returns the square number the move starts on.
func (m Move) FromSquare() int { return int(squareOf[m.From]) }

// ToSquare returns the square number the move ends on.
func (m Move) ToSquare() int { return int(squareOf[m.To]) }

// IsCapture reports whether the move captures.
func (m Move) IsCapture() bool { return m.Captured != 0 }

// forward returns the two forward Directions of side c's men.
func forward(c Color) [2]int {
	if c == White {
		return [2]int{-6, -5}
	}
	return [2]int{5, 6}
}

// Moves appends the legal moves of the side to move to buf[:0] and returns
// it. When captures are possible only the captures of the most pieces are
// returned. It allocates nothing when buf has room for the moves.
func (p *Position) Moves(buf []Move) []Move {
	if buf = p.Captures(buf); len(buf) > 0 {
		return buf
	}
	own, _, empty := p.sides()
	buf = p.appendManMoves(buf, own&^p.Kings, empty)
	for kings := own & p.Kings; kings != 0; kings &= kings - 1 {
		k := kings & -kings
		from := uint8(bits.TrailingZeros64(k))
		for _, d := range Directions {
			for t := Step(k, d) & empty; t != 0; t = Step(t, d) & empty {
				buf = append(buf, Move{From: from, To: uint8(bits.TrailingZeros64(t))})
			}
		}
	}
	return buf
}

// Captures appends to buf[:0] the captures of the side to move that take
// the most pieces and returns them: its legal moves where it must
// capture, none where it has no capture (see HasCapture). It allocates
// nothing when buf has room for them.
func (p *Position) Captures(buf []Move) []Move {
	buf = buf[:0]
	own, opp, empty := p.sides()
	if !p.canCapture(own, opp, empty) {
		return buf
	}
	var c capturer
	c.search(p, own, opp)
	return append(append(buf, c.found[:c.n]...), c.more...)
}

// appendManMoves appends the quiet moves of the men to buf.
func (p *Position) appendManMoves(buf []Move, men, empty uint64) []Move {
	for _, d := range forward(p.Side) {
		for to := Step(men, d) & empty; to != 0; to &= to - 1 {
			t := bits.TrailingZeros64(to)
			buf = append(buf, Move{From: uint8(t - d), To: uint8(t)})
		}
	}
	return buf
}

// kingMoveCount returns the number of quiet moves of kings.
func kingMoveCount(kings, empty uint64) int {
	n := 0
	for _, d := range Directions {
		// The rays of kings in one direction never share a square: a
		// king behind another on a diagonal stops at it.
		for t := Step(kings, d) & empty; t != 0; t = Step(t, d) & empty {
			n += bits.OnesCount64(t)
		}
	}
	return n
}

// CountMoves returns len(p.Moves(...)) without listing quiet moves.
func (p *Position) CountMoves() int {
	own, opp, empty := p.sides()
	if p.canCapture(own, opp, empty) {
		var c capturer
		c.search(p, own, opp)
		return c.n + len(c.more)
	}
	men := own &^ p.Kings
	n := 0
	for _, d := range forward(p.Side) {
		n += bits.OnesCount64(Step(men, d) & empty)
	}
	return n + kingMoveCount(own&p.Kings, empty)
}

// ManMoves appends to buf[:0] the quiet moves of the men of the side to
// move and returns them: its men's legal moves where it has no capture
// (see HasCapture). It allocates nothing when buf has room for them.
func (p *Position) ManMoves(buf []Move) []Move {
	own, _, empty := p.sides()
	return p.appendManMoves(buf[:0], own&^p.Kings, empty)
}

// KingMoves returns the number of the quiet moves of the kings of the
// side to move: its kings' legal moves where it has no capture (see
// HasCapture).
func (p *Position) KingMoves() int {
	own, _, empty := p.sides()
	return kingMoveCount(own&p.Kings, empty)
}

// HasCapture reports whether the side to move must capture.
func (p *Position) HasCapture() bool {
	return p.canCapture(p.sides())
}

// sides returns the pieces of the side to move, its opponent's, and the
// free squares.
func (p *Position) sides() (own, opp, empty uint64) {
	own, opp = p.White, p.Black
	if p.Side == Black {
		own, opp = opp, own
	}
	return own, opp, Board &^ (own | opp)
}

// canCapture reports whether any piece of own can capture a piece of opp.
// It tests the four directions at once, without a branch to mispredict:
// the pieces of opp that have a free square behind them in direction d
// (targets) are captured by a man next to them, or by a king whose ray
// in direction d meets one first.
func (p *Position) canCapture(own, opp, empty uint64) bool {
	tm6, tm5 := opp&Step(empty, 6), opp&Step(empty, 5) // behind them in directions -6 and -5
	t5, t6 := opp&Step(empty, -5), opp&Step(empty, -6)
	men := own &^ p.Kings
	if Step(men, -6)&tm6|Step(men, -5)&tm5|Step(men, 5)&t5|Step(men, 6)&t6 != 0 {
		return true
	}
	occupied := ^empty
	for kings := own & p.Kings; kings != 0; kings &= kings - 1 {
		r := &rays[bits.TrailingZeros64(kings)]
		if highest(r[0]&occupied)&tm6|highest(r[1]&occupied)&tm5|lowest(r[2]&occupied)&t5|lowest(r[3]&occupied)&t6 != 0 {
			return true
		}
	}
	return false
}

// lowest returns the lowest bit of x, 0 if there is none: the nearest
// square of x in a positive direction.
func lowest(x uint64) uint64 { return x & -x }

// highest returns the highest bit of x, 0 if there is none: the nearest
// square of x in a negative direction.
func highest(x uint64) uint64 { return 1 << uint(63-bits.LeadingZeros64(x)) }

// capturer holds the state of the capture search of one position. The
// captures found are kept in found (and, in the unheard-of case that it
// fills up, in more) so that the caller's buffer does not escape.
type capturer struct {
	opp   uint64 // opposing pieces, captured ones included
	empty uint64 // free squares; the moving piece's origin is free
	from  uint8
	best  int // most pieces captured so far
	n     int // captures in found
	found [32]Move
	more  []Move
}

// search finds the maximal captures of the pieces own in p.
func (c *capturer) search(p *Position, own, opp uint64) {
	c.opp = opp
	empty := Board &^ (own | opp)
	// Only kings and the men next to a capturable piece can start a capture.
	starts := own & p.Kings
	for _, d := range Directions {
		starts |= own & Step(opp&Step(empty, -d), -d)
	}
	for ; starts != 0; starts &= starts - 1 {
		x := starts & -starts
		c.from = uint8(bits.TrailingZeros64(x))
		c.empty = empty | x
		if p.Kings&x != 0 {
			c.king(x, 0, 0, -1)
		} else {
			c.man(x, 0, 0)
		}
	}
}

// man continues a capture by a man standing on at, having captured taken
// (n pieces).
func (c *capturer) man(at, taken uint64, n int) {
	more := false
	for _, d := range Directions {
		over := Step(at, d) & c.opp &^ taken
		if over == 0 {
			continue
		}
		if to := Step(over, d) & c.empty; to != 0 {
			more = true
			c.man(to, taken|over, n+1)
		}
	}
	if !more {
		c.record(at, taken, n)
	}
}

// king continues a capture by a king standing on at, having arrived
// along direction Directions[arrived] (-1 at the start). Along each ray the
// first piece is the one it may jump (the pieces it took stay on the
// board until the capture ends, and block it), and it may land on any
// free square beyond, up to the next piece; the squares are tried nearest
// first. The ray back, whose first piece is the one just taken, is not
// tried.
func (c *capturer) king(at, taken uint64, n, arrived int) {
	more := false
	a := bits.TrailingZeros64(at)
	for k, d := range Directions {
		if k == 3-arrived { // Directions[3-k] is -Directions[k]
			continue
		}
		blockers := rays[a][k] &^ c.empty
		if blockers == 0 {
			continue
		}
		x := nearest(blockers, d)
		if x&c.opp&^taken == 0 {
			continue
		}
		beyond := rays[bits.TrailingZeros64(x)][k]
		land := beyond & c.empty
		if stop := beyond &^ c.empty; stop != 0 {
			land &= between(nearest(stop, d), d)
		}
		for land != 0 {
			to := nearest(land, d)
			land &^= to
			more = true
			c.king(to, taken|x, n+1, k)
		}
	}
	if !more {
		c.record(at, taken, n)
	}
}

// rays[i][k] holds the squares a king on bit i sees in direction
// Directions[k] on an empty board.
var rays = func() (r [64][4]uint64) {
	for s := 1; s <= 50; s++ {
		for k, d := range Directions {
			for x := Step(Bit(s), d); x != 0; x = Step(x, d) {
				r[bitIndex(s)][k] |= x
			}
		}
	}
	return r
}()

// nearest returns the square of the non-empty set x nearest to a piece
// looking at it in direction d: the lowest bit for a positive d (towards
// higher bits), the highest for a negative one.
func nearest(x uint64, d int) uint64 {
	if d > 0 {
		return lowest(x)
	}
	return highest(x)
}

// between returns the bits nearer than the single bit x in direction d:
// below x for a positive d, above it for a negative one.
func between(x uint64, d int) uint64 {
	if d > 0 {
		return x - 1
	}
	return ^(x<<1 - 1)
}

// record adds a finished capture sequence if it takes the most pieces and
// is not already listed.
func (c *capturer) record(at, taken uint64, n int) {
	if n < c.best || n == 0 {
		return
	}
	m := Move{From: c.from, To: uint8(bits.TrailingZeros64(at)), Captured: taken}
	if n > c.best {
		c.best, c.n, c.more = n, 0, c.more[:0]
	} else if slices.Contains(c.found[:c.n], m) || slices.Contains(c.more, m) {
		return
	}
	if c.n < len(c.found) {
		c.found[c.n] = m
		c.n++
	} else {
		c.more = append(c.more, m)
	}
}
