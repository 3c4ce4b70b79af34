package draughts

import (
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestRuleBookMoves checks the complete move lists of the rule-book
// diagrams in testdata/rule-moves.tsv.
func TestRuleBookMoves(t *testing.T) {
	for _, cols := range readReference(t, "rule-moves.tsv", 3) {
		p, err := ParseFEN(cols[0])
		if err != nil {
			t.Fatal(err)
		}
		want := strings.Fields(cols[1])
		var got []string
		for _, m := range p.Moves(nil) {
			if strings.HasPrefix(cols[2], "king range") {
				got = append(got, strconv.Itoa(m.ToSquare()))
			} else {
				got = append(got, p.Notation(m))
			}
		}
		slices.Sort(got)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Errorf("%s (%s): moves %v, want %v", cols[0], cols[2], got, want)
		}
	}
}

// TestAmbiguousCaptureNotation checks the landing-square notation where two
// captures share their from and to squares, and that every notation parses
// back to its move.
func TestAmbiguousCaptureNotation(t *testing.T) {
	for _, c := range []struct {
		fen  string
		want []string
	}{
		// The man on 42 reaches 24 over 37 and 27 or over 38 and 28.
		{"W:W42:B18,19,27,28,37,38", []string{"42x31x22x13x24", "42x33x22x13x24", "42x42"}},
		// The king on 6 reaches 25 over 12 or over 23.
		{"W:WK6:B11,12,20,23", []string{"6x17x3x25", "6x28x14x25"}},
	} {
		p, err := ParseFEN(c.fen)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, m := range p.Moves(nil) {
			n := p.Notation(m)
			got = append(got, n)
			back, err := p.ParseMove(n)
			if err != nil || back != m {
				t.Errorf("%s: ParseMove(%s) = %v, %v; want %v", c.fen, n, back, err, m)
			}
		}
		slices.Sort(got)
		if !slices.Equal(got, c.want) {
			t.Errorf("%s: notations %v, want %v", c.fen, got, c.want)
		}
	}
}
