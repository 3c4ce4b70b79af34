package claim

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/dtb-draughts/dtb/draughts"
	"github.com/dtb-draughts/dtb/rules"
)

// Constraint is a condition on the squares of some pieces, written
// PIECES OP SQUARES (see ParseConstraint).
type Constraint struct {
	text    string
	pieces  string // w, b, wk, wm, bk or bm
	op      string // =, != or ~
	squares uint64 // bitboard
}

func (c Constraint) String() string { return c.text }

// ParseConstraint parses a square constraint PIECES OP SQUARES:
//
//	PIECES   w, b (all White's or Black's pieces), wk, wm, bk, bm (kings, men)
//	OP       =  every such piece stands on SQUARES
//	         != none does
//	         ~  at least one does
//	SQUARES  a comma-separated list of squares (28), ranges (46-50) and
//	         diagonals (diag:5-46, the squares from 5 to 46)
//
// For example bk=diag:5-46 (the black king on the long diagonal) or
// wm!=1-10.
func ParseConstraint(s string) (Constraint, error) {
	c := Constraint{text: s}
	i := strings.IndexAny(s, "!=~")
	if i < 0 {
		return c, fmt.Errorf("constraint %q: want PIECES=SQUARES, PIECES!=SQUARES or PIECES~SQUARES", s)
	}
	c.pieces, c.op = s[:i], s[i:i+1]
	if strings.HasPrefix(s[i:], "!=") {
		c.op = "!="
	} else if c.op == "!" {
		return c, fmt.Errorf("constraint %q: '!' without '='", s)
	}
	if !slices.Contains([]string{"w", "b", "wk", "wm", "bk", "bm"}, c.pieces) {
		return c, fmt.Errorf("constraint %q: pieces %q, want w, b, wk, wm, bk or bm", s, c.pieces)
	}
	var err error
	if c.squares, err = parseSquares(s[i+len(c.op):]); err != nil {
		return c, fmt.Errorf("constraint %q: %v", s, err)
	}
	return c, nil
}

// holds reports whether p meets the constraint.
func (c Constraint) holds(p *draughts.Position) bool {
	set := p.White
	if c.pieces[0] == 'b' {
		set = p.Black
	}
	if len(c.pieces) == 2 && c.pieces[1] == 'k' {
		set &= p.Kings
	} else if len(c.pieces) == 2 {
		set &^= p.Kings
	}
	in := set & c.squares
	switch c.op {
	case "=":
		return in == set
	case "!=":
		return in == 0
	}
	return in != 0
}

// parseSquares parses a list of squares, ranges and diagonals into a
// bitboard.
func parseSquares(s string) (uint64, error) {
	var set uint64
	for _, item := range strings.Split(s, ",") {
		diag := strings.HasPrefix(item, "diag:")
		lo, hi, isRange := strings.Cut(strings.TrimPrefix(item, "diag:"), "-")
		if !isRange {
			if diag {
				return 0, fmt.Errorf("%q: want diag:FROM-TO", item)
			}
			hi = lo
		}
		a, err1 := square(lo)
		b, err2 := square(hi)
		if err := cmp.Or(err1, err2); err != nil {
			return 0, fmt.Errorf("%q: %v", item, err)
		}
		if !diag {
			if a > b {
				return 0, fmt.Errorf("%q: empty range", item)
			}
			for sq := a; sq <= b; sq++ {
				set |= draughts.Bit(sq)
			}
			continue
		}
		ra, ca := draughts.RowCol(a)
		rb, cb := draughts.RowCol(b)
		if abs(rb-ra) != abs(cb-ca) {
			return 0, fmt.Errorf("%q: %d and %d are not on one diagonal", item, a, b)
		}
		dr, dc := sign(rb-ra), sign(cb-ca)
		for r, c := ra, ca; ; r, c = r+dr, c+dc {
			set |= draughts.Bit(draughts.SquareAt(r, c))
			if r == rb {
				break
			}
		}
	}
	return set, nil
}

// square parses a square number.
func square(s string) (int, error) {
	n, err := strconv.Atoi(s)
	if err != nil || n < 1 || n > 50 {
		return 0, fmt.Errorf("square %q: want 1 to 50", s)
	}
	return n, nil
}

func abs(x int) int { return max(x, -x) }

func sign(x int) int { return cmp.Compare(x, 0) }

// ValueCond is a condition on a value for White: rules=win, theory!=draw.
type ValueCond struct {
	Rules bool // the rules value; else the theoretical one
	Not   bool // != rather than =
	Value rules.Value
}

// ParseValueCond parses a value condition (rules|theory)(=|!=)(win|draw|loss),
// the value being White's: rules!=win selects the positions White does
// not win under the rules.
func ParseValueCond(s string) (ValueCond, error) {
	var c ValueCond
	which, value, ok := strings.Cut(s, "=")
	which, c.Not = strings.CutSuffix(which, "!")
	c.Rules = which == "rules"
	if !ok || !c.Rules && which != "theory" || c.Value.UnmarshalText([]byte(value)) != nil {
		return c, fmt.Errorf("value condition %q: want rules or theory, = or !=, then win, draw or loss", s)
	}
	return c, nil
}

func (c ValueCond) String() string {
	s := "theory"
	if c.Rules {
		s = "rules"
	}
	if c.Not {
		s += "!"
	}
	return s + "=" + c.Value.String()
}

func (c ValueCond) holds(e *Example) bool {
	v := e.Entry.Theory
	if c.Rules {
		v = e.Entry.Rules
	}
	return (v == c.Value) != c.Not
}
