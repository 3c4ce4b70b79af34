package runs

import (
	"math"
	"sync"
)

// A layout gives the meaning of the 256 tokens for a palette of k values.
// Tokens 0 to lits-1 are literals of w positions, where lits = k^w.
// Palette number v has the run tokens lits+v*nlens to lits+(v+1)*nlens-1.
// Its run token lits+v*nlens+j covers lens[j] positions.
// Tokens from lits+k*nlens on mean nothing.
type layout struct {
	adv  [256]uint32   // the positions a token covers; 0 if it means nothing
	num  [256][8]uint8 // num[c][d]: the palette number of position min(d, 7) of token c
	w    int           // the positions of a literal; at most 7
	pow  [7]int        // the weight of a literal's digit d < w: k^d
	lits int           // the number of literal tokens
	lens []int         // the run lengths, ascending; lens[0] = w+1
	// least[n] is the index in lens of the longest run of at most n
	// positions. It serves n from lens[0] to topRun.
	least []uint8
	k     int // the palette size
}

// topRun is about the longest run of a token (see newLayout).
const topRun = 1024

var layouts [MaxPalette + 1]struct {
	once sync.Once
	l    *layout
}

// layoutOf returns the layout of a palette of k values, 2 <= k <= MaxPalette.
func layoutOf(k int) *layout {
	s := &layouts[k]
	s.once.Do(func() { s.l = newLayout(k) })
	return s.l
}

// runLengths returns nlens run lengths, before rounding, for literals of
// w positions. They grow geometrically from w+1 to topRun. newLayout
// rounds each to the nearest integer, at least one more than the one
// before. TestLengths checks that no length lies within 1e-6 of a half.
// So any pow accurate to a few ulps gives the same lengths. The format
// (docs/format.md) specifies them by this formula.
func runLengths(w, nlens int) []float64 {
	q := math.Pow(float64(topRun)/float64(w+1), 1/float64(max(nlens-1, 1)))
	x := make([]float64, nlens)
	for j := range x {
		x[j] = float64(w+1) * math.Pow(q, float64(j))
	}
	return x
}

// newLayout returns the layout of a palette of k values. A literal covers
// the most positions w that keep k^w at most 128, so w is at most 7. At
// least half the tokens are then runs. The run lengths of each value grow
// geometrically from w+1 to topRun.
func newLayout(k int) *layout {
	l := &layout{w: 1, lits: k, pow: [7]int{1}, k: k}
	for l.lits*k <= 128 {
		l.pow[l.w] = l.lits
		l.w++
		l.lits *= k
	}
	nlens := (256 - l.lits) / k
	for j, x := range runLengths(l.w, nlens) {
		n := int(math.Round(x))
		if j > 0 {
			n = max(n, l.lens[j-1]+1)
		}
		l.lens = append(l.lens, n)
	}
	for c := range l.lits {
		l.adv[c] = uint32(l.w)
		for d, x := 0, c; d < 8; d++ {
			l.num[c][d] = uint8(x % k)
			if d < l.w-1 {
				x /= k
			}
		}
	}
	for v := range k {
		for j, n := range l.lens {
			c := l.lits + v*nlens + j
			l.adv[c] = uint32(n)
			for d := range 8 {
				l.num[c][d] = uint8(v)
			}
		}
	}
	l.least = make([]uint8, max(topRun, l.lens[nlens-1])+1)
	for n, j := 0, 0; n < len(l.least); n++ {
		for j+1 < nlens && l.lens[j+1] <= n {
			j++
		}
		l.least[n] = uint8(j)
	}
	return l
}

// isRun reports whether token c is a run, not a literal.
func (l *layout) isRun(c byte) bool { return int(c) >= l.lits }
