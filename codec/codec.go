package codec

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"io/fs"
	"math"
	"os"
	"runtime"
	"runtime/debug"
	"slices"
	"sort"
	"sync"
	"sync/atomic"

	"github.com/klauspost/compress/zstd"

	"github.com/dtb-draughts/dtb/runs"
)

// Kind says which part of a table a file holds; the caller chooses the
// columns of each.
type Kind uint8

// The kinds of file.
const (
	Whole     Kind = iota // the whole table: every file of versions 1 and 2
	Values                // the values a search reads
	Distances             // the distances, read beside the file of Values
)

func (k Kind) String() string {
	switch k {
	case Whole:
		return "whole table"
	case Values:
		return "value file"
	case Distances:
		return "distance file"
	}
	return fmt.Sprintf("kind %d", uint8(k))
}

// DefaultBlockSize is the number of positions per block used by Write when
// Header.BlockSize is 0.
const DefaultBlockSize = 1 << 16

const (
	magic         = "DTBTABLE"
	prefixLen     = 24      // magic, version, H, T
	entryLen      = 16      // one block table entry
	maxHeaderLen  = 1 << 20 // H
	maxBlockSize  = 1 << 24 // positions per block
	maxPositions  = 1 << 56
	maxBlockBytes = maxBlockSize * 4
)

var (
	// ErrCorrupt is wrapped by every error caused by a damaged file:
	// truncation, a wrong magic, a length out of range, a checksum
	// mismatch or a block that does not decode.
	ErrCorrupt = errors.New("damaged file")
	// ErrVersion is wrapped by the error Open returns for a file whose
	// format version this package does not know.
	ErrVersion = errors.New("unknown format version")
)

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// Column describes one fixed-width byte column of a table.
type Column struct {
	Name  string
	Width int // bytes per position: 1, 2 or 4
}

// Header describes a table. It is stored at the start of the file.
type Header struct {
	Material     string // e.g. "KKMvK"
	Kind         Kind   // the part of the table the file holds
	IndexVersion uint32 // version of the index scheme that orders the positions
	Rules        uint32 // opaque flags chosen by the caller
	Positions    int64
	BlockSize    int // positions per block; 0 means DefaultBlockSize on write
	Columns      []Column
	Meta         map[string]string // small free-form key/values, stored sorted by key; nil when empty on read
}

// A FileError is the error of a file this package cannot read as it is:
// a damaged one (Kind ErrCorrupt: truncated, a checksum mismatch, a block
// that does not decode, ...) or one of a format version it does not know
// (Kind ErrVersion). Its message names the file and says in words what
// is wrong and where; the cause, such as the decoder's own error, is
// wrapped but left out of the message.
type FileError struct {
	Path   string
	Kind   error  // ErrCorrupt or ErrVersion
	Reason string // e.g. "checksum mismatch in block 12 of column value"
	Err    error  // the cause, or nil
}

func (e *FileError) Error() string {
	if e.Kind == ErrVersion {
		return fmt.Sprintf("%s is of a format this version of dtb does not read (%s)", e.Path, e.Reason)
	}
	return fmt.Sprintf("%s is damaged (%s)", e.Path, e.Reason)
}

// Unwrap returns Kind and the cause.
func (e *FileError) Unwrap() []error {
	if e.Err == nil {
		return []error{e.Kind}
	}
	return []error{e.Kind, e.Err}
}

// newError returns the FileError of path of the kind and cause given, its
// reason formatted.
func newError(kind error, path string, cause error, format string, args ...any) error {
	return &FileError{Path: path, Kind: kind, Reason: fmt.Sprintf(format, args...), Err: cause}
}

// numBlocks returns ceil(positions/blockSize).
func numBlocks(positions int64, blockSize int) int64 {
	return (positions + int64(blockSize) - 1) / int64(blockSize)
}

