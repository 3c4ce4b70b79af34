package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"os/signal"
	"path/filepath"
	"regexp"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/pflag"

	"github.com/dtb-draughts/dtb/index"
	"github.com/dtb-draughts/dtb/retro"
	"github.com/dtb-draughts/dtb/table"
)

// A build estimated to take more time or memory than this gets a warning.
const (
	bigTime   = time.Hour
	bigMemory = 16 << 30
	// dtwPieces is the most pieces of the tables that store the dtw
	// without --dtw: a player reads a distance in every won or lost
	// position of the default build, for little time and room.
	dtwPieces = 4
)

func init() {
	register(&command{
		name: "gen", args: "", summary: "build the endgame tables up to N pieces",
		flags: func(fs *pflag.FlagSet) func(*env, []string) error {
			fl := &genCmd{fs: fs}
			fs.IntVarP(&fl.pieces, "pieces", "n", 4, "build every material of 2..N pieces")
			dirFlag(fs, &fl.out, "out", "o", writeOne, "output directory")
			fs.IntVarP(&fl.threads, "threads", "t", runtime.NumCPU(), "threads")
			fs.BoolVar(&fl.dtw, "dtw", false, fmt.Sprintf("also store the theoretical distance to the end of the game (dtw) in the tables of more than %d pieces; those of at most %d always have it", dtwPieces, dtwPieces))
			fs.BoolVar(&fl.mtc, "mtc", false, "also store the moves to conversion (plies to the next man move or capture)")
			fs.StringVar(&fl.only, "only", "", "build only this material (e.g. KKMvK) and the tables it needs")
			fs.StringVar(&fl.unit, "unit", "", "build only this unit of dtb plan, from the tables of its deps in --out")
			fs.BoolVar(&fl.manifest, "manifest", false, "only write the manifest of --out, listing its valid tables (after the units)")
			fs.StringVar(&fl.mem, "mem", "", "memory budget of the solver, e.g. 512MiB or 8GiB, at least 64MiB (default: half of the physical memory)")
			fs.IntVar(&fl.split, "split", 0, "cut each level of a group with men into at least N solver units where it has that many men configurations; --mem may cut finer (dtb plan gives every job of a group the same N)")
			fs.BoolVar(&fl.keepWork, "keep-work", false, "keep the finished units in DIR/work after the tables are written")
			return fl.run
		},
	})
}

// build runs f (Generate or BuildUnit) on o, interruptibly, with the
// progress bar, a line for each table and the closing summary.
func build(e *env, o retro.Options, f func(context.Context, retro.Options) error) error {
	bar := newProgressBar(e)
	o.Progress = bar.retroProgress
	sum := genSummary{start: time.Now()}
	o.Done = genReport(e, bar, &sum, o.Dir)
	err := interruptible(func(ctx context.Context) error { return f(ctx, o) })
	bar.clear()
	return sum.end(e, err)
}

// genReport returns the Done function of gen: one line per table, added
// up in sum; the tables are written to dir.
func genReport(e *env, bar *progressBar, sum *genSummary, dir string) func(retro.Report) {
	return func(r retro.Report) {
		bar.clear()
		s := r.Stats
		sum.tables++
		sum.positions += s.Positions
		path := filepath.Join(dir, table.FileName(r.Material))
		for _, p := range []string{path, table.DistancePath(path)} {
			if st, err := os.Stat(p); r.Built && err == nil {
				sum.written += st.Size()
			}
		}
		how := "built"
		if !r.Built {
			how = "kept"
		}
		fmt.Fprintf(e.stdout, "%-8s %s %12d positions  theory %d/%d/%d  rules %d/%d/%d (win/draw/loss)  cursed %d  blessed %d  %s\n",
			r.Material, how, s.Positions, s.Theory.Win, s.Theory.Draw, s.Theory.Loss,
			s.Rules.Win, s.Rules.Draw, s.Rules.Loss, s.CursedWins, s.BlessedLosses, r.Elapsed.Round(time.Millisecond))
	}
}

// genSummary adds up the tables of a gen for its closing line.
type genSummary struct {
	start     time.Time
	tables    int
	positions int64
	written   int64 // bytes of the table files written
}

