package claim_test

import (
	"context"
	"os"
	"reflect"
	"testing"

	"github.com/dtb-draughts/dtb/cmd/dtb/internal/claim"
	"github.com/dtb-draughts/dtb/draughts"
	"github.com/dtb-draughts/dtb/internal/tabletest"
	"github.com/dtb-draughts/dtb/probe"
	"github.com/dtb-draughts/dtb/rules"
	"github.com/dtb-draughts/dtb/table"
)

// The tests answer queries from the tables up to 4 pieces with the dtw
// and mtc columns (tabletest.Four), built by the generator once per test
// binary; the package under test does not use it.

func tablesDir(t *testing.T) string { return tabletest.Four.Dir(t) }

func TestMain(m *testing.M) { os.Exit(tabletest.Run(m)) }

// query builds a query of materials, sides to move, constraints and
// value conditions.
func query(t *testing.T, mats []string, sides []draughts.Color, where, values []string) claim.Query {
	t.Helper()
	ms, err := claim.ParseMaterials(mats...)
	if err != nil {
		t.Fatal(err)
	}
	q := claim.Query{Materials: ms, Sides: sides, Examples: 5}
	for _, s := range where {
		c, err := claim.ParseConstraint(s)
		if err != nil {
			t.Fatal(err)
		}
		q.Where = append(q.Where, c)
	}
	for _, s := range values {
		c, err := claim.ParseValueCond(s)
		if err != nil {
			t.Fatal(err)
		}
		q.Values = append(q.Values, c)
	}
	return q
}

var (
	white = []draughts.Color{draughts.White}
	both  = []draughts.Color{draughts.White, draughts.Black}
)

// answer runs q on the tables of dir with threads goroutines.
func answer(t *testing.T, dir string, q claim.Query, threads int) *claim.Result {
	t.Helper()
	tb, err := probe.Open(dir, probe.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer tb.Close()
	res, err := q.Run(context.Background(), tb, threads)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// TestClaimCounts checks counts against the KvK table's stats (424 wins,
// 2024 draws, 2 losses for the side to move) and square constraints
// against counts by hand.
func TestClaimCounts(t *testing.T) {
	dir := tablesDir(t)
	res := answer(t, dir, query(t, []string{"KvK"}, both, nil, nil), 0)
	if w, b := res.Rows[0], res.Rows[1]; w.Rules != (table.Counts{Loss: 2, Draw: 2024, Win: 424}) || w.Theory != w.Rules ||
		b.Rules != (table.Counts{Loss: 424, Draw: 2024, Win: 2}) || b.Side != draughts.Black || w.Positions != 2450 {
		t.Errorf("KvK rows %+v %+v", w, b)
	}
	for _, c := range []struct {
		where []string
		want  int64
	}{
		{[]string{"bk=46"}, 49},
		{[]string{"bk!=46"}, 2450 - 49},
		{[]string{"bk=diag:5-46"}, 10 * 49},
		{[]string{"bk=diag:46-5"}, 10 * 49},
		{[]string{"w~1-5,diag:1-45"}, 5*49 + 9*49 - 49}, // square 1 in both
		{[]string{"wm=1"}, 2450},                        // no white man: all of them on 1
		{[]string{"wm~1-50"}, 0},
		{[]string{"wk=1-10", "bk=41-50"}, 100},
	} {
		res := answer(t, dir, query(t, []string{"KvK"}, white, c.where, nil), 0)
		if res.Rows[0].Positions != c.want {
			t.Errorf("KvK where %q: %d positions, want %d", c.where, res.Rows[0].Positions, c.want)
		}
	}
	res = answer(t, dir, query(t, []string{"KvK"}, white, nil, []string{"rules=win"}), 0)
	if l := res.Rows[0].Longest[draughts.White].Distance; l == nil || l.Entry.Distance != 3 || l.Position.FEN() != "W:WK10:BK5" {
		t.Errorf("KvK longest win %+v, want 3 plies at W:WK10:BK5", l)
	}
	res = answer(t, dir, query(t, []string{"KvK"}, both, nil, []string{"rules!=draw", "theory=loss"}), 0)
	if res.Rows[0].Positions != 2 || res.Rows[1].Positions != 424 || len(res.Examples) != 5 || res.Examples[0].Entry.Rules != rules.Loss {
		t.Errorf("KvK White losses: %+v", res)
	}
}

// TestClaimThreads checks that the answer does not depend on the number
// of threads.
func TestClaimThreads(t *testing.T) {
	dir := tablesDir(t)
	q := query(t, []string{"KKvK", "KMvK"}, both, []string{"bk~diag:1-45"}, []string{"theory!=draw"})
	one, many := answer(t, dir, q, 1), answer(t, dir, q, 7)
	if !reflect.DeepEqual(one, many) || len(one.Examples) != 5 {
		t.Errorf("1 thread: %+v\n7 threads: %+v", one, many)
	}
}

// TestPublishedLongestWins checks the longest wins under the rules that
// RULES.md cites, on the 4-piece tables.
func TestPublishedLongestWins(t *testing.T) {
	dir := tablesDir(t)
	names := []string{"KKKvK", "KKMvK", "KMMvK", "KMvK", "KKvK", "KvK"}
	res := answer(t, dir, query(t, names, white, nil, []string{"rules=win"}), 0)
	for i, want := range []int{15, 31, 29, 9, 7, 3} {
		if l := res.Rows[i].Longest[draughts.White].Distance; l == nil || l.Entry.Distance != want {
			t.Errorf("%s: longest win %+v, want %d plies", names[i], l, want)
		}
	}
}

func TestParseErrors(t *testing.T) {
	for _, s := range []string{"", "bk", "bk=", "xk=1", "bk=51", "bk=0", "bk=5-1", "bk=diag:5-45", "bk=diag:5", "bk!1", "bk=1,,2", "bk=a"} {
		if _, err := claim.ParseConstraint(s); err == nil {
			t.Errorf("ParseConstraint(%q): no error", s)
		}
	}
	for _, s := range []string{"", "rules", "rules=won", "value=win", "rules==win", "theory!draw"} {
		if _, err := claim.ParseValueCond(s); err == nil {
			t.Errorf("ParseValueCond(%q): no error", s)
		}
	}
	for _, s := range []string{"KvX", "C", "a"} {
		if _, err := claim.ParseMaterials("KvK", s); err == nil {
			t.Errorf("ParseMaterials(KvK, %q): no error", s)
		}
	}
	for _, s := range []string{"rules=win", "theory!=draw", "rules!=loss"} {
		if c, err := claim.ParseValueCond(s); err != nil || c.String() != s {
			t.Errorf("ParseValueCond(%q) = %v, %v", s, c, err)
		}
	}
}

func TestClassMaterials(t *testing.T) {
	var got []string
	for _, c := range []rules.Class{rules.ClassA, rules.ClassB} {
		for _, m := range claim.ClassMaterials(c) {
			got = append(got, m.String())
		}
	}
	if want := []string{"KKKvK", "KKMvK", "KMMvK", "KvK", "KKvK", "KMvK"}; !reflect.DeepEqual(got, want) {
		t.Errorf("class A and B materials %q, want %q", got, want)
	}
	if ms, err := claim.ParseMaterials("A", "B"); err != nil || len(ms) != len(got) {
		t.Errorf("ParseMaterials(A, B) = %v, %v; want the %d materials of class A and B", ms, err, len(got))
	}
}