// blockLen returns the decoded length in bytes of block block of column
// col.
func (h *Header) blockLen(col, block int) int {
	lo := int64(block) * int64(h.BlockSize)
	return int(min(int64(h.BlockSize), h.Positions-lo)) * h.Columns[col].Width
}

// validate checks the header fields that both Write and Open rely on.
func validate(h *Header) error {
	switch {
	case len(h.Material) > math.MaxUint16:
		return errors.New("material name too long")
	case h.Kind > Distances:
		return fmt.Errorf("%v out of range", h.Kind)
	case h.Positions < 0 || h.Positions > maxPositions:
		return fmt.Errorf("positions %d out of range", h.Positions)
	case h.BlockSize < 1 || h.BlockSize > maxBlockSize:
		return fmt.Errorf("block size %d out of range [1, %d]", h.BlockSize, maxBlockSize)
	case len(h.Columns) < 1 || len(h.Columns) > math.MaxUint16:
		return fmt.Errorf("%d columns, want 1 to %d", len(h.Columns), math.MaxUint16)
	}
	for i, c := range h.Columns {
		if c.Name == "" || len(c.Name) > math.MaxUint16 {
			return fmt.Errorf("column %d: bad name %q", i, c.Name)
		}
		if c.Width != 1 && c.Width != 2 && c.Width != 4 {
			return fmt.Errorf("column %q: width %d, want 1, 2 or 4", c.Name, c.Width)
		}
		for _, d := range h.Columns[:i] {
			if d.Name == c.Name {
				return fmt.Errorf("duplicate column %q", c.Name)
			}
		}
	}
	return nil
}

func appendString(b []byte, s string) []byte {
	b = binary.LittleEndian.AppendUint16(b, uint16(len(s)))
	return append(b, s...)
}

// encodeHeader returns the header bytes (the H bytes after the prefix).
func encodeHeader(h *Header) ([]byte, error) {
	if err := validate(h); err != nil {
		return nil, err
	}
	b := appendString(nil, h.Material)
	b = append(b, byte(h.Kind))
	b = binary.LittleEndian.AppendUint32(b, h.IndexVersion)
	b = binary.LittleEndian.AppendUint32(b, h.Rules)
	b = binary.LittleEndian.AppendUint64(b, uint64(h.Positions))
	b = binary.LittleEndian.AppendUint32(b, uint32(h.BlockSize))
	b = binary.LittleEndian.AppendUint16(b, uint16(len(h.Columns)))
	for _, c := range h.Columns {
		b = appendString(b, c.Name)
		b = append(b, byte(c.Width))
	}
	keys := make([]string, 0, len(h.Meta))
	for k := range h.Meta {
		if len(k) > math.MaxUint16 || len(h.Meta[k]) > maxHeaderLen {
			return nil, fmt.Errorf("meta %.20q: too long", k)
		}
		keys = append(keys, k)
	}
	sort.Strings(keys)
	b = binary.LittleEndian.AppendUint32(b, uint32(len(keys)))
	for _, k := range keys {
		b = appendString(b, k)
		b = binary.LittleEndian.AppendUint32(b, uint32(len(h.Meta[k])))
		b = append(b, h.Meta[k]...)
	}
	if len(b) > maxHeaderLen {
		return nil, fmt.Errorf("header is %d bytes, more than %d", len(b), maxHeaderLen)
	}
	return b, nil
}

// cursor reads header fields; the first short read sets ok to false and
// makes every later read return zero values.
type cursor struct {
	b  []byte
	ok bool
}

func (c *cursor) take(n int) []byte {
	if !c.ok || n < 0 || n > len(c.b) {
		c.ok = false
		return nil
	}
	p := c.b[:n]
	c.b = c.b[n:]
	return p
}

func (c *cursor) u8() byte {
	if p := c.take(1); p != nil {
		return p[0]
	}
	return 0
}

func (c *cursor) u16() uint16 {
	if p := c.take(2); p != nil {
		return binary.LittleEndian.Uint16(p)
	}
	return 0
}

