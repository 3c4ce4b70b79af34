// Package rules owns what a stored value means under the rules of
// international draughts (docs/rules.md). Package table owns how a file
// holds it. This package has the values, the move-limit classes of a
// material and how their clocks carry over a move, and the Entry of a
// position and how it follows from its moves.
//
//	c := rules.ClassOf(m)                 // class A, class B, rule 2 or none
//	ms := rules.NewMoves(c)
//	for each move: ms.AddKingMove(e)      // or ms.AddConversion(theory, rules)
//	e := ms.Entry()                       // e.Rules, e.Theory, e.Distance, e.DTW, e.MTC
//	v := e.RulesWith(c, plies)            // the value with a clock part run
//
// # Positions and tables
//
// A table holds the positions of one material with White to move, ranked
// by package index. A position with Black to move is looked up as its
// colour-flipped twin (MaterialOf, Placement), which has the same value for
// the side to move.
//
// # Entries
//
// Every entry has a theoretical value, where only repetition draws. It
// also has a rules value, under the 16-move and 5-move limits of class A
// and B and the 25-move king rule, with the clocks as they stand when the
// material arose. A material with a clock (Class) also has a distance:
// the least budget in plies under which the position is won (or lost).
// The dtw is the theoretical distance in plies until the loser has no
// move. The mtc is the number of plies until the next man move or
// capture.
package rules

import (
	"fmt"
)

// Value is a game value for the side to move: Loss -1, Draw 0, Win 1,
// the sign of python-chess's WDL. The C library and the Python package
// number it alike (docs/engines.md). Files store it otherwise (package
// table).
type Value int8

// The values, ordered from the side to move's point of view.
const (
	Loss Value = -1
	Draw Value = 0
	Win  Value = 1
)

// Unknown is no value: that of a failed probe (package probe), which the
// zero Value, a draw, cannot say. It is none of the values above.
const Unknown Value = 3

func (v Value) String() string {
	switch v {
	case Loss:
		return "loss"
	case Draw:
		return "draw"
	case Win:
		return "win"
	case Unknown:
		return "unknown"
	}
	return "invalid"
}

// Neg returns the value for the other side.
func (v Value) Neg() Value { return -v }

// MarshalText writes v as "win", "draw" or "loss".
func (v Value) MarshalText() ([]byte, error) {
	if v < Loss || v > Win {
		return nil, fmt.Errorf("invalid value %d", v)
	}
	return []byte(v.String()), nil
}

// UnmarshalText reads "win", "draw" or "loss".
func (v *Value) UnmarshalText(b []byte) error {
	for w := Loss; w <= Win; w++ {
		if string(b) == w.String() {
			*v = w
			return nil
		}
	}
	return fmt.Errorf("invalid value %q", b)
}

// Outcome is a value with a distance in plies (the distance means nothing
// for a draw).
type Outcome struct {
	Value Value
	Dist  int
}

// Minimax combines the outcomes of a position's moves into the
// position's own; each is for the side to move after the move. The
// position is a win if some move reaches a loss (by the shortest such),
// a loss if every move reaches a win (by the longest; at distance 0 with
// no move), a draw otherwise. The zero value has seen no move.
type Minimax struct {
	win   int  // 1 + the least distance of a lost successor; 0 if none
	loss  int  // 1 + the greatest distance of a won successor
	unwon bool // some successor is not won
}

// Add adds the outcome of one move.
func (b *Minimax) Add(o Outcome) {
	switch o.Value {
	case Loss:
		if b.win == 0 || o.Dist+1 < b.win {
			b.win = o.Dist + 1
		}
		b.unwon = true
	case Draw:
		b.unwon = true
	case Win:
		b.loss = max(b.loss, o.Dist+1)
	}
}

// Outcome returns the outcome of the position.
func (b *Minimax) Outcome() Outcome {
	switch {
	case b.win > 0:
		return Outcome{Value: Win, Dist: b.win}
	case !b.unwon:
		return Outcome{Value: Loss, Dist: b.loss}
	}
	return Outcome{Value: Draw}
}
