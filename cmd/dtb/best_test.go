package main

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/dtb-draughts/dtb/internal/tabletest"
)

// bestAnswer is the JSON of dtb best, as far as the tests read it.
type bestAnswer struct {
	FEN      string
	Category string
	Best     *struct {
		Move        string
		FEN         string
		Category    string
		Clock       *string
		ClassPlayed *int `json:"class_played"`
		Rule2Played *int `json:"rule2_played"`
	}
}

// TestBestCommand checks dtb best on won positions of the golden tables:
// the move is the first of dtb probe --moves, dtb play plays it to the
// position given after it, which is lost for its side to move, and the
// position's object is what dtb probe --json answers for it under the
// clocks given after the move.
func TestBestCommand(t *testing.T) {
	dir := tabletest.Golden
	for _, c := range []struct {
		fen   string
		clock int
	}{{"W:WK10:BK5", 0}, {"W:WK2,6:BK50", 0}, {"W:WK2,6:BK50", 1}, {"B:WK5:BK10,K40", 0}} {
		clock := fmt.Sprint(c.clock)
		out, errOut, code := dtb("best", "--dir", dir, "--json", "--clock", clock, c.fen)
		var got bestAnswer
		if err := json.Unmarshal([]byte(out), &got); err != nil || code != 0 || got.Best == nil {
			t.Fatalf("best --json %s: %d %q %q %v", c.fen, code, out, errOut, err)
		}
		b := got.Best
		moves, _, _ := dtb("probe", "--dir", dir, "--moves", "--clock", clock, c.fen)
		after, _, _ := dtb("play", c.fen, b.Move)
		if first := strings.Fields(strings.Split(moves, "\n")[1])[0]; got.Category != "win" || b.Move != first || after != b.FEN+"\n" || b.Category != "loss" {
			t.Errorf("best %s: %+v %+v, want a win, the move %s to %q, lost after it", c.fen, got, b, first, after)
		}
		if b.Clock == nil || *b.Clock != "class B" || b.ClassPlayed == nil || *b.ClassPlayed != c.clock+1 || b.Rule2Played != nil {
			t.Errorf("best %s: the clocks after the move: %q, want class B with %d plies played, no rule-2 count", c.fen, out, c.clock+1)
		}
		probed, _, _ := dtb("probe", "--dir", dir, "--json", "--clock", fmt.Sprint(*b.ClassPlayed), b.FEN)
		if want := fmt.Sprintf(`"best":{"move":%q,%s`, b.Move, strings.TrimSuffix(probed, "\n")[1:]); !strings.HasSuffix(out, want+"}\n") {
			t.Errorf("best %s: %q, want it to end with %q", c.fen, out, want)
		}
	}
	out, errOut, code := dtb("best", "--dir", dir, "W:WK10:BK5", "B:WK10:B")
	want := "W:WK10:BK5  rules win  theoretical win  White wins in 2 moves (dtw 3 plies)  distance 3 plies on the class B clock\n" +
		"  best 10-46  B:WK46:BK5 clock=1  rules loss  theoretical loss  White wins in 1 move (dtw 2 plies)  distance 2 plies on the class B clock\n" +
		"B:WK10:B  rules loss  theoretical loss  White has won (dtw 0 plies)  distance 0 plies  mtc 0 plies\n" +
		"  no move: the side to move has lost\n"
	if code != 0 || out != want {
		t.Errorf("best: %d %q %q, want %q", code, out, errOut, want)
	}
	out, _, code = dtb("best", "--dir", dir, "--json", "B:WK10:B")
	if code != 0 || !strings.HasSuffix(out, `,"best":null}`+"\n") {
		t.Errorf("best --json of a position without a move: %d %q, want \"best\":null", code, out)
	}
	out, _, code = dtb("best", "--dir", dir, "--notation", "hub", hubOf(t, "W:W28:BK23"))
	if want := "W:W28:BK23  rules win  theoretical win  White wins in 1 move (dtw 1 ply)\n  best 28x19x23  B:W19:B  rules loss  theoretical loss  White has won (dtw 0 plies)  distance 0 plies  mtc 0 plies\n"; code != 0 || out != want {
		t.Errorf("best --notation hub of a Hub position: %d %q, want %q", code, out, want)
	}
}

