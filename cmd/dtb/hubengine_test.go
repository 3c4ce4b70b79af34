package main

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/dtb-draughts/dtb/draughts"
	"github.com/dtb-draughts/dtb/internal/tabletest"
	"github.com/dtb-draughts/dtb/internal/testcache"
	"github.com/dtb-draughts/dtb/probe"
	"github.com/dtb-draughts/dtb/rules"
)

// hubSession is dtb hub run in-process on pipes, as a GUI drives it.
type hubSession struct {
	t      *testing.T
	in     *io.PipeWriter
	out    chan string // the lines answered, read as they come
	code   chan int
	errOut bytes.Buffer // read after code
}

func startHub(t *testing.T, args ...string) *hubSession {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	s := &hubSession{t: t, in: inW, out: make(chan string, 1000), code: make(chan int, 1)}
	go func() {
		sc := bufio.NewScanner(outR)
		for sc.Scan() {
			s.out <- sc.Text()
		}
		close(s.out)
	}()
	go func() {
		code := run(append([]string{"hub"}, args...), &env{stdin: inR, stdout: outW, stderr: &s.errOut})
		inR.Close()
		outW.Close()
		s.code <- code
	}()
	return s
}

// ask sends line and returns the lines answered up to the one whose
// command is last, included (none for last ""), or up to an error where
// last is not done (a search ends with done, error or not).
func (s *hubSession) ask(line, last string) []string {
	s.t.Helper()
	if _, err := fmt.Fprintln(s.in, line); err != nil {
		s.t.Fatalf("%s: %v", line, err)
	}
	var got []string
	for last != "" {
		var l string
		var ok bool
		select {
		case l, ok = <-s.out:
		case <-time.After(time.Minute):
		}
		if !ok {
			s.t.Fatalf("%s: no %s after %q", line, last, got)
		}
		got = append(got, l)
		if name, _, _ := parseHubLine(l); name == last || name == "error" && last != "done" {
			break
		}
	}
	return got
}

// answer returns the arguments of the line of lines whose command is
// name; it fails the test if there is none.
func (s *hubSession) answer(lines []string, name string) map[string]string {
	s.t.Helper()
	for _, l := range lines {
		if n, args, err := parseHubLine(l); err == nil && n == name {
			return args
		}
	}
	s.t.Fatalf("no %s in %q", name, lines)
	return nil
}

// quit ends the session and checks that dtb hub exits with status 0.
func (s *hubSession) quit() {
	s.t.Helper()
	s.ask("quit", "")
	if code := <-s.code; code != 0 {
		s.t.Errorf("dtb hub exits with %d: %s", code, s.errOut.String())
	}
}

// TestHubPlaysWin plays dtb hub through the protocol as the winner of
// won endings to their end, the loser defending with the tables' best
// defence, the worst, and random moves: KKKvK (class A, a capture into
// class B) and, with men, KKMvK and KMMvK (man moves inside class A,
// crownings). Every move of dtb hub must keep the win: the position after
// it is a loss under the clocks carried over it
// (probe.Tables.RootMoves). Each game is played in each form a GUI sends
// its positions (hubForms), and dtb hub's info line must give the clocks
// the test counts.
func TestHubPlaysWin(t *testing.T) {
	games := []struct {
		dir   string
		fen   string
		forms []hubForm
	}{
		{tabletest.ClassA.Dir(t), "W:WK1,K7,K18:BK35", hubForms},
		{tabletest.Four.Dir(t), "W:WK12,K40,50:BK11", hubForms},
		{tabletest.Four.Dir(t), "W:W6,K49,50:BK16", hubForms},
	}
	if testing.Short() {
		games = games[:1]
	}
	for _, g := range games {
		tables, err := probe.Open(g.dir, probe.Options{})
		if err != nil {
			t.Fatal(err)
		}
		defer tables.Close()
		s := startHub(t, "--dir", g.dir)
		id := s.ask("hub", "wait")
		if !strings.HasPrefix(id[0], "id name=dtb ") || s.answer(id, "param")["name"] != "dir" {
			t.Errorf("hub: %q, want id name=dtb, then param name=dir", id)
		}
		s.ask("init", "ready")
		rng := rand.New(rand.NewPCG(53, 4))
		defences := map[string]func([]probe.RootMove) probe.RootMove{
			"best":   func(r []probe.RootMove) probe.RootMove { return r[0] },
			"worst":  func(r []probe.RootMove) probe.RootMove { return r[len(r)-1] },
			"random": func(r []probe.RootMove) probe.RootMove { return r[rng.IntN(len(r))] },
		}
		for _, form := range g.forms {
			for _, name := range []string{"best", "worst", "random"} {
				s.ask("new-game", "")
				playHubGame(t, s, tables, g.fen, form, defences[name])
			}
		}
		if got := s.ask("ping", "pong"); len(got) != 1 {
			t.Errorf("ping: %q, want pong", got)
		}
		s.quit()
	}
}

