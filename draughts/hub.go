package draughts

import (
	"fmt"
	"math/bits"
	"strconv"
	"strings"
)

// Hub is the text protocol of the engine Scan and of the GUIs that drive
// it. A position is 51 characters: the side to move, W or B, then squares
// 1 to 50, each w (white man), b (black man), W (white king), B (black
// king) or e (empty). A capture is written from x to x captured..., the
// captured squares in any order.

// hubPieces are the characters of a Hub square, indexed by colour, then
// man or king.
var hubPieces = [2][2]byte{{'w', 'W'}, {'b', 'B'}}

// ParseHub parses a position in Hub notation:
// `Wbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwww` is the start.
// Whitespace around it is ignored. Errors name the problem and the square.
func ParseHub(s string) (Position, error) {
	p, err := parseHub(strings.TrimSpace(s))
	if err != nil {
		return Position{}, fmt.Errorf("Hub position %q: %w", s, err)
	}
	return p, nil
}

func parseHub(s string) (Position, error) {
	var p Position
	if s == "" {
		return p, fmt.Errorf("empty: want the side to move W or B, then 50 squares")
	}
	switch s[0] {
	case 'W':
		p.Side = White
	case 'B':
		p.Side = Black
	default:
		return p, fmt.Errorf("side to move %q: want W or B", s[0])
	}
	if n := len(s) - 1; n != 50 {
		return p, fmt.Errorf("%d squares after the side to move, want 50", n)
	}
	for sq := 1; sq <= 50; sq++ {
		c := s[sq]
		if c == 'e' {
			continue
		}
		side, king, ok := hubPiece(c)
		if !ok {
			return p, fmt.Errorf("square %d is %q: want w, b, W, B or e", sq, c)
		}
		if err := place(&p, side, sq, king); err != nil {
			return p, err
		}
	}
	return p, p.checkCounts()
}

// hubPiece returns the piece that c stands for on a Hub square.
func hubPiece(c byte) (side Color, king, ok bool) {
	for side, kinds := range hubPieces {
		for k, kc := range kinds {
			if c == kc {
				return Color(side), k == 1, true
			}
		}
	}
	return 0, false, false
}

// Hub formats the position in Hub notation: the side to move, then the
// 50 squares.
func (p Position) Hub() string {
	var b [51]byte
	b[0] = "WB"[p.Side]
	for sq := 1; sq <= 50; sq++ {
		b[sq] = 'e'
		bit := Bit(sq)
		for side := range hubPieces {
			if p.Pieces(Color(side))&bit != 0 {
				b[sq] = hubPieces[side][bits.OnesCount64(p.Kings&bit)]
			}
		}
	}
	return string(b[:])
}

// ParsePosition parses a position typed in either notation: PDN FEN
// (ParseFEN) or Hub (ParseHub). Text without a colon that starts with W
// or B and is longer than two characters is Hub; the rest is FEN.
func ParsePosition(s string) (Position, error) {
	t := strings.TrimSpace(s)
	if len(t) > 2 && (t[0] == 'W' || t[0] == 'B') && !strings.Contains(t, ":") {
		return ParseHub(s)
	}
	return ParseFEN(s)
}

// HubMove returns the legal move m of p in Hub notation: `32-28`, or
// `28x19x23` for a capture (start, end, then every captured square in
// the order taken).
func (p *Position) HubMove(m Move) string {
	from, to := strconv.Itoa(m.FromSquare()), strconv.Itoa(m.ToSquare())
	if !m.IsCapture() {
		return from + "-" + to
	}
	var sb strings.Builder
	sb.WriteString(from + "x" + to)
	p.capturePaths(m, func(_, order []int) bool {
		for _, sq := range order {
			sb.WriteString("x" + strconv.Itoa(sq))
		}
		return true
	})
	return sb.String()
}

// ParseHubMove finds the legal move that s denotes in Hub notation:
// `32-28`, or `28x19x23` (start, end, then the captured squares in any
// order). A capture without its captured squares, `28x19`, is accepted
// where no other capture shares its start and end.
func (p *Position) ParseHubMove(s string) (Move, error) {
	s = strings.TrimSpace(s)
	capture, squares, err := moveSquares(s)
	if err != nil {
		return Move{}, err
	}
	from, to := squares[0], squares[1]
	var taken uint64
	for _, sq := range squares[2:] {
		taken |= Bit(sq)
	}
	full := len(squares) > 2
	return p.pick(s, HubNotation, func(m Move) bool {
		if m.FromSquare() != from || m.ToSquare() != to || m.IsCapture() != capture {
			return false
		}
		return !full || m.Captured == taken && bits.OnesCount64(taken) == len(squares)-2
	})
}
