// Package table defines what an endgame table stores for a position and
// what it means under the rules (docs/rules.md): the values, the
// move-limit classes of a material and how their clocks carry over a move,
// and how a position is located in a table. The generator (retro), the
// prober (probe) and the verifier (verify) share it; nothing else.
//
//	m := table.MaterialOf(pos)          // the table that holds pos
//	i := index.New(m).Rank(table.Placement(pos))
//	theory, rules := table.UnpackValues(valueByte)
//
// # Positions and tables
//
// A table holds the positions of one material with White to move. A
// position with Black to move is looked up as its colour-flipped twin
// (draughts.Position.Flip), which has the same value for the side to move.
//
// # Values
//
// Every entry has a theoretical value (only repetition draws) and a rules
// value (the 16-move and 5-move limits of class A and B materials, their
// clocks as they stand when the material arose; the 25-move king rule is
// not tracked, see RulesNo25Move). Class A and B tables also store the
// class distance: the least budget in plies under which the position is
// won (or lost); its sign is the theoretical value. With --dtw a table
// stores the theoretical distance in plies until the loser has no move.
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

// PackValues packs the two values of an entry into its value byte.
func PackValues(theory, rules Value) byte { return byte(theory) | byte(rules)<<2 }

// UnpackValues unpacks a value byte; ok is false for a byte no entry has.
func UnpackValues(b byte) (theory, rules Value, ok bool) {
	theory, rules = Value(b&3), Value(b>>2)
	return theory, rules, theory <= Win && rules <= Win && b < 16
}

// NoDistance marks an entry without a class distance: drawn under every
// budget.
const NoDistance = 255

// NoDTW marks a draw in the dtw column.
const NoDTW = 0xffff

// Rules flags, stored in each file header.
const (
	RulesRepetition       = 1 << iota // theoretical value: repetition is a draw
	RulesClassLimits                  // rules value: 16-move (class A) and 5-move (class B) limits
	RulesNo25Move                     // the 25-move king rule (rule 2) is not tracked
	RulesCapturesDontCare             // positions with a capture hold no real value on disk
)

// IndexVersion is the version of the index scheme of package index.
const IndexVersion = 1

// Class is a material's move-limit class.
type Class uint8

// The classes of RULES.md.
const (
	NoClass Class = iota
	ClassA        // three pieces, at least one a king, against a lone king: 32 plies
	ClassB        // two kings, king and man, or one king against a lone king: 10 plies
)

// ClassOf returns the class of a material.
func ClassOf(m index.Material) Class {
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
	}
	return 0
}

// Outcome is a value with a distance in plies (the distance means nothing
// for a draw).
type Outcome struct {
	Value Value
	Dist  int
}

// RulesOutcome returns, for the rules value of a position of class from,
// the outcome of a successor of class to whose entry holds the theoretical
// value theory, the rules value rules and the class distance dist. A clock
// that runs on (inside class A, inside class B) keeps the successor's
// distance; a clock that drops from A to B carries min(budget-1, 10), so
// only distances up to 10 count; otherwise the successor starts afresh and
// its rules value holds at distance 0.
func RulesOutcome(from, to Class, theory, rules Value, dist int) Outcome {
	if from == NoClass || to == NoClass {
		return Outcome{Value: rules}
	}
	if dist == NoDistance || from == ClassA && to == ClassB && dist > ClassB.Budget() {
		return Outcome{Value: Draw}
	}
	return Outcome{Value: theory, Dist: dist}
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
	return index.Placement{
		WhiteMen:   draughts.SquareSet(q.White &^ q.Kings),
		WhiteKings: draughts.SquareSet(q.White & q.Kings),
		BlackMen:   draughts.SquareSet(q.Black &^ q.Kings),
		BlackKings: draughts.SquareSet(q.Black & q.Kings),
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

// Stats summarises a table (White to move), stored in its file header
// under the meta key "stats" as JSON. Value counts are indexed by Value
// and cover every position, capture positions with their real values.
type Stats struct {
	Positions     int64    `json:"positions"`
	Captures      int64    `json:"captures"`
	Theory        [3]int64 `json:"theory"`
	Rules         [3]int64 `json:"rules"`
	CursedWins    int64    `json:"cursed_wins"`    // theoretical win, not a win under the rules
	BlessedLosses int64    `json:"blessed_losses"` // theoretical loss, not a loss under the rules
	// Longest class distance of a win under the rules (class A and B).
	LongestDistance    int    `json:"longest_distance,omitempty"`
	LongestDistanceFEN string `json:"longest_distance_fen,omitempty"`
	// Longest theoretical win (with the dtw column).
	LongestDTW    int    `json:"longest_dtw,omitempty"`
	LongestDTWFEN string `json:"longest_dtw_fen,omitempty"`
	// Rule2Candidates counts the wins and losses (with the dtw column)
	// whose dtw exceeds Rule2Plies: only there can the untracked 25-move
	// king rule change a value, since it needs 50 plies without a man move
	// or capture.
	Rule2Candidates int64 `json:"rule2_candidates,omitempty"`
}

// Rule2Plies is the length of the 25-move king rule (rule 2) in plies.
const Rule2Plies = 50

// StatsKey is the meta key of the stats in a table file header.
const StatsKey = "stats"

// FileName returns the file name of the table of material m.
func FileName(m index.Material) string { return m.String() + ".dtb" }

// Column names of a table file.
const (
	ColumnValue    = "value"    // 1 byte: PackValues
	ColumnDistance = "distance" // 1 byte: class distance, class A and B only
	ColumnDTW      = "dtw"      // 2 bytes: theoretical distance, with --dtw
)
