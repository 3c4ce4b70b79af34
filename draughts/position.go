package draughts

import "math/bits"

// Position is a board position with the side to move. White and Black hold
// each side's pieces, Kings the kings of both sides.
type Position struct {
	White, Black, Kings uint64
	Side                Color
}

// Start returns the initial position: White on 31..50, Black on 1..20,
// White to move.
func Start() Position {
	var p Position
	for s := 1; s <= 20; s++ {
		p.Black |= Bit(s)
		p.White |= Bit(s + 30)
	}
	return p
}

// Pieces returns the pieces of side c.
func (p *Position) Pieces(c Color) uint64 {
	if c == White {
		return p.White
	}
	return p.Black
}

// Occupied returns every occupied square.
func (p *Position) Occupied() uint64 { return p.White | p.Black }

// Empty returns every free square.
func (p *Position) Empty() uint64 { return Board &^ (p.White | p.Black) }

// Converts reports whether m, a move of p, is a capture or a man move:
// a move that restarts the count of the 25-move king rule.
func (p *Position) Converts(m Move) bool {
	return m.IsCapture() || p.Kings&Bit(m.FromSquare()) == 0
}

// Play returns the position after the legal move m.
func (p Position) Play(m Move) Position {
	from, to := uint64(1)<<m.From, uint64(1)<<m.To
	king := p.Kings&from != 0
	p.Kings &^= from | m.Captured
	if p.Side == White {
		p.White = p.White&^from | to
		p.Black &^= m.Captured
		if king || to&WhiteCrown != 0 {
			p.Kings |= to
		}
	} else {
		p.Black = p.Black&^from | to
		p.White &^= m.Captured
		if king || to&BlackCrown != 0 {
			p.Kings |= to
		}
	}
	p.Side ^= 1
	return p
}

// Flip returns the colour-symmetric position: the board rotated by 180
// degrees, the colours swapped, the other side to move. Its value for the
// side to move equals p's.
func (p Position) Flip() Position {
	return Position{
		White: Mirror(p.Black),
		Black: Mirror(p.White),
		Kings: Mirror(p.Kings),
		Side:  p.Side ^ 1,
	}
}

// Count returns the number of men and kings of side c.
func (p *Position) Count(c Color) (men, kings int) {
	own := p.Pieces(c)
	return bits.OnesCount64(own &^ p.Kings), bits.OnesCount64(own & p.Kings)
}
