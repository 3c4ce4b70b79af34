package codec

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sync"

	"github.com/klauspost/compress/zstd"

	"github.com/dtb-draughts/dtb/internal/fault"
)

// Write writes the table to path atomically: it writes a temporary file in
// the same directory (name ending in ".tmp"), syncs it, renames it to path
// and syncs the directory. data[i] holds column i of h.Columns and must be
// h.Positions*h.Columns[i].Width bytes long. Blocks are compressed in
// parallel. On any error the temporary file is removed and no new file
// carries the name path; an older file there is left alone unless the
// error is the failure to sync the directory after the rename, in which
// case the new file is removed. Write is NewWriter, a Write of each column
// and Close.
func Write(path string, h Header, data [][]byte) error {
	w, err := NewWriter(path, h)
	if err != nil {
		return err
	}
	for i, d := range data {
		if _, err := w.Write(i, d); err != nil {
			break // Close returns the error
		}
	}
	return w.Close()
}

// A Writer writes a table file from its columns given a piece at a time,
// holding only a few blocks of them. Each column's bytes go in through
// Write, in order, in chunks of any size, the columns in any interleaving.
// A block is compressed as soon as it is full, on its own goroutine; at
// most GOMAXPROCS plus the number of columns blocks are held, full or
// being filled, so memory does not grow with the table. The compressed
// blocks wait in memory, or beyond a limit (32 MiB) in a second temporary
// file next to the table, until Close writes the file: the same bytes as
// Write writes from the same header and columns.
//
// A Writer is not safe for concurrent use.
type Writer struct {
	path    string
	h       Header
	enc     *zstd.Encoder
	nb      int       // blocks per column
	out     *tempFile // the file, written at Close
	cols    []column
	free    chan *block // idle block buffers
	made    int         // block buffers allocated
	size    int         // bytes of a block buffer
	closed  bool
	jobs    sync.WaitGroup
	mu      sync.Mutex // guards err, spool and entries while blocks compress
	err     error
	spool   spool
	entries []entry // entries[c*nb+b] is block b of column c, off unset
}

// column is what a Writer holds of a column: the bytes written so far and
// the block being filled, nil between blocks.
type column struct {
	written int64
	cur     *block
}

// block is a buffer for a block's bytes, its stored form where that is
// not the bytes (tokens or packed) and its compressed form.
type block struct{ raw, packed, comp []byte }

// writeError returns the error of writing path: "write path: err".
func writeError(path string, err error) error { return fmt.Errorf("write %s: %w", path, err) }

// NewWriter starts writing the table of header h to path (see Write): it
// checks h and creates the temporary file. h.BlockSize 0 means
// DefaultBlockSize; SetMeta may still change h.Meta. The caller must end
// with Close or Abort.
func NewWriter(path string, h Header) (*Writer, error) {
	if h.BlockSize == 0 {
		h.BlockSize = DefaultBlockSize
	}
	h.Columns = slices.Clone(h.Columns)
	h.Meta = maps.Clone(h.Meta)
	if _, err := encodeHeader(&h); err != nil {
		return nil, writeError(path, err)
	}
	enc, err := encoders[Balanced]()
	if err != nil {
		return nil, writeError(path, err)
	}
	out, err := createTemp(path)
	if err != nil {
		return nil, writeError(path, err)
	}
	nb := int(numBlocks(h.Positions, h.BlockSize))
	width := 0
	for _, c := range h.Columns {
		width = max(width, c.Width)
	}
	return &Writer{
		path:    path,
		h:       h,
		enc:     enc,
		nb:      nb,
		out:     out,
		cols:    make([]column, len(h.Columns)),
		free:    make(chan *block, runtime.GOMAXPROCS(0)+len(h.Columns)),
		size:    int(min(int64(h.BlockSize), h.Positions)) * width,
		spool:   spool{path: path, held: make([][]byte, len(h.Columns)*nb)},
		entries: make([]entry, len(h.Columns)*nb),
	}, nil
}

// SetMeta sets the meta entry key of the header to value, for Close to
// write: the stats of a table, say, counted while its columns are written.
func (w *Writer) SetMeta(key, value string) {
	if w.h.Meta == nil {
		w.h.Meta = make(map[string]string)
	}
	w.h.Meta[key] = value
}

// SetCompression sets how hard the Writer compresses the blocks
// (Balanced unless set). It must come before the first Write.
func (w *Writer) SetCompression(c Compression) {
	enc, err := encoders[c]()
	if err != nil {
		w.fail(err)
		return
	}
	w.enc = enc
}

// fail records err as the Writer's error unless it has one, and returns
// the Writer's error.
func (w *Writer) fail(err error) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.err == nil {
		w.err = writeError(w.path, err)
	}
	return w.err
}

// failed returns the Writer's error, nil if none.
func (w *Writer) failed() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.err
}

var errClosed = errors.New("writer closed")

