package retro

import (
	"context"
	"testing"

	"github.com/dtb-draughts/dtb/index"
)

// BenchmarkGenerate solves every table up to 3 pieces and KKvKM (4 pieces)
// and reports positions per second.
func BenchmarkGenerate(b *testing.B) {
	only, _ := index.ParseMaterial("KKvKM")
	var positions int64
	for b.Loop() {
		dir := b.TempDir()
		err := Generate(context.Background(), Options{Only: &only, Dir: dir, Threads: 1,
			Done: func(r Report) { positions += r.Stats.Positions }})
		if err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(positions)/b.Elapsed().Seconds(), "positions/s")
}
