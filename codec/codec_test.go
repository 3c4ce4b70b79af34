package codec

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/klauspost/compress/zstd"
)

// testTable returns a header and data with columns of width 1, 1, 2 and 4
// holding compressible pseudo-random bytes.
func testTable(positions int64, blockSize int) (Header, [][]byte) {
	h := Header{
		Material:     "KKMvK",
		IndexVersion: 3,
		Rules:        0x5,
		Positions:    positions,
		BlockSize:    blockSize,
		Columns: []Column{
			{Name: "value", Width: 1},
			{Name: "distance", Width: 1},
			{Name: "dtw", Width: 2},
			{Name: "wide", Width: 4},
		},
		Meta: map[string]string{"wins": "12", "note": "test table", "": "empty key"},
	}
	// Blocks of every stored form: "value" takes three values (packed 2
	// bits a byte), "distance" one in its first half and up to eight in
	// the second (packed 0 bits, or as they are), "dtw" up to eight
	// (as they are), "wide" two (1 bit).
	rng := rand.New(rand.NewPCG(uint64(positions), 1))
	data := make([][]byte, len(h.Columns))
	for i, c := range h.Columns {
		data[i] = make([]byte, positions*int64(c.Width))
		for j := range data[i] {
			switch {
			case i == 0:
				data[i][j] = []byte{2, 5, 10}[rng.IntN(3)]
			case i == 1 && j < len(data[i])/2:
				data[i][j] = 255
			case i == 3:
				data[i][j] = byte(rng.IntN(2)) * 7
			case rng.IntN(4) == 0:
				data[i][j] = byte(rng.IntN(8))
			}
		}
	}
	return h, data
}

func writeTable(t testing.TB, positions int64, blockSize int) (string, Header, [][]byte) {
	t.Helper()
	h, data := testTable(positions, blockSize)
	path := filepath.Join(t.TempDir(), h.Material+".dtb")
	if err := Write(path, h, data); err != nil {
		t.Fatal(err)
	}
	if h.BlockSize == 0 {
		h.BlockSize = DefaultBlockSize
	}
	return path, h, data
}

func mustOpen(t testing.TB, path string) *Reader {
	t.Helper()
	r, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	return r
}

func TestRoundTrip(t *testing.T) {
	for _, tc := range []struct {
		positions int64
		blockSize int
	}{
		{0, 0},
		{1, 0},
		{1, 1},
		{1000, 0},
		{4096, 1024},                // exact multiple
		{5000, 1024},                // partial last block
		{3*DefaultBlockSize + 7, 0}, // several default-size blocks
	} {
		t.Run(fmt.Sprintf("%d/%d", tc.positions, tc.blockSize), func(t *testing.T) {
			path, h, data := writeTable(t, tc.positions, tc.blockSize)
			r := mustOpen(t, path)
			if got := r.Header(); !reflect.DeepEqual(got, h) {
				t.Fatalf("header:\n got %+v\nwant %+v", got, h)
			}
			wantBlocks := int((tc.positions + int64(h.BlockSize) - 1) / int64(h.BlockSize))
			if r.Blocks() != wantBlocks {
				t.Fatalf("Blocks() = %d, want %d", r.Blocks(), wantBlocks)
			}
			if err := r.Check(); err != nil {
				t.Fatal(err)
			}
			buf := make([]byte, 0, 4*h.BlockSize)
			for c, col := range h.Columns {
				got, err := r.ReadColumn(c)
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(got, data[c]) || len(got) != len(data[c]) {
					t.Fatalf("column %q differs", col.Name)
				}
				for b := range r.Blocks() {
					lo := b * h.BlockSize * col.Width
					hi := min(lo+h.BlockSize*col.Width, len(data[c]))
					got, err := r.ReadBlock(c, b, buf)
					if err != nil {
						t.Fatal(err)
					}
					if !bytes.Equal(got, data[c][lo:hi]) {
						t.Fatalf("column %q block %d differs", col.Name, b)
					}
					if &got[:1][0] != &buf[:1][0] {
						t.Fatalf("ReadBlock did not reuse dst")
					}
				}
			}
		})
	}
}

