package index

import (
	"fmt"
	"math/bits"
	"sort"
	"sync"
)

// Board symmetries. Four maps of the board keep its dark squares: the
// identity, the half turn, and the reflections in the two long
// diagonals (the dark one, 5-46, whose squares they fix, and the light
// one). A placement of kings alone means the same game under each of
// them: kings move and capture alike in every direction, and no rule
// names a square but the long diagonal, which all four keep.
//
// An orbit is a placement's images under the four. Orbits numbers the
// orbits of a material of kings alone, as Index numbers its placements:
// a retrograde analysis solves one placement of each (its
// representative) and gives the others its values.
//
//	o := index.NewOrbits(x, threads) // x: the index of a material of kings alone
//	n, stab := o.Rank(p)             // p's orbit, in [0, o.Len()); stab: the symmetries that fix p
//	i := o.Representative(n)         // the index in x of the orbit's representative

// halfTurn returns the image of a square set under the half turn.
func halfTurn(set uint64) uint64 { return bits.Reverse64(set) >> (64 - squares) }

// reflectTable maps each byte of a square set (square 8b+1 to 8b+8 for
// byte b) to its image under the reflection in the light long diagonal,
// row r and column c going to row c and column r.
var reflectTable = func() (t [7][256]uint64) {
	var image [squares]int
	for sq := range squares {
		row := sq / 5
		col := 2*(sq%5) + 1 - row%2
		image[sq] = 5*col + row/2 // row and column swap; the dark squares stay dark
	}
	for b := range t {
		for v := range 256 {
			for i := range 8 {
				if sq := 8*b + i; v>>i&1 != 0 && sq < squares {
					t[b][v] |= 1 << image[sq]
				}
			}
		}
	}
	return t
}()

// reflect returns the image of a square set under the reflection in the
// light long diagonal; its half turn is the image under the reflection in
// the dark one.
func reflect(set uint64) uint64 {
	var r uint64
	for b := 0; set != 0; b, set = b+1, set>>8 {
		r |= reflectTable[b][set&0xff]
	}
	return r
}

// Canonical returns the representative of the orbit of p, a placement of
// kings alone, and the number of symmetries that leave p as it is (1, 2
// or 4): its images' least by white kings, then black kings, as square
// sets.
func Canonical(p Placement) (Placement, int) {
	return least(images(p.WhiteKings), images(p.BlackKings))
}

// images returns the images of a square set under the four symmetries,
// in the order of squareImage.
func images(set uint64) [4]uint64 {
	r := reflect(set)
	return [4]uint64{set, halfTurn(set), r, halfTurn(r)}
}

// least returns the least of the placements whose white and black kings
// are white[s] and black[s] (s = 0 the placement itself, the others its
// images), by white kings, then black kings, as square sets, and the
// number of them that are the placement itself.
func least(white, black [4]uint64) (Placement, int) {
	bw, bb, stab := white[0], black[0], 1
	for s := 1; s < 4; s++ {
		switch w, b := white[s], black[s]; {
		case w == white[0] && b == black[0]:
			stab++
		case w < bw || w == bw && b < bb:
			bw, bb = w, b
		}
	}
	return Placement{WhiteKings: bw, BlackKings: bb}, stab
}

// OrbitCount returns the number of orbits of the placements of m, a
// material of kings alone, by Burnside's lemma: the mean over the four
// symmetries of the placements each leaves as they are.
func OrbitCount(m Material) int64 {
	// A symmetry fixes a placement where each colour's kings fill
	// squares it fixes and pairs of squares it swaps: the half turn and
	// the light diagonal's reflection fix no square and swap 25 pairs,
	// the dark diagonal's fixes its 10 squares and swaps 20 pairs.
	fixed := func(fix, swapped int) int64 {
		var n int64
		for a := 0; a <= m.WhiteKings; a++ {
			if (m.WhiteKings-a)%2 != 0 {
				continue
			}
			for c := 0; c <= m.BlackKings; c++ {
				if (m.BlackKings-c)%2 != 0 {
					continue
				}
				b, d := (m.WhiteKings-a)/2, (m.BlackKings-c)/2
				n += choose(fix, a) * choose(swapped, b) * choose(fix-a, c) * choose(swapped-b, d)
			}
		}
		return n
	}
	x := New(m)
	return (x.Size() + 2*fixed(0, 25) + fixed(10, 20)) / 4
}

