// Package table owns what an endgame table stores for a position and
// what it means under the rules (docs/rules.md): the values, the
// move-limit classes of a material and how their clocks carry over a move,
// the Entry of a position and its encoding in a table file's columns, the
// file header, and the stats of a table. The generator (retro), the prober
// (probe) and the verifier (verify) all read and write tables through it.
//
//	f, err := table.Open("tables/KKvK.dtb", m) // checks the header against m
//	cols, err := f.ReadColumns()               // every entry, decoded bytes
//	e, ok := cols.Entry(i)                     // e.Rules, e.Theory, e.Distance, e.DTW
//	vals, err := f.ReadValues(b)               // block b of the value file alone
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
// Every entry has a theoretical value (only repetition draws) and a rules
// value (the 16-move and 5-move limits of class A and B materials and the
// 25-move king rule, their clocks as they stand when the material arose).
// A table whose material has a clock (Class: class A, class B, or Rule2
// where both sides have a king) also stores its distance: the least budget
// in plies under which the position is won (or lost). Optionally a table
// stores the dtw, the theoretical distance in plies until the loser has no
// move, and the mtc, the plies until the next man move or capture.
// docs/format.md specifies the files; Column lists the columns and their
// encoding. A table is a value file (KKvK.dtb, the value column) and, if
// it has other columns, a distance file (KKvK.dtbd); Writer writes both,
// File reads them, Convert makes them from a whole table of format 2.
// Files written before rule 2 was tracked (RulesNo25Move) are still read:
// their Rule2 materials have no clock.
package table

import (
	"math/bits"

	"github.com/dtb-draughts/dtb/draughts"
	"github.com/dtb-draughts/dtb/index"
)

// Value is a game value for the side to move.
type Value uint8

// The values, ordered from the side to move's point of view.
const (
	Loss Value = iota
	Draw
	Win
)

func (v Value) String() string {
	switch v {
	case Loss:
		return "loss"
	case Draw:
		return "draw"
	case Win:
		return "win"
	}
	return "invalid"
}

// Neg returns the value for the other side.
func (v Value) Neg() Value { return Win - v }

// Class is a material's move-limit class: which clock of docs/rules.md
// can decide its values.
type Class uint8

// The classes of docs/rules.md.
const (
	NoClass Class = iota
	ClassA        // three pieces, at least one a king, against a lone king: 32 plies
	ClassB        // two kings, king and man, or one king against a lone king: 10 plies
	// Rule2 is no class of the rules but is counted like one: a material
	// of neither class where both sides have a king, the only ones where
	// the count of the 25-move king rule (rule 2) can reach 50 plies. Every
	// man move and capture restarts the count, so it never carries over
	// into another material or level; classes A and B start only with a
	// capture or a man move, so their clocks and the count never run at
	// once, and their limits are shorter.
	Rule2
)

func (c Class) String() string {
	switch c {
	case ClassA:
		return "class A"
	case ClassB:
		return "class B"
	case Rule2:
		return "rule 2"
	}
	return "none"
}

// ClassOf returns the class of a material.
func ClassOf(m index.Material) Class {
	if c := loneKingClass(m); c != NoClass {
		return c
	}
	if m.WhiteKings > 0 && m.BlackKings > 0 {
		return Rule2
	}
	return NoClass
}

// loneKingClass returns the class A or B of m, or NoClass.
func loneKingClass(m index.Material) Class {
	strongKings, strongMen := m.WhiteKings, m.WhiteMen
	if m.WhiteMen+m.WhiteKings == 1 && m.WhiteKings == 1 {
		strongKings, strongMen = m.BlackKings, m.BlackMen
	} else if !(m.BlackMen+m.BlackKings == 1 && m.BlackKings == 1) {
		return NoClass // neither side is a lone king
	}
	switch {
	case strongKings == 0:
		return NoClass
	case strongKings+strongMen == 3:
		return ClassA
	case strongKings+strongMen <= 2 && strongMen <= 1:
		return ClassB
	}
	return NoClass
}

// Budget returns the plies a clock of the class starts with (0 for none).
func (c Class) Budget() int {
	switch c {
	case ClassA:
		return 32
	case ClassB:
		return 10
	case Rule2:
		return Rule2Plies
	}
	return 0
}

// Rule2Plies is the length of the 25-move king rule (rule 2) in plies.
const Rule2Plies = 50

// Carries reports whether the clock of c runs on across the captures and
// man moves that stay in its class (classes A and B; the count of rule 2
// restarts).
func (c Class) Carries() bool { return c == ClassA || c == ClassB }

// Outcome is a value with a distance in plies (the distance means nothing
// for a draw).
type Outcome struct {
	Value Value
	Dist  int
}

// Minimax combines the outcomes of a position's moves, each for the side
// to move after the move, into the position's own: a win if some move
// reaches a loss (by the shortest such), a loss if every move reaches a
// win (by the longest; at distance 0 with no move), a draw otherwise. The
// zero value has seen no move.
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
// crowning leaves it one. Its entry follows from its moves alone, each
// leading to a capture position or into a material with more kings,
// never to a position of its own table that needs a search: the value
// files of a slim directory leave it out (RulesForcedThreats), and a
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
