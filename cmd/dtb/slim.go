package main

import (
	"context"
	"fmt"

	"github.com/spf13/pflag"

	"github.com/dtb-draughts/dtb/internal/slim"
)

func init() {
	register(&command{
		name: "slim", args: "", summary: "write the tables an engine's search reads: value files, one or both sides to move per colour pair",
		flags: func(fs *pflag.FlagSet) func(*env, []string) error {
			fl := &slimCmd{}
			dirFlag(fs, &fl.dir, "dir", "d", readOne, "table directory that dtb gen built")
			fs.StringVarP(&fl.out, "out", "o", "", "directory to write the slim tables to (required)")
			fs.SetAnnotation("out", dirKey, []string{writeOne})
			fs.BoolVar(&fl.dist, "distances", true, "write the distance files of the tables kept (running clocks, dtw, mtc, lists of moves), short rule-2 distances left to a search; --distances=false: the value files alone, for an engine's search")
			fs.StringVar(&fl.threats, "threats", "auto", fmt.Sprintf("forced threats in the value files: auto (left to a search where that saves %.0f%% of a file), keep, drop", 100*slim.ThreatSaving))
			fs.StringVar(&fl.sides, "sides", "auto", fmt.Sprintf("tables of a colour pair kept: one (the other answered by a search through it), both, auto (both where that search costs %g probes a position or more)", slim.SearchCost))
			return fl.run
		},
	})
}

// slimCmd holds the flags of one run of dtb slim.
type slimCmd struct {
	dir     string
	out     string
	dist    bool
	threats string
	sides   string
}

func (fl *slimCmd) run(e *env, args []string) error {
	policy, ok := map[string]slim.Threats{"auto": slim.ThreatsWherePaying, "keep": slim.ThreatsKept, "drop": slim.ThreatsLeftOut}[fl.threats]
	if !ok {
		return badInput("--threats %q: want auto, keep or drop", fl.threats)
	}
	sides, ok := map[string]slim.Sides{"one": slim.SidesOne, "both": slim.SidesBoth, "auto": slim.SidesWhereDear}[fl.sides]
	if !ok {
		return badInput("--sides %q: want one, both or auto", fl.sides)
	}
	if fl.out == "" {
		return badInput("--out is required: the directory for the slim tables, e.g. dtb slim --dir %s --out engine", fl.dir)
	}
	var kept, searched int
	var bytes int64
	err := interruptible(func(ctx context.Context) error {
		return slim.Write(ctx, fl.dir, fl.out, slim.Options{Distances: fl.dist, Threats: policy, Sides: sides, Done: func(t slim.Table) {
			if t.Bytes == 0 {
				searched++
				cost := ""
				if t.Cost > 0 {
					cost = fmt.Sprintf(", %.1f probes a position", t.Cost)
				}
				fmt.Fprintf(e.stdout, "%-8s searched through %s%s\n", t.Material, t.SearchedIn, cost)
				return
			}
			kept++
			bytes += t.Bytes
			notes := ""
			if t.Marked {
				notes += ", marked"
			}
			if t.Threats {
				notes += ", forced threats searched"
			}
			if t.Cost > 0 {
				notes += fmt.Sprintf(", kept beside %s: a search through it costs %.1f probes a position", t.Material.Flip(), t.Cost)
			}
			fmt.Fprintf(e.stdout, "%-8s %d bytes%s\n", t.Material, t.Bytes, notes)
		}})
	})
	if err != nil {
		return err
	}
	fmt.Fprintf(e.stderr, "dtb slim: %d tables in %d bytes, %d more answered by search, in %s\n", kept, bytes, searched, fl.out)
	return nil
}
