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
	"github.com/dtb-draughts/dtb/internal/slim"
	"github.com/dtb-draughts/dtb/internal/tabletest"
	"github.com/dtb-draughts/dtb/probe"
	"github.com/dtb-draughts/dtb/rules"
)

// BenchmarkSearched probes random quiet positions of a slim directory as
// a search does, with ValuesOnly and CacheOnly, their blocks cached: per
// piece count, 1024 positions of the tables stored (stored), as many
// forced threats of them (threats: rules.ForcedThreat, searched where
// their file leaves them out: Options.Threats), and
// 1024 positions of the tables answered by a search through their colour
// flips (searched), each drawn from a table chosen at random. ns/probe
// is the mean; p50-ns the median over the positions of each one's mean
// over 32 probes. The directory is $DTB_BENCH_DIR (written by dtb slim),
// else the slim tables of the Rule2 test set.
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
		for k, name := range []string{"stored", "threats", "searched"} {
			ms := kinds[k/2] // threats are those of the tables stored
			if len(ms) == 0 {
				continue
			}
			var ps []draughts.Position
			for tries := 0; len(ps) < 1024 && tries < 1<<26; tries++ {
				x := index.New(ms[rng.IntN(len(ms))])
				p := rules.Position(x.Unrank(rng.Int64N(x.Size())))
				if probe.Check(p) == nil && !p.HasCapture() && (k == 2 || rules.ForcedThreat(&p) == (k == 1)) {
					ps = append(ps, p)
				}
			}
			if len(ps) < 1024 {
				continue // too few forced threats
			}
			b.Run(fmt.Sprintf("pieces=%d/%s", n, name), func(b *testing.B) {
				measure(b, t, ps, probe.Clocks{}, probe.CacheOnly|probe.ValuesOnly)
			})
		}
	}
}

// BenchmarkDistances probes random quiet positions of the stored tables
// of a slim directory with distance files whose material has a rule-2
// count, won or lost in theory, their blocks cached, under a running
// count of 40 plies: exact reads the whole entry (the short distances a
// search finds: table.ShortDistance), values only the value (the search
// skipped where the count leaves more plies than the distance byte).
// ns/probe and p50-ns as BenchmarkSearched. The directory is
// $DTB_BENCH_DIR (written by dtb slim --distances), else the slim tables
// of the Rule2 test set.
//
//	DTB_BENCH_DIR=engine go test ./slim -run '^$' -bench Distances -cpu 1
func BenchmarkDistances(b *testing.B) {
	dir := os.Getenv("DTB_BENCH_DIR")
	if dir == "" {
		dir = write(b, tabletest.Rule2.Dir(b), slim.Options{Distances: true})
	}
	t := open(b, dir)
	rng := rand.New(rand.NewPCG(1, 2))
	for n := 2; n <= 8; n++ {
		var ms []index.Material
		for _, m := range t.Materials() {
			if m.Pieces() == n && rules.ClassOf(m) == rules.Rule2 && stored(t, m) {
				ms = append(ms, m)
			}
		}
		if len(ms) == 0 {
			continue
		}
		var ps []draughts.Position
		for len(ps) < 1024 {
			x := index.New(ms[rng.IntN(len(ms))])
			p := rules.Position(x.Unrank(rng.Int64N(x.Size())))
			if probe.Check(p) != nil || p.HasCapture() {
				continue
			}
			if r, err := t.Probe(p, probe.Clocks{}, probe.ValuesOnly); err != nil {
				b.Fatal(err)
			} else if r.Entry.Theory != rules.Draw {
				ps = append(ps, p)
			}
		}
		c := probe.Clocks{Rule2: 40}
		b.Run(fmt.Sprintf("pieces=%d/exact", n), func(b *testing.B) { measure(b, t, ps, c, probe.CacheOnly) })
		b.Run(fmt.Sprintf("pieces=%d/values", n), func(b *testing.B) { measure(b, t, ps, c, probe.CacheOnly|probe.ValuesOnly) })
	}
}

// measure probes ps in turn with the clocks c and flags fl, after a
// probe of each without CacheOnly fills the cache, and reports the mean
// (ns/probe) and the median over the positions of each one's mean over
// 32 probes (p50-ns).
func measure(b *testing.B, t *probe.Tables, ps []draughts.Position, c probe.Clocks, fl probe.Flags) {
	probeOne := func(p draughts.Position) {
		if _, err := t.Probe(p, c, fl); err != nil {
			b.Fatal(err)
		}
	}
	for _, p := range ps {
		if _, err := t.Probe(p, c, fl&^probe.CacheOnly); err != nil {
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
}
