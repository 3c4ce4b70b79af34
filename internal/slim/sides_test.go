package slim_test

import (
	"context"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/dtb-draughts/dtb/codec"
	"github.com/dtb-draughts/dtb/draughts"
	"github.com/dtb-draughts/dtb/index"
	"github.com/dtb-draughts/dtb/internal/slim"
	"github.com/dtb-draughts/dtb/internal/tabletest"
	"github.com/dtb-draughts/dtb/internal/testenv"
	"github.com/dtb-draughts/dtb/probe"
	"github.com/dtb-draughts/dtb/verify"
)

// TestSidesBoth checks that SidesBoth keeps every table of the Rule2
// set, none searched, that its directory answers every position checked
// as the build does, whole entries under fresh and running clocks, that
// a Write over it is taken for a slim directory's (its files say so),
// and a Write from it refused.
func TestSidesBoth(t *testing.T) {
	dir := tabletest.Rule2.Dir(t)
	full := open(t, dir)
	out := write(t, dir, slim.Options{Sides: slim.SidesBoth, Distances: true})
	listed, err := codec.ReadManifest(out)
	if err != nil {
		t.Fatal(err)
	}
	if len(listed) != len(full.Materials()) {
		t.Errorf("%d tables listed, want the build's %d", len(listed), len(full.Materials()))
	}
	for _, e := range listed {
		if e.Searched != "" {
			t.Errorf("%s: searched %s", e.Material, e.Searched)
		}
	}
	tb := open(t, out)
	for _, m := range full.Materials() {
		if !stored(tb, m) {
			t.Errorf("%s: not stored", m)
		}
		positions(m, 500, func(p draughts.Position) {
			for _, c := range []probe.Clocks{{}, {Rule2: 30}} {
				want, err := full.Probe(p, c, 0)
				if err != nil {
					t.Fatalf("%s: %v", p.FEN(), err)
				}
				if got, err := tb.Probe(p, c, 0); err != nil || got != want {
					t.Fatalf("%s %+v: slim %+v, %v; built %+v", p.FEN(), c, got, err, want)
				}
			}
		})
	}
	if err := slim.Write(context.Background(), dir, out, slim.Options{Sides: slim.SidesBoth}); err != nil {
		t.Errorf("written again over itself: %v", err)
	}
	err = slim.Write(context.Background(), out, filepath.Join(t.TempDir(), "again"), slim.Options{})
	if err == nil || !strings.Contains(err.Error(), "is a slim directory already") {
		t.Errorf("a slim directory of both sides written from: %v", err)
	}
}

// TestSidesWhereDear checks that SidesWhereDear, its threshold set
// between the costs it measures on the Rule2 set's pairs, keeps both
// tables of the pairs whose cost reaches it and the smaller table of the
// others; that it reports the same costs at any threshold; that its
// directory verifies (KKvM alone unless DTB_LONG=1); and that a second
// Write gives the same bytes.
func TestSidesWhereDear(t *testing.T) {
	dir := tabletest.Rule2.Dir(t)
	costs := func(o slim.Options) (string, map[index.Material]float64) {
		cost := map[index.Material]float64{}
		o.Done = func(x slim.Table) {
			if x.Cost > 0 {
				cost[x.Material] = x.Cost
			}
		}
		return write(t, dir, o), cost
	}
	o := slim.Options{Sides: slim.SidesWhereDear}
	_, measured := costs(o)
	o.Distances = true // for verify to recompute the tables
	sorted := slices.Sorted(maps.Values(measured))
	if len(sorted) < 2 || sorted[0] == sorted[len(sorted)-1] {
		t.Fatalf("costs %v: too few to split", measured)
	}
	threshold := (sorted[0] + sorted[len(sorted)-1]) / 2
	defer slim.SetSearchCost(threshold)()
	out, got := costs(o)
	if !maps.Equal(got, measured) {
		t.Errorf("costs %v at threshold %.2f, %v at the default", got, threshold, measured)
	}
	tb := open(t, out)
	for m, c := range measured {
		kept := stored(tb, m)
		if kept != (c >= threshold) || !stored(tb, m.Flip()) {
			t.Errorf("%s costs %.2f probes: stored %v, its flip %v, at threshold %.2f", m, c, kept, stored(tb, m.Flip()), threshold)
		}
	}
	vo := verify.Options{Only: []index.Material{{WhiteKings: 2, BlackMen: 1}}} // KKvM, its flip searched
	if testenv.Long() {
		vo.Only = nil // every table, KKvKM's 1.3 million positions among them: seconds
	}
	reports, err := verify.Verify(context.Background(), out, vo)
	if err != nil {
		t.Fatal(err)
	}
	if len(reports) == 0 {
		t.Errorf("verify of %v: no report", vo.Only)
	}
	for _, r := range reports {
		if !r.OK() {
			t.Errorf("%s: %+v", r.Material, r)
		}
	}
	again, _ := costs(o)
	files, err := os.ReadDir(out)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		a, errA := os.ReadFile(filepath.Join(out, f.Name()))
		b, errB := os.ReadFile(filepath.Join(again, f.Name()))
		if errA != nil || errB != nil || !slices.Equal(a, b) {
			t.Errorf("%s: differs between two writes (%v, %v)", f.Name(), errA, errB)
		}
	}
	if more, _ := os.ReadDir(again); len(more) != len(files) {
		t.Errorf("%d files written, then %d", len(files), len(more))
	}
}
