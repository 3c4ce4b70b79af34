package probe

import (
	"errors"
	"fmt"
	"slices"
	"testing"

	"github.com/dtb-draughts/dtb/draughts"
	"github.com/dtb-draughts/dtb/index"
	"github.com/dtb-draughts/dtb/internal/testenv"
	"github.com/dtb-draughts/dtb/rules"
)

// TestRootMoves checks, for every position (a sample without DTB_LONG=1)
// of some class B and classless tables with either side to move and every
// class clock, from negative (fresh) to run out and beyond, that
// the root moves are the legal moves and that the first one's value is the
// position's value under the rules with that clock (Result.Value).
func TestRootMoves(t *testing.T) {
	tables := open(t, dir, Options{})
	for _, name := range []string{"KvK", "KMvK", "KvKK", "KMvM", "MMvM"} {
		m, _ := index.ParseMaterial(name)
		class := rules.ClassOf(m)
		x := index.New(m)
		for i := int64(0); i < x.Size(); i += testenv.Stride(1, 31) {
			pos := rules.Position(x.Unrank(i))
			for _, p := range []draughts.Position{pos, pos.Flip()} {
				n := p.CountMoves()
				for played := -1; played <= class.Budget()+1; played++ {
					c := Clocks{Class: played}
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
		fen    string
		played int      // on the class clock
		want   []string // notation value distance dtw, best first
	}{
		// a man takes the last piece: a win in 1 (no class: no distance)
		{"W:W28:BK23", 0, []string{"28x19 win -1 1"}},
		// KvK: the win in 3, then the draws, then the losses
		{"W:WK10:BK5", 0, []string{"10-46 win 3 3", "10-4 draw -1 -1", "10-15 draw -1 -1", "10-14 loss 2 2"}},
		// KMvK, won in 9 with 9 plies left or more: 1 played of 10
		{"W:WK2,6:BK50", 1, []string{"2-11 win 9 9", "6-1 draw -1 -1"}},
		{"W:WK2,6:BK50", 2, nil}, // drawn with 8 plies left: no win
	} {
		moves, err := tables.RootMoves(fen(t, c.fen), Clocks{Class: c.played})
		if err != nil {
			t.Fatal(err)
		}
		p := fen(t, c.fen)
		for i, w := range c.want {
			m := moves[i]
			if got := fmtMove(&p, m); got != w {
				t.Errorf("%s, %d played: move %d %s, want %s", c.fen, c.played, i, got, w)
			}
		}
		if c.want == nil && moves[0].Value == rules.Win {
			t.Errorf("%s, %d played: best move %s, want no win", c.fen, c.played, fmtMove(&p, moves[0]))
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
	// with 9 plies played on the class clock, 1 left.
	p := fen(t, "W:WK28:B23,K46")
	clocks := map[Clocks]rules.Value{{}: rules.Win, {Class: 9}: rules.Draw}
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
	if _, err := tables.Probe(fen(t, "W:WK10:B23"), Clocks{}, CacheOnly); !errors.Is(err, ErrNotCached) {
		t.Errorf("CacheOnly of a table not read: %v, want ErrNotCached", err)
	}
}

// TestClocksAfter checks how the clocks carry over a move, plies played
// on each: one more inside a class, a fresh clock into a class from
// outside, max(a+1-22, 0) from class A into class B (10 less the plies
// left, min(32-a-1, 10)), a clock run out staying run out.
func TestClocksAfter(t *testing.T) {
	A, B, R, N := rules.ClassA, rules.ClassB, rules.Rule2, rules.NoClass
	for _, c := range []struct {
		c          Clocks
		from, to   rules.Class
		conversion bool
		want       Clocks
	}{
		{Clocks{}, R, R, false, Clocks{Rule2: 1}},
		{Clocks{Class: 3, Rule2: 17}, R, R, false, Clocks{Rule2: 18}},
		{Clocks{Rule2: -5}, R, R, false, Clocks{Rule2: 1}},
		{Clocks{Rule2: 49}, R, R, false, Clocks{Rule2: 50}},
		{Clocks{Rule2: 60}, R, R, false, Clocks{Rule2: 50}},
		{Clocks{Rule2: 17}, R, R, true, Clocks{}},  // a man move
		{Clocks{Rule2: 17}, R, B, true, Clocks{}},  // a capture into class B
		{Clocks{Rule2: 17}, R, N, true, Clocks{}},  // a capture into no class
		{Clocks{Rule2: 17}, N, N, false, Clocks{}}, // rule 2 does not count
		{Clocks{Class: 3, Rule2: 17}, B, B, false, Clocks{Class: 4}},
		{Clocks{}, B, B, false, Clocks{Class: 1}},
		{Clocks{Class: -3}, B, B, false, Clocks{Class: 1}}, // negative is 0
		{Clocks{Class: 9}, B, B, false, Clocks{Class: 10}}, // the clock runs out
		{Clocks{Class: 12}, B, B, true, Clocks{Class: 11}}, // and stays run out
		{Clocks{Class: 12}, A, B, true, Clocks{}},          // 20 left in A: 10 in B
		{Clocks{Class: 21}, A, B, true, Clocks{}},          // 11 left in A: 10 in B
		{Clocks{Class: 22}, A, B, true, Clocks{Class: 1}},  // 10 left in A: 9 in B
		{Clocks{Class: 27}, A, B, true, Clocks{Class: 6}},  // 5 left in A: 4 in B
		{Clocks{Class: 31}, A, B, true, Clocks{Class: 10}}, // 1 left in A: none in B
		{Clocks{Class: 40}, A, B, true, Clocks{Class: 11}}, // run out in A: in B too
		{Clocks{Class: 27}, A, A, true, Clocks{Class: 28}}, // a crowning
		{Clocks{Class: 27}, A, A, false, Clocks{Class: 28}},
		{Clocks{Class: 5}, B, N, true, Clocks{}},
		{Clocks{Class: 5}, N, A, true, Clocks{}}, // a crowning into class A
		{Clocks{Class: 5}, N, B, true, Clocks{}},
	} {
		if got := c.c.after(c.from, c.to, c.conversion); got != c.want {
			t.Errorf("%+v after %v -> %v (conversion %v): %+v, want %+v", c.c, c.from, c.to, c.conversion, got, c.want)
		}
	}
}

// TestClocksValue checks how the plies played on each clock read a
// distance: a position at distance d is won with d plies left or more,
// negative counts are 0, and a count of the budget or more is a clock run
// out; the clock of another class is ignored.
func TestClocksValue(t *testing.T) {
	won := rules.Entry{Rules: rules.Win, Theory: rules.Win, Distance: 9, DTW: 9, MTC: -1}
	for _, c := range []struct {
		class  rules.Class
		played int
		want   rules.Value
	}{
		{rules.ClassB, -5, rules.Win}, {rules.ClassB, 0, rules.Win}, {rules.ClassB, 1, rules.Win},
		{rules.ClassB, 2, rules.Draw}, {rules.ClassB, 10, rules.Draw}, {rules.ClassB, 99, rules.Draw},
		{rules.ClassA, 23, rules.Win}, {rules.ClassA, 24, rules.Draw}, {rules.ClassA, 32, rules.Draw},
		{rules.Rule2, 41, rules.Win}, {rules.Rule2, 42, rules.Draw}, {rules.Rule2, 50, rules.Draw},
	} {
		clocks := Clocks{Class: c.played, Rule2: 40} // Rule2 a running count, ignored in class A and B
		if c.class == rules.Rule2 {
			clocks = Clocks{Class: 99, Rule2: c.played} // Class run out, ignored for rule 2
		}
		if got := clocks.Value(c.class, won); got != c.want {
			t.Errorf("%+v.Value(%v, distance 9) = %v, want %v", clocks, c.class, got, c.want)
		}
	}
	if got := (Clocks{Class: 99, Rule2: 99}).Value(rules.NoClass, won); got != rules.Win {
		t.Errorf("no class: %v, want the rules value", got)
	}
}

// TestThrough checks the entry a position has through one move, on the
// clock of the position: a conversion under rule 2 or out of a class is
// 1 ply of it whatever follows; a king move, a move inside a class and a
// capture from class A into class B (at most 10 plies after it) one ply
// more than after the move; a position without a clock has no distance.
func TestThrough(t *testing.T) {
	A, B, R, N := rules.ClassA, rules.ClassB, rules.Rule2, rules.NoClass
	lost := func(d, dtw int) rules.Entry { // after the move, for its side to move
		return rules.Entry{Rules: rules.Loss, Theory: rules.Loss, Distance: d, DTW: dtw, MTC: -1}
	}
	for _, c := range []struct {
		from, to   rules.Class
		after      rules.Entry
		conversion bool
		rules      rules.Value
		distance   int
		dtw        int
	}{
		{R, R, lost(7, 20), true, rules.Win, 1, 21},  // a man move
		{R, B, lost(7, 20), true, rules.Win, 1, 21},  // a capture into class B
		{R, R, lost(7, 20), false, rules.Win, 8, 21}, // a king move
		{R, R, lost(49, 60), false, rules.Win, 50, 61},
		{R, R, lost(50, 60), false, rules.Draw, 51, 61}, // one ply past the count
		{A, A, lost(30, 30), false, rules.Win, 31, 31},
		{A, B, lost(9, 9), true, rules.Win, 10, 10},
		{A, B, lost(11, 11), true, rules.Draw, -1, 12}, // beyond class B's 10 plies
		{B, N, rules.Entry{Rules: rules.Win, Theory: rules.Win, Distance: -1, DTW: 4, MTC: -1}, true, rules.Loss, 1, 5},
		{N, B, lost(5, 5), true, rules.Win, -1, 6}, // a crowning into class B
		{N, N, lost(-1, -1), false, rules.Win, -1, -1},
	} {
		e := through(c.from, c.to, c.after, c.conversion, false)
		if e.Rules != c.rules || e.Theory != c.after.Theory.Neg() || e.Distance != c.distance || e.DTW != c.dtw {
			t.Errorf("%v -> %v (conversion %v) to %+v: %+v; want rules %v, distance %d, dtw %d",
				c.from, c.to, c.conversion, c.after, e, c.rules, c.distance, c.dtw)
		}
	}
	if e := through(B, B, lost(0, -1), false, true); e.DTW != 1 || e.Distance != 1 {
		t.Errorf("a move that leaves no move: %+v, want dtw 1 and distance 1", e)
	}
}

// TestRank checks the order of root moves of equal value: a win by the
// least distance, then the least dtw, then the least mtc, a win of
// unknown length last; a loss the other way round.
func TestRank(t *testing.T) {
	move := func(v rules.Value, d, dtw, mtc int) RootMove {
		return RootMove{Value: v, Entry: rules.Entry{Rules: v, Theory: v, Distance: d, DTW: dtw, MTC: mtc}}
	}
	wins := []RootMove{move(rules.Win, 1, 9, 1), move(rules.Win, 3, 5, 3), move(rules.Win, 3, 7, 1),
		move(rules.Win, 3, 7, 2), move(rules.Win, 3, -1, -1), move(rules.Draw, -1, -1, -1)}
	losses := []RootMove{move(rules.Loss, 9, 3, 3), move(rules.Loss, 5, -1, -1), move(rules.Loss, 5, 9, 1),
		move(rules.Loss, 5, 7, 2), move(rules.Loss, 5, 7, 1), move(rules.Loss, 1, 20, 20)}
	for _, want := range [][]RootMove{wins, losses} {
		got := slices.Clone(want)
		slices.Reverse(got)
		slices.SortStableFunc(got, rank)
		if !slices.Equal(got, want) {
			t.Errorf("ranked %+v, want %+v", got, want)
		}
	}
}

// TestRootMovesLimit limits the golden tables to 2 pieces: RootMoves,
// which lets a missing root table pass, must refuse a 3-piece position,
// and answer it once the limit is lifted.
func TestRootMovesLimit(t *testing.T) {
	tables := open(t, dir, Options{MaxPieces: 2})
	three := fen(t, "W:WK28:BK23,K41") // a king that must capture into 2 pieces
	if _, err := tables.RootMoves(three, Clocks{}); !errors.Is(err, ErrMissing) {
		t.Errorf("RootMoves of 3 pieces under a limit of 2: %v, want ErrMissing", err)
	}
	tables.SetMaxPieces(0)
	if _, err := tables.RootMoves(three, Clocks{}); err != nil {
		t.Errorf("RootMoves of 3 pieces without a limit: %v", err)
	}
}
