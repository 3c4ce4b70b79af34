package table

import (
	"bytes"
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

func TestColumns(t *testing.T) {
	m, _ := index.ParseMaterial("KKvK")
	c := MakeColumns(m, 3, Extra{DTW: true, MTC: true})
	entries := []Entry{{Win, Win, 7, 7, 3}, {Draw, Loss, -1, 20, 20}, {Draw, Draw, -1, -1, -1}}
	for i, e := range entries {
		c.Set(int64(i), e)
	}
	for i, want := range entries {
		if got, ok := c.Entry(int64(i)); got != want || !ok {
			t.Errorf("entry %d = %+v, %v; want %+v", i, got, ok, want)
		}
	}
	c.copyEntry(2, 0)
	c[ValueColumn][2] = byte(Draw) | byte(Draw)<<2 // a draw over a win's bytes
	if got, ok := c.Entry(2); got != entries[2] || !ok {
		t.Errorf("a draw with a win's distance bytes = %+v, %v; want %+v", got, ok, entries[2])
	}
	c[ValueColumn][0] = 0x0f // rules value 3
	if _, ok := c.Entry(0); ok {
		t.Error("Entry accepts value 3")
	}
	if Win.Neg() != Loss || Draw.Neg() != Draw {
		t.Error("Neg")
	}
	m, _ = index.ParseMaterial("KKKKvM")
	if c := MakeColumns(m, 1, Extra{}); c.Has(DistanceColumn) || c.Has(DTWColumn) || c.Has(MTCColumn) || !c.Has(ValueColumn) {
		t.Error("KKKKvM: want the value column alone")
	}
	m, _ = index.ParseMaterial("KKKKvK") // rule 2: both sides have a king
	if c := MakeColumns(m, 1, Extra{MTC: true}); !c.Has(DistanceColumn) || c.Has(DTWColumn) || !c.Has(MTCColumn) {
		t.Error("KKKKvK: want the value, distance and mtc columns")
	}
}

// TestSetOutcomes checks that SetOutcomes writes the bytes of Set of the
// entry NewEntry makes, and that Values reads the values Entry does, in
// every layout.
func TestSetOutcomes(t *testing.T) {
	dists := []int{0, 9, 10, 11, 32, 33, 50, 51, 253, 254, 300}
	for _, name := range []string{"KKKvMMM", "KKKvK", "KKvK", "KKKvKM"} {
		m, _ := index.ParseMaterial(name)
		class := ClassOf(m)
		for _, extra := range []Extra{{}, {DTW: true}, {MTC: true}, {DTW: true, MTC: true}} {
			set, got := MakeColumns(m, 1, extra), MakeColumns(m, 1, extra)
			for _, v := range []Value{Loss, Draw, Win} {
				for _, d := range dists {
					for _, rd := range dists {
						theory, rules := Outcome{v, d}, Outcome{v, rd}
						if v != Draw && rd%2 == 1 {
							rules.Value = Draw // as a clock has it
						}
						set.Set(0, NewEntry(class, theory, rules))
						got.SetOutcomes(0, class, theory, rules)
						for col := range NumColumns {
							if !bytes.Equal(set[col], got[col]) {
								t.Fatalf("%s %+v: SetOutcomes(%v, %v) wrote %v in column %v, Set of NewEntry %v", name, extra, theory, rules, got[col], col, set[col])
							}
						}
						e, _ := got.Entry(0)
						if th, ru := got.Values(0); th != e.Theory || ru != e.Rules {
							t.Fatalf("%s: Values = %v, %v; Entry %+v", name, th, ru, e)
						}
					}
				}
			}
		}
	}
}

func TestJSON(t *testing.T) {
	b, err := json.Marshal(Entry{Rules: Draw, Theory: Win, Distance: 33, DTW: -1, MTC: 12})
	if want := `{"rules":"draw","theory":"win","distance":33,"dtw":null,"mtc":12}`; err != nil || string(b) != want {
		t.Errorf("entry JSON %s, %v; want %s", b, err, want)
	}
	var e Entry
	if err := json.Unmarshal(b, &e); err != nil || e != (Entry{Draw, Win, 33, -1, 12}) {
		t.Errorf("entry round trip %+v, %v", e, err)
	}
	b, _ = json.Marshal(Counts{Loss: 1, Draw: 2, Win: 3})
	if want := `{"win":3,"draw":2,"loss":1}`; string(b) != want {
		t.Errorf("counts JSON %s, want %s", b, want)
	}
	for _, in := range []string{`{"win":3,"draw":2,"loss":1}`, `[1,2,3]`} {
		var c Counts
		if err := json.Unmarshal([]byte(in), &c); err != nil || c != (Counts{1, 2, 3}) {
			t.Errorf("counts from %s: %v, %v", in, c, err)
		}
	}
	if err := json.Unmarshal([]byte(`"won"`), new(Value)); err == nil {
		t.Error(`value "won" accepted`)
	}
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

// TestRule2Cursed checks which entries rule 2 itself turns into draws,
// and that Stats counts them by side.
func TestRule2Cursed(t *testing.T) {
	var s Stats
	for _, c := range []struct {
		class Class
		e     Entry
		want  bool
	}{
		{Rule2, Entry{Draw, Win, 51, 70, 51}, true},
		{Rule2, Entry{Draw, Loss, 254, 400, 300}, true},
		{Rule2, Entry{Win, Win, 50, 70, 50}, false},   // the fresh count suffices
		{Rule2, Entry{Draw, Win, -1, 70, 3}, false},   // drawn by a later clock, not by the count
		{Rule2, Entry{Draw, Draw, -1, -1, -1}, false}, // a draw
		{ClassA, Entry{Draw, Win, 60, 60, 60}, false}, // not rule 2
		{NoClass, Entry{Win, Win, -1, 90, 80}, false},
	} {
		if got := c.e.Rule2Cursed(c.class); got != c.want {
			t.Errorf("%+v.Rule2Cursed(%v) = %v, want %v", c.e, c.class, got, c.want)
		}
		s.Add(c.class, c.e, false, func() string { return "fen" })
	}
	if s.Rule2CursedWins != 1 || s.Rule2BlessedLosses != 1 || s.CursedWins != 3 || s.BlessedLosses != 1 || s.LongestMTC != 80 {
		t.Errorf("stats %+v: want 1 rule-2 cursed win, 1 rule-2 blessed loss, 3 cursed wins, 1 blessed loss, longest mtc 80", s)
	}
}
