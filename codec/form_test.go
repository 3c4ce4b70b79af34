package codec

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
)

// formCase returns n bytes drawn from the first k of some byte values.
func formCase(rng *rand.Rand, n, k int) []byte {
	vals := []byte{200, 3, 255, 0, 17, 9}[:k]
	b := make([]byte, n)
	for i := range b {
		b[i] = vals[rng.IntN(k)]
	}
	return b
}

// TestForm packs blocks of every length up to 70 and some longer, of one
// to six distinct values, and unpacks them: a form is packed exactly when
// it is shorter than the block, has the length the format says, and
// unpacks to the block.
func TestForm(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	lengths := []int{65536, 65537, 1000, 999}
	for n := 1; n <= 70; n++ {
		lengths = append(lengths, n)
	}
	for _, n := range lengths {
		for k := 1; k <= 6; k++ {
			raw := formCase(rng, n, k)
			distinct := map[byte]bool{}
			for _, v := range raw {
				distinct[v] = true
			}
			d := len(distinct)
			form := pack(nil, raw)
			wantPacked := d <= maxPalette && packedLen(n, d) < n
			if got := len(form) < n; got != wantPacked {
				t.Fatalf("n=%d, %d values: packed %v (form of %d bytes), want %v", n, d, got, len(form), wantPacked)
			}
			if !wantPacked {
				if !bytes.Equal(form, raw) {
					t.Fatalf("n=%d, %d values: form differs from the block", n, d)
				}
				continue
			}
			if len(form) != packedLen(n, d) || int(form[len(form)-1]) != d {
				t.Fatalf("n=%d, %d values: form of %d bytes ending in %d, want %d bytes ending in %d", n, d, len(form), form[len(form)-1], packedLen(n, d), d)
			}
			buf := make([]byte, n)
			copy(buf, form)
			if err := unpack(buf, len(form), n); err != nil || !bytes.Equal(buf, raw) {
				t.Fatalf("n=%d, %d values: unpack gives %v, %x, want %x", n, d, err, buf[:min(n, 16)], raw[:min(n, 16)])
			}
		}
	}
}

// TestFormBits checks the packing of the format's example: codes from the
// low bits up, palette in increasing order, then its length.
func TestFormBits(t *testing.T) {
	raw := []byte{9, 4, 4, 7, 9, 9, 7, 4, 4, 7, 7, 9, 4, 4, 4, 4, 9}
	// palette 4, 7, 9: codes 2 0 0 1 | 2 2 1 0 | 0 1 1 2 | 0 0 0 0 | 2
	want := []byte{0b01_00_00_10, 0b00_01_10_10, 0b10_01_01_00, 0, 0b10, 4, 7, 9, 3}
	if got := pack(nil, raw); !bytes.Equal(got, want) {
		t.Errorf("pack = %08b, want %08b", got, want)
	}
}

// TestUnpackBadForm gives unpack forms whose last byte or length does not
// fit: each is an error, never a panic.
func TestUnpackBadForm(t *testing.T) {
	for _, tc := range []struct {
		form []byte
		n    int
	}{
		{[]byte{5, 0}, 10},             // k = 0
		{[]byte{5, 6, 7, 8, 9, 5}, 10}, // k = 5
		{[]byte{5, 5, 1}, 10},          // 1 value wants 2 bytes
		{[]byte{0, 5, 6, 2}, 10},       // 2 values, 10 bytes want 2 code bytes
	} {
		buf := make([]byte, tc.n)
		copy(buf, tc.form)
		if err := unpack(buf, len(tc.form), tc.n); !errors.Is(err, errForm) {
			t.Errorf("form %v for %d bytes: %v, want errForm", tc.form, tc.n, err)
		}
	}
}

// TestVersion1 reads a file of format version 1, whose blocks are all
// stored as they are, and refuses one that claims version 1 but has a
// packed block: damage, not a form.
func TestVersion1(t *testing.T) {
	for _, tc := range []struct {
		name   string
		values func(i int) byte
		ok     bool
	}{
		{"unpacked", func(i int) byte { return byte(i * 7) }, true},
		{"packed", func(i int) byte { return byte(i % 2) }, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := Header{Material: "KvK", Positions: 3000, BlockSize: 1024, Columns: []Column{{Name: "value", Width: 1}}}
			data := make([]byte, h.Positions)
			for i := range data {
				data[i] = tc.values(i)
			}
			path := filepath.Join(t.TempDir(), "v1.dtb")
			if err := Write(path, h, [][]byte{data}); err != nil {
				t.Fatal(err)
			}
			b, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if tc.ok {
				b = downgrade(t, b, 1)
			} else { // version 2's bytes, labelled 1
				b = downgrade(t, b, 2)
				binary.LittleEndian.PutUint32(b[8:], 1)
				reCRC(b)
			}
			r, err := NewReader(bytes.NewReader(b), int64(len(b)), path)
			if err != nil {
				t.Fatal(err)
			}
			got, err := r.ReadColumn(0)
			if tc.ok && (err != nil || !bytes.Equal(got, data)) {
				t.Errorf("ReadColumn: %v, equal %v", err, bytes.Equal(got, data))
			}
			if !tc.ok && !errors.Is(err, ErrCorrupt) {
				t.Errorf("ReadColumn: %v, want ErrCorrupt", err)
			}
		})
	}
}