// TestBestRule2 checks the rule-2 count after the best move: a king
// move adds a ply to it, and the JSON gives it with no class clock.
func TestBestRule2(t *testing.T) {
	out, errOut, code := dtb("best", "--dir", rule2Dir(t), "--json", "--rule2", "41", "W:WK1,K2:BK11,16")
	want := `"best":{"move":"1-6","fen":"B:WK2,K6:BK11,16","category":"loss","rules":"loss","theory":"loss","distance":8,"dtw":16,"mtc":8,` +
		`"clock":"rule 2","class_played":null,"rule2_played":42}}` + "\n"
	if code != 0 || !strings.HasSuffix(out, want) || !strings.Contains(out, `"class_played":null,"rule2_played":41,"best"`) {
		t.Errorf("best --rule2 41: %d %q %q, want it to give the count 41, then end with %q", code, out, errOut, want)
	}
}

// TestBatchClocks checks the clocks of the lines of standard input: a
// batch answers as its lines run one by one with the clocks as flags, the
// flags the counts of the lines that give none; a bad line is said with
// its number and the batch goes on.
func TestBatchClocks(t *testing.T) {
	dir := tabletest.Golden
	hub := hubOf(t, "W:WK2,6:BK50")
	lines := []struct {
		line  string
		flags []string // the line run alone: its clocks as flags
	}{
		{"W:WK2,6:BK50 clock=2", []string{"--clock", "2"}},
		{"W:WK2,6:BK50", []string{"--clock", "1"}}, // the flag's count
		{hub + "   clock=0", []string{"--clock", "0"}},
		{"W:WK10:BK5 rule2=50 clock=9", []string{"--clock", "9", "--rule2", "50"}},
		{"W:WK2,6:BK50 clock=11", []string{"--clock", "11"}}, // run out
		{"W:WK10:BK5 clock=99 rule2=51", []string{"--clock", "99", "--rule2", "51"}},
		{"W:W28:B23,K45 rule2=3", []string{"--clock", "1", "--rule2", "3"}},
	}
	for _, cmd := range [][]string{{"probe"}, {"probe", "--json", "--moves"}, {"best"}, {"best", "--json"}} {
		var stdin, want strings.Builder
		for _, l := range lines {
			stdin.WriteString(l.line + "\n")
			pos := strings.Fields(l.line)[0]
			out, errOut, code := dtb(append(append(append(cmd[:len(cmd):len(cmd)], "--dir", dir), l.flags...), pos)...)
			if code != 0 {
				t.Fatalf("%q %q %s: %d %q", cmd, l.flags, pos, code, errOut)
			}
			want.WriteString(out)
		}
		out, errOut, code := dtbStdin(stdin.String(), append(cmd[:len(cmd):len(cmd)], "--dir", dir, "--clock", "1")...)
		if code != 0 || out != want.String() || errOut != "" {
			t.Errorf("%q of lines with clocks: %d %q %q, want %q", cmd, code, out, errOut, want.String())
		}
	}
	bad := "W:WK10:BK5 clock=-1\n" + strings.Repeat("x", maxLine+1) + "\nW:WK10:BK5 rule2=-1\nW:WK10:BK5 clock=x\nW:WK10:BK5 moves=3\n" +
		"W:WK10:BK5 clock=1 clock=2\nclock=1\nW:WK10:BK5 clock=1\n"
	wantErr := "dtb best: line 1: clock=-1: want the plies played on the class clock, 0 or more\n" +
		"dtb best: line 2: a line of over 64 KiB: want a command or a position a line\n" +
		"dtb best: line 3: rule2=-1: want the plies played on the 25-move count, 0 or more\n" +
		"dtb best: line 4: clock=\"x\": want a number of plies\n" +
		"dtb best: line 5: \"moves=3\": a line gives its clocks as clock=N and rule2=N after the position\n" +
		"dtb best: line 6: clock= given twice\n" +
		"dtb best: line 7: FEN \"clock=1\": "
	want, _, _ := dtb("best", "--dir", dir, "--clock", "1", "W:WK10:BK5")
	out, errOut, code := dtbStdin(bad, "best", "--dir", dir)
	if code != 2 || out != want || !strings.HasPrefix(errOut, wantErr) || strings.Count(errOut, "\n") != 7 {
		t.Errorf("best of bad lines: %d %q %q, want 2, %q and errors %q...", code, out, errOut, want, wantErr)
	}
}

