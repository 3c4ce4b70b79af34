package pdn

import (
	"reflect"
	"slices"
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
	wantTags := []Tag{{"Event", `Test "match"`}, {"White", "A"}, {"Black", "B"}, {"FEN", "W:WK2,6:BK50"}}
	if !slices.Equal(g.Tags, wantTags) || g.Start.FEN() != "W:WK2,6:BK50" || g.Line != 1 ||
		strings.Join(g.Moves, " ") != "2-11 50-45 6-1 45-50 11-6 50-45" || g.Result != "2-0" {
		t.Errorf("game 1: %+v", g)
	}
	if g := games[1]; g.Start.Side != draughts.Black || strings.Join(g.Moves, " ") != "49-40 1-6 45x34" || g.Line != 7 || g.Result != "*" {
		t.Errorf("game 2: %+v", g)
	}
	if g := games[2]; g.Start != draughts.Start() || strings.Join(g.Moves, " ") != "32-28" || g.Result != "" || g.Tags != nil {
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

// roster is a file of two games with the Seven Tag Roster and GameType,
// as FMJD's tools and pydraughts write it: a blank line between the tags
// and the move text, the result after the moves.
const roster = `[Event "Open \\ \"Ouverture\""]
[Site "Wijk"]
[Date "2024.06.01"]
[Round "3"]
[White "Sijbrands, T."]
[Black "Schwarzman, A."]
[Result "1-1"]
[GameType "20"]

1. 32-28 19-23 2. 28x19 14x23 1-1

[Event "Endgame"]
[Site "?"]
[Date "????.??.??"]
[Round "-"]
[White "A"]
[Black "B"]
[Result "2-0"]
[GameType "20"]
[FEN "B:WK1:B45,K49"]

1... 49-40 2. 1-6 45x34 2-0

`

// TestWrite writes games as PDN and reads them back: the tags in their
// order, the blank line after them, the numbered moves, the comments and
// the result are those of the file.
func TestWrite(t *testing.T) {
	games, err := Parse(strings.NewReader(roster))
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, g := range games {
		if err := g.Write(&b, nil); err != nil {
			t.Fatal(err)
		}
	}
	if b.String() != roster {
		t.Errorf("written:\n%s\nwant:\n%s", b.String(), roster)
	}
	again, err := Parse(strings.NewReader(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	for i := range games {
		again[i].Line = games[i].Line
		if !reflect.DeepEqual(again[i], games[i]) {
			t.Errorf("game %d read back: %+v, want %+v", i+1, again[i], games[i])
		}
	}
	// A result from the Result tag alone, comments before the first move
	// and after White's, whose Black move is numbered again.
	g := Game{Tags: []Tag{{"Result", "0-2"}}, Start: draughts.Start(), Moves: []string{"32-28", "19-23", "28x19"}}
	b.Reset()
	if err := g.Write(&b, map[int]string{0: "start", 1: "a comment"}); err != nil {
		t.Fatal(err)
	}
	if want := "[Result \"0-2\"]\n\n{start} 1. 32-28 {a comment} 1... 19-23 2. 28x19 0-2\n\n"; b.String() != want {
		t.Errorf("written %q, want %q", b.String(), want)
	}
	b.Reset()
	if err := (&Game{Start: draughts.Start()}).Write(&b, nil); err != nil || b.String() != "*\n\n" {
		t.Errorf("an empty game: %q (%v), want *", b.String(), err)
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
			if g.Start.White&g.Start.Black != 0 {
				t.Fatalf("%q: %+v", s, g)
			}
		}
	})
}
