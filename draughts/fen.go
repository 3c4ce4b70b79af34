package draughts

import (
	"fmt"
	"math/bits"
	"strconv"
	"strings"
)

// ParseFEN parses a position in PDN FEN: `W:W31-50:B1-20`,
// `B:WK4,28:B12,K45.` (side to move, then each colour's pieces with K for a
// king, ranges allowed, colours in either order, a trailing dot optional,
// whitespace ignored). Errors name the problem and its column.
func ParseFEN(s string) (Position, error) {
	f := fenParser{src: s}
	p, err := f.parse()
	if err != nil {
		return Position{}, fmt.Errorf("FEN %q: %w", s, err)
	}
	return p, nil
}

type fenParser struct {
	src string
	i   int // next byte of src
}

// end is what peek returns at the end of the FEN: no byte, not even a
// NUL, which is a byte like any other.
const end = -1

// peek skips whitespace and returns the next byte, or end.
func (f *fenParser) peek() int {
	for f.i < len(f.src) && strings.IndexByte(" \t\r\n", f.src[f.i]) >= 0 {
		f.i++
	}
	if f.i == len(f.src) {
		return end
	}
	return int(f.src[f.i])
}

func (f *fenParser) errorf(format string, args ...any) error {
	return fmt.Errorf(format+" at column %d", append(args, f.i+1)...)
}

// unexpected reports the byte at the cursor.
func (f *fenParser) unexpected(want string) error {
	if c := f.peek(); c != end {
		return f.errorf("expected %s, found %q", want, c)
	}
	return f.errorf("expected %s, found the end", want)
}

func (f *fenParser) side() (Color, bool) {
	switch f.peek() {
	case 'W', 'w':
		f.i++
		return White, true
	case 'B', 'b':
		f.i++
		return Black, true
	}
	return 0, false
}

func (f *fenParser) parse() (Position, error) {
	var p Position
	side, ok := f.side()
	if !ok {
		return p, f.unexpected("side to move W or B")
	}
	p.Side = side
	var seen [2]bool
	for f.peek() == ':' {
		f.i++
		f.peek()
		at := f.i
		c, ok := f.side()
		if !ok {
			return p, f.unexpected("colour W or B")
		}
		if seen[c] {
			f.i = at
			return p, f.errorf("%s pieces given twice", c)
		}
		seen[c] = true
		if err := f.pieces(&p, c); err != nil {
			return p, err
		}
	}
	if f.peek() == '.' {
		f.i++
	}
	if f.peek() != end {
		return p, f.unexpected("':' or the end")
	}
	return p, p.checkCounts()
}

// checkCounts checks that neither side has more than 20 pieces.
func (p *Position) checkCounts() error {
	for _, c := range []Color{White, Black} {
		if n := bits.OnesCount64(p.Pieces(c)); n > 20 {
			return fmt.Errorf("%s has %d pieces, more than 20", c, n)
		}
	}
	return nil
}

// pieces parses a comma-separated list of squares and ranges of colour c.
func (f *fenParser) pieces(p *Position, c Color) error {
	if b := f.peek(); b == ':' || b == '.' || b == end {
		return nil // no pieces
	}
	for {
		king := false
		at := f.i
		if b := f.peek(); b == 'K' || b == 'k' {
			king = true
			f.i++
		}
		lo, err := f.square()
		if err != nil {
			return err
		}
		hi := lo
		if f.peek() == '-' {
			f.i++
			if hi, err = f.square(); err != nil {
				return err
			}
			if hi < lo {
				return f.errorf("range %d-%d runs backwards", lo, hi)
			}
		}
		for s := lo; s <= hi; s++ {
			if err := place(p, c, s, king); err != nil {
				f.i = at
				return f.errorf("%v", err)
			}
		}
		if f.peek() != ',' {
			return nil
		}
		f.i++
	}
}

func (f *fenParser) square() (int, error) {
	f.peek()
	start := f.i
	for f.i < len(f.src) && f.src[f.i] >= '0' && f.src[f.i] <= '9' {
		f.i++
	}
	if start == f.i {
		return 0, f.unexpected("a square number")
	}
	text := f.src[start:f.i]
	n, err := strconv.Atoi(text)
	if err != nil || n < 1 || n > 50 {
		f.i = start
		return 0, f.errorf("square %s out of range 1..50", text)
	}
	return n, nil
}

// place puts a piece of colour c on square s.
func place(p *Position, c Color, s int, king bool) error {
	b := Bit(s)
	if p.Occupied()&b != 0 {
		return fmt.Errorf("square %d given twice", s)
	}
	crown := WhiteCrown
	if c == Black {
		crown = BlackCrown
	}
	if !king && b&crown != 0 {
		return fmt.Errorf("%s man on square %d, its crowning row", c, s)
	}
	if c == White {
		p.White |= b
	} else {
		p.Black |= b
	}
	if king {
		p.Kings |= b
	}
	return nil
}

// FEN formats the position canonically: `W:W31,32,K40:B1,K2` (side to
// move, White's pieces then Black's, squares ascending, no ranges).
func (p Position) FEN() string {
	var sb strings.Builder
	sb.WriteString("WB"[p.Side : p.Side+1])
	for _, c := range []Color{White, Black} {
		sb.WriteString(":" + "WB"[c:c+1])
		sep := ""
		for s := 1; s <= 50; s++ {
			b := Bit(s)
			if p.Pieces(c)&b == 0 {
				continue
			}
			sb.WriteString(sep)
			if p.Kings&b != 0 {
				sb.WriteByte('K')
			}
			sb.WriteString(strconv.Itoa(s))
			sep = ","
		}
	}
	return sb.String()
}

func (p Position) String() string { return p.FEN() }
