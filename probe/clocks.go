package probe

import (
	"cmp"
	"errors"
	"math"
	"slices"

	"github.com/dtb-draughts/dtb/draughts"
	"github.com/dtb-draughts/dtb/rules"
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
//   - Rule2: for a position where both sides have a king (rules.Rule2),
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
	// (rules.Rule2Plies) or more is a complete count. It is ignored for
	// other positions and for tables built before rule 2 was tracked
	// (TracksRule2).
	Rule2 int
}

// left returns the plies left on the clock of a position of class class
// under c: the class's budget less the plies played (Class for class A
// and B, Rule2 for Rule2), its full budget for none played, 0 for a
// clock run out (and for NoClass, which has no clock).
func (c Clocks) left(class rules.Class) int {
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
	return f.marked && f.class == rules.Rule2 && c.Rule2 == 1
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
func (c Clocks) after(from, to rules.Class, conversion bool) Clocks {
	var next Clocks
	if from == rules.Rule2 && to == rules.Rule2 && !conversion {
		next.Rule2 = min(max(c.Rule2, 0)+1, rules.Rule2Plies)
	}
	if !from.Carries() || !to.Carries() {
		return next
	}
	played := min(max(c.Class, 0), from.Budget()) + 1
	switch {
	case from == to:
		next.Class = played
	case from == rules.ClassA && to == rules.ClassB:
		next.Class = max(played-(from.Budget()-to.Budget()), 0)
	}
	return next
}

// Value returns the value under the rules with the clocks c of a
// position whose table has class class under its file's rules
// (Tables.Class, Result.Class) and whose probe is e: for class A or B
// the value its class distance gives with the plies left on the class
// clock, for Rule2 the value its rule-2 distance gives with 50 - c.Rule2
// plies left (rules.Entry.RulesWith), otherwise the rules value.
func (c Clocks) Value(class rules.Class, e rules.Entry) rules.Value {
	return e.RulesWith(class, c.left(class))
}

// RootMove is a legal move of a position and what playing it leads to.
type RootMove struct {
	Move draughts.Move
	// Value is the value of playing Move for the side that plays it, under
	// the rules with the running clocks.
	Value rules.Value
	// Entry is the entry the position would have if Move were its only
	// move (rules.Moves), for the side that plays it. Its values are those
	// of the position after Move, negated; its distances count from
	// before the move. Distance counts the clock of the position Move is
	// played from (Class): the least plies left on it under which Move
	// wins (or loses). It is one ply more than the distance after a move
	// that keeps the clock running, and 1 for a move that restarts or
	// leaves it (a capture or man move under rule 2, a move out of class
	// A or B). So the best move's distance is the position's own. It is
	// -1 where the position has no clock. DTW and MTC are one ply longer
	// than after the move. A move that leaves the opponent without a move
	// or a piece has dtw 1, with or without a dtw column. A capture or man
	// move in a won or lost line has mtc 1 where the table has an mtc
	// column, and so has a move that takes the last piece.
	Entry rules.Entry
	// Class is the class of the position Move is played from under its
	// table's rules (Tables.Class): the clock Entry.Distance counts.
	Class rules.Class
	// Clocks are the clocks after Move, carried over it as RootMoves
	// says: those to pass with the position after it.
	Clocks Clocks
}

// RootMoves returns every legal move of p with its value and distances,
// best first (rank): wins before draws before losses under the rules
// with the clocks c, the win that makes most progress first and the loss
// that delays it most first. Each move's value and distances are those
// the position would have through it (RootMove.Entry), read with the
// clocks c as a probe of p reads them (Clocks.Value), so that the first
// move has p's value and distance. Its clocks are c carried over the
// move (Clocks says how: a move inside class A or B adds a ply to the
// class clock; a quiet king move adds a ply to the rule-2 count of a
// Rule2 position, a capture or man move restarts it). Where a clock of p
// has run out (c.Class 32 or more in class A, 10 or more in class B,
// c.Rule2 50 or more where rule 2 counts) every move is a draw. A
// position without a legal move has none. Its errors are Probe's, for p
// or a position a move leads to; a move into a table whose directory
// holds its values alone (ValuesOnly) fails, for want of its distances.
func (t *Tables) RootMoves(p draughts.Position, c Clocks) ([]RootMove, error) {
	if err := Check(p); err != nil {
		return nil, err
	}
	from, err := t.rootClass(&p)
	if err != nil {
		return nil, err
	}
	var moves []RootMove
	for _, m := range p.Moves(nil) {
		q := p.Play(m)
		r, err := t.Probe(q, Clocks{}, WithDistances)
		if err != nil {
			return nil, err
		}
		conversion := m.IsCapture() || p.Kings&draughts.Bit(m.FromSquare()) == 0
		e := through(from, r.Class, r.Entry, conversion, q.Pieces(q.Side) != 0 && q.CountMoves() == 0)
		moves = append(moves, RootMove{Move: m, Value: c.Value(from, e), Entry: e, Class: from, Clocks: c.after(from, r.Class, conversion)})
	}
	slices.SortStableFunc(moves, rank)
	return moves, nil
}

// through returns the entry of a position of class from whose only move
// leads to a position of class to with entry s, as rules.Moves computes
// it: the move is a capture or man move (conversion) or a quiet king
// move; blocked says that it leaves the side to move after it without a
// move, which then has dtw 0 even where its table has no dtw column. A
// dtw or mtc unknown after the move (-1: no such column) stays so.
func through(from, to rules.Class, s rules.Entry, conversion, blocked bool) rules.Entry {
	if blocked {
		s.DTW = 0
	}
	ms := rules.NewMoves(from)
	if conversion {
		ms.AddConversion(s.TheoryOutcome(), s.RulesOutcome(from, to))
	} else {
		ms.AddKingMove(s)
	}
	e := ms.Entry()
	if s.DTW < 0 {
		e.DTW = -1
	}
	if s.MTC < 0 {
		e.MTC = -1
	}
	return e
}

// rootClass returns the class of p's table under its file's rules, or
// rules.ClassOf where p has no table (its moves then need none of the
// same material, or fail to probe).
func (t *Tables) rootClass(p *draughts.Position) (rules.Class, error) {
	if p.Pieces(p.Side) == 0 {
		return rules.NoClass, nil
	}
	m := rules.MaterialOf(p)
	class, err := t.Class(m)
	if errors.Is(err, ErrMissing) {
		return rules.ClassOf(m), nil
	}
	return class, err
}

// rank orders root moves best first, as RootMoves returns them. It
// orders by Value, wins first. Among wins, the least distance on the
// clock of the position the move is played from comes first; among
// losses, the greatest. So the winner's first move makes progress under
// every clock: along a won line the distance falls by one a ply until a
// conversion. Ties go by the dtw, then by the mtc, the same way (a win
// of unknown length last, a loss of unknown length first), then by
// theoretical value.
func rank(a, b RootMove) int {
	if a.Value != b.Value {
		return cmp.Compare(b.Value, a.Value)
	}
	x, y := a.Entry, b.Entry
	shorter := cmp.Or(cmp.Compare(plies(x.Distance), plies(y.Distance)),
		cmp.Compare(plies(x.DTW), plies(y.DTW)), cmp.Compare(plies(x.MTC), plies(y.MTC)))
	switch {
	case a.Value == rules.Win && shorter != 0:
		return shorter
	case a.Value == rules.Loss && shorter != 0:
		return -shorter
	}
	return cmp.Compare(y.Theory, x.Theory)
}

// plies returns a distance by which root moves of equal value are
// ordered: d, or the most an int holds for none (-1).
func plies(d int) int {
	if d < 0 {
		return math.MaxInt
	}
	return d
}
