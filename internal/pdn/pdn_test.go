package pdn

import (
	"strings"
	"testing"

	"github.com/dtb-draughts/dtb/draughts"
)

func TestParse(t *testing.T) {
	games, err := Parse(strings.NewReader(`[Event "Test \"match\""]
[White "A"] [Black "B"]
[FEN "W:WK2,6:BK50"]
1. 2-11 {a comment} 50-45 2. 6-1! (2. 11-7 (2. 11-16) 45-50) 45-50?! $2 ; to the end
3. 11-6 50-45 2-0

[FEN "B:WK1:B45,K49"]
1... 49-40 2. 1-6 45x34 *
1. 32-28
`))
	if err != nil {
		t.Fatal(err)
	}
	if len(games) != 3 {
		t.Fatalf("%d games, want 3", len(games))
	}
	g := games[0]
	if g.Tags["Event"] != `Test "match"` || g.Tags["White"] != "A" || g.Start.FEN() != "W:WK2,6:BK50" || g.Line != 1 ||
		strings.Join(g.Moves, " ") != "2-11 50-45 6-1 45-50 11-6 50-45" {
		t.Errorf("game 1: %+v", g)
	}
	if g := games[1]; g.Start.Side != draughts.Black || strings.Join(g.Moves, " ") != "49-40 1-6 45x34" || g.Line != 7 {
		t.Errorf("game 2: %+v", g)
	}
	if g := games[2]; g.Start != draughts.Start() || strings.Join(g.Moves, " ") != "32-28" {
		t.Errorf("game 3: %+v", g)
	}
	for _, c := range []struct{ text, err string }{
		{"", "no game"},
		{`[FEN "W:WK10:BK"] 1. 10-14`, `line 1: FEN "W:WK10:BK"`},
		{"1. 32-28\n2. e4", `line 2: "e4": not a move`},
		{"1. 32-28 (2. 19-23", "line 1: a variation ( ... ) that does not end"},
	} {
		if _, err := Parse(strings.NewReader(c.text)); err == nil || !strings.HasPrefix(err.Error(), c.err) {
			t.Errorf("%q: %v, want %q...", c.text, err, c.err)
		}
	}
}

// FuzzParse parses arbitrary text: no panic, and every game it returns
// has tags and a legal start.
func FuzzParse(f *testing.F) {
	for _, s := range []string{`[FEN "W:WK2,6:BK50"] 1. 2-11 {c} 50-45 (1... 50-44) 2-0`, "1. 32-28 19-23 *", "[A \"b\"", "{", "(((", "1...", "$12 2x7x9"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		games, err := Parse(strings.NewReader(s))
		if err != nil {
			return
		}
		for _, g := range games {
			if g.Tags == nil || g.Start.White&g.Start.Black != 0 {
				t.Fatalf("%q: %+v", s, g)
			}
		}
	})
}
