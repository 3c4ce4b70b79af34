package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"runtime"
	"runtime/debug"
	"syscall"
	"time"

	"github.com/spf13/pflag"

	"github.com/dtb-draughts/dtb/index"
	"github.com/dtb-draughts/dtb/retro"
)

// A build estimated to take more time or memory than this gets a warning.
const (
	bigTime   = time.Hour
	bigMemory = 16 << 30
)

func init() {
	register(&command{
		name: "gen", args: "", summary: "build the endgame tables up to N pieces",
		flags: func(fs *pflag.FlagSet) func(*env, []string) error {
			pieces := fs.IntP("pieces", "n", 4, "build every material of 2..N pieces")
			out := fs.StringP("out", "o", "tables", "output directory")
			threads := fs.IntP("threads", "t", runtime.NumCPU(), "threads")
			dtw := fs.Bool("dtw", false, "also store the theoretical distance to the end of the game")
			only := fs.String("only", "", "build only this material (e.g. KKMvK) and the tables it needs")
			return func(e *env, args []string) error {
				if len(args) != 0 {
					return badInput("unexpected arguments %q", args)
				}
				o := retro.Options{Pieces: *pieces, Dir: *out, Threads: *threads, DTW: *dtw}
				if *only != "" {
					m, err := index.ParseMaterial(*only)
					if err != nil {
						return usageError{err}
					}
					if m.Pieces() > retro.MaxPieces {
						return badInput("--only %s: %d pieces, but tables of more than %d pieces cannot be built", m, m.Pieces(), retro.MaxPieces)
					}
					o.Only = &m
				} else if *pieces < 2 || *pieces > retro.MaxPieces {
					return badInput("--pieces %d out of range 2..%d", *pieces, retro.MaxPieces)
				}
				if *threads < 1 {
					return badInput("--threads must be at least 1")
				}
				est, err := retro.EstimateOf(o)
				if err != nil {
					return usageError{err}
				}
				if est.Time > bigTime || est.Memory > bigMemory {
					fmt.Fprintf(e.stderr, "dtb gen: warning: a big build: %d tables of %d positions, about %.1f GiB of memory and %s on %d threads (rates measured on 5 pieces)\n",
						est.Tables, est.Positions, float64(est.Memory)/(1<<30), est.Time.Round(time.Minute), o.Threads)
				}
				bar := newProgressBar(e)
				o.Progress = func(p retro.Progress) {
					bar.show(p.Tables, p.TablesTotal, p.Positions, p.PositionsTotal, p.Current)
				}
				o.Done = func(r retro.Report) {
					bar.clear()
					s := r.Stats
					how := "built"
					if !r.Built {
						how = "kept"
					}
					fmt.Fprintf(e.stdout, "%-8s %s %12d positions  theory %d/%d/%d  rules %d/%d/%d (win/draw/loss)  cursed %d  blessed %d  %s\n",
						r.Material, how, s.Positions, s.Theory[2], s.Theory[1], s.Theory[0],
						s.Rules[2], s.Rules[1], s.Rules[0], s.CursedWins, s.BlessedLosses, r.Elapsed.Round(time.Millisecond))
				}
				// The solved tables stay in memory while others need them:
				// collect garbage early rather than let the heap double.
				debug.SetGCPercent(25)
				ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
				defer stop()
				err = retro.Generate(ctx, o)
				bar.clear()
				if errors.Is(err, context.Canceled) {
					return errors.New("interrupted: the tables finished so far are kept; run the same command again to resume")
				}
				return err
			}
		},
	})
}
