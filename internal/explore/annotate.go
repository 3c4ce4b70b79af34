package explore

import (
	"errors"
	"fmt"

	"github.com/dtb-draughts/dtb/draughts"
	"github.com/dtb-draughts/dtb/probe"
)

// A Mark is a move of a game that changed the game's value under the
// rules inside the tables: a win let slip, a draw lost.
type Mark struct {
	Ply    int            // the move's ply, from 1
	Move   string         // as the game wrote it
	Before probe.Category // the position's category for the side that moved
	After  probe.Category // the move's category for that side
	Best   string         // a move that kept Before: the best, in standard notation
}

// An IllegalError is the error of Annotate for a move that is not legal
// in its position: the game goes no further.
type IllegalError struct {
	Ply int   // the move's ply, from 1
	Err error // draughts.Position.ParseMove's: "move "50-46" is not legal in ..."
}

func (e *IllegalError) Error() string { return fmt.Sprintf("ply %d: %v", e.Ply, e.Err) }

// Unwrap returns the error of ParseMove.
func (e *IllegalError) Unwrap() error { return e.Err }

// Annotate plays the moves of a game from start and returns the moves
// that changed its value under the rules (win to draw or loss, draw to
// loss) in the positions the tables hold. The clocks start fresh at the
// first position the tables hold (the game's record before it is not
// read), and run on over its moves. Positions with more pieces than the
// tables are passed over. An illegal move ends the game with an
// *IllegalError and the marks before it.
func Annotate(t *probe.Tables, start draughts.Position, moves []string) ([]Mark, error) {
	var marks []Mark
	p, c := start, probe.Clocks{}
	for i, s := range moves {
		m, err := p.ParseMove(s)
		if err != nil {
			return marks, &IllegalError{Ply: i + 1, Err: err}
		}
		root, err := t.RootMoves(p, c)
		switch {
		case errors.Is(err, probe.ErrMissing):
			c = probe.Clocks{} // beyond the tables: the clocks start when they are reached
		case err != nil:
			return marks, fmt.Errorf("ply %d, %s: %w", i+1, p.FEN(), err)
		default:
			for _, r := range root {
				if r.Move != m {
					continue
				}
				if best := root[0]; r.Value < best.Value { // rules.Value orders loss, draw, win
					marks = append(marks, Mark{Ply: i + 1, Move: s, Before: best.Category(),
						After: r.Category(), Best: p.Notation(best.Move)})
				}
				c = r.Clocks
			}
		}
		p = p.Play(m)
	}
	return marks, nil
}
