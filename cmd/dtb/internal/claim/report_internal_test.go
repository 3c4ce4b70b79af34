package claim

import (
	"strings"
	"testing"

	"github.com/dtb-draughts/dtb/draughts"
	"github.com/dtb-draughts/dtb/index"
	"github.com/dtb-draughts/dtb/rules"
)

// TestRule2ClaimAnswer checks the wording of the rule-2 claim on made-up
// results: the 4-piece tables of the tests have no such position, and
// the 6-piece ones it asks about are not built by the tests.
func TestRule2ClaimAnswer(t *testing.T) {
	i := len(knownClaims) - 1
	c := knownClaims[i]
	if c.title != "Wins the 25-move rule draws" {
		t.Fatalf("last claim %q", c.title)
	}
	m, _ := index.ParseMaterial("KKKMvKM")
	p, err := draughts.ParseFEN("W:WK1,K2,K3,40:BK50,11")
	if err != nil {
		t.Fatal(err)
	}
	long := &Example{Position: p, Entry: rules.Entry{Rules: rules.Draw, Theory: rules.Win, Distance: 57, DTW: 70, MTC: 57}}
	short := Example{Position: p.Flip(), Entry: rules.Entry{Rules: rules.Draw, Theory: rules.Loss, Distance: 52, DTW: 60, MTC: 52}}
	w := Row{Material: m, Side: draughts.White, Class: rules.Rule2, Distance: true, Positions: 2}
	w.Rules.Draw, w.Theory.Win = 2, 2
	w.Longest[draughts.White].Distance = long
	b := Row{Material: m, Side: draughts.Black, Class: rules.Rule2, Distance: true, Positions: 1}
	b.Rules.Draw, b.Theory.Loss = 1, 1
	b.Longest[draughts.Black].Distance = &short
	text, ex := c.answer([]*Result{{Rows: []Row{w, b}, Examples: []Example{short}}})
	for _, want := range []string{"3 positions: 2 theoretical wins of White and 1 of Black", "more than 50 plies",
		"KKKMvKM with White to move: White 2, Black 0; KKKMvKM with Black to move: White 0, Black 1",
		"longest, by rule-2 distance: `W:WK1,K2,K3,40:B11,K50`"} {
		if !strings.Contains(text, want) {
			t.Errorf("answer %q lacks %q", text, want)
		}
	}
	if ex != long {
		t.Errorf("example %+v, want the longest", ex)
	}
	text, ex = c.answer([]*Result{{Rows: []Row{{Material: m, Class: rules.Rule2}}}})
	if !strings.HasPrefix(text, "None:") || ex != nil {
		t.Errorf("answer without positions: %q, %v", text, ex)
	}
}
