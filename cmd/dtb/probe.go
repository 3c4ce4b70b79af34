package main

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/spf13/pflag"

	"github.com/dtb-draughts/dtb/draughts"
	"github.com/dtb-draughts/dtb/probe"
	"github.com/dtb-draughts/dtb/table"
)

func init() {
	register(&command{
		name: "probe", args: "FEN...", summary: "look positions up in the tables",
		flags: func(fs *pflag.FlagSet) func(*env, []string) error {
			dir := fs.StringP("dir", "d", "tables", "table directory")
			asJSON := fs.Bool("json", false, `one JSON object per position: {"fen":"W:WK10:BK5","rules":"win","theory":"win","distance":3,"dtw":3}`)
			return func(e *env, args []string) error {
				if len(args) == 0 {
					return badInput("expected one or more FEN arguments")
				}
				positions := make([]draughts.Position, len(args))
				for i, a := range args {
					p, err := parseFEN(a)
					if err != nil {
						return err
					}
					if p.Pieces(p.Side) != 0 && p.Pieces(p.Side.Opponent()) == 0 {
						return badInput("%s: %v has no pieces: the game is over", p.FEN(), p.Side.Opponent())
					}
					positions[i] = p
				}
				t, err := probe.Open(*dir, probe.Options{})
				if err != nil {
					return err
				}
				defer t.Close()
				enc := json.NewEncoder(e.stdout)
				failed := 0
				for _, p := range positions {
					r, err := t.Probe(p)
					if err != nil {
						fmt.Fprintf(e.stderr, "dtb probe: %s\n", probeError(p, *dir, err))
						failed++
						continue
					}
					if *asJSON {
						err = enc.Encode(fenEntry{p.FEN(), r})
					} else {
						_, err = fmt.Fprintf(e.stdout, "%s  %s\n", p.FEN(), describe(r))
					}
					if err != nil {
						return err
					}
				}
				if failed > 0 {
					return errReported
				}
				return nil
			}
		},
	})
}

// probeError says why the position p could not be probed in dir: for a
// missing table, which one and how to build it.
func probeError(p draughts.Position, dir string, err error) string {
	var missing *probe.MissingError
	if !errors.As(err, &missing) {
		return fmt.Sprintf("%s: %v", p.FEN(), err)
	}
	own := table.MaterialOf(&p)
	why := fmt.Sprintf("its table %s is not in %s", own, dir)
	if missing.Material != own {
		why = fmt.Sprintf("its captures lead to %s, which has no table in %s", missing.Material, dir)
	}
	return fmt.Sprintf("%s: %s (build it with: dtb gen --only %s --out %s)", p.FEN(), why, own, dir)
}

// fenEntry is a position and its table entry, in JSON one object with the
// entry's keys as table.Entry writes them after the FEN:
// {"fen":"W:WK10:BK5","rules":"win","theory":"win","distance":3,"dtw":3}.
type fenEntry struct {
	FEN   string
	Entry table.Entry
}

func (f fenEntry) MarshalJSON() ([]byte, error) {
	fen, err := json.Marshal(f.FEN)
	if err != nil {
		return nil, err
	}
	e, err := json.Marshal(f.Entry) // {"rules":…}
	if err != nil {
		return nil, err
	}
	return fmt.Appendf(nil, `{"fen":%s,%s`, fen, e[1:]), nil
}

// describe returns the values and distances of a probe result in words.
func describe(r table.Entry) string {
	return fmt.Sprintf("rules %v  theoretical %v%s%s", r.Rules, r.Theory, field("distance", r.Distance), field("dtw", r.DTW))
}

// field returns "  name n", or "" for a missing (negative) distance.
func field(name string, n int) string {
	if n < 0 {
		return ""
	}
	return fmt.Sprintf("  %s %d", name, n)
}
