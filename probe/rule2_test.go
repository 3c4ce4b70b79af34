package probe_test

import (
	"os"
	"testing"

	"github.com/dtb-draughts/dtb/draughts"
	"github.com/dtb-draughts/dtb/index"
	"github.com/dtb-draughts/dtb/internal/tabletest"
	"github.com/dtb-draughts/dtb/internal/testenv"
	"github.com/dtb-draughts/dtb/probe"
	"github.com/dtb-draughts/dtb/rules"
	"github.com/dtb-draughts/dtb/table"
)

func TestMain(m *testing.M) { os.Exit(tabletest.Run(m)) }

// rule2Dir returns the directory of tables with rule-2 distances: KMvKK
// and what it needs (KKvKK, KKvKM and the 3-piece tables).
func rule2Dir(tb testing.TB) string { return tabletest.Rule2.Dir(tb) }

func open(tb testing.TB, dir string) *probe.Tables {
	tb.Helper()
	t, err := probe.Open(dir, probe.Options{})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { t.Close() })
	return t
}

func mustProbe(tb testing.TB, t *probe.Tables, p draughts.Position) rules.Entry {
	tb.Helper()
	r, err := t.Probe(p, probe.Clocks{}, 0)
	if err != nil {
		tb.Fatalf("%s: %v", p.FEN(), err)
	}
	return r.Entry
}

// rule2Materials are the materials of the rule-2 tables where rule 2
// counts.
var rule2Materials = []string{"KKvKK", "KMvKK", "KKvKM"}

// eachPosition calls f with every stride-th position of m, both sides to
// move (testenv.Stride).
func eachPosition(m index.Material, stride int64, f func(p draughts.Position)) {
	x := index.New(m)
	for i := int64(0); i < x.Size(); i += stride {
		p := rules.Position(x.Unrank(i))
		f(p)
		f(p.Flip())
	}
}

// TestRule2Value checks Value under running rule-2 counts: a position won
// or lost at rule-2 distance d keeps its theoretical value with 50-d
// plies on the count (rule 5 at d = 0: a side without a move loses on a
// complete count) and is drawn with one ply more; without a distance it
// is drawn on any running count; a fresh count gives the rules value;
// the class clock is ignored.
func TestRule2Value(t *testing.T) {
	tables := open(t, rule2Dir(t))
	longest := 0
	for _, name := range rule2Materials {
		m, _ := index.ParseMaterial(name)
		if c, err := tables.Class(m); err != nil || c != rules.Rule2 {
			t.Fatalf("Class(%s) = %v, %v; want rule 2", m, c, err)
		}
		if info, err := tables.Info(m); err != nil || info.Variant == table.NoRule2 {
			t.Fatalf("Info(%s) = %+v, %v; want a table that tracks rule 2", m, info, err)
		}
		n := 0
		eachPosition(m, testenv.Stride(5, 23), func(p draughts.Position) {
			r, err := tables.Probe(p, probe.Clocks{Class: rules.ClassA.Budget()}, 0) // a class clock run out is ignored
			if err != nil {
				t.Fatal(err)
			}
			e := r.Entry
			if r.Class != rules.Rule2 || r.Value != e.Rules {
				t.Fatalf("%s: Probe %+v, want class rule 2, value %v", p.FEN(), r, e.Rules)
			}
			value := func(count int) rules.Value {
				r, err := tables.Probe(p, probe.Clocks{Rule2: count}, 0)
				if err != nil {
					t.Fatal(err)
				}
				return r.Value
			}
			if e.Distance < 0 {
				if v := value(1); v != rules.Draw && e.Rules != rules.Draw {
					t.Fatalf("%s: %+v, value %v with 1 ply on the count; want a draw", p.FEN(), e, v)
				}
				return
			}
			d := e.Distance
			if d > rules.Rule2Plies || e.Theory == rules.Draw || e.Rules != e.Theory {
				t.Fatalf("%s: %+v: a distance beyond 50 or without a win", p.FEN(), e)
			}
			if v := value(rules.Rule2Plies - d); v != e.Theory {
				t.Errorf("%s: %+v: %d plies on the count: %v, want %v", p.FEN(), e, rules.Rule2Plies-d, v, e.Theory)
			}
			if v := value(rules.Rule2Plies - d + 1); d > 0 && v != rules.Draw {
				t.Errorf("%s: %+v: %d plies on the count: %v, want a draw", p.FEN(), e, rules.Rule2Plies-d+1, v)
			}
			if v := value(0); v != e.Rules {
				t.Errorf("%s: %+v: a fresh count: %v", p.FEN(), e, v)
			}
			if v := value(-1); v != e.Rules {
				t.Errorf("%s: %+v: count -1: %v", p.FEN(), e, v)
			}
			if v := value(1000); v != value(rules.Rule2Plies) {
				t.Errorf("%s: %+v: count 1000: %v, count 50: %v", p.FEN(), e, v, value(rules.Rule2Plies))
			}
			longest = max(longest, d)
			n++
		})
		if n < 1000 {
			t.Errorf("%s: only %d positions with a rule-2 distance", m, n)
		}
	}
	if longest < 5 { // the longest of these tables is 9, in KKvKM
		t.Errorf("longest rule-2 distance %d: the tables hold no long ones", longest)
	}
}

