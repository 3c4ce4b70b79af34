// Package runs codes a column of bytes that takes few distinct values,
// such as a block of a table's value column, as a stream of one-byte
// tokens, runs of one value or literals of a few positions, and reads
// any position of it in place. The tokens are a block's stored form in
// the table files (package codec; docs/format.md, section 4.3) and what
// the prober's cache keeps (package probe), so a block read from a file
// is looked up without being decoded:
//
//	form, ok := runs.Append(nil, block) // the stored form, if it is shorter than block
//	c, err := runs.Parse(form, len(block))
//	v := c.At(i) // block[i]
//	b, err := runs.Expand(nil, form, len(block)) // block
//
// Compact makes a Column from the bytes themselves, for a block stored in
// another form.
//
// # The form
//
// The stored form of a column of n bytes (at most MaxPositions) with k
// distinct values (2 <= k <= MaxPalette) is
//
//	t   the tokens, one byte each
//	k   the palette: the k values, ascending
//	1   k
//	1   0
//
// Position by position, a token stands for the next positions: with the
// palette numbers (a value's index in the palette) that layoutOf(k) gives
// it, a literal for w positions, the digits of one number in base k, the
// first position the lowest digit; a run for lens[j] positions of one
// palette number. A long run takes a few tokens, a short one goes into
// literals. Runs end at or before n; a literal may pass n only as the last
// token, and its digits past n are 0.
//
// # The column
//
// A Column holds the tokens in groups of markEvery, the marks of the
// groups, each the position where the group's first token starts, side
// by side, and a directory that gives for every 1<<shift positions the
// group that holds them: At(i) reads the directory at i>>shift, searches
// the marks of the few groups between that entry and the next, then
// scans the tokens of one group, each a lookup of how many positions it
// covers. Parse makes the marks and the directory in one pass over the
// tokens, which it checks on the way. A column of one value is kept as
// that value (uniform), one whose tokens would take as many bytes as it
// has positions as its bytes (raw).
//
// Measured with the prober's BenchmarkRuns on the slim tables of 2 to 5
// pieces (dtb slim), a Column takes a byte per 24 positions of the
// 4-piece value columns and 47 of the 5-piece ones.
package runs

import (
	"encoding/binary"
	"errors"
	"math/bits"
	"slices"
	"sync"
)

const (
	// MaxPalette is the most distinct values of a stored form.
	MaxPalette = 128
	// MaxPositions is the most positions of a stored form: a Column's
	// marks are 16-bit positions.
	MaxPositions = 1 << 16
)

// ErrForm is the error of Parse and Expand for bytes that are not the
// stored form of a column of the length given.
var ErrForm = errors.New("bad run form")

// A Column is a column of bytes in the form a lookup reads in place.
type Column struct {
	// data holds the directory, the marks (group g's is the position
	// where its first token starts; directory and marks 2 bytes
	// little-endian each), the tokens (group g is tokens g*markEvery to
	// (g+1)*markEvery-1), then the values of the palette from the fifth
	// on; or the column's bytes in the raw form, nil in the uniform form.
	data  []byte
	lay   *layout // layoutOf(palette size), nil in the raw and uniform forms
	pal   [4]byte // the first values of the palette; pal[0] is every position's in the uniform form
	marks int32   // where the marks start in data, after the directory
	codes int32   // where the tokens start
	more  int32   // where the values past pal start, after the tokens
	shift uint8   // entry q of the directory is the group that holds position q<<shift
}

// markEvery is the number of tokens from one mark to the next, and
// marksPerDir about the marks from one entry of the directory to the
// next: a lookup scans fewer than markEvery tokens after a search of
// about marksPerDir marks. The prober's BenchmarkRuns chose them, against
// the positions a byte of the 4- and 5-piece value columns and the time
// of a lookup in the 3-piece ones: 8 and 2 take 20 and 25 positions a
// byte, 42 ns; 16 and 2 23 and 29, 56 ns; 16 and 8 25 and 32, 66 ns (on
// a busy machine).
const (
	markEvery   = 16
	marksPerDir = 2
)

// At returns the value of position i, which must be one of the column's.
func (c *Column) At(i int) byte {
	if lay := c.lay; lay != nil {
		q := 2 * (i >> c.shift)
		lo, hi := int(binary.LittleEndian.Uint16(c.data[q:])), int(binary.LittleEndian.Uint16(c.data[q+2:]))
		marks := c.data[c.marks:c.codes]
		g := lo + lastAtMost(marks[2*lo:], hi-lo+1, uint16(i))
		p, t := int(binary.LittleEndian.Uint16(marks[2*g:])), int(c.codes)+g*markEvery
		codes := c.data[t:min(t+markEvery, int(c.more))]
		for t := 0; ; t++ {
			if q := p + int(lay.adv[codes[t]]); q <= i {
				p = q
				continue
			}
			v := int(lay.num[codes[t]][min(i-p, 7)])
			if v < len(c.pal) {
				return c.pal[v]
			}
			return c.data[int(c.more)+v-len(c.pal)]
		}
	}
	if c.data == nil {
		return c.pal[0]
	}
	return c.data[i]
}

