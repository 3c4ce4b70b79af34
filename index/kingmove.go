package index

import "math/bits"

// A KingMove ranks the placements that differ from one placement only in
// where one king stands, faster than RankKings: a retrograde analysis
// ranks every square a king may have come from, a check every square it
// may go to.
//
//	km := x.MoveWhiteKing(p, king) // king: the square-set bit of one of p.WhiteKings
//	for each free square sq: r := km.RankTo(sq) // == x.RankKings(p with the king on sq)
type KingMove struct {
	blackKings int64  // Index.blackKings; 1 where a black king moves
	others     uint64 // the kings of the moving king's colour that stay
	free       uint64 // the squares the moving king's colour may stand on
	black      uint64 // the black kings, where a white king moves
	// whiteRank[j] is the rank of the moving colour's kings, less the
	// moved king's own term, when j of the others stand below it, plus
	// the white kings' term where a black king moves; blackRank[j] the
	// rank of the black kings when j of them stand below a moving white
	// king.
	whiteRank, blackRank [8]int64
}

// MoveWhiteKing returns the KingMove of the white king on square-set bit
// king of p. p must be a legal placement of x's material.
func (x *Index) MoveWhiteKing(p Placement, king uint64) KingMove {
	k := KingMove{blackKings: x.blackKings, others: p.WhiteKings &^ king, black: p.BlackKings}
	k.free = allSquares &^ (p.WhiteMen | p.BlackMen)
	k.whiteRank = othersRank(k.others, k.free)
	// The black kings rank among the free squares without white kings:
	// the moved king's square is not free for those above it.
	avail := k.free &^ k.others
	var below, above [8]int64
	i := 0
	for set := p.BlackKings; set != 0; set &= set - 1 {
		i++
		c := bits.OnesCount64(avail & (set&-set - 1))
		// With no square below, the moved king cannot stand below it: c-1
		// is then never read, and 0 stands in for it.
		below[i], above[i] = binom[c][i], binom[max(c-1, 0)][i]
	}
	k.blackRank = splitSums(below, above, i)
	return k
}

// MoveBlackKing returns the KingMove of the black king on square-set bit
// king of p. p must be a legal placement of x's material. The white kings
// stay: their term is a constant, and the black king moves among the
// squares they leave free.
func (x *Index) MoveBlackKing(p Placement, king uint64) KingMove {
	free := allSquares &^ (p.WhiteMen | p.BlackMen)
	k := KingMove{blackKings: 1, others: p.BlackKings &^ king, free: free &^ p.WhiteKings}
	k.whiteRank = othersRank(k.others, k.free)
	white := rankSet(p.WhiteKings, free) * x.blackKings
	for j := range k.whiteRank {
		k.whiteRank[j] += white
	}
	return k
}

// othersRank returns, for j in 0..7, the rank among free of the kings
// others, less the moved king's term, when j of them stand below it.
// Term i of the others' rank (from 1) is C(c, i) below the moved king and
// C(c, i+1) above it, c the free squares below the i-th.
func othersRank(others, free uint64) [8]int64 {
	var below, above [8]int64
	i := 0
	for set := others; set != 0; set &= set - 1 {
		i++
		c := bits.OnesCount64(free & (set&-set - 1))
		below[i], above[i] = binom[c][i], binom[c][i+1]
	}
	return splitSums(below, above, i)
}

// splitSums returns, for j in 0..n, the sum of below[1..j] and
// above[j+1..n].
func splitSums(below, above [8]int64, n int) (s [8]int64) {
	for i := 1; i <= n; i++ {
		s[0] += above[i]
	}
	for j := 1; j <= n; j++ {
		s[j] = s[j-1] - above[j] + below[j]
	}
	return s
}

// RankTo returns the rank of the kings, as RankKings does, with the moved
// king on the square-set bit sq, a square without a piece (or the one
// the king left).
func (k *KingMove) RankTo(sq uint64) int64 {
	under := sq - 1
	j := bits.OnesCount64(k.others & under)
	white := k.whiteRank[j] + binom[bits.OnesCount64(k.free&under)][j+1]
	return white*k.blackKings + k.blackRank[bits.OnesCount64(k.black&under)]
}