// TestRule2RootMoves checks RootMoves under running rule-2 counts: each
// move's value is the Value of the position after it under the count
// advanced by a quiet king move and restarted by a capture or man move
// (every move a draw on a complete count), its class is the position's,
// and the best move's value is the position's value under the count,
// with the position's distance where it is won or lost (the rule-2
// distances are consistent across moves).
func TestRule2RootMoves(t *testing.T) {
	tables := open(t, rule2Dir(t))
	for _, name := range rule2Materials {
		m, _ := index.ParseMaterial(name)
		eachPosition(m, testenv.Stride(53, 1031), func(p draughts.Position) {
			e := mustProbe(t, tables, p)
			counts := []int{0, 1, 25, 49, 50}
			if e.Distance >= 0 {
				counts = append(counts, rules.Rule2Plies-e.Distance, rules.Rule2Plies-e.Distance+1)
			}
			for _, count := range counts {
				c := probe.Clocks{Class: rules.ClassA.Budget(), Rule2: count} // a class clock run out is ignored
				moves, err := tables.RootMoves(p, c)
				if err != nil || len(moves) != p.CountMoves() {
					t.Fatalf("%s, %+v: %d root moves, %v; want %d", p.FEN(), c, len(moves), err, p.CountMoves())
				}
				class, err := tables.Class(m)
				if err != nil {
					t.Fatal(err)
				}
				for _, rm := range moves {
					q := p.Play(rm.Move)
					next := probe.Clocks{Rule2: count + 1}
					if rm.Move.IsCapture() || p.Kings&draughts.Bit(rm.Move.FromSquare()) == 0 {
						next.Rule2 = 0
					}
					r, err := tables.Probe(q, next, 0)
					if err != nil {
						t.Fatal(err)
					}
					want := r.Value.Neg()
					if count >= rules.Rule2Plies {
						want = rules.Draw
					}
					if rm.Value != want || rm.Class != class {
						t.Fatalf("%s, %d plies on the count: %s: %v, class %v; want %v, class %v",
							p.FEN(), count, p.Notation(rm.Move), rm.Value, rm.Class, want, class)
					}
				}
				r, err := tables.Probe(p, c, 0)
				if err != nil {
					t.Fatal(err)
				}
				if len(moves) == 0 {
					continue
				}
				best := moves[0]
				if best.Value != r.Value || best.Value != rules.Draw && best.Entry.Distance != e.Distance {
					t.Fatalf("%s, %d plies on the count (%+v): best move %s %v, distance %d; value %v",
						p.FEN(), count, e, p.Notation(best.Move), best.Value, best.Entry.Distance, r.Value)
				}
			}
		})
	}
}