// hubForm writes the pos line of the game's position after moves were
// played from start, whose positions were positions (start first) with
// the clocks clocks; last is the index of the position after the last
// capture or man move.
type hubForm func(positions []draughts.Position, clocks []probe.Clocks, moves []string, last int) string

// hubForms are the ways GUIs send a position: Hub's own (the position
// after the last capture or man move, the king moves since and no
// clocks), the game's start and every move since, and the position with
// its clocks.
var hubForms = []hubForm{
	func(ps []draughts.Position, _ []probe.Clocks, moves []string, last int) string {
		return fmt.Sprintf("pos pos=%s moves=%q", ps[last].Hub(), strings.Join(moves[last:], " "))
	},
	func(ps []draughts.Position, _ []probe.Clocks, moves []string, _ int) string {
		return fmt.Sprintf("pos pos=%s moves=%q", ps[0].Hub(), strings.Join(moves, " "))
	},
	func(ps []draughts.Position, cs []probe.Clocks, _ []string, _ int) string {
		c := cs[len(cs)-1]
		return fmt.Sprintf("pos pos=%s clock=%d rule2=%d", ps[len(ps)-1].Hub(), c.Class, c.Rule2)
	},
}

// playHubGame plays the won position fen to its end, dtb hub on s
// playing the winner, sent its positions in form, and defend choosing
// the loser's moves.
func playHubGame(t *testing.T, s *hubSession, tables *probe.Tables, fen string, form hubForm, defend func([]probe.RootMove) probe.RootMove) {
	t.Helper()
	start, err := draughts.ParseFEN(fen)
	if err != nil {
		t.Fatal(err)
	}
	positions, clocks, winner := []draughts.Position{start}, []probe.Clocks{{}}, start.Side
	var moves []string
	last := 0 // the position after the last capture or man move
	for ply := 0; ; ply++ {
		p, c := positions[ply], clocks[ply]
		root, err := tables.RootMoves(p, c)
		if err != nil {
			t.Fatal(err)
		}
		if len(root) == 0 {
			if p.Side == winner {
				t.Fatalf("%s: the winner has no move after %q", fen, moves)
			}
			return
		}
		if ply > 200 {
			t.Fatalf("%s: no end after %q", fen, moves)
		}
		r := defend(root)
		if p.Side == winner {
			r = hubMove(t, s, tables, p, c, root, form(positions, clocks, moves, last))
		}
		if p.Converts(r.Move) {
			last = ply + 1
		}
		moves = append(moves, p.HubMove(r.Move))
		positions, clocks = append(positions, p.Play(r.Move)), append(clocks, r.Clocks)
	}
}

// hubMove asks dtb hub on s for its move in p under the clocks c, whose
// moves are root, sending p as pos, and checks it keeps the win and that
// its info line gives the clocks c, a winning score and a best line that
// starts with the move.
func hubMove(t *testing.T, s *hubSession, tables *probe.Tables, p draughts.Position, c probe.Clocks, root []probe.RootMove, pos string) probe.RootMove {
	t.Helper()
	s.ask(pos, "")
	s.ask("level move-time=1", "")
	got := s.ask("go think", "done")
	info, done := s.answer(got, "info"), s.answer(got, "done")
	want := map[string]string{"value": "win", "clock": fmt.Sprint(c.Class)}
	if root[0].Class != rules.ClassA && root[0].Class != rules.ClassB {
		want["clock"] = ""
	}
	for key, v := range want {
		if info[key] != v {
			t.Errorf("%s %s: info %q, want %s=%q", p.FEN(), pos, got[0], key, v)
		}
	}
	if score, err := strconv.ParseFloat(info["score"], 64); err != nil || score < 90 {
		t.Errorf("%s %s: info %q, want a score over 90 for a win", p.FEN(), pos, got[0])
	}
	if pv := strings.Fields(info["pv"]); len(pv) == 0 || pv[0] != done["move"] || len(pv) > 1 && pv[1] != done["ponder"] {
		t.Errorf("%s: info %q and %q: want pv to start with the move and the ponder", p.FEN(), got[0], got[1])
	}
	m, err := p.ParseHubMove(done["move"])
	if err != nil {
		t.Fatalf("%s: %q: %v", p.FEN(), got, err)
	}
	if p.HubMove(m) != done["move"] {
		t.Errorf("%s: move=%s, want it as Hub writes it, %s", p.FEN(), done["move"], p.HubMove(m))
	}
	for _, r := range root {
		if r.Move != m {
			continue
		}
		after := p.Play(m)
		res, err := tables.Probe(after, r.Clocks, 0)
		if err != nil || res.Value != rules.Loss {
			t.Fatalf("%s clocks %+v: %s leads to %s under %+v: %v %v, want a loss", p.FEN(), c, done["move"], after.FEN(), r.Clocks, res.Value, err)
		}
		return r
	}
	t.Fatalf("%s: %s is not among the moves", p.FEN(), done["move"])
	return probe.RootMove{}
}