// Write appends p to column col. It fails when p takes the column past
// its Positions*Width bytes. After an error, from Write or from writing
// the compressed blocks, every Write fails and Close returns the error.
func (w *Writer) Write(col int, p []byte) (int, error) {
	switch {
	case w.closed:
		return 0, writeError(w.path, errClosed)
	case col < 0 || col >= len(w.cols):
		return 0, w.fail(fmt.Errorf("column %d out of range (%d columns)", col, len(w.cols)))
	}
	if err := w.failed(); err != nil {
		return 0, err
	}
	c, name, width := &w.cols[col], w.h.Columns[col].Name, int64(w.h.Columns[col].Width)
	if want := w.h.Positions * width; int64(len(p)) > want-c.written {
		return 0, w.fail(fmt.Errorf("column %q: %d bytes, more than its %d", name, c.written+int64(len(p)), want))
	}
	n := len(p)
	for len(p) > 0 {
		if c.cur == nil {
			c.cur = w.buffer()
		}
		b := int(c.written / (int64(w.h.BlockSize) * width))
		full := w.h.blockLen(col, b)
		k := min(full-len(c.cur.raw), len(p))
		c.cur.raw = append(c.cur.raw, p[:k]...)
		p, c.written = p[k:], c.written+int64(k)
		if len(c.cur.raw) == full {
			w.compress(col*w.nb+b, c.cur)
			c.cur = nil
		}
	}
	return n, nil
}

// buffer returns an idle block buffer, waiting for one once all are made.
func (w *Writer) buffer() *block {
	select {
	case b := <-w.free:
		return b
	default:
	}
	if w.made < cap(w.free) {
		w.made++
		return &block{raw: make([]byte, 0, w.size)}
	}
	return <-w.free
}

// compress compresses b, block i of the block table, on a new goroutine,
// adds it to the spool and returns the buffer to the idle ones.
func (w *Writer) compress(i int, b *block) {
	w.jobs.Go(func() {
		form := storedForm(b.packed, b.raw, w.h.Columns[i/w.nb].Width)
		if len(form) < len(b.raw) {
			b.packed = form
		}
		crc := crc32.Checksum(form, castagnoli)
		b.comp = w.enc.EncodeAll(form, b.comp[:0])
		w.mu.Lock()
		if w.err == nil {
			if err := w.spool.add(i, b.comp); err != nil {
				w.err = writeError(w.path, err)
			}
			w.entries[i] = entry{n: uint32(len(b.comp)), crc: crc}
		}
		w.mu.Unlock()
		b.raw = b.raw[:0]
		w.free <- b
	})
}

// Close checks that every column got all its bytes, writes the file and
// renames it to its path (see Write). On error, its own or an earlier one
// of Write, it removes the temporary files and leaves nothing new under
// the path.
func (w *Writer) Close() error {
	if w.closed {
		return writeError(w.path, errClosed)
	}
	w.closed = true
	w.jobs.Wait()
	defer w.spool.remove()
	err := w.err
	if err == nil {
		if err = w.writeOut(); err != nil {
			err = writeError(w.path, err)
		}
	}
	if err != nil {
		w.out.remove()
		return err
	}
	if err := w.out.commit(w.path); err != nil {
		return writeError(w.path, err)
	}
	return nil
}

// Abort discards the file: it waits for the blocks being compressed and
// removes the temporary files. After Close it does nothing, so a deferred
// Abort cleans up after any early return.
func (w *Writer) Abort() {
	if w.closed {
		return
	}
	w.closed = true
	w.jobs.Wait()
	w.spool.remove()
	w.out.remove()
}

// writeOut writes the prefix, header, block table and checksum, then the
// blocks in block table order.
func (w *Writer) writeOut() error {
	for c, col := range w.h.Columns {
		if want := w.h.Positions * int64(col.Width); w.cols[c].written != want {
			return fmt.Errorf("column %q: %d bytes, want %d", col.Name, w.cols[c].written, want)
		}
	}
	head, err := encodeHeader(&w.h)
	if err != nil {
		return err
	}
	if _, err := w.out.w.Write(encodePrefix(Version, head, w.entries)); err != nil {
		return err
	}
	var buf []byte
	for i, e := range w.entries {
		if buf, err = w.spool.block(i, int(e.n), buf); err != nil {
			return err
		}
		if _, err := w.out.w.Write(buf); err != nil {
			return err
		}
	}
	return nil
}

// encodePrefix returns the bytes of a file of format version v before its
// blocks: prefix, header head, block table (the entries' offsets set) and
// checksum.
func encodePrefix(f Format, head []byte, entries []entry) []byte {
	dataStart := prefixLen + len(head) + len(entries)*entryLen + 4
	meta := make([]byte, prefixLen, dataStart)
	copy(meta, magic)
	binary.LittleEndian.PutUint32(meta[8:], uint32(f))
	binary.LittleEndian.PutUint32(meta[12:], uint32(len(head)))
	binary.LittleEndian.PutUint64(meta[16:], uint64(len(entries)*entryLen))
	meta = append(meta, head...)
	off := uint64(dataStart)
	for _, e := range entries {
		meta = binary.LittleEndian.AppendUint64(meta, off)
		meta = binary.LittleEndian.AppendUint32(meta, e.n)
		meta = binary.LittleEndian.AppendUint32(meta, e.crc)
		off += uint64(e.n)
	}
	return binary.LittleEndian.AppendUint32(meta, crc32.Checksum(meta, castagnoli))
}

