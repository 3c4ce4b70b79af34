package probe

import (
	"cmp"
	"errors"
	"math"
	"slices"

	"github.com/dtb-draughts/dtb/draughts"
	"github.com/dtb-draughts/dtb/table"
)

// Clocks are the rule clocks of a game as they stand at a position, which
// the tables cannot know: they depend on the game's history. An engine
// keeps them from its game record and passes them with every probe:
//
//   - Class: for a class A or B position (rules 3 and 4), the plies LEFT
//     on its class clock: 32 (class A) or 10 (class B) on the ply that
//     produced the class material (a capture or a man move), one less
//     after every ply played since, min(left-1, 10) after a capture from
//     class A into class B.
//   - Rule2: for a position where both sides have a king (table.Rule2),
//     the plies ALREADY PLAYED on the count of the 25-move king rule
//     (rule 2): the plies since the last man move or capture, 0 on the
//     ply of a man move (a crowning is one) or a capture.
//
// The two never run at once: a class clock starts only with a capture or
// a man move, which restarts the rule-2 count, and inside class A or B
// only the class clock counts. Each is ignored for a position it does not
// apply to, so an engine may pass both as it keeps them. RootMoves
// carries both over each move.
type Clocks struct {
	// Class is the number of plies left on the class clock of a class A
	// or B position: 32 (class A) or 10 (class B) on the ply that produced
	// the material, one less after every ply played in the class. FullClock,
	// or any negative number, means a full clock. It is ignored for a
	// position of no class.
	Class int
	// Rule2 is the number of plies on the rule-2 count of a position
	// where both sides have a king: the plies played since the last man
	// move or capture. 0 (or any negative number) is a fresh count, as on
	// the ply of a man move or capture; 50 (table.Rule2Plies) or more is a
	// complete count, under which the position is drawn unless its side
	// to move has no move (rule 5: then it loses). It is ignored for other
	// positions and for tables built before rule 2 was tracked
	// (TracksRule2).
	Rule2 int
}

// FullClock is the Class of Clocks whose class clock is full, as on the
// ply that produced the position's material.
const FullClock = -1

// FreshClocks are the clocks on the ply that produced a position's
// material: a full class clock and a fresh rule-2 count. They are what a
// probe that wants the entry alone may pass. (The zero Clocks differ: a
// fresh rule-2 count, but a class clock with 0 plies left.)
var FreshClocks = Clocks{Class: FullClock}

// rule2Budget returns the plies left on the rule-2 count: 50 for a fresh
// count, 0 for a complete one.
func (c Clocks) rule2Budget() int {
	return table.Rule2Plies - min(max(c.Rule2, 0), table.Rule2Plies)
}

// fresh reports whether c are as FreshClocks: a full class clock
// and a fresh rule-2 count.
func (c Clocks) fresh() bool { return c.Class < 0 && c.Rule2 <= 0 }

// over reports whether the clock of class runs out at the position: the
// game is drawn unless its side to move has no move (rule 5).
func (c Clocks) over(class table.Class) bool {
	switch class {
	case table.ClassA, table.ClassB:
		return c.Class == 0
	case table.Rule2:
		return c.rule2Budget() == 0
	}
	return false
}

// after returns the clocks after a move from a position of class from to
// one of class to (classes under the tables' rules, Tables.Class);
// conversion tells a capture or a man move from a quiet king move. The
// class clock counts as docs/rules.md's "the class clock" says; the
// rule-2 count gains a ply with a quiet king move inside a Rule2 material
// and restarts with a conversion.
func (c Clocks) after(from, to table.Class, conversion bool) Clocks {
	next := Clocks{Class: FullClock}
	if from == table.Rule2 && to == table.Rule2 && !conversion {
		next.Rule2 = min(max(c.Rule2, 0)+1, table.Rule2Plies)
	}
	if !from.Carries() || !to.Carries() {
		return next
	}
	left := c.Class
	if left < 0 || left > from.Budget() {
		left = from.Budget()
	}
	switch {
	case from == to:
		next.Class = left - 1
	case from == table.ClassA && to == table.ClassB:
		next.Class = min(left-1, to.Budget())
	}
	return next
}

// Value returns the value under the rules with the clocks c of a
// position whose table has class class under its file's rules
// (Tables.Class, Result.Class) and whose probe is e: for class A or B the
// value its class distance gives with c.Class plies left, for Rule2 the
// value its rule-2 distance gives with 50 - c.Rule2 plies left
// (table.Entry.RulesWith), otherwise the rules value.
func (c Clocks) Value(class table.Class, e table.Entry) table.Value {
	switch class {
	case table.ClassA, table.ClassB:
		return e.RulesWith(class, c.Class)
	case table.Rule2:
		return e.RulesWith(class, c.rule2Budget())
	}
	return e.Rules
}