func (c *cursor) u32() uint32 {
	if p := c.take(4); p != nil {
		return binary.LittleEndian.Uint32(p)
	}
	return 0
}

func (c *cursor) u64() uint64 {
	if p := c.take(8); p != nil {
		return binary.LittleEndian.Uint64(p)
	}
	return 0
}

func (c *cursor) str() string { return string(c.take(int(c.u16()))) }

// decodeHeader parses and validates the header bytes of a file of format
// f.
func decodeHeader(b []byte, f Format) (Header, error) {
	c := cursor{b: b, ok: true}
	var h Header
	h.Material = c.str()
	if f.HasKind() {
		h.Kind = Kind(c.u8())
	}
	h.IndexVersion = c.u32()
	h.Rules = c.u32()
	p := c.u64()
	if p > maxPositions {
		return h, fmt.Errorf("positions %d out of range", p)
	}
	h.Positions = int64(p)
	h.BlockSize = int(c.u32())
	n := int(c.u16())
	if n > len(c.b)/3 { // a column takes at least 3 bytes
		return h, errors.New("column count out of range")
	}
	h.Columns = make([]Column, n)
	for i := range h.Columns {
		h.Columns[i] = Column{Name: c.str(), Width: int(c.u8())}
	}
	m := c.u32()
	if m > uint32(len(c.b)/6) { // an entry takes at least 6 bytes
		return h, errors.New("meta count out of range")
	}
	prev := ""
	for i := range int(m) {
		k := c.str()
		v := string(c.take(int(c.u32())))
		if !c.ok {
			break
		}
		if i > 0 && k <= prev {
			return h, errors.New("meta keys not sorted")
		}
		if h.Meta == nil {
			h.Meta = make(map[string]string, m)
		}
		h.Meta[k] = v
		prev = k
	}
	if !c.ok {
		return h, errors.New("truncated")
	}
	if len(c.b) != 0 {
		return h, fmt.Errorf("%d trailing bytes", len(c.b))
	}
	return h, validate(&h)
}

// forEach calls f(i) for every i in [0, n) on up to GOMAXPROCS goroutines.
// After a failure it starts no new calls and returns the error of the
// lowest failing i; since indices are handed out in order, that is the
// first error a sequential loop would have met.
func forEach(n int, f func(i int) error) error {
	var (
		next   atomic.Int64
		failed atomic.Bool
		mu     sync.Mutex
		errAt  = n
		first  error
		wg     sync.WaitGroup
	)
	for range min(runtime.GOMAXPROCS(0), n) {
		wg.Go(func() {
			for !failed.Load() {
				i := int(next.Add(1) - 1)
				if i >= n {
					return
				}
				if err := f(i); err != nil {
					mu.Lock()
					if i < errAt {
						errAt, first = i, err
					}
					mu.Unlock()
					failed.Store(true)
				}
			}
		})
	}
	wg.Wait()
	return first
}

// Compression is how hard a Writer compresses the blocks. It changes the
// bytes of a file, not what they decode to; Smallest's blocks of table
// columns decoded 20 to 85% slower than Balanced's when measured.
type Compression int

const (
	// Balanced is zstd's "better" level: the default, for files written
	// and read again soon.
	Balanced Compression = iota
	// Smallest is zstd's "best" level: about a fifth smaller than
	// Balanced on tables and several times slower to write, for files
	// that are written once and read often.
	Smallest
	// Fastest is zstd's "fastest" level: larger than Balanced and
	// quicker to write, for files written once and read once or twice
	// (the work files of a build), and its encoder is the smallest.
	Fastest
)

var (
	encoders = [...]func() (*zstd.Encoder, error){
		Balanced: newEncoder(zstd.SpeedBetterCompression),
		Smallest: newEncoder(zstd.SpeedBestCompression),
		Fastest:  newEncoder(zstd.SpeedFastest),
	}
	decoder = sync.OnceValues(func() (*zstd.Decoder, error) {
		return zstd.NewReader(nil,
			zstd.WithDecoderConcurrency(0),
			zstd.WithDecoderMaxMemory(maxBlockBytes),
			zstd.WithDecodeAllCapLimit(true))
	})
)

