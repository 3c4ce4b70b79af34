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
// keeps them from its game record and passes them with every probe. Both
// count the plies ALREADY PLAYED, so the zero Clocks are the clocks on
// the ply that produced the position's material (a capture or a man
// move): a full class clock and a fresh rule-2 count, under which a
// probe's Value is its Entry.Rules.
//
//   - Class: for a class A or B position (rules 3 and 4), the plies
//     played on its class clock of 32 (class A) or 10 (class B) plies:
//     0 on the ply that produced the class material, one more after every
//     ply played since (see Class for a capture from class A into class
//     B).
//   - Rule2: for a position where both sides have a king (table.Rule2),
//     the plies played on the count of the 25-move king rule (rule 2):
//     the plies since the last man move or capture, 0 on the ply of a
//     man move (a crowning is one) or a capture.
//
// A negative count is 0; a count of the clock's budget (32, 10 or 50
// plies) or more is a clock run out, under which the position is drawn
// unless its side to move has no move (rule 5: then it loses).
//
// The two never run at once: a class clock starts only with a capture or
// a man move, which restarts the rule-2 count, and inside class A or B
// only the class clock counts. Each is ignored for a position it does not
// apply to, so an engine may pass both as it keeps them. RootMoves
// carries both over each move.
type Clocks struct {
	// Class is the number of plies played on the class clock of a class A
	// or B position: 0 on the ply that produced the material, one more
	// after every ply played in the class. A capture from class A into
	// class B (the lone king takes) starts a class B clock of 10 plies
	// beside the class A clock, which runs on; Class then is 10 less the
	// plies left on whichever of the two runs out first: max(a+1-22, 0)
	// after a capture played with a plies on the class A clock
	// (docs/rules.md, "The class clock"). It is ignored for any other
	// position.
	Class int
	// Rule2 is the number of plies played on the rule-2 count of a
	// position where both sides have a king: the plies played since the
	// last man move or capture, 0 on the ply of one. 50
	// (table.Rule2Plies) or more is a complete count. It is ignored for
	// other positions and for tables built before rule 2 was tracked
	// (TracksRule2).
	Rule2 int
}

// left returns the plies left on the clock of a position of class class
// under c: the class's budget less the plies played (Class for class A
// and B, Rule2 for Rule2), its full budget for none played, 0 for a
// clock run out (and for NoClass, which has no clock).
func (c Clocks) left(class table.Class) int {
	played := c.Rule2
	if class.Carries() {
		played = c.Class
	}
	return class.Budget() - min(max(played, 0), class.Budget())
}

// fresh reports whether c are as the zero Clocks: a full class clock and
// a fresh rule-2 count.
func (c Clocks) fresh() bool { return c.Class <= 0 && c.Rule2 <= 0 }

// marked reports whether the value file of f answers c alone: f marks
// the positions a rule-2 count one ply on draws (table.FreshOnly), and c
// is that count.
func (c Clocks) marked(f *file) bool {
	return f.marked && f.class == table.Rule2 && c.Rule2 == 1
}

// over reports whether the clock of class runs out at the position: the
// game is drawn unless its side to move has no move (rule 5).
func (c Clocks) over(class table.Class) bool {
	return class != table.NoClass && c.left(class) == 0
}

// after returns the clocks after a move from a position of class from to
// one of class to (classes under the tables' rules, Tables.Class);
// conversion tells a capture or a man move from a quiet king move. The
// class clock counts as docs/rules.md's "the class clock" says: one ply
// more inside class A or inside class B, max(a+1-22, 0) from class A
// with a plies played into class B (the 22 plies by which the class A
// budget exceeds class B's), 0 into a class from outside it. The
// rule-2 count gains a ply with a quiet king move inside a Rule2
// material and restarts with a conversion. A clock that has run out
// stays run out.
func (c Clocks) after(from, to table.Class, conversion bool) Clocks {
	var next Clocks
	if from == table.Rule2 && to == table.Rule2 && !conversion {
		next.Rule2 = min(max(c.Rule2, 0)+1, table.Rule2Plies)
	}
	if !from.Carries() || !to.Carries() {
		return next
	}
	played := min(max(c.Class, 0), from.Budget()) + 1
	switch {
	case from == to:
		next.Class = played
	case from == table.ClassA && to == table.ClassB:
		next.Class = max(played-(from.Budget()-to.Budget()), 0)
	}
	return next
}

// Value returns the value under the rules with the clocks c of a
// position whose table has class class under its file's rules
// (Tables.Class, Result.Class) and whose probe is e: for class A or B
// the value its class distance gives with the plies left on the class
// clock, for Rule2 the value its rule-2 distance gives with 50 - c.Rule2
// plies left (table.Entry.RulesWith), otherwise the rules value.
func (c Clocks) Value(class table.Class, e table.Entry) table.Value {
	return e.RulesWith(class, c.left(class))
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
	// Clocks are the clocks after Move, carried over it as RootMoves
	// says: those to pass with the position after it.
	Clocks Clocks
}

// RootMoves returns every legal move of p with its value and distances,
// best first: wins before draws before losses under the rules with the
// clocks c, carried over each move as Clocks says (a move inside class A
// or B adds a ply to the class clock; a quiet king move adds a ply to the
// rule-2 count of a Rule2 position, a capture or man move restarts it),
// the shortest win first and the longest loss first (by the distance
// where the position after the move has one, else by the dtw; a win of
// unknown length last, a loss of unknown length first), then by
// theoretical value. Where a clock of p has run out (c.Class 32 or more
// in class A, 10 or more in class B, c.Rule2 50 or more where rule 2
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
		r, err := t.Probe(q, Clocks{}, 0)
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
		moves = append(moves, RootMove{Move: m, Value: v.Neg(), Class: to, Clocks: c.after(from, to, conversion), Entry: table.Entry{
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
