package retro

import (
	"slices"
	"testing"

	"github.com/dtb-draughts/dtb/index"
)

// TestBudgetShares checks that the shares of a budget add up to it: the
// store's, the cache's sixteenth and the solver's; the writing's caches
// fit in the solver's share, which they take over.
func TestBudgetShares(t *testing.T) {
	for _, mem := range []int64{1 << 20, 64 << 20, 512 << 20, 8<<30 + 12345, 1 << 40} {
		b := budget(mem)
		if sum := b.store() + mem/16 + b.solver(); sum != mem {
			t.Errorf("budget %d: store %d + cache %d + solver %d = %d", mem, b.store(), mem/16, b.solver(), sum)
		}
		if b.cache() < mem/16 || b.cache() < 16<<20 {
			t.Errorf("budget %d: cache %d", mem, b.cache())
		}
		for n := 1; n <= 2; n++ {
			if w := b.writing(n); int64(n)*w > b.solver() {
				t.Errorf("budget %d: %d tables written at %d bytes each, solver's share %d", mem, n, w, b.solver())
			}
		}
	}
}

// TestLevelConfigs checks the count of men configurations by level
// against the levels of every configuration.
func TestLevelConfigs(t *testing.T) {
	for _, name := range []string{"KvK", "MvK", "KMvMM", "MMvKM", "MMMvM"} {
		m, _ := index.ParseMaterial(name)
		x := index.New(m)
		var want []int64
		for r := range x.MenConfigs() {
			l := level(x.UnrankMen(r))
			for len(want) <= l {
				want = append(want, 0)
			}
			want[l]++
		}
		if got := levelConfigs(m); !slices.Equal(got, want) {
			t.Errorf("%s: configurations by level %v, want %v", name, got, want)
		}
	}
}
