package draughts

import (
	"math/bits"
	"strings"
	"testing"
)

func TestParseFEN(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"W:W31-50:B1-20", Start().FEN()},
		{"B:WK4,28:B12,K45.", "B:WK4,28:B12,K45"},
		{"B:BK45,12:W28,K4", "B:WK4,28:B12,K45"},
		{" w : w 28 , k4 : b 12, k 45 . ", "W:WK4,28:B12,K45"},
		{"W:WK28", "W:WK28:B"},
		{"W:WK1-3", "W:WK1,K2,K3:B"},
		{"B", "B:W:B"},
	} {
		p, err := ParseFEN(c.in)
		if err != nil {
			t.Errorf("ParseFEN(%q): %v", c.in, err)
			continue
		}
		if got := p.FEN(); got != c.want {
			t.Errorf("ParseFEN(%q).FEN() = %q, want %q", c.in, got, c.want)
		}
	}
	if got := Start().FEN(); got != "W:W31,32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50:B1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20" {
		t.Errorf("start FEN %s", got)
	}
}

func TestParseFENErrors(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"", "expected side to move W or B, found the end at column 1"},
		{"X:W1", "expected side to move W or B, found 'X' at column 1"},
		{"W:W31,51", "square 51 out of range 1..50 at column 7"},
		{"W:W0", "square 0 out of range 1..50 at column 4"},
		{"W:W31,31", "square 31 given twice at column 7"},
		{"W:W31:B31", "square 31 given twice at column 8"},
		{"W:W3", "White man on square 3, its crowning row at column 4"},
		{"W:B48", "Black man on square 48, its crowning row at column 4"},
		{"W:W1-50", "White man on square 1, its crowning row"},
		{"W:WK1-21", "White has 21 pieces, more than 20"},
		{"W:W10-5", "range 10-5 runs backwards"},
		{"W:W31:W32", "White pieces given twice at column 7"},
		{"W:W31;B1", "expected ':' or the end, found ';' at column 6"},
		{"W:W31,", "expected a square number, found the end at column 7"},
		{"W:WK", "expected a square number, found the end"},
		{"W:W99999999999999999999", "square 99999999999999999999 out of range"},
		{"W:W28,32:B23\x00:B5,6,7", `expected ':' or the end, found '\x00' at column 13`}, // a NUL is no end
		{"W:W28\x00", `expected ':' or the end, found '\x00' at column 6`},
		{"W:\x00", `expected colour W or B, found '\x00' at column 3`},
	} {
		_, err := ParseFEN(c.in)
		if err == nil {
			t.Errorf("ParseFEN(%q): no error, want %q", c.in, c.want)
		} else if !strings.Contains(err.Error(), c.want) {
			t.Errorf("ParseFEN(%q): %v, want %q", c.in, err, c.want)
		}
	}
}

func TestSquareSetAndFlip(t *testing.T) {
	for s := 1; s <= 50; s++ {
		if FromSquareSet(SquareSet(Bit(s))) != Bit(s) || SquareSet(Bit(s)) != 1<<(s-1) {
			t.Errorf("square set conversion of %d", s)
		}
	}
	p := Start()
	if f := p.Flip(); f.White != p.White || f.Black != p.Black || f.Side != Black {
		t.Errorf("flip of the start position: %s", f.FEN())
	}
	if bits.OnesCount64(Board) != 50 {
		t.Errorf("Board has %d squares", bits.OnesCount64(Board))
	}
}

func FuzzParseFEN(f *testing.F) {
	for _, s := range []string{"W:W31-50:B1-20", "B:WK4,28:B12,K45.", "W:WK28", "B:B1-3:W50", "W:W3"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		p, err := ParseFEN(s)
		if err != nil {
			return
		}
		q, err := ParseFEN(p.FEN())
		if err != nil || q != p {
			t.Fatalf("%q: FEN %q parses to %v, %v", s, p.FEN(), q, err)
		}
		if p.White&p.Black != 0 || p.Kings&^(p.White|p.Black) != 0 || (p.White|p.Black)&^Board != 0 {
			t.Fatalf("%q: inconsistent bitboards %+v", s, p)
		}
	})
}
