// Package index ranks the placements of a material perfectly: every legal
// placement of the pieces gets a distinct number in [0, Size), with no holes.
//
//	m, err := index.ParseMaterial("KKMvK")
//	if err != nil { ... }
//	x := index.New(m)
//	i := x.Rank(p)  // p is a Placement of m; i is in [0, x.Size())
//	p = x.Unrank(i) // and back
//
// Side to move is not part of the index, and neither is the colour symmetry:
// KvM and MvK are separate materials, each indexed in full. For a material
// of kings alone, Orbits numbers the placements up to the four board
// symmetries that keep the dark squares (see orbit.go):
//
//	o := index.NewOrbits(x, threads)
//	n, stab := o.Rank(p) // p's orbit, and the symmetries that fix p
//
// Square sets are uint64 with bit i standing for square i+1 (bits 0..49).
// White men stand on squares 6..50, Black men on 1..45, kings anywhere.
//
// The layout is men-major: Rank(p) = RankMen(p.WhiteMen, p.BlackMen) *
// KingPlacements() + kingRank, so the positions sharing a men configuration
// are contiguous and the kings vary fastest. kingRank = rankWK*C(F-wk, bk) +
// rankBK, where F = 50 - men, rankWK ranks the white kings among the F free
// squares and rankBK the black kings among the F-wk squares left. A set of
// squares is ranked with the combinatorial number system over the available
// squares renumbered from 0 (occupied squares removed).
//
// Men configurations are ranked Black first, grouped by k, the number of
// Black men on 6..45: group k holds C(5, bm-k) * C(40, k) * C(45-k, wm)
// configurations, ordered by Black's men on 1..5, then Black's men on 6..45,
// then White's men on the 45-k squares of 6..50 that Black leaves free.
package index

import (
	"fmt"
	"math"
	"math/bits"
)

// Square sets used by the ranking.
const (
	squares         = 50
	allSquares      = 1<<squares - 1
	crownRow        = 1<<5 - 1                    // squares 1..5, White's crowning row
	blackMenSquares = 1<<45 - 1                   // squares 1..45
	whiteMenSquares = allSquares &^ crownRow      // squares 6..50
	middleSquares   = blackMenSquares &^ crownRow // squares 6..45, open to both colours' men
)

// binom[n][k] is the binomial coefficient C(n, k), 0 when k > n.
var binom = func() (t [squares + 1][squares + 1]int64) {
	for n := range t {
		t[n][0] = 1
		for k := 1; k <= n; k++ {
			t[n][k] = t[n-1][k-1] + t[n-1][k]
		}
	}
	return t
}()

// choose is C(n, k), 0 when k is out of range.
func choose(n, k int) int64 {
	if k < 0 || k > n {
		return 0
	}
	return binom[n][k]
}

// Placement is where the pieces stand, one square set per kind of piece.
type Placement struct{ WhiteMen, WhiteKings, BlackMen, BlackKings uint64 }

// Index is the perfect index of one material. It is immutable after New and
// safe for concurrent use.
type Index struct {
	m              Material
	menConfigs     int64
	kingPlacements int64
	blackKings     int64 // C(F-wk, bk): the ways to place the black kings
	// groupStart[k] is the rank of the first men configuration with k black
	// men on 6..45; groupStart[k+1] ends the group.
	groupStart [42]int64
}

// New returns the index of m. It panics if m breaks the limits ParseMaterial
// enforces or if its Size does not fit in an int64 (far beyond any table that
// can be built).
func New(m Material) *Index {
	if err := m.validate(); err != nil {
		panic(fmt.Sprintf("index: material %v: %v", m, err))
	}
	overflow := func() { panic(fmt.Sprintf("index: material %v: size overflows int64", m)) }
	mul := func(a, b int64) int64 {
		hi, lo := bits.Mul64(uint64(a), uint64(b))
		if hi != 0 || lo > math.MaxInt64 {
			overflow()
		}
		return int64(lo)
	}
	x := &Index{m: m}
	for k := 0; k <= 40; k++ {
		group := mul(mul(choose(5, m.BlackMen-k), choose(40, k)), choose(45-k, m.WhiteMen))
		x.groupStart[k+1] = x.groupStart[k] + group
		if x.groupStart[k+1] < 0 {
			overflow()
		}
	}
	x.menConfigs = x.groupStart[41]
	free := squares - m.Men()
	x.blackKings = choose(free-m.WhiteKings, m.BlackKings)
	x.kingPlacements = mul(choose(free, m.WhiteKings), x.blackKings)
	mul(x.menConfigs, x.kingPlacements) // Size must fit too
	return x
}

