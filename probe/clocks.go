package probe

import (
	"cmp"
	"errors"
	"math"
	"slices"

	"github.com/dtb-draughts/dtb/draughts"
	"github.com/dtb-draughts/dtb/internal/reader"
	"github.com/dtb-draughts/dtb/rules"
)

// Clocks are the rule clocks of a game as they stand at a position. The
// tables cannot know them: they depend on the game's history. An engine
// keeps them from its game record and passes them with every probe. Both
// count the plies ALREADY PLAYED. So the zero Clocks are the clocks on
// the ply that produced the position's material, a capture or a man move.
// They are a full class clock and a fresh rule-2 count. Under them a
// probe's Value is its Entry.Rules.
//
//   - Class: the class clock of a class A or B position (rules 3 and 4).
//     It has 32 plies (class A) or 10 (class B). It counts the plies
//     played: 0 on the ply that produced the class material, one more
//     after every ply played since. See Class for a capture from class A
//     into class B.
//   - Rule2: the count of the 25-move king rule (rule 2), for a position
//     where both sides have a king (rules.Rule2). It counts the plies
//     since the last man move or capture. It is 0 on the ply of a man
//     move (a crowning is one) or a capture.
//
// A negative count is 0. A count of the clock's budget (32, 10 or 50
// plies) or more is a clock run out. Then the position is drawn unless
// its side to move has no move (rule 5: then it loses).
//
// The two never run at once. A class clock starts only with a capture or
// a man move, which restarts the rule-2 count. Inside class A or B only
// the class clock counts. Each is ignored for a position it does not
// apply to, so an engine may pass both as it keeps them. RootMoves
// carries both over each move.
type Clocks struct {
	// Class is the number of plies played on the class clock of a class A
	// or B position. It is 0 on the ply that produced the material, and
	// one more after every ply played in the class. A capture from class
	// A into class B (the lone king takes) starts a class B clock of 10
	// plies. The class A clock runs on beside it. Class then is 10 less
	// the plies left on whichever of the two runs out first. After a
	// capture played with a plies on the class A clock, that is
	// max(a+1-22, 0) (docs/rules.md, "The class clock"). It is ignored
	// for any other position.
	Class int
	// Rule2 is the number of plies played on the rule-2 count of a
	// position where both sides have a king. It counts the plies played
	// since the last man move or capture, 0 on the ply of one. A count of
	// 50 (rules.Rule2Plies) or more is complete. It is ignored for other
	// positions. It is also ignored for tables built before rule 2 was
	// tracked (table.NoRule2), whose rule-2 materials have no class.
	Rule2 int
}

// after returns the clocks after a move from a position of class from to
// one of class to. The classes are under the tables' rules
// (Tables.Class). The flag conversion tells a capture or a man move from
// a quiet king move. The class clock counts as docs/rules.md's "the class
// clock" says. It gains a ply inside class A or inside class B. From
// class A with a plies played into class B, it is max(a+1-22, 0). That is
// because the class A budget exceeds class B's by 22 plies. Into a class
// from outside it, it is 0. The rule-2 count gains a ply with a quiet
// king move inside a Rule2 material. It restarts with a conversion. A
// clock that has run out stays run out.
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

// Value returns the value under the rules with the clocks c of a position
// whose probe is e. The position's table has class class under its file's
// rules (Tables.Class, Result.Class). For class A or B, the value is the
// one its class distance gives with the plies left on the class clock.
// For Rule2, it is the one its rule-2 distance gives with 50 - c.Rule2
// plies left (rules.Entry.RulesWith). Otherwise it is the rules value.
func (c Clocks) Value(class rules.Class, e rules.Entry) rules.Value {
	return reader.Clocks(c).Value(class, e)
}