// TestHubClocksAndErrors checks that dtb hub counts the clocks from the
// moves after pos=, from clock= and rule2= where given, and declines with
// Hub's error, then done, a bad position or move, a position beyond the
// tables or without a move, and go without a position; a refused pos
// leaves no position.
func TestHubClocksAndErrors(t *testing.T) {
	s := startHub(t, "--dir", tabletest.Golden+string(filepath.ListSeparator)+tabletest.Rule2.Dir(t))
	s.ask("hub", "wait")
	s.ask("init", "ready")
	kmk := hubOf(t, "W:WK2,6:BK50")       // class B
	kmkk := hubOf(t, "W:WK3,26:BK45,K50") // rule 2 runs
	for _, c := range []struct{ pos, key, want string }{
		{"pos=" + kmk + ` moves="2-7 50-44"`, "clock", "2"},
		{"pos=" + kmk + ` clock=3 moves="2-7 50-44 7-2 44-50"`, "clock", "7"},
		{"pos=" + kmk + ` clock=3 moves="6-1 50-44"`, "clock", "5"},
		{"pos=" + kmk + " clock=7", "clock", "7"},
		{"pos=" + kmkk + ` moves="3-9 45-40"`, "rule2", "2"},
		{"pos=" + kmkk + ` rule2=10 moves="3-9 45-40 9-3 40-45"`, "rule2", "14"},
		{"pos=" + kmkk + ` rule2=10 moves="3-9 45-40 26-21 40-45"`, "rule2", "1"},
	} {
		s.ask("new-game", "")
		s.ask("pos "+c.pos, "")
		got := s.ask("go think", "done")
		if info := s.answer(got, "info"); info[c.key] != c.want {
			t.Errorf("pos %s: %q, want %s=%s", c.pos, got, c.key, c.want)
		}
	}
	refused := []string{`error message="no position: the last pos was refused"`, "done"}
	for _, c := range []struct{ pos, want string }{
		{"pos=Wxx", `error message="Hub position 'Wxx': 2 squares after the side to move, want 50"`},
		{"pos=" + kmk + ` moves="2-7 50-3"`, `error message="moves: move 2 of 2: move '50-3' is not legal in B:W6,K7:BK50"`},
		{"pos=" + kmk + ` moves="2-7`, `error message="pos: moves='2-7: no closing quote"`},
		{"pos=" + kmk + " rule2=x", `error message="rule2='x': want a number of plies"`},
		{"pos=" + kmk + " rule2=-1", `error message="rule2=-1: want the plies played on the 25-move count, 0 or more"`},
		{"start", `error message="pos: no pos=: want pos=POSITION (Hub's 51 characters or a FEN)"`},
		{"pos=" + hubOf(t, "W:WK10:BK5") + " " + strings.Repeat("x", maxLine), `error message="a line of over 64 KiB: want a command or a position a line"`},
	} {
		s.ask("pos pos="+kmk, "") // a position, which the bad pos must not leave
		if got := s.ask("pos "+c.pos, "error"); len(got) != 1 || got[0] != c.want {
			t.Errorf("pos %.80s: %q, want %s", c.pos, got, c.want)
		}
		if got := s.ask("go think", "done"); !slices.Equal(got, refused) {
			t.Errorf("go after pos %.80s: %q, want %q", c.pos, got, refused)
		}
	}
	for _, c := range []struct{ fen, want string }{
		{"W:WK1,K7,K18:BK35", "KKKvK"},
		{"B:WK10:B", "no legal move: the side to move has lost"},
	} {
		s.ask("pos pos="+hubOf(t, c.fen), "")
		if got := s.ask("go think", "done"); len(got) != 2 || !strings.Contains(got[0], c.want) || got[1] != "done" {
			t.Errorf("go in %s: %q, want an error with %q, then done", c.fen, got, c.want)
		}
	}
	s.quit()
	fresh := startHub(t, "--dir", tabletest.Golden)
	if got := fresh.ask("go think", "done"); len(got) != 2 || !strings.Contains(got[0], "no position") {
		t.Errorf("go before pos: %q, want an error, then done", got)
	}
	fresh.in.Close() // the GUI has gone: dtb hub ends
	if code := <-fresh.code; code != 0 {
		t.Errorf("dtb hub at the end of its input: exit status %d", code)
	}
}

