package draughts

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Notation returns the move in standard notation: `32-28` for a quiet move,
// `28x19` for a capture, and `28x37x46x19` (with the landing squares) when
// another legal capture shares its from and to squares.
func (p *Position) Notation(m Move) string {
	from, to := strconv.Itoa(m.FromSquare()), strconv.Itoa(m.ToSquare())
	if !m.IsCapture() {
		return from + "-" + to
	}
	var buf [MaxMoves]Move
	for _, o := range p.Moves(buf[:0]) {
		if o.From == m.From && o.To == m.To && o != m {
			var sb strings.Builder
			p.capturePaths(m, func(path, _ []int) bool {
				for _, s := range path {
					sb.WriteString(strconv.Itoa(s) + "x")
				}
				return true
			})
			return sb.String() + to
		}
	}
	return from + "x" + to
}

// Notation is a way of writing moves.
type Notation uint8

// The notations of moves.
const (
	// StandardNotation writes `32-28` and `28x19`, with the landing
	// squares where needed (Position.Notation).
	StandardNotation Notation = iota
	// HubNotation writes `32-28` and `28x19x23`: the start, the end,
	// then every captured square (Position.HubMove).
	HubNotation
)

// ParseNotation returns the notation named s: standard or hub.
func ParseNotation(s string) (Notation, error) {
	switch s {
	case "standard":
		return StandardNotation, nil
	case "hub":
		return HubNotation, nil
	}
	return 0, fmt.Errorf("notation %q: want standard or hub", s)
}

func (n Notation) String() string {
	if n == HubNotation {
		return "hub"
	}
	return "standard"
}

// Write returns the legal move m of p written in n.
func (n Notation) Write(p *Position, m Move) string {
	if n == HubNotation {
		return p.HubMove(m)
	}
	return p.Notation(m)
}

// Captures returns the squares of the pieces the move captures, ascending.
func (m Move) Captures() []int {
	var sq []int
	for x := m.Captured; x != 0; x &= x - 1 {
		sq = append(sq, Square(x))
	}
	return sq
}

// ParseMove finds the legal move that s denotes: `32-28`, `28x19`, a
// capture with its landing squares `28x37x46x19`, or a capture in Hub's
// notation `28x19x23` (ParseHubMove). Landing squares are empty and
// captured ones are not, so the two never name different moves.
func (p *Position) ParseMove(s string) (Move, error) {
	s = strings.TrimSpace(s)
	capture, squares, err := moveSquares(s)
	if err != nil {
		return Move{}, err
	}
	from, to := squares[0], squares[len(squares)-1]
	m, err := p.pick(s, StandardNotation, func(m Move) bool {
		if m.FromSquare() != from || m.ToSquare() != to || m.IsCapture() != capture {
			return false
		}
		return len(squares) == 2 || p.capturePaths(m, func(path, _ []int) bool { return slices.Equal(path, squares[:len(squares)-1]) })
	})
	if err != nil && len(squares) > 2 {
		if h, herr := p.ParseHubMove(s); herr == nil {
			return h, nil
		}
	}
	return m, err
}

// moveSquares splits a move written `a-b` or `axbx...` into its squares;
// capture reports the x.
func moveSquares(s string) (capture bool, squares []int, err error) {
	sep := "-"
	if strings.Contains(s, "x") {
		sep = "x"
	}
	parts := strings.Split(s, sep)
	if len(parts) < 2 || sep == "-" && len(parts) != 2 {
		return false, nil, fmt.Errorf("move %q: expected from-to or fromxto", s)
	}
	squares = make([]int, len(parts))
	for i, part := range parts {
		n, err := strconv.Atoi(part)
		if err != nil || n < 1 || n > 50 {
			return false, nil, fmt.Errorf("move %q: %q is not a square 1..50", s, part)
		}
		squares[i] = n
	}
	return sep == "x", squares, nil
}

// pick returns the one legal move that match accepts. s is the move as
// written, for the errors; an ambiguous one is shown in full in n.
func (p *Position) pick(s string, n Notation, match func(Move) bool) (Move, error) {
	var buf [MaxMoves]Move
	var found []Move
	for _, m := range p.Moves(buf[:0]) {
		if match(m) {
			found = append(found, m)
		}
	}
	switch len(found) {
	case 0:
		return Move{}, fmt.Errorf("move %q is not legal in %s", s, p.FEN())
	case 1:
		return found[0], nil
	}
	what := "the landing squares"
	if n == HubNotation {
		what = "every captured square"
	}
	return Move{}, fmt.Errorf("move %q is ambiguous in %s: give %s, e.g. %s", s, p.FEN(), what, n.Write(p, found[0]))
}

// capturePaths calls fn with each way the capture m can be made, until
// fn returns true; it reports whether fn did. path holds the from square,
// then every intermediate landing square. order holds the captured
// squares in the order taken.
func (p *Position) capturePaths(m Move, fn func(path, order []int) bool) bool {
	from := uint64(1) << m.From
	empty := p.Empty() | from
	king := p.Kings&from != 0
	path := []int{m.FromSquare()}
	var order []int
	var walk func(at, taken uint64) bool
	walk = func(at, taken uint64) bool {
		if taken == m.Captured {
			return at == 1<<m.To && fn(path[:len(path)-1], order)
		}
		for _, d := range Directions {
			x := Step(at, d)
			for king && x&empty != 0 {
				x = Step(x, d)
			}
			if x&m.Captured&^taken == 0 {
				continue
			}
			order = append(order, Square(x))
			for to := Step(x, d) & empty; to != 0; to = Step(to, d) & empty {
				path = append(path, Square(to))
				ok := walk(to, taken|x)
				path = path[:len(path)-1]
				if ok {
					return true
				}
				if !king {
					break
				}
			}
			order = order[:len(order)-1]
		}
		return false
	}
	return walk(from, 0)
}
