package codec

import (
	"crypto/sha256"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// pinned are the SHA-256 of the files that Write writes for testTable,
// pinned when blocks came as tokens (format version 4), and of the same
// files as versions 3 (pinned when the kind came) and 2 (when packed
// blocks came) wrote them (downgrade): a Writer must write the same
// bytes, and a change of them is a change of the format.
var pinned = []struct {
	positions int64
	blockSize int
	sha256    string
	sha256v3  string
	sha256v2  string
}{
	{0, 0, "eb4b4fc9d0f70ac7ff2ed56b7190bf7f82a63863af407754bd91e9ebcb0d576b", "14234b9521f5309834f34454e896933ffe0f451e515c5f8aa93fe57c93e20935", "ee1f8e9644a9ed7f71b167ae037ab37b878278bfdfcc720ac1ea873a4e1770af"},
	{1, 1, "a5d41cf20f4b781235d378e217a393f63e8fbcd1acf411677a52694097e21c71", "8c2e121bd936d631b44572fadf64dec203eee016fe4a2368be94b9f61453c215", "5d0f401681ae9958e6a7ee3d5158c9fddd7f053512372205df21ae4992888130"},
	{1000, 0, "f4c778c3a23feb4202b54eada3147b968f962048e69528e5499d977a7995bf9b", "e905e2d1868087ee2b016a481b89ad8d2de44b2ced07403a248db46671ac50da", "3791090c6d3882366b6ff04b4bcdd025e9e58c059c168bb7cd66f2e74708668b"},
	{4096, 1024, "8c99e8f2b2fc8d969b7a5e1a2772ffa0b0340f1a6f1ea7cdeacb1ffd35b578b7", "e21ee850ff063e9f91b1aed1d8df11b716e0e6b1cb5b860120879578bba87513", "29bd673e05b2a9ba71bfc2fb865534d09a6301902297c3270953013eb82faed8"},
	{5000, 1024, "441895e1b58b4d61a776e819ef094027672f32744b9c992d188ed44ecaa1e31b", "1a7510f941a5d6a9dc3c05631e596bcb467f868bdb1a2f1509217ea5962b9734", "192509d94bcf90a0f82c2f791758d69aad4108d0d11e63d9b2951c878a1c4e46"},
	{3*DefaultBlockSize + 7, 0, "941f121e412ee1eb1c90e627b8cc549fd342713675873aa06c5c5f267f620135", "f053904162bdcb5ce0a511911140a757d9f0bfb7ca306b3d82d5713578ff6c08", "62dc07ae85fca048d282e2ef28242ba0017ee9b048b23607c336284e298414e3"},
	{777, 100, "3d3e07f226e77446acab2e501395c3ec0e61a42e3a8449b43a4879fd7fbf2c3a", "14ac549fb9d3bf773b85f1e02e691760d1325ded0e5a7ba63454dd05b9a41890", "6ec2c7581d7c2c490615357a00009779730dc483cbc5e12528f7be7defa466fa"},
}

// withSpillLimit sets spillLimit for the rest of the test.
func withSpillLimit(t testing.TB, n int) {
	old := spillLimit
	spillLimit = n
	t.Cleanup(func() { spillLimit = old })
}

// streamWrite writes the table through a Writer in chunks of at most
// chunk bytes (0: whole columns), choosing the next column at random if
// shuffle is set and in turn otherwise, and sets the meta at the end.
func streamWrite(path string, h Header, data [][]byte, chunk int, shuffle bool) error {
	meta := h.Meta
	h.Meta = nil
	w, err := NewWriter(path, h)
	if err != nil {
		return err
	}
	defer w.Abort()
	rng := rand.New(rand.NewPCG(uint64(chunk), 3))
	left := make([][]byte, len(data))
	copy(left, data)
	for c := 0; ; c = (c + 1) % len(left) {
		if shuffle {
			c = rng.IntN(len(left))
		}
		k := len(left[c])
		if chunk > 0 {
			k = min(k, 1+rng.IntN(chunk))
		}
		if _, err := w.Write(c, left[c][:k]); err != nil {
			return err
		}
		left[c] = left[c][k:]
		done := true
		for _, l := range left {
			done = done && len(l) == 0
		}
		if done {
			break
		}
	}
	for k, v := range meta {
		w.SetMeta(k, v)
	}
	return w.Close()
}

func fileSHA(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return fmt.Sprintf("%x", sha256.Sum256(b))
}

// TestWriterSameBytes writes the pinned tables through Write and through
// Writers fed in odd chunks and interleavings, with the blocks in memory
// and spilled to a file from the start or midway.
func TestWriterSameBytes(t *testing.T) {
	for _, p := range pinned {
		h, data := testTable(p.positions, p.blockSize)
		for _, spill := range []int{spillLimit, 0, 3000} {
			t.Run(fmt.Sprintf("%d/%d/spill%d", p.positions, p.blockSize, spill), func(t *testing.T) {
				withSpillLimit(t, spill)
				dir := t.TempDir()
				path := filepath.Join(dir, "t.dtb")
				check := func(what string, err error) {
					t.Helper()
					if err != nil {
						t.Fatalf("%s: %v", what, err)
					}
					if got := fileSHA(t, path); got != p.sha256 {
						t.Errorf("%s: SHA-256 %s, want %s", what, got, p.sha256)
					}
					if names := dirNames(t, dir); len(names) != 1 {
						t.Errorf("%s: files %q, want only t.dtb", what, names)
					}
				}
				check("Write", Write(path, h, data))
				b, _ := os.ReadFile(path)
				for v, want := range map[Format]string{3: p.sha256v3, 2: p.sha256v2} {
					if got := fmt.Sprintf("%x", sha256.Sum256(downgrade(t, b, v))); got != want {
						t.Errorf("Write, as version %d: SHA-256 %s, want %s", v, got, want)
					}
				}
				for _, chunk := range []int{1, 7, 1000, 1 << 20} {
					check(fmt.Sprintf("in turn, chunks up to %d", chunk), streamWrite(path, h, data, chunk, false))
					check(fmt.Sprintf("at random, chunks up to %d", chunk), streamWrite(path, h, data, chunk, true))
				}
			})
		}
	}
}

// TestWriterErrors feeds a Writer too few or too many bytes or a column
// that does not exist: the error names the file and the column, and no
// file, temporary or not, is left.
func TestWriterErrors(t *testing.T) {
	h, data := testTable(1000, 64)
	for _, tc := range []struct {
		name  string
		write func(w *Writer) error // returns the first error
		want  string
	}{
		{"short", func(w *Writer) error {
			for c, d := range data {
				if _, err := w.Write(c, d[:len(d)-c]); err != nil {
					return err
				}
			}
			return nil
		}, `column "distance": 999 bytes, want 1000`},
		{"missing", func(w *Writer) error {
			_, err := w.Write(2, data[2])
			return err
		}, `column "value": 0 bytes, want 1000`},
		{"long", func(w *Writer) error {
			for c, d := range data {
				if _, err := w.Write(c, d); err != nil {
					return err
				}
			}
			_, err := w.Write(3, []byte{1})
			return err
		}, `column "wide": 4001 bytes, more than its 4000`},
		{"long chunk", func(w *Writer) error {
			_, err := w.Write(1, make([]byte, 1200))
			return err
		}, `column "distance": 1200 bytes, more than its 1000`},
		{"no column", func(w *Writer) error {
			_, err := w.Write(4, []byte{1})
			return err
		}, `column 4 out of range (4 columns)`},
	} {
		for _, spill := range []int{spillLimit, 0} {
			t.Run(fmt.Sprintf("%s/spill%d", tc.name, spill), func(t *testing.T) {
				withSpillLimit(t, spill)
				dir := t.TempDir()
				path := filepath.Join(dir, "t.dtb")
				w, err := NewWriter(path, h)
				if err != nil {
					t.Fatal(err)
				}
				werr := tc.write(w)
				if werr != nil {
					if _, err := w.Write(0, data[0][:1]); err != werr {
						t.Errorf("Write after %v: %v, want the same error", werr, err)
					}
				}
				cerr := w.Close()
				if werr != nil && cerr != werr {
					t.Errorf("Write: %v, then Close: %v; want the same error", werr, cerr)
				}
				if cerr == nil || !strings.Contains(cerr.Error(), path) || !strings.Contains(cerr.Error(), tc.want) {
					t.Errorf("got %v, want an error naming %s and saying %s", cerr, path, tc.want)
				}
				if names := dirNames(t, dir); len(names) != 0 {
					t.Errorf("left files %q", names)
				}
			})
		}
	}
}

// TestWriterAbort abandons a Writer midway: nothing is left. Abort and
// Write after Close do nothing and fail.
func TestWriterAbort(t *testing.T) {
	withSpillLimit(t, 0)
	h, data := testTable(1000, 64)
	dir := t.TempDir()
	w, err := NewWriter(filepath.Join(dir, "t.dtb"), h)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Write(3, data[3][:3000]); err != nil {
		t.Fatal(err)
	}
	w.Abort()
	if names := dirNames(t, dir); len(names) != 0 {
		t.Errorf("left files %q", names)
	}
	if err := w.Close(); err == nil {
		t.Error("Close after Abort succeeded")
	}
	if _, err := w.Write(0, data[0]); err == nil {
		t.Error("Write after Abort succeeded")
	}
}

// patternWrite writes a table of columns of width 1, 1 and 2 to path
// from pattern, in chunks of odd sizes, round robin.
func patternWrite(tb testing.TB, path string, positions int64, pattern []byte) {
	w, err := NewWriter(path, Header{
		Material:  "KKMMvKK",
		Positions: positions,
		Columns:   []Column{{Name: "value", Width: 1}, {Name: "distance", Width: 1}, {Name: "dtw", Width: 2}},
	})
	if err != nil {
		tb.Fatal(err)
	}
	defer w.Abort()
	written := make([]int64, len(w.h.Columns))
	for i, left := 0, 4*positions; left > 0; i++ {
		c := i % len(written)
		k := min(positions*int64(w.h.Columns[c].Width)-written[c], int64(len(pattern)-i%1000))
		if _, err := w.Write(c, pattern[:k]); err != nil {
			tb.Fatal(err)
		}
		written[c] += k
		left -= k
	}
	if err := w.Close(); err != nil {
		tb.Fatal(err)
	}
}

func makePattern() []byte {
	rng := rand.New(rand.NewPCG(4, 5))
	pattern := make([]byte, 1<<18+17)
	var v byte
	for i := range pattern {
		if rng.IntN(8) == 0 {
			v = byte(rng.IntN(16))
		}
		pattern[i] = v
	}
	return pattern
}

// allocated returns the bytes f allocates on the heap.
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// TestWriterMemoryBounded writes tables of 4 Mi and 16 Mi positions (4
// bytes each) with the blocks spilled beyond 4 KiB: the larger one may
// allocate only for its longer block table more (64 bytes a block: the
// lengths and checksums, offsets in the spill, the block table itself),
// and 64 KiB for zstd's encoders, whose buffers grow now and then.
func TestWriterMemoryBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("writes 96 MB")
	}
	withSpillLimit(t, 4<<10)
	pattern := makePattern()
	path := filepath.Join(t.TempDir(), "t.dtb")
	write := func(positions int64) uint64 {
		return allocated(func() { patternWrite(t, path, positions, pattern) })
	}
	write(1 << 24) // warm the encoders up
	small, large := write(1<<22), write(1<<24)
	blocks := uint64(3 * (1<<24 - 1<<22) / DefaultBlockSize)
	t.Logf("allocated %d bytes for 4 Mi positions, %d for 16 Mi (%.3f bytes a position)", small, large, float64(large)/(1<<24))
	if large > small+64*blocks+64<<10 {
		t.Errorf("allocated %d bytes for 4 Mi positions, %d for 16 Mi: more than 64 bytes a block more", small, large)
	}
}

