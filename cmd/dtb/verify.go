package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"github.com/dtb-draughts/dtb/codec"
	"github.com/dtb-draughts/dtb/index"
	"github.com/dtb-draughts/dtb/probe"
	"github.com/dtb-draughts/dtb/retro"
	"github.com/dtb-draughts/dtb/rules"
	"github.com/dtb-draughts/dtb/verify"
)

func init() {
	register(&command{
		name: "verify", args: "", summary: "check the tables: files, checksums, and every value against its successors",
		flags: func(fs *pflag.FlagSet) func(*env, []string) error {
			fl := &verifyCmd{fs: fs}
			tablesFlag(fs, &fl.dir)
			fs.StringSliceVar(&fl.only, "only", nil, "check only these materials (e.g. KKMvK or KKMvK,KvKKM), reading the tables they need")
			fs.IntVarP(&fl.threads, "threads", "t", runtime.NumCPU(), "threads")
			fs.IntVar(&fl.examples, "examples", 10, "mismatching positions listed per table")
			fs.StringVar(&fl.list, "sums", "", "only compare the files with the SHA-256 sums of this list (of dtb sums or sha256sum), in seconds")
			fs.StringVar(&fl.mem, "mem", "", "memory for the tables read, e.g. 512MiB or 8GiB, at least 64MiB (default: half of the physical memory)")
			fs.StringVar(&fl.work, "work", "", "folder where a long check keeps its progress, to go on after an interruption (default: DIR/work/verify, DIR the first directory, if writable)")
			return fl.run
		},
	})
}

// printReport prints a table's report: one line, then its errors and
// first mismatches indented.
func printReport(w io.Writer, r verify.Report) {
	name := r.Material.String()
	if r.Material == (index.Material{}) { // a file the manifest does not list
		name = filepath.Base(r.File)
	}
	fmt.Fprintf(w, "%-8s %-9s %12d positions %12d checked %8d mismatches  %s\n",
		name, status(r), r.Positions, r.Checked, r.Mismatches, r.Elapsed.Round(time.Millisecond))
	for _, err := range r.Errors {
		fmt.Fprintf(w, "  %v\n", err)
	}
	if r.Note != "" {
		fmt.Fprintf(w, "  %s\n", r.Note)
	}
	if r.Resumed > 0 {
		fmt.Fprintf(w, "  %d of the positions checked by an earlier run, whose progress was kept\n", r.Resumed)
	}
	for _, m := range r.Examples {
		fmt.Fprintf(w, "  %s  stored: %s  from the successors: %s\n", m.Position.FEN(), describe(m.Stored, rules.NoClass, m.Position.Side, m.Position.Side), describe(m.Recomputed, rules.NoClass, m.Position.Side, m.Position.Side))
	}
}

// status returns the status of a table's report: ok, DAMAGED (the file),
// UNCHECKED (its values, for the damage of tables they read), ERROR
// (other errors) or MISMATCH.
func status(r verify.Report) string {
	switch {
	case slices.Contains(damaged(r), r.File):
		return "DAMAGED"
	case len(r.Errors) > 0 && !slices.ContainsFunc(r.Errors, func(err error) bool { return !errors.As(err, new(*verify.SourceError)) }):
		return "UNCHECKED"
	case len(r.Errors) > 0:
		return "ERROR"
	case r.Mismatches > 0:
		return "MISMATCH"
	}
	return "ok"
}

// damaged returns the damaged files that r's errors name.
func damaged(r verify.Report) []string {
	var paths []string
	for _, err := range r.Errors {
		var fe *codec.FileError
		if errors.As(err, &fe) && !slices.Contains(paths, fe.Path) {
			paths = append(paths, fe.Path)
		}
	}
	return paths
}

