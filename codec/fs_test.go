package codec

import (
	"bytes"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/dtb-draughts/dtb/internal/testenv"
)

// TestOpenFS reads a table through the fs.FS of its directory, of memory
// (fstest.MapFS) and of memory without ReadAt: each gives what Open
// gives, through the reader OpenFS says it uses.
func TestOpenFS(t *testing.T) {
	path, h, data := writeTable(t, 5000, 1024)
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	mem := fstest.MapFS{"sub/x.dtb": {Data: b}}
	for _, tc := range []struct {
		name string
		fsys fs.FS
		file string
		from io.ReaderAt // of the same type as the reader's
	}{
		{"dir", os.DirFS(filepath.Dir(path)), filepath.Base(path), mustOpen(t, path).f}, // mapped where Open maps
		{"map", mem, "sub/x.dtb", func() io.ReaderAt { f, _ := mem.Open("sub/x.dtb"); return f.(io.ReaderAt) }()},
		{"stream", testenv.StreamFS{FS: mem}, "sub/x.dtb", bytes.NewReader(nil)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, err := OpenFS(tc.fsys, tc.file)
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			if got, want := reflect.TypeOf(r.f), reflect.TypeOf(tc.from); got != want {
				t.Errorf("read through a %v, want a %v", got, want)
			}
			if got := r.Header(); !reflect.DeepEqual(got, h) || r.Size() != int64(len(b)) {
				t.Fatalf("header %+v of %d bytes, want %+v of %d", got, r.Size(), h, len(b))
			}
			for c := range h.Columns {
				if got, err := r.ReadColumn(c); err != nil || !bytes.Equal(got, data[c]) {
					t.Fatalf("column %d: %v, or it differs", c, err)
				}
			}
		})
	}
}

// TestOpenFSDamage opens a missing file, a truncated one and one with a
// damaged block through fs.FS, with ReadAt and without: each error names
// the file, says what is wrong and wraps what errors.Is finds.
func TestOpenFSDamage(t *testing.T) {
	path, _, _ := writeTable(t, 300, 100)
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	r0 := mustOpen(t, path)
	e := r0.entries[len(r0.entries)-1]
	flipped := bytes.Clone(b)
	flipped[e.off+int64(e.n)/2] ^= 0x41
	mem := fstest.MapFS{"cut.dtb": {Data: b[:len(b)-1]}, "flip.dtb": {Data: flipped}}
	for _, fsys := range []fs.FS{mem, testenv.StreamFS{FS: mem}} {
		for _, tc := range []struct {
			file, want string
			is         error
		}{
			{"none.dtb", "open none.dtb: file does not exist", fs.ErrNotExist},
			{"cut.dtb", "cut.dtb is damaged (block 2 of column wide: offset", ErrCorrupt},
			{"flip.dtb", "flip.dtb is damaged (block 2 of column wide: ", ErrCorrupt},
		} {
			r, err := OpenFS(fsys, tc.file)
			if err == nil {
				err = r.Check()
				r.Close()
			}
			if !errors.Is(err, tc.is) || !strings.HasPrefix(err.Error(), tc.want) || strings.Contains(err.Error(), "\n") {
				t.Errorf("%T %s: %v, want %q… wrapping %v", fsys, tc.file, err, tc.want, tc.is)
			}
		}
	}
}
