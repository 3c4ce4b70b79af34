package main

import (
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/dtb-draughts/dtb/codec"
	"github.com/dtb-draughts/dtb/draughts"
	"github.com/dtb-draughts/dtb/index"
	"github.com/dtb-draughts/dtb/internal/tabletest"
	"github.com/dtb-draughts/dtb/rules"
	"github.com/dtb-draughts/dtb/table"
)

func TestMain(m *testing.M) {
	code := tabletest.Run(m)
	os.RemoveAll(binary.dir)
	os.Exit(code)
}

// tablesDir returns a copy of the golden tables, up to 3 pieces with dtw.
func tablesDir(t *testing.T) string { return tabletest.Copy(t, tabletest.Golden) }

// copyTables copies the golden tables to a new directory and applies
// damage to each file named in it, a function returning its new bytes.
func copyTables(t *testing.T, damage map[string]func(b []byte) []byte) string {
	dir := tablesDir(t)
	for name, f := range damage {
		path := filepath.Join(dir, name)
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, f(b), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestProbeCommand(t *testing.T) {
	dir := tablesDir(t)
	out, errOut, code := dtb("probe", "--dir", dir, "W:BK5:WK10.", "W:WK2:BK26", "B:WK10")
	want := "W:WK10:BK5  rules win  theoretical win  White wins in 2 moves (dtw 3 plies)  distance 3 plies on the class B clock\n" +
		"W:WK2:BK26  rules draw  theoretical draw\n" +
		"B:WK10:B  rules loss  theoretical loss  White has won (dtw 0 plies)  distance 0 plies  mtc 0 plies\n"
	if code != 0 || out != want {
		t.Errorf("probe: %d %q %q, want %q", code, out, errOut, want)
	}
	out, errOut, code = dtb("probe", "--dir", dir, "--json", "W:WK10:BK5", "W:WK2:BK26", "W:W28:B23,K45")
	want = `{"fen":"W:WK10:BK5","category":"win","rules":"win","theory":"win","distance":3,"dtw":3,"mtc":null,"clock":"class B","class_played":0,"rule2_played":null}` + "\n" +
		`{"fen":"W:WK2:BK26","category":"draw","rules":"draw","theory":"draw","distance":null,"dtw":null,"mtc":null,"clock":"class B","class_played":0,"rule2_played":null}` + "\n" +
		`{"fen":"W:W28:B23,K45","category":"loss","rules":"loss","theory":"loss","distance":null,"dtw":6,"mtc":null,"clock":null,"class_played":null,"rule2_played":null}` + "\n"
	if code != 0 || out != want {
		t.Errorf("probe --json: %d %q %q, want %q", code, out, errOut, want)
	}

	out, errOut, code = dtb("probe", "--dir", dir, "--moves", "W:W28:BK23", "B:WK10:B")
	want = "W:W28:BK23  rules win  theoretical win  White wins in 1 move (dtw 1 ply)\n" +
		"  28x19  rules win  theoretical win  White wins in 1 move (dtw 1 ply)  mtc 1 ply\n" +
		"B:WK10:B  rules loss  theoretical loss  White has won (dtw 0 plies)  distance 0 plies  mtc 0 plies\n"
	if code != 0 || out != want {
		t.Errorf("probe --moves: %d %q %q, want %q", code, out, errOut, want)
	}
	// With 2 plies played on the class clock, 8 left, the win in 9 is a
	// draw; with 1 played it is a win, and so is the move that keeps it.
	out, errOut, code = dtb("probe", "--dir", dir, "--moves", "--json", "--clock", "2", "W:WK2,6:BK50")
	want = `{"fen":"W:WK2,6:BK50","category":"cursed-win","rules":"draw","theory":"win","distance":9,"dtw":9,"mtc":null,"clock":"class B","class_played":2,"rule2_played":null,"moves":[` +
		`{"move":"2-11","category":"cursed-win","rules":"draw","theory":"win","distance":9,"dtw":9,"mtc":null,"clock":"class B"},` +
		`{"move":"6-1","category":"draw","rules":"draw","theory":"draw","distance":null,"dtw":null,"mtc":null,"clock":"class B"},`
	if code != 0 || !strings.HasPrefix(out, want) || strings.Count(out, `"move"`) != 10 {
		t.Errorf("probe --moves --json --clock 2: %d %q %q, want 10 moves after %q", code, out, errOut, want)
	}
	out, errOut, code = dtb("probe", "--dir", dir, "--moves", "--clock", "1", "W:WK2,6:BK50")
	want = "W:WK2,6:BK50  rules win  theoretical win  White wins in 5 moves (dtw 9 plies)  distance 9 plies on the class B clock\n" +
		"  2-11  rules win  theoretical win  White wins in 5 moves (dtw 9 plies)  distance 9 plies on the class B clock\n"
	if code != 0 || !strings.HasPrefix(out, want) {
		t.Errorf("probe --moves --clock 1: %d %q %q, want it to begin %q", code, out, errOut, want)
	}

	// --dir defaults to ./tables.
	cwd := t.TempDir()
	if err := os.CopyFS(filepath.Join(cwd, "tables"), os.DirFS(dir)); err != nil {
		t.Fatal(err)
	}
	t.Chdir(cwd)
	if out, _, code := dtb("probe", "W:WK10:BK5"); code != 0 || !strings.HasPrefix(out, "W:WK10:BK5  rules win") {
		t.Errorf("probe with the default --dir: %d %q", code, out)
	}
}

func TestStatsCommand(t *testing.T) {
	dir := tablesDir(t)
	out, errOut, code := dtb("stats", "--dir", dir)
	if code != 0 {
		t.Fatalf("stats: %d %q", code, errOut)
	}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if h := strings.Join(strings.Fields(lines[0]), " "); !strings.HasSuffix(h, "distance plies position dtw plies position mtc plies position") {
		t.Errorf("stats: header %q, want the longest distance, dtw and mtc in plies", lines[0])
	}
	var names []string
	for _, l := range lines[1:] {
		if f := strings.Fields(l); len(f) > 0 {
			names = append(names, f[0])
		}
	}
	var want []string
	for _, m := range index.Materials(3) {
		want = append(want, m.String())
	}
	if !slices.Equal(names[:len(want)], want) || names[len(want)] != "total" ||
		lines[len(lines)-1] != "theoretical wins turned into draws by the 16-move rule (class A): 0; by the 5-move rule (class B): 0; "+
			"by the 25-move king rule (rule 2): 0, and losses it saves: 0" {
		t.Errorf("stats: rows %q, last lines %q", names, lines[len(lines)-2:])
	}
	if f := strings.Fields(lines[1]); !slices.Equal(f, strings.Fields("KvK 2450 408 424 2024 2 424 2024 2 0 0 0 0 3 W:WK10:BK5 3 W:WK10:BK5 - -")) {
		t.Errorf("stats: KvK row %q", lines[1])
	}

	out, errOut, code = dtb("stats", "--dir", dir, "--json")
	if code != 0 {
		t.Fatalf("stats --json: %d %q", code, errOut)
	}
	names = nil
	for _, l := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
		var row struct {
			Material  string           `json:"material"`
			Positions int64            `json:"positions"`
			Rules     map[string]int64 `json:"rules"`
			Theory    map[string]int64 `json:"theory"`
			Longest   longestWins      `json:"longest"`
		}
		if err := json.Unmarshal([]byte(l), &row); err != nil || row.Positions == 0 {
			t.Errorf("stats --json: line %q: %v", l, err)
		}
		counts := map[string]int64{"win": 424, "draw": 2024, "loss": 2}
		if row.Material == "KvK" && (row.Longest.Distance == nil || *row.Longest.Distance != longestWin{"W:WK10:BK5", 3} || row.Longest.DTW == nil || row.Longest.DTW.Plies != 3 || row.Longest.MTC != nil || !maps.Equal(row.Rules, counts) || !maps.Equal(row.Theory, counts)) {
			t.Errorf("stats --json: KvK: %q, want the longest distance and dtw 3 plies from W:WK10:BK5, no mtc, rules and theory %v", l, counts)
		}
		names = append(names, row.Material)
	}
	if !slices.Equal(names, want) {
		t.Errorf("stats --json: materials %q, want %q", names, want)
	}
}

// TestProbeErrors checks that bad input exits with status 2 and missing or
// damaged tables with status 1, each with one line on stderr.
func TestProbeErrors(t *testing.T) {
	dir := tablesDir(t)
	damaged := copyTables(t, map[string]func([]byte) []byte{
		"KvK.dtb": flip(-3), // a block
		"KvM.dtb": flip(30), // the header
	})
	missing := filepath.Join(t.TempDir(), "nothing")
	for _, c := range []struct {
		args []string
		code int
	}{
		{[]string{"probe", "--dir", dir, "W:WK10:BK5", "W:W51"}, 2},
		{[]string{"probe", "--dir", dir, "W:WK10"}, 2}, // Black has no pieces
		{[]string{"probe", "--dir", dir, "W:W:B"}, 2},  // no pieces at all
		{[]string{"probe", "--dir", dir, "B"}, 2},
		{[]string{"probe", "--dir", missing, "W:WK10:BK5"}, 1},
		{[]string{"probe", "--dir", dir, "W:WK1,K2,K3:BK40"}, 1}, // no KKKvK table
		{[]string{"probe", "--dir", damaged, "W:WK10:BK5"}, 1},
		{[]string{"probe", "--dir", damaged, "W:W28:B23,K45"}, 1}, // 28x19 leads to KvM
		{[]string{"probe", "--dir", dir, "--clock", "-1", "W:WK10:BK5"}, 2},
		{[]string{"probe", "--dir", dir, "--rule2", "-1", "W:WK10:BK5"}, 2},
		{[]string{"line", "--dir", dir, "--clock", "-1", "W:WK10:BK5"}, 2},
		{[]string{"probe", "--dir", dir, "--class-clock", "8", "W:WK10:BK5"}, 2}, // replaced by --clock
		{[]string{"stats", "--dir", dir, "KvK"}, 2},
		{[]string{"stats", "--dir", missing}, 1},
		{[]string{"stats", "--dir", damaged}, 1},
		{[]string{"size", "--dir", dir, "KvK"}, 2},
		{[]string{"size", "--dir", missing}, 1},
		{[]string{"size", "--dir", damaged}, 1}, // KvM's header
	} {
		out, errOut, code := dtb(c.args...)
		if code != c.code || out != "" || strings.Count(errOut, "\n") != 1 || !strings.HasPrefix(errOut, "dtb "+c.args[0]+": ") {
			t.Errorf("dtb %q: status %d, stdout %q, stderr %q; want status %d and one line on stderr", c.args, code, out, errOut, c.code)
		}
	}
}

// TestProbeMissingTables probes a batch in which some positions need a
// table the directory lacks: each is named with the table, the most
// pieces of the directory's tables and how to build it, or with dtb
// gen's limit where it cannot; the others are answered.
func TestProbeMissingTables(t *testing.T) {
	dir := copyTables(t, nil)
	entries, err := codec.ReadManifest(dir)
	if err != nil {
		t.Fatal(err)
	}
	entries = slices.DeleteFunc(entries, func(e codec.ManifestEntry) bool { return e.Material == "KvM" })
	if err := codec.WriteManifest(dir, entries); err != nil {
		t.Fatal(err)
	}
	out, errOut, code := dtb("probe", "--dir", dir, "W:WK10:BK5", "B:WK1,K2,K3:BK40", "W:W28:B23,K45", "W:W31-50:B1-20", "W:WK10:BK5")
	want := "W:WK10:BK5  rules win  theoretical win  White wins in 2 moves (dtw 3 plies)  distance 3 plies on the class B clock\n"
	if code != 1 || out != want+want {
		t.Errorf("status %d, stdout %q; want 1 and %q twice", code, out, want)
	}
	for _, line := range []string{
		"dtb probe: B:WK1,K2,K3:BK40: no table for KvKKK in " + dir + ", whose largest tables have 3 pieces (build it with: dtb gen --only KvKKK --out " + dir + ")\n",
		"dtb probe: W:W28:B23,K45: its captures lead to KvM: no table for it in " + dir + ", whose largest tables have 3 pieces (build it with: dtb gen --only MvKM --out " + dir + ")\n",
		": 40 pieces, more than any table: the largest in " + dir + " have 3 pieces, and dtb gen builds tables of up to 7\n",
	} {
		if !strings.Contains(errOut, line) {
			t.Errorf("stderr %q, want the line %q", errOut, line)
		}
	}
	if n := strings.Count(errOut, "\n"); n != 3 {
		t.Errorf("stderr has %d lines, want 3: %q", n, errOut)
	}
}

// flip returns the damage that flips bits of the byte at offset i, from
// the end if i is negative.
func flip(i int) func(b []byte) []byte {
	return func(b []byte) []byte {
		if i < 0 {
			i += len(b)
		}
		b[i] ^= 0x55
		return b
	}
}

// TestProbeDamaged probes through a damaged table, its rules flags forged
// among the damages: the one line on stderr names the file, says it is
// damaged and gives the command that rebuilds it, in the user's words: no
// package name, no decoder message.
func TestProbeDamaged(t *testing.T) {
	for what, damage := range map[string]func([]byte) []byte{
		"a byte flipped": func(b []byte) []byte { return flip(len(b) / 2)(b) },
		"truncated":      func(b []byte) []byte { return b[:len(b)/2] },
		"emptied":        func([]byte) []byte { return nil },
		"flags forged":   tabletest.ForgedRules(table.Work.Rules()), // the header checksum recomputed
	} {
		dir := copyTables(t, map[string]func([]byte) []byte{"KKvK.dtb": damage})
		out, errOut, code := dtb("probe", "--dir", dir, "W:WK10:BK5", "W:WK10,K20:BK5")
		prefix := "dtb probe: W:WK10,K20:BK5: " + filepath.Join(dir, "KKvK.dtb") + " is damaged ("
		suffix := "); rebuild it with: dtb gen --only KKvK --out " + dir + "\n"
		if code != 1 || !strings.HasPrefix(out, "W:WK10:BK5  rules win") || strings.Count(errOut, "\n") != 1 ||
			!strings.HasPrefix(errOut, prefix) || !strings.HasSuffix(errOut, suffix) {
			t.Errorf("%s: status %d, stdout %q, stderr %q; want 1, the answer of KvK and %q...%q", what, code, out, errOut, prefix, suffix)
		}
		for _, raw := range []string{"codec", "probe:", "table:", "zstd", "magic number", "invalid input"} {
			if strings.Contains(strings.TrimPrefix(errOut, "dtb probe: "), raw) {
				t.Errorf("%s: stderr %q says %q", what, errOut, raw)
			}
		}
	}
}

// TestProbeNoTables probes a directory without tables or without a
// manifest: the message says how to build or mend it.
func TestProbeNoTables(t *testing.T) {
	empty := t.TempDir()
	unlisted := copyTables(t, nil)
	if err := os.Remove(filepath.Join(unlisted, codec.ManifestName)); err != nil {
		t.Fatal(err)
	}
	badManifest := copyTables(t, map[string]func([]byte) []byte{codec.ManifestName: func(b []byte) []byte { return b[:len(b)/2] }})
	for _, c := range []struct{ dir, want string }{
		{empty, empty + " holds no tables (build them with: dtb gen --out " + empty + ")"},
		{filepath.Join(empty, "x"), filepath.Join(empty, "x") + " holds no tables (build them with: dtb gen --out " + filepath.Join(empty, "x") + ")"},
		{unlisted, unlisted + " has tables but no MANIFEST.json (write it with: dtb gen --manifest --out " + unlisted + ")"},
		{badManifest, filepath.Join(badManifest, codec.ManifestName) + " is damaged (not valid JSON); write it anew with: dtb gen --manifest --out " + badManifest},
	} {
		out, errOut, code := dtb("probe", "--dir", c.dir, "W:WK10:BK5")
		if want := "dtb probe: " + c.want + "\n"; code != 1 || out != "" || errOut != want {
			t.Errorf("probe --dir %s: status %d, stdout %q, stderr %q; want 1 and %q", c.dir, code, out, errOut, want)
		}
	}
	deleted := copyTables(t, nil)
	if err := os.Remove(filepath.Join(deleted, "KKvK.dtb")); err != nil {
		t.Fatal(err)
	}
	_, errOut, code := dtb("probe", "--dir", deleted, "W:WK10,K20:BK5")
	if want := "dtb probe: W:WK10,K20:BK5: " + filepath.Join(deleted, "KKvK.dtb") + " is listed in MANIFEST.json but missing (rebuild it with: dtb gen --only KKvK --out " + deleted + ")\n"; code != 1 || errOut != want {
		t.Errorf("probe without KKvK.dtb: status %d, stderr %q; want 1 and %q", code, errOut, want)
	}
	// The commands given mend the directories.
	for _, dir := range []string{unlisted, badManifest} {
		if _, errOut, code := dtb("gen", "--manifest", "--out", dir); code != 0 {
			t.Fatalf("gen --manifest --out %s: %d %q", dir, code, errOut)
		}
		if out, errOut, code := dtb("probe", "--dir", dir, "W:WK10:BK5"); code != 0 || !strings.HasPrefix(out, "W:WK10:BK5  rules win") {
			t.Errorf("probe after gen --manifest: %d %q %q", code, out, errOut)
		}
	}
}

// TestProbeStdin probes the FENs of stdin: every good line is answered,
// each bad one reported with its line number, and the status is 2.
func TestProbeStdin(t *testing.T) {
	out, errOut, code := dtbStdin("W:WK10:BK5\n\n  W:W51 \nW\nW:WK2:BK26\n", "probe", "--dir", tabletest.Golden)
	want := "W:WK10:BK5  rules win  theoretical win  White wins in 2 moves (dtw 3 plies)  distance 3 plies on the class B clock\n" +
		"W:WK2:BK26  rules draw  theoretical draw\n"
	wantErr := "dtb probe: line 3: FEN \"W:W51\": square 51 out of range 1..50 at column 4\n" +
		"dtb probe: line 4: W:W:B: no pieces on the board\n"
	if code != 2 || out != want || errOut != wantErr {
		t.Errorf("probe of stdin: status %d, stdout %q, stderr %q; want 2, %q and %q", code, out, errOut, want, wantErr)
	}
	out, errOut, code = dtbStdin("W:WK10:BK5\nW:WK1,K2,K3:BK40\n", "probe", "--dir", tabletest.Golden, "--json")
	if code != 1 || strings.Count(out, "\n") != 1 || !strings.HasPrefix(errOut, "dtb probe: line 2: W:WK1,K2,K3:BK40: no table for KKKvK in ") {
		t.Errorf("probe --json of stdin with a missing table: status %d, stdout %q, stderr %q", code, out, errOut)
	}
	if out, errOut, code := dtbStdin("", "probe", "--dir", tabletest.Golden); code != 0 || out != "" || errOut != "" {
		t.Errorf("probe of an empty stdin: status %d, stdout %q, stderr %q", code, out, errOut)
	}
}

// TestProbeNoDTW checks that a probe of tables without the dtw says once
// per material, on stderr, how to build it, and still answers.
func TestProbeNoDTW(t *testing.T) {
	plain := filepath.Join(filepath.Dir(tabletest.Golden), "golden-plain")
	out, errOut, code := dtb("probe", "--dir", plain, "W:WK10:BK5", "W:WK46:BK5", "W:WK2:BK26", "W:W30:B10")
	want := "W:WK10:BK5  rules win  theoretical win  distance 3 plies on the class B clock\n" +
		"W:WK46:BK5  rules loss  theoretical loss  distance 2 plies on the class B clock\n" +
		"W:WK2:BK26  rules draw  theoretical draw\n" +
		"W:W30:B10  rules loss  theoretical loss\n"
	hint := func(m string) string {
		return "dtb probe: the tables of " + m + " in " + plain + " have no dtw (build them with: dtb gen --only " + m + " --dtw --out " + plain + ")\n"
	}
	if wantErr := hint("KvK") + hint("MvM"); code != 0 || out != want || errOut != wantErr {
		t.Errorf("probe without dtw: status %d, stdout %q, stderr %q; want 0, %q and %q", code, out, errOut, want, wantErr)
	}
	if _, errOut, _ := dtb("probe", "--dir", tabletest.Golden, "W:WK10:BK5"); errOut != "" {
		t.Errorf("probe with dtw: stderr %q", errOut)
	}
}

// FuzzProbeBatch sends dtb probe any standard input over the golden
// tables: each line that is not blank gets one line, its answer on
// stdout or why not on stderr, and the batch goes on to the end.
func FuzzProbeBatch(f *testing.F) {
	for _, in := range []string{
		"W:WK10:BK5\nW:WK2,6:BK50 clock=11\n",
		"W:WK1,K2,K3:BK50\n\n  \nB clock=1 rule2=-1\r\nW:W28:B23,K45",
		strings.Repeat("x", maxLine) + "\nW:WK10:BK5\n",
	} {
		f.Add(in)
	}
	f.Fuzz(func(t *testing.T, in string) {
		out, errOut, code := dtbStdin(in, "probe", "--dir", tabletest.Golden)
		if code > 2 {
			t.Fatalf("dtb probe: exit status %d: %s", code, errOut)
		}
		lines := 0
		for _, l := range strings.Split(strings.TrimSuffix(in, "\n"), "\n") {
			if strings.TrimSpace(l) != "" || len(l) >= maxLine {
				lines++
			}
		}
		if got := strings.Count(out, "\n") + strings.Count(errOut, "\n"); got != lines {
			t.Fatalf("%d lines in, %d out: %q %q", lines, got, out, errOut)
		}
	})
}

// TestDescribe checks the words of an entry: each distance in plies, a
// win or loss also in the winner's moves, whoever is to move and whoever
// the values are for.
func TestDescribe(t *testing.T) {
	w, b := draughts.White, draughts.Black
	for _, c := range []struct {
		e           rules.Entry
		clock       rules.Class
		pov, toMove draughts.Color
		want        string
	}{
		{rules.Entry{Rules: rules.Win, Theory: rules.Win, Distance: 9, DTW: 9, MTC: -1}, rules.ClassB, w, w,
			"rules win  theoretical win  White wins in 5 moves (dtw 9 plies)  distance 9 plies on the class B clock"},
		{rules.Entry{Rules: rules.Draw, Theory: rules.Win, Distance: 1, DTW: 3, MTC: 1}, rules.Rule2, b, b,
			"rules draw  theoretical win  Black wins in theory in 2 moves (dtw 3 plies)  distance 1 ply on the rule-2 count  mtc 1 ply"},
		{rules.Entry{Rules: rules.Loss, Theory: rules.Loss, Distance: -1, DTW: 6, MTC: -1}, rules.NoClass, w, w,
			"rules loss  theoretical loss  Black wins in 3 moves (dtw 6 plies)"},
		// A claim's example: values for White, Black to move.
		{rules.Entry{Rules: rules.Win, Theory: rules.Win, Distance: 2, DTW: 2, MTC: -1}, rules.ClassA, w, b,
			"rules win  theoretical win  White wins in 1 move (dtw 2 plies)  distance 2 plies on the class A clock"},
		{rules.Entry{Rules: rules.Loss, Theory: rules.Loss, Distance: 0, DTW: 0, MTC: 0}, rules.NoClass, b, b,
			"rules loss  theoretical loss  White has won (dtw 0 plies)  distance 0 plies  mtc 0 plies"},
		{rules.Entry{Rules: rules.Draw, Theory: rules.Draw, Distance: -1, DTW: -1, MTC: -1}, rules.ClassB, w, w,
			"rules draw  theoretical draw"},
	} {
		if got := describe(c.e, c.clock, c.pov, c.toMove); got != c.want {
			t.Errorf("describe(%+v, %v, %v, %v) = %q, want %q", c.e, c.clock, c.pov, c.toMove, got, c.want)
		}
	}
}
