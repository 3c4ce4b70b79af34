package plan_test

import (
	"strings"
	"testing"

	"github.com/dtb-draughts/dtb/cmd/dtb/internal/plan"
	"github.com/dtb-draughts/dtb/index"
	"github.com/dtb-draughts/dtb/retro"
)

// TestJob checks the memory and time of a unit's Slurm job: the margin,
// the budget's cap, the floor of the time and its scaling with threads,
// for a unit of a 6-piece group with men.
func TestJob(t *testing.T) {
	const mib = 1 << 20
	group := index.Material{WhiteKings: 2, WhiteMen: 1, BlackKings: 2, BlackMen: 1}
	kilo := int64(1000 * retro.Rate(group)) // positions of 1,000 CPU-seconds
	for _, c := range []struct {
		mem, positions int64
		budget         int64
		threads        int
		wantMiB        int64
		wantMinutes    int64
	}{
		{mem: 4160, positions: 2450, threads: 1, wantMiB: 129, wantMinutes: plan.TimeFloor},
		{mem: 800 * mib, positions: kilo, threads: 1, wantMiB: 1128, wantMinutes: 100},
		{mem: 800 * mib, positions: kilo, threads: 4, wantMiB: 1128, wantMinutes: 25},
		{mem: 800 * mib, positions: kilo, budget: 1024 * mib, threads: 4, wantMiB: 1024, wantMinutes: 25},
		{mem: 2000 * mib, positions: kilo, budget: 1024 * mib, threads: 4, wantMiB: 2000, wantMinutes: 25},
	} {
		b := plan.Build{Threads: c.threads, Mem: c.budget}
		m, minutes := b.Job(retro.Unit{ID: retro.UnitID(group), Memory: c.mem, Positions: c.positions})
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

// TestVerify checks the verify jobs: a job a unit in the Slurm script,
// after the manifest's, checking the unit's materials with its job's
// memory, and no verify jobs in the other formats.
func TestVerify(t *testing.T) {
	units, err := retro.Units(retro.Options{Pieces: 3})
	if err != nil {
		t.Fatal(err)
	}
	b := plan.Build{Units: units, Dtb: "/opt/dtb", Dir: "/t", Threads: 2, Mem: 32 << 20, Verify: true}
	var s strings.Builder
	if err := b.Write(&s, "slurm"); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(s.String(), "--job-name=dtb-verify-"); n != len(units) {
		t.Errorf("%d verify jobs, want %d", n, len(units))
	}
	for _, want := range []string{
		"\nif [[ -z ${job[KvMM]}${job[KvM]}${job[KMvK]} ]] && verified KvMM KvMM.dtb MMvK.dtb KvM.dtb MvK.dtb KMvK.dtb KvKM.dtb; then\n",
		"--job-name=dtb-verify-KvMM --mem=64M --cpus-per-task=2 --time=10 $(after \"$manifest\")",
		"\n/opt/dtb verify --dir /t --only KvMM,MMvK --threads 2 --mem 64MiB --work /t/work/verify/KvMM\nmkdir -p /t/work/verified\ntouch /t/work/verified/KvMM\n",
	} {
		if !strings.Contains(s.String(), want) {
			t.Errorf("the Slurm script with verify jobs lacks %q", want)
		}
	}
	for _, format := range []string{"json", "make", "ninja"} {
		s.Reset()
		if err := b.Write(&s, format); err == nil || s.Len() != 0 {
			t.Errorf("Write %s with Verify: %v, %d bytes; want an error", format, err, s.Len())
		}
	}
}