// Orbits numbers the orbits of the placements of a material of kings
// alone: orbit n is the n-th representative (see Canonical) in the order
// of the index. It is immutable after NewOrbits and safe for concurrent
// use. It takes a bit for each placement, and a little more: about a
// seventh of a byte.
type Orbits struct {
	x     *Index
	lines []orbitLine
	n     int64
	// sampled[s] is the line of the representative of orbit s*sampleEvery.
	sampled []int64
}

// An orbitLine marks the representatives among lineBits consecutive
// placements, after the number of representatives before them: a rank
// reads one cache line.
type orbitLine struct {
	before uint64
	bits   [lineWords]uint64
}

const (
	lineWords   = 7
	lineBits    = 64 * lineWords
	sampleEvery = 1 << 10
)

// NewOrbits returns the orbits of the placements of x, which must be a
// material of kings alone, marking the representatives on up to threads
// goroutines.
func NewOrbits(x *Index, threads int) *Orbits {
	if x.m.Men() != 0 {
		panic(fmt.Sprintf("index: orbits of %v, which has men", x.m))
	}
	o := &Orbits{x: x, lines: make([]orbitLine, (x.Size()+lineBits-1)/lineBits)}
	var wg sync.WaitGroup
	per := (int64(len(o.lines)) + int64(threads) - 1) / int64(max(threads, 1))
	for lo := int64(0); lo < int64(len(o.lines)); lo += per {
		wg.Add(1)
		go func(lo, hi int64) {
			defer wg.Done()
			o.mark(lo, hi)
		}(lo, min(lo+per, int64(len(o.lines))))
	}
	wg.Wait()
	for l := range o.lines {
		line := &o.lines[l]
		line.before = uint64(o.n)
		for _, w := range line.bits {
			o.n += int64(bits.OnesCount64(w))
		}
	}
	o.sampled = make([]int64, (o.n+sampleEvery-1)/sampleEvery)
	for s := range o.sampled {
		o.sampled[s] = o.lineOf(int64(s)*sampleEvery, 0, int64(len(o.lines)))
	}
	return o
}

// mark marks the representatives of lines lo to hi.
func (o *Orbits) mark(lo, hi int64) {
	i, end := lo*lineBits, min(hi*lineBits, o.x.Size())
	if i >= end {
		return
	}
	p := o.x.UnrankKings(i, 0, 0)
	for ; i < end; i++ {
		if c, _ := Canonical(p); c == p {
			o.lines[i/lineBits].bits[i%lineBits/64] |= 1 << (i % 64)
		}
		p, _ = o.x.Next(p)
	}
}

// lineOf returns the line, among lines lo to hi, holding the
// representative of orbit n.
func (o *Orbits) lineOf(n, lo, hi int64) int64 {
	return lo + int64(sort.Search(int(hi-lo), func(l int) bool { return int64(o.lines[lo+int64(l)].before) > n })) - 1
}

// Len returns the number of orbits.
func (o *Orbits) Len() int64 { return o.n }

// Rank returns the orbit of p, a placement of o's material, and the
// number of symmetries that leave p as it is.
func (o *Orbits) Rank(p Placement) (n int64, stab int) {
	c, stab := Canonical(p)
	return o.RankRepresentative(o.x.RankKings(c)), stab
}

