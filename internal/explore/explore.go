// Package explore answers what a player asks of the tables about a
// position: its category under the rules and in theory, every legal move
// with what it leads to, best first, and the best line to the end of the
// game. Server serves the answers as JSON over HTTP, and the explorer's
// page that shows them on a board (web/, embedded), for dtb serve.
//
//	t, err := probe.Open("tables", probe.Options{})
//	pos, err := explore.Probe(t, p, probe.Clocks{}) // pos.Category, pos.Moves[0].Move
//	best, ok, err := explore.BestMove(t, p, probe.Clocks{}) // best.After, best.Move.Clocks
//	line, err := explore.BestLine(t, p, probe.Clocks{}, 0, draughts.StandardNotation)
//	fmt.Println(line.PDN) // "1. 2-11 50x6 ..."
//	http.ListenAndServe("127.0.0.1:8080", explore.NewServer(t, "tables", 0))
//
// Values are for the side to move, a move's for the side that plays it,
// under the rules with the clocks passed (probe.Clocks) as in theory. A
// category (probe.Category) is written in words: "win", "cursed-win",
// "draw", "blessed-loss", "loss". A move's, in a position's moves as in
// a line, is for the side that plays it.
package explore

import (
	"fmt"

	"github.com/dtb-draughts/dtb/draughts"
	"github.com/dtb-draughts/dtb/internal/pdn"
	"github.com/dtb-draughts/dtb/probe"
	"github.com/dtb-draughts/dtb/rules"
)

// Distances are the distances of a position or move in plies; nil where
// the tables hold none (a draw, or a column the table lacks). A move's
// are those of the position through it (probe.RootMove.Entry).
type Distances struct {
	// Distance is counted on the clock Clock names ("class A", "class B",
	// "rule 2"), a move's on its position's: the least budget under which
	// the position (through the move) is won or lost.
	Distance *int   `json:"distance"`
	Clock    string `json:"clock,omitempty"`
	DTW      *int   `json:"dtw"` // theoretical plies until the loser has no move
	MTC      *int   `json:"mtc"` // theoretical plies until a man move or capture
}

// distances returns the distances of e, whose distance counts the clock
// of class c.
func distances(e rules.Entry, c rules.Class) Distances {
	opt := func(n int) *int {
		if n < 0 {
			return nil
		}
		return &n
	}
	d := Distances{Distance: opt(e.Distance), DTW: opt(e.DTW), MTC: opt(e.MTC)}
	if d.Distance != nil {
		d.Clock = c.String()
	}
	return d
}

// Plies returns n plies in words: "1 ply", "9 plies".
func Plies(n int) string {
	if n == 1 {
		return "1 ply"
	}
	return fmt.Sprintf("%d plies", n)
}

// Moves returns n moves in words: "1 move", "5 moves".
func Moves(n int) string {
	if n == 1 {
		return "1 move"
	}
	return fmt.Sprintf("%d moves", n)
}

// WinnerMoves returns the moves the winner plays in a win of plies
// plies: the odd plies where the winner is to move (winnerToMove), the
// even ones where the loser is. A win in 9 plies from White's move is 5
// moves of White's, a loss in 6 plies 3 moves of the winner's.
func WinnerMoves(plies int, winnerToMove bool) int {
	if winnerToMove {
		return (plies + 1) / 2
	}
	return plies / 2
}

// A Position is what the tables say of a position and its moves.
type Position struct {
	FEN      string         `json:"fen"`
	Category probe.Category `json:"category"`
	Rules    string         `json:"rules"`  // win, draw or loss under the rules, with the clocks passed
	Theory   string         `json:"theory"` // the theoretical value: repetition the only draw
	Distances
	Moves []Move `json:"moves"` // best first (probe.Tables.RootMoves)
}