// RootMove is a legal move of a position and what playing it leads to.
type RootMove struct {
	Move draughts.Move
	// Value is the value of playing Move for the side that plays it. It
	// holds under the rules with the running clocks.
	Value rules.Value
	// Entry is the entry the position would have if Move were its only
	// move (rules.Moves). It is for the side that plays Move. Its values
	// are those of the position after Move, negated. Its distances count
	// from before the move. Distance counts the clock of the position
	// Move is played from (Class). It is the least plies left on that
	// clock under which Move wins (or loses). It is one ply more than the
	// distance after a move that keeps the clock running. It is 1 for a
	// move that restarts or leaves the clock. Such a move is a capture or
	// man move under rule 2, or a move out of class A or B. So the best
	// move's distance is the position's own. It is -1 where the position
	// has no clock. DTW and MTC are one ply longer than after the move. A
	// move that leaves the opponent without a move or a piece has dtw 1.
	// That holds with or without a dtw column. A capture or man move in a
	// won or lost line has mtc 1 where the table has an mtc column. So
	// has a move that takes the last piece.
	Entry rules.Entry
	// Class is the class of the position Move is played from, under its
	// table's rules (Tables.Class). It is the clock Entry.Distance
	// counts.
	Class rules.Class
	// Clocks are the clocks after Move, carried over it as RootMoves
	// says. Pass them with the position after Move.
	Clocks Clocks
	// ClassAfter is the class of the position after Move, under its
	// table's rules (Result.Class). It says which of Clocks count there:
	// Clocks.Class in class A or B, Clocks.Rule2 in Rule2, neither in
	// NoClass.
	ClassAfter rules.Class
}

// RootMoves returns every legal move of p with its value and distances,
// best first (rank). Wins come before draws before losses, under the
// rules with the clocks c. The win that makes most progress comes first,
// and the loss that delays it most. Each move's value and distances are
// those the position would have through it (RootMove.Entry). They are
// read with the clocks c as a probe of p reads them (Clocks.Value). So
// the first move has p's value and distance. Each move's clocks are c
// carried over the move. A move inside class A or B adds a ply to the
// class clock. A quiet king move adds a ply to the rule-2 count of a
// Rule2 position. A capture or man move restarts it. Where a clock of p
// has run out (see Clocks), every move is a draw. A position without a
// legal move has none. Its errors are Probe's, for p or a position a move
// leads to. A move into a table whose directory holds its values alone
// (ValuesOnly) fails, for want of its distances.
func (t *Tables) RootMoves(p draughts.Position, c Clocks) ([]RootMove, error) {
	if err := Check(p); err != nil {
		return nil, err
	}
	if err := t.r.Beyond(rules.MaterialOf(&p)); err != nil {
		return nil, err // not left to rootClass, which lets a missing table pass
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
		conversion := p.Converts(m)
		e := through(from, r.Class, r.Entry, conversion, q.Pieces(q.Side) != 0 && q.CountMoves() == 0)
		moves = append(moves, RootMove{Move: m, Value: c.Value(from, e), Entry: e, Class: from, Clocks: c.after(from, r.Class, conversion), ClassAfter: r.Class})
	}
	slices.SortStableFunc(moves, rank)
	return moves, nil
}

// Category returns the category of m for the side that plays it: under
// the rules with the running clocks, beside the theoretical value.
func (m RootMove) Category() Category { return CategoryOf(m.Value, m.Entry.Theory) }

// through returns the entry of a position whose only move leads to entry
// s, as rules.Moves computes it. The position is of class from, and the
// one after the move of class to. The move is a capture or man move
// (conversion) or a quiet king move. The flag blocked says that the move
// leaves the side to move after it without a move. That side then has dtw
// 0, even where its table has no dtw column. A dtw or mtc unknown after
// the move (-1: no such column) stays so.
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

// rootClass returns the class of p's table under its file's rules. Where
// p has no table, it returns rules.ClassOf. Its moves then need no table
// of the same material, or fail to probe.
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

// rank orders root moves best first, as RootMoves returns them. It orders
// by Value, wins first. Among wins, the least distance comes first; among
// losses, the greatest. The distance is on the clock of the position the
// move is played from. So the winner's first move makes progress under
// every clock. Along a won line the distance falls by one a ply until a
// conversion. Ties go by the dtw, then by the mtc, the same way. A win of
// unknown length goes last, a loss of unknown length first. Remaining
// ties go by theoretical value.
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

// plies returns the distance d by which root moves of equal value are
// ordered. For none (-1) it returns the most an int holds.
func plies(d int) int {
	if d < 0 {
		return math.MaxInt
	}
	return d
}
