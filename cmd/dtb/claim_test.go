package main

import (
	"context"
	"encoding/json"
	"encoding/xml"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dtb-draughts/dtb/index"
	"github.com/dtb-draughts/dtb/retro"
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
			Theory    map[string]int64 `json:"theory"`
		} `json:"rows"`
		Examples []struct {
			FEN    string `json:"fen"`
			Theory string `json:"theory"`
		} `json:"examples"`
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil || code != 0 || len(res.Rows) != 2 ||
		res.Rows[1].ToMove != "black" || res.Rows[1].Positions != 424 || res.Rows[0].Theory["loss"] != 2 ||
		len(res.Examples) != 1 || res.Examples[0].Theory != "loss" {
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
		{"claim", "--dir", dir, "KvK", "--report", "x.md"},
	} {
		out, errOut, code := dtb(args...)
		if code != 2 || out != "" || strings.Count(errOut, "\n") != 1 {
			t.Errorf("dtb %q: status %d, stdout %q, stderr %q; want status 2 and one line on stderr", args, code, out, errOut)
		}
	}
	if out, errOut, code := dtb("claim", "--dir", dir, "KKKvK"); code != 1 || out != "" || !strings.Contains(errOut, "no table for KKKvK") {
		t.Errorf("claim KKKvK without its table: status %d, stdout %q, stderr %q", code, out, errOut)
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

// TestClaimReport writes the report from the 3-piece tables and KKKvK,
// which answer some claims and not others, twice.
func TestClaimReport(t *testing.T) {
	dir := copyTables(t, nil)
	m, _ := index.ParseMaterial("KKKvK")
	if err := retro.Generate(context.Background(), retro.Options{Only: &m, Dir: dir, DTW: true}); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "docs", "claims.md")
	if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
		t.Fatal(err)
	}
	var reports [2]string
	for i := range reports {
		if stdout, errOut, code := dtb("claim", "--dir", dir, "--report", out); code != 0 || stdout != "" {
			t.Fatalf("claim --report: status %d, stdout %q, stderr %q", code, stdout, errOut)
		}
		b, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		reports[i] = string(b)
	}
	r := reports[0]
	if reports[1] != r {
		t.Error("two reports from the same tables differ")
	}
	for _, want := range []string{
		"go run ./cmd/dtb claim --dir " + dir + " --report " + out,
		"## 1. Three kings against a king on the long diagonal",
		"**Answer.** With White to move, White wins 113608 (61.7%)",
		"dtb claim --dir " + dir + " KKKvK --where bk=diag:5-46 --examples 0\n",
		"| KKKvK | Black | 184240 | 11362 | 170782 | 2096 | 11362 | 170782 | 2096 |\n",
		"![B:WK10,K14,K19:BK41](claims/1.svg)",
		"## 2. Four kings against a king\n\n> 4 kings against 1 king: is every position a win for the side with 4 kings? The longest win?\n\n**Not answered:** the tables lack a material it needs (probe: no table for KKKKvK).",
		"dtb claim --dir " + dir + " KKKKvK --value 'rules!=win' --examples 1\n",
		"## 4. Can the lone king beat three kings?",
		"**Answer.** Yes: Black wins 16812 positions in theory (0 with White to move, 16812 with Black to move)",
		"## 5. The published longest wins",
	} {
		if !strings.Contains(r, want) {
			t.Errorf("report lacks %q", want)
		}
	}
	for _, name := range []string{"1.svg", "4.svg"} {
		checkSVG(t, filepath.Join(filepath.Dir(out), "claims", name))
	}
}
