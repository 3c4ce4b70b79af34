package main

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/pflag"

	"github.com/dtb-draughts/dtb/cmd/dtb/internal/plan"
	"github.com/dtb-draughts/dtb/retro"
)

func init() {
	register(&command{
		name: "plan", args: "", summary: "print the build as units for make, ninja, Slurm or as JSON",
		flags: func(fs *pflag.FlagSet) func(*env, []string) error {
			fl := &planCmd{}
			fs.IntVarP(&fl.pieces, "pieces", "n", 4, "build every material of 2..N pieces")
			fs.StringVar(&fl.only, "only", "", "build only this material (e.g. KKMvK) and the tables it needs")
			dirFlag(fs, &fl.out, "out", "o", writeOne, "output directory of the jobs (made absolute)")
			fs.BoolVar(&fl.dtw, "dtw", false, fmt.Sprintf("build the tables of more than %d pieces with the dtw column too", dtwPieces))
			fs.BoolVar(&fl.mtc, "mtc", false, "build the tables with the mtc column")
			fs.IntVarP(&fl.threads, "threads", "t", 1, "threads of each job")
			fs.StringVar(&fl.mem, "mem", "", "memory budget of the jobs run at once, e.g. 512MiB or 8GiB (default: half of this machine's physical memory)")
			fs.IntVarP(&fl.jobs, "jobs", "j", 1, "jobs run at once (make -j, ninja -j): each gets --mem divided by them")
			fs.StringVar(&fl.format, "format", "json", "output format: "+strings.Join(plan.Formats, ", "))
			fs.IntVar(&fl.nodes, "nodes", 0, "cut each level of men into a part for each N-th of the largest level it holds, at most N: jobs of their own (dtb gen --unit GROUP.lLEVEL.IofP), whatever --mem; the jobs of their groups get --split N; with --format json, also simulate the schedule on N nodes of --threads cores, one job a node")
			fs.StringVar(&fl.dtb, "dtb", "", "the dtb binary the jobs run (default: this one)")
			fs.BoolVar(&fl.verify, "verify", false, "with --format slurm, add a dtb verify --only job a unit, after the manifest's")
			return fl.run
		},
	})
}

// planCmd holds the flags of one run of dtb plan.
type planCmd struct {
	pieces  int
	only    string
	out     string
	dtw     bool
	mtc     bool
	threads int
	mem     string
	jobs    int
	format  string
	dtb     string
	nodes   int
	verify  bool
}

func (fl *planCmd) run(e *env, args []string) error {
	if fl.threads < 1 || fl.jobs < 1 || fl.nodes < 0 {
		return badInput("--threads and --jobs must be at least 1, --nodes at least 0")
	}
	if !slices.Contains(plan.Formats, fl.format) {
		return badInput("--format %q: one of %s", fl.format, strings.Join(plan.Formats, ", "))
	}
	if fl.verify && fl.format != "slurm" {
		return badInput("--verify: only with --format slurm, not %s", fl.format)
	}
	o := retro.Options{DTW: fl.dtw, DTWPieces: dtwPieces, MTC: fl.mtc}
	var err error
	if o.Mem, err = e.memBudget(fl.mem); err != nil {
		return usageError{err}
	}
	budget := budgetName(fl.mem, o.Mem)
	if o.Mem /= int64(fl.jobs); fl.jobs > 1 {
		budget += fmt.Sprintf(" over --jobs %d (%s a job)", fl.jobs, formatBytes(o.Mem))
	}
	if o.Mem < memFloor && !e.uncheckedMem {
		return badInput("%s: below the floor of %s", budget, formatBytes(memFloor))
	}
	if err := setTables(&o, fl.pieces, fl.only); err != nil {
		return err
	}
	if _, err := e.estimate(o, budget); err != nil {
		return err
	}
	units, err := retro.Parts(o, fl.nodes)
	if err != nil {
		return usageError{err}
	}
	b := plan.Build{Units: units, Dtb: fl.dtb, Threads: fl.threads, Jobs: fl.jobs, Nodes: fl.nodes, Verify: fl.verify, Mem: o.Mem, DTW: fl.dtw, MTC: fl.mtc}
	if b.Dir, err = filepath.Abs(fl.out); err != nil {
		return err
	}
	if b.Dtb == "" {
		if b.Dtb, err = os.Executable(); err != nil {
			b.Dtb = "dtb"
		}
	}
	if err := b.Write(e.stdout, fl.format); err != nil {
		return usageError{err}
	}
	return nil
}
