package main

import (
	"bufio"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"syscall"
	"testing"

	"github.com/dtb-draughts/dtb/internal/pdn"
	"github.com/dtb-draughts/dtb/internal/tabletest"
)

// TestLineCommand prints the best line of the longest class B win, with
// White and (its colour flip, cut at 3 plies) with Black to move, the
// line that holds a drawn position and a cursed win, as PDN with the
// game type, the result and numbered moves, which our PDN reader reads
// back; and refuses a position beyond the tables saying which table to
// build.
func TestLineCommand(t *testing.T) {
	dir := tabletest.Golden
	game := func(result, fen, moves string) string {
		return "[Result \"" + result + "\"]\n[GameType \"20\"]\n[FEN \"" + fen + "\"]\n\n" + moves + " " + result + "\n\n"
	}
	for _, c := range []struct {
		args []string
		out  string
	}{
		{[]string{"W:WK2,6:BK50"}, game("2-0", "W:WK2,6:BK50", "1. 2-11 50-45 2. 6-1 45-50 3. 11-6 50-45 4. 6-50 45-40 5. 1x45 {Black has no move: White wins in 5 moves (9 plies)}")},
		{[]string{"W:WK1:BK50"}, game("1-1", "W:WK1:BK50", "1. 1-6 50-45 2. 6-1 45-50 3. 1-6 50-45 4. 6-1 45-50 {a draw by repetition: the position is on the board for the third time}")},
		{[]string{"--clock", "2", "W:WK2,6:BK50"}, game("1-1", "W:WK2,6:BK50", "1. 2-11 50-45 2. 6-1 45-50 3. 1-6 50-45 4. 6-1 45-40 {a win in theory, drawn under the rules: a draw by the class B limit, 5 moves each}")},
		{[]string{"--plies", "3", "B:WK1:B45,K49"}, game("*", "B:WK1:B45,K49", "1... 49-40 2. 1-6 45-50 {3 plies, the line goes on: ask for more with --plies}")},
		{[]string{"B:WK10:B"}, game("2-0", "B:WK10:B", "{Black has no move: White wins}")},
	} {
		out, errOut, code := dtb(append([]string{"line", "--dir", dir}, c.args...)...)
		if code != 0 || out != c.out || errOut != "" {
			t.Errorf("line %q: status %d, stdout %q, stderr %q; want %q", c.args, code, out, errOut, c.out)
			continue
		}
		games, err := pdn.Parse(strings.NewReader(out))
		if err != nil || len(games) != 1 {
			t.Errorf("line %q read back: %d games, %v", c.args, len(games), err)
			continue
		}
		g := games[0]
		if kind, _ := g.Tag("GameType"); kind != "20" || g.Start.FEN() != c.args[len(c.args)-1] || g.Result == "" || !strings.Contains(out, "{") {
			t.Errorf("line %q read back: %+v", c.args, g)
		}
		if res, _ := g.Tag("Result"); res != g.Result {
			t.Errorf("line %q: the Result tag %q, the move text's %q", c.args, res, g.Result)
		}
	}
	_, errOut, code := dtb("line", "--dir", dir, "W:WK1,K2:BK40,K45")
	if want := "dtb line: W:WK1,K2:BK40,K45: no table for KKvKK in " + dir + ", whose largest tables have 3 pieces (build it with: dtb gen --only KKvKK --out " + dir + ")\n"; code != 1 || errOut != want {
		t.Errorf("line beyond the tables: status %d, stderr %q, want 1 and %q", code, errOut, want)
	}
}

// TestServeCommand runs dtb serve on a free port of localhost, which
// names its page, asks it a position and a bad FEN over HTTP, and stops
// it with SIGINT.
func TestServeCommand(t *testing.T) {
	cmd := exec.Command(dtbBinary(t), "serve", "--dir", tabletest.Golden, "--addr", "127.0.0.1:0")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	r := bufio.NewReader(stderr)
	line, err := r.ReadString('\n')
	addr := regexp.MustCompile(`the explorer of the tables of .* on http://(127\.0\.0\.1:[0-9]+)/ \(`).FindStringSubmatch(line)
	if err != nil || addr == nil {
		t.Fatalf("dtb serve said %q (%v), want the explorer's page", line, err)
	}
	for _, c := range []struct {
		query string
		code  int
		words string
	}{
		{"fen=W:WK10:BK5", 200, `"category":"win"`},
		{"fen=W:WK10:BK", 400, `"error":"FEN`},
	} {
		resp, err := http.Get("http://" + addr[1] + "/api/probe?" + c.query)
		if err != nil {
			t.Fatal(err)
		}
		var body json.RawMessage
		err = json.NewDecoder(resp.Body).Decode(&body)
		resp.Body.Close()
		if err != nil || resp.StatusCode != c.code || !strings.Contains(string(body), c.words) {
			t.Errorf("%s: %d %s (%v), want %d and %s", c.query, resp.StatusCode, body, err, c.code, c.words)
		}
	}
	cmd.Process.Signal(syscall.SIGINT)
	rest, _ := io.ReadAll(r)
	if err := cmd.Wait(); err != nil {
		t.Errorf("dtb serve after SIGINT: %v, want exit status 0", err)
	}
	if strings.Contains(string(rest), "warning") {
		t.Errorf("dtb serve on localhost: %q, want no warning", rest)
	}
}

