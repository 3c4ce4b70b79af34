package probe_test

import (
	"testing"

	"github.com/dtb-draughts/dtb/index"
	"github.com/dtb-draughts/dtb/internal/tabletest"
	"github.com/dtb-draughts/dtb/internal/testenv"
	"github.com/dtb-draughts/dtb/probe"
	"github.com/dtb-draughts/dtb/rules"
)

// TestRootMoveClocks checks that each root move's Clocks are those under
// which the position after it has the move's value: probed with them, it
// is worth to its side to move the negation of the move's Value; in the
// class B tables under every class clock and in the rule-2 set under
// rule-2 counts (where the position's own clock has run out, every move
// is a draw instead).
func TestRootMoveClocks(t *testing.T) {
	for _, c := range []struct {
		dir       string
		materials []string
		clocks    func(k int) probe.Clocks
	}{
		{tabletest.Golden, []string{"KKvK", "KMvK", "KvKM"}, func(k int) probe.Clocks { return probe.Clocks{Class: k % 12} }},
		{rule2Dir(t), []string{"KKvKK", "KMvKK"}, func(k int) probe.Clocks { return probe.Clocks{Rule2: k % 52} }},
	} {
		tables := open(t, c.dir)
		n := 0
		for _, name := range c.materials {
			m, _ := index.ParseMaterial(name)
			x := index.New(m)
			for i := int64(0); i < x.Size(); i += testenv.Stride(31, 331) {
				p, cl := rules.Position(x.Unrank(i)), c.clocks(int(i))
				root, err := tables.Probe(p, cl, 0)
				if err != nil {
					t.Fatal(err)
				}
				played := map[rules.Class]int{rules.ClassA: cl.Class, rules.ClassB: cl.Class, rules.Rule2: cl.Rule2}[root.Class]
				over := root.Class != rules.NoClass && played >= root.Class.Budget()
				moves, err := tables.RootMoves(p, cl)
				if err != nil {
					t.Fatal(err)
				}
				for _, m := range moves {
					r, err := tables.Probe(p.Play(m.Move), m.Clocks, 0)
					if err != nil {
						t.Fatal(err)
					}
					if r.Value.Neg() != m.Value && !over {
						t.Fatalf("%s %+v, %s: after it, with %+v, %v; the move's value %v", p.FEN(), cl, p.Notation(m.Move), m.Clocks, r.Value, m.Value)
					}
					n++
				}
			}
		}
		if n < 1000 {
			t.Errorf("%s: %d moves checked", c.dir, n)
		}
	}
}
