package probe_test

import (
	"math/rand/v2"
	"path/filepath"
	"testing"

	"github.com/dtb-draughts/dtb/draughts"
	"github.com/dtb-draughts/dtb/index"
	"github.com/dtb-draughts/dtb/probe"
	"github.com/dtb-draughts/dtb/rules"
)

// BenchmarkEngineProbe reports the time of an engine's probe through the
// package's API of a random quiet position of KMvK whose blocks are
// cached (cached: with CacheOnly) or not yet read (the first probes);
// package internal/reader's benchmarks measure the reads below it.
func BenchmarkEngineProbe(b *testing.B) {
	tables, err := probe.Open(filepath.Join("..", "testdata", "golden"), probe.Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer tables.Close()
	x := index.New(index.Material{WhiteKings: 1, WhiteMen: 1, BlackKings: 1})
	rng := rand.New(rand.NewPCG(1, 2))
	var ps []draughts.Position
	for len(ps) < 4096 {
		if p := rules.Position(x.Unrank(rng.Int64N(x.Size()))); !p.HasCapture() {
			ps = append(ps, p)
		}
	}
	for _, p := range ps { // every block read
		if _, err := tables.Probe(p, probe.Clocks{}, 0); err != nil {
			b.Fatal(err)
		}
	}
	b.Run("cached", func(b *testing.B) {
		i := 0
		for b.Loop() {
			if _, err := tables.Probe(ps[i%len(ps)], probe.Clocks{}, probe.CacheOnly); err != nil {
				b.Fatal(err)
			}
			i++
		}
	})
}