// Material returns the material x indexes.
func (x *Index) Material() Material { return x.m }

// Size returns the number of placements: MenConfigs() * KingPlacements().
func (x *Index) Size() int64 { return x.menConfigs * x.kingPlacements }

// MenConfigs returns the number of men configurations.
func (x *Index) MenConfigs() int64 { return x.menConfigs }

// KingPlacements returns the number of ways to place the kings around any one
// men configuration.
func (x *Index) KingPlacements() int64 { return x.kingPlacements }

// Rank returns the index of p, in [0, Size). p must be a legal placement of
// x's material; the result is meaningless otherwise. Rank does not allocate.
func (x *Index) Rank(p Placement) int64 {
	return x.RankMen(p.WhiteMen, p.BlackMen)*x.kingPlacements + x.RankKings(p)
}

// RankKings returns the rank of p's kings around its men, in
// [0, KingPlacements): Rank(p) - RankMen(p.WhiteMen, p.BlackMen)*KingPlacements().
// Placements that differ only in their kings need RankMen once.
func (x *Index) RankKings(p Placement) int64 {
	free := allSquares &^ (p.WhiteMen | p.BlackMen)
	return rankSet(p.WhiteKings, free)*x.blackKings + rankSet(p.BlackKings, free&^p.WhiteKings)
}

// Unrank returns the placement with index i, which must be in [0, Size).
// Unrank does not allocate.
func (x *Index) Unrank(i int64) Placement {
	whiteMen, blackMen := x.UnrankMen(i / x.kingPlacements)
	return x.UnrankKings(i%x.kingPlacements, whiteMen, blackMen)
}

// UnrankKings is the inverse of RankKings: the placement of the men
// whiteMen and blackMen with the kings of rank k, in [0, KingPlacements).
// Placements that share their men need UnrankMen once.
func (x *Index) UnrankKings(k int64, whiteMen, blackMen uint64) Placement {
	p := Placement{WhiteMen: whiteMen, BlackMen: blackMen}
	free := allSquares &^ (whiteMen | blackMen)
	p.WhiteKings = unrankSet(k/x.blackKings, x.m.WhiteKings, free)
	p.BlackKings = unrankSet(k%x.blackKings, x.m.BlackKings, free&^p.WhiteKings)
	return p
}

// RankMen returns the index of a men configuration, in [0, MenConfigs).
func (x *Index) RankMen(whiteMen, blackMen uint64) int64 {
	k := bits.OnesCount64(blackMen & middleSquares)
	r := rankSet(blackMen&crownRow, crownRow)*binom[40][k] + rankSet(blackMen&middleSquares, middleSquares)
	return x.groupStart[k] + r*binom[45-k][x.m.WhiteMen] + rankSet(whiteMen, whiteMenSquares&^blackMen)
}

// UnrankMen returns the men configuration with index c, in [0, MenConfigs).
func (x *Index) UnrankMen(c int64) (whiteMen, blackMen uint64) {
	k := 0
	for c >= x.groupStart[k+1] {
		k++
	}
	c -= x.groupStart[k]
	white := binom[45-k][x.m.WhiteMen]
	r := c / white
	blackMen = unrankSet(r/binom[40][k], x.m.BlackMen-k, crownRow) |
		unrankSet(r%binom[40][k], k, middleSquares)
	return unrankSet(c%white, x.m.WhiteMen, whiteMenSquares&^blackMen), blackMen
}

