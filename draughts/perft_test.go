package draughts

import (
	"bufio"
	"os"
	"strconv"
	"strings"
	"testing"
)

// perftRow is one row of the published perft table.
type perftRow struct {
	fen   string
	depth int
	nodes uint64
}

func readPerft(t testing.TB) []perftRow {
	f, err := os.Open("../../shared/reference/perft.tsv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var rows []perftRow
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		cols := strings.Split(line, "\t")
		if len(cols) != 3 {
			t.Fatalf("perft.tsv: bad line %q", line)
		}
		d, err1 := strconv.Atoi(cols[1])
		n, err2 := strconv.ParseUint(cols[2], 10, 64)
		if err1 != nil || err2 != nil {
			t.Fatalf("perft.tsv: bad line %q", line)
		}
		rows = append(rows, perftRow{cols[0], d, n})
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return rows
}

func TestPerftQuick(t *testing.T) {
	for _, r := range readPerft(t) {
		if r.nodes > 10000000 {
			continue
		}
		p, err := ParseFEN(r.fen)
		if err != nil {
			t.Fatal(err)
		}
		if got := Perft(p, r.depth); got != r.nodes {
			t.Errorf("perft(%s, %d) = %d, want %d", r.fen, r.depth, got, r.nodes)
		}
	}
}

func BenchmarkPerft(b *testing.B) {
	p := Start()
	var nodes uint64
	for b.Loop() {
		nodes += Perft(p, 7)
	}
	b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
}