// spillLimit is the size up to which a Writer keeps the compressed blocks
// in memory. Tests lower it.
var spillLimit = 32 << 20

// spool holds the compressed blocks until Close writes them in block
// table order: in memory up to spillLimit bytes in all, then in a
// temporary file next to the table, in the order they came.
type spool struct {
	path string    // the table's
	held [][]byte  // held[i] is block i, until the spill
	n    int       // bytes held
	file *tempFile // nil until the spill
	off  []int64   // off[i] is the offset of block i in file
	size int64     // bytes in file
}

// add stores b as block i.
func (s *spool) add(i int, b []byte) error {
	if s.file == nil && s.n+len(b) > spillLimit {
		f, err := createTemp(s.path)
		if err != nil {
			return err
		}
		s.file, s.off = f, make([]int64, len(s.held))
		for j, h := range s.held {
			if h != nil {
				if err := s.write(j, h); err != nil {
					return err
				}
			}
		}
		s.held = nil
	}
	if s.file != nil {
		return s.write(i, b)
	}
	s.held[i] = bytes.Clone(b)
	s.n += len(b)
	return nil
}

// write appends block i to the file.
func (s *spool) write(i int, b []byte) error {
	s.off[i] = s.size
	s.size += int64(len(b))
	_, err := s.file.w.Write(b)
	return err
}

// block returns block i, n bytes long: as held, or read from the file
// into buf's storage.
func (s *spool) block(i, n int, buf []byte) ([]byte, error) {
	if s.file == nil {
		return s.held[i], nil
	}
	if err := s.file.w.Flush(); err != nil {
		return nil, err
	}
	buf = slices.Grow(buf[:0], n)[:n]
	_, err := s.file.f.ReadAt(buf, s.off[i])
	return buf, err
}

// remove drops the blocks.
func (s *spool) remove() {
	if s.file != nil {
		s.file.remove()
	}
	s.held, s.file = nil, nil
}

// tempFile is a file written under a temporary name in the directory of
// its final name, through package fault.
type tempFile struct {
	f   *os.File
	w   *bufio.Writer
	dir string
}

// TempGlob is the glob pattern of the temporary files of atomic writes of
// files named name (a glob too: "*.dtb"), NAME.*.tmp; an interrupted write
// leaves one behind, which RemoveTemps removes.
func TempGlob(name string) string { return name + ".*.tmp" }

// RemoveTemps removes the files of dir that match the glob patterns:
// those that interrupted writes left (TempGlob), and any other scratch
// of the caller's. Only one process may write a directory's files at a
// time: the caller holds its lock.
func RemoveTemps(dir string, patterns ...string) error {
	for _, pattern := range patterns {
		files, err := filepath.Glob(filepath.Join(dir, pattern))
		if err != nil {
			return err
		}
		for _, f := range files {
			if err := os.Remove(f); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return err
			}
		}
	}
	return nil
}

// createTemp creates a temporary file next to path: its name is path's
// base name, a random part and ".tmp".
func createTemp(path string) (*tempFile, error) {
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	f, err := os.CreateTemp(dir, TempGlob(base))
	if err != nil {
		return nil, err
	}
	return &tempFile{f: f, w: bufio.NewWriterSize(fault.Writer(f), 1<<20), dir: dir}, nil
}

// remove closes and removes the file, unless a simulated kill struck: a
// killed process cleans up nothing.
func (t *tempFile) remove() {
	t.f.Close()
	if !fault.Killed() {
		os.Remove(t.f.Name())
	}
}

// commit flushes and syncs the file, renames it to path and syncs the
// directory. On error it removes the file, and the file under path if
// only the directory sync failed.
func (t *tempFile) commit(path string) error {
	err := t.w.Flush()
	if err == nil {
		err = t.f.Chmod(0o644)
	}
	if err == nil {
		err = t.f.Sync()
	}
	if err == nil {
		err = t.f.Close()
	}
	if err == nil {
		err = os.Rename(t.f.Name(), path)
	}
	if err != nil {
		t.remove()
		return err
	}
	if err := syncDir(t.dir); err != nil {
		os.Remove(path)
		return err
	}
	return nil
}

// CopyFile copies the file at src to dst atomically, as Write writes a
// table: dst is the whole copy or as it was.
func CopyFile(dst, src string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	if err := WriteAtomic(dst, func(w io.Writer) error {
		_, err := io.Copy(w, in)
		return err
	}); err != nil {
		return writeError(dst, err)
	}
	return nil
}

// WriteAtomic writes a file through a temporary file in the same
// directory, then renames it to path and syncs the directory. On error it
// removes the temporary file and leaves nothing new under path. Its writes
// go through package fault, which tests use to make them fail.
func WriteAtomic(path string, write func(io.Writer) error) error {
	t, err := createTemp(path)
	if err != nil {
		return err
	}
	if err := write(t.w); err != nil {
		t.remove()
		return err
	}
	return t.commit(path)
}

func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	err = d.Sync()
	if cerr := d.Close(); err == nil {
		err = cerr
	}
	return err
}
