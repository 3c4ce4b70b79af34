package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"

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
			moves := fs.Bool("moves", false, `also every legal move, best first, with the values and distances for the mover (in JSON "moves":[{"move":"10-46","rules":"win",…},…])`)
			clock := fs.Int("class-clock", probe.FullClock, "plies left on the class clock (16-move and 5-move rules) of class A and B positions; negative: full")
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
				clocks := probe.Clocks{Class: *clock}
				for _, p := range positions {
					r, err := t.Probe(p)
					var root []probe.RootMove
					if err == nil && *moves {
						root, err = t.RootMoves(p, clocks)
					}
					if err != nil {
						fmt.Fprintf(e.stderr, "dtb probe: %s\n", probeError(p, *dir, err))
						failed++
						continue
					}
					r.Rules = clocks.Value(&p, r)
					f := fenEntry{FEN: p.FEN(), Entry: r}
					if *moves {
						f.Moves = []moveEntry{} // a position without a move has "moves":[]
					}
					for _, m := range root {
						m.Entry.Rules = m.Value
						f.Moves = append(f.Moves, moveEntry{p.Notation(m.Move), m.Entry})
					}
					if err := f.write(e.stdout, enc, *asJSON); err != nil {
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

// fenEntry is a position, its table entry and, with --moves, its moves.
// In JSON it is one object with the entry's keys as table.Entry writes
// them after the FEN, and the moves last:
// {"fen":"W:WK10:BK5","rules":"win",…,"moves":[{"move":"10-46","rules":"win",…},…]}.
type fenEntry struct {
	FEN   string
	Entry table.Entry
	Moves []moveEntry // nil: not asked for
}

// moveEntry is a move and its entry seen from the mover, in JSON
// {"move":"10-46","rules":"win",…}.
type moveEntry struct {
	Move  string
	Entry table.Entry
}

// write writes f in JSON to enc or in words to w.
func (f fenEntry) write(w io.Writer, enc *json.Encoder, asJSON bool) error {
	if asJSON {
		return enc.Encode(f)
	}
	if _, err := fmt.Fprintf(w, "%s  %s\n", f.FEN, describe(f.Entry)); err != nil {
		return err
	}
	for _, m := range f.Moves {
		if _, err := fmt.Fprintf(w, "  %s  %s\n", m.Move, describe(m.Entry)); err != nil {
			return err
		}
	}
	return nil
}

func (f fenEntry) MarshalJSON() ([]byte, error) {
	b, err := keyEntry("fen", f.FEN, f.Entry)
	if err != nil || f.Moves == nil {
		return b, err
	}
	moves, err := json.Marshal(f.Moves)
	if err != nil {
		return nil, err
	}
	return fmt.Appendf(b[:len(b)-1], `,"moves":%s}`, moves), nil
}

func (m moveEntry) MarshalJSON() ([]byte, error) { return keyEntry("move", m.Move, m.Entry) }

// keyEntry returns the JSON object of e with "key":value in front.
func keyEntry(key, value string, e table.Entry) ([]byte, error) {
	v, err := json.Marshal(value)
	if err != nil {
		return nil, err
	}
	b, err := json.Marshal(e) // {"rules":…}
	if err != nil {
		return nil, err
	}
	return fmt.Appendf(nil, `{%q:%s,%s`, key, v, b[1:]), nil
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
