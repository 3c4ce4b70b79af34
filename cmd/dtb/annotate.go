package main

import (
	"errors"
	"fmt"
	"os"

	"github.com/spf13/pflag"

	"github.com/dtb-draughts/dtb/internal/explore"
	"github.com/dtb-draughts/dtb/internal/pdn"
	"github.com/dtb-draughts/dtb/probe"
)

func init() {
	register(&command{
		name: "annotate", args: "GAME.pdn  (- for standard input)", summary: "mark the moves of PDN games that changed their value under the rules inside the tables, with the better move",
		flags: func(fs *pflag.FlagSet) func(*env, []string) error {
			fl := &annotateCmd{}
			tablesFlag(fs, &fl.dir)
			return fl.run
		},
	})
}

// annotateCmd holds the flags of one run of dtb annotate.
type annotateCmd struct {
	dir string
}

// readGames reads the games of the PDN file path, standard input for
// "-", and returns them with the file's name for messages. Its errors are
// bad input, naming the file.
func readGames(e *env, path string) ([]pdn.Game, string, error) {
	r, name := e.stdin, "standard input"
	if path != "-" {
		f, err := os.Open(path)
		if err != nil {
			return nil, path, usageError{err}
		}
		defer f.Close()
		r, name = f, path
	}
	games, err := pdn.Parse(r)
	if err != nil {
		return nil, name, usageError{fmt.Errorf("%s: %w", name, err)}
	}
	return games, name, nil
}

func (fl *annotateCmd) run(e *env, args []string) error {
	if len(args) != 1 {
		return badInput("want one PDN file (- for standard input), got %d arguments", len(args))
	}
	games, name, err := readGames(e, args[0])
	if err != nil {
		return err
	}
	t, err := probe.Open(fl.dir, probe.Options{})
	if err != nil {
		return err
	}
	defer t.Close()
	marked, illegal := 0, 0
	for i, g := range games {
		marks, err := explore.Annotate(t, g.Start, g.Moves)
		comments := map[int]string{}
		var bad *explore.IllegalError
		switch {
		case errors.As(err, &bad):
			// The game is written as it is, with where it went wrong.
			illegal++
			fmt.Fprintf(e.stderr, "dtb annotate: %s, game %d (line %d): %v; the game is written without marks\n", name, i+1, g.Line, err)
			comments[bad.Ply-1] = fmt.Sprintf("dtb: %v; the game is not annotated", bad.Err)
		case err != nil:
			return fmt.Errorf("%s, game %d (line %d): %s", name, i+1, g.Line, explain(err))
		default:
			marked += len(marks)
			for _, m := range marks {
				side := [2]string{"White", "Black"}[(m.Ply-1+int(g.Start.Side))%2]
				comments[m.Ply] = fmt.Sprintf("dtb: %s turns %s into %s; %s keeps the %s", side, m.Before, m.After, m.Best, m.Before)
			}
		}
		if err := g.Write(e.stdout, comments); err != nil {
			return err
		}
	}
	summary := fmt.Sprintf("dtb annotate: %s, %s marked", plural(len(games), "game"), plural(marked, "move"))
	if illegal > 0 {
		summary += fmt.Sprintf(", %s with an illegal move written without marks", plural(illegal, "game"))
	}
	fmt.Fprintln(e.stderr, summary)
	if illegal > 0 {
		return usageError{errReported}
	}
	return nil
}