// rankSet ranks set among the subsets of avail of the same size, with the
// combinatorial number system: the j-th lowest square of set (from 1), being
// the c-th available square (from 0), contributes C(c, j).
func rankSet(set, avail uint64) int64 {
	var r int64
	for j := 1; set != 0; j++ {
		below := set&-set - 1
		r += binom[bits.OnesCount64(avail&below)][j]
		set &= set - 1
	}
	return r
}

// unrankSet is the inverse of rankSet: the subset of avail with n squares
// and rank r. From the top down, the j-th square is the c-th available one
// for the largest c with C(c, j) <= r; for j = 1 that is c = r.
func unrankSet(r int64, n int, avail uint64) uint64 {
	var set uint64
	c := bits.OnesCount64(avail)
	for j := n; j > 1; j-- {
		c--
		for binom[c][j] > r {
			c--
		}
		r -= binom[c][j]
		set |= nthSquare(avail, c)
	}
	if n > 0 {
		set |= nthSquare(avail, int(r))
	}
	return set
}

// nthSquare returns the c-th (from 0) lowest square of avail, by a
// branch-free broadword selection: find the byte holding it from the byte
// popcounts' prefix sums, then look it up inside that byte.
func nthSquare(avail uint64, c int) uint64 {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	b := avail - avail>>1&0x5555555555555555
	b = b&0x3333333333333333 + b>>2&0x3333333333333333
	b = (b + b>>4) & 0x0f0f0f0f0f0f0f0f
	prefix := b * ones // byte i: the number of squares in bytes 0..i
	// The bytes whose prefix is at most c lie below the square: count them
	// with a bytewise c - prefix >= 0 test (no byte borrows from the next).
	i := bits.OnesCount64(((uint64(c)*ones | highs) - prefix) & highs)
	c -= int((prefix << 8 >> (8 * i)) & 0xff) // squares in the bytes below
	return 1 << (8*i + int(selectInByte[avail>>(8*i)&0xff][c]))
}

// selectInByte[b][c] is the position of the c-th (from 0) set bit of b.
var selectInByte = func() (t [256][8]uint8) {
	for b := range t {
		c := 0
		for i := range 8 {
			if b>>i&1 != 0 {
				t[b][c] = uint8(i)
				c++
			}
		}
	}
	return t
}()

// Next returns the placement with the index after p's, and false after the
// last one. Walking a range with Next is several times faster than
// unranking every index.
func (x *Index) Next(p Placement) (Placement, bool) {
	free := allSquares &^ (p.WhiteMen | p.BlackMen)
	var ok bool
	if p.BlackKings, ok = nextSet(p.BlackKings, free&^p.WhiteKings); ok {
		return p, true
	}
	if p.WhiteKings, ok = nextSet(p.WhiteKings, free); ok {
		p.BlackKings = lowest(free&^p.WhiteKings, x.m.BlackKings)
		return p, true
	}
	c := x.RankMen(p.WhiteMen, p.BlackMen) + 1
	if c == x.menConfigs {
		return p, false
	}
	p.WhiteMen, p.BlackMen = x.UnrankMen(c)
	free = allSquares &^ (p.WhiteMen | p.BlackMen)
	p.WhiteKings = lowest(free, x.m.WhiteKings)
	p.BlackKings = lowest(free&^p.WhiteKings, x.m.BlackKings)
	return p, true
}

// nextSet returns the subset of avail of the same size as set that ranks
// next (rankSet order), or false if set is the last. Adding set's lowest
// square to set with the unavailable squares filled in carries through the
// lowest run of set's squares to the first free available square above it;
// the rest of the run restarts at the bottom of avail.
func nextSet(set, avail uint64) (uint64, bool) {
	if set == 0 {
		return 0, false
	}
	y := (set | ^avail) + set&-set
	high := y & avail
	if y < set || high&^set == 0 { // carried off the top
		return 0, false
	}
	return high | lowest(avail, bits.OnesCount64(set)-bits.OnesCount64(high)), true
}

// lowest returns the n lowest squares of avail.
func lowest(avail uint64, n int) uint64 {
	if n == 0 {
		return 0
	}
	return avail & (nthSquare(avail, n-1)<<1 - 1)
}
