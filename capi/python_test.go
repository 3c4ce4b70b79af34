package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dtb-draughts/dtb/draughts"
	"github.com/dtb-draughts/dtb/index"
	"github.com/dtb-draughts/dtb/internal/testenv"
	"github.com/dtb-draughts/dtb/probe"
	"github.com/dtb-draughts/dtb/rules"
)

// An expectation is what the Go probe answers to a FEN with clocks, in
// the C library's numbers, for the Python tests (python/test_dtb.py).
type expectation struct {
	FEN         string  `json:"fen"`
	Class       int     `json:"class_played"`
	Rule2       int     `json:"rule2_played"`
	Status      int     `json:"status"`            // of the probe
	Message     string  `json:"message,omitempty"` // the library's, where Status < 0
	Result      []int   `json:"result,omitempty"`  // rules, theory, category, distance, dtw, mtc
	MoveStatus  int     `json:"move_status"`       // of the root moves
	MoveMessage string  `json:"move_message,omitempty"`
	Moves       [][]any `json:"moves"` // notation, from, to, captured, then as Result
}

// expect returns what the Go probe t answers to fen with the clocks c;
// the messages are those capi records.
func expect(t *probe.Tables, fen string, c probe.Clocks) expectation {
	e := expectation{FEN: fen, Class: c.Class, Rule2: c.Rule2}
	p, err := draughts.ParseFEN(fen)
	if err != nil {
		err = fmt.Errorf("dtb: %w: %v", probe.ErrIllegal, err)
		e.Status, e.Message = int(status(err)), err.Error()
		e.MoveStatus, e.MoveMessage = e.Status, e.Message
		return e
	}
	if r, err := t.Probe(p, c, 0); err != nil {
		e.Status, e.Message = int(status(err)), err.Error()
	} else {
		en := r.Entry
		e.Result = []int{int(r.Value), int(en.Theory), int(r.Category()), int(en.Distance), int(en.DTW), int(en.MTC)}
	}
	moves, err := t.RootMoves(p, c)
	if err != nil {
		e.MoveStatus, e.MoveMessage = int(status(err)), err.Error()
	}
	e.Moves = [][]any{}
	for _, m := range moves {
		en := m.Entry
		e.Moves = append(e.Moves, []any{p.Notation(m.Move), m.Move.FromSquare(), m.Move.ToSquare(),
			uint64(draughts.SquareSet(m.Move.Captured)), int(m.Value), int(en.Theory), int(m.Category()), int(en.Distance), int(en.DTW), int(en.MTC)})
	}
	return e
}

// TestPython runs the unittest tests of the Python module (python/) with
// python3 against the libdtb.so of build and the golden tables, checking
// its answers on some 1,500 positions, bad FENs and missing tables among
// them, against the Go probe's (DTB_TEST_EXPECT): the same numbers for
// values and categories, every category among them. Without python3 it
// skips, or fails under DTB_REQUIRE_TOOLS=1.
func TestPython(t *testing.T) {
	python := testenv.Tool(t, "python3", "python3")
	build(t)
	cmd := exec.Command(python, "-m", "unittest", "-v", "test_dtb")
	cmd.Dir = filepath.Join("..", "python")
	cmd.Env = append(os.Environ(), "DTB_LIBRARY="+filepath.Join(built.dir, "libdtb.so"), "PYTHONDONTWRITEBYTECODE=1")
	runPython(t, cmd)
}

// TestPythonInstall runs scripts/python-install-test.sh, which installs
// the Python package with pip, without a package index, into a fresh
// virtual environment and runs the tests of TestPython there, against
// the installed package. Without python3 or its venv module it skips,
// or fails under DTB_REQUIRE_TOOLS=1.
func TestPythonInstall(t *testing.T) {
	python := testenv.Tool(t, "python3", "python3")
	bash := testenv.Tool(t, "bash", "bash")
	if out, err := exec.Command(python, "-c", "import ensurepip, venv").CombinedOutput(); err != nil {
		lines := strings.Split(strings.TrimSpace(string(out)), "\n")
		msg := fmt.Sprintf("python3 cannot make a virtual environment (%s; apt-get install python3-venv)", lines[len(lines)-1])
		if os.Getenv("DTB_REQUIRE_TOOLS") == "1" {
			t.Fatalf("%s, and DTB_REQUIRE_TOOLS=1 requires it", msg)
		}
		t.Skipf("%s: skipped; set DTB_REQUIRE_TOOLS=1 to make it fail", msg)
	}
	runPython(t, exec.Command(bash, filepath.Join("..", "scripts", "python-install-test.sh"), python))
}

// runPython runs cmd, the Python module's tests, with the golden tables
// and the Go probe's answers (DTB_TEST_TABLES, DTB_TEST_EXPECT) added to
// its environment (os.Environ() where it has none), and fails where it
// fails or skips a test.
func runPython(t *testing.T, cmd *exec.Cmd) {
	t.Helper()
	tables, err := probe.Open(golden, probe.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer tables.Close()
	var exp []expectation
	for _, name := range []string{"KvK", "KKvK", "KMvK", "KvKM", "MMvK", "KMvM", "MvMM", "MvK"} {
		m, _ := index.ParseMaterial(name)
		x := index.New(m)
		budget := rules.ClassOf(m).Budget()
		for i := int64(0); i < x.Size(); i += x.Size()/90 + 1 {
			p := rules.Position(x.Unrank(i))
			for k, q := range []draughts.Position{p, p.Flip()} {
				exp = append(exp, expect(tables, q.FEN(), probe.Clocks{Class: (int(i) + k) % (budget + 2)}))
			}
		}
	}
	for _, fen := range []string{
		"W:WK10:BK5", "W:WK2,6:BK50", "W:W28:BK23", "B:WK10:B", "W:WK1,K2:BK40,K45",
		"W:WK10:BK55", "W:WK10:WK5", "X:WK10:BK5", "W:WK10,K10:BK5", "",
	} {
		exp = append(exp, expect(tables, fen, probe.Clocks{}))
	}
	b, err := json.Marshal(exp)
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "expect.json")
	if err := os.WriteFile(file, b, 0o644); err != nil {
		t.Fatal(err)
	}
	if cmd.Env == nil {
		cmd.Env = os.Environ()
	}
	cmd.Env = append(cmd.Env, "DTB_TEST_TABLES="+golden, "DTB_TEST_EXPECT="+file)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s: %v\n%s", strings.Join(cmd.Args, " "), err, out)
	}
	if strings.Contains(string(out), "skipped") {
		t.Errorf("the Python tests skipped some under go test:\n%s", out)
	}
	t.Logf("%d positions\n%s", len(exp), out)
}