// TestReadRuns reads every block of the 1-byte columns of a file as
// runs, in this format version and as versions 3 and 2 wrote it (the
// blocks decoded and compacted), and refuses a wider column.
func TestReadRuns(t *testing.T) {
	path, h, data := writeTable(t, 5000, 1024)
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range []Format{Version, 3, 2} {
		file := b
		if v != Version {
			file = downgrade(t, b, v)
		}
		r, err := NewReader(bytes.NewReader(file), int64(len(file)), path)
		if err != nil {
			t.Fatal(err)
		}
		for c, col := range h.Columns {
			for blk := range r.Blocks() {
				runs, err := r.ReadRuns(c, blk)
				if col.Width != 1 {
					if err == nil {
						t.Fatalf("version %d: column %q of width %d read as runs", v, col.Name, col.Width)
					}
					continue
				}
				if err != nil {
					t.Fatalf("version %d: column %q block %d: %v", v, col.Name, blk, err)
				}
				lo := blk * h.BlockSize
				for i, want := range data[c][lo:min(lo+h.BlockSize, len(data[c]))] {
					if got := runs.At(i); got != want {
						t.Fatalf("version %d: column %q block %d position %d: %d, want %d", v, col.Name, blk, i, got, want)
					}
				}
			}
		}
	}
}

func TestHeaderIsCopy(t *testing.T) {
	path, _, _ := writeTable(t, 10, 0)
	r := mustOpen(t, path)
	h := r.Header()
	h.Columns[0].Name = "x"
	h.Meta["wins"] = "x"
	if h2 := r.Header(); h2.Columns[0].Name != "value" || h2.Meta["wins"] != "12" {
		t.Fatal("Header() shares memory with the Reader")
	}
}

func TestNoMeta(t *testing.T) {
	h, data := testTable(3, 0)
	h.Meta = nil
	path := filepath.Join(t.TempDir(), "t.dtb")
	if err := Write(path, h, data); err != nil {
		t.Fatal(err)
	}
	if m := mustOpen(t, path).Header().Meta; m != nil {
		t.Fatalf("Meta = %v, want nil", m)
	}
}

func TestReadOutOfRange(t *testing.T) {
	path, _, _ := writeTable(t, 100, 10)
	r := mustOpen(t, path)
	for _, cb := range [][2]int{{-1, 0}, {4, 0}, {0, -1}, {0, 10}} {
		if _, err := r.ReadBlock(cb[0], cb[1], nil); err == nil || errors.Is(err, ErrCorrupt) {
			t.Errorf("ReadBlock(%d, %d): err = %v, want a range error", cb[0], cb[1], err)
		}
	}
	if _, err := r.ReadColumn(4); err == nil {
		t.Error("ReadColumn(4): no error")
	}
}

// TestStoredLen checks that PrefixLen and StoredLen account for every
// byte of a file, and that each block's stored bytes, taken in block
// table order from PrefixLen on, are a zstd frame of exactly its stored
// form.
func TestStoredLen(t *testing.T) {
	path, h, data := writeTable(t, 2500, 1000)
	r := mustOpen(t, path)
	file, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	hl := int64(binary.LittleEndian.Uint32(file[12:]))
	tl := int64(binary.LittleEndian.Uint64(file[16:]))
	if got, want := r.PrefixLen(), prefixLen+hl+tl+4; got != want {
		t.Errorf("PrefixLen = %d, want %d", got, want)
	}
	dec, err := zstd.NewReader(nil)
	if err != nil {
		t.Fatal(err)
	}
	defer dec.Close()
	off := r.PrefixLen()
	var forms [3]bool // whether some block is stored as it is, as tokens, packed
	for c, col := range h.Columns {
		for b := range r.Blocks() {
			n := int64(r.StoredLen(c, b))
			got, err := dec.DecodeAll(file[off:off+n], nil)
			lo := int64(b * h.BlockSize * col.Width)
			want := storedForm(nil, data[c][lo:lo+int64(h.blockLen(c, b))], col.Width)
			if err != nil || !bytes.Equal(got, want) {
				t.Fatalf("column %d block %d: %d stored bytes at %d decode to %d bytes (%v), want the block's form, %d", c, b, n, off, len(got), err, len(want))
			}
			switch {
			case len(want) == h.blockLen(c, b):
				forms[0] = true
			case want[len(want)-1] == runsTag:
				forms[1] = true
			default:
				forms[2] = true
			}
			off += n
		}
	}
	if off != int64(len(file)) {
		t.Errorf("prefix and blocks take %d bytes, the file %d", off, len(file))
	}
	if forms != [3]bool{true, true, true} {
		t.Errorf("blocks stored as they are, as tokens, packed: %v, want all", forms)
	}
	for _, cb := range [][2]int{{-1, 0}, {4, 0}, {0, -1}, {0, 3}} {
		if n := r.StoredLen(cb[0], cb[1]); n != -1 {
			t.Errorf("StoredLen(%d, %d) = %d, want -1", cb[0], cb[1], n)
		}
	}
}