// summarize prints the totals and returns an error if any table failed:
// how many and why, and the command that rebuilds the damaged files.
func summarize(w io.Writer, reports []verify.Report, elapsed time.Duration) error {
	var positions, checked, mismatches int64
	failed := map[string]int{}
	var paths, names []string
	for _, r := range reports {
		positions += r.Positions
		checked += r.Checked
		mismatches += r.Mismatches
		failed[status(r)]++
		for _, p := range damaged(r) {
			if !slices.Contains(paths, p) {
				paths, names = append(paths, p), append(names, filepath.Base(p))
			}
		}
	}
	fmt.Fprintf(w, "\n%d tables, %d positions, %d stored positions checked, %d mismatches, %s\n",
		len(reports), positions, checked, mismatches, elapsed.Round(time.Millisecond))
	if failed["ok"] == len(reports) {
		return nil
	}
	var why []string
	for _, c := range []struct{ status, what string }{
		{"DAMAGED", "damaged"},
		{"UNCHECKED", "not checked as they read a damaged table"},
		{"ERROR", "with errors"},
		{"MISMATCH", "with mismatching positions"},
	} {
		if n := failed[c.status]; n > 0 {
			why = append(why, fmt.Sprintf("%d %s", n, c.what))
		}
	}
	msg := fmt.Sprintf("%d of %d tables failed (%s); see above", len(reports)-failed["ok"], len(reports), strings.Join(why, ", "))
	if len(paths) > 0 {
		msg += fmt.Sprintf("; rebuild the damaged %s with: %s", strings.Join(names, ", "), rebuild(paths))
	}
	return errors.New(msg)
}

// writable reports whether files can be created in dir.
func writable(dir string) bool {
	f, err := os.CreateTemp(dir, ".dtb-writable-*")
	if err != nil {
		return false
	}
	f.Close()
	os.Remove(f.Name())
	return true
}

// verifyCmd holds the flags of one run of dtb verify.
type verifyCmd struct {
	fs       *pflag.FlagSet
	dir      string
	only     []string
	threads  int
	examples int
	list     string
	mem      string
	work     string
}

func (fl *verifyCmd) run(e *env, args []string) error {
	if fl.list != "" {
		if fl.fs.Changed("only") || fl.fs.Changed("examples") {
			return badInput("--sums excludes --only and --examples")
		}
		if dirs := probe.SplitPath(fl.dir); len(dirs) != 1 {
			return badInput("--sums reads one directory, not a list: --dir %s", fl.dir)
		}
		return checkSums(e.stdout, probe.SplitPath(fl.dir)[0], fl.list)
	}
	if fl.threads < 1 || fl.examples < 1 {
		return badInput("--threads and --examples must be at least 1")
	}
	memory, err := e.memBudget(fl.mem)
	if err != nil {
		return usageError{err}
	}
	// Collect garbage early rather than let the heap double
	// over the tables read, and harder near the budget.
	debug.SetGCPercent(25)
	debug.SetMemoryLimit(memory)
	o := verify.Options{Threads: fl.threads, Examples: fl.examples, Memory: memory, Work: fl.work}
	if first := probe.SplitPath(fl.dir); !fl.fs.Changed("work") && len(first) > 0 && writable(first[0]) {
		o.Work = filepath.Join(first[0], retro.WorkDir, "verify")
		defer os.Remove(filepath.Dir(o.Work)) // if Verify emptied it
	}
	for _, s := range fl.only {
		m, err := index.ParseMaterial(s)
		if err != nil {
			return usageError{err}
		}
		o.Only = append(o.Only, m)
	}
	bar := newProgressBar(e)
	o.Progress = func(p verify.Progress) {
		bar.show(p.Tables, p.TablesTotal, p.Positions, p.PositionsTotal, p.Current)
	}
	o.Done = func(r verify.Report) {
		bar.clear()
		printReport(e.stdout, r)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	start := time.Now()
	reports, err := verify.Verify(ctx, fl.dir, o)
	bar.clear()
	if errors.Is(err, context.Canceled) && o.Work != "" {
		return interrupted(fmt.Sprintf(": the progress is kept in %s; run the same command again to go on", o.Work))
	}
	if err != nil {
		return err
	}
	return summarize(e.stdout, reports, time.Since(start))
}