// RankRepresentative returns the orbit whose representative has index
// i, faster than Rank.
func (o *Orbits) RankRepresentative(i int64) int64 {
	line := &o.lines[i/lineBits]
	w := i % lineBits / 64
	n := int64(line.before) + int64(bits.OnesCount64(line.bits[w]&(1<<(i%64)-1)))
	for _, b := range line.bits[:w] {
		n += int64(bits.OnesCount64(b))
	}
	return n
}

// Representative returns the index of the representative of orbit n, in
// [0, o.Len()).
func (o *Orbits) Representative(n int64) int64 {
	s := n / sampleEvery
	hi := int64(len(o.lines))
	if s+1 < int64(len(o.sampled)) {
		hi = o.sampled[s+1] + 1
	}
	l := o.lineOf(n, o.sampled[s], hi)
	line := &o.lines[l]
	left := n - int64(line.before)
	for w, b := range line.bits {
		if c := int64(bits.OnesCount64(b)); left >= c {
			left -= c
			continue
		}
		for ; left > 0; left-- {
			b &= b - 1
		}
		return l*lineBits + int64(w)*64 + int64(bits.TrailingZeros64(b))
	}
	panic("index: orbit out of range")
}

// IsRepresentative reports whether placement i of o's material is the
// representative of its orbit.
func (o *Orbits) IsRepresentative(i int64) bool {
	return o.lines[i/lineBits].bits[i%lineBits/64]>>(i%64)&1 != 0
}

// squareImage[s][i] is the image of square i+1 under symmetry s: the
// identity, the half turn, the reflection in the light long diagonal and
// in the dark one (see images).
var squareImage = func() (t [4][squares]uint64) {
	for i := range squares {
		for s, im := range images(1 << i) {
			t[s][i] = im
		}
	}
	return t
}()

// An OrbitMove ranks the orbits of the placements that differ from one
// placement only in where one king stands, faster than Rank: a
// retrograde analysis ranks every square a king may have come from, a
// check every square it may go to. The images of the kings that stay are
// found once.
//
//	om := o.MoveWhiteKing(p, king) // king: the square-set bit of one of p.WhiteKings
//	for each free square sq: n, stab := om.RankTo(sq) // == o.Rank(p with the king on sq)
type OrbitMove struct {
	o *Orbits
	// by symmetry (see squareImage): the images of the kings of the
	// moving king's colour that stay, and of the other colour's
	stay, other [4]uint64
	black       bool // the moving king is black
}

// MoveWhiteKing returns the OrbitMove of the white king on square-set bit
// king of p, a placement of o's material.
func (o *Orbits) MoveWhiteKing(p Placement, king uint64) OrbitMove {
	return OrbitMove{o: o, stay: images(p.WhiteKings &^ king), other: images(p.BlackKings)}
}

// MoveBlackKing returns the OrbitMove of the black king on square-set bit
// king of p, a placement of o's material.
func (o *Orbits) MoveBlackKing(p Placement, king uint64) OrbitMove {
	return OrbitMove{o: o, stay: images(p.BlackKings &^ king), other: images(p.WhiteKings), black: true}
}

// RankTo returns the orbit of the placement with the moved king on the
// square-set bit sq, a square without a piece, and the number of
// symmetries that leave it as it is, as Rank does.
func (m *OrbitMove) RankTo(sq uint64) (n int64, stab int) {
	// least's loop, written out: RankTo runs for every predecessor of a
	// decided orbit, and a call to least costs it 15%.
	i := bits.TrailingZeros64(sq)
	w0, b0 := m.stay[0]|sq, m.other[0]
	if m.black {
		w0, b0 = b0, w0
	}
	bw, bb := w0, b0
	stab = 1
	for s := 1; s < 4; s++ {
		w, b := m.stay[s]|squareImage[s][i], m.other[s]
		if m.black {
			w, b = b, w
		}
		switch {
		case w == w0 && b == b0:
			stab++
		case w < bw || w == bw && b < bb:
			bw, bb = w, b
		}
	}
	return m.o.RankRepresentative(m.o.x.RankKings(Placement{WhiteKings: bw, BlackKings: bb})), stab
}