// A Move is a legal move and what it leads to, for the side that plays it.
type Move struct {
	Move     string         `json:"move"` // standard notation: 32-28, 28x19
	FEN      string         `json:"fen"`  // the position after it
	Category probe.Category `json:"category"`
	Rules    string         `json:"rules"`
	Theory   string         `json:"theory"`
	Distances
	Capture  bool `json:"capture"`
	ManMove  bool `json:"man_move"` // a capture or man move restarts the rule-2 count
	Crowning bool `json:"crowning"` // a man crowned by the move
	// ClassPlayed and Rule2Played are the clocks after the move, as
	// plies played (probe.Clocks): those to pass with its FEN; nil where
	// the count does not run in the position after it.
	ClassPlayed *int `json:"class_played"`
	Rule2Played *int `json:"rule2_played"`
}

// Played returns the plies played of c that count in a position whose
// clock is kind: the class clock's in class A and B, the rule-2 count's
// where rule 2 runs, nil for the other.
func Played(kind rules.Class, c probe.Clocks) (class, rule2 *int) {
	if kind.Carries() {
		class = &c.Class
	}
	if kind == rules.Rule2 {
		rule2 = &c.Rule2
	}
	return class, rule2
}

// Probe returns what the tables say of p under the clocks c: its
// category, values and distances, and every legal move, best first.
// Errors are probe's: ErrIllegal, a missing table, a damaged one.
func Probe(t *probe.Tables, p draughts.Position, c probe.Clocks) (Position, error) {
	r, err := t.Probe(p, c, 0)
	if err != nil {
		return Position{}, err
	}
	root, err := t.RootMoves(p, c)
	if err != nil {
		return Position{}, err
	}
	pos := Position{
		FEN: p.FEN(), Category: r.Category(),
		Rules: r.Value.String(), Theory: r.Entry.Theory.String(),
		Distances: distances(r.Entry, r.Class), Moves: make([]Move, len(root)),
	}
	for i, m := range root {
		q := p.Play(m.Move)
		from, to := draughts.Bit(m.Move.FromSquare()), draughts.Bit(m.Move.ToSquare())
		pos.Moves[i] = Move{
			Move: p.Notation(m.Move), FEN: q.FEN(), Category: m.Category(),
			Rules: m.Value.String(), Theory: m.Entry.Theory.String(), Distances: distances(m.Entry, m.Class),
			Capture: m.Move.IsCapture(), ManMove: p.Kings&from == 0, Crowning: p.Kings&from == 0 && q.Kings&to != 0,
		}
		pos.Moves[i].ClassPlayed, pos.Moves[i].Rule2Played = Played(m.ClassAfter, m.Clocks)
	}
	return pos, nil
}

// A Best is the best move of a position and what it leads to.
type Best struct {
	// Move is the first of probe.Tables.RootMoves: its value and
	// distances for the mover, and the clocks after it (Move.Clocks).
	Move   probe.RootMove
	After  draughts.Position // the position after Move
	Result probe.Result      // After probed under Move.Clocks, for its side to move
}

// BestMove returns the best move of p under the clocks c: the winner's
// quickest, the loser's slowest, in a draw a move that keeps it. It
// returns false where p has no move (its side to move has lost). Errors
// are probe's.
func BestMove(t *probe.Tables, p draughts.Position, c probe.Clocks) (Best, bool, error) {
	root, err := t.RootMoves(p, c)
	if err != nil || len(root) == 0 {
		return Best{}, false, err
	}
	b := Best{Move: root[0], After: p.Play(root[0].Move)}
	if b.Result, err = t.Probe(b.After, b.Move.Clocks, 0); err != nil {
		return Best{}, false, err
	}
	return b, true, nil
}

