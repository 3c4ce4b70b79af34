package rules

import "encoding/json"

// Entry is what a table says of a position, from the side to move's point
// of view.
type Entry struct {
	Rules  Value // under the rules, clocks as they stand when the material arose
	Theory Value // when only repetition draws
	// Distance is the least budget in plies under which the position is
	// won (or lost), where its material has a clock (see Class). It is -1
	// for a position drawn under every budget, or without a clock. It is
	// at most MaxDistance.
	Distance int
	// DTW is the theoretical number of plies until the loser has no move;
	// -1 for a draw or where the table has no dtw column.
	DTW int
	// MTC (moves to conversion) is the number of plies until the next man
	// move or capture in a theoretical win or loss. The winner converts as
	// soon as it can while keeping the win; the loser delays it. It is 0
	// where the loser has no move, -1 for a draw or without an mtc column.
	MTC int
}

// MaxDistance is the longest class distance an entry holds: a longer one
// is this.
const MaxDistance = 254

// NewEntry returns the entry of a position of class c from its outcomes.
// The theoretical outcome's distance is the dtw. The rules outcome's
// distance is that of c's clock, if c has one. A win or loss beyond c's
// budget is a draw under the rules; its distance is kept for clocks that
// start lower. The mtc is left out (-1).
func NewEntry(c Class, theory, rules Outcome) Entry {
	e := Entry{Theory: theory.Value, DTW: theory.DTW(), MTC: -1}
	e.Rules, e.Distance = c.Rules(rules)
	return e
}

// Moves computes the entry of a position of class c from its moves. The
// generator solves positions so, and the prober and the verifier
// recompute them so. The winner chooses the shortest win, the loser the
// longest loss (see Minimax), under the rules as in theory. A quiet king
// move keeps the clock running (AddKingMove). A capture or man move
// converts (AddConversion). Capture positions, which a table file holds
// as don't-cares, are resolved this way too.
type Moves struct {
	class              Class
	theory, rules, mtc Minimax
}

// NewMoves returns the moves of a position of class c before any is
// added.
func NewMoves(c Class) Moves { return Moves{class: c} }

// Add adds a move whose successor has the outcomes theory, rules (seen
// through the clock the move carries: Entry.KingMoveOutcome,
// Entry.RulesOutcome) and mtc (Entry.MTCOutcome, Entry.ConversionOutcome).
func (m *Moves) Add(theory, rules, mtc Outcome) {
	m.theory.Add(theory)
	m.rules.Add(rules)
	m.mtc.Add(mtc)
}

// AddKingMove adds a quiet king move to a successor with entry e.
func (m *Moves) AddKingMove(e Entry) {
	m.Add(e.TheoryOutcome(), e.KingMoveOutcome(m.class), e.MTCOutcome())
}

// AddConversion adds a capture or man move to a successor of outcomes
// theory and rules, the latter seen from the class of the position (see
// Entry.RulesOutcome).
func (m *Moves) AddConversion(theory, rules Outcome) {
	m.Add(theory, rules, Outcome{Value: theory.Value})
}

// Won reports whether the moves so far win in theory and under the
// rules: no further move changes the values, only the distances.
func (m *Moves) Won() bool { return m.theory.win > 0 && m.rules.win > 0 }

// Values returns the values of the moves so far, in theory and under the
// rules: a loss before any move. Each further move can only raise them.
func (m *Moves) Values() (theory, rules Value) {
	return m.theory.Outcome().Value, m.rules.Outcome().Value
}

// Entry returns the entry of the position, its mtc from the moves (1 ply
// in a capture position won or lost: every move converts).
func (m *Moves) Entry() Entry {
	e := NewEntry(m.class, m.theory.Outcome(), m.rules.Outcome())
	if o := m.mtc.Outcome(); o.Value != Draw {
		e.MTC = o.Dist
	}
	return e
}

// DTW returns the dtw of a position of theoretical outcome o: its
// distance, -1 for a draw.
func (o Outcome) DTW() int {
	if o.Value == Draw {
		return -1
	}
	return o.Dist
}

// Rules returns the value under the rules and the class distance (-1 for
// none) of a position of class c whose outcome under the rules is o (see
// NewEntry).
func (c Class) Rules(o Outcome) (Value, int) {
	if c == NoClass || o.Value == Draw {
		return o.Value, -1
	}
	v := o.Value
	if o.Dist > c.Budget() {
		v = Draw
	}
	return v, min(o.Dist, MaxDistance)
}

