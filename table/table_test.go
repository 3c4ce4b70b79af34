package table

import (
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
		if got := ClassOf(m); got != want {
			t.Errorf("ClassOf(%v) = %d, want %d", m, got, want)
		}
	}
	if ClassA.Budget() != 32 || ClassB.Budget() != 10 || NoClass.Budget() != 0 {
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
		{NoClass, ClassA, Win, Win, 15, Outcome{Win, 0}},            // fresh clock: the rules value
		{ClassA, NoClass, Loss, Loss, NoDistance, Outcome{Loss, 0}}, // clock stops
		{ClassA, ClassA, Win, Win, 31, Outcome{Win, 31}},            // crowning inside A: runs on
		{ClassB, ClassB, Loss, Loss, 4, Outcome{Loss, 4}},           // capture inside B: runs on
		{ClassA, ClassB, Win, Win, 10, Outcome{Win, 10}},            // A to B: capped at 10
		{ClassA, ClassB, Win, Draw, 11, Outcome{Draw, 0}},           // beyond the cap
		{ClassB, ClassB, Win, Draw, NoDistance, Outcome{Draw, 0}},
	} {
		if got := RulesOutcome(c.from, c.to, c.theory, c.rules, c.dist); got != c.want {
			t.Errorf("RulesOutcome(%+v) = %+v, want %+v", c, got, c.want)
		}
	}
}

func TestPackValues(t *testing.T) {
	for _, th := range []Value{Loss, Draw, Win} {
		for _, ru := range []Value{Loss, Draw, Win} {
			a, b, ok := UnpackValues(PackValues(th, ru))
			if a != th || b != ru || !ok {
				t.Errorf("round trip of %v %v", th, ru)
			}
		}
	}
	if _, _, ok := UnpackValues(0x0f); ok {
		t.Error("UnpackValues accepts value 3")
	}
	if Win.Neg() != Loss || Draw.Neg() != Draw {
		t.Error("Neg")
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