// TestRule2OldFile checks a KKvKK table written before rule 2 was
// tracked: it opens and probes as the new one without its distance,
// reports that it does not track rule 2 and has no clock, and its values
// ignore the rule-2 count, even a complete one, in Probe and RootMoves.
func TestRule2OldFile(t *testing.T) {
	dir := tabletest.Copy(t, rule2Dir(t))
	m, _ := index.ParseMaterial("KKvKK")
	tabletest.FirstVersion(t, dir, m)
	old, cur := open(t, dir), open(t, rule2Dir(t))
	if info, err := old.Info(m); err != nil || info.Variant != table.NoRule2 {
		t.Fatalf("Info(%s) of the old file = %+v, %v; want a table that does not track rule 2", m, info, err)
	}
	if c, err := old.Class(m); err != nil || c != rules.NoClass {
		t.Fatalf("Class(%s) of the old file = %v, %v; want none", m, c, err)
	}
	kmkk, _ := index.ParseMaterial("KMvKK")
	if info, err := old.Info(kmkk); err != nil || info.Variant == table.NoRule2 {
		t.Fatalf("Info(%s) = %+v, %v; want a table that tracks rule 2", kmkk, info, err)
	}
	cut := 0 // positions a running count draws in the new file
	eachPosition(m, testenv.Stride(7, 29), func(p draughts.Position) {
		e, want := mustProbe(t, old, p), mustProbe(t, cur, p)
		if e.Distance != -1 || e.Rules != want.Rules || e.Theory != want.Theory || e.DTW != want.DTW || e.MTC != want.MTC {
			t.Fatalf("%s: old file %+v, new file %+v", p.FEN(), e, want)
		}
		for _, count := range []int{0, 30, 50} {
			c := probe.Clocks{Rule2: count}
			r, err := old.Probe(p, c, 0)
			if err != nil || r.Value != e.Rules || r.Class != rules.NoClass {
				t.Fatalf("%s, %d plies on the count: Probe %+v, %v; want value %v, no class", p.FEN(), count, r, err, e.Rules)
			}
			if r, _ := cur.Probe(p, c, 0); r.Value != e.Rules {
				cut++
			}
		}
		if e.Rules == rules.Win {
			moves, err := old.RootMoves(p, probe.Clocks{Rule2: 50})
			if err != nil || moves[0].Value != rules.Win {
				t.Fatalf("%s: root moves on a complete count of the old file: %v; want a win first", p.FEN(), err)
			}
		}
	})
	if cut == 0 {
		t.Error("no position of the new file is drawn by a running count: the test shows nothing")
	}
}

// classAPlayed are plies played on the class A clock to probe with: from
// negative (fresh) to run out and beyond, and around the counts where a
// capture into class B leaves fewer than 10 plies (22 on).
var classAPlayed = []int{-1, 0, 1, 15, 17, 18, 21, 22, 25, 29, 30, 31, 32, 40}

// leftAfter returns the plies left on the class clock after a move from
// a class A position with left plies left into a position of class to,
// as docs/rules.md's table of the class clock says it in plies left: one
// less in class A, min(left-1, 10) into class B, none (-1) out of both.
func leftAfter(left int, to rules.Class) int {
	switch to {
	case rules.ClassA:
		return left - 1
	case rules.ClassB:
		return min(left-1, 10)
	}
	return -1
}

