package probe

import (
	"errors"
	"fmt"
	"testing"

	"github.com/dtb-draughts/dtb/draughts"
	"github.com/dtb-draughts/dtb/index"
	"github.com/dtb-draughts/dtb/internal/testenv"
	"github.com/dtb-draughts/dtb/table"
)

// TestRootMoves checks, for every position (a sample without DTB_LONG=1)
// of some class A, class B and classless tables with either side to move and every class clock, that
// the root moves are the legal moves and that the first one's value is the
// position's value under the rules with that clock (Value).
func TestRootMoves(t *testing.T) {
	tables := open(t, dir, Options{})
	for _, name := range []string{"KvK", "KMvK", "KvKK", "KMvM", "MMvM"} {
		m, _ := index.ParseMaterial(name)
		class := table.ClassOf(m)
		x := index.New(m)
		for i := int64(0); i < x.Size(); i += testenv.Stride(1, 7) {
			pos := table.Position(x.Unrank(i))
			for _, p := range []draughts.Position{pos, pos.Flip()} {
				n := p.CountMoves()
				for budget := FullClock; budget <= class.Budget(); budget++ {
					c := Clocks{Class: budget}
					moves, err := tables.RootMoves(p, c)
					if err != nil || len(moves) != n {
						t.Fatalf("%s: %d root moves, %v; want %d", p.FEN(), len(moves), err, n)
					}
					v, err := tables.Value(p, c)
					if err != nil {
						t.Fatal(err)
					}
					if n > 0 && moves[0].Value != v {
						t.Fatalf("%s, %+v: best root move %s %v, value %v", p.FEN(), c, p.Notation(moves[0].Move), moves[0].Value, v)
					}
				}
			}
		}
	}
}

// TestRootMovesOrder checks the moves and order of a few positions.
func TestRootMovesOrder(t *testing.T) {
	tables := open(t, dir, Options{})
	for _, c := range []struct {
		fen   string
		clock int
		want  []string // notation value distance dtw, best first
	}{
		// a man takes the last piece: a win in 1
		{"W:W28:BK23", FullClock, []string{"28x19 win 1 1"}},
		// KvK: the win in 3, then the draws, then the losses
		{"W:WK10:BK5", FullClock, []string{"10-46 win 3 3", "10-4 draw -1 -1", "10-15 draw -1 -1", "10-14 loss 2 2"}},
		// KMvK, won in 9 with 9 plies left or more
		{"W:WK2,6:BK50", 9, []string{"2-11 win 9 9", "6-1 draw -1 -1"}},
		{"W:WK2,6:BK50", 8, nil}, // drawn with 8 plies left: no win
	} {
		moves, err := tables.RootMoves(fen(t, c.fen), Clocks{Class: c.clock})
		if err != nil {
			t.Fatal(err)
		}
		p := fen(t, c.fen)
		for i, w := range c.want {
			m := moves[i]
			if got := fmtMove(&p, m); got != w {
				t.Errorf("%s clock %d: move %d %s, want %s", c.fen, c.clock, i, got, w)
			}
		}
		if c.want == nil && moves[0].Value == table.Win {
			t.Errorf("%s clock %d: best move %s, want no win", c.fen, c.clock, fmtMove(&p, moves[0]))
		}
	}
}

func fmtMove(p *draughts.Position, m RootMove) string {
	return fmt.Sprintf("%s %v %d %d", p.Notation(m.Move), m.Value, m.Entry.Distance, m.Entry.DTW)
}

// TestCached checks that a cache-only probe answers ErrNotCached before
// the tables are read and the same as Probe after, captures included.
func TestCached(t *testing.T) {
	tables := open(t, dir, Options{})
	p := fen(t, "W:WK28:B23,K40") // KvKM, a capture into KvK: resolved by search
	if _, err := tables.ProbeCached(p); !errors.Is(err, ErrNotCached) {
		t.Fatalf("ProbeCached before any read: %v, want ErrNotCached", err)
	}
	if _, err := tables.ValueCached(p, Clocks{Class: FullClock}); !errors.Is(err, ErrNotCached) {
		t.Fatalf("ValueCached before any read: %v, want ErrNotCached", err)
	}
	want := mustProbe(t, tables, p)
	if got, err := tables.ProbeCached(p); err != nil || got != want {
		t.Errorf("ProbeCached after Probe: %+v %v, want %+v", got, err, want)
	}
	if v, err := tables.ValueCached(p, Clocks{Class: FullClock}); err != nil || v != want.Rules {
		t.Errorf("ValueCached after Probe: %v %v, want %v", v, err, want.Rules)
	}
	if _, err := tables.ProbeCached(fen(t, "W:WK10:B23")); !errors.Is(err, ErrNotCached) {
		t.Errorf("ProbeCached of a table not read: %v, want ErrNotCached", err)
	}
}

// TestClocksAfter checks how the clocks carry over a move.
func TestClocksAfter(t *testing.T) {
	A, B, R, N := table.ClassA, table.ClassB, table.Rule2, table.NoClass
	for _, c := range []struct {
		c          Clocks
		from, to   table.Class
		conversion bool
		want       Clocks
	}{
		{Clocks{Class: FullClock, Rule2: 0}, R, R, false, Clocks{Class: FullClock, Rule2: 1}},
		{Clocks{Class: 3, Rule2: 17}, R, R, false, Clocks{Class: FullClock, Rule2: 18}},
		{Clocks{Class: FullClock, Rule2: -5}, R, R, false, Clocks{Class: FullClock, Rule2: 1}},
		{Clocks{Class: FullClock, Rule2: 49}, R, R, false, Clocks{Class: FullClock, Rule2: 50}},
		{Clocks{Class: FullClock, Rule2: 17}, R, R, true, Clocks{Class: FullClock}},  // a man move
		{Clocks{Class: FullClock, Rule2: 17}, R, B, true, Clocks{Class: FullClock}},  // a capture into class B
		{Clocks{Class: FullClock, Rule2: 17}, R, N, true, Clocks{Class: FullClock}},  // a capture into no class
		{Clocks{Class: FullClock, Rule2: 17}, N, N, false, Clocks{Class: FullClock}}, // rule 2 does not count
		{Clocks{Class: 7, Rule2: 17}, B, B, false, Clocks{Class: 6}},
		{Clocks{Class: FullClock}, B, B, false, Clocks{Class: 9}},
		{Clocks{Class: 20}, A, B, true, Clocks{Class: 10}},
		{Clocks{Class: 5}, A, B, true, Clocks{Class: 4}},
		{Clocks{Class: 5}, A, A, true, Clocks{Class: 4}},
		{Clocks{Class: 5}, B, N, true, Clocks{Class: FullClock}},
	} {
		if got := c.c.after(c.from, c.to, c.conversion); got != c.want {
			t.Errorf("%+v after %v -> %v (conversion %v): %+v, want %+v", c.c, c.from, c.to, c.conversion, got, c.want)
		}
	}
}
