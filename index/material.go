package index

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strings"
)

// maxMenPerSide is the most men a side ever has.
const maxMenPerSide = 20

// Material is the number of pieces of each kind on the board.
type Material struct{ WhiteMen, WhiteKings, BlackMen, BlackKings int }

// ParseMaterial parses a material name such as "KKMvK": White's kings, then
// White's men, a 'v', then Black's kings and men. Each side needs at least
// one piece, at most 20 men and at most 50 pieces in all.
func ParseMaterial(s string) (Material, error) {
	fail := func(format string, a ...any) (Material, error) {
		return Material{}, fmt.Errorf("material %q: "+format, append([]any{s}, a...)...)
	}
	if s == "" {
		return fail("empty name")
	}
	var m Material
	men, kings := &m.WhiteMen, &m.WhiteKings
	black, seenMan := false, false
	pos := 0
	for _, r := range s {
		pos++
		switch {
		case r == 'K' && seenMan:
			return fail("king after a man at position %d (kings come first)", pos)
		case r == 'K':
			*kings++
		case r == 'M':
			*men++
			seenMan = true
		case r == 'v' && !black:
			men, kings = &m.BlackMen, &m.BlackKings
			black, seenMan = true, false
		default:
			return fail("unexpected %q at position %d", r, pos)
		}
	}
	if !black {
		return fail("missing 'v' between White's and Black's pieces")
	}
	if err := m.validate(); err != nil {
		return fail("%v", err)
	}
	return m, nil
}

// validate reports whether m is within the limits ParseMaterial accepts.
func (m Material) validate() error {
	switch {
	case min(m.WhiteMen, m.WhiteKings, m.BlackMen, m.BlackKings) < 0:
		return errors.New("negative piece count")
	case m.WhiteMen+m.WhiteKings == 0:
		return errors.New("White has no pieces")
	case m.BlackMen+m.BlackKings == 0:
		return errors.New("Black has no pieces")
	case m.WhiteMen > maxMenPerSide:
		return fmt.Errorf("White has %d men, at most %d", m.WhiteMen, maxMenPerSide)
	case m.BlackMen > maxMenPerSide:
		return fmt.Errorf("Black has %d men, at most %d", m.BlackMen, maxMenPerSide)
	case m.Pieces() > squares:
		return fmt.Errorf("%d pieces, at most %d", m.Pieces(), squares)
	}
	return nil
}

// String returns the canonical name of m, e.g. "KKMvK".
func (m Material) String() string {
	var b strings.Builder
	b.WriteString(strings.Repeat("K", max(m.WhiteKings, 0)))
	b.WriteString(strings.Repeat("M", max(m.WhiteMen, 0)))
	b.WriteByte('v')
	b.WriteString(strings.Repeat("K", max(m.BlackKings, 0)))
	b.WriteString(strings.Repeat("M", max(m.BlackMen, 0)))
	return b.String()
}

// Pieces returns the number of pieces of both colours.
func (m Material) Pieces() int { return m.WhiteMen + m.WhiteKings + m.BlackMen + m.BlackKings }

// Slots bounds the slots of materials: 0 <= m.Slot() < Slots.
const Slots = 1 << 16

// Slot returns a number that tells m apart from every other material with
// at most 15 pieces of each kind, in the order of the counts (White's men,
// White's kings, Black's men, Black's kings): a map key quicker to hash
// than m, or an index into an array of Slots.
func (m Material) Slot() int {
	return m.WhiteMen<<12 | m.WhiteKings<<8 | m.BlackMen<<4 | m.BlackKings
}

// Men returns the number of men of both colours.
func (m Material) Men() int { return m.WhiteMen + m.BlackMen }

// Flip returns m with the colours swapped: KKMvK becomes KvKKM.
func (m Material) Flip() Material {
	return Material{WhiteMen: m.BlackMen, WhiteKings: m.BlackKings, BlackMen: m.WhiteMen, BlackKings: m.WhiteKings}
}

// Materials returns every material with 2 to maxPieces pieces (at most 50)
// and at least one piece on each side, in dependency order: by number of
// pieces, then by number of men, then by name. Every capture and every
// crowning leads to a material that comes earlier in the list.
func Materials(maxPieces int) []Material {
	var ms []Material
	for n := 2; n <= min(maxPieces, squares); n++ {
		for wk := 0; wk <= n; wk++ {
			for wm := 0; wk+wm <= n; wm++ {
				for bk := 0; wk+wm+bk <= n; bk++ {
					m := Material{WhiteMen: wm, WhiteKings: wk, BlackMen: n - wk - wm - bk, BlackKings: bk}
					if m.validate() == nil {
						ms = append(ms, m)
					}
				}
			}
		}
	}
	slices.SortFunc(ms, Compare)
	return ms
}

// Compare orders materials as Materials lists them: by pieces, then by
// men, then by name.
func Compare(a, b Material) int {
	return cmp.Or(cmp.Compare(a.Pieces(), b.Pieces()), cmp.Compare(a.Men(), b.Men()),
		strings.Compare(a.String(), b.String()))
}
