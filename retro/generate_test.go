package retro

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"

	"golang.org/x/sync/errgroup"

	"github.com/dtb-draughts/dtb/draughts"
	"github.com/dtb-draughts/dtb/index"
	"github.com/dtb-draughts/dtb/internal/testcache"
	"github.com/dtb-draughts/dtb/internal/testenv"
	"github.com/dtb-draughts/dtb/rules"
	"github.com/dtb-draughts/dtb/table"
)

// This file checks generated tables against their definition: every value
// is the best over the position's successors, with distances that shrink
// along the best line (which rules out a mislabelled cycle). The check
// reads the tables back from disk and shares nothing with the solver but
// the rules (package table).

// loadAll reads every table of dir for the given materials into a store,
// as a later run of Generate would; their capture positions are resolved
// as lookups reach them.
func loadAll(t testing.TB, dir string, mats []index.Material, extra table.Extra) *store {
	st := newStore(0)
	for _, m := range mats {
		s := loadTable(st, filepath.Join(dir, table.FileName(m)), index.New(m), &builder{Options: Options{DTW: extra.DTW, MTC: extra.MTC, Threads: 2}})
		if s == nil {
			t.Fatalf("table %v missing or invalid", m)
		}
		st.tables[m.Slot()] = s // with every column, not only those lookups read
	}
	return st
}

// stored returns the entry of position p from the store.
func stored(st *store, p *draughts.Position) rules.Entry {
	if t, i := st.locate(p); t != nil {
		e, _ := t.cols.Entry(i)
		return e
	}
	_, e := st.probe(p)
	return e
}

// best combines successor outcomes (each for the successor's side to move)
// into the outcome of the position, by the rule of rules.Minimax.
func best(outs []rules.Outcome) rules.Outcome {
	var m rules.Minimax
	for _, o := range outs {
		m.Add(o)
	}
	return m.Outcome()
}

// expected recomputes the entry of p from its successors, its mtc too if
// mtc is set.
func expected(st *store, p *draughts.Position, dtw, mtc bool) rules.Entry {
	class := rules.ClassOf(rules.MaterialOf(p))
	var theory, ru, conv []rules.Outcome
	for _, m := range p.Moves(nil) {
		q := p.Play(m)
		if q.Pieces(q.Side) == 0 {
			theory = append(theory, rules.Outcome{Value: rules.Loss})
			ru = append(ru, rules.Outcome{Value: rules.Loss})
			conv = append(conv, rules.Outcome{Value: rules.Loss})
			continue
		}
		e := stored(st, &q)
		theory = append(theory, e.TheoryOutcome())
		if !m.IsCapture() && p.Kings&draughts.Bit(m.FromSquare()) != 0 { // the clocks run on
			ru = append(ru, e.KingMoveOutcome(class))
			conv = append(conv, rules.Outcome{Value: e.Theory, Dist: e.MTC})
		} else {
			ru = append(ru, e.RulesOutcome(class, rules.ClassOf(rules.MaterialOf(&q))))
			conv = append(conv, rules.Outcome{Value: e.Theory})
		}
	}
	e := rules.NewEntry(class, best(theory), best(ru))
	if !dtw {
		e.DTW = -1
	}
	if o := best(conv); mtc && o.Value != rules.Draw {
		e.MTC = o.Dist
	}
	return e
}

