package main

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/dtb-draughts/dtb/draughts"
	"github.com/dtb-draughts/dtb/internal/tabletest"
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
// command is last, included (none for last "").
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
		if name, _, _ := parseHubLine(l); name == last || name == "error" && last != "error" {
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

// TestHubPlaysWin plays dtb hub through the protocol as White in the won
// KKKvK ending W:WK1,K7,K18:BK35 (class A) to its end, Black defending
// with the tables' best defence, the worst, and random moves. Every move
// of dtb hub must keep the win: the position after it is a loss for
// Black under the clocks carried over it (probe.Tables.RootMoves). The
// position goes to it by turns as the start with every move since
// (moves=, the clocks counted from them) and as the position with its
// clocks (clock=, rule2=); dtb hub's info line must give the clocks
// the test counts.
func TestHubPlaysWin(t *testing.T) {
	dir := tabletest.ClassA.Dir(t)
	tables, err := probe.Open(dir, probe.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer tables.Close()
	s := startHub(t, "--dir", dir)
	id := s.ask("hub", "wait")
	if !strings.HasPrefix(id[0], "id name=dtb ") || s.answer(id, "param")["name"] != "dir" {
		t.Errorf("hub: %q, want id name=dtb, then param name=dir", id)
	}
	s.ask("init", "ready")
	s.ask("new-game", "")
	rng := rand.New(rand.NewPCG(53, 4))
	defences := map[string]func([]probe.RootMove) probe.RootMove{
		"best":   func(r []probe.RootMove) probe.RootMove { return r[0] },
		"worst":  func(r []probe.RootMove) probe.RootMove { return r[len(r)-1] },
		"random": func(r []probe.RootMove) probe.RootMove { return r[rng.IntN(len(r))] },
	}
	for _, name := range []string{"best", "worst", "random"} {
		playHubGame(t, s, tables, "W:WK1,K7,K18:BK35", defences[name])
	}
	if got := s.ask("ping", "pong"); len(got) != 1 {
		t.Errorf("ping: %q, want pong", got)
	}
	s.quit()
}

// playHubGame plays the won position fen to its end, dtb hub on s
// playing the winner and defend choosing the loser's moves.
func playHubGame(t *testing.T, s *hubSession, tables *probe.Tables, fen string, defend func([]probe.RootMove) probe.RootMove) {
	t.Helper()
	start, err := draughts.ParseFEN(fen)
	if err != nil {
		t.Fatal(err)
	}
	p, c, winner := start, probe.Clocks{}, start.Side
	var moves []string
	for ply := 0; ; ply++ {
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
			r = hubMove(t, s, tables, p, c, root, fmt.Sprintf("pos=%s moves=%q", start.Hub(), strings.Join(moves, " ")), ply)
		}
		moves = append(moves, p.HubMove(r.Move))
		p, c = p.Play(r.Move), r.Clocks
	}
}

// hubMove asks dtb hub on s for its move in p under the clocks c, whose
// moves are root, and checks it keeps the win. By turns p goes as game,
// pos= and moves=, and as itself with its clocks.
func hubMove(t *testing.T, s *hubSession, tables *probe.Tables, p draughts.Position, c probe.Clocks, root []probe.RootMove, game string, ply int) probe.RootMove {
	t.Helper()
	pos := "pos " + game
	if ply%4 == 2 {
		pos = fmt.Sprintf("pos pos=%s clock=%d rule2=%d", p.Hub(), c.Class, c.Rule2)
	}
	s.ask(pos, "")
	s.ask("level move-time=1", "")
	got := s.ask("go think", "done")
	info, done := s.answer(got, "info"), s.answer(got, "done")
	if want := fmt.Sprint(c.Class); info["clock"] != want || info["value"] != "win" {
		t.Errorf("%s %s: info %q, want value=win clock=%s", p.FEN(), pos, got[0], want)
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
		if ponder, ok := done["ponder"]; ok {
			if _, err := after.ParseHubMove(ponder); err != nil {
				t.Errorf("%s: ponder=%s: %v", after.FEN(), ponder, err)
			}
		}
		return r
	}
	t.Fatalf("%s: %s is not among the moves", p.FEN(), done["move"])
	return probe.RootMove{}
}

// TestHubClocksAndErrors checks that dtb hub counts the clocks from the
// moves after pos=, from clock= and rule2= where given, and declines with
// Hub's error a bad position or move, a position beyond the tables or
// without a move, and go without a position.
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
		s.ask("pos "+c.pos, "")
		got := s.ask("go think", "done")
		if info := s.answer(got, "info"); info[c.key] != c.want {
			t.Errorf("pos %s: %q, want %s=%s", c.pos, got, c.key, c.want)
		}
	}
	for _, c := range []struct{ pos, want string }{
		{"pos=Wxx", `error message="Hub position 'Wxx': 2 squares after the side to move, want 50"`},
		{"pos=" + kmk + ` moves="2-3"`, `error message="moves: `},
		{"pos=" + kmk + " rule2=x", `error message="rule2='x': want a number of plies"`},
		{"pos=" + kmk + " rule2=51", `error message="rule2=51: want 0 to 50 plies on the 25-move count"`},
	} {
		if got := s.ask("pos "+c.pos, "error"); !strings.HasPrefix(got[0], c.want) {
			t.Errorf("pos %s: %q, want %s", c.pos, got, c.want)
		}
		if got := s.ask("go think", "error"); !strings.HasPrefix(got[0], c.want) {
			t.Errorf("go after pos %s: %q, want %s", c.pos, got, c.want)
		}
	}
	for _, c := range []struct{ fen, want string }{
		{"W:WK1,K7,K18:BK35", "KKKvK"},
		{"B:WK10:B", "no legal move: the side to move has lost"},
	} {
		s.ask("pos pos="+hubOf(t, c.fen), "")
		if got := s.ask("go think", "error"); !strings.Contains(got[0], c.want) {
			t.Errorf("go in %s: %q, want an error with %q", c.fen, got, c.want)
		}
	}
	s.quit()
	fresh := startHub(t, "--dir", tabletest.Golden)
	if got := fresh.ask("go think", "error"); !strings.Contains(got[0], "no position") {
		t.Errorf("go before pos: %q, want an error", got)
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
