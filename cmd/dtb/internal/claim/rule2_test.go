package claim_test

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/dtb-draughts/dtb/cmd/dtb/internal/claim"
	"github.com/dtb-draughts/dtb/codec"
	"github.com/dtb-draughts/dtb/draughts"
	"github.com/dtb-draughts/dtb/index"
	"github.com/dtb-draughts/dtb/internal/tabletest"
	"github.com/dtb-draughts/dtb/rules"
	"github.com/dtb-draughts/dtb/table"
)

// rewriteTable copies the tables to a new directory and rewrites the
// table of material there through the codec: edit changes its header and
// its decoded columns (by table.Column; a column set to nil is dropped).
// The manifest is rewritten to match.
func rewriteTable(t *testing.T, material string, edit func(h *codec.Header, cols *table.Columns)) string {
	t.Helper()
	dir := tabletest.Copy(t, tablesDir(t))
	m, err := index.ParseMaterial(material)
	if err != nil {
		t.Fatal(err)
	}
	tabletest.Rewrite(t, dir, m, edit)
	return dir
}

// TestRule2Cursed checks --cursed rule2. No position up to 5 pieces is
// a win or loss that rule 2 turns into a draw, so the test first checks
// that the 4-piece tables have none, then rewrites entries of KKvKK (a
// rule-2 material: both sides have kings, neither class A nor B) into
// such wins and losses and checks that the query finds exactly those,
// and none once the table is rewritten as a table of the first version,
// which does not track rule 2.
func TestRule2Cursed(t *testing.T) {
	var rule2 []string
	for _, m := range index.Materials(4) {
		if rules.ClassOf(m) == rules.Rule2 {
			rule2 = append(rule2, m.String())
		}
	}
	// cursedQuery asks for the positions of mats cursed by rule 2.
	cursedQuery := func(mats []string, sides []draughts.Color) claim.Query {
		q := query(t, mats, sides, nil, nil)
		q.Rule2Cursed, q.Examples = true, 10
		return q
	}
	q := cursedQuery(rule2, both)
	if !strings.HasSuffix(q.String(), "; cursed by rule 2") {
		t.Errorf("query %q", q)
	}
	res := answer(t, tablesDir(t), q, 0)
	for _, r := range res.Rows {
		if r.Positions != 0 || r.Class != rules.Rule2 || !r.Distance {
			t.Errorf("4 pieces, %s, %v to move: %d positions cursed by rule 2 (class %v, distance %v); want 0 in a rule-2 table", r.Material, r.Side, r.Positions, r.Class, r.Distance)
		}
	}

	// Make three stored theoretical wins and losses of KKvKK (not capture
	// positions) need more than 50 plies on the count, and one need 50.
	m, _ := index.ParseMaterial("KKvKK")
	x := index.New(m)
	var cursed, kept []int64
	var values []rules.Value
	var unstated string // the rewritten table with the header's stats left as they were
	dir := rewriteTable(t, "KKvKK", func(h *codec.Header, cols *table.Columns) {
		for i := int64(0); i < x.Size() && len(cursed)+len(kept) < 4; i += 997 {
			p := rules.Position(x.Unrank(i))
			e, _ := cols.Entry(i)
			if p.HasCapture() || e.Theory == rules.Draw {
				continue
			}
			e.Rules, e.Distance = rules.Draw, rules.Rule2Plies+1+len(cursed)
			if len(cursed) == 3 {
				e.Rules, e.Distance = e.Theory, rules.Rule2Plies // won with a full count
				kept = append(kept, i)
			} else {
				cursed = append(cursed, i)
				values = append(values, e.Theory)
			}
			cols.Set(i, e)
		}
		unstated = rewriteTable(t, "KKvKK", func(uh *codec.Header, ucols *table.Columns) { *ucols = *cols })
		// The header's stats count them, as the generator's would.
		var st table.Stats
		if err := json.Unmarshal([]byte(h.Meta["stats"]), &st); err != nil {
			t.Fatal(err)
		}
		for _, v := range values {
			if v == rules.Win {
				st.Rule2CursedWins++
			} else {
				st.Rule2BlessedLosses++
			}
		}
		b, _ := json.Marshal(st)
		h.Meta["stats"] = string(b)
	})
	if len(cursed) != 3 || len(kept) != 1 {
		t.Fatalf("found %d and %d positions to rewrite", len(cursed), len(kept))
	}
	// A table whose header counts no such position is not searched for
	// them (its count is checked by dtb verify).
	q = cursedQuery([]string{"KKvKK"}, white)
	if r := answer(t, unstated, q, 0).Rows[0]; r.Positions != 0 {
		t.Errorf("header counting no cursed position: %d found", r.Positions)
	}
	q = cursedQuery([]string{"KKvKK", "KKvK"}, both)
	res = answer(t, dir, q, 3)
	var got []string
	for _, e := range res.Examples {
		got = append(got, e.Position.FEN())
	}
	var want []string
	for _, side := range []draughts.Color{draughts.White, draughts.Black} {
		for _, i := range cursed {
			p := rules.Position(x.Unrank(i))
			if side == draughts.Black {
				p = p.Flip() // KKvKK is its own colour flip
			}
			want = append(want, p.FEN())
		}
	}
	if !slices.Equal(got, want) {
		t.Errorf("positions cursed by rule 2 %q, want %q", got, want)
	}
	var wins int64
	for _, v := range values {
		if v == rules.Win {
			wins++
		}
	}
	w, b := res.Rows[0], res.Rows[1]
	if w.Positions != 3 || b.Positions != 3 || w.Rules.Draw != 3 || w.Theory.Win != wins || b.Theory.Loss != wins ||
		res.Rows[2].Positions != 0 || res.Rows[2].Class != rules.ClassB {
		t.Errorf("rows %+v", res.Rows)
	}
	// The longest of them by rule-2 distance is the last one rewritten.
	winner := draughts.White
	if values[2] == rules.Loss {
		winner = draughts.Black
	}
	if l := w.Longest[winner].Distance; l == nil || l.Entry.Distance != rules.Rule2Plies+3 ||
		!strings.Contains(w.DescribeLongest(winner), "rule-2 distance 53 plies") {
		t.Errorf("longest cursed win of %v: %+v, %q", winner, l, w.DescribeLongest(winner))
	}

	// As a table of the first version: no distance column, no rule 2.
	old := rewriteTable(t, "KKvKK", func(h *codec.Header, cols *table.Columns) {
		h.Rules = table.NoRule2.Rules()
		cols[table.DistanceColumn] = nil
		for _, i := range cursed {
			e, _ := cols.Entry(i)
			e.Rules = rules.Draw // as if a draw under the rules, for another reason
			cols.Set(i, e)
		}
	})
	q = cursedQuery([]string{"KKvKK"}, white)
	res = answer(t, old, q, 0)
	if r := res.Rows[0]; r.Positions != 0 || r.Class != rules.NoClass || r.Distance {
		t.Errorf("first version: %+v, want no position, no class, no distance", r)
	}
}

// TestLongestMTC checks that the longest wins include the mtc where the
// table has the column: in KvK a win ends with the capture of the lone
// king, so the longest mtc is the longest dtw, 3 plies.
func TestLongestMTC(t *testing.T) {
	res := answer(t, tablesDir(t), query(t, []string{"KvK"}, white, nil, nil), 0)
	r := res.Rows[0]
	l := r.Longest[draughts.White]
	if !r.MTC || l.MTC == nil || l.MTC.Entry.MTC != 3 || l.DTW == nil || l.DTW.Entry.DTW != 3 ||
		!strings.HasSuffix(r.DescribeLongest(draughts.White), ", mtc 3 plies ("+l.MTC.Position.FEN()+")") {
		t.Errorf("KvK longest: %+v %+v, %q", l.MTC, l.DTW, r.DescribeLongest(draughts.White))
	}
}
