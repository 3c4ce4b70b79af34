package rules

import (
	"encoding/json"
	"testing"

	"github.com/dtb-draughts/dtb/draughts"
	"github.com/dtb-draughts/dtb/index"
)

func TestClassOf(t *testing.T) {
	classA := map[string]bool{"KKKvK": true, "KKMvK": true, "KMMvK": true, "KvKKK": true, "KvKKM": true, "KvKMM": true}
	classB := map[string]bool{"KvK": true, "KKvK": true, "KMvK": true, "KvKK": true, "KvKM": true}
	for _, m := range index.Materials(6) {
		want := NoClass
		if classA[m.String()] {
			want = ClassA
		} else if classB[m.String()] {
			want = ClassB
		}
		if want == NoClass && m.WhiteKings > 0 && m.BlackKings > 0 {
			want = Rule2
		}
		if got := ClassOf(m); got != want {
			t.Errorf("ClassOf(%v) = %d, want %d", m, got, want)
		}
	}
	if ClassA.Budget() != 32 || ClassB.Budget() != 10 || Rule2.Budget() != 50 || NoClass.Budget() != 0 {
		t.Error("budgets")
	}
}

func TestRulesOutcome(t *testing.T) {
	for _, c := range []struct {
		from, to      Class
		theory, rules Value
		dist          int
		want          Outcome
	}{
		{NoClass, ClassA, Win, Win, 15, Outcome{Win, 0}},    // fresh clock: the rules value
		{ClassA, NoClass, Loss, Loss, -1, Outcome{Loss, 0}}, // clock stops
		{ClassA, ClassA, Win, Win, 31, Outcome{Win, 31}},    // crowning inside A: runs on
		{ClassB, ClassB, Loss, Loss, 4, Outcome{Loss, 4}},   // capture inside B: runs on
		{ClassA, ClassB, Win, Win, 10, Outcome{Win, 10}},    // A to B: capped at 10
		{ClassA, ClassB, Win, Draw, 11, Outcome{Draw, 0}},   // beyond the cap
		{ClassB, ClassB, Win, Draw, -1, Outcome{Draw, 0}},
		{Rule2, Rule2, Win, Win, 45, Outcome{Win, 0}},     // a man move: the count restarts
		{Rule2, Rule2, Win, Draw, 60, Outcome{Draw, 0}},   // drawn with a fresh count
		{Rule2, ClassA, Loss, Loss, 20, Outcome{Loss, 0}}, // into class A: its clock starts
	} {
		e := Entry{Rules: c.rules, Theory: c.theory, Distance: c.dist, DTW: -1}
		if got := e.RulesOutcome(c.from, c.to); got != c.want {
			t.Errorf("RulesOutcome(%+v) = %+v, want %+v", c, got, c.want)
		}
	}
}

func TestKingMoveOutcome(t *testing.T) {
	for _, c := range []struct {
		class Class
		e     Entry
		want  Outcome
	}{
		{Rule2, Entry{Win, Win, 12, 30, 12}, Outcome{Win, 12}}, // the count runs on
		{Rule2, Entry{Draw, Win, 60, 70, 60}, Outcome{Win, 60}},
		{Rule2, Entry{Draw, Win, -1, 70, 60}, Outcome{Draw, 0}},
		{ClassA, Entry{Loss, Loss, 3, 3, -1}, Outcome{Loss, 3}},
		{NoClass, Entry{Win, Win, -1, 9, -1}, Outcome{Win, 0}},
	} {
		if got := c.e.KingMoveOutcome(c.class); got != c.want {
			t.Errorf("%+v.KingMoveOutcome(%v) = %+v, want %+v", c.e, c.class, got, c.want)
		}
	}
}

func TestRulesWith(t *testing.T) {
	for _, c := range []struct {
		e      Entry
		class  Class
		budget int
		want   Value
	}{
		{Entry{Win, Win, 9, 9, -1}, ClassB, 10, Win},     // full clock
		{Entry{Win, Win, 9, 9, -1}, ClassB, 9, Win},      // just enough
		{Entry{Win, Win, 9, 9, -1}, ClassB, 8, Draw},     // too few plies left
		{Entry{Win, Win, 9, 9, -1}, ClassB, -1, Win},     // negative: full
		{Entry{Draw, Win, 33, 35, -1}, ClassA, 40, Draw}, // above the budget: full, drawn
		{Entry{Loss, Loss, 0, 0, -1}, ClassA, 0, Loss},   // no move with no ply left: lost (rule 5)
		{Entry{Loss, Loss, 2, 2, -1}, ClassA, 1, Draw},
		{Entry{Draw, Draw, -1, -1, -1}, ClassA, 5, Draw},
		{Entry{Win, Win, -1, 7, -1}, NoClass, 0, Win}, // no clock
		{Entry{Win, Win, 30, 40, 30}, Rule2, 30, Win}, // 20 plies on the count
		{Entry{Win, Win, 30, 40, 30}, Rule2, 29, Draw},
		{Entry{Draw, Win, 55, 60, 55}, Rule2, 50, Draw}, // cursed by rule 2
	} {
		if got := c.e.RulesWith(c.class, c.budget); got != c.want {
			t.Errorf("%+v.RulesWith(%d, %d) = %v, want %v", c.e, c.class, c.budget, got, c.want)
		}
	}
}