// newEncoder returns a function that makes, on its first call, the
// shared encoder of the zstd level l and returns it.
func newEncoder(l zstd.EncoderLevel) func() (*zstd.Encoder, error) {
	return sync.OnceValues(func() (*zstd.Encoder, error) {
		return zstd.NewWriter(nil,
			zstd.WithEncoderLevel(l),
			zstd.WithEncoderCRC(false),
			zstd.WithEncoderConcurrency(0))
	})
}

// Reader reads a table file. It keeps the header and the block table in
// memory and reads blocks on demand with ReadAt, so it is safe for
// concurrent use by many goroutines without locking.
type Reader struct {
	f       io.ReaderAt
	close   func() error
	size    int64
	path    string
	format  Format // the file's format version
	h       Header
	nblocks int
	entries []entry // entries[c*nblocks+b] is block b of column c
	prefix  int64   // bytes before the first block
	// headerCRC is the checksum of the bytes before it: prefix, header
	// and block table.
	headerCRC uint32
}

type entry struct {
	off int64
	n   uint32
	crc uint32
}

// Open opens a table file and reads and validates its header and block
// table (including the header checksum). It reads no blocks. Where it
// can (on Unix), it maps the file into memory, so that a block's read
// is a copy from the page cache rather than a system call.
func Open(path string) (*Reader, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	return OpenFile(f, path)
}

// OpenFS opens the table file name of fsys as Open does, naming it name
// in errors, and reads it as OpenFile does.
func OpenFS(fsys fs.FS, name string) (*Reader, error) {
	f, err := fsys.Open(name)
	if err != nil {
		return nil, err
	}
	return OpenFile(f, name)
}

// OpenFile reads the table that f holds, an open file of the system or
// of an fs.FS, named name in errors, as Open does. An *os.File (of
// os.Open or os.DirFS) is mapped where Open maps one; another file is
// read through its ReadAt (the files of testing/fstest.MapFS and
// embed.FS have one), and a file without ReadAt (archive/zip's) is read
// whole into memory at once, no more than one byte past the size its
// Stat gives: a file that holds another is damaged. The Reader closes
// f, or f is closed.
func OpenFile(f fs.File, name string) (*Reader, error) {
	from, size, closeFile, err := readerOf(f, name)
	if err != nil {
		return nil, err
	}
	r, err := NewReader(from, size, name)
	if err != nil {
		closeFile()
		return nil, err
	}
	r.close = closeFile
	return r, nil
}

// readerOf returns what reads f, named name in errors, its size and the
// function that closes it: f mapped, f itself if it has ReadAt, or its
// bytes read whole. On an error f is closed.
func readerOf(f fs.File, name string) (io.ReaderAt, int64, func() error, error) {
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, 0, nil, err
	}
	size := st.Size()
	if osf, ok := f.(*os.File); ok {
		if data, unmap := mapFile(osf, size); data != nil {
			f.Close() // the mapping keeps the file
			return mapped(data), size, unmap, nil
		}
	}
	if ra, ok := f.(io.ReaderAt); ok {
		return ra, size, f.Close, nil
	}
	data, err := io.ReadAll(io.LimitReader(f, size+1))
	f.Close()
	if err == nil && int64(len(data)) != size {
		err = newError(ErrCorrupt, name, nil, "%d bytes read, where the file system gives its size as %d", len(data), size)
	}
	if err != nil {
		return nil, 0, nil, err
	}
	return bytes.NewReader(data), size, func() error { return nil }, nil
}

// mapped is the bytes of a file mapped into memory (mapFile).
type mapped []byte

