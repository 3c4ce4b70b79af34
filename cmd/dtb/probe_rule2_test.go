package main

import (
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/dtb-draughts/dtb/index"
	"github.com/dtb-draughts/dtb/internal/tabletest"
)

// rule2Dir returns the directory of KMvKK and the tables it needs (KKvKK
// and KKvKM among them), with the dtw and mtc columns.
func rule2Dir(t *testing.T) string { return tabletest.Rule2.Dir(t) }

// TestProbeRule2 checks --rule2: a KKvKM win at rule-2 distance 9 holds
// with 41 plies on the count and is drawn with 42, in words and in JSON
// with its clock and mtc; each move is valued under the count after it; a
// class B position ignores the count.
func TestProbeRule2(t *testing.T) {
	dir := rule2Dir(t)
	for _, c := range []struct {
		args []string
		want string // the output, or its beginning with --moves
	}{
		{[]string{"--rule2", "41", "W:WK1,K2:BK11,16"},
			"W:WK1,K2:BK11,16  rules win  theoretical win  White wins in 9 moves (dtw 17 plies)  distance 9 plies on the rule-2 count  mtc 9 plies\n"},
		{[]string{"--rule2", "42", "W:WK1,K2:BK11,16"},
			"W:WK1,K2:BK11,16  rules draw  theoretical win  White wins in theory in 9 moves (dtw 17 plies)  distance 9 plies on the rule-2 count  mtc 9 plies\n"},
		{[]string{"--rule2", "42", "--json", "W:WK1,K2:BK11,16"},
			`{"fen":"W:WK1,K2:BK11,16","category":"cursed-win","rules":"draw","theory":"win","distance":9,"dtw":17,"mtc":9,"clock":"rule 2","class_played":null,"rule2_played":42}` + "\n"},
		// the king move 1-6 leaves the opponent lost at distance 8 with
		// 42 plies on the count (a win), or 43 (a draw)
		{[]string{"--rule2", "41", "--moves", "W:WK1,K2:BK11,16"},
			"W:WK1,K2:BK11,16  rules win  theoretical win  White wins in 9 moves (dtw 17 plies)  distance 9 plies on the rule-2 count  mtc 9 plies\n" +
				"  1-6  rules win  theoretical win  White wins in 9 moves (dtw 17 plies)  distance 9 plies on the rule-2 count  mtc 9 plies\n"},
		{[]string{"--rule2", "42", "--moves", "--json", "W:WK1,K2:BK11,16"},
			`{"fen":"W:WK1,K2:BK11,16","category":"cursed-win","rules":"draw","theory":"win","distance":9,"dtw":17,"mtc":9,"clock":"rule 2","class_played":null,"rule2_played":42,"moves":[` +
				`{"move":"1-6","category":"cursed-win","rules":"draw","theory":"win","distance":9,"dtw":17,"mtc":9,"clock":"rule 2"},`},
		{[]string{"--rule2", "47", "W:WK6,K7:BK1,K50"},
			"W:WK6,K7:BK1,K50  rules win  theoretical win  White wins in 4 moves (dtw 7 plies)  distance 3 plies on the rule-2 count  mtc 3 plies\n"},
		{[]string{"--rule2", "48", "W:WK6,K7:BK1,K50"},
			"W:WK6,K7:BK1,K50  rules draw  theoretical win  White wins in theory in 4 moves (dtw 7 plies)  distance 3 plies on the rule-2 count  mtc 3 plies\n"},
		{[]string{"--rule2", "50", "W:WK10:BK5"}, // class B: the count does not apply
			"W:WK10:BK5  rules win  theoretical win  White wins in 2 moves (dtw 3 plies)  distance 3 plies on the class B clock  mtc 3 plies\n"},
	} {
		args := append([]string{"probe", "--dir", dir}, c.args...)
		out, errOut, code := dtb(args...)
		if code != 0 || !strings.HasPrefix(out, c.want) || !slices.Contains(c.args, "--moves") && out != c.want {
			t.Errorf("dtb %q: %d %q %q, want %q", args, code, out, errOut, c.want)
		}
	}
}

// TestProbeOldTable checks a KKvKK table written before rule 2 was
// tracked: dtb probe says so in words and in JSON, gives no distance and
// clock, and ignores --rule2.
func TestProbeOldTable(t *testing.T) {
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS(rule2Dir(t))); err != nil {
		t.Fatal(err)
	}
	tabletest.FirstVersion(t, dir, index.Material{WhiteKings: 2, BlackKings: 2})
	out, errOut, code := dtb("probe", "--dir", dir, "--rule2", "50", "W:WK6,K7:BK1,K50", "W:WK1,K2:BK11,16")
	want := "W:WK6,K7:BK1,K50  rules win  theoretical win  White wins in 4 moves (dtw 7 plies)  mtc 3 plies  (" + untrackedNote + ")\n" +
		"W:WK1,K2:BK11,16  rules draw  theoretical win  White wins in theory in 9 moves (dtw 17 plies)  distance 9 plies on the rule-2 count  mtc 9 plies\n"
	if code != 0 || out != want {
		t.Errorf("probe of an old table: %d %q %q, want %q", code, out, errOut, want)
	}
	out, errOut, code = dtb("probe", "--dir", dir, "--json", "--rule2", "50", "W:WK6,K7:BK1,K50")
	want = `{"fen":"W:WK6,K7:BK1,K50","category":"win","rules":"win","theory":"win","distance":null,"dtw":7,"mtc":3,"clock":null,"class_played":null,"rule2_played":null,"rule2_tracked":false}` + "\n"
	if code != 0 || out != want {
		t.Errorf("probe --json of an old table: %d %q %q, want %q", code, out, errOut, want)
	}
}
