package main

import (
	"fmt"
	"os"
	"sort"

	"github.com/spf13/pflag"

	"github.com/dtb-draughts/dtb/internal/explore"
	"github.com/dtb-draughts/dtb/internal/pdn"
	"github.com/dtb-draughts/dtb/probe"
)

func init() {
	register(&command{
		name: "annotate", args: "GAME.pdn", summary: "mark the moves of PDN games that changed their value under the rules inside the tables, with the better move",
		flags: func(fs *pflag.FlagSet) func(*env, []string) error {
			fl := &annotateCmd{}
			tablesFlag(fs, &fl.dir)
			return fl.run
		},
	})
}

// writeGame writes g as PDN, its tags then its moves numbered, with a
// comment after each marked move.
func writeGame(e *env, g pdn.Game, marks []explore.Mark) {
	names := make([]string, 0, len(g.Tags))
	for k := range g.Tags {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		fmt.Fprintf(e.stdout, "[%s %q]\n", k, g.Tags[k])
	}
	comments := map[int]string{}
	for _, m := range marks {
		side := [2]string{"White", "Black"}[(m.Ply-1+int(g.Start.Side))%2]
		comments[m.Ply] = fmt.Sprintf("dtb: %s turns %s into %s; %s keeps the %s", side, m.Before, m.After, m.Best, m.Before)
	}
	fmt.Fprintf(e.stdout, "%s *\n\n", pdn.MoveText(g.Start.Side, g.Moves, comments))
}

// annotateCmd holds the flags of one run of dtb annotate.
type annotateCmd struct {
	dir string
}

func (fl *annotateCmd) run(e *env, args []string) error {
	if len(args) != 1 {
		return badInput("want one PDN file, got %d arguments", len(args))
	}
	f, err := os.Open(args[0])
	if err != nil {
		return usageError{err}
	}
	games, err := pdn.Parse(f)
	f.Close()
	if err != nil {
		return usageError{fmt.Errorf("%s: %w", args[0], err)}
	}
	t, err := probe.Open(fl.dir, probe.Options{})
	if err != nil {
		return err
	}
	defer t.Close()
	marked := 0
	for i, g := range games {
		marks, err := explore.Annotate(t, g.Start, g.Moves)
		if err != nil {
			return fmt.Errorf("%s, game %d (line %d): %s", args[0], i+1, g.Line, explain(err))
		}
		marked += len(marks)
		writeGame(e, g, marks)
	}
	fmt.Fprintf(e.stderr, "dtb annotate: %d games, %d moves marked\n", len(games), marked)
	return nil
}
