package reader

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/dtb-draughts/dtb/codec"
	"github.com/dtb-draughts/dtb/draughts"
	"github.com/dtb-draughts/dtb/index"
	"github.com/dtb-draughts/dtb/rules"
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
				starts = append(starts, rules.Position(f.x.Unrank(rng.Int64N(f.x.Size()))))
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

// engineStream returns the positions an engine's search probes where
// the tables of t end: from random positions of one piece more than
// their largest, a search to each depth from 1 to depth plies in turn
// (iterative deepening), every move, that probes each position whose
// material has a table instead of searching it, until n positions are
// probed. Unlike searchStream's walks, its positions recur (each
// deeper search probes those of the shallower ones again) and lie near
// each other (the captures of one position into the tables).
func engineStream(t *Tables, n, depth int) []draughts.Position {
	most := 0
	for _, m := range t.Materials() {
		most = max(most, m.Pieces())
	}
	var materials []index.Material
	for _, m := range index.Materials(most + 1) {
		if m.Pieces() == most+1 {
			materials = append(materials, m)
		}
	}
	rng := rand.New(rand.NewPCG(9, 10))
	var out []draughts.Position
	var search func(p draughts.Position, d int)
	search = func(p draughts.Position, d int) {
		if len(out) == n || p.Pieces(p.Side) == 0 {
			return
		}
		if _, err := t.file(rules.MaterialOf(&p), false); err == nil {
			out = append(out, p)
			return
		}
		if d == 0 {
			return
		}
		for _, m := range p.Moves(nil) {
			search(p.Play(m), d-1)
		}
	}
	for len(out) < n {
		x := index.New(materials[rng.IntN(len(materials))])
		p := rules.Position(x.Unrank(rng.Int64N(x.Size())))
		if Check(p) != nil {
			continue
		}
		for d := 1; d <= depth; d++ {
			search(p, d)
		}
	}
	return out
}

// BenchmarkSearchStream probes a search stream of the largest tables of
// benchDir, as an engine's search does (ValuesOnly), through caches of
// 1%, 10%, 100% and 200% of the bytes of the value files, and of a byte
// a position: ns/probe, and the bytes the cache holds at the end. The
// stream is the positions of random play from random starts (walk,
// searchStream), or those an engine's searches one piece above the
// tables probe (search, engineStream): 100,000 of each.
//
//	DTB_BENCH_DIR=tables go test ./internal/reader -run '^$' -bench SearchStream -cpu 1
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
	tables := open(b, benchDir(), Options{})
	for _, s := range []struct {
		name   string
		stream func() []draughts.Position
	}{
		{"walk", func() []draughts.Position { return searchStream(tables, 100_000) }},
		{"search", func() []draughts.Position { return engineStream(tables, 100_000, 4) }},
	} {
		b.Run("stream="+s.name, func(b *testing.B) { benchmarkStream(b, s.stream(), valueBytes, positions) })
	}
}

// benchmarkStream probes stream through the caches of BenchmarkSearchStream.
func benchmarkStream(b *testing.B, stream []draughts.Position, valueBytes, positions int64) {
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
			b.ReportMetric(float64(t.cache.Used()), "cache-bytes")
			runtime.KeepAlive(t)
		})
	}
}
