package probe_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dtb-draughts/dtb/draughts"
	"github.com/dtb-draughts/dtb/index"
	"github.com/dtb-draughts/dtb/internal/slim"
	"github.com/dtb-draughts/dtb/internal/tabletest"
	"github.com/dtb-draughts/dtb/internal/testenv"
	"github.com/dtb-draughts/dtb/probe"
	"github.com/dtb-draughts/dtb/rules"
	"github.com/dtb-draughts/dtb/table"
)

// TestValuesOnly probes the positions of the rule-2 set with ValuesOnly
// in a copy that keeps the distance files of the class A and B tables
// alone: the values are those of full probes; the distance too in class
// A and B, the dtw and mtc only where a capture's search gives them (a
// quiet position's probe reads the distance column alone). Running
// clocks, and probes
// without the flag, say which distance file is missing.
func TestValuesOnly(t *testing.T) {
	full := open(t, rule2Dir(t))
	dir := tabletest.Copy(t, rule2Dir(t))
	for _, m := range full.Materials() {
		if !rules.ClassOf(m).Carries() {
			if err := os.Remove(filepath.Join(dir, m.String()+table.DistanceExt)); err != nil {
				t.Fatal(err)
			}
		}
	}
	vals := open(t, dir)
	missing, quiet := 0, draughts.Position{}
	for _, m := range full.Materials() {
		class := rules.ClassOf(m)
		eachPosition(m, testenv.Stride(3, 41), func(p draughts.Position) {
			want := mustProbe(t, full, p)
			r, err := vals.Probe(p, probe.Clocks{}, probe.ValuesOnly)
			if err != nil {
				t.Fatalf("%s: %v", p.FEN(), err)
			}
			e, opt := r.Entry, func(got, want int) bool { return got == -1 || got == want }
			ok := e.Rules == want.Rules && e.Theory == want.Theory && opt(e.Distance, want.Distance) && opt(e.DTW, want.DTW) && opt(e.MTC, want.MTC)
			switch {
			case class.Carries() && p.HasCapture():
				ok = ok && e.Distance == want.Distance
			case class.Carries():
				ok = ok && e.Distance == want.Distance && e.DTW == -1 && e.MTC == -1
			case !p.HasCapture():
				ok = ok && e.Distance == -1 && e.DTW == -1 && e.MTC == -1
			}
			if !ok {
				t.Fatalf("%s (%v): %+v, want the values of %+v", p.FEN(), class, e, want)
			}
			if class != rules.Rule2 || p.HasCapture() || want.Distance < 0 {
				return
			}
			_, err = vals.Probe(p, probe.Clocks{Rule2: 10}, probe.ValuesOnly)
			if name := m.String() + table.DistanceExt + " is missing"; err == nil || !strings.Contains(err.Error(), name) {
				t.Fatalf("%s with a running count: %v, want an error naming %s", p.FEN(), err, name)
			}
			missing, quiet = missing+1, p
		})
	}
	if missing == 0 {
		t.Error("no position probed with a running count")
	}
	if _, err := vals.Probe(quiet, probe.Clocks{}, 0); err == nil || !strings.Contains(err.Error(), table.DistanceExt+" is missing") {
		t.Errorf("%s without ValuesOnly: %v, want an error naming the missing distance file", quiet.FEN(), err)
	}
}

// TestValuesAlone probes the positions of the rule-2 set in its slim
// directory written without distances (slim.Options.Distances false),
// without flags: every table's values are those of the full tables, read
// as with ValuesOnly (Result.ValuesAlone, no distances) where the
// directory holds a table's values alone, and with the distances where it
// holds them (class A and B). A running count and RootMoves, which need
// the distances, say that the directory lacks them.
func TestValuesAlone(t *testing.T) {
	full := open(t, rule2Dir(t))
	dir := filepath.Join(t.TempDir(), "slim")
	if err := slim.Write(context.Background(), rule2Dir(t), dir, slim.Options{}); err != nil {
		t.Fatal(err)
	}
	alone := open(t, dir)
	running, moves, aloneProbes := map[index.Material]int{}, 0, 0 // running: probes with a running count, by table
	const why = "holds the values of "
	for _, m := range full.Materials() {
		class := rules.ClassOf(m)
		eachPosition(m, testenv.Stride(3, 41), func(p draughts.Position) {
			want := mustProbe(t, full, p)
			r, err := alone.Probe(p, probe.Clocks{}, 0)
			if err != nil {
				t.Fatalf("%s: %v", p.FEN(), err)
			}
			e := r.Entry
			ok := e.Rules == want.Rules && e.Theory == want.Theory && r.ValuesAlone == !class.Carries()
			opt := func(got, want int) bool { return got == -1 || got == want }
			ok = ok && opt(e.Distance, want.Distance) && opt(e.DTW, want.DTW) && opt(e.MTC, want.MTC)
			if class.Carries() {
				ok = ok && e.Distance == want.Distance
			}
			if class == rules.Rule2 && !p.HasCapture() {
				ok = ok && e.Distance == -1
			}
			if !ok {
				t.Fatalf("%s (%v): %+v (values alone: %v), want the values of %+v", p.FEN(), class, e, r.ValuesAlone, want)
			}
			if r.ValuesAlone {
				aloneProbes++
			}
			if class == rules.Rule2 && !p.HasCapture() && want.Distance >= 0 && running[m] < 50 {
				if _, err := alone.Probe(p, probe.Clocks{Rule2: 10}, 0); err == nil || !strings.Contains(err.Error(), why) {
					t.Fatalf("%s with a running count: %v, want an error saying %q", p.FEN(), err, why)
				}
				running[m]++
			}
			quietRule2 := false // a move leads to a quiet position of a table held alone
			for _, mv := range p.Moves(nil) {
				q := p.Play(mv)
				quietRule2 = quietRule2 || rules.ClassOf(rules.MaterialOf(&q)) == rules.Rule2 && !q.HasCapture()
			}
			if quietRule2 && moves < 100 {
				if _, err := alone.RootMoves(p, probe.Clocks{}); err == nil || !strings.Contains(err.Error(), why) {
					t.Fatalf("RootMoves of %s: %v, want an error saying %q", p.FEN(), err, why)
				}
				moves++
			}
		})
	}
	searched := 0 // tables answered by a search probed with a running count
	for m := range running {
		if alone.Searched(m) {
			searched++
		}
	}
	if len(running) == 0 || searched == 0 || moves == 0 || aloneProbes == 0 {
		t.Errorf("%d probes of tables held alone, %d tables (%d searched) with a running count, %d of RootMoves", aloneProbes, len(running), searched, moves)
	}
}
