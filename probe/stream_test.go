package probe

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/dtb-draughts/dtb/codec"
	"github.com/dtb-draughts/dtb/draughts"
	"github.com/dtb-draughts/dtb/table"
)

// searchStream returns the positions that random play meets from random
// starts of the tables of t with the most pieces: walks of up to 60
// plies, both sides to move, captures and threats as they come, until
// n positions are met. The stream is what an engine's search probes.
func searchStream(t *Tables, n int) []draughts.Position {
	most := 0
	for _, m := range t.Materials() {
		most = max(most, m.Pieces())
	}
	rng := rand.New(rand.NewPCG(7, 8))
	var starts []draughts.Position
	for _, m := range t.Materials() {
		if m.Pieces() == most {
			f, err := t.file(m, false)
			if err != nil {
				continue
			}
			for range 8 {
				starts = append(starts, table.Position(f.x.Unrank(rng.Int64N(f.x.Size()))))
			}
		}
	}
	var out []draughts.Position
	var buf [draughts.MaxMoves]draughts.Move
	for len(out) < n && len(starts) > 0 {
		p := starts[rng.IntN(len(starts))]
		for range 60 {
			if Check(p) != nil || p.Pieces(p.Side) == 0 {
				break
			}
			out = append(out, p)
			moves := p.Moves(buf[:0])
			if len(moves) == 0 {
				break
			}
			p = p.Play(moves[rng.IntN(len(moves))])
		}
	}
	return out[:min(n, len(out))]
}

// BenchmarkSearchStream probes the positions of random play from random
// starts of the largest tables of benchDir (a search stream), as an
// engine's search does (ValuesOnly), through caches of 1%, 10%, 100% and
// 200% of the bytes of the value files, and of a byte a position:
// ns/probe, and the bytes the cache holds at the end.
//
//	DTB_BENCH_DIR=tables go test ./probe -run '^$' -bench SearchStream -cpu 1
func BenchmarkSearchStream(b *testing.B) {
	entries, err := codec.ReadManifest(benchDir())
	if err != nil {
		b.Fatal(err)
	}
	var valueBytes, positions int64
	for _, e := range entries {
		valueBytes += e.Size
		positions += e.Positions
	}
	stream := searchStream(open(b, benchDir(), Options{}), 100_000)
	for _, c := range []struct {
		name  string
		bytes int64
	}{{"1%", valueBytes / 100}, {"10%", valueBytes / 10}, {"100%", valueBytes}, {"200%", 2 * valueBytes}, {"decoded", positions}} {
		b.Run(fmt.Sprintf("cache=%s", c.name), func(b *testing.B) {
			t := open(b, benchDir(), Options{CacheBytes: c.bytes})
			for _, p := range stream { // opens the files, fills the cache
				if _, err := t.Probe(p, Clocks{}, ValuesOnly); err != nil {
					b.Fatal(err)
				}
			}
			i := 0
			b.ResetTimer()
			for b.Loop() {
				if _, err := t.Probe(stream[i%len(stream)], Clocks{}, ValuesOnly); err != nil {
					b.Fatal(err)
				}
				i++
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N), "ns/probe")
			t.cache.mu.Lock()
			b.ReportMetric(float64(t.cache.size), "cache-bytes")
			t.cache.mu.Unlock()
			runtime.KeepAlive(t)
		})
	}
}
