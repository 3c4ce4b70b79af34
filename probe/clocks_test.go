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
// position's value under the rules with that clock (Result.Value).
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
					r, err := tables.Probe(p, c, 0)
					if err != nil {
						t.Fatal(err)
					}
					if n > 0 && moves[0].Value != r.Value {
						t.Fatalf("%s, %+v: best root move %s %v, value %v", p.FEN(), c, p.Notation(moves[0].Move), moves[0].Value, r.Value)
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

// TestCached checks that a CacheOnly probe answers ErrNotCached before
// the tables are read and the same as a probe that reads after, captures
// included, under any clocks.
func TestCached(t *testing.T) {
	tables := open(t, dir, Options{})
	// KvKM, a capture into KvK resolved by search, won in 3 plies: drawn
	// with 1 ply left on the class clock.
	p := fen(t, "W:WK28:B23,K46")
	clocks := map[Clocks]table.Value{FreshClocks: table.Win, {Class: 1}: table.Draw}
	for c := range clocks {
		if r, err := tables.Probe(p, c, CacheOnly); !errors.Is(err, ErrNotCached) {
			t.Fatalf("CacheOnly, %+v, before any read: %+v %v, want ErrNotCached", c, r, err)
		}
	}
	for c, v := range clocks {
		want, err := tables.Probe(p, c, 0)
		if err != nil || want.Value != v {
			t.Fatalf("%+v: %+v %v, want value %v", c, want, err, v)
		}
		if got, err := tables.Probe(p, c, CacheOnly); err != nil || got != want {
			t.Errorf("CacheOnly, %+v, after a read: %+v %v, want %+v", c, got, err, want)
		}
	}
	if _, err := tables.Probe(fen(t, "W:WK10:B23"), FreshClocks, CacheOnly); !errors.Is(err, ErrNotCached) {
		t.Errorf("CacheOnly of a table not read: %v, want ErrNotCached", err)
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