func TestConcurrentReads(t *testing.T) {
	path, h, data := writeTable(t, 20000, 1000)
	r := mustOpen(t, path)
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			var buf []byte
			for i := range 200 {
				c, b := (g+i)%len(h.Columns), (g*7+i)%r.Blocks()
				var err error
				buf, err = r.ReadBlock(c, b, buf)
				w := h.Columns[c].Width
				if err != nil || !bytes.Equal(buf, data[c][b*1000*w:(b+1)*1000*w]) {
					t.Errorf("column %d block %d: %v", c, b, err)
					return
				}
			}
		})
	}
	wg.Wait()
}

// layout returns H, T and the offset of the first block of a file.
func layout(file []byte) (hl, tl, dataStart int) {
	hl = int(binary.LittleEndian.Uint32(file[12:]))
	tl = int(binary.LittleEndian.Uint64(file[16:]))
	return hl, tl, prefixLen + hl + tl + 4
}

// downgrade returns file, written at Version, as format version v (1, 2
// or 3) writes it: each block stored as it is (version 1) or packed where
// that is shorter (pack), compressed as Write compresses, its checksum
// that of its bytes, and no kind byte before version 3.
func downgrade(tb testing.TB, file []byte, v Format) []byte {
	tb.Helper()
	r, err := NewReader(bytes.NewReader(file), int64(len(file)), "downgrade")
	if err != nil {
		tb.Fatal(err)
	}
	h := r.Header()
	head, err := encodeHeader(&h)
	if err != nil {
		tb.Fatal(err)
	}
	if v < 3 {
		kindAt := 2 + len(h.Material)
		head = slices.Concat(head[:kindAt], head[kindAt+1:])
	}
	enc, err := encoders[Balanced]()
	if err != nil {
		tb.Fatal(err)
	}
	var entries []entry
	var blocks []byte
	for c := range h.Columns {
		for b := range r.Blocks() {
			raw, err := r.ReadBlock(c, b, nil)
			if err != nil {
				tb.Fatal(err)
			}
			form := raw
			if v > 1 {
				form = pack(nil, raw)
			}
			n := len(blocks)
			blocks = enc.EncodeAll(form, blocks)
			entries = append(entries, entry{n: uint32(len(blocks) - n), crc: crc32.Checksum(raw, castagnoli)})
		}
	}
	return append(encodePrefix(v, head, entries), blocks...)
}

// reCRC recomputes the header checksum of a file after an edit.
func reCRC(file []byte) {
	_, _, ds := layout(file)
	binary.LittleEndian.PutUint32(file[ds-4:], crc32.Checksum(file[:ds-4], castagnoli))
}