// ReadAt copies the bytes of m from off into p. A fault while it copies
// (the file cut short under the mapping) is an error, not a crash.
func (m mapped) ReadAt(p []byte, off int64) (n int, err error) {
	if off < 0 || off >= int64(len(m)) {
		return 0, io.EOF
	}
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if e := recover(); e != nil {
			if _, fault := e.(interface{ Addr() uintptr }); !fault {
				panic(e)
			}
			n, err = 0, io.ErrUnexpectedEOF
		}
	}()
	if n = copy(p, m[off:]); n < len(p) {
		err = io.EOF
	}
	return n, err
}

// NewReader reads the table of size bytes that f holds, named name in
// errors, as Open does, for a table that is no file of the system: in
// memory (a bytes.Reader), or a part of an archive (an io.SectionReader).
// f must allow parallel calls of ReadAt, as io.ReaderAt says. Close does
// not close f.
func NewReader(f io.ReaderAt, size int64, name string) (*Reader, error) {
	r := &Reader{f: f, close: func() error { return nil }, size: size, path: name}
	if err := r.load(); err != nil {
		return nil, err
	}
	return r, nil
}

func (r *Reader) corrupt(format string, args ...any) error {
	return newError(ErrCorrupt, r.path, nil, format, args...)
}

// blockError returns the ErrCorrupt error of block block of column col:
// where, then the reason formatted.
func (r *Reader) blockError(col, block int, cause error, format string, args ...any) error {
	return newError(ErrCorrupt, r.path, cause, "block %d of column %s: %s", block, r.h.Columns[col].Name, fmt.Sprintf(format, args...))
}

func (r *Reader) load() error {
	size := r.size
	if size < prefixLen+4 {
		return r.corrupt("truncated: %d bytes", size)
	}
	var pre [prefixLen]byte
	if _, err := r.f.ReadAt(pre[:], 0); err != nil {
		return r.readError(-1, -1, err)
	}
	if string(pre[:8]) != magic {
		return r.corrupt("not a table file: it begins %q", pre[:8])
	}
	r.format = Format(binary.LittleEndian.Uint32(pre[8:]))
	if r.format < MinVersion || r.format > Version {
		return newError(ErrVersion, r.path, nil, "format version %d, this version reads %d to %d", r.format, MinVersion, Version)
	}
	hl := int64(binary.LittleEndian.Uint32(pre[12:]))
	tl := binary.LittleEndian.Uint64(pre[16:])
	if hl > maxHeaderLen || tl > uint64(size) || prefixLen+hl+int64(tl)+4 > size {
		return r.corrupt("header length %d or block table length %d out of range for a %d-byte file", hl, tl, size)
	}
	dataStart := prefixLen + hl + int64(tl) + 4
	r.prefix = dataStart
	meta := make([]byte, dataStart)
	if _, err := r.f.ReadAt(meta, 0); err != nil {
		return r.readError(-1, -1, err)
	}
	if got, want := crc32.Checksum(meta[:dataStart-4], castagnoli), binary.LittleEndian.Uint32(meta[dataStart-4:]); got != want {
		return r.corrupt("header checksum mismatch")
	}
	r.headerCRC = binary.LittleEndian.Uint32(meta[dataStart-4:])
	h, err := decodeHeader(meta[prefixLen:prefixLen+hl], r.format)
	if err != nil {
		return r.corrupt("bad header: %v", err)
	}
	r.h = h
	nb := numBlocks(r.h.Positions, r.h.BlockSize)
	if uint64(nb) > tl/entryLen || uint64(nb)*uint64(len(r.h.Columns))*entryLen != tl {
		return r.corrupt("block table length %d does not match %d columns of %d blocks", tl, len(r.h.Columns), nb)
	}
	r.nblocks = int(nb)
	r.entries = make([]entry, len(r.h.Columns)*r.nblocks)
	table := meta[prefixLen+hl : dataStart-4]
	off := dataStart
	for i := range r.entries {
		e := entry{
			off: int64(binary.LittleEndian.Uint64(table[i*entryLen:])),
			n:   binary.LittleEndian.Uint32(table[i*entryLen+8:]),
			crc: binary.LittleEndian.Uint32(table[i*entryLen+12:]),
		}
		if e.off != off || int64(e.n) > size-off {
			return r.blockError(i/r.nblocks, i%r.nblocks, nil,
				"offset %d length %d out of range, want offset %d in a %d-byte file", e.off, e.n, off, size)
		}
		// zstd cannot expand a byte to more than about 2^15 bytes, so a
		// block table that claims more is damaged. In version 1 a block
		// is its form, so this bounds what ReadColumn allocates by the
		// file size; in version 2 a packed form of 2 bytes stands for a
		// constant block of any length, and only the header (under its
		// checksum) bounds a column.
		limit := int64(e.n) << 16
		if r.format.Packs() && e.n > 0 {
			limit = maxBlockBytes
		}
		if col, b := i/r.nblocks, i%r.nblocks; int64(r.h.blockLen(col, b)) > limit {
			return r.blockError(col, b, nil,
				"compressed length %d too small for %d decoded bytes", e.n, r.h.blockLen(col, b))
		}
		r.entries[i] = e
		off += int64(e.n)
	}
	if off != size {
		return r.corrupt("blocks end at %d but the file has %d bytes", off, size)
	}
	return nil
}

