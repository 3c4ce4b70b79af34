package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/dtb-draughts/dtb/codec"
	"github.com/dtb-draughts/dtb/index"
	"github.com/dtb-draughts/dtb/internal/tabletest"
	"github.com/dtb-draughts/dtb/retro"
	"github.com/dtb-draughts/dtb/rules"
	"github.com/dtb-draughts/dtb/table"
)

// writeTable writes a table of m to dir whose entries are draws but for
// those of set, by index, with the optional columns of x, and returns its
// path.
func writeTable(t *testing.T, dir, material string, x table.Extra, set map[int64]rules.Entry) string {
	t.Helper()
	m, err := index.ParseMaterial(material)
	if err != nil {
		t.Fatal(err)
	}
	n := index.New(m).Size()
	cols := table.NewLayout(m, x).MakeColumns(n)
	for i := range n {
		e, ok := set[i]
		if !ok {
			e = rules.Entry{Rules: rules.Draw, Theory: rules.Draw, Distance: -1, DTW: -1, MTC: -1}
		}
		cols.Set(i, e)
	}
	path := filepath.Join(dir, table.FileName(m))
	w, err := table.NewWriter(path, m, x, table.Full)
	if err == nil {
		if err = w.AddColumns(&cols, make([]uint64, (n+63)/64)); err != nil {
			w.Abort()
		} else {
			err = w.Close()
		}
	}
	if err != nil {
		t.Fatal(err)
	}
	return path
}

// setRules rewrites the rules flags of the table of material in dir,
// its columns unchanged.
func setRules(t *testing.T, dir, material string, ru uint32) {
	t.Helper()
	m, _ := index.ParseMaterial(material)
	tabletest.Rewrite(t, dir, m, func(h *codec.Header, _ *table.Columns) { h.Rules = ru })
}