// Size returns the bytes c holds beyond its fixed part.
func (c *Column) Size() int64 { return int64(len(c.data)) }

// numMarks returns the marks of nt tokens.
func numMarks(nt int) int { return (nt + markEvery - 1) / markEvery }

// lastAtMost returns the last of the first n marks whose value is at
// most x; the first one's must be.
func lastAtMost(marks []byte, n int, x uint16) int {
	lo := 0
	for n > 1 {
		h := n >> 1
		// lo += h where mark lo+h <= x, without a branch to mispredict.
		d := int(x) - int(binary.LittleEndian.Uint16(marks[2*(lo+h):]))
		lo += h &^ (d >> 63)
		n -= h
	}
	return lo
}

// forms holds a stored form while Compact makes a Column of it.
var forms = sync.Pool{New: func() any { return new([]byte) }}

// Compact returns the column b in the form a lookup reads: tokens, or
// uniform, or raw where the tokens would take as many bytes. values, if
// not nil, are its distinct values, ascending (codec.Reader gives them
// for a packed block), which spare a pass over it. The result does not
// refer to b.
func Compact(b []byte, values []byte) Column {
	if len(b) == 0 {
		return Column{data: []byte{}}
	}
	var seen [256]byte
	pal := values
	if pal == nil {
		pal = palette(b, &seen)
	}
	if len(pal) == 1 {
		return Column{pal: [4]byte{pal[0]}}
	}
	buf := forms.Get().(*[]byte)
	defer forms.Put(buf)
	form, ok := appendForm((*buf)[:0], b, pal)
	*buf = form
	if ok {
		if c, _ := index(form, len(b)); c.Size() < int64(len(b)) {
			return c
		}
	}
	return Column{data: slices.Clone(b)}
}

// Append appends to dst the stored form of the column b and reports true,
// or returns dst and false where b has fewer than 2 or more than
// MaxPalette values, more than MaxPositions bytes, or a stored form no
// shorter than itself.
func Append(dst, b []byte) ([]byte, bool) {
	if len(b) == 0 || len(b) > MaxPositions {
		return dst, false
	}
	var buf [256]byte
	return appendForm(dst, b, palette(b, &buf))
}

// appendForm is Append of b, whose values are pal, ascending.
func appendForm(dst, b, pal []byte) ([]byte, bool) {
	k := len(pal)
	if k < 2 || k > MaxPalette || len(b) > MaxPositions {
		return dst, false
	}
	var num [256]uint8
	for i, v := range pal {
		num[v] = uint8(i)
	}
	start := len(dst)
	dst = encode(b, &num, layoutOf(k), dst)
	dst = append(append(dst, pal...), byte(k), 0)
	if len(dst)-start >= len(b) {
		return dst[:start], false
	}
	return dst, true
}

// Parse returns the column whose stored form is form, n bytes, or
// ErrForm if form is not one: its tokens, or raw where they would take as
// many bytes. The result does not refer to form.
func Parse(form []byte, n int) (Column, error) {
	if err := checkPalette(form, n); err != nil {
		return Column{}, err
	}
	c, err := index(form, n)
	if err != nil {
		return Column{}, err
	}
	if c.Size() < int64(n) {
		return c, nil
	}
	b, _ := Expand(nil, form, n)
	return Column{data: b}, nil
}

// Expand appends to dst the n bytes of the column whose stored form is
// form, or returns ErrForm if form is not one.
func Expand(dst, form []byte, n int) ([]byte, error) {
	if err := check(form, n); err != nil {
		return dst, err
	}
	tokens, pal, lay := split(form)
	return expand(dst, tokens, pal, lay, n), nil
}

// expand appends to dst the n bytes that tokens stand for, with the
// palette pal and its layout lay.
func expand(dst, tokens, pal []byte, lay *layout, n int) []byte {
	start := len(dst)
	dst = slices.Grow(dst, n)[:start+n]
	out := dst[start:]
	// word[c]: the bytes token c stands for, the first in the low byte,
	// 8 of them, of which its first adv[c] count; written 8 at a time.
	var word [256]uint64
	for c := range lay.lits + len(pal)*len(lay.lens) {
		for d := 7; d >= 0; d-- {
			word[c] = word[c]<<8 | uint64(pal[lay.num[c][d]])
		}
	}
	p := 0
	for _, c := range tokens {
		w, next := word[c], p+int(lay.adv[c])
		if next-p <= 8 && p+8 <= n {
			binary.LittleEndian.PutUint64(out[p:], w)
			p = next
			continue
		}
		// A long run, or a token near the end: 8 bytes at a time, then
		// byte by byte (a run's bytes are all alike, so the shifts keep
		// them).
		end := min(next, n)
		for ; p+8 <= end; p += 8 {
			binary.LittleEndian.PutUint64(out[p:], w)
		}
		for ; p < end; p, w = p+1, w>>8 {
			out[p] = byte(w)
		}
		p = next
	}
	return dst
}

