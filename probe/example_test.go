package probe_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/dtb-draughts/dtb/draughts"
	"github.com/dtb-draughts/dtb/internal/testcache"
	"github.com/dtb-draughts/dtb/internal/testenv"
	"github.com/dtb-draughts/dtb/probe"
	"github.com/dtb-draughts/dtb/retro"
)

// Example builds the 2-piece tables and probes a few positions: a class B
// win (KvK) in 3 plies, a king that takes the other, a draw, and a man
// that takes the last piece (MvK has no move limit: distance -1).
func Example() {
	dir, err := os.MkdirTemp("", "tables")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	if err := retro.Generate(context.Background(), retro.Options{Pieces: 2, Dir: dir, DTW: true}); err != nil {
		panic(err)
	}

	t, err := probe.Open(dir, probe.Options{})
	if err != nil {
		panic(err)
	}
	defer t.Close()
	for _, fen := range []string{"W:WK10:BK5", "B:WK10:BK5", "W:WK2:BK26", "W:W28:BK23"} {
		pos, err := draughts.ParseFEN(fen)
		if err != nil {
			panic(err)
		}
		r, err := t.Probe(pos, probe.Clocks{}, 0)
		if err != nil {
			panic(err)
		}
		fmt.Printf("%s: %v, distance %d, dtw %d\n", fen, r.Value, r.Entry.Distance, r.Entry.DTW)
	}
	fmt.Println(t.Materials())
	// Output:
	// W:WK10:BK5: win, distance 3, dtw 3
	// B:WK10:BK5: win, distance 1, dtw 1
	// W:WK2:BK26: draw, distance -1, dtw -1
	// W:W28:BK23: win, distance -1, dtw 1
	// [KvK KvM MvK MvM]
}

// ExampleTables_RootMoves lists the moves of a KMvK position won in 9
// plies, best first, with 1 ply played on its class clock of 10 (9 left)
// and with 2 (8 left), when the win no longer fits.
func ExampleTables_RootMoves() {
	t, err := probe.Open("../testdata/golden", probe.Options{})
	if err != nil {
		panic(err)
	}
	defer t.Close()
	pos, err := draughts.ParseFEN("W:WK2,6:BK50")
	if err != nil {
		panic(err)
	}
	for _, played := range []int{1, 2} {
		moves, err := t.RootMoves(pos, probe.Clocks{Class: played})
		if err != nil {
			panic(err)
		}
		best := moves[0]
		fmt.Printf("%d of 10 plies played: %d moves, best %s: %v (theoretical %v in %d)\n",
			played, len(moves), pos.Notation(best.Move), best.Value, best.Entry.Theory, best.Entry.Distance)
	}
	// Output:
	// 1 of 10 plies played: 10 moves, best 2-11: win (theoretical win in 9)
	// 2 of 10 plies played: 10 moves, best 2-11: draw (theoretical win in 9)
}

// TestOutsideModule runs examples/go, an engine's own module that
// depends on dtb through replace (docs/engines.md), as an engine author
// builds it: with the go command, offline, over the golden tables.
func TestOutsideModule(t *testing.T) {
	goTool := testenv.Tool(t, "go", "golang-go")
	root := testcache.ModuleRoot()
	cmd := exec.Command(goTool, "run", ".", filepath.Join(root, "testdata", "golden"), "W:WK10:BK5", "W:WK2,6:BK50")
	cmd.Dir = filepath.Join(root, "examples", "go")
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=readonly", "GOPROXY=off")
	out, err := cmd.CombinedOutput()
	if want := "W:WK10:BK5 win win 3\nW:WK2,6:BK50 win win 9\n"; err != nil || string(out) != want {
		t.Errorf("go run in examples/go: %v\n%s\nwant\n%s", err, out, want)
	}
}