// FuzzForm packs arbitrary blocks and unpacks them, and unpacks arbitrary
// bytes as forms of arbitrary blocks: a round trip gives the block back,
// and no form makes unpack panic.
func FuzzForm(f *testing.F) {
	f.Add([]byte{9, 4, 4, 7, 9, 9, 7, 4, 4, 7, 7, 9, 4, 4, 4, 4, 9}, uint16(20))
	f.Add([]byte{1, 1, 1, 1, 1, 1, 1, 1}, uint16(3))
	f.Fuzz(func(t *testing.T, raw []byte, n uint16) {
		if form := pack(nil, raw); len(form) < len(raw) {
			buf := make([]byte, len(raw))
			copy(buf, form)
			if err := unpack(buf, len(form), len(raw)); err != nil || !bytes.Equal(buf, raw) {
				t.Fatalf("round trip of %x: %v, %x", raw, err, buf)
			}
		}
		if m := len(raw); m > 0 && m < int(n) {
			buf := make([]byte, n)
			copy(buf, raw)
			_ = unpack(buf, m, int(n))
		}
	})
}

// BenchmarkUnpack unpacks blocks of 64 Ki bytes of one, two and four
// values (codes of 0, 1 and 2 bits), in place.
func BenchmarkUnpack(b *testing.B) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, k := range []int{1, 2, 4} {
		raw := formCase(rng, DefaultBlockSize, k)
		form := pack(nil, raw)
		buf := make([]byte, len(raw))
		b.Run(fmt.Sprintf("values=%d", k), func(b *testing.B) {
			b.SetBytes(int64(len(raw)))
			for b.Loop() {
				copy(buf, form)
				if err := unpack(buf, len(form), len(raw)); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestPackAllocs checks that packing into a buffer large enough allocates
// nothing.
func TestPackAllocs(t *testing.T) {
	raw := formCase(rand.New(rand.NewPCG(5, 6)), DefaultBlockSize, 3)
	dst := make([]byte, 0, DefaultBlockSize)
	if n := testing.AllocsPerRun(10, func() { dst = pack(dst, raw) }); n != 0 {
		t.Errorf("pack allocates %v times", n)
	}
}

// TestUnpackAllocs checks that unpacking allocates nothing.
func TestUnpackAllocs(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for _, k := range []int{1, 2, 4} {
		raw := formCase(rng, DefaultBlockSize+3, k)
		form := pack(nil, raw)
		buf := make([]byte, len(raw))
		if n := testing.AllocsPerRun(10, func() {
			copy(buf, form)
			if err := unpack(buf, len(form), len(raw)); err != nil {
				t.Fatal(err)
			}
		}); n != 0 {
			t.Errorf("%d values: unpack allocates %v times", k, n)
		}
	}
}

// TestKinds writes a file of each kind and reads its kind back, as does
// the same file as format version 3 writes it; as version 2 writes it,
// without the kind, it reads as Whole with the same header and blocks
// otherwise.
func TestKinds(t *testing.T) {
	for _, k := range []Kind{Whole, Values, Distances} {
		t.Run(k.String(), func(t *testing.T) {
			h := Header{Material: "KvK", Kind: k, Positions: 3000, BlockSize: 1024, Columns: []Column{{Name: "value", Width: 1}}}
			data := make([]byte, h.Positions)
			for i := range data {
				data[i] = byte(i % 3)
			}
			path := filepath.Join(t.TempDir(), "k.dtb")
			if err := Write(path, h, [][]byte{data}); err != nil {
				t.Fatal(err)
			}
			b, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			for v, want := range map[Format]Kind{Version: k, 3: k, 2: Whole} {
				file := b
				if v != Version {
					file = downgrade(t, b, v)
				}
				r, err := NewReader(bytes.NewReader(file), int64(len(file)), path)
				if err != nil {
					t.Fatalf("version %d: %v", v, err)
				}
				got, err := r.ReadColumn(0)
				if r.Header().Kind != want || err != nil || !bytes.Equal(got, data) {
					t.Errorf("version %d: kind %v, want %v; ReadColumn: %v, equal %v", v, r.Header().Kind, want, err, bytes.Equal(got, data))
				}
			}
		})
	}
}