// RootMove is a legal move of a position and what playing it leads to.
type RootMove struct {
	Move draughts.Move
	// Value is the value of playing Move for the side that plays it, under
	// the rules with the running clocks.
	Value table.Value
	// Entry is the entry of the position after Move seen from the side
	// that plays it: its values negated (a loss for the opponent is a win
	// for the mover) and its distances one ply longer, counted from before
	// the move. A move that leaves the opponent without a move or a piece
	// has dtw 1, whether or not the table has a dtw column; a capture or
	// man move in a won or lost line has mtc 1 where the table has an mtc
	// column, as has a move that takes the last piece.
	Entry table.Entry
	// Class is the class of the position after Move under its table's
	// rules (Tables.Class): the clock Entry.Distance counts.
	Class table.Class
}

// RootMoves returns every legal move of p with its value and distances,
// best first: wins before draws before losses under the rules with the
// clocks c, carried over each move (a quiet king move adds a ply to the
// rule-2 count of a Rule2 position and takes one off a class clock; a
// capture or man move restarts the rule-2 count), the shortest win first
// and the longest loss first (by the distance where the position after
// the move has one, else by the dtw; a win of unknown length last, a loss
// of unknown length first), then by theoretical value. Where a clock of p
// has run out (c.Class 0 in class A or B, c.Rule2 50 or more where rule 2
// counts) every move is a draw. A position without a legal move has none.
// Its errors are Probe's, for p or a position a move leads to.
func (t *Tables) RootMoves(p draughts.Position, c Clocks) ([]RootMove, error) {
	if err := Check(p); err != nil {
		return nil, err
	}
	from, err := t.rootClass(&p)
	if err != nil {
		return nil, err
	}
	over := c.over(from) // drawn before any move (rule 5)
	var moves []RootMove
	for _, m := range p.Moves(nil) {
		q := p.Play(m)
		r, err := t.probe(q, FreshClocks, false)
		if err != nil {
			return nil, err
		}
		e, to := r.Entry, r.Class
		conversion := m.IsCapture() || p.Kings&draughts.Bit(m.FromSquare()) == 0
		v := c.after(from, to, conversion).Value(to, e)
		if q.Pieces(q.Side) != 0 && q.CountMoves() == 0 {
			e.DTW = 0
		}
		if over {
			v = table.Draw
		}
		mtc := longer(e.MTC)
		if e.MTC >= 0 && conversion {
			mtc = 1 // the move converts
		}
		moves = append(moves, RootMove{Move: m, Value: v.Neg(), Class: to, Entry: table.Entry{
			Rules: e.Rules.Neg(), Theory: e.Theory.Neg(), Distance: longer(e.Distance), DTW: longer(e.DTW), MTC: mtc,
		}})
	}
	slices.SortStableFunc(moves, compareRootMoves)
	return moves, nil
}

// rootClass returns the class of p's table under its file's rules, or
// table.ClassOf where p has no table (its moves then need none of the
// same material, or fail to probe).
func (t *Tables) rootClass(p *draughts.Position) (table.Class, error) {
	if p.Pieces(p.Side) == 0 {
		return table.NoClass, nil
	}
	m := table.MaterialOf(p)
	class, err := t.Class(m)
	if errors.Is(err, ErrMissing) {
		return table.ClassOf(m), nil
	}
	return class, err
}

// longer returns a distance one ply longer; -1 (none) stays.
func longer(d int) int {
	if d < 0 {
		return d
	}
	return d + 1
}

// compareRootMoves orders root moves best first (see RootMoves).
func compareRootMoves(a, b RootMove) int {
	if a.Value != b.Value {
		return cmp.Compare(b.Value, a.Value)
	}
	switch a.Value {
	case table.Win:
		if d := cmp.Compare(plies(a.Entry), plies(b.Entry)); d != 0 {
			return d
		}
	case table.Loss:
		if d := cmp.Compare(plies(b.Entry), plies(a.Entry)); d != 0 {
			return d
		}
	}
	return cmp.Compare(b.Entry.Theory, a.Entry.Theory)
}

// plies returns the length by which root moves of equal value are
// ordered: the class distance, else the dtw, else the most an int holds.
func plies(e table.Entry) int {
	switch {
	case e.Distance >= 0:
		return e.Distance
	case e.DTW >= 0:
		return e.DTW
	}
	return math.MaxInt
}
