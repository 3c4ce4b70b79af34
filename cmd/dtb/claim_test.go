package main

import (
	"encoding/json"
	"encoding/xml"
	"errors"
	"io"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/spf13/pflag"

	"github.com/dtb-draughts/dtb/cmd/dtb/internal/claim"
)

func TestClaimCommand(t *testing.T) {
	dir := tablesDir(t)
	out, errOut, code := dtb("claim", "--dir", dir, "KvK", "--side", "white", "--examples", "1")
	if code != 0 || !strings.Contains(out, "\n       KvK    White       2450        424  2024     2         424  2024     2\n") ||
		!strings.Contains(out, "KvK, White to move, White wins: class distance 3 plies (W:WK10:BK5), dtw 3 plies (W:WK10:BK5)\n") ||
		!strings.Contains(out, "1. W:WK1:BK2  White to move  rules draw  theoretical draw (for White)\n   W   B   .   .   .    1-5\n") {
		t.Errorf("claim: status %d, stdout %q, stderr %q", code, out, errOut)
	}

	out, _, code = dtb("claim", "--dir", dir, "KvK", "--json", "--value", "theory=loss", "--examples", "1")
	var res struct {
		Rows []struct {
			ToMove    string           `json:"to_move"`
			Positions int64            `json:"positions"`
			Rules     map[string]int64 `json:"rules"`
			Theory    map[string]int64 `json:"theory"`
			Longest   map[string]longestWins
		} `json:"rows"`
		Examples []map[string]any `json:"examples"`
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil || code != 0 || len(res.Rows) != 2 ||
		res.Rows[1].ToMove != "black" || res.Rows[1].Positions != 424 ||
		!maps.Equal(res.Rows[0].Theory, map[string]int64{"win": 0, "draw": 0, "loss": 2}) || !maps.Equal(res.Rows[0].Rules, res.Rows[0].Theory) ||
		!reflect.DeepEqual(res.Rows[0].Longest, map[string]longestWins{"white": {}, "black": {&longestWin{"W:WK5:BK46", 2}, &longestWin{"W:WK5:BK46", 2}, nil}}) ||
		len(res.Examples) != 1 || !maps.Equal(res.Examples[0], map[string]any{"fen": "W:WK5:BK46", "rules": "loss", "theory": "loss", "distance": 2.0, "dtw": 2.0, "mtc": nil}) {
		t.Errorf("claim --json: status %d, %v, stdout %q", code, err, out)
	}

	svgs := t.TempDir()
	if _, errOut, code := dtb("claim", "--dir", dir, "KMvK", "--svg", svgs, "--examples", "2"); code != 0 {
		t.Fatalf("claim --svg: status %d %q", code, errOut)
	}
	for _, name := range []string{"example-1.svg", "example-2.svg"} {
		checkSVG(t, filepath.Join(svgs, name))
	}
	// An --svg that is a file: the failure comes before any answer.
	file := filepath.Join(svgs, "example-1.svg")
	if out, errOut, code := dtb("claim", "--dir", dir, "KMvK", "--svg", file); code != 1 || out != "" || strings.Count(errOut, "\n") != 1 {
		t.Errorf("claim --svg FILE: status %d, stdout %q, stderr %q; want status 1, no answer, one line on stderr", code, out, errOut)
	}

	for _, args := range [][]string{
		{"claim", "--dir", dir},
		{"claim", "--dir", dir, "KvX"},
		{"claim", "--dir", dir, "KvK", "--side", "up"},
		{"claim", "--dir", dir, "KvK", "--where", "bk=51"},
		{"claim", "--dir", dir, "KvK", "--value", "rules=won"},
		{"claim", "--dir", dir, "KvK", "--examples", "-1"},
		{"claim", "--dir", dir, "KvK", "--cursed", "rule3"},
		{"claim", "--dir", dir, "KvK", "--report", "x.md"},
	} {
		out, errOut, code := dtb(args...)
		if code != 2 || out != "" || strings.Count(errOut, "\n") != 1 {
			t.Errorf("dtb %q: status %d, stdout %q, stderr %q; want status 2 and one line on stderr", args, code, out, errOut)
		}
	}
	// KvK is class B: rule 2 turns nothing there into a draw.
	if out, _, code := dtb("claim", "--dir", dir, "KvK", "--cursed", "rule2"); code != 0 ||
		!strings.HasPrefix(out, "KvK; either side to move; cursed by rule 2 (values for White") || !strings.Contains(out, "\nno matching position shown\n") {
		t.Errorf("claim --cursed rule2: status %d, stdout %q", code, out)
	}
	if out, _, code := dtb("claim", "--dir", dir, "KvK", "--examples", "1"); code != 0 || !strings.Contains(out, "\nthe first matching position:\n1. ") {
		t.Errorf("claim --examples 1: status %d, stdout %q, want the first matching position", code, out)
	}
	// A material beyond the directory: the most pieces there, and how to
	// build it where dtb gen can.
	for _, c := range []struct{ material, want string }{
		{"KKKvK", "dtb claim: no table for KKKvK in " + dir + ", whose largest tables have 3 pieces (build it with: dtb gen --only KKKvK --out " + dir + ")\n"},
		{"KKKKKvKKK", "dtb claim: 8 pieces, more than any table: the largest in " + dir + " have 3 pieces, and dtb gen builds tables of up to 7\n"},
	} {
		if out, errOut, code := dtb("claim", "--dir", dir, c.material); code != 1 || out != "" || errOut != c.want {
			t.Errorf("claim %s beyond the tables: status %d, stdout %q, stderr %q; want 1 and %q", c.material, code, out, errOut, c.want)
		}
	}
}

// checkSVG checks that a file is well-formed XML with an svg root.
func checkSVG(t *testing.T, path string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	d := xml.NewDecoder(strings.NewReader(string(b)))
	root := ""
	for {
		tok, err := d.Token()
		if errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		if s, ok := tok.(xml.StartElement); ok && root == "" {
			root = s.Name.Local
		}
	}
	if root != "svg" {
		t.Errorf("%s: root element %q, want svg", path, root)
	}
}

// TestClaimReport writes the report from the 3-piece tables, which answer
// none of its claims; package claim tests what the answers say.
func TestClaimReport(t *testing.T) {
	dir := tablesDir(t)
	out := filepath.Join(t.TempDir(), "docs", "claims.md")
	if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
		t.Fatal(err)
	}
	if stdout, errOut, code := dtb("claim", "--dir", dir, "--report", out); code != 0 || stdout != "" || errOut != "" {
		t.Fatalf("claim --report: status %d, stdout %q, stderr %q", code, stdout, errOut)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	r := string(b)
	for _, want := range []string{
		"go run ./cmd/dtb claim --dir " + dir + " --report " + out,
		"## 1. Three kings against a king on the long diagonal",
		"**Not answered:** the tables lack a material it needs (no table for KKKvK).",
		"dtb claim --dir " + dir + " KKKKvK --value 'rules!=win' --examples 1\n",
	} {
		if !strings.Contains(r, want) {
			t.Errorf("report lacks %q:\n%s", want, r)
		}
	}
}

// TestClaimArgs checks that the flags of dtb claim parse the arguments
// that claim.Query.Args writes for each query of the report back into
// the same query.
func TestClaimArgs(t *testing.T) {
	for _, q := range claim.ReportQueries() {
		fs := pflag.NewFlagSet("claim", pflag.ContinueOnError)
		build := claimFlags(fs)
		if err := fs.Parse(q.Args()); err != nil {
			t.Fatalf("%q: %v", q.Args(), err)
		}
		if got, err := build(fs.Args()); err != nil || !reflect.DeepEqual(got, q) {
			t.Errorf("%q parses to %+v, %v; want %+v", q.Args(), got, err, q)
		}
	}
}
