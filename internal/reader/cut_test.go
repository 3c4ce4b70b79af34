package reader_test

import (
	"context"
	"math/rand/v2"

	"path/filepath"
	"testing"

	"github.com/dtb-draughts/dtb/index"
	"github.com/dtb-draughts/dtb/internal/reader"
	"github.com/dtb-draughts/dtb/internal/slim"
	"github.com/dtb-draughts/dtb/internal/tabletest"
	"github.com/dtb-draughts/dtb/rules"
)

// TestCuts checks the contract of a search under a cut, which a probe of
// a searched table's position gives its successors: over capture
// positions and positions of the searched tables of a slim directory,
// with ValuesOnly, under every cut, the theoretical and the rules value
// found, each capped at the cut's, are the exact ones capped so.
func TestCuts(t *testing.T) {
	out := filepath.Join(t.TempDir(), "slim")
	if err := slim.Write(context.Background(), tabletest.Rule2.Dir(t), out, slim.Options{}); err != nil {
		t.Fatal(err)
	}
	tables, err := reader.Open(out, reader.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer tables.Close()
	rng := rand.New(rand.NewPCG(3, 4))

	checked := 0
	for _, m := range tables.Materials() {
		x := index.New(m)
		for range 1000 {
			p := rules.Position(x.Unrank(rng.Int64N(x.Size())))
			if reader.Check(p) != nil || !tables.Searched(m) && !p.HasCapture() {
				continue
			}
			exact, err := tables.Probe(p, reader.Clocks{}, reader.ValuesOnly)
			if err != nil {
				t.Fatal(err)
			}
			want := exact.Entry
			for theory := rules.Loss; theory <= rules.Win; theory++ {
				for ru := rules.Loss; ru <= rules.Win; ru++ {
					r, err := tables.ProbeCut(p, reader.Clocks{}, reader.ValuesOnly, theory, ru)
					if err != nil {
						t.Fatal(err)
					}
					if got := r.Entry; min(got.Theory, theory) != min(want.Theory, theory) || min(got.Rules, ru) != min(want.Rules, ru) {
						t.Fatalf("%s under the cut %v, %v: %v, %v; exact %v, %v", p.FEN(), theory, ru, got.Theory, got.Rules, want.Theory, want.Rules)
					}
				}
			}
			checked++
		}
	}
	if checked < 1000 {
		t.Fatalf("only %d positions checked", checked)
	}
}