func writeBytes(t testing.TB, dir string, b []byte) string {
	t.Helper()
	path := filepath.Join(dir, "x.dtb")
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// openErr opens a file and, if that works, checks it, returning the error.
func openErr(path string) error {
	r, err := Open(path)
	if err != nil {
		return err
	}
	defer r.Close()
	return r.Check()
}

func TestCorruptHeader(t *testing.T) {
	path, _, _ := writeTable(t, 300, 100)
	orig, _ := os.ReadFile(path)
	_, _, ds := layout(orig)
	dir := t.TempDir()
	for i := range ds {
		b := bytes.Clone(orig)
		b[i] ^= 0x10
		p := writeBytes(t, dir, b)
		r, err := Open(p)
		if err == nil {
			r.Close()
			t.Fatalf("byte %d flipped: Open succeeded", i)
		}
		want := ErrCorrupt
		if i >= 8 && i < 12 {
			want = ErrVersion
		}
		if !errors.Is(err, want) || !strings.Contains(err.Error(), p) {
			t.Fatalf("byte %d flipped: %v, want an error naming the file wrapping %v", i, err, want)
		}
	}
}

func TestCorruptBlocks(t *testing.T) {
	path, h, data := writeTable(t, 300, 100)
	orig, _ := os.ReadFile(path)
	r0 := mustOpen(t, path)
	dir := t.TempDir()
	for i, e := range r0.entries {
		c, blk := i/r0.nblocks, i%r0.nblocks
		name := fmt.Sprintf("block %d of column %s:", blk, h.Columns[c].Name)
		detected := 0
		for off := e.off; off < e.off+int64(e.n); off++ {
			b := bytes.Clone(orig)
			b[off] ^= 0x41
			p := writeBytes(t, dir, b)
			r, err := Open(p)
			if err != nil {
				t.Fatalf("%s byte %d flipped: Open: %v", name, off, err)
			}
			err = r.Check()
			if err == nil {
				// A flip that does not change the decoded bytes is harmless.
				got, err := r.ReadColumn(c)
				if err != nil || !bytes.Equal(got, data[c]) {
					t.Fatalf("%s byte %d flipped: Check passed but ReadColumn: %v", name, off, err)
				}
				r.Close()
				continue
			}
			detected++
			if !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), name) || !strings.Contains(err.Error(), p) {
				t.Fatalf("byte %d flipped: Check: %v, want ErrCorrupt naming %s", off, err, name)
			}
			if _, err := r.ReadBlock(c, blk, nil); !errors.Is(err, ErrCorrupt) {
				t.Fatalf("byte %d flipped: ReadBlock: %v", off, err)
			}
			if _, err := r.ReadColumn(c); !errors.Is(err, ErrCorrupt) {
				t.Fatalf("byte %d flipped: ReadColumn: %v", off, err)
			}
			r.Close()
		}
		if detected*2 < int(e.n) {
			t.Errorf("%s only %d of %d flips detected", name, detected, e.n)
		}
	}
}

func TestZstdGarbage(t *testing.T) {
	path, _, _ := writeTable(t, 300, 100)
	b, _ := os.ReadFile(path)
	r0 := mustOpen(t, path)
	e := r0.entries[4] // column "distance" block 1
	for i := range e.n {
		b[e.off+int64(i)] = 0xff
	}
	path = writeBytes(t, t.TempDir(), b)
	err := openErr(path)
	// The message says it in words; the decoder's own is only wrapped.
	var fe *FileError
	if want := path + " is damaged (block 1 of column distance: data that does not decode)"; !errors.Is(err, ErrCorrupt) ||
		!errors.As(err, &fe) || fe.Err == nil || err.Error() != want {
		t.Fatalf("got %v, want %q wrapping the decoder's error", err, want)
	}
}

// TestWrongDecodedSize swaps two blocks of different decoded sizes and
// fixes the block table, so only the decoded lengths are wrong.
func TestWrongDecodedSize(t *testing.T) {
	h := Header{Material: "K", Positions: 1500, BlockSize: 1000, Columns: []Column{{"value", 1}}}
	data := [][]byte{bytes.Repeat([]byte{1, 2, 3}, 500)}
	path := filepath.Join(t.TempDir(), "k.dtb")
	if err := Write(path, h, data); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(path)
	hl, _, ds := layout(b)
	t0 := prefixLen + hl
	n0 := int(binary.LittleEndian.Uint32(b[t0+8:]))
	n1 := int(binary.LittleEndian.Uint32(b[t0+entryLen+8:]))
	blk0, blk1 := bytes.Clone(b[ds:ds+n0]), bytes.Clone(b[ds+n0:])
	copy(b[ds:], blk1)
	copy(b[ds+n1:], blk0)
	binary.LittleEndian.PutUint32(b[t0+8:], uint32(n1))
	binary.LittleEndian.PutUint64(b[t0+entryLen:], uint64(ds+n1))
	binary.LittleEndian.PutUint32(b[t0+entryLen+8:], uint32(n0))
	reCRC(b)
	r := mustOpen(t, writeBytes(t, t.TempDir(), b))
	for blk := range 2 {
		_, err := r.ReadBlock(0, blk, nil)
		if !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), fmt.Sprintf("block %d of column value:", blk)) {
			t.Errorf("block %d: %v", blk, err)
		}
	}
}

