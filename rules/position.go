package rules

import (
	"math/bits"

	"github.com/dtb-draughts/dtb/draughts"
	"github.com/dtb-draughts/dtb/index"
)

// MaterialOf returns the material of the table that holds p: p's own with
// White to move, the colour-flipped one with Black to move.
func MaterialOf(p *draughts.Position) index.Material {
	own, opp := p.Pieces(p.Side), p.Pieces(p.Side.Opponent())
	return index.Material{
		WhiteMen:   bits.OnesCount64(own &^ p.Kings),
		WhiteKings: bits.OnesCount64(own & p.Kings),
		BlackMen:   bits.OnesCount64(opp &^ p.Kings),
		BlackKings: bits.OnesCount64(opp & p.Kings),
	}
}

// Placement returns the placement of p in its table (see MaterialOf).
func Placement(p *draughts.Position) index.Placement {
	q := *p
	if q.Side == draughts.Black {
		q = q.Flip()
	}
	white, black, kings := draughts.SquareSet(q.White), draughts.SquareSet(q.Black), draughts.SquareSet(q.Kings)
	return index.Placement{WhiteMen: white &^ kings, WhiteKings: white & kings, BlackMen: black &^ kings, BlackKings: black & kings}
}

// FlipPlacement returns the colour flip of pl: the board turned by 180
// degrees (square s becomes 51-s), White's pieces made Black's and the
// other way round. A position with Black to move and placement pl is held
// in its table as FlipPlacement(pl) with White to move.
func FlipPlacement(pl index.Placement) index.Placement {
	return index.Placement{
		WhiteMen: draughts.MirrorSet(pl.BlackMen), WhiteKings: draughts.MirrorSet(pl.BlackKings),
		BlackMen: draughts.MirrorSet(pl.WhiteMen), BlackKings: draughts.MirrorSet(pl.WhiteKings),
	}
}

// Position returns the position of a placement with White to move.
func Position(pl index.Placement) draughts.Position {
	return draughts.Position{
		White: draughts.FromSquareSet(pl.WhiteMen | pl.WhiteKings),
		Black: draughts.FromSquareSet(pl.BlackMen | pl.BlackKings),
		Kings: draughts.FromSquareSet(pl.WhiteKings | pl.BlackKings),
	}
}

// ForcedThreat reports whether p, whose side to move has no capture, is a
// forced threat: the other side has a capture, and every move of p but a
// crowning leaves it one. Its entry follows from its moves alone. Each
// leads to a capture position or into a material with more kings, never
// to a position of its own table that needs a search. So the value files
// of a slim directory leave it out (table.SlimFlags.ForcedThreats), and a
// probe finds it by that search.
func ForcedThreat(p *draughts.Position) bool {
	q := *p
	q.Side = q.Side.Opponent()
	if !q.HasCapture() {
		return false
	}
	kings := bits.OnesCount64(p.Kings)
	var buf [draughts.MaxMoves]draughts.Move
	for _, m := range p.Moves(buf[:0]) {
		if s := p.Play(m); bits.OnesCount64(s.Kings) == kings && !s.HasCapture() {
			return false // m parries the threat
		}
	}
	return true
}
