package retro

import (
	"context"
	"fmt"
	"testing"

	"github.com/dtb-draughts/dtb/index"
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