// checkTables checks every stride-th position of every table of mats,
// reports the first mismatches with t.Logf and returns their number.
func checkTables(t *testing.T, st *store, mats []index.Material, dtw, mtc bool, stride int64) int {
	var eg errgroup.Group
	eg.SetLimit(2)
	var mu sync.Mutex
	bad := 0
	for _, m := range mats {
		x := index.New(m)
		for lo := int64(0); lo < x.Size(); lo += 1 << 16 {
			eg.Go(func() error {
				for i := lo; i < min(lo+1<<16, x.Size()); i += stride {
					p := rules.Position(x.Unrank(i))
					got, want := stored(st, &p), expected(st, &p, dtw, mtc)
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

// generatedDir is the directory of the tables generated outside the
// cache, removed by TestMain.
var generatedDir string

// generated returns the directory of the tables up to 4 pieces with dtw
// and mtc that Generate builds: tabletest.Four's set of the machine's
// cache (package testcache, which this package's tests cannot reach
// through tabletest), or a temporary directory of this test binary
// where the cache is off. The tests must not change it.
var generated = sync.OnceValues(func() (string, error) {
	o := Options{Pieces: 4, DTW: true, MTC: true}
	build := func(dir string) error {
		o := o
		o.Dir = dir
		return Generate(context.Background(), o)
	}
	if root := testcache.Root(); root != "" {
		return testcache.Dir(root, testcache.Key(o, ""), build) // the key of tabletest.Four
	}
	dir, err := os.MkdirTemp("", "dtb-retro-test")
	if err != nil {
		return "", err
	}
	generatedDir = dir
	return dir, build(dir)
})

func TestMain(m *testing.M) {
	code := m.Run()
	if generatedDir != "" {
		os.RemoveAll(generatedDir)
	}
	os.Exit(code)
}

// TestTablesAgainstSuccessors checks every table up to 4 pieces,
// theoretical values with their distances, rules values with their
// distances (class A, class B, rule 2) and the mtc: every position under
// DTB_LONG=1, a sample of them (testenv.Stride) otherwise.
func TestTablesAgainstSuccessors(t *testing.T) {
	dir, err := generated()
	if err != nil {
		t.Fatal(err)
	}
	mats := index.Materials(4)
	if bad := checkTables(t, loadAll(t, dir, mats, table.Extra{DTW: true, MTC: true}), mats, true, true, testenv.Stride(1, 53)); bad > 0 {
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
	st := loadAll(t, dir, mats, table.Extra{DTW: true})
	kk, _ := index.ParseMaterial("KKvK")
	p, _ := draughts.ParseFEN("W:WK1,K2:BK45") // a win in 7 plies, no capture
	s := st.get(kk)
	i := s.x.Rank(rules.Placement(&p))
	s.cols.Set(i, rules.Entry{Rules: rules.Draw, Theory: rules.Draw, Distance: -1, DTW: -1, MTC: -1})
	if bad := checkTables(t, st, mats, true, false, 1); bad == 0 {
		t.Error("a flipped value went unnoticed")
	}
}

// TestClassBudgets recomputes the class B tables (their distances and
// rules values) by the definition of docs/rules.md: the value under every
// budget b from 0 up, each from the values under b-1. The clock runs on
// over every move that stays in class B.
func TestClassBudgets(t *testing.T) {
	var mats []index.Material
	for _, m := range index.Materials(3) {
		if rules.ClassOf(m) == rules.ClassB {
			mats = append(mats, m)
		}
	}
	checkBudgets(t, mats, rules.ClassB, func(p, q *draughts.Position, mv draughts.Move) bool {
		return rules.ClassOf(rules.MaterialOf(q)) == rules.ClassB
	})
}

// TestRule2Budgets recomputes two 4-piece tables where both sides have a
// king, their rule-2 distances and rules values, in the same way: the
// count runs on over quiet king moves and restarts after a capture or a
// man move.
func TestRule2Budgets(t *testing.T) {
	testenv.SkipUnlessLong(t, "recomputing the rule-2 distances of three 4-piece tables")
	var mats []index.Material
	for _, name := range []string{"KKvKK", "KMvKK", "KKvKM"} {
		m, _ := index.ParseMaterial(name)
		mats = append(mats, m)
	}
	checkBudgets(t, mats, rules.Rule2, func(p, q *draughts.Position, mv draughts.Move) bool {
		return !mv.IsCapture() && p.Kings&draughts.Bit(mv.FromSquare()) != 0
	})
}

// checkBudgets computes the values of the tables of mats, of class c, by
// the definition of docs/rules.md: under budget 0 a position is lost if
// its side to move has no move and drawn otherwise; under budget b a move
// to q counts with q's value under b-1 if the clock runs on over it (the
// tables of mats must hold q then), else with q's stored rules value (a
// fresh clock). It goes up to the budget where the values stop changing
// (from there on they stay) and checks every stored distance and rules
// value (the value under c's budget).
func checkBudgets(t *testing.T, mats []index.Material, c rules.Class, runsOn func(p, q *draughts.Position, mv draughts.Move) bool) {
	dir, err := generated()
	if err != nil {
		t.Fatal(err)
	}
	st := loadAll(t, dir, index.Materials(4), table.Extra{})
	g := newBudgetGraph(st, mats, runsOn)
	// under[b][k][i] is the value of position i of mats[k] under budget b.
	var under [][][]rules.Value
	for b := 0; ; b++ {
		layer := g.layer(b, under)
		changed := b == 0
		for k, vals := range layer {
			changed = changed || !slices.Equal(vals, under[b-1][k])
		}
		if !changed {
			break
		}
		under = append(under, layer)
	}
	full := under[min(c.Budget(), len(under)-1)]
	bad := 0
	for k, m := range mats {
		x := index.New(m)
		for i := range x.Size() {
			p := rules.Position(x.Unrank(i))
			dist := -1
			for b := 0; b < len(under) && dist < 0; b++ {
				if under[b][k][i] != rules.Draw {
					dist = b
				}
			}
			if e := stored(st, &p); e.Distance != dist || e.Rules != full[k][i] {
				if bad++; bad <= 10 {
					t.Errorf("%s: stored %v; by budgets: distance %d, value under %d plies %v", p.FEN(), e, dist, c.Budget(), full[k][i])
				}
			}
		}
	}
	t.Logf("%v: values stable from budget %d on", mats, len(under)-1)
}

// A budgetGraph holds the moves of every position of a list of tables
// for checkBudgets, generated once for all budgets, by chunks of
// chunkPositions positions: per position, whether it has a move, the
// outcomes of the moves after which the clock starts afresh (or the game
// ends), added up, and the positions of the tables that the other moves
// lead to.
type budgetGraph struct {
	sizes  []int64
	chunks [][]budgetChunk // by table, then by chunk
}

const chunkPositions = 1 << 14

type budgetChunk struct {
	moves []bool
	fresh []rules.Minimax
	start []int32     // the moves of position j are runOn[start[j]:start[j+1]]
	runOn []budgetRef // the successors where the clock runs on
}

// A budgetRef is position i of the k-th table.
type budgetRef struct{ k, i int32 }

func newBudgetGraph(st *store, mats []index.Material, runsOn func(p, q *draughts.Position, mv draughts.Move) bool) *budgetGraph {
	g := &budgetGraph{chunks: make([][]budgetChunk, len(mats))}
	var eg errgroup.Group
	eg.SetLimit(2)
	for k, m := range mats {
		x := index.New(m)
		g.sizes = append(g.sizes, x.Size())
		g.chunks[k] = make([]budgetChunk, (x.Size()+chunkPositions-1)/chunkPositions)
		for n := range g.chunks[k] {
			eg.Go(func() error {
				lo := int64(n) * chunkPositions
				hi := min(lo+chunkPositions, x.Size())
				c := budgetChunk{moves: make([]bool, hi-lo), fresh: make([]rules.Minimax, hi-lo), start: make([]int32, 1, hi-lo+1)}
				for i := lo; i < hi; i++ {
					p := rules.Position(x.Unrank(i))
					moves := p.Moves(nil)
					c.moves[i-lo] = len(moves) > 0
					for _, mv := range moves {
						q := p.Play(mv)
						switch qm := rules.MaterialOf(&q); {
						case q.Pieces(q.Side) == 0:
							c.fresh[i-lo].Add(rules.Outcome{Value: rules.Loss})
						case runsOn(&p, &q, mv):
							c.runOn = append(c.runOn, budgetRef{int32(slices.Index(mats, qm)), int32(st.get(qm).x.Rank(rules.Placement(&q)))})
						default:
							c.fresh[i-lo].Add(rules.Outcome{Value: stored(st, &q).Rules})
						}
					}
					c.start = append(c.start, int32(len(c.runOn)))
				}
				g.chunks[k][n] = c
				return nil
			})
		}
	}
	eg.Wait()
	return g
}

// layer returns the values under budget b, from those under b-1.
func (g *budgetGraph) layer(b int, under [][][]rules.Value) [][]rules.Value {
	layer := make([][]rules.Value, len(g.sizes))
	var eg errgroup.Group
	eg.SetLimit(2)
	for k, chunks := range g.chunks {
		layer[k] = make([]rules.Value, g.sizes[k])
		for n, c := range chunks {
			eg.Go(func() error {
				vals := layer[k][n*chunkPositions:]
				for j, moves := range c.moves {
					switch {
					case !moves:
						vals[j] = rules.Loss
					case b == 0:
						vals[j] = rules.Draw
					default:
						m := c.fresh[j]
						for _, r := range c.runOn[c.start[j]:c.start[j+1]] {
							m.Add(rules.Outcome{Value: under[b-1][r.k][r.i]})
						}
						vals[j] = m.Outcome().Value
					}
				}
				return nil
			})
		}
	}
	eg.Wait()
	return layer
}

// TestPublishedLongestWins checks the longest wins under the rules that
// docs/rules.md cites (White to move, plies).
func TestPublishedLongestWins(t *testing.T) {
	dir, err := generated()
	if err != nil {
		t.Fatal(err)
	}
	st := loadAll(t, dir, index.Materials(4), table.Extra{})
	for name, want := range map[string]int{"KKKvK": 15, "KKMvK": 31, "KMMvK": 29, "KMvK": 9, "KKvK": 7, "KvK": 3} {
		m, _ := index.ParseMaterial(name)
		if got := st.get(m).stats.LongestDistance; got != want {
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
			p := rules.Position(x.Unrank(i))
			for _, mv := range p.Moves(nil) {
				q := p.Play(mv)
				if q.Pieces(q.Side) == 0 {
					continue
				}
				if s := rules.MaterialOf(&q); s != m.Flip() && !succ[s] {
					t.Fatalf("%s: %s leads to table %v, not among the successors of %v", p.FEN(), p.Notation(mv), s, m)
				}
			}
		}
	}
}
