package main

import (
	"strings"
	"testing"

	"github.com/dtb-draughts/dtb/draughts"
	"github.com/dtb-draughts/dtb/internal/tabletest"
)

// hubOf returns the Hub notation of the position of fen.
func hubOf(t *testing.T, fen string) string {
	t.Helper()
	p, err := draughts.ParseFEN(fen)
	if err != nil {
		t.Fatal(err)
	}
	return p.Hub()
}

// TestHubPositions checks that the commands that read a position read it
// in Hub notation as they read its FEN, on the command line and on stdin.
func TestHubPositions(t *testing.T) {
	dir := tabletest.Golden
	fen := "W:WK2,6:BK50"
	hub := hubOf(t, fen)
	for _, args := range [][]string{
		{"probe", "--dir", dir, "--moves"},
		{"probe", "--dir", dir, "--json", "--clock", "2"},
		{"line", "--dir", dir},
		{"moves", "--json"},
		{"perft", "--depth", "3", "--divide"},
		{"play", "%", "2-11", "50-45"},
	} {
		with := func(pos string) []string {
			if args[0] == "play" {
				return append([]string{"play", pos}, args[2:]...)
			}
			return append(args[:len(args):len(args)], pos)
		}
		want, _, code := dtb(with(fen)...)
		out, errOut, hubCode := dtb(with(hub)...)
		if code != 0 || hubCode != 0 || out != want {
			t.Errorf("%q of a Hub position: %d %q %q, want %d %q as for its FEN", args, hubCode, out, errOut, code, want)
		}
	}
	want, _, _ := dtb("probe", "--dir", dir, fen, "W:WK10:BK5")
	out, errOut, code := dtbStdin(hub+"\n"+hubOf(t, "W:WK10:BK5")+"\n", "probe", "--dir", dir)
	if code != 0 || out != want {
		t.Errorf("probe of Hub positions on stdin: %d %q %q, want %q", code, out, errOut, want)
	}
	_, errOut, code = dtbStdin(hub[:40]+"\n", "probe", "--dir", dir)
	if code != 2 || errOut != "dtb probe: line 1: Hub position \""+hub[:40]+"\": 39 squares after the side to move, want 50\n" {
		t.Errorf("probe of a short Hub position on stdin: %d %q", code, errOut)
	}
}

// TestNotationHub checks that --notation hub writes moves as Hub does:
// a capture with every captured square.
func TestNotationHub(t *testing.T) {
	dir := tabletest.Golden
	for _, c := range []struct {
		args []string
		out  string
	}{
		{[]string{"moves", "--notation", "hub", "W:W28,32:B23"}, "28x19x23\n"},
		{[]string{"moves", "--notation", "hub", "W:W32:B5"}, "32-27\n32-28\n"},
		{[]string{"moves", "--notation", "hub", "--json", "W:W28,32:B23"}, `{"move":"28x19x23","from":28,"to":19,"captures":[23]}` + "\n"},
		{[]string{"moves", "--notation", "standard", "W:W28,32:B23"}, "28x19\n"},
		{[]string{"perft", "--notation", "hub", "--depth", "1", "--divide", "W:W28,32:B23"}, "28x19x23 1\n1 1\n"},
		{[]string{"probe", "--dir", dir, "--notation", "hub", "--moves", "W:W28:BK23"}, "W:W28:BK23  rules win  theoretical win  White wins in 1 move (dtw 1 ply)\n" +
			"  28x19x23  rules win  theoretical win  White wins in 1 move (dtw 1 ply)  mtc 1 ply\n"},
		{[]string{"line", "--dir", dir, "--notation", "hub", "W:WK2,6:BK50"}, "[Result \"2-0\"]\n[GameType \"20\"]\n[FEN \"W:WK2,6:BK50\"]\n\n" +
			"1. 2-11 50-45 2. 6-1 45-50 3. 11-6 50-45 4. 6-50 45-40 5. 1x45x40 {Black has no move: White wins in 5 moves (9 plies)} 2-0\n\n"},
	} {
		out, errOut, code := dtb(c.args...)
		if code != 0 || out != c.out || errOut != "" {
			t.Errorf("%q: status %d, stdout %q, stderr %q; want %q", c.args, code, out, errOut, c.out)
		}
	}
	out, _, code := dtb("line", "--dir", dir, "--json", "--notation", "hub", "W:WK2,6:BK50")
	if code != 0 || !strings.Contains(out, `"move":"1x45x40"`) || !strings.Contains(out, `5. 1x45x40"`) {
		t.Errorf("line --json --notation hub: %d %q", code, out)
	}
	// dtb play reads moves in either notation.
	out, errOut, code := dtb("play", hubOf(t, "W:W31-50:B1-20"), "32-28", "19-23", "28x19x23")
	if code != 0 || !strings.HasPrefix(out, "B:W19,31,33,") {
		t.Errorf("play of Hub moves: %d %q %q", code, out, errOut)
	}
	for _, args := range [][]string{
		{"moves", "--notation", "pdn", "W:W28,32:B23"},
		{"perft", "--notation", "", "W:W28,32:B23"},
		{"probe", "--dir", dir, "--notation", "Hub", "W:WK10:BK5"},
		{"line", "--dir", dir, "--notation", "x", "W:WK10:BK5"},
		{"moves", "Wbbbbx"},
		{"moves", "W" + strings.Repeat("e", 50)}, // no pieces
	} {
		out, errOut, code := dtb(args...)
		if code != 2 || out != "" || strings.Count(errOut, "\n") != 1 || !strings.HasPrefix(errOut, "dtb") {
			t.Errorf("dtb %q: status %d, stdout %q, stderr %q; want status 2 and one line on stderr", args, code, out, errOut)
		}
	}
}
