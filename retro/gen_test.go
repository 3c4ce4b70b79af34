package retro

import (
	"context"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"golang.org/x/sync/errgroup"

	"github.com/dtb-draughts/dtb/draughts"
	"github.com/dtb-draughts/dtb/index"
	"github.com/dtb-draughts/dtb/table"
)

// This file checks generated tables against their definition: every value
// is the best over the position's successors, with distances that shrink
// along the best line (which rules out a mislabelled cycle). The check
// reads the tables back from disk and shares nothing with the solver but
// the rules (package table).

// loadAll reads every table of dir for the given materials into a store,
// resolving capture positions as a later run of Generate would.
func loadAll(t testing.TB, dir string, mats []index.Material, dtw bool) *store {
	st := newStore(0)
	for _, m := range mats {
		s := load(context.Background(), st, filepath.Join(dir, table.FileName(m)), index.New(m), Options{DTW: dtw, Threads: 2})
		if s == nil {
			t.Fatalf("table %v missing or invalid", m)
		}
		if err := st.put(m, s); err != nil {
			t.Fatal(err)
		}
	}
	return st
}

// stored returns the entry of position p from the store.
func stored(st *store, p *draughts.Position) table.Entry {
	s := st.get(table.MaterialOf(p))
	e, _ := s.cols.Entry(s.x.Rank(table.Placement(p)))
	return e
}

// best combines successor outcomes (each for the successor's side to move)
// into the outcome of the position: win by the shortest route, loss by
// the longest, else draw.
func best(outs []table.Outcome) table.Outcome {
	win, loss, draw := -1, -1, false
	for _, o := range outs {
		switch o.Value {
		case table.Loss:
			if win < 0 || o.Dist+1 < win {
				win = o.Dist + 1
			}
		case table.Win:
			loss = max(loss, o.Dist+1)
		default:
			draw = true
		}
	}
	switch {
	case win >= 0:
		return table.Outcome{Value: table.Win, Dist: win}
	case draw:
		return table.Outcome{Value: table.Draw}
	case loss >= 0:
		return table.Outcome{Value: table.Loss, Dist: loss}
	}
	return table.Outcome{Value: table.Loss} // no move: lost
}

// expected recomputes the entry of p from its successors.
func expected(st *store, p *draughts.Position, dtw bool) table.Entry {
	class := table.ClassOf(table.MaterialOf(p))
	var theory, rules []table.Outcome
	for _, m := range p.Moves(nil) {
		q := p.Play(m)
		if q.Pieces(q.Side) == 0 {
			theory = append(theory, table.Outcome{Value: table.Loss})
			rules = append(rules, table.Outcome{Value: table.Loss})
			continue
		}
		e := stored(st, &q)
		theory = append(theory, e.TheoryOutcome())
		rules = append(rules, e.RulesOutcome(class, table.ClassOf(table.MaterialOf(&q))))
	}
	e := table.NewEntry(class, best(theory), best(rules))
	if !dtw {
		e.DTW = -1
	}
	return e
}

// checkTables checks every position of every table of mats, reports the
// first mismatches with t.Logf and returns their number.
func checkTables(t *testing.T, st *store, mats []index.Material, dtw bool) int {
	var eg errgroup.Group
	eg.SetLimit(2)
	var mu sync.Mutex
	bad := 0
	for _, m := range mats {
		x := index.New(m)
		for lo := int64(0); lo < x.Size(); lo += 1 << 16 {
			eg.Go(func() error {
				for i := lo; i < min(lo+1<<16, x.Size()); i++ {
					p := table.Position(x.Unrank(i))
					got, want := stored(st, &p), expected(st, &p, dtw)
					if !dtw {
						want.DTW = got.DTW
					}
					if got != want {
						mu.Lock()
						if bad++; bad <= 10 {
							t.Logf("%s: stored %v, successors say %v", p.FEN(), got, want)
						}
						mu.Unlock()
					}
				}
				return nil
			})
		}
	}
	eg.Wait()
	return bad
}

// generatedDir is the directory of the tables generated, removed by
// TestMain.
var generatedDir string

// generated builds the tables up to 4 pieces with dtw in a temporary
// directory once per test binary and returns it.
var generated = sync.OnceValues(func() (string, error) {
	dir, err := os.MkdirTemp("", "dtb-retro-test")
	if err != nil {
		return "", err
	}
	generatedDir = dir
	return dir, Generate(context.Background(), Options{Pieces: 4, Dir: dir, DTW: true})
})

func TestMain(m *testing.M) {
	code := m.Run()
	if generatedDir != "" {
		os.RemoveAll(generatedDir)
	}
	os.Exit(code)
}

// TestTablesAgainstSuccessors checks every position of every table up to 4
// pieces, theoretical values with their distances and rules values with
// their class distances.
func TestTablesAgainstSuccessors(t *testing.T) {
	dir, err := generated()
	if err != nil {
		t.Fatal(err)
	}
	mats := index.Materials(4)
	if bad := checkTables(t, loadAll(t, dir, mats, true), mats, true); bad > 0 {
		t.Errorf("%d positions disagree with their successors", bad)
	}
}

