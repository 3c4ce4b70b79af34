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
	"strings"
	"syscall"
	"testing"

	"github.com/dtb-draughts/dtb/internal/tabletest"
)

// TestLineCommand prints the best line of the longest class B win, with
// White and (its colour flip, cut at 3 plies) with Black to move, of a
// drawn position and of a cursed win, and refuses a position beyond the
// tables saying which table to build.
func TestLineCommand(t *testing.T) {
	dir := tabletest.Golden
	for _, c := range []struct {
		args []string
		out  string
	}{
		{[]string{"W:WK2,6:BK50"}, "[FEN \"W:WK2,6:BK50\"]\n1. 2-11 50-45 2. 6-1 45-50 3. 11-6 50-45 4. 6-50 45-40 5. 1x45 {the side to move has no move: it has lost}\n"},
		{[]string{"W:WK1:BK50"}, "[FEN \"W:WK1:BK50\"]\n{a draw: no best line}\n"},
		{[]string{"--clock", "2", "W:WK2,6:BK50"}, "[FEN \"W:WK2,6:BK50\"]\n{a draw under the rules, a win in theory: no best line}\n"},
		{[]string{"--plies", "3", "B:WK1:B45,K49"}, "[FEN \"B:WK1:B45,K49\"]\n1... 49-40 2. 1-6 45-50 {3 plies, the line goes on: ask for more with --plies}\n"},
	} {
		out, errOut, code := dtb(append([]string{"line", "--dir", dir}, c.args...)...)
		if code != 0 || out != c.out || errOut != "" {
			t.Errorf("line %q: status %d, stdout %q, stderr %q; want %q", c.args, code, out, errOut, c.out)
		}
	}
	_, errOut, code := dtb("line", "--dir", dir, "W:WK1,K2:BK40,K45")
	if want := "dtb line: W:WK1,K2:BK40,K45: its table KKvKK is not in " + dir + " (build it with: dtb gen --only KKvKK --out " + dir + ")\n"; code != 1 || errOut != want {
		t.Errorf("line beyond the tables: status %d, stderr %q, want 1 and %q", code, errOut, want)
	}
}

// TestServeCommand runs dtb serve on a free port of localhost, asks it a
// position and a bad FEN over HTTP, and stops it with SIGINT.
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
	addr := regexp.MustCompile(`http://(127\.0\.0\.1:[0-9]+)/`).FindStringSubmatch(line)
	if err != nil || addr == nil {
		t.Fatalf("dtb serve said %q (%v), want its address", line, err)
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

// TestAnnotateCommand annotates a PDN file of two games, one of which lets
// a class B win slip, and refuses a game with an illegal move, naming the
// game, its line and the ply, and a file that is missing.
func TestAnnotateCommand(t *testing.T) {
	dir := t.TempDir()
	games := filepath.Join(dir, "games.pdn")
	if err := os.WriteFile(games, []byte(`[Event "A class B ending"]
[FEN "W:WK2,6:BK50"]
1. 2-11 50-45 2. 6-1 45-50 3. 11-16 50-45 *

[FEN "W:W28:B3"]
1. 28-22 3-9 2. 22-18 *
`), 0o644); err != nil {
		t.Fatal(err)
	}
	out, errOut, code := dtb("annotate", "--dir", tabletest.Golden, games)
	want := `[Event "A class B ending"]
[FEN "W:WK2,6:BK50"]
1. 2-11 50-45 2. 6-1 45-50 3. 11-16 {dtb: White turns win into draw; 11-6 keeps the win} 50-45 *

[FEN "W:W28:B3"]
1. 28-22 3-9 2. 22-18 *

`
	if code != 0 || out != want || errOut != "dtb annotate: 2 games, 1 moves marked\n" {
		t.Errorf("annotate: status %d, stdout %q, stderr %q; want\n%s", code, out, errOut, want)
	}
	bad := filepath.Join(dir, "bad.pdn")
	if err := os.WriteFile(bad, []byte("1. 32-28 *\n\n[FEN \"W:WK2,6:BK50\"]\n1. 2-11 50-46 *\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, errOut, code = dtb("annotate", "--dir", tabletest.Golden, bad)
	if want := "dtb annotate: " + bad + ", game 2 (line 3): ply 2: move \"50-46\" is not legal in B:W6,K11:BK50\n"; code != 1 || errOut != want {
		t.Errorf("an illegal move: status %d, stderr %q, want 1 and %q", code, errOut, want)
	}
	if _, errOut, code := dtb("annotate", "--dir", tabletest.Golden, filepath.Join(dir, "none.pdn")); code != 2 || !strings.Contains(errOut, "none.pdn") {
		t.Errorf("a missing file: status %d, stderr %q", code, errOut)
	}
}