// TheoryOutcome returns the theoretical outcome of e, its distance the
// dtw (0 when unknown).
func (e Entry) TheoryOutcome() Outcome { return Outcome{Value: e.Theory, Dist: max(e.DTW, 0)} }

// RulesOutcome returns the outcome under the rules of a successor with
// entry e and class to, seen from a position of class from after a
// capture or a man move. A clock that runs on, inside class A or inside
// class B, keeps the successor's distance. A clock that drops from A to
// B carries min(budget-1, 10), so only distances up to 10 count. In any
// other case the successor starts afresh (the rule-2 count too), and its
// rules value holds at distance 0.
func (e Entry) RulesOutcome(from, to Class) Outcome {
	if !from.Carries() || !to.Carries() {
		return Outcome{Value: e.Rules}
	}
	if e.Distance < 0 || from == ClassA && to == ClassB && e.Distance > ClassB.Budget() {
		return Outcome{Value: Draw}
	}
	return Outcome{Value: e.Theory, Dist: e.Distance}
}

// Rule2Cursed reports whether rule 2 itself turns e, the entry of a
// position of class c, from a theoretical win or loss into a draw. That
// is so where c is Rule2 and the rule-2 distance exceeds Rule2Plies: even
// a fresh count runs out first.
func (e Entry) Rule2Cursed(c Class) bool {
	return c == Rule2 && e.Theory != Draw && e.Distance > Rule2Plies
}

// KingMoveOutcome returns the outcome under the rules of a successor with
// entry e after a quiet king move from a position of class c, which stays
// in c: its clock runs on, so the successor's distance counts.
func (e Entry) KingMoveOutcome(c Class) Outcome {
	switch {
	case c == NoClass:
		return Outcome{Value: e.Rules}
	case e.Distance < 0:
		return Outcome{Value: Draw}
	}
	return Outcome{Value: e.Theory, Dist: e.Distance}
}

// ConversionOutcome returns the theoretical outcome of e as the successor
// of a capture or man move, counted for the mtc: its value at distance 0.
func (e Entry) ConversionOutcome() Outcome { return Outcome{Value: e.Theory} }

// MTCOutcome returns the theoretical outcome of e as the successor of a
// king move, counted for the mtc: its value at its mtc (0 when unknown).
func (e Entry) MTCOutcome() Outcome { return Outcome{Value: e.Theory, Dist: max(e.MTC, 0)} }

// RulesWith returns the value under the rules of a position of class c
// with entry e when its clock has budget plies left (for Rule2, 50 minus
// the plies on the count). With at least d plies left, a position at
// distance d has its theoretical value; with fewer it is drawn
// (docs/rules.md). A negative budget, or c's full budget or more, is a
// full clock, and the value is e.Rules. So it is without a clock.
func (e Entry) RulesWith(c Class, budget int) Value {
	if c == NoClass || budget < 0 || budget >= c.Budget() {
		return e.Rules
	}
	if e.Distance >= 0 && e.Distance <= budget {
		return e.Theory
	}
	return Draw
}

// entryJSON is the JSON form of an Entry: missing distances are null.
type entryJSON struct {
	Rules    Value `json:"rules"`
	Theory   Value `json:"theory"`
	Distance *int  `json:"distance"`
	DTW      *int  `json:"dtw"`
	MTC      *int  `json:"mtc"`
}

// MarshalJSON writes e as
// {"rules":"win","theory":"win","distance":3,"dtw":null,"mtc":null}.
func (e Entry) MarshalJSON() ([]byte, error) {
	return json.Marshal(entryJSON{e.Rules, e.Theory, orNull(e.Distance), orNull(e.DTW), orNull(e.MTC)})
}

// UnmarshalJSON reads what MarshalJSON writes.
func (e *Entry) UnmarshalJSON(b []byte) error {
	var j entryJSON
	if err := json.Unmarshal(b, &j); err != nil {
		return err
	}
	*e = Entry{Rules: j.Rules, Theory: j.Theory, Distance: orMissing(j.Distance), DTW: orMissing(j.DTW), MTC: orMissing(j.MTC)}
	return nil
}

func orNull(n int) *int {
	if n < 0 {
		return nil
	}
	return &n
}

func orMissing(n *int) int {
	if n == nil {
		return -1
	}
	return *n
}