// readError returns the error of a ReadAt of block block of column col
// (of the header for a negative col) that failed with err: a short read
// means the file is truncated.
func (r *Reader) readError(col, block int, err error) error {
	switch {
	case !errors.Is(err, io.EOF) && !errors.Is(err, io.ErrUnexpectedEOF):
		return err
	case col < 0:
		return newError(ErrCorrupt, r.path, err, "truncated")
	}
	return r.blockError(col, block, err, "truncated")
}

// Header returns a copy of the table header.
func (r *Reader) Header() Header {
	h := r.h
	h.Columns = slices.Clone(h.Columns)
	if h.Meta != nil {
		h.Meta = make(map[string]string, len(r.h.Meta))
		for k, v := range r.h.Meta {
			h.Meta[k] = v
		}
	}
	return h
}

// Format returns the file's format version, MinVersion to Version.
func (r *Reader) Format() Format { return r.format }

// Blocks returns the number of blocks of each column.
func (r *Reader) Blocks() int { return r.nblocks }

// StoredLen returns the bytes block block of column col takes in the
// file, compressed, or -1 if there is no such block. With PrefixLen they
// account for every byte of the file.
func (r *Reader) StoredLen(col, block int) int {
	if col < 0 || col >= len(r.h.Columns) || block < 0 || block >= r.nblocks {
		return -1
	}
	return int(r.entries[col*r.nblocks+block].n)
}

// Size returns the bytes of the file.
func (r *Reader) Size() int64 { return r.size }

// PrefixLen returns the bytes before the first block: the fixed prefix,
// the header, the block table and their checksum (28+H+T).
func (r *Reader) PrefixLen() int64 { return r.prefix }

// HeaderCRC returns the file's header checksum, which Open checked: the
// CRC-32C of the prefix, the header and the block table. With the CRC of
// each block in the block table it covers every byte of the file, so a
// manifest that records it vouches for the whole file at the cost of
// reading its header (ManifestEntry.HeaderCRC32C).
func (r *Reader) HeaderCRC() uint32 { return r.headerCRC }

var bufPool sync.Pool // *[]byte scratch for compressed blocks