// end prints the closing line of a gen that returns err: the tables,
// positions, time, peak memory and bytes written, unless err is set.
func (s *genSummary) end(e *env, err error) error {
	if err != nil {
		return err
	}
	peak := ""
	if n, ok := peakMemory(); ok {
		peak = ", peak " + formatBytes(n)
	}
	fmt.Fprintf(e.stderr, "dtb gen: %d tables, %s positions in %s%s, %s written\n", s.tables, count(s.positions),
		time.Since(s.start).Round(100*time.Millisecond), peak, formatBytes(s.written))
	return nil
}

// interruptible runs f with a context cancelled by SIGINT or SIGTERM, and
// says how to resume if it is, or returns the first cause of its failure.
func interruptible(f func(ctx context.Context) error) error {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	err := f(ctx)
	if errors.Is(err, context.Canceled) {
		return interrupted(": the tables finished so far are kept; run the same command again to resume")
	}
	return firstCause(err)
}

// firstCause returns the first of the errors joined in err (a failed
// build, then the failed manifest it leaves): the others follow from it.
// A failed file operation is told as the file, without its temporary
// suffix, and what the system said.
func firstCause(err error) error {
	for {
		j, ok := err.(interface{ Unwrap() []error })
		if !ok {
			break
		}
		err = j.Unwrap()[0]
	}
	var pe *fs.PathError
	var errno syscall.Errno
	if errors.As(err, &pe) && errors.As(pe.Err, &errno) {
		return fmt.Errorf("%s: %v", tempSuffix.ReplaceAllString(pe.Path, ""), errno)
	}
	return err
}

// tempSuffix is the suffix of a temporary file next to the file it
// becomes.
var tempSuffix = regexp.MustCompile(`\.[0-9]+\.tmp$`)

// setTables sets the tables o builds from the flags --pieces and --only,
// or returns a usage error.
func setTables(o *retro.Options, pieces int, only string) error {
	if only == "" {
		if pieces < 2 || pieces > retro.MaxPieces {
			return badInput("--pieces %d out of range 2..%d", pieces, retro.MaxPieces)
		}
		o.Pieces = pieces
		return nil
	}
	m, err := index.ParseMaterial(only)
	if err != nil {
		return usageError{err}
	}
	if m.Pieces() > retro.MaxPieces {
		return badInput("--only %s: %d pieces, but tables of more than %d pieces cannot be built", m, m.Pieces(), retro.MaxPieces)
	}
	o.Only = &m
	return nil
}

// estimate returns the estimate of the build o, or a usage error if a
// group does not fit in the budget o.Mem, which the error calls budget,
// even in its smallest units, by more than a quarter of it; within a
// quarter it warns on stderr.
func (e *env) estimate(o retro.Options, budget string) (retro.Estimate, error) {
	est, err := retro.EstimateOf(o)
	switch {
	case err != nil:
		return est, usageError{err}
	case est.Least <= o.Mem || e.uncheckedMem:
		return est, nil
	}
	why := "its smallest unit, one placement of the men with every placement of the kings, beside the blocks it reads of the level above"
	if est.Largest.Men() == 0 {
		why = "one unit: a group of kings only cannot be split"
	}
	msg := fmt.Sprintf("%s: %s needs about %s (%s)", budget, retro.UnitID(est.Largest), formatBytes(est.Least), why)
	if est.Least > o.Mem+o.Mem/4 {
		return est, badInput("%s", msg)
	}
	// Within a quarter over: such a unit takes the store's share too (see
	// retro's outline), and the estimate is an upper bound.
	fmt.Fprintf(e.stderr, "dtb %s: warning: %s; the build may go over the budget\n", e.command, msg)
	return est, nil
}

// budgetName names the budget n from --mem mem in an error.
func budgetName(mem string, n int64) string {
	if mem == "" {
		return "the memory budget, half of the physical memory (" + formatBytes(n) + ")"
	}
	return "--mem " + mem
}

// memFloor is the smallest --mem taken, unless env.uncheckedMem.
const memFloor = 64 << 20

