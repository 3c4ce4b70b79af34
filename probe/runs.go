package probe

import (
	"encoding/binary"
	"math"
	"math/bits"
	"slices"
	"sync"
)

// runs is the value column of one block as the cache keeps it: in a
// compact form made of one-byte tokens, or decoded (raw) where that would
// be no larger.
//
// The compact form numbers the distinct values of the block, at most
// maxPalette, in a palette of k values. A token is a literal, the palette
// numbers of the next w positions as the digits of one number in base k
// (the first position the lowest digit), or a run, lens[j] positions of
// one palette number; layoutOf(k) gives w, the lengths and the meaning of
// each of the 256 tokens. A long run takes a few tokens, a short one goes
// into literals. The tokens are kept in groups of markEvery, each after
// its mark, the position where its first token starts, and a directory
// gives for every 1<<shift positions the last group that starts at or
// before them: a probe of position i reads the directory at i>>shift,
// searches the marks of the few groups between that entry and the next,
// then scans the tokens of one group, each a lookup of how many positions
// it covers. A column of one value is kept as that value (uniform).
//
// Measured with BenchmarkRuns on the slim tables of 2 to 5 pieces (dtb
// slim), the compact form takes a byte per 24 positions of the 4-piece
// value columns and 47 of the 5-piece ones, blocks' fixed parts included
// (their zstd blocks in the files: one per 41 and 76, dtb size).
type runs struct {
	// data holds the compact form's directory, then its groups (a
	// mark, then markEvery tokens, the last group fewer), then the values
	// of its palette from the fifth on (directory and marks 2 bytes
	// little-endian each), or the raw form.
	data  []byte
	lay   *layout // layoutOf(palette size) in the compact form, else nil
	pal   [4]byte // the first values of the palette; pal[0] is every position's in the uniform form
	ntok  int32   // the compact form's tokens
	ndir  uint16  // the entries of the directory
	shift uint8   // entry q of the directory is the last group that starts at or before position q<<shift
}

// groupLen is the bytes of a group: a mark and the tokens from it to the
// next (the last group may have fewer).
const groupLen = 2 + markEvery

// markEvery is the number of tokens from one mark to the next, and
// marksPerDir about the marks from one entry of the directory to the
// next: a probe scans fewer than markEvery tokens after a search of about
// marksPerDir marks. BenchmarkRuns chose them, against the positions a
// byte of the 4- and 5-piece value columns and the time of a lookup in
// the 3-piece ones: 8 and 2 take 20 and 25 positions a byte, 42 ns; 16
// and 2 23 and 29, 56 ns; 16 and 8 25 and 32, 66 ns (on a busy machine).
const (
	markEvery   = 16
	marksPerDir = 2
)

// maxPalette is the most values of a compact column.
const maxPalette = 128

// maxRunsPositions is the most positions a compact column holds: its
// marks are 16-bit positions. A block of more is kept raw (the tables
// this version writes have blocks of 1<<16 positions, codec.DefaultBlockSize).
const maxRunsPositions = 1 << 16

// topRun is about the longest run of a token (see newLayout).
const topRun = 1024

// at returns the value of position i, which must be one of the column's.
func (r *runs) at(i int) byte {
	if lay := r.lay; lay != nil {
		nd, ng := int(r.ndir), int(r.ntok)+2*numMarks(int(r.ntok))
		dir, groups := r.data[:2*nd], r.data[2*nd:2*nd+ng]
		q := i >> r.shift
		lo, hi := int(binary.LittleEndian.Uint16(dir[2*q:])), int(binary.LittleEndian.Uint16(dir[2*q+2:]))
		g := (lo + lastAtMost(groups[lo*groupLen:], hi-lo+1, uint16(i))) * groupLen
		p, codes := int(binary.LittleEndian.Uint16(groups[g:])), groups[g+2:min(g+groupLen, len(groups))]
		for t := 0; ; t++ {
			if q := p + int(lay.adv[codes[t]]); q <= i {
				p = q
				continue
			}
			v := int(lay.num[codes[t]][min(i-p, 7)])
			if v < len(r.pal) {
				return r.pal[v]
			}
			return r.data[len(dir)+len(groups)+v-len(r.pal)]
		}
	}
	if r.data == nil {
		return r.pal[0]
	}
	return r.data[i]
}

// numMarks returns the marks of nt tokens.
func numMarks(nt int) int { return (nt + markEvery - 1) / markEvery }

// lastAtMost returns the last of the n groups from the start of groups
// whose mark, its first 2 bytes, is at most x; the first one's must be.
func lastAtMost(groups []byte, n int, x uint16) int {
	lo := 0
	for n > 1 {
		h := n >> 1
		// lo += h where mark lo+h <= x, without a branch to mispredict.
		d := int(x) - int(binary.LittleEndian.Uint16(groups[(lo+h)*groupLen:]))
		lo += h &^ (d >> 63)
		n -= h
	}
	return lo
}

// size returns the bytes r holds beyond its fixed part.
func (r *runs) size() int64 { return int64(len(r.data)) }

// A layout is the meaning of the 256 tokens of a compact column with a
// palette of k values: tokens 0 to lits-1 are literals of w positions
// (lits = k^w), and each palette number v has the run tokens lits+v*nlens
// to lits+(v+1)*nlens-1, of lens[0] to lens[nlens-1] positions.
type layout struct {
	adv  [256]uint32   // the positions a token covers
	num  [256][8]uint8 // num[c][d]: the palette number of position min(d, 7) of token c
	w    int           // the positions of a literal; at most 7
	pow  [7]int        // the weight of a literal's digit d < w: k^d
	lits int           // the literal tokens
	lens []int         // the run lengths, ascending, lens[0] = w+1
	// least[n]: the index in lens of the longest run of at most n
	// positions, n from lens[0] to topRun.
	least []uint8
}