// TestServeWarns checks that dtb serve warns on stderr when it listens
// where other machines can reach it: on every interface.
func TestServeWarns(t *testing.T) {
	for _, addr := range []string{":0", "0.0.0.0:0"} {
		cmd := exec.Command(dtbBinary(t), "serve", "--dir", tabletest.Golden, "--addr", addr)
		stderr, err := cmd.StderrPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		r := bufio.NewReader(stderr)
		r.ReadString('\n')
		line, err := r.ReadString('\n')
		cmd.Process.Kill()
		cmd.Wait()
		if err != nil || !strings.HasPrefix(line, "dtb serve: warning: listening on every interface: other machines can query the tables") {
			t.Errorf("--addr %s: second line %q (%v), want the warning", addr, line, err)
		}
	}
}

// annotated is a PDN file of three games with the Seven Tag Roster and
// GameType, annotated: the first lets a class B win slip, the second
// plays 28-22 where 28x19 is forced, the third is a draw.
const annotated = `[Event "A class B ending"]
[Site "?"]
[Date "2024.06.01"]
[Round "1"]
[White "A"]
[Black "B"]
[Result "1-1"]
[GameType "20"]
[FEN "W:WK2,6:BK50"]

1. 2-11 50-45 2. 6-1 45-50 3. 11-16 {dtb: White turns win into draw; 11-6 keeps the win} 3... 50-45 1-1

[Event "A forced capture"]
[Site "?"]
[Date "2024.06.01"]
[Round "2"]
[White "B"]
[Black "A"]
[Result "2-0"]
[GameType "20"]
[FEN "W:W28,40:B18"]

1. 40-34 18-23 {dtb: move "28-22" is not legal in W:W28,34:B23; the game is not annotated} 2. 28-22 2-0

[Event "Kings"]
[Site "?"]
[Date "2024.06.01"]
[Round "3"]
[White "A"]
[Black "B"]
[Result "1-1"]
[GameType "20"]
[FEN "W:WK1:BK50"]

1. 1-6 50-45 1-1

`

// TestAnnotateCommand annotates a PDN file of three games, from a file
// and from standard input: the tags stay in their order, the results and
// the blank lines stay, our PDN reader reads the games back as they were
// given; the game with an illegal move is written without marks, with a
// comment where it goes wrong, and the file goes on, exit status 2.
// A missing file is bad input.
func TestAnnotateCommand(t *testing.T) {
	// The file as given: annotated without dtb's comments.
	given := regexp.MustCompile(` \{dtb: [^}]*\}( [0-9]+\.\.\.)?`).ReplaceAllString(annotated, "")
	dir := t.TempDir()
	games := filepath.Join(dir, "games.pdn")
	if err := os.WriteFile(games, []byte(given), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ name, stdin string }{{games, ""}, {"-", given}} {
		out, errOut, code := dtbStdin(c.stdin, "annotate", "--dir", tabletest.Golden, c.name)
		name := c.name
		if name == "-" {
			name = "standard input"
		}
		wantErr := "dtb annotate: " + name + ", game 2 (line 13): ply 3: move \"28-22\" is not legal in W:W28,34:B23; the game is written without marks\n" +
			"dtb annotate: 3 games, 1 move marked, 1 game with an illegal move written without marks\n"
		if code != 2 || out != annotated || errOut != wantErr {
			t.Errorf("annotate %s: status %d, stdout %q, stderr %q; want 2 and\n%s\n%s", c.name, code, out, errOut, annotated, wantErr)
		}
		in, err := pdn.Parse(strings.NewReader(given))
		if err != nil {
			t.Fatal(err)
		}
		back, err := pdn.Parse(strings.NewReader(out))
		if err != nil || len(back) != len(in) {
			t.Fatalf("annotate %s read back: %d games, %v", c.name, len(back), err)
		}
		for i := range in {
			if !slices.Equal(back[i].Tags, in[i].Tags) || !slices.Equal(back[i].Moves, in[i].Moves) || back[i].Result != in[i].Result {
				t.Errorf("annotate %s, game %d read back: %+v, want %+v", c.name, i+1, back[i], in[i])
			}
		}
	}
	if _, errOut, code := dtb("annotate", "--dir", tabletest.Golden, filepath.Join(dir, "none.pdn")); code != 2 || !strings.Contains(errOut, "none.pdn") {
		t.Errorf("a missing file: status %d, stderr %q", code, errOut)
	}
}
