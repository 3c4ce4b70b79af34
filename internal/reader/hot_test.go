package reader

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/dtb-draughts/dtb/draughts"
	"github.com/dtb-draughts/dtb/index"
	"github.com/dtb-draughts/dtb/rules"
)

// TestHotBlocks probes random positions of every golden table again and
// again, so that blocks are decoded as they grow hot, through a cache
// that holds them all and one that must evict: every probe answers as
// the first round did, some blocks are decoded (where the decoded share
// of the cache holds one), and the cache's accounting holds.
func TestHotBlocks(t *testing.T) {
	for _, limit := range []int64{1 << 30, 1 << 20} {
		t.Run(fmt.Sprintf("cache=%d", limit), func(t *testing.T) {
			tables := open(t, dir, Options{CacheBytes: limit})
			rng := rand.New(rand.NewPCG(3, 4))
			var ps []draughts.Position
			for _, m := range tables.Materials() {
				x := index.New(m)
				for range 2000 {
					p := rules.Position(x.Unrank(rng.Int64N(x.Size())))
					if rng.IntN(2) == 1 {
						p = p.Flip()
					}
					if Check(p) == nil {
						ps = append(ps, p)
					}
				}
			}
			want := make([]Result, len(ps))
			for i, p := range ps {
				want[i] = mustResult(t, tables, p)
			}
			for round := range 24 {
				for i, p := range ps {
					if got := mustResult(t, tables, p); got != want[i] {
						t.Fatalf("round %d, %s: %+v, want %+v", round, p.FEN(), got, want[i])
					}
				}
			}
			decoded := checkCache(t, tables)
			if decoded == 0 && limit/hotShare >= 1<<16 {
				t.Errorf("no block decoded")
			}
			t.Logf("%d blocks decoded", decoded)
		})
	}
}

// mustResult is Probe of p, which must not fail.
func mustResult(tb testing.TB, t *Tables, p draughts.Position) Result {
	tb.Helper()
	r, err := t.Probe(p, Clocks{}, 0)
	if err != nil {
		tb.Fatalf("%s: %v", p.FEN(), err)
	}
	return r
}

// checkCache checks the accounting of the cache of t: the bytes of the
// blocks its files hold and of the decoded ones, within the budget; and
// returns the decoded blocks.
func checkCache(tb testing.TB, t *Tables) (decoded int) {
	tb.Helper()
	var size, hot int64
	for _, m := range t.mats {
		f := t.files[m.Slot()]
		for _, blocks := range f.blocks {
			if blocks == nil { // a part the file lacks, or a file not opened
				continue
			}
			for n := range blocks.Len() {
				if b, ok := t.cache.Held(blocks, n); ok {
					size += b.size
					if b.decoded {
						hot += b.size
						decoded++
					}
				}
			}
		}
	}
	if used, promoted := t.cache.Used(), t.cache.Promoted(); size != used || hot != promoted || used > t.cacheBytes || hot > t.cacheBytes/hotShare {
		tb.Fatalf("blocks of %d bytes, %d decoded; the cache counts %d and %d, within %d", size, hot, used, promoted, t.cacheBytes)
	}
	return decoded
}