// TestForgedHeader edits fields and recomputes the header checksum, so
// that only the validation of the fields can catch them.
func TestForgedHeader(t *testing.T) {
	path, _, _ := writeTable(t, 300, 100)
	orig, _ := os.ReadFile(path)
	hl, _, _ := layout(orig)
	matLen := int(binary.LittleEndian.Uint16(orig[prefixLen:]))
	kindOff := prefixLen + 2 + matLen
	posOff := kindOff + 1 + 8
	for _, tc := range []struct {
		name string
		edit func(b []byte)
		want string
	}{
		{"bad kind", func(b []byte) { b[kindOff] = byte(Distances + 1) }, "kind"},
		{"huge positions", func(b []byte) { binary.LittleEndian.PutUint64(b[posOff:], 1<<62) }, "positions"},
		{"more positions", func(b []byte) { binary.LittleEndian.PutUint64(b[posOff:], 300000) }, "block table length"},
		{"zero block size", func(b []byte) { binary.LittleEndian.PutUint32(b[posOff+8:], 0) }, "block size"},
		{"huge block size", func(b []byte) { binary.LittleEndian.PutUint32(b[posOff+8:], 1<<30) }, "block size"},
		{"many columns", func(b []byte) { binary.LittleEndian.PutUint16(b[posOff+12:], 0xffff) }, "column count"},
		{"bad width", func(b []byte) { b[posOff+14+2+len("value")] = 3 }, "width"},
		{"bad offset", func(b []byte) {
			e := prefixLen + hl + 2*entryLen
			binary.LittleEndian.PutUint64(b[e:], binary.LittleEndian.Uint64(b[e:])+1)
		}, "block 2 of column value: offset"},
		{"short block", func(b []byte) {
			e := prefixLen + hl + 2*entryLen
			binary.LittleEndian.PutUint32(b[e+8:], 0)
		}, "block 2 of column value:"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := bytes.Clone(orig)
			tc.edit(b)
			reCRC(b)
			_, err := Open(writeBytes(t, t.TempDir(), b))
			if !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("got %v, want ErrCorrupt mentioning %q", err, tc.want)
			}
		})
	}
}

func TestLengthsOutOfRange(t *testing.T) {
	path, _, _ := writeTable(t, 100, 0)
	orig, _ := os.ReadFile(path)
	for _, edit := range []func(b []byte){
		func(b []byte) { binary.LittleEndian.PutUint32(b[12:], 0xffffffff) },
		func(b []byte) { binary.LittleEndian.PutUint64(b[16:], 1<<63) },
		func(b []byte) { binary.LittleEndian.PutUint64(b[16:], 0xffffffffffffffff) },
		func(b []byte) { copy(b, "DTBTABLF") },
	} {
		b := bytes.Clone(orig)
		edit(b)
		if _, err := Open(writeBytes(t, t.TempDir(), b)); !errors.Is(err, ErrCorrupt) {
			t.Errorf("got %v, want ErrCorrupt", err)
		}
	}
	for _, v := range []Format{0, Version + 1} {
		b := bytes.Clone(orig)
		binary.LittleEndian.PutUint32(b[8:], uint32(v))
		if _, err := Open(writeBytes(t, t.TempDir(), b)); !errors.Is(err, ErrVersion) || errors.Is(err, ErrCorrupt) {
			t.Errorf("version %d: got %v, want ErrVersion", v, err)
		}
	}
}

func TestTruncated(t *testing.T) {
	path, _, _ := writeTable(t, 300, 100)
	orig, _ := os.ReadFile(path)
	dir := t.TempDir()
	for n := range len(orig) {
		err := openErr(writeBytes(t, dir, orig[:n]))
		if !errors.Is(err, ErrCorrupt) {
			t.Fatalf("truncated to %d bytes: %v", n, err)
		}
	}
	// Appended bytes are damage too.
	if err := openErr(writeBytes(t, dir, append(bytes.Clone(orig), 0))); !errors.Is(err, ErrCorrupt) {
		t.Fatalf("one byte appended: %v", err)
	}
}