// BenchmarkWriter writes a table of 50 M positions (4 bytes each) through
// a Writer in chunks, and reports the bytes allocated per position.
func BenchmarkWriter(b *testing.B) {
	const positions = 50_000_000
	pattern := makePattern()
	path := filepath.Join(b.TempDir(), "t.dtb")
	b.SetBytes(positions * 4)
	b.ReportAllocs()
	var bytes uint64
	for b.Loop() {
		bytes += allocated(func() { patternWrite(b, path, positions, pattern) })
	}
	b.ReportMetric(float64(bytes)/float64(b.N)/positions, "B/position")
}

// TestCompression writes the same columns at each Compression: the files
// decode to the same bytes, and each harder level writes fewer bytes.
func TestCompression(t *testing.T) {
	pattern := makePattern()
	h := Header{Material: "KKMMvKK", Positions: int64(len(pattern)), Columns: []Column{{Name: "value", Width: 1}}}
	size := map[Compression]int64{}
	for _, c := range []Compression{Fastest, Balanced, Smallest} {
		path := filepath.Join(t.TempDir(), "t.dtb")
		w, err := NewWriter(path, h)
		if err != nil {
			t.Fatal(err)
		}
		w.SetCompression(c)
		if _, err := w.Write(0, pattern); err != nil {
			t.Fatal(err)
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		r, err := Open(path)
		if err != nil {
			t.Fatal(err)
		}
		got, err := r.ReadColumn(0)
		r.Close()
		if err != nil || string(got) != string(pattern) {
			t.Fatalf("compression %d: the column reads back wrong (%v)", c, err)
		}
		st, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		size[c] = st.Size()
	}
	if size[Smallest] >= size[Balanced] || size[Balanced] >= size[Fastest] {
		t.Errorf("Smallest writes %d bytes, Balanced %d, Fastest %d", size[Smallest], size[Balanced], size[Fastest])
	}
}