// Decoded returns c, a column of n positions, with its bytes decoded, a
// byte a position: a lookup then reads its position without a scan. A
// column without tokens is returned as it is.
func (c *Column) Decoded(n int) Column {
	lay := c.lay
	if lay == nil {
		return *c
	}
	pal := append(c.pal[:min(lay.k, len(c.pal)):min(lay.k, len(c.pal))], c.data[c.more:]...)
	return Column{data: expand(nil, c.data[c.codes:c.more], pal, lay, n)}
}

// split returns the tokens, the palette and the layout of the stored form
// form, which check has passed.
func split(form []byte) (tokens, pal []byte, lay *layout) {
	k := int(form[len(form)-2])
	end := len(form) - 2 - k
	return form[:end], form[end : end+k], layoutOf(k)
}

// check returns ErrForm unless form is the stored form of a column of n
// bytes: a palette of 2 to MaxPalette values, ascending (checkPalette);
// tokens that mean something and cover the n positions, runs ending at
// or before n (checkEnd).
func check(form []byte, n int) error {
	if err := checkPalette(form, n); err != nil {
		return err
	}
	tokens, _, lay := split(form)
	p := 0
	for _, c := range tokens {
		m := int(lay.adv[c])
		if m == 0 {
			return ErrForm
		}
		p += m
	}
	return checkEnd(tokens, lay, p, n)
}

// checkPalette returns ErrForm unless n is a column's length and form
// ends in a palette of 2 to MaxPalette values, ascending, after a token.
func checkPalette(form []byte, n int) error {
	if n < 1 || n > MaxPositions || len(form) < 4 || form[len(form)-1] != 0 {
		return ErrForm
	}
	k := int(form[len(form)-2])
	if k < 2 || k > MaxPalette || len(form) < k+3 {
		return ErrForm
	}
	_, pal, _ := split(form)
	for i := 1; i < k; i++ {
		if pal[i] <= pal[i-1] {
			return ErrForm
		}
	}
	return nil
}

// checkEnd returns ErrForm unless tokens, each of which means something,
// covering p positions, cover the n positions of a column: positions only
// grow, so the last token alone may pass n, and must start before it; a
// run may not pass it.
func checkEnd(tokens []byte, lay *layout, p, n int) error {
	if p < n {
		return ErrForm
	}
	if last := tokens[len(tokens)-1]; p-int(lay.adv[last]) >= n || p > n && lay.isRun(last) {
		return ErrForm
	}
	return nil
}

// index returns the column of n bytes whose stored form form has passed
// checkPalette (or is Append's), or ErrForm where its tokens do not cover
// the n positions (checkEnd): its tokens in groups after their marks,
// and the directory, with one entry past the last, shift such that
// marksPerDir marks or so lie between two. One pass over the tokens
// checks them, sets the marks and fills the directory.
func index(form []byte, n int) (Column, error) {
	tokens, pal, lay := split(form)
	nt := len(tokens)
	nm := numMarks(nt)
	shift := uint8(3)
	for shift < 16 && n>>(shift+1) >= nm/marksPerDir {
		shift++
	}
	nd := (n-1)>>shift + 2
	more := pal[min(len(pal), 4):]
	c := Column{lay: lay, marks: int32(2 * nd), codes: int32(2*nd + 2*nm), more: int32(2*nd + 2*nm + nt), shift: shift}
	copy(c.pal[:], pal)
	c.data = make([]byte, int(c.more)+len(more))
	dir, marks := c.data[:c.marks], c.data[c.marks:c.codes]
	copy(c.data[c.codes:], tokens)
	copy(c.data[c.more:], more)
	// Entry q of the directory is the group whose positions hold q<<shift
	// (the entries past the last position, the last group).
	q, p := 0, 0
	for g := range nm {
		binary.LittleEndian.PutUint16(marks[2*g:], uint16(p))
		for _, t := range tokens[g*markEvery : min((g+1)*markEvery, nt)] {
			m := int(lay.adv[t])
			if m == 0 {
				return Column{}, ErrForm
			}
			p += m
		}
		for ; q < nd && q<<shift < p; q++ {
			binary.LittleEndian.PutUint16(dir[2*q:], uint16(g))
		}
	}
	if err := checkEnd(tokens, lay, p, n); err != nil {
		return Column{}, err
	}
	for ; q < nd; q++ {
		binary.LittleEndian.PutUint16(dir[2*q:], uint16(nm-1))
	}
	return c, nil
}

// palette returns the distinct values of the column b, ascending, in
// the storage of buf.
func palette(b []byte, buf *[256]byte) []byte {
	var seen [256]bool
	for i := 0; i < len(b); i = runEnd(b, i) {
		seen[b[i]] = true
	}
	pal := buf[:0]
	for v, ok := range seen {
		if ok {
			pal = append(pal, byte(v))
		}
	}
	return pal
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
