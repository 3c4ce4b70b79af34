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
			p.capturePaths(m, func(path []int) bool {
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

// Captures returns the squares of the pieces the move captures, ascending.
func (m Move) Captures() []int {
	var sq []int
	for x := m.Captured; x != 0; x &= x - 1 {
		sq = append(sq, Square(x))
	}
	return sq
}

// ParseMove finds the legal move that s denotes: `32-28`, `28x19`, or a
// capture with its landing squares `28x37x46x19`.
func (p *Position) ParseMove(s string) (Move, error) {
	s = strings.TrimSpace(s)
	sep := "-"
	if strings.Contains(s, "x") {
		sep = "x"
	}
	parts := strings.Split(s, sep)
	if len(parts) < 2 || sep == "-" && len(parts) != 2 {
		return Move{}, fmt.Errorf("move %q: expected from-to or fromxto", s)
	}
	squares := make([]int, len(parts))
	for i, part := range parts {
		n, err := strconv.Atoi(part)
		if err != nil || n < 1 || n > 50 {
			return Move{}, fmt.Errorf("move %q: %q is not a square 1..50", s, part)
		}
		squares[i] = n
	}
	from, to := squares[0], squares[len(squares)-1]
	var buf [MaxMoves]Move
	var found []Move
	for _, m := range p.Moves(buf[:0]) {
		if m.FromSquare() != from || m.ToSquare() != to || m.IsCapture() != (sep == "x") {
			continue
		}
		if len(squares) > 2 && !p.capturePaths(m, func(path []int) bool { return slices.Equal(path, squares[:len(squares)-1]) }) {
			continue
		}
		found = append(found, m)
	}
	switch len(found) {
	case 0:
		return Move{}, fmt.Errorf("move %q is not legal in %s", s, p.FEN())
	case 1:
		return found[0], nil
	}
	return Move{}, fmt.Errorf("move %q is ambiguous in %s: give the landing squares, e.g. %s", s, p.FEN(), p.Notation(found[0]))
}

// capturePaths calls fn with each sequence of squares (the from square,
// then every intermediate landing square) along which the capture m can be
// made, until fn returns true; it reports whether fn did.
func (p *Position) capturePaths(m Move, fn func(path []int) bool) bool {
	from := uint64(1) << m.From
	empty := p.Empty() | from
	king := p.Kings&from != 0
	path := []int{m.FromSquare()}
	var walk func(at, taken uint64) bool
	walk = func(at, taken uint64) bool {
		if taken == m.Captured {
			return at == 1<<m.To && fn(path[:len(path)-1])
		}
		for _, d := range Directions {
			x := Step(at, d)
			for king && x&empty != 0 {
				x = Step(x, d)
			}
			if x&m.Captured&^taken == 0 {
				continue
			}
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
		}
		return false
	}
	return walk(from, 0)
}