// TestStatsRule2 checks the rule-2 and mtc columns of dtb stats and its
// summary on synthetic tables: KKvKK (rule 2 tracked, with mtc) with a
// win and a loss that rule 2 draws, and KvK (with dtw) written as a table
// of the first version, which does not track rule 2.
func TestStatsRule2(t *testing.T) {
	dir := t.TempDir()
	writeTable(t, dir, "KKvKK", table.Extra{MTC: true}, map[int64]rules.Entry{
		5:  {Rules: rules.Draw, Theory: rules.Win, Distance: 60, DTW: -1, MTC: 60},  // cursed by rule 2
		6:  {Rules: rules.Draw, Theory: rules.Loss, Distance: 52, DTW: -1, MTC: 52}, // blessed by rule 2
		7:  {Rules: rules.Draw, Theory: rules.Loss, Distance: 54, DTW: -1, MTC: 54}, // blessed by rule 2
		9:  {Rules: rules.Win, Theory: rules.Win, Distance: 20, DTW: -1, MTC: 20},
		10: {Rules: rules.Draw, Theory: rules.Win, Distance: -1, DTW: -1, MTC: 3}, // cursed, not by rule 2 itself
	})
	writeTable(t, dir, "KvK", table.Extra{DTW: true}, map[int64]rules.Entry{
		0: {Rules: rules.Win, Theory: rules.Win, Distance: 3, DTW: 61, MTC: -1},
		1: {Rules: rules.Loss, Theory: rules.Loss, Distance: 0, DTW: 0, MTC: -1},
	})
	if err := retro.WriteManifest(dir); err != nil {
		t.Fatal(err)
	}
	setRules(t, dir, "KvK", table.NoRule2.Rules())
	fen := func(material string, i int64) string {
		m, _ := index.ParseMaterial(material)
		p := rules.Position(index.New(m).Unrank(i))
		return p.FEN()
	}

	out, errOut, code := dtb("stats", "--dir", dir)
	if code != 0 {
		t.Fatalf("stats: %d %q", code, errOut)
	}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	rows := map[string][]string{}
	for _, l := range lines[1:] {
		if f := strings.Fields(l); len(f) > 0 {
			rows[f[0]] = f
		}
	}
	// material positions captures, rules win draw loss, theory win draw
	// loss, cursed blessed, rule2 cursed blessed, distance, dtw, mtc
	n := index.New(index.Material{WhiteKings: 2, BlackKings: 2}).Size()
	if want := strings.Fields("KKvKK " + itoa(n) + " 0 1 " + itoa(n-1) + " 0 3 " + itoa(n-5) + " 2 2 2 1 2 20 " +
		fen("KKvKK", 9) + " - - 60 " + fen("KKvKK", 5)); !slices.Equal(rows["KKvKK"], want) {
		t.Errorf("stats: KKvKK row %q, want %q", rows["KKvKK"], want)
	}
	if want := strings.Fields("KvK 2450 0 1 2448 1 1 2448 1 0 0 - - 3 " + fen("KvK", 0) + " 61 " + fen("KvK", 0) + " - -"); !slices.Equal(rows["KvK"], want) {
		t.Errorf("stats: KvK row %q, want %q", rows["KvK"], want)
	}
	if want := "theoretical wins turned into draws by the 16-move rule (class A): 0; by the 5-move rule (class B): 0; " +
		"by the 25-move king rule (rule 2): 1, and losses it saves: 2 (in the 1 tables that track it)"; lines[len(lines)-2] != want {
		t.Errorf("stats: summary %q, want %q", lines[len(lines)-2], want)
	}
	if want := "wins and losses longer than 50 plies in the 1 tables that do not track the 25-move king rule, where it could matter: 1"; lines[len(lines)-1] != want {
		t.Errorf("stats: last line %q, want %q", lines[len(lines)-1], want)
	}

	out, errOut, code = dtb("stats", "--dir", dir, "--json")
	if code != 0 {
		t.Fatalf("stats --json: %d %q", code, errOut)
	}
	var got []map[string]any
	for _, l := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
		var row map[string]any
		if err := json.Unmarshal([]byte(l), &row); err != nil {
			t.Fatalf("stats --json: line %q: %v", l, err)
		}
		got = append(got, row)
	}
	for _, c := range []struct {
		material, field string
		want            any // JSON numbers are float64
	}{
		{"KvK", "rule2", false},
		{"KvK", "rule2_cursed_wins", nil},
		{"KvK", "longest.mtc", nil},
		{"KvK", "rule2_candidates", 1.0},
		{"KKvKK", "rule2", true},
		{"KKvKK", "rule2_cursed_wins", 1.0},
		{"KKvKK", "rule2_blessed_losses", 2.0},
		{"KKvKK", "longest.mtc.plies", 60.0},
		{"KKvKK", "longest.mtc.fen", fen("KKvKK", 5)},
		{"KKvKK", "rule2_candidates", "absent"},
	} {
		i := slices.IndexFunc(got, func(r map[string]any) bool { return r["material"] == c.material })
		if i < 0 {
			t.Fatalf("stats --json: no %s in %q", c.material, out)
		}
		var v any = got[i]
		for _, k := range strings.Split(c.field, ".") { // a path of keys
			o, ok := v.(map[string]any)[k]
			if !ok {
				o = "absent"
			}
			if v = o; v == nil || v == "absent" {
				break
			}
		}
		if v != c.want {
			t.Errorf("stats --json: %s %s = %v, want %v", c.material, c.field, v, c.want)
		}
	}

	// Without a table that tracks rule 2, the summary says so.
	os.Remove(filepath.Join(dir, "KKvKK.dtb"))
	if err := retro.WriteManifest(dir); err != nil {
		t.Fatal(err)
	}
	out, _, _ = dtb("stats", "--dir", dir)
	if !strings.Contains(out, "by the 5-move rule (class B): 0; the 25-move king rule (rule 2) is not tracked\n") {
		t.Errorf("stats without rule 2: %q", out)
	}
}

func itoa(n int64) string { b, _ := json.Marshal(n); return string(b) }
