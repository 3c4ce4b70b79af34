package slim_test

import (
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"testing"
	"time"

	"github.com/dtb-draughts/dtb/draughts"
	"github.com/dtb-draughts/dtb/index"
	"github.com/dtb-draughts/dtb/internal/tabletest"
	"github.com/dtb-draughts/dtb/probe"
	"github.com/dtb-draughts/dtb/slim"
	"github.com/dtb-draughts/dtb/table"
)

// BenchmarkSearched probes random quiet positions of a slim directory as
// a search does, with ValuesOnly and CacheOnly, their blocks cached: per
// piece count, 1024 positions of the tables stored (stored) and of those
// answered by a search through their colour flips (searched), each drawn
// from a table chosen at random. ns/probe is the mean; p50-ns the median
// over the positions of each one's mean over 32 probes. The directory is
// $DTB_BENCH_DIR (written by dtb slim), else the slim tables of the Rule2
// test set.
//
//	DTB_BENCH_DIR=engine go test ./slim -run '^$' -bench Searched -cpu 1
func BenchmarkSearched(b *testing.B) {
	dir := os.Getenv("DTB_BENCH_DIR")
	if dir == "" {
		dir = write(b, tabletest.Rule2.Dir(b), slim.Options{})
	}
	t := open(b, dir)
	rng := rand.New(rand.NewPCG(1, 2))
	for n := 2; n <= 8; n++ {
		var kinds [2][]index.Material // stored, searched
		for _, m := range t.Materials() {
			if m.Pieces() == n {
				k := 0
				if !stored(t, m) {
					k = 1
				}
				kinds[k] = append(kinds[k], m)
			}
		}
		for k, name := range []string{"stored", "searched"} {
			if len(kinds[k]) == 0 {
				continue
			}
			var ps []draughts.Position
			for len(ps) < 1024 {
				x := index.New(kinds[k][rng.IntN(len(kinds[k]))])
				if p := table.Position(x.Unrank(rng.Int64N(x.Size()))); probe.Check(p) == nil && !p.HasCapture() {
					ps = append(ps, p)
				}
			}
			b.Run(fmt.Sprintf("pieces=%d/%s", n, name), func(b *testing.B) {
				probeOne := func(p draughts.Position) {
					if _, err := t.Probe(p, probe.Clocks{}, probe.CacheOnly|probe.ValuesOnly); err != nil {
						b.Fatal(err)
					}
				}
				for _, p := range ps { // fills the cache
					if _, err := t.Probe(p, probe.Clocks{}, probe.ValuesOnly); err != nil {
						b.Fatal(err)
					}
				}
				i := 0
				for b.Loop() {
					probeOne(ps[i%len(ps)])
					i++
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N), "ns/probe")
				b.StopTimer()
				each := make([]time.Duration, len(ps))
				for j, p := range ps {
					start := time.Now()
					for range 32 {
						probeOne(p)
					}
					each[j] = time.Since(start) / 32
				}
				slices.Sort(each)
				b.ReportMetric(float64(each[len(each)/2].Nanoseconds()), "p50-ns")
			})
		}
	}
}