func TestNewEntry(t *testing.T) {
	for _, c := range []struct {
		class         Class
		theory, rules Outcome
		want          Entry
	}{
		{NoClass, Outcome{Win, 40}, Outcome{Win, 0}, Entry{Win, Win, -1, 40, -1}},
		{NoClass, Outcome{Draw, 0}, Outcome{Draw, 0}, Entry{Draw, Draw, -1, -1, -1}},
		{ClassA, Outcome{Win, 31}, Outcome{Win, 31}, Entry{Win, Win, 31, 31, -1}},
		{ClassA, Outcome{Win, 35}, Outcome{Win, 33}, Entry{Draw, Win, 33, 35, -1}}, // beyond the budget: drawn, distance kept
		{ClassB, Outcome{Loss, 12}, Outcome{Loss, 11}, Entry{Draw, Loss, 11, 12, -1}},
		{ClassB, Outcome{Loss, 10}, Outcome{Loss, 10}, Entry{Loss, Loss, 10, 10, -1}},
		{Rule2, Outcome{Win, 70}, Outcome{Win, 50}, Entry{Win, Win, 50, 70, -1}},
		{Rule2, Outcome{Win, 70}, Outcome{Win, 51}, Entry{Draw, Win, 51, 70, -1}},        // the 25-move rule draws it
		{Rule2, Outcome{Loss, 400}, Outcome{Loss, 300}, Entry{Draw, Loss, 254, 400, -1}}, // distance capped
	} {
		if got := NewEntry(c.class, c.theory, c.rules); got != c.want {
			t.Errorf("NewEntry(%+v) = %+v, want %+v", c, got, c.want)
		}
		want := c.want // a capture position: every move converts
		if want.Theory != Draw {
			want.MTC = 1
		}
		if got := captureEntry(c.class, c.theory, c.rules); got != want {
			t.Errorf("capture entry of %+v = %+v, want %+v", c, got, want)
		}
	}
}

// captureEntry returns the entry that Moves gives a capture position
// of class c with two moves, to positions whose outcomes for their side to
// move make theory and rules the outcomes of the position.
func captureEntry(c Class, theory, rules Outcome) Entry {
	cs := NewMoves(c)
	cs.AddConversion(successor(theory), successor(rules))
	cs.AddConversion(Outcome{Value: Win, Dist: 0}, Outcome{Value: Win, Dist: 0}) // a move that loses at once
	return cs.Entry()
}

// successor returns the outcome, for its side to move, of a position that
// a move of outcome o reaches: a win becomes a loss and the other way
// round, one ply closer (a win at 0, without a clock, stays at 0).
func successor(o Outcome) Outcome {
	switch o.Value {
	case Win:
		return Outcome{Value: Loss, Dist: max(o.Dist-1, 0)}
	case Loss:
		return Outcome{Value: Win, Dist: o.Dist - 1}
	}
	return o
}

func TestLocate(t *testing.T) {
	p, _ := draughts.ParseFEN("B:WK10,30:BK5")
	m := MaterialOf(&p)
	if m.String() != "KvKM" {
		t.Errorf("material %v, want KvKM", m)
	}
	x := index.New(m)
	q := Position(x.Unrank(x.Rank(Placement(&p))))
	if q != p.Flip() {
		t.Errorf("round trip gives %s, want %s", q.FEN(), p.Flip().FEN())
	}
}

func TestValue(t *testing.T) {
	if Win.Neg() != Loss || Draw.Neg() != Draw {
		t.Error("Neg")
	}
	b, err := json.Marshal(Entry{Rules: Draw, Theory: Win, Distance: 33, DTW: -1, MTC: 12})
	if want := `{"rules":"draw","theory":"win","distance":33,"dtw":null,"mtc":12}`; err != nil || string(b) != want {
		t.Errorf("entry JSON %s, %v; want %s", b, err, want)
	}
	var e Entry
	if err := json.Unmarshal(b, &e); err != nil || e != (Entry{Draw, Win, 33, -1, 12}) {
		t.Errorf("entry round trip %+v, %v", e, err)
	}
	if err := json.Unmarshal([]byte(`"won"`), new(Value)); err == nil {
		t.Error(`value "won" accepted`)
	}
}
