package draughts

import (
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"
)

const startHub = "Wbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwww"

func TestParseHub(t *testing.T) {
	for _, c := range []struct{ hub, fen string }{
		{startHub, "W:W31-50:B1-20"},
		// Scan's protocol text, a position with a few moves.
		{"BeeeWWeeeeeeeeeeeeeeeeeeeweeeeeeeeewweBeeeeeeeeeBee", "B:WK4,K5,25,35,36:BK38,K48"},
		{"W" + strings.Repeat("e", 50), "W:W:B"},
		{" Beeeeeeeeebeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeew\n", "B:W50:B10"},
	} {
		p, err := ParseHub(c.hub)
		if err != nil {
			t.Errorf("ParseHub(%q): %v", c.hub, err)
			continue
		}
		want, err := ParseFEN(c.fen)
		if err != nil {
			t.Fatal(err)
		}
		if p != want {
			t.Errorf("ParseHub(%q) = %s, want %s", c.hub, p.FEN(), want.FEN())
		}
		if got := p.Hub(); got != strings.TrimSpace(c.hub) {
			t.Errorf("%s: Hub() = %q, want %q", c.fen, got, strings.TrimSpace(c.hub))
		}
	}
	if got := Start().Hub(); got != startHub {
		t.Errorf("start Hub %q", got)
	}
}

func TestParseHubErrors(t *testing.T) {
	empty := strings.Repeat("e", 50)
	for _, c := range []struct{ in, want string }{
		{"", `Hub position "": empty: want the side to move W or B, then 50 squares`},
		{"X" + empty, `side to move 'X': want W or B`},
		{"w" + empty, `side to move 'w': want W or B`},
		{"W" + empty[1:], "49 squares after the side to move, want 50"},
		{"W" + empty + "e", "51 squares after the side to move, want 50"},
		{"W" + empty[:3] + "x" + empty[4:], `square 4 is 'x': want w, b, W, B or e`},
		{"W" + empty[:3] + " " + empty[4:], `square 4 is ' ': want w, b, W, B or e`},
		{"Ww" + empty[1:], "White man on square 1, its crowning row"},
		{"W" + empty[1:] + "b", "Black man on square 50, its crowning row"},
		{"W" + strings.Repeat("W", 21) + empty[21:], "White has 21 pieces, more than 20"},
	} {
		_, err := ParseHub(c.in)
		if err == nil {
			t.Errorf("ParseHub(%q): no error, want %q", c.in, c.want)
		} else if !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), "Hub position ") || strings.Contains(err.Error(), "\n") {
			t.Errorf("ParseHub(%q): %v, want %q", c.in, err, c.want)
		}
	}
}

func TestParsePosition(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"W:W31-50:B1-20", Start().FEN()},
		{startHub, Start().FEN()},
		{"  " + startHub + " ", Start().FEN()},
		{"B", "B:W:B"},
		{"W.", "W:W:B"},
		{"w:wk10:bk5", "W:WK10:BK5"},
	} {
		p, err := ParsePosition(c.in)
		if err != nil || p.FEN() != c.want {
			t.Errorf("ParsePosition(%q) = %s, %v; want %s", c.in, p.FEN(), err, c.want)
		}
	}
	for _, c := range []struct{ in, want string }{
		{"W:W3", `FEN "W:W3": White man on square 3`},
		{"Wbbbb", `Hub position "Wbbbb": 4 squares after the side to move, want 50`},
		{"hello", `FEN "hello": expected side to move W or B`},
		{"", `FEN "": expected side to move`},
	} {
		_, err := ParsePosition(c.in)
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("ParsePosition(%q): %v, want %q", c.in, err, c.want)
		}
	}
}

// TestHubRoundTrip writes random positions in Hub and reads them back,
// in both notations.
func TestHubRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	data := make([]byte, 31)
	for range 5000 {
		n := 1 + r.IntN(31)
		for i := range data[:n] {
			data[i] = byte(r.Uint32())
		}
		p := positionFromBytes(data[:n])
		if p.checkCounts() == nil { // at most 20 pieces a side
			checkHub(t, p)
		}
	}
	checkHub(t, Start())
}

// checkHub checks that p reads back from its Hub and its FEN, through
// ParseHub and ParsePosition.
func checkHub(t *testing.T, p Position) {
	t.Helper()
	h := p.Hub()
	if len(h) != 51 {
		t.Fatalf("%s: Hub %q has %d characters", p.FEN(), h, len(h))
	}
	for _, parse := range []func(string) (Position, error){ParseHub, ParsePosition} {
		if q, err := parse(h); err != nil || q != p {
			t.Fatalf("%s: Hub %q parses to %s, %v", p.FEN(), h, q.FEN(), err)
		}
	}
	if q, err := ParsePosition(p.FEN()); err != nil || q != p {
		t.Fatalf("%s: ParsePosition of the FEN: %s, %v", p.FEN(), q.FEN(), err)
	}
}