// TestTruncatedAfterOpen cuts a file short under its open Reader, at the
// start of the memory page that holds its last block: reading the block
// faults where the file is mapped (Open, on Unix), and reads too few
// bytes where it is not; either is a truncated block, not a crash.
func TestTruncatedAfterOpen(t *testing.T) {
	path, _, _ := writeTable(t, 300, 100)
	r := mustOpen(t, path)
	e := r.entries[len(r.entries)-1]
	if err := os.Truncate(path, e.off&^int64(os.Getpagesize()-1)); err != nil {
		t.Fatal(err)
	}
	_, err := r.ReadBlock(3, 2, nil)
	if !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), "block 2 of column wide: truncated") {
		t.Fatalf("got %v", err)
	}
	if err := r.Check(); !errors.Is(err, ErrCorrupt) {
		t.Fatalf("Check: %v", err)
	}
}

func TestOpenMissing(t *testing.T) {
	_, err := Open(filepath.Join(t.TempDir(), "none.dtb"))
	if !errors.Is(err, os.ErrNotExist) || !strings.Contains(err.Error(), "none.dtb") {
		t.Fatalf("got %v", err)
	}
}

// dirNames lists a directory.
func dirNames(t *testing.T, dir string) []string {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range es {
		names = append(names, e.Name())
	}
	return names
}

func TestWriteFailures(t *testing.T) {
	good, data := testTable(100, 10)
	for _, tc := range []struct {
		name string
		edit func(h *Header, d *[][]byte)
	}{
		{"short data", func(h *Header, d *[][]byte) { (*d)[1] = (*d)[1][:99] }},
		{"missing column", func(h *Header, d *[][]byte) { *d = (*d)[:3] }},
		{"width 3", func(h *Header, d *[][]byte) { h.Columns[0].Width = 3 }},
		{"no columns", func(h *Header, d *[][]byte) { h.Columns, *d = nil, nil }},
		{"duplicate column", func(h *Header, d *[][]byte) { h.Columns[1].Name = "value" }},
		{"empty column name", func(h *Header, d *[][]byte) { h.Columns[1].Name = "" }},
		{"negative positions", func(h *Header, d *[][]byte) { h.Positions = -1 }},
		{"huge block", func(h *Header, d *[][]byte) { h.BlockSize = 1 << 30 }},
		{"negative block", func(h *Header, d *[][]byte) { h.BlockSize = -1 }},
		{"huge meta", func(h *Header, d *[][]byte) { h.Meta = map[string]string{"k": strings.Repeat("x", 2<<20)} }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := good
			h.Columns = append([]Column(nil), good.Columns...)
			d := append([][]byte(nil), data...)
			tc.edit(&h, &d)
			dir := t.TempDir()
			path := filepath.Join(dir, "t.dtb")
			err := Write(path, h, d)
			if err == nil || !strings.Contains(err.Error(), path) {
				t.Fatalf("got %v, want an error naming %s", err, path)
			}
			if names := dirNames(t, dir); len(names) != 0 {
				t.Fatalf("left files %v", names)
			}
		})
	}
}

func TestWriteNoDir(t *testing.T) {
	h, data := testTable(10, 0)
	dir := t.TempDir()
	path := filepath.Join(dir, "missing", "t.dtb")
	if err := Write(path, h, data); err == nil {
		t.Fatal("no error")
	}
	if names := dirNames(t, dir); len(names) != 0 {
		t.Fatalf("left files %v", names)
	}
}

