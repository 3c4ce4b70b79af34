package probe_test

import (
	"archive/zip"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"testing/fstest"

	"github.com/dtb-draughts/dtb/codec"
	"github.com/dtb-draughts/dtb/index"
	"github.com/dtb-draughts/dtb/internal/slim"
	"github.com/dtb-draughts/dtb/internal/tabletest"
	"github.com/dtb-draughts/dtb/internal/testenv"
	"github.com/dtb-draughts/dtb/probe"
	"github.com/dtb-draughts/dtb/rules"
)

// mapFS returns the files of dir, read into memory.
func mapFS(tb testing.TB, dir string) fstest.MapFS {
	tb.Helper()
	des, err := os.ReadDir(dir)
	if err != nil {
		tb.Fatal(err)
	}
	m := fstest.MapFS{}
	for _, d := range des {
		if !d.Type().IsRegular() {
			continue
		}
		b, err := os.ReadFile(filepath.Join(dir, d.Name()))
		if err != nil {
			tb.Fatal(err)
		}
		m[d.Name()] = &fstest.MapFile{Data: b}
	}
	return m
}

// zipFS returns the files of m in a zip archive, compressed.
func zipFS(tb testing.TB, m fstest.MapFS) fs.FS {
	tb.Helper()
	var b bytes.Buffer
	w := zip.NewWriter(&b)
	if err := w.AddFS(m); err != nil {
		tb.Fatal(err)
	}
	if err := w.Close(); err != nil {
		tb.Fatal(err)
	}
	r, err := zip.NewReader(bytes.NewReader(b.Bytes()), int64(b.Len()))
	if err != nil {
		tb.Fatal(err)
	}
	return r
}

// TestOpenFS probes tables read into memory (fstest.MapFS), with ReadAt
// and without, through OpenFS: every probe agrees with Open's of the
// directory, value, distances, dtw, mtc and errors alike. The tables: up
// to 4 pieces (a sample of the positions without DTB_LONG=1), a slim
// directory (tables searched through their colour flips, distance files
// without the short rule-2 distances), and the golden tables without
// ReadAt and in a zip archive.
func TestOpenFS(t *testing.T) {
	slimDir := filepath.Join(t.TempDir(), "slim")
	if err := slim.Write(context.Background(), tabletest.Rule2.Dir(t), slimDir, slim.Options{}); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name   string
		dir    string
		fsys   func(m fstest.MapFS) fs.FS
		stride int64
	}{
		{"four", tabletest.Four.Dir(t), nil, testenv.Stride(1, 257)}, // every block still read
		{"slim", slimDir, nil, testenv.Stride(1, 101)},
		{"golden-stream", tabletest.Golden, func(m fstest.MapFS) fs.FS { return testenv.StreamFS{FS: m} }, testenv.Stride(1, 7)},
		{"golden-zip", tabletest.Golden, func(m fstest.MapFS) fs.FS { return zipFS(t, m) }, 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var fsys fs.FS = mapFS(t, tc.dir)
			if tc.fsys != nil {
				fsys = tc.fsys(fsys.(fstest.MapFS))
			}
			mem, err := probe.OpenFS(fsys, probe.Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer mem.Close()
			disk := open(t, tc.dir)
			if got, want := mem.Materials(), disk.Materials(); !slices.Equal(got, want) {
				t.Fatalf("materials %v, want %v", got, want)
			}
			n := 0
			for _, m := range disk.Materials() {
				x := index.New(m)
				for i := int64(0); i < x.Size(); i += tc.stride {
					p := rules.Position(x.Unrank(i))
					got, err := mem.Probe(p, probe.Clocks{}, 0)
					want, werr := disk.Probe(p, probe.Clocks{}, 0)
					if got != want || fmt.Sprint(err) != fmt.Sprint(werr) {
						t.Fatalf("%s: %+v %v, from the directory %+v %v", p.FEN(), got, err, want, werr)
					}
					n++
				}
			}
			t.Logf("%d positions", n)
		})
	}
}