// TestClassARootMoves checks, for a sample of KKKvK and KvKKK positions
// (the strong side and the lone king to move, in either colour) under class A clocks from fresh to run out, that each
// root move's value is the probe of the position after it, with the
// clock carried as docs/rules.md says in plies left (leftAfter, written
// apart from Clocks), negated, and a draw where the clock has run out;
// and that the best move's value is the position's. It also checks two
// positions whose values the clock changes: a win in 15 plies, won with
// 17 plies played and drawn with 18; and a capture by the lone king into
// class B that loses in 2 plies (the position after it at distance 1)
// with up to 30 plies played in class A and draws with 31
// (min(32-31-1, 10) = 0 plies left in class B).
func TestClassARootMoves(t *testing.T) {
	tables := open(t, tabletest.ClassA.Dir(t))
	budget := rules.ClassA.Budget()
	carried := 0 // moves into class B whose value the clock changes
	for _, name := range []string{"KKKvK", "KvKKK"} {
		m, _ := index.ParseMaterial(name)
		eachPosition(m, testenv.Stride(97, 1999), func(p draughts.Position) {
			fresh := mustProbe(t, tables, p)
			for _, played := range classAPlayed {
				c := probe.Clocks{Class: played}
				left := budget - min(max(played, 0), budget)
				moves, err := tables.RootMoves(p, c)
				if err != nil || len(moves) != p.CountMoves() {
					t.Fatalf("%s, %d played: %d root moves, %v; want %d", p.FEN(), played, len(moves), err, p.CountMoves())
				}
				for _, rm := range moves {
					q := p.Play(rm.Move)
					want := rules.Loss.Neg() // the lone king taken: q's side has no pieces
					if q.Pieces(q.Side) != 0 {
						class := rules.ClassOf(rules.MaterialOf(&q))
						played := class.Budget() - max(leftAfter(left, class), 0) // 0 out of both classes
						r, err := tables.Probe(q, probe.Clocks{Class: played}, 0)
						if err != nil {
							t.Fatal(err)
						}
						want = r.Value.Neg()
						if class == rules.ClassB && want != r.Entry.Rules.Neg() && left > 0 {
							carried++
						}
					}
					if left == 0 {
						want = rules.Draw
					}
					if rm.Value != want {
						t.Fatalf("%s, %d played (%d left): %s: %v, want %v", p.FEN(), played, left, p.Notation(rm.Move), rm.Value, want)
					}
				}
				r, err := tables.Probe(p, c, 0)
				if err != nil {
					t.Fatal(err)
				}
				if len(moves) > 0 && moves[0].Value != r.Value {
					t.Fatalf("%s, %d played (%+v): best move %s %v, value %v", p.FEN(), played, fresh, p.Notation(moves[0].Move), moves[0].Value, r.Value)
				}
			}
		})
	}
	if carried == 0 {
		t.Error("no move into class B whose value the carried clock changes: the sample shows nothing")
	}

	for _, c := range []struct {
		fen, move string
		played    int
		want      rules.Value
	}{
		{"W:WK1,K7,K18:BK35", "", 0, rules.Win},
		{"W:WK1,K7,K18:BK35", "", 17, rules.Win},
		{"W:WK1,K7,K18:BK35", "", 18, rules.Draw},
		{"B:WK12,K16,K20:BK3", "3x21", 0, rules.Loss},
		{"B:WK12,K16,K20:BK3", "3x21", 30, rules.Loss},
		{"B:WK12,K16,K20:BK3", "3x21", 31, rules.Draw},
	} {
		p, err := draughts.ParseFEN(c.fen)
		if err != nil {
			t.Fatal(err)
		}
		moves, err := tables.RootMoves(p, probe.Clocks{Class: c.played})
		if err != nil {
			t.Fatal(err)
		}
		r, err := tables.Probe(p, probe.Clocks{Class: c.played}, 0)
		if err != nil {
			t.Fatal(err)
		}
		got := r.Value
		for _, rm := range moves {
			if p.Notation(rm.Move) == c.move {
				got = rm.Value
			}
		}
		if got != c.want {
			t.Errorf("%s %s, %d plies played: %v, want %v", c.fen, c.move, c.played, got, c.want)
		}
	}
}
