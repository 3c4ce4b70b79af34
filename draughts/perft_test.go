package draughts

import (
	"fmt"
	"math"
	"strconv"
	"testing"

	"github.com/dtb-draughts/dtb/internal/testenv"
)

// perftRow is one row of the published perft table.
type perftRow struct {
	fen   string
	depth int
	nodes uint64
}

func readPerft(t testing.TB) []perftRow {
	var rows []perftRow
	for _, cols := range readReference(t, "perft.tsv", 3) {
		d, err1 := strconv.Atoi(cols[1])
		n, err2 := strconv.ParseUint(cols[2], 10, 64)
		if err1 != nil || err2 != nil {
			t.Fatalf("perft.tsv: bad row %q", cols)
		}
		rows = append(rows, perftRow{cols[0], d, n})
	}
	return rows
}

// TestPerft checks every published row of up to 10 million nodes.
func TestPerft(t *testing.T) { testPerft(t, 0, 10_000_000) }

// TestPerftDeep checks the remaining rows (minutes on two cores) under
// DTB_LONG=1.
func TestPerftDeep(t *testing.T) {
	testenv.SkipUnlessLong(t, "perft rows of more than 10 million nodes")
	testPerft(t, 10_000_001, math.MaxUint64)
}

func testPerft(t *testing.T, lo, hi uint64) {
	for _, r := range readPerft(t) {
		if r.nodes < lo || r.nodes > hi {
			continue
		}
		t.Run(fmt.Sprintf("%s/%d", r.fen, r.depth), func(t *testing.T) {
			t.Parallel()
			p, err := ParseFEN(r.fen)
			if err != nil {
				t.Fatal(err)
			}
			if got := Perft(p, r.depth); got != r.nodes {
				t.Errorf("perft(%s, %d) = %d, want %d", r.fen, r.depth, got, r.nodes)
			}
		})
	}
}

// BenchmarkPerft counts the start position to depth 9 (41,022,423 nodes).
func BenchmarkPerft(b *testing.B) {
	p := Start()
	var nodes uint64
	for b.Loop() {
		nodes += Perft(p, 9)
	}
	b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
}
