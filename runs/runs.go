// Package runs codes a column of bytes with few distinct values as
// one-byte tokens, and reads any position of it in place. A token is a
// run of one value or a literal of a few positions. A block of a table's
// value column is such a column. Its tokens are the block's stored form
// in the table files (package codec; docs/format.md, section 4.3). The
// prober's cache keeps them too (package probe). So a block read from a
// file is looked up without being decoded:
//
//	form, ok := runs.Append(nil, block) // the stored form, if it is shorter than block
//	c, err := runs.Parse(form, len(block))
//	v := c.At(i) // block[i]
//	b, err := runs.Expand(nil, form, len(block)) // block
//
// Compact makes a Column from a block's bytes, for a block stored in
// another form.
//
// # The form
//
// Take a column of n bytes, at most MaxPositions, with k distinct values,
// 2 <= k <= MaxPalette. Its stored form is
//
//	t   the tokens, one byte each
//	k   the palette: the k values, ascending
//	1   k
//	1   0
//
// Each token stands for the next positions of the column. Tokens hold
// palette numbers: a value's index in the palette. Their meaning comes
// from layoutOf(k). A literal stands for w positions. It is one number in
// base k, a digit a position, the first position the lowest digit. A run
// stands for lens[j] positions of one palette number. A long run takes a
// few tokens; a short one goes into literals. Runs end at or before n.
// Only the last token may pass n, and only if it is a literal. Its digits
// past n are 0.
//
// # The column
//
// A Column holds the tokens in groups of markEvery. The mark of a group
// is the position where its first token starts. The marks lie side by
// side. A directory gives, for every 1<<shift positions, the group that
// holds them. At(i) reads the directory at i>>shift. It then searches the
// marks of the few groups between that entry and the next. Last it scans
// the tokens of one group. A table lookup gives the positions each token
// covers. Parse checks the tokens and makes the marks and the directory
// in one pass. A column of one value is kept as that value (uniform). A
// column whose tokens would take as many bytes as it has positions keeps
// its bytes (raw).
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
	// MaxPositions is the most positions of a stored form. A Column's
	// marks are 16-bit positions.
	MaxPositions = 1 << 16
)

// ErrForm is the error of Parse and Expand. They return it for bytes
// that are not the stored form of a column of the length given.
var ErrForm = errors.New("bad run form")

// A Column is a column of bytes in the form a lookup reads in place.
type Column struct {
	// data holds the directory, the marks, the tokens, then the values of
	// the palette from the fifth on. Directory entries and marks take 2
	// bytes each, little-endian. Group g's mark is the position where its
	// first token starts. Group g is tokens g*markEvery to
	// (g+1)*markEvery-1. In the raw form data holds the column's bytes. In
	// the uniform form it is nil.
	data  []byte
	lay   *layout // layoutOf(palette size), nil in the raw and uniform forms
	pal   [4]byte // the first palette values; in the uniform form, every position's is pal[0]
	marks int32   // where the marks start in data, after the directory
	codes int32   // where the tokens start
	more  int32   // where the values past pal start, after the tokens
	shift uint8   // entry q of the directory is the group that holds position q<<shift
}

// markEvery is the number of tokens from one mark to the next.
// marksPerDir is about the number of marks from one directory entry to
// the next. A lookup searches about marksPerDir marks, then scans fewer
// than markEvery tokens. The prober's BenchmarkRuns chose them. It weighs
// the positions a byte against the time of a lookup.
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

// numMarks returns the number of marks of nt tokens.
func numMarks(nt int) int { return (nt + markEvery - 1) / markEvery }

// lastAtMost returns the index of the last of the first n marks that is
// at most x. The marks ascend, and the first must be at most x.
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

// Compact returns the column b in the form a lookup reads. The form is
// tokens, or uniform, or raw where the tokens would take as many bytes.
// If values is not nil, it holds b's distinct values, ascending. They
// spare a pass over b; codec.Reader gives them for a packed block. The
// result does not refer to b.
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

// Append appends to dst the stored form of the column b and reports
// true. It returns dst and false where b has no stored form shorter than
// itself. That holds where b has fewer than 2 or more than MaxPalette
// values, or more than MaxPositions bytes.
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

// Parse returns the column of n bytes whose stored form is form. It
// returns ErrForm if form is not one. The column keeps the tokens, or is
// raw where they would take as many bytes. The result does not refer to
// form.
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
// form. It returns dst and ErrForm if form is not one.
func Expand(dst, form []byte, n int) ([]byte, error) {
	if err := check(form, n); err != nil {
		return dst, err
	}
	tokens, pal, lay := split(form)
	return expand(dst, tokens, pal, lay, n), nil
}

// expand appends to dst the n bytes that tokens stand for. The palette is
// pal, its layout lay.
func expand(dst, tokens, pal []byte, lay *layout, n int) []byte {
	start := len(dst)
	dst = slices.Grow(dst, n)[:start+n]
	out := dst[start:]
	// word[c] holds the first 8 bytes token c stands for, the first in
	// the low byte. Only its first adv[c] bytes count. It is written 8
	// bytes at a time.
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
		// A long run or a token near the end: 8 bytes at a time, then byte
		// by byte. A run's bytes are all alike, so the shifts keep them.
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

// Decoded returns c, a column of n positions, decoded to a byte a
// position. A lookup in it reads its position without a scan. A column
// without tokens is returned as it is.
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
// bytes. Its palette holds 2 to MaxPalette values, ascending
// (checkPalette). Its tokens all mean something and cover the n
// positions. Its runs end at or before n (checkEnd).
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
// ends in a palette. The palette holds 2 to MaxPalette values, ascending.
// At least one token comes before it.
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

// checkEnd returns ErrForm unless tokens cover the n positions of a
// column. The caller has checked that each token means something.
// Together they cover p positions. Positions only grow, so only the last
// token may pass n. It must start before n. A run may not pass n.
func checkEnd(tokens []byte, lay *layout, p, n int) error {
	if p < n {
		return ErrForm
	}
	if last := tokens[len(tokens)-1]; p-int(lay.adv[last]) >= n || p > n && lay.isRun(last) {
		return ErrForm
	}
	return nil
}

// index returns the column of n bytes whose stored form is form, as
// tokens. The form has passed checkPalette or is Append's. The error is
// ErrForm where a token means nothing or the tokens do not cover the n
// positions (checkEnd). The column holds the tokens in groups after their
// marks, and the directory. The directory has one entry past the last
// position's, for At to read as the next. Its shift puts about
// marksPerDir marks between two entries. One pass over the tokens checks
// them, sets the marks and fills the directory.
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
	// Entry q of the directory is the group that holds position q<<shift.
	// The entries past the last position hold the last group.
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

// runEnd returns the end of the run of b that starts at i. That is the
// first position after i whose byte differs, or len(b). It compares 8
// bytes at a time.
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

// encode appends to codes the tokens of the column b, a byte a position.
// The palette number of byte v is num[v]. At each position it codes the
// run from there with the longest run tokens that fit. What is left of
// the run, shorter than any run token, starts a literal.
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
		// A literal from p. Its digits past the end are 0. Each digit is
		// multiplied by its weight on its own, so no digit waits for
		// another.
		c := 0
		for d, v := range b[p:min(p+w, len(b))] {
			c += int(num[v]) * pow[d]
		}
		codes = append(codes, byte(c))
		p += w
	}
	return codes
}