// TestCheckCatchesAFlippedValue makes sure the check above can fail.
func TestCheckCatchesAFlippedValue(t *testing.T) {
	dir, err := generated()
	if err != nil {
		t.Fatal(err)
	}
	mats := index.Materials(3)
	st := loadAll(t, dir, mats, true)
	kk, _ := index.ParseMaterial("KKvK")
	p, _ := draughts.ParseFEN("W:WK1,K2:BK45") // a win in 7 plies, no capture
	s := st.get(kk)
	i := s.x.Rank(table.Placement(&p))
	s.cols.Set(i, table.Entry{Rules: table.Draw, Theory: table.Draw, Distance: -1, DTW: -1})
	if bad := checkTables(t, st, mats, true); bad == 0 {
		t.Error("a flipped value went unnoticed")
	}
}

// TestClassBudgets recomputes the class B tables (their distances and
// rules values) by the definition of docs/rules.md: the value under every
// budget b from 0 up, each from the values under b-1.
func TestClassBudgets(t *testing.T) {
	dir, err := generated()
	if err != nil {
		t.Fatal(err)
	}
	all := index.Materials(3)
	st := loadAll(t, dir, all, false)
	var mats []index.Material
	for _, m := range all {
		if table.ClassOf(m) == table.ClassB {
			mats = append(mats, m)
		}
	}
	const layers = 16
	// under[b][m][i] is the value of position i of m under budget b.
	under := make([]map[index.Material][]table.Value, layers+1)
	for b := range under {
		under[b] = map[index.Material][]table.Value{}
		for _, m := range mats {
			x := index.New(m)
			vals := make([]table.Value, x.Size())
			for i := range vals {
				p := table.Position(x.Unrank(int64(i)))
				moves := p.Moves(nil)
				v := table.Draw
				if len(moves) == 0 {
					v = table.Loss
				} else if b > 0 {
					var outs []table.Outcome
					for _, mv := range moves {
						q := p.Play(mv)
						var o table.Value
						switch qm := table.MaterialOf(&q); {
						case q.Pieces(q.Side) == 0:
							o = table.Loss
						case table.ClassOf(qm) == table.ClassB:
							o = under[b-1][qm][st.get(qm).x.Rank(table.Placement(&q))]
						default:
							o = stored(st, &q).Rules
						}
						outs = append(outs, table.Outcome{Value: o})
					}
					v = best(outs).Value
				}
				vals[i] = v
			}
			under[b][m] = vals
		}
	}
	for _, m := range mats {
		x := index.New(m)
		for i := range x.Size() {
			p := table.Position(x.Unrank(i))
			dist := -1
			for b := 0; b <= layers && dist < 0; b++ {
				if under[b][m][i] != table.Draw {
					dist = b
				}
			}
			e := stored(st, &p)
			if under[layers][m][i] != under[layers-1][m][i] {
				t.Fatalf("%s: budgets above %d still change the value", p.FEN(), layers-1)
			}
			if e.Distance != dist || e.Rules != under[table.ClassB.Budget()][m][i] {
				t.Fatalf("%s: stored %v; by budgets: distance %d, value under 10 plies %v", p.FEN(), e, dist, under[10][m][i])
			}
		}
	}
}

// TestPublishedLongestWins checks the longest wins under the rules that
// docs/rules.md cites (White to move, plies).
func TestPublishedLongestWins(t *testing.T) {
	dir, err := generated()
	if err != nil {
		t.Fatal(err)
	}
	st := loadAll(t, dir, index.Materials(4), false)
	for name, want := range map[string]int{"KKKvK": 15, "KKMvK": 31, "KMMvK": 29, "KMvK": 9, "KKvK": 7, "KvK": 3} {
		m, _ := index.ParseMaterial(name)
		if got := st.get(m).stats().LongestDistance; got != want {
			t.Errorf("%s: longest win %d plies, want %d", name, got, want)
		}
	}
}

// TestSuccessors checks that the table of every successor of sampled
// positions of every material up to 5 pieces is among successors(m), so
// that plan and lastUses keep every table a group reads.
func TestSuccessors(t *testing.T) {
	for _, m := range index.Materials(5) {
		succ := map[index.Material]bool{}
		for _, s := range successors(m) {
			succ[s], succ[s.Flip()] = true, true
		}
		x := index.New(m)
		for i := int64(0); i < x.Size(); i += max(1, x.Size()/3000) {
			p := table.Position(x.Unrank(i))
			for _, mv := range p.Moves(nil) {
				q := p.Play(mv)
				if q.Pieces(q.Side) == 0 {
					continue
				}
				if s := table.MaterialOf(&q); s != m.Flip() && !succ[s] {
					t.Fatalf("%s: %s leads to table %v, not among the successors of %v", p.FEN(), p.Notation(mv), s, m)
				}
			}
		}
	}
}