// A Line is the best line from a position: the best move of each
// position in turn (the first of probe.Tables.RootMoves), to the end of
// the game. In a win or a loss the winner hurries and the loser delays;
// in a draw both keep it, the side that wins in theory pressing, until
// a clock or a repetition draws the game.
type Line struct {
	FEN      string         `json:"fen"`
	Category probe.Category `json:"category"`
	Moves    []LineMove     `json:"moves"`
	PDN      string         `json:"pdn"` // the moves as PDN move text: "1. 32-28 19-23 2. ...", in the notation asked for
	// End says why the line ends: "no move" (the side to move has no
	// move and has lost), "clock" (the clock of Clock has run out in a
	// drawn position: the move limit of class A or B or the 25-move
	// rule draws), "repetition" (the position is on the board for the
	// third time, the same side to move: a draw), or "limit" (the plies
	// asked for were played).
	End   string `json:"end"`
	Clock string `json:"clock,omitempty"` // with End "clock": "class A", "class B" or "rule 2"
	Why   string `json:"why"`             // End in words: "Black has no move: White wins in 5 moves (9 plies)", "a draw by repetition", ...
	// Result is the game's result after the line, as PDN writes it:
	// "2-0" (White wins), "1-1", "0-2", or "*" where the line goes on.
	Result string `json:"result"`
}

// A LineMove is a move of a line and the position after it. Its
// category is the move's, for the side that plays it, as a Move's.
type LineMove struct {
	Number   string         `json:"number"` // the move number PDN writes before it: "1.", "1..." (Black's first), or ""
	Move     string         `json:"move"`
	FEN      string         `json:"fen"`
	Category probe.Category `json:"category"`
}

// DefaultPlies is the longest line BestLine plays when asked for none:
// more than any win of the tables up to 6 pieces.
const DefaultPlies = 400

// BestLine returns the best line from p under the clocks c, at most
// plies plies (DefaultPlies if plies <= 0), its moves written in n.
func BestLine(t *probe.Tables, p draughts.Position, c probe.Clocks, plies int, n draughts.Notation) (Line, error) {
	if plies <= 0 {
		plies = DefaultPlies
	}
	r, err := t.Probe(p, c, 0)
	if err != nil {
		return Line{}, err
	}
	line := Line{FEN: p.FEN(), Category: r.Category(), Moves: []LineMove{}}
	var moves []string
	seen := map[draughts.Position]int{}
	q := p
	for ply := 0; ; ply++ {
		seen[q]++
		switch {
		case q.CountMoves() == 0:
			line.End, line.Result = "no move", [2]string{"0-2", "2-0"}[q.Side]
			line.Why = fmt.Sprintf("%v has no move: %v wins", q.Side, q.Side.Opponent())
			if ply > 0 { // the winner played the last move
				line.Why += fmt.Sprintf(" in %s (%s)", Moves(WinnerMoves(ply, ply%2 == 1)), Plies(ply))
			}
		case r.Value == rules.Draw && runOut(r.Class, c):
			line.End, line.Clock, line.Result = "clock", r.Class.String(), "1-1"
			line.Why = map[rules.Class]string{rules.ClassA: "a draw by the class A limit, 16 moves each",
				rules.ClassB: "a draw by the class B limit, 5 moves each", rules.Rule2: "a draw by the 25-move king rule"}[r.Class]
		case seen[q] == 3:
			line.End, line.Result, line.Why = "repetition", "1-1", "a draw by repetition: the position is on the board for the third time"
		case ply == plies:
			line.End, line.Result, line.Why = "limit", "*", "the line goes on"
		}
		if line.End != "" {
			break
		}
		best, _, err := BestMove(t, q, c)
		if err != nil {
			return Line{}, err
		}
		moves = append(moves, n.Write(&q, best.Move.Move))
		q, c, r = best.After, best.Move.Clocks, best.Result
		line.Moves = append(line.Moves, LineMove{Number: pdn.MoveNumber(p.Side, ply, false), Move: moves[ply], FEN: q.FEN(), Category: best.Move.Category()})
	}
	line.PDN = pdn.MoveText(p.Side, moves, nil)
	return line, nil
}

// runOut reports whether the clock of class has run out under c: the
// class clock of class A or B, or the 25-move count of rule 2. The game
// is then drawn.
func runOut(class rules.Class, c probe.Clocks) bool {
	played, count := Played(class, c)
	if played == nil {
		played = count
	}
	return played != nil && *played >= class.Budget()
}