// TestWriteRenameFails makes the final rename fail after the temporary
// file was written: the temporary file must be gone.
func TestWriteRenameFails(t *testing.T) {
	h, data := testTable(10, 0)
	dir := t.TempDir()
	path := filepath.Join(dir, "t.dtb")
	if err := os.Mkdir(path, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(path, "keep"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := Write(path, h, data); err == nil {
		t.Fatal("no error")
	}
	if names := dirNames(t, dir); !reflect.DeepEqual(names, []string{"t.dtb"}) {
		t.Fatalf("files %v, want only the directory t.dtb", names)
	}
}

func TestWriteReplaces(t *testing.T) {
	path, _, _ := writeTable(t, 10, 0)
	h, data := testTable(20, 0)
	if err := Write(path, h, data); err != nil {
		t.Fatal(err)
	}
	r := mustOpen(t, path)
	if r.Header().Positions != 20 {
		t.Fatalf("positions %d, want 20", r.Header().Positions)
	}
	if names := dirNames(t, filepath.Dir(path)); len(names) != 1 {
		t.Fatalf("files %v", names)
	}
}

// FuzzOpen reads arbitrary bytes as a table file, from memory (a file
// write per input made it a hundred times slower), and checks it; it also
// tries the bytes with the header checksum fixed, to reach the header and
// block table validation. The seeds are small tables, so that the
// fuzzer's inputs stay small: a file's size bounds what its blocks decode
// to (Open refuses a block that claims more than 2^16 bytes per
// compressed byte), and small inputs keep each run well under a
// millisecond. In format version 2 a constant block of any length takes
// a few bytes, so the size no longer bounds a column: ReadColumn is left
// out for columns over 64 MiB.
func FuzzOpen(f *testing.F) {
	for _, tc := range []struct {
		positions int64
		blockSize int
	}{{0, 0}, {1, 0}, {30, 8}} {
		path, _, _ := writeTable(f, tc.positions, tc.blockSize)
		b, err := os.ReadFile(path)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte(magic))
	f.Fuzz(func(t *testing.T, b []byte) {
		fuzzOne(t, b)
		if len(b) >= prefixLen+4 {
			hl, tl, ds := layout(b)
			if hl <= len(b) && tl >= 0 && tl <= len(b) && ds <= len(b) {
				b = bytes.Clone(b)
				reCRC(b)
				fuzzOne(t, b)
			}
		}
	})
}

// fuzzOne reads the table file b from memory: whatever the bytes, Open,
// Check and ReadColumn must return an error of the right kind or agree.
func fuzzOne(t *testing.T, b []byte) {
	r, err := NewReader(bytes.NewReader(b), int64(len(b)), "fuzz.dtb")
	if err != nil {
		if !errors.Is(err, ErrCorrupt) && !errors.Is(err, ErrVersion) {
			t.Fatalf("Open: unexpected error kind: %v", err)
		}
		return
	}
	defer r.Close()
	h := r.Header()
	checkErr := r.Check()
	if checkErr != nil && !errors.Is(checkErr, ErrCorrupt) {
		t.Fatalf("Check: unexpected error kind: %v", checkErr)
	}
	for c, col := range h.Columns {
		if h.Positions*int64(col.Width) > 64<<20 {
			continue
		}
		got, err := r.ReadColumn(c)
		if checkErr == nil && (err != nil || int64(len(got)) != h.Positions*int64(col.Width)) {
			t.Fatalf("Check passed but ReadColumn(%d): %d bytes, %v", c, len(got), err)
		}
	}
}

func BenchmarkReadBlock(b *testing.B) {
	path, h, _ := writeTable(b, 16*DefaultBlockSize, 0)
	r := mustOpen(b, path)
	buf := make([]byte, 0, h.BlockSize)
	b.SetBytes(int64(h.BlockSize))
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		var err error
		if buf, err = r.ReadBlock(0, i%r.Blocks(), buf); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkReadBlockParallel(b *testing.B) {
	path, h, _ := writeTable(b, 16*DefaultBlockSize, 0)
	r := mustOpen(b, path)
	b.SetBytes(int64(h.BlockSize))
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		buf := make([]byte, 0, h.BlockSize)
		for i := 0; pb.Next(); i++ {
			var err error
			if buf, err = r.ReadBlock(0, i%r.Blocks(), buf); err != nil {
				b.Error(err)
				return
			}
		}
	})
}

// BenchmarkWrite writes a table of 4 Mi positions in four columns (8
// bytes per position) with Write.
func BenchmarkWrite(b *testing.B) {
	h, data := testTable(64*DefaultBlockSize, 0)
	path := filepath.Join(b.TempDir(), "t.dtb")
	b.SetBytes(h.Positions * 8)
	b.ReportAllocs()
	for b.Loop() {
		if err := Write(path, h, data); err != nil {
			b.Fatal(err)
		}
	}
}
