package retro

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/dtb-draughts/dtb/index"
	"github.com/dtb-draughts/dtb/rules"
	"github.com/dtb-draughts/dtb/table"
)

// BenchmarkGenerate builds KKvKM (4 pieces) with every table it needs,
// with one and with two threads, and reports positions per second.
func BenchmarkGenerate(b *testing.B) {
	only, _ := index.ParseMaterial("KKvKM")
	for _, threads := range []int{1, 2} {
		b.Run(fmt.Sprintf("threads=%d", threads), func(b *testing.B) {
			var positions int64
			for b.Loop() {
				err := Generate(context.Background(), Options{Only: &only, Dir: b.TempDir(), Threads: threads,
					Done: func(r Report) { positions += r.Stats.Positions }})
				if err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(positions)/b.Elapsed().Seconds(), "positions/s")
		})
	}
}

// BenchmarkFill times turning the results of a unit's analyses into
// entries, for a material without a class (KKKvMMM) and one with rule 2
// (KKKvKMM), the rules analysis sharing the theoretical result.
func BenchmarkFill(b *testing.B) {
	const n = 1 << 20
	r := rand.New(rand.NewPCG(1, 2))
	res := &result{words: newWords(n), dist: true}
	// Values and capture flags come in runs, as in a table.
	v, d, c := rules.Draw, 0, false
	for i := range int64(n) {
		if r.IntN(8) == 0 {
			v, d, c = rules.Value(r.IntN(3)-1), r.IntN(60), r.IntN(2) == 0
		}
		w := newWord(open, noLoss) // a draw
		if v != rules.Draw {
			w = decidedWord(v, uint32(d))
		}
		if c {
			w |= captureBit
		}
		res.words.set(i, w)
	}
	for _, name := range []string{"KKKvMMM", "KKKvKMM"} {
		b.Run(name, func(b *testing.B) {
			m, _ := index.ParseMaterial(name)
			gb := &groupWork{class: rules.ClassOf(m)}
			u := &unit{name: name}
			var results [numAnalyses]*result
			results[theoryAnalysis], results[rulesAnalysis] = res, res
			cols := table.NewLayout(m, table.Extra{}).MakeColumns(n)
			capture := make([]byte, n)
			for b.Loop() {
				if err := gb.fill(u, &cols, capture, results, 0, 0, n); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/position")
		})
	}
}