// TestHubLine checks the syntax of the protocol's lines both ways.
func TestHubLine(t *testing.T) {
	name, args, err := parseHubLine(`  pos pos=We moves = "32-28 19-23" flag k=`)
	if err != nil || name != "pos" || len(args) != 4 || args["pos"] != "We" || args["moves"] != "32-28 19-23" || args["flag"] != "" || args["k"] != "" {
		t.Errorf("parseHubLine: %q %q %v", name, args, err)
	}
	if _, _, err := parseHubLine(`pos moves="32-28`); err == nil {
		t.Error("parseHubLine of an open quote: no error")
	}
	var out bytes.Buffer
	h := &hubEngine{e: &env{stdout: &out}}
	h.send("error", "message", `a "b"=c`, "empty", "", "n", "12")
	if want := "error message=\"a 'b'=c\" empty=\"\" n=12\n"; out.String() != want {
		t.Errorf("send: %q, want %q", out.String(), want)
	}
}

// FuzzHub sends dtb hub any input over the golden tables: it must end
// with status 0, write only lines of the protocol, and end every go it
// reads with done, whatever came before.
func FuzzHub(f *testing.F) {
	for _, in := range []string{
		"hub\ninit\npos pos=W:WK10:BK5\ngo think\nquit\n",
		"pos pos=W:WK10:BK5\ngo\npos pos=\"W:WK2,6:BK50\ngo\n",
		"pos pos=W:WK2,6:BK50 clock=11 moves=\"2-7 50-44\"\ngo\nnew-game\nping\n",
		"go\npos start\ngo ponder\r\npos pos=B:WK10:B\ngo analyze\n",
	} {
		f.Add(in)
	}
	f.Fuzz(func(t *testing.T, in string) {
		var out, errOut bytes.Buffer
		if code := run([]string{"hub", "--dir", tabletest.Golden}, &env{stdin: strings.NewReader(in), stdout: &out, stderr: &errOut}); code != 0 {
			t.Fatalf("dtb hub: exit status %d: %s", code, errOut.String())
		}
		goes := 0
		for _, l := range strings.Split(in, "\n") {
			name, _, err := parseHubLine(l)
			if err == nil && name == "quit" && len(l) < maxLine {
				break
			}
			if name == "go" {
				goes++
			}
		}
		dones := 0
		for _, l := range strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n") {
			name, _, err := parseHubLine(l)
			if err != nil || l != "" && name == "" {
				t.Fatalf("dtb hub wrote %q, not a line of the protocol", l)
			}
			if name == "done" {
				dones++
			}
		}
		if dones != goes {
			t.Fatalf("%d go, %d done:\n%s", goes, dones, out.String())
		}
	})
}

// TestHubTranscript runs the session of docs/cli.md's "## hub" as
// written: the GUI's lines in, the indented answers out.
func TestHubTranscript(t *testing.T) {
	root := testcache.ModuleRoot()
	doc, err := os.ReadFile(filepath.Join(root, "docs", "cli.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, section, _ := strings.Cut(string(doc), "\n## hub\n")
	_, block, _ := strings.Cut(section, "```\n$ dtb hub --dir testdata/golden\n")
	block, _, ok := strings.Cut(block, "```\n")
	if !ok || block == "" {
		t.Fatal("docs/cli.md: no session of dtb hub --dir testdata/golden under ## hub")
	}
	var in, want strings.Builder
	for _, l := range strings.SplitAfter(block, "\n") {
		if answer, ok := strings.CutPrefix(l, "  "); ok {
			want.WriteString(answer)
		} else {
			in.WriteString(l)
		}
	}
	t.Chdir(root)
	out, errOut, code := dtbStdin(in.String(), "hub", "--dir", "testdata/golden")
	if code != 0 || out != want.String() {
		t.Errorf("dtb hub on the GUI's lines of docs/cli.md: %d %q\n%s\nwant\n%s", code, errOut, out, want.String())
	}
}
