package main

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/pflag"

	"github.com/dtb-draughts/dtb/internal/plan"
	"github.com/dtb-draughts/dtb/retro"
)

func init() {
	register(&command{
		name: "plan", args: "", summary: "print the build as units for make, ninja, Slurm or as JSON",
		flags: func(fs *pflag.FlagSet) func(*env, []string) error {
			pieces := fs.IntP("pieces", "n", 4, "build every material of 2..N pieces")
			only := fs.String("only", "", "build only this material (e.g. KKMvK) and the tables it needs")
			out := fs.StringP("out", "o", "tables", "output directory of the jobs (made absolute)")
			dtw := fs.Bool("dtw", false, fmt.Sprintf("build the tables of more than %d pieces with the dtw column too", dtwPieces))
			mtc := fs.Bool("mtc", false, "build the tables with the mtc column")
			threads := fs.IntP("threads", "t", 1, "threads of each job")
			mem := fs.String("mem", "", "memory budget of the jobs run at once, e.g. 512MiB or 8GiB (default: half of this machine's physical memory)")
			jobs := fs.IntP("jobs", "j", 1, "jobs run at once (make -j, ninja -j): each gets --mem divided by them")
			format := fs.String("format", "json", "output format: "+strings.Join(plan.Formats, ", "))
			dtb := fs.String("dtb", "", "the dtb binary the jobs run (default: this one)")
			return func(e *env, args []string) error {
				if len(args) != 0 {
					return badInput("unexpected arguments %q", args)
				}
				if *threads < 1 || *jobs < 1 {
					return badInput("--threads and --jobs must be at least 1")
				}
				if !slices.Contains(plan.Formats, *format) {
					return badInput("--format %q: one of %s", *format, strings.Join(plan.Formats, ", "))
				}
				o := retro.Options{DTW: *dtw, DTWPieces: dtwPieces, MTC: *mtc}
				var err error
				if o.Mem, err = e.memBudget(*mem); err != nil {
					return usageError{err}
				}
				budget := budgetName(*mem, o.Mem)
				if o.Mem /= int64(*jobs); *jobs > 1 {
					budget += fmt.Sprintf(" over --jobs %d (%s a job)", *jobs, formatBytes(o.Mem))
				}
				if o.Mem < memFloor && !e.uncheckedMem {
					return badInput("%s: below the floor of %s", budget, formatBytes(memFloor))
				}
				if err := setTables(&o, *pieces, *only); err != nil {
					return err
				}
				if _, err := e.estimate(o, budget); err != nil {
					return err
				}
				units, err := retro.Units(o)
				if err != nil {
					return usageError{err}
				}
				b := plan.Build{Units: units, Dtb: *dtb, Threads: *threads, Jobs: *jobs, Mem: o.Mem, DTW: *dtw, MTC: *mtc}
				if b.Dir, err = filepath.Abs(*out); err != nil {
					return err
				}
				if b.Dtb == "" {
					if b.Dtb, err = os.Executable(); err != nil {
						b.Dtb = "dtb"
					}
				}
				if err := b.Write(e.stdout, *format); err != nil {
					return usageError{err}
				}
				return nil
			}
		},
	})
}