// TestRunOutClock checks the one convention of a clock that has run out:
// a count at or past its budget is legal input and reads as run out, on
// the command line, on a line of standard input and in dtb hub, so the
// clocks dtb best gives after a move read back as it wrote them.
func TestRunOutClock(t *testing.T) {
	dir := tabletest.Golden
	out, errOut, code := dtb("best", "--dir", dir, "--clock", "10", "W:WK2,6:BK50")
	lines := strings.Split(out, "\n")
	if code != 0 || len(lines) < 2 || len(strings.Split(lines[1], "  ")) < 3 {
		t.Fatalf("best --clock 10: %d %q %q", code, out, errOut)
	}
	after := strings.Split(lines[1], "  ")[2] // the position after the move, as a line
	if want := "B:W6,K11:BK50 clock=11"; after != want {
		t.Fatalf("best --clock 10: the position after the move %q, want %q", after, want)
	}
	want := "B:W6,K11:BK50  rules draw  theoretical loss  White wins in theory in 4 moves (dtw 8 plies)  distance 8 plies on the class B clock\n"
	if out, errOut, code := dtbStdin(after+"\n", "probe", "--dir", dir); code != 0 || out != want {
		t.Errorf("probe of the line %q: %d %q %q, want %q", after, code, out, errOut, want)
	}
	if out, errOut, code := dtb("probe", "--dir", dir, "--clock", "11", "B:W6,K11:BK50"); code != 0 || out != want {
		t.Errorf("probe --clock 11: %d %q %q, want %q", code, out, errOut, want)
	}
	s := startHub(t, "--dir", dir)
	s.ask("pos pos="+hubOf(t, "B:W6,K11:BK50")+" clock=11", "")
	got := s.ask("go think", "done")
	if info := s.answer(got, "info"); info["value"] != "draw" || info["clock"] != "11" || info["score"] != "0.00" {
		t.Errorf("hub, clock=11: %q, want value=draw score=0.00 clock=11", got)
	}
	s.quit()
}

// TestClockUnits checks that a clock flag takes plies (N, Np) or moves
// of each side (Nm, 2N plies), and nothing else.
func TestClockUnits(t *testing.T) {
	dir := tabletest.Golden
	for _, c := range []struct{ given, plies []string }{
		{[]string{"probe", "--clock", "1m"}, []string{"probe", "--clock", "2"}},
		{[]string{"probe", "--clock", "1p"}, []string{"probe", "--clock", "1"}},
		{[]string{"best", "--clock=1m"}, []string{"best", "--clock", "2"}},
		{[]string{"line", "--clock", "1m"}, []string{"line", "--clock", "2"}},
		{[]string{"probe", "--rule2", "25m"}, []string{"probe", "--rule2", "50"}},
	} {
		want, _, _ := dtb(append(c.plies, "--dir", dir, "--json", "W:WK2,6:BK50")...)
		if out, errOut, code := dtb(append(c.given, "--dir", dir, "--json", "W:WK2,6:BK50")...); code != 0 || out != want {
			t.Errorf("dtb %q: %d %q %q, want %q as %q gives it", c.given, code, out, errOut, want, c.plies)
		}
	}
	for _, bad := range []string{"-1m", "2q", "m", "1.5m", "2mp"} {
		if out, errOut, code := dtb("probe", "--dir", dir, "--clock", bad, "W:WK2,6:BK50"); code != 2 || out != "" || !strings.Contains(errOut, "Nm moves of each side") {
			t.Errorf("--clock %s: %d %q %q, want status 2 and how a count is given", bad, code, out, errOut)
		}
	}
}