// ReadBlock decodes block block of column col, verifies its checksum and
// returns the decoded bytes, reusing dst's storage when it is large enough
// (the result is dst[:0] with the block appended). Block b holds positions
// [b*BlockSize, min((b+1)*BlockSize, Positions)).
func (r *Reader) ReadBlock(col, block int, dst []byte) ([]byte, error) {
	if col < 0 || col >= len(r.h.Columns) || block < 0 || block >= r.nblocks {
		return nil, fmt.Errorf("%s: column %d block %d out of range (%d columns, %d blocks)",
			r.path, col, block, len(r.h.Columns), r.nblocks)
	}
	n := r.h.blockLen(col, block)
	switch {
	case cap(dst) >= n+decodeSlack:
		dst = dst[: 0 : n+decodeSlack]
	case cap(dst) >= n:
		dst = dst[:0:n]
	default:
		dst = make([]byte, 0, n+decodeSlack)
	}
	return r.decode(col, block, dst, n, nil)
}

// palette is the values of a packed block, v[:k]; k is 0 for a block
// stored in another form.
type palette struct {
	v [maxPalette]byte
	k int
}

// decodeSlack is the room past a block that lets zstd's decoder copy in
// wide strides near the end of its output, where the safe path would copy
// within the block's bytes exactly; ReadBlock gives it where dst has it.
const decodeSlack = 64

// decode appends the decoded block, want bytes, to dst, whose capacity
// limits the decoder: room for exactly the block, or for decodeSlack more
// where nothing else writes there. A packed block's values go to pal,
// where it is not nil.
func (r *Reader) decode(col, block int, dst []byte, want int, pal *palette) ([]byte, error) {
	out, err := r.inflate(col, block, dst)
	if err != nil {
		return nil, err
	}
	return r.finish(col, block, out, len(dst), want, pal)
}

// inflate appends the stored form of a block to dst, within its capacity.
func (r *Reader) inflate(col, block int, dst []byte) ([]byte, error) {
	e := r.entries[col*r.nblocks+block]
	bp, _ := bufPool.Get().(*[]byte)
	if bp == nil {
		bp = new([]byte)
	}
	defer bufPool.Put(bp)
	if cap(*bp) < int(e.n) {
		*bp = make([]byte, e.n)
	}
	buf := (*bp)[:e.n]
	if _, err := r.f.ReadAt(buf, e.off); err != nil {
		return nil, r.readError(col, block, err)
	}
	dec, err := decoder()
	if err != nil {
		return nil, err
	}
	out, err := dec.DecodeAll(buf, dst)
	if err != nil {
		return nil, r.blockError(col, block, err, "data that does not decode")
	}
	return out, nil
}

// runsTag is the last byte of a block stored as tokens (package runs),
// which a packed form's last byte, its palette size, never is.
const runsTag = 0

// finish turns the stored form that inflate appended to out[:start] into
// the block's want bytes, checks them and returns out[:start+want]. A
// packed block's values go to pal, where it is not nil.
func (r *Reader) finish(col, block int, out []byte, start, want int, pal *palette) ([]byte, error) {
	form := out[start:]
	if err := r.checkForm(col, block, form); err != nil {
		return nil, err
	}
	switch got := len(form); {
	case got == want:
	case r.tokens(form, want):
		// The form is short: expand it from a copy.
		fp := formPool.Get().(*[]byte)
		defer formPool.Put(fp)
		*fp = append((*fp)[:0], form...)
		var err error
		if out, err = runs.Expand(out[:start], *fp, want); err != nil {
			return nil, r.blockError(col, block, err, "data that does not decode")
		}
	case r.format.Packs() && got > 0 && got < want && cap(out)-start >= want:
		if k := int(form[got-1]); pal != nil && k <= maxPalette && k < got {
			pal.k = copy(pal.v[:k], form[got-1-k:got-1])
		}
		if err := unpack(out[start:], got, want); err != nil {
			return nil, r.blockError(col, block, err, "data that does not decode")
		}
		out = out[:start+want]
	default:
		return nil, r.blockError(col, block, nil, "%d bytes decoded, want %d", got, want)
	}
	if !r.format.ChecksForm() && crc32.Checksum(out[start:], castagnoli) != r.entries[col*r.nblocks+block].crc {
		return nil, r.blockError(col, block, nil, "checksum mismatch")
	}
	return out, nil
}

