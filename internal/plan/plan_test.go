package plan_test

import (
	"strings"
	"testing"

	"github.com/dtb-draughts/dtb/internal/plan"
	"github.com/dtb-draughts/dtb/retro"
)

// TestJob checks the memory and time of a unit's Slurm job: the margin,
// the budget's cap, the floor of the time and its scaling with threads.
func TestJob(t *testing.T) {
	const mib = 1 << 20
	for _, c := range []struct {
		mem, positions int64
		budget         int64
		threads        int
		wantMiB        int64
		wantMinutes    int64
	}{
		{mem: 4160, positions: 2450, threads: 1, wantMiB: 129, wantMinutes: plan.TimeFloor},
		{mem: 800 * mib, positions: 1e9, threads: 1, wantMiB: 1128, wantMinutes: 100},
		{mem: 800 * mib, positions: 1e9, threads: 4, wantMiB: 1128, wantMinutes: 25},
		{mem: 800 * mib, positions: 1e9, budget: 1024 * mib, threads: 4, wantMiB: 1024, wantMinutes: 25},
		{mem: 2000 * mib, positions: 1e9, budget: 1024 * mib, threads: 4, wantMiB: 2000, wantMinutes: 25},
	} {
		b := plan.Build{Threads: c.threads, Mem: c.budget}
		m, minutes := b.Job(retro.Unit{Memory: c.mem, Positions: c.positions})
		if m != c.wantMiB || minutes != c.wantMinutes {
			t.Errorf("Job of %d bytes, %d positions, budget %d, %d threads: %d MiB, %d minutes; want %d, %d",
				c.mem, c.positions, c.budget, c.threads, m, minutes, c.wantMiB, c.wantMinutes)
		}
	}
}

// TestSlurmPaths checks that the Slurm script refuses a path that would
// need quoting.
func TestSlurmPaths(t *testing.T) {
	units, err := retro.Units(retro.Options{Pieces: 2})
	if err != nil {
		t.Fatal(err)
	}
	b := plan.Build{Units: units, Dtb: "/opt/dtb", Dir: "/my tables", Threads: 1}
	var s strings.Builder
	if err := b.Write(&s, "slurm"); err == nil || s.Len() != 0 {
		t.Errorf("Write to /my tables: %v, %d bytes", err, s.Len())
	}
}
