package codec

import (
	"encoding/binary"
	"errors"
	"slices"

	"github.com/dtb-draughts/dtb/runs"
)

// A block is stored in its form (the package doc has the layout): as it
// is; as tokens (package runs), if it is of a column of width 1 whose
// bytes take 2 to runs.MaxPalette values; or else, if its bytes take at
// most four values, packed into codes of 0, 1 or 2 bits. Only a form
// shorter than the block is used, so the length tells it from the block,
// and the last byte tells the two forms apart: 0 after tokens (runsTag),
// the palette size after packed codes.

// storedForm returns the stored form of the block raw of a column of the
// given width: raw itself, or its tokens or its packed form in dst's
// storage.
func storedForm(dst, raw []byte, width int) []byte {
	if width == 1 {
		if form, ok := runs.Append(dst[:0], raw); ok {
			return form
		}
	}
	return pack(dst, raw)
}

// maxPalette is the most distinct values a packed block holds.
const maxPalette = 4

// codeBits returns the bits of a code for a palette of k values.
func codeBits(k int) int {
	switch k {
	case 1:
		return 0
	case 2:
		return 1
	}
	return 2
}

// packedLen returns the length of the packed form of n bytes of k
// distinct values.
func packedLen(n, k int) int { return (n*codeBits(k)+7)/8 + k + 1 }

// pack returns the stored form of the block raw: raw itself, or its packed
// form in dst's storage.
func pack(dst, raw []byte) []byte {
	var pal [maxPalette]byte
	var seen [256]bool
	k := 0
	for _, v := range raw {
		if !seen[v] {
			if k == maxPalette {
				return raw
			}
			seen[v] = true
			pal[k] = v
			k++
		}
	}
	if k == 0 || packedLen(len(raw), k) >= len(raw) {
		return raw
	}
	slices.Sort(pal[:k])
	var code [256]byte
	for c, v := range pal[:k] {
		code[v] = byte(c)
	}
	b := codeBits(k)
	dst = dst[:0]
	if b > 0 {
		per := 8 / b
		for i := 0; i < len(raw); i += per {
			var x byte
			for j, v := range raw[i:min(i+per, len(raw))] {
				x |= code[v] << (j * b)
			}
			dst = append(dst, x)
		}
	}
	dst = append(dst, pal[:k]...)
	return append(dst, byte(k))
}

var errForm = errors.New("bad packed form")

// unpack expands the packed form held in buf[:m] into the block's n bytes,
// buf[:n], in place (m < n <= cap(buf)).
func unpack(buf []byte, m, n int) error {
	k := int(buf[m-1])
	if k < 1 || k > maxPalette || m != packedLen(n, k) {
		return errForm
	}
	var pal [maxPalette]byte
	copy(pal[:], buf[m-1-k:m-1])
	buf = buf[:n]
	switch codeBits(k) {
	case 0:
		buf[0] = pal[0]
		for i := 1; i < n; i *= 2 {
			copy(buf[i:], buf[:i])
		}
	case 1:
		// lut[c] is the 8 bytes of code byte c, the first in the low byte.
		var lut [256]uint64
		lut[0] = uint64(pal[0]) * 0x0101010101010101
		for c := 1; c < 256; c++ {
			lut[c] = lut[c>>1]<<8 | uint64(pal[c&1])
		}
		full := expandTail(buf, 8, func(c byte) uint64 { return lut[c] })
		// From the end, two code bytes at a time, so that no code is
		// overwritten before it is read.
		i := full - 1
		for ; i >= 1; i -= 2 {
			c0, c1 := buf[i-1], buf[i]
			o := buf[8*(i-1) : 8*(i-1)+16]
			binary.LittleEndian.PutUint64(o, lut[c0])
			binary.LittleEndian.PutUint64(o[8:], lut[c1])
		}
		if i == 0 {
			binary.LittleEndian.PutUint64(buf, lut[buf[0]])
		}
	default:
		var lut [256]uint32
		lut[0] = uint32(pal[0]) * 0x01010101
		for c := 1; c < 256; c++ {
			lut[c] = lut[c>>2]<<8 | uint32(pal[c&3])
		}
		full := expandTail(buf, 4, func(c byte) uint64 { return uint64(lut[c]) })
		// Four code bytes (16 bytes out) at a time.
		i := full - 1
		for ; i >= 3; i -= 4 {
			c := buf[i-3 : i+1 : i+1]
			lo := uint64(lut[c[0]]) | uint64(lut[c[1]])<<32 // read before the writes below
			hi := uint64(lut[c[2]]) | uint64(lut[c[3]])<<32
			o := buf[4*(i-3) : 4*(i-3)+16]
			binary.LittleEndian.PutUint64(o, lo)
			binary.LittleEndian.PutUint64(o[8:], hi)
		}
		for ; i >= 0; i-- {
			binary.LittleEndian.PutUint32(buf[4*i:], lut[buf[i]])
		}
	}
	return nil
}

// expandTail expands the last code byte of buf, per codes to a byte, if
// it is partly filled (buf's length is not a multiple of per), writing the
// bytes lut gives for it (the first in the low byte) at the end of buf; it
// returns the number of full code bytes.
func expandTail(buf []byte, per int, lut func(c byte) uint64) int {
	full := len(buf) / per
	if tail := len(buf) % per; tail > 0 {
		x := lut(buf[full])
		for j := range tail {
			buf[full*per+j] = byte(x >> (8 * j))
		}
	}
	return full
}