// TestOpenFSDamage opens the golden tables from memory, with ReadAt and
// without, short of a file, of the manifest, with a file truncated and
// with a damaged block: a probe that needs the file fails with an error
// of one line that names it, and wraps what errors.Is finds.
func TestOpenFSDamage(t *testing.T) {
	golden := mapFS(t, tabletest.Golden)
	values := golden["KKvK.dtb"].Data
	r, err := codec.NewReader(bytes.NewReader(values), int64(len(values)), "KKvK.dtb")
	if err != nil {
		t.Fatal(err)
	}
	flipped := bytes.Clone(values)
	flipped[r.PrefixLen()+int64(r.StoredLen(0, 0))/2] ^= 0x41 // in block 0 of the values
	kkvk := index.Material{WhiteKings: 2, BlackKings: 1}
	for _, tc := range []struct {
		name string
		edit func(m fstest.MapFS)
		want string // the error of a probe of KKvK reading every position
		is   error
	}{
		{"no manifest", func(m fstest.MapFS) { delete(m, codec.ManifestName) }, "open MANIFEST.json: file does not exist", fs.ErrNotExist},
		{"no values", func(m fstest.MapFS) { delete(m, "KKvK.dtb") }, "KKvK.dtb is listed in MANIFEST.json but missing", fs.ErrNotExist},
		{"no distances", func(m fstest.MapFS) { delete(m, "KKvK.dtbd") }, "KKvK.dtbd is missing: the table of KKvK has its distances there", fs.ErrNotExist},
		{"truncated", func(m fstest.MapFS) { m["KKvK.dtb"] = &fstest.MapFile{Data: values[:len(values)-1]} }, "KKvK.dtb is damaged (2304 bytes, MANIFEST.json says 2305)", codec.ErrCorrupt},
		{"damaged block", func(m fstest.MapFS) { m["KKvK.dtb"] = &fstest.MapFile{Data: flipped} }, "KKvK.dtb is damaged (block 0 of column value: ", codec.ErrCorrupt},
	} {
		for _, stream := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/stream=%v", tc.name, stream), func(t *testing.T) {
				m := maps(golden)
				tc.edit(m)
				var fsys fs.FS = m
				if stream {
					fsys = testenv.StreamFS{FS: m}
				}
				err := probeAll(fsys, kkvk)
				if !errors.Is(err, tc.is) || !strings.HasPrefix(err.Error(), tc.want) || strings.Contains(err.Error(), "\n") {
					t.Errorf("%v, want %q… wrapping %v", err, tc.want, tc.is)
				}
			})
		}
	}
}

// maps returns a copy of m that shares its files.
func maps(m fstest.MapFS) fstest.MapFS {
	c := make(fstest.MapFS, len(m))
	for k, v := range m {
		c[k] = v
	}
	return c
}

// probeAll opens the tables of fsys and probes every position of m,
// distances too, returning the first error.
func probeAll(fsys fs.FS, m index.Material) error {
	t, err := probe.OpenFS(fsys, probe.Options{})
	if err != nil {
		return err
	}
	defer t.Close()
	x := index.New(m)
	for i := range x.Size() {
		if _, err := t.Probe(rules.Position(x.Unrank(i)), probe.Clocks{}, 0); err != nil {
			return err
		}
	}
	return nil
}

// TestOpenFSSize opens a zip archive whose KvK.dtb inflates to 8 MiB
// where the manifest says 415 bytes: the probe fails, naming the file,
// before it reads any of it. Where the file system gives the manifest's
// size for the big file, as a zip header that lies would, the probe
// reads no more than one byte past that size.
func TestOpenFSSize(t *testing.T) {
	golden := mapFS(t, tabletest.Golden)
	listed := int64(len(golden["KvK.dtb"].Data))
	big := make([]byte, 8<<20)
	copy(big, golden["KvK.dtb"].Data)
	m := maps(golden)
	m["KvK.dtb"] = &fstest.MapFile{Data: big}
	archive := zipFS(t, m)
	for _, tc := range []struct {
		name string
		stat int64 // the size Stat gives, -1: the file's own
		want string
		most int64 // bytes read
	}{
		{"zip", -1, "KvK.dtb is damaged (8388608 bytes, MANIFEST.json says 415)", 0},
		{"lying size", listed, "KvK.dtb is damaged (416 bytes read, where the file system gives its size as 415)", listed + 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fsys := countingFS{FS: archive, name: "KvK.dtb", stat: tc.stat, read: new(atomic.Int64)}
			err := probeAll(fsys, index.Material{WhiteKings: 1, BlackKings: 1})
			if !errors.Is(err, codec.ErrCorrupt) || fmt.Sprint(err) != tc.want || fsys.read.Load() > tc.most {
				t.Errorf("%v after %d bytes read, want %q after at most %d", err, fsys.read.Load(), tc.want, tc.most)
			}
		})
	}
}

// countingFS is an fs.FS that counts the bytes read from its file name,
// whose Stat gives the size stat (the file's own where it is -1).
type countingFS struct {
	fs.FS
	name string
	stat int64
	read *atomic.Int64
}

func (c countingFS) Open(name string) (fs.File, error) {
	f, err := c.FS.Open(name)
	if err != nil || name != c.name {
		return f, err
	}
	return countedFile{f, c}, nil
}

// countedFile is the file of a countingFS, without ReadAt as a file of
// a zip archive.
type countedFile struct {
	f fs.File
	c countingFS
}

func (f countedFile) Read(p []byte) (int, error) {
	n, err := f.f.Read(p)
	f.c.read.Add(int64(n))
	return n, err
}

func (f countedFile) Stat() (fs.FileInfo, error) {
	fi, err := f.f.Stat()
	if err != nil || f.c.stat < 0 {
		return fi, err
	}
	return sizedInfo{fi, f.c.stat}, nil
}

func (f countedFile) Close() error { return f.f.Close() }

// sizedInfo is a FileInfo whose Size is size.
type sizedInfo struct {
	fs.FileInfo
	size int64
}

func (i sizedInfo) Size() int64 { return i.size }