var layouts [maxPalette + 1]struct {
	once sync.Once
	l    *layout
}

// layoutOf returns the layout of a palette of k values, 2 <= k <= maxPalette.
func layoutOf(k int) *layout {
	s := &layouts[k]
	s.once.Do(func() { s.l = newLayout(k) })
	return s.l
}

// newLayout returns the layout of a palette of k values: literals of as
// many positions w as keep k^w at most 128 (at most 7), so that the other
// tokens, at least half, are runs; the run lengths of each value grow
// from w+1 geometrically to about topRun (measured on the 4-piece value
// columns: a top of 1024 codes them in fewer bytes than 256 or 65536).
func newLayout(k int) *layout {
	l := &layout{w: 1, lits: k, pow: [7]int{1}}
	for l.lits*k <= 128 {
		l.pow[l.w] = l.lits
		l.w++
		l.lits *= k
	}
	nlens := (256 - l.lits) / k
	q := math.Pow(float64(topRun)/float64(l.w+1), 1/float64(max(nlens-1, 1)))
	for j := range nlens {
		n := int(math.Round(float64(l.w+1) * math.Pow(q, float64(j))))
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

// codes holds the tokens of a column before they are copied to their
// exact size.
var codes = sync.Pool{New: func() any { return new([]byte) }}

// compact returns the column b, a byte a position, in the compact form,
// or uniform, or raw where the compact form would not be smaller. values,
// if not nil, are its distinct values (codec.Reader.ReadBlockValues),
// which spare a pass over it. The result does not refer to b.
func compact(b []byte, values []byte) runs {
	n := len(b)
	raw := func() runs { return runs{data: slices.Clone(b)} }
	if n > maxRunsPositions || n == 0 {
		return raw()
	}
	var num [256]uint8
	pal := values
	if pal == nil {
		var ok bool
		if pal, ok = palette(b); !ok {
			return raw()
		}
	}
	for i, v := range pal {
		num[v] = uint8(i)
	}
	if len(pal) == 1 {
		return runs{pal: [4]byte{pal[0]}}
	}
	lay := layoutOf(len(pal))
	cs := codes.Get().(*[]byte)
	defer codes.Put(cs)
	*cs = encode(b, &num, lay, (*cs)[:0])
	nt, more := len(*cs), pal[min(len(pal), 4):]
	nm := numMarks(nt)
	// The directory: an entry per 1<<shift positions, with one past the
	// last, shift such that marksPerDir marks or so lie between two.
	shift := uint8(3)
	for shift < 16 && n>>(shift+1) >= nm/marksPerDir {
		shift++
	}
	nd := (n-1)>>shift + 2
	size := nt + 2*nm + 2*nd + len(more)
	if size >= n {
		return raw()
	}
	r := runs{lay: lay, ntok: int32(nt), ndir: uint16(nd), shift: shift}
	copy(r.pal[:], pal)
	r.data = make([]byte, 2*nd, size)
	for t, pos := 0, 0; t < nt; t++ {
		if t%markEvery == 0 {
			r.data = binary.LittleEndian.AppendUint16(r.data, uint16(pos))
		}
		r.data = append(r.data, (*cs)[t])
		pos += int(lay.adv[(*cs)[t]])
	}
	groups := r.data[2*nd:]
	for q := range nd {
		g := lastAtMost(groups, nm, uint16(min(q<<shift, 1<<16-1)))
		binary.LittleEndian.PutUint16(r.data[2*q:], uint16(g))
	}
	r.data = append(r.data, more...)
	return r
}

// palette returns the distinct values of the column b, a byte a
// position, in the order met; ok is false if there are more than
// maxPalette.
func palette(b []byte) (pal []byte, ok bool) {
	var seen [256]bool
	for i := 0; i < len(b); i = runEnd(b, i) {
		if v := b[i]; !seen[v] {
			if len(pal) == maxPalette {
				return nil, false
			}
			seen[v] = true
			pal = append(pal, v)
		}
	}
	return pal, true
}

// runEnd returns the end of the run of b that starts at i: the first
// position after i whose byte differs, or len(b). It compares 8 bytes at
// a time.
func runEnd(b []byte, i int) int {
	pat := uint64(b[i]) * 0x0101010101010101
	j := i + 1
	for ; j+8 <= len(b); j += 8 {
		if x := binary.LittleEndian.Uint64(b[j:]) ^ pat; x != 0 {
			return j + bits.TrailingZeros64(x)/8
		}
	}
	for j < len(b) && b[j] == b[i] {
		j++
	}
	return j
}

// encode appends to codes the tokens of the column b, a byte a position,
// whose bytes have the palette numbers num: at each position the tokens
// of the longest run lengths that fit the run from there, then, from what
// is left of it (shorter than any run token) on, a literal.
func encode(b []byte, num *[256]uint8, lay *layout, codes []byte) []byte {
	w, lits, nlens, pow := lay.w, lay.lits, len(lay.lens), &lay.pow
	lens, least := lay.lens, lay.least
	first, top := lens[0], len(least)-1
	for p := 0; p < len(b); {
		if end := runEnd(b, p); end-p >= first {
			c, left := lits+int(num[b[p]])*nlens, end-p
			for left >= first {
				j := int(least[min(left, top)])
				codes = append(codes, byte(c+j))
				left -= lens[j]
			}
			if p = end - left; left == 0 {
				continue
			}
		}
		// A literal from p: its digits, those past the end 0, each times
		// its weight apart, so that no digit waits for another.
		c := 0
		for d, v := range b[p:min(p+w, len(b))] {
			c += int(num[v]) * pow[d]
		}
		codes = append(codes, byte(c))
		p += w
	}
	return codes
}