// memBudget parses a --mem value: a number of bytes with an optional unit
// (KiB, MiB, GiB, TiB or K, M, G, T, all powers of 1024), at least
// memFloor. The empty string means half of the physical memory.
func (e *env) memBudget(s string) (int64, error) {
	if s == "" {
		return physicalMemory() / 2, nil
	}
	num := strings.TrimRight(s, "KMGTiBb")
	n, err := strconv.ParseFloat(num, 64)
	if err != nil || !(n > 0) || math.IsInf(n, 0) {
		return 0, fmt.Errorf("--mem %s: want a size such as 512MiB or 8GiB", s)
	}
	switch strings.TrimSuffix(strings.TrimSuffix(s[len(num):], "B"), "i") {
	case "":
	case "K":
		n *= 1 << 10
	case "M":
		n *= 1 << 20
	case "G":
		n *= 1 << 30
	case "T":
		n *= 1 << 40
	default:
		return 0, fmt.Errorf("--mem %s: unknown unit", s)
	}
	switch {
	case n >= 1<<63:
		return 0, fmt.Errorf("--mem %s: more than 8 EiB", s)
	case n < 1:
		return 0, fmt.Errorf("--mem %s: less than a byte", s)
	case n < memFloor && !e.uncheckedMem:
		return 0, fmt.Errorf("--mem %s: below the floor of %s", s, formatBytes(memFloor))
	}
	return int64(n), nil
}

// physicalMemory returns the machine's memory in bytes, from
// /proc/meminfo, or 4 GiB where that cannot be read.
func physicalMemory() int64 {
	b, err := os.ReadFile("/proc/meminfo")
	for _, line := range strings.Split(string(b), "\n") {
		if f := strings.Fields(line); err == nil && len(f) >= 2 && f[0] == "MemTotal:" {
			if kb, err := strconv.ParseInt(f[1], 10, 64); err == nil {
				return kb << 10
			}
		}
	}
	return 4 << 30
}

// formatBytes writes n in GiB, MiB or KiB.
func formatBytes(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GiB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.0f MiB", float64(n)/(1<<20))
	}
	return fmt.Sprintf("%.0f KiB", float64(n)/(1<<10))
}

// genCmd holds the flags of one run of dtb gen.
type genCmd struct {
	fs       *pflag.FlagSet
	pieces   int
	out      string
	threads  int
	dtw      bool
	mtc      bool
	only     string
	unit     string
	manifest bool
	mem      string
	keepWork bool
	split    int
}

func (fl *genCmd) run(e *env, args []string) error {
	if fl.threads < 1 || fl.split < 0 {
		return badInput("--threads must be at least 1, --split at least 0")
	}
	o := retro.Options{Pieces: fl.pieces, Dir: fl.out, Threads: fl.threads, DTW: fl.dtw, DTWPieces: dtwPieces, MTC: fl.mtc, KeepWork: fl.keepWork, Split: fl.split}
	var err error
	if o.Mem, err = e.memBudget(fl.mem); err != nil {
		return usageError{err}
	}
	// The solved tables stay in memory while others need them:
	// collect garbage early rather than let the heap double,
	// and harder as the heap nears the budget.
	debug.SetGCPercent(25)
	debug.SetMemoryLimit(o.Mem)
	if fl.unit != "" || fl.manifest {
		if fl.only != "" || fl.fs.Changed("pieces") || fl.unit != "" && fl.manifest {
			return badInput("--unit and --manifest exclude each other, --pieces and --only")
		}
		if fl.manifest {
			if _, err := os.Stat(fl.out); errors.Is(err, os.ErrNotExist) {
				return fmt.Errorf("tables directory %s does not exist (build it with dtb gen --out %s)", fl.out, fl.out)
			}
			return firstCause(retro.WriteManifest(fl.out))
		}
		if _, err := retro.ParseUnit(fl.unit); err != nil {
			return usageError{err}
		}
		return build(e, o, func(ctx context.Context, o retro.Options) error { return retro.BuildUnit(ctx, fl.unit, o) })
	}
	if err := setTables(&o, fl.pieces, fl.only); err != nil {
		return err
	}
	est, err := e.estimate(o, budgetName(fl.mem, o.Mem))
	if err != nil {
		return err
	}
	if est.Time > bigTime || est.Memory > bigMemory {
		fmt.Fprintf(e.stderr, "dtb gen: warning: a big build: %d tables of %d positions, about %.1f GiB of memory and %s on %d threads (estimates from the rates measured on 5 to 7 pieces; the speed-up with threads is not measured)\n",
			est.Tables, est.Positions, float64(est.Memory)/(1<<30), est.Time.Round(time.Minute), o.Threads)
	}
	fmt.Fprintf(e.stdout, "memory budget %s\n", formatBytes(o.Mem))
	if err := build(e, o, retro.Generate); err != nil {
		return err
	}
	if list := publishedList(o); list != "" {
		fmt.Fprintf(e.stderr, "dtb gen: the SHA-256 of this build are published in dtb's repository: check it with dtb verify --dir %s --sums %s\n", o.Dir, list)
	}
	return nil
}
