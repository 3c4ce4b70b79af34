package probe

import (
	"cmp"
	"math"
	"slices"

	"github.com/dtb-draughts/dtb/draughts"
	"github.com/dtb-draughts/dtb/table"
)

// Clocks are the rule clocks of a game as they stand at a position, which
// the tables cannot know: they depend on the game's history.
//
// Only the class clock (rules 3 and 4 of docs/rules.md) is tracked today.
// The 25-move king rule (rule 2) is not (see docs/rules.md); a field for
// its count will be added when the tables track it.
type Clocks struct {
	// Class is the number of plies left on the class clock of a class A
	// or B position: 32 (class A) or 10 (class B) on the ply that produced
	// the material, one less after every ply played in the class. FullClock,
	// or any negative number, means a full clock. It is ignored for a
	// position of no class.
	Class int
}

// FullClock is the Class of Clocks whose class clock is full, as on the
// ply that produced the position's material.
const FullClock = -1

// after returns the clocks after a move from a position of class from to
// one of class to, as docs/rules.md's "the class clock" counts them.
func (c Clocks) after(from, to table.Class) Clocks {
	left := c.Class
	if left < 0 || left > from.Budget() {
		left = from.Budget()
	}
	switch {
	case to == table.NoClass || from == table.NoClass:
		return Clocks{Class: FullClock}
	case from == to:
		return Clocks{Class: left - 1}
	case from == table.ClassA && to == table.ClassB:
		return Clocks{Class: min(left-1, to.Budget())}
	}
	return Clocks{Class: FullClock}
}

// Value returns the value of p for its side to move under the rules with
// the clocks c: the rules value alone, for a caller that needs nothing
// else. Its errors are Probe's.
func (t *Tables) Value(p draughts.Position, c Clocks) (table.Value, error) {
	return t.value(p, c, false)
}

// ValueCached is Value without reading the disk: where Value would read,
// it returns ErrNotCached (see ProbeCached).
func (t *Tables) ValueCached(p draughts.Position, c Clocks) (table.Value, error) {
	return t.value(p, c, true)
}

func (t *Tables) value(p draughts.Position, c Clocks, cachedOnly bool) (table.Value, error) {
	e, err := t.probe(p, cachedOnly)
	if err != nil {
		return 0, err
	}
	return c.Value(&p, e), nil
}

// Value returns the value under the rules with the clocks c of the
// position p whose probe is e: the rules value if p's class clock is full
// or p has none, else the value its class distance gives
// (table.Entry.RulesWith).
func (c Clocks) Value(p *draughts.Position, e table.Entry) table.Value {
	if p.Pieces(p.Side) == 0 {
		return e.Rules
	}
	return e.RulesWith(table.ClassOf(table.MaterialOf(p)), c.Class)
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
	// has dtw 1, whether or not the table has a dtw column.
	Entry table.Entry
}

// RootMoves returns every legal move of p with its value and distances,
// best first: wins before draws before losses under the rules with the
// clocks c, the shortest win first and the longest loss first (by the
// class distance where the position after the move has one, else by the
// dtw; a win of unknown length last, a loss of unknown length first),
// then by theoretical value. A position without a legal move has none.
// Its errors are Probe's, for p or a position a move leads to.
func (t *Tables) RootMoves(p draughts.Position, c Clocks) ([]RootMove, error) {
	if err := check(&p); err != nil {
		return nil, err
	}
	from := table.ClassOf(table.MaterialOf(&p))
	over := from != table.NoClass && c.Class == 0 // drawn before any move (rule 5)
	var moves []RootMove
	for _, m := range p.Moves(nil) {
		q := p.Play(m)
		e, err := t.Probe(q)
		if err != nil {
			return nil, err
		}
		v := c.after(from, table.ClassOf(table.MaterialOf(&q))).Value(&q, e)
		if q.Pieces(q.Side) != 0 && q.CountMoves() == 0 {
			e.DTW = 0
		}
		if over {
			v = table.Draw
		}
		mtc := longer(e.MTC)
		if e.MTC >= 0 && (m.IsCapture() || p.Kings&draughts.Bit(m.FromSquare()) == 0) {
			mtc = 1 // the move converts
		}
		moves = append(moves, RootMove{Move: m, Value: v.Neg(), Entry: table.Entry{
			Rules: e.Rules.Neg(), Theory: e.Theory.Neg(), Distance: longer(e.Distance), DTW: longer(e.DTW), MTC: mtc,
		}})
	}
	slices.SortStableFunc(moves, compareRootMoves)
	return moves, nil
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