// checkHubMove checks that the legal move m of p reads back from its Hub
// notation, with its captured squares in any order, and from ParseMove.
func checkHubMove(t *testing.T, p Position, m Move) {
	h := p.HubMove(m)
	parts := strings.FieldsFunc(h, func(r rune) bool { return r == 'x' || r == '-' })
	var taken []int
	for _, s := range parts[2:] {
		n, _ := strconv.Atoi(s)
		taken = append(taken, n)
	}
	if want := strconv.Itoa(m.FromSquare()) + "," + strconv.Itoa(m.ToSquare()); parts[0]+","+parts[1] != want {
		t.Fatalf("%s: Hub move %s, want start and end %s", p.FEN(), h, want)
	}
	if sorted := slices.Sorted(slices.Values(taken)); !slices.Equal(sorted, m.Captures()) {
		t.Fatalf("%s: Hub move %s captures %v, want %v", p.FEN(), h, sorted, m.Captures())
	}
	if back, err := p.ParseHubMove(h); err != nil || back != m {
		t.Fatalf("%s: Hub move %s parses to %v, %v", p.FEN(), h, back, err)
	}
	if back, err := p.ParseMove(h); err != nil || back != m {
		t.Fatalf("%s: ParseMove(%s) = %v, %v", p.FEN(), h, back, err)
	}
	if len(taken) > 1 {
		slices.Reverse(taken)
		rev := parts[0] + "x" + parts[1]
		for _, s := range taken {
			rev += "x" + strconv.Itoa(s)
		}
		if back, err := p.ParseHubMove(rev); err != nil || back != m {
			t.Fatalf("%s: Hub move %s parses to %v, %v", p.FEN(), rev, back, err)
		}
	}
}

func TestHubMove(t *testing.T) {
	for _, c := range []struct {
		fen  string
		want []string // every move in Hub notation, sorted
	}{
		{"W:W28:B23", []string{"28x19x23"}},
		{"W:W32:B23", []string{"32-27", "32-28"}},
		// The man on 42 reaches 24 over 37 and 27 or over 38 and 28.
		{"W:W42:B18,19,27,28,37,38", []string{"42x24x37x27x18x19", "42x24x38x28x18x19", "42x42x37x27x28x38"}},
		// The king on 6 reaches 25 over 12 or over 23.
		{"W:WK6:B11,12,20,23", []string{"6x25x11x12x20", "6x25x11x23x20"}},
	} {
		p, err := ParseFEN(c.fen)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, m := range p.Moves(nil) {
			got = append(got, HubNotation.Write(&p, m))
		}
		slices.Sort(got)
		if !slices.Equal(got, c.want) {
			t.Errorf("%s: Hub moves %v, want %v", c.fen, got, c.want)
		}
	}
}

func TestParseHubMoveErrors(t *testing.T) {
	p, err := ParseFEN("W:WK6:B11,12,20,23")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ in, want string }{
		{"6x25", `move "6x25" is ambiguous in W:WK6:B11,12,20,23: give every captured square, e.g. 6x25x11x12x20`},
		{"6x25x11x12", `move "6x25x11x12" is not legal in W:WK6:B11,12,20,23`},
		{"6x25x11x12x20x20", `is not legal`},
		{"6x25x11x12x20x23", `is not legal`},
		{"6-1", `move "6-1" is not legal`},
		{"6-1-7", `move "6-1-7": expected from-to or fromxto`},
		{"6x51x11", `move "6x51x11": "51" is not a square 1..50`},
	} {
		_, err := p.ParseHubMove(c.in)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("ParseHubMove(%q): %v, want %q", c.in, err, c.want)
		}
	}
	if m, err := p.ParseHubMove(" 6x25x20x12x11 "); err != nil || p.HubMove(m) != "6x25x11x12x20" {
		t.Errorf("captured squares in another order: %v, %v", m, err)
	}
	if _, err := ParseNotation("pdn"); err == nil || err.Error() != `notation "pdn": want standard or hub` {
		t.Errorf("ParseNotation(pdn): %v", err)
	}
}

func FuzzParseHub(f *testing.F) {
	for _, s := range []string{startHub, "B" + strings.Repeat("e", 49) + "W", "W", "Wbbbb", "W:W31-50:B1-20", "B.", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, parse := range []func(string) (Position, error){ParseHub, ParsePosition} {
			p, err := parse(s)
			if err != nil {
				if strings.Contains(err.Error(), "\n") { // the input is quoted
					t.Fatalf("%q: error of several lines: %v", s, err)
				}
				continue
			}
			if p.White&p.Black != 0 || p.Kings&^(p.White|p.Black) != 0 || (p.White|p.Black)&^Board != 0 {
				t.Fatalf("%q: inconsistent bitboards %+v", s, p)
			}
			checkHub(t, p)
		}
	})
}

func FuzzParseHubMove(f *testing.F) {
	f.Add([]byte{0, 0x40 | 5, 0x80 | 10, 0x80 | 11, 0x80 | 19, 0x80 | 22}, "6x25x11x12x20")
	f.Add([]byte{0, 27, 0x80 | 22}, "28x19x23")
	f.Fuzz(func(t *testing.T, data []byte, s string) {
		p := positionFromBytes(data)
		for _, parse := range []func(string) (Move, error){p.ParseHubMove, p.ParseMove} {
			m, err := parse(s)
			if err != nil {
				continue
			}
			if !slices.Contains(p.Moves(nil), m) {
				t.Fatalf("%s: %q parses to %v, not a legal move", p.FEN(), s, m)
			}
			checkHubMove(t, p, m)
		}
	})
}
