package main

import (
	"encoding/json"
	"fmt"
	"runtime"
	"strings"

	"github.com/spf13/pflag"
	"golang.org/x/sync/errgroup"

	"github.com/dtb-draughts/dtb/draughts"
	"github.com/dtb-draughts/dtb/probe"
)

// parseFEN parses a position given on the command line, a FEN or a Hub
// position (draughts.ParsePosition). A bad one is bad input, and so is a
// game that is over before it starts (no pieces, or none of the side not
// to move: probe.Check).
func parseFEN(s string) (draughts.Position, error) {
	p, err := draughts.ParsePosition(s)
	if err == nil {
		err = probe.Check(p)
	}
	if err != nil {
		return p, usageError{err}
	}
	return p, nil
}

// oneFEN checks that args is exactly one FEN and parses it.
func oneFEN(args []string) (draughts.Position, error) {
	if len(args) != 1 {
		return draughts.Position{}, badInput("expected one FEN argument, got %d (quote the FEN)", len(args))
	}
	return parseFEN(args[0])
}

// notationUsage is the help of the flag --notation.
const notationUsage = "how moves are written: standard (32-28, 28x19) or hub (28x19x23: start, end, every captured square)"

// moveNotation returns the notation named by the flag --notation.
func moveNotation(s string) (draughts.Notation, error) {
	n, err := draughts.ParseNotation(s)
	if err != nil {
		return n, badInput("--notation %q: want standard or hub", s)
	}
	return n, nil
}

func init() {
	register(&command{
		name: "moves", args: "FEN", summary: "list the legal moves of a position",
		flags: func(fs *pflag.FlagSet) func(*env, []string) error {
			fl := &movesCmd{}
			fs.BoolVar(&fl.asJSON, "json", false, `one JSON object per move: {"move":"28x19","from":28,"to":19,"captures":[23]} (none for a position without moves)`)
			fs.StringVar(&fl.notation, "notation", "standard", notationUsage)
			return fl.run
		},
	})
	register(&command{
		name: "perft", args: "FEN", summary: "count the leaves of the legal move tree, depth by depth",
		flags: func(fs *pflag.FlagSet) func(*env, []string) error {
			fl := &perftCmd{}
			fs.IntVarP(&fl.depth, "depth", "d", 6, "count depths 1..N")
			fs.BoolVar(&fl.divide, "divide", false, "also print the count under each root move at the last depth")
			fs.IntVarP(&fl.threads, "threads", "t", runtime.NumCPU(), "threads (root moves are counted in parallel)")
			fs.StringVar(&fl.notation, "notation", "standard", notationUsage)
			return fl.run
		},
	})
	register(&command{
		name: "play", args: "FEN MOVE...", summary: "play moves and print the resulting FEN",
		flags: func(fs *pflag.FlagSet) func(*env, []string) error {
			fl := &playCmd{}
			return fl.run
		},
	})
}

type rootCount struct {
	move  string
	nodes uint64
}

// divideCounts counts the tree of the given depth under each root move, in
// parallel, the moves written in n.
func divideCounts(p draughts.Position, depth, threads int, n draughts.Notation) []rootCount {
	moves := p.Moves(nil)
	counts := make([]rootCount, len(moves))
	var g errgroup.Group
	g.SetLimit(threads)
	for i, m := range moves {
		counts[i].move = n.Write(&p, m)
		g.Go(func() error {
			counts[i].nodes = draughts.Perft(p.Play(m), depth-1)
			return nil
		})
	}
	g.Wait()
	return counts
}

// movesCmd holds the flags of one run of dtb moves.
type movesCmd struct {
	asJSON   bool
	notation string
}

func (fl *movesCmd) run(e *env, args []string) error {
	n, err := moveNotation(fl.notation)
	if err != nil {
		return err
	}
	p, err := oneFEN(args)
	if err != nil {
		return err
	}
	moves := p.Moves(nil)
	if len(moves) == 0 && !fl.asJSON { // in JSON: no object
		fmt.Fprintf(e.stdout, "no legal moves: %v to move loses\n", p.Side)
	}
	enc := json.NewEncoder(e.stdout)
	for _, m := range moves {
		if !fl.asJSON {
			fmt.Fprintln(e.stdout, n.Write(&p, m))
			continue
		}
		caps := m.Captures()
		if caps == nil {
			caps = []int{}
		}
		if err := enc.Encode(struct {
			Move     string `json:"move"`
			From     int    `json:"from"`
			To       int    `json:"to"`
			Captures []int  `json:"captures"`
		}{n.Write(&p, m), m.FromSquare(), m.ToSquare(), caps}); err != nil {
			return err
		}
	}
	return nil
}

// perftCmd holds the flags of one run of dtb perft.
type perftCmd struct {
	depth    int
	divide   bool
	threads  int
	notation string
}

func (fl *perftCmd) run(e *env, args []string) error {
	n, err := moveNotation(fl.notation)
	if err != nil {
		return err
	}
	p, err := oneFEN(args)
	if err != nil {
		return err
	}
	if fl.depth < 1 || fl.depth > 30 {
		return badInput("--depth %d out of range 1..30", fl.depth)
	}
	if fl.threads < 1 {
		return badInput("--threads must be at least 1")
	}
	for d := 1; d <= fl.depth; d++ {
		counts := divideCounts(p, d, fl.threads, n)
		var total uint64
		for _, c := range counts {
			total += c.nodes
		}
		if fl.divide && d == fl.depth {
			for _, c := range counts {
				fmt.Fprintf(e.stdout, "%s %d\n", c.move, c.nodes)
			}
		}
		fmt.Fprintf(e.stdout, "%d %d\n", d, total)
	}
	return nil
}

// playCmd holds the flags of one run of dtb play.
type playCmd struct {
}

func (fl *playCmd) run(e *env, args []string) error {
	if len(args) < 1 {
		return badInput("expected a FEN and moves")
	}
	p, err := parseFEN(args[0])
	if err != nil {
		return err
	}
	for i, s := range args[1:] {
		if strings.TrimSpace(s) == "" {
			return badInput("argument %d is empty: want moves, e.g. 32-28", i+2)
		}
		for _, one := range strings.Fields(s) {
			m, err := p.ParseMove(one)
			if err != nil {
				return usageError{err}
			}
			p = p.Play(m)
		}
	}
	fmt.Fprintln(e.stdout, p.FEN())
	return nil
}