// formPool holds a block's stored form while it is expanded.
var formPool = sync.Pool{New: func() any { return new([]byte) }}

// checkForm checks the checksum of a block's stored form, in the versions
// whose block table gives it (4 on).
func (r *Reader) checkForm(col, block int, form []byte) error {
	if r.format.ChecksForm() && crc32.Checksum(form, castagnoli) != r.entries[col*r.nblocks+block].crc {
		return r.blockError(col, block, nil, "checksum mismatch")
	}
	return nil
}

// tokens reports whether form is the stored form of a block of want bytes
// held as tokens, by its length and last byte (version 4 on).
func (r *Reader) tokens(form []byte, want int) bool {
	return r.format.Tokens() && len(form) > 0 && len(form) < want && form[len(form)-1] == runsTag
}

// ReadRuns reads block block of column col, of width 1, as the prober
// keeps it: a block stored as tokens is parsed, not decoded; another is
// decoded and compacted (runs.Compact).
func (r *Reader) ReadRuns(col, block int) (runs.Column, error) {
	if col < 0 || col >= len(r.h.Columns) || r.h.Columns[col].Width != 1 || block < 0 || block >= r.nblocks {
		return runs.Column{}, fmt.Errorf("%s: column %d block %d is not one of the %d blocks of a 1-byte column", r.path, col, block, r.nblocks)
	}
	n := r.h.blockLen(col, block)
	bp := formPool.Get().(*[]byte)
	defer formPool.Put(bp)
	if cap(*bp) < n+decodeSlack {
		*bp = make([]byte, 0, n+decodeSlack)
	}
	out, err := r.inflate(col, block, (*bp)[:0])
	if err != nil {
		return runs.Column{}, err
	}
	if r.tokens(out, n) {
		if err := r.checkForm(col, block, out); err != nil {
			return runs.Column{}, err
		}
		c, err := runs.Parse(out, n)
		if err != nil {
			return runs.Column{}, r.blockError(col, block, err, "data that does not decode")
		}
		return c, nil
	}
	var pal palette
	if out, err = r.finish(col, block, out, 0, n, &pal); err != nil {
		return runs.Column{}, err
	}
	*bp = out
	var values []byte
	if pal.k > 0 {
		values = pal.v[:pal.k]
	}
	return runs.Compact(out, values), nil
}

// ReadColumn decodes and verifies a whole column, for loading a full table
// into memory. Blocks are decoded in parallel.
func (r *Reader) ReadColumn(col int) ([]byte, error) {
	if col < 0 || col >= len(r.h.Columns) {
		return nil, fmt.Errorf("%s: column %d out of range (%d columns)", r.path, col, len(r.h.Columns))
	}
	w := r.h.Columns[col].Width
	out := make([]byte, r.h.Positions*int64(w))
	step := r.h.BlockSize * w
	err := forEach(r.nblocks, func(b int) error {
		lo := b * step
		hi := lo + r.h.blockLen(col, b)
		_, err := r.decode(col, b, out[lo:lo:hi], hi-lo, nil)
		return err
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// Check reads and verifies every block of every column. It returns the
// error of the first bad block in file order, or nil.
func (r *Reader) Check() error {
	return forEach(len(r.entries), func(i int) error {
		col, b := i/r.nblocks, i%r.nblocks
		bp, _ := bufPool.Get().(*[]byte)
		if bp == nil {
			bp = new([]byte)
		}
		defer bufPool.Put(bp)
		n := r.h.blockLen(col, b)
		if cap(*bp) < n {
			*bp = make([]byte, n)
		}
		_, err := r.decode(col, b, (*bp)[:0:n], n, nil)
		return err
	})
}

// Close closes the file that Open or OpenFS opened; reads after it may
// fail. It does nothing for a Reader of NewReader.
func (r *Reader) Close() error { return r.close() }
