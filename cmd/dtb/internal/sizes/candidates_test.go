package sizes

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"testing"

	"github.com/klauspost/compress/zstd"

	"github.com/dtb-draughts/dtb/codec"
	"github.com/dtb-draughts/dtb/index"
	"github.com/dtb-draughts/dtb/internal/parallel"
	"github.com/dtb-draughts/dtb/rules"
	"github.com/dtb-draughts/dtb/table"
)

// This file holds BenchmarkValueCandidates, a measurement of other
// encodings of the value column, not a test: go test runs it only with
// -bench.

// valueTable is the value column of one table and its capture positions.
type valueTable struct {
	values []byte   // as stored: a capture position holds the value of the position before
	caps   []uint64 // bit i%64 of word i/64: position i is a capture position, a don't-care
	// threats marks the positions without a capture whose other side has
	// one (a threat), forced the forced threats (rules.ForcedThreat),
	// which the value files of a slim directory leave out.
	threats, forced []uint64
}

func (v *valueTable) capture(i int) bool { return isSet(v.caps, i) }

func isSet(bits []uint64, i int) bool { return bits[i/64]&(1<<(i%64)) != 0 }

// loadValues returns the value columns of the tables of dir with the
// given number of pieces, or nil if it has none.
func loadValues(tb testing.TB, dir string, pieces int) []valueTable {
	entries, err := codec.ReadManifest(dir)
	if err != nil {
		tb.Fatal(err)
	}
	var out []valueTable
	for _, e := range entries {
		m, err := index.ParseMaterial(e.Material)
		if err != nil {
			tb.Fatal(err)
		}
		if m.Pieces() == pieces {
			out = append(out, loadValue(tb, filepath.Join(dir, e.File), m))
		}
	}
	return out
}

// loadValue returns the value column of the table of m at path.
func loadValue(tb testing.TB, path string, m index.Material) valueTable {
	f, err := table.Open(path, m)
	if err != nil {
		tb.Fatal(err)
	}
	cols, err := f.ReadColumns()
	f.Close()
	if err != nil {
		tb.Fatal(err)
	}
	x := index.New(m)
	words := (x.Size() + 63) / 64
	v := valueTable{cols[table.ValueColumn], make([]uint64, words), make([]uint64, words), make([]uint64, words)}
	// Whole words to each goroutine: none writes another's.
	err = parallel.Range(context.Background(), words, runtime.GOMAXPROCS(0), func(lo, hi int64) error {
		for i := lo * 64; i < min(hi*64, x.Size()); i++ {
			p := rules.Position(x.Unrank(i))
			bit := uint64(1) << (i % 64)
			if p.HasCapture() {
				v.caps[i/64] |= bit
				continue
			}
			q := p
			q.Side = q.Side.Opponent()
			if q.HasCapture() {
				v.threats[i/64] |= bit
			}
			if rules.ForcedThreat(&p) {
				v.forced[i/64] |= bit
			}
		}
		return nil
	})
	if err != nil {
		tb.Fatal(err)
	}
	return v
}

// A fill gives the don't-care entries of a value column other values.
type fill struct {
	name string
	fill func(v *valueTable, block int) []byte
}

var fills = []fill{
	// prev: the value of the last position before without a capture, as
	// table.Writer writes them.
	{"prev", func(v *valueTable, _ int) []byte { return fillPrev(v, v.caps) }},
	// threats: prev, with every threat a don't-care too.
	{"threats", func(v *valueTable, _ int) []byte { return fillPrev(v, v.threats) }},
	// forced: prev, with the threats no move parries don't-cares too.
	{"forced", func(v *valueTable, _ int) []byte { return fillPrev(v, v.forced) }},
	// next: the value of the first position after without a capture
	// (prev after the last one).
	{"next", func(v *valueTable, _ int) []byte {
		out := slices.Clone(v.values)
		quiet := false // a position without a capture lies after i
		for i := len(out) - 1; i >= 0; i-- {
			switch {
			case !v.capture(i):
				quiet = true
			case quiet:
				out[i] = out[i+1]
			}
		}
		return out
	}},
	// mode: the most common value of the positions of the block without
	// a capture.
	{"mode", func(v *valueTable, block int) []byte {
		out := slices.Clone(v.values)
		for lo := 0; lo < len(out); lo += block {
			hi := min(lo+block, len(out))
			var count [256]int
			for i := lo; i < hi; i++ {
				if !v.capture(i) {
					count[out[i]]++
				}
			}
			mode := byte(0)
			for c, n := range count {
				if n > count[mode] {
					mode = byte(c)
				}
			}
			for i := lo; i < hi; i++ {
				if v.capture(i) {
					out[i] = mode
				}
			}
		}
		return out
	}},
}

// fillPrev returns the values of v with each capture position and each
// position of more given the value of the position before.
func fillPrev(v *valueTable, more []uint64) []byte {
	out := slices.Clone(v.values)
	for i := 1; i < len(out); i++ {
		if v.capture(i) || isSet(more, i) {
			out[i] = out[i-1]
		}
	}
	return out
}

// pack returns values packed 4 to a byte (2 bits each, codes given to the
// distinct values by falling frequency) if the table has at most 4
// distinct values, else 2 to a byte (the value bytes are below 16), and
// the positions per byte.
func pack(values []byte) ([]byte, int) {
	var count [256]int
	for _, v := range values {
		count[v]++
	}
	var distinct []int
	for c, n := range count {
		if n > 0 {
			distinct = append(distinct, c)
		}
	}
	if len(distinct) > 4 {
		out := make([]byte, (len(values)+1)/2)
		for i, v := range values {
			out[i/2] |= v << (4 * (i % 2))
		}
		return out, 2
	}
	slices.SortFunc(distinct, func(a, b int) int { return cmp.Compare(count[b], count[a]) })
	var code [256]byte
	for k, c := range distinct {
		code[c] = byte(k)
	}
	out := make([]byte, (len(values)+3)/4)
	for i, v := range values {
		out[i/4] |= code[v] << (2 * (i % 4))
	}
	return out, 4
}

// candidate is one way to store the value columns.
type candidate struct {
	fill   int // in fills
	packed bool
	level  zstd.EncoderLevel
	block  int // positions per block
}

func (c candidate) String() string {
	enc := "byte"
	if c.packed {
		enc = "packed"
	}
	return fmt.Sprintf("fill=%s/enc=%s/level=%s/block=%dK", fills[c.fill].name, enc, c.level, c.block>>10)
}

// byteWise is how the files stored the value column before packed blocks
// (format version 1): don't-cares = previous value, 1 byte a value, zstd
// best, 64 Ki positions a block.
var byteWise = candidate{0, false, zstd.SpeedBestCompression, codec.DefaultBlockSize}

// candidates returns the byte-wise encoding of format version 1, each fill
// with and without table-wide packing, and each zstd level and block size
// with and without it.
func candidates() []candidate {
	out := []candidate{byteWise}
	for f := range fills {
		for _, packed := range []bool{false, true} {
			if c := (candidate{f, packed, byteWise.level, byteWise.block}); c != byteWise {
				out = append(out, c)
			}
		}
	}
	for _, packed := range []bool{false, true} {
		for _, level := range []zstd.EncoderLevel{zstd.SpeedFastest, zstd.SpeedDefault, zstd.SpeedBetterCompression, zstd.SpeedBestCompression} {
			for _, block := range []int{1 << 12, 1 << 14, 1 << 16, 1 << 18} {
				if c := (candidate{0, packed, level, block}); level != byteWise.level || block != byteWise.block {
					out = append(out, c)
				}
			}
		}
	}
	return out
}

// compress returns the blocks of the value columns vs stored as c says.
func compress(b *testing.B, vs []valueTable, c candidate) [][]byte {
	enc, err := zstd.NewWriter(nil, zstd.WithEncoderLevel(c.level), zstd.WithEncoderCRC(false))
	if err != nil {
		b.Fatal(err)
	}
	defer enc.Close()
	var blocks [][]byte
	for i := range vs {
		data, per := fills[c.fill].fill(&vs[i], c.block), 1
		if c.packed {
			data, per = pack(data)
		}
		step := c.block / per
		for lo := 0; lo < len(data); lo += step {
			blocks = append(blocks, enc.EncodeAll(data[lo:min(lo+step, len(data))], nil))
		}
	}
	return blocks
}

// codecFiles writes the value columns vs as the table files do (codec,
// zstd best) into dir and returns a reader of each.
func codecFiles(b *testing.B, vs []valueTable, dir string) []*codec.Reader {
	var rs []*codec.Reader
	for i := range vs {
		h := codec.Header{Material: "X", Positions: int64(len(vs[i].values)), Columns: []codec.Column{{Name: "value", Width: 1}}}
		path := filepath.Join(dir, fmt.Sprintf("%d.dtb", i))
		w, err := codec.NewWriter(path, h)
		if err != nil {
			b.Fatal(err)
		}
		w.SetCompression(codec.Smallest)
		if _, err := w.Write(0, fills[0].fill(&vs[i], codec.DefaultBlockSize)); err != nil {
			b.Fatal(err)
		}
		if err := w.Close(); err != nil {
			b.Fatal(err)
		}
		r, err := codec.Open(path)
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { r.Close() })
		rs = append(rs, r)
	}
	return rs
}

// BenchmarkValueCandidates measures encodings of the value column other
// than the file format's, for a later format:
//
//	DTB_BENCH_DIR=tables go test ./sizes -run '^$' -bench ValueCandidates -benchtime 500x
//
// It compresses the value columns of the tables of $DTB_BENCH_DIR (else
// the golden tables), piece count by piece count, in each candidate
// encoding (candidates), and reports their bytes, bits per position and
// the time to decode a block (ns/block, the blocks in turn).
// pieces=N/codec writes them through package codec as the files do
// (with packed blocks: codec's doc) and checks that they take the bytes
// the files do; its ns/block is codec's ReadBlock.
//
// pieces=N/entropy reports the order-0 entropy of the values of the
// positions without a capture, table by table, in bits per position of
// every position: what an ideal coder of single values, told which
// positions are don't-cares, would need.
func BenchmarkValueCandidates(b *testing.B) {
	dir := cmp.Or(os.Getenv("DTB_BENCH_DIR"), golden)
	rows, err := Measure(dir)
	if err != nil {
		b.Fatal(err)
	}
	for _, r := range rows[:len(rows)-1] {
		vs := loadValues(b, dir, r.Pieces)
		b.Run(fmt.Sprintf("pieces=%d/entropy", r.Pieces), func(b *testing.B) {
			bits := 0.0
			for b.Loop() {
				bits = entropy(vs)
			}
			b.ReportMetric(bits/float64(r.Positions), "bits/pos")
		})
		b.Run(fmt.Sprintf("pieces=%d/codec", r.Pieces), func(b *testing.B) {
			rs := codecFiles(b, vs, b.TempDir())
			type blk struct{ r, b int }
			var blocks []blk
			n := 0
			for i, rd := range rs {
				for j := range rd.Blocks() {
					blocks = append(blocks, blk{i, j})
					n += rd.StoredLen(0, j)
				}
			}
			if int64(n) != r.Columns[table.ValueColumn] {
				b.Errorf("codec's encoding takes %d bytes, the files %d", n, r.Columns[table.ValueColumn])
			}
			buf := make([]byte, 0, codec.DefaultBlockSize)
			i := 0
			for b.Loop() {
				k := blocks[i%len(blocks)]
				if buf, err = rs[k.r].ReadBlock(0, k.b, buf); err != nil {
					b.Fatal(err)
				}
				i++
			}
			report(b, r, n)
		})
		for _, c := range candidates() {
			b.Run(fmt.Sprintf("pieces=%d/%s", r.Pieces, c), func(b *testing.B) {
				blocks := compress(b, vs, c)
				n := 0
				for _, blk := range blocks {
					n += len(blk)
				}
				dec, err := zstd.NewReader(nil, zstd.WithDecoderConcurrency(1))
				if err != nil {
					b.Fatal(err)
				}
				defer dec.Close()
				buf := make([]byte, 0, c.block)
				i := 0
				for b.Loop() {
					if buf, err = dec.DecodeAll(blocks[i%len(blocks)], buf[:0]); err != nil {
						b.Fatal(err)
					}
					i++
				}
				report(b, r, n)
			})
		}
	}
}

// report reports the bytes of an encoding of the value columns of row r,
// its bits per position and the time to decode a block.
func report(b *testing.B, r Row, n int) {
	b.ReportMetric(float64(n), "bytes")
	b.ReportMetric(r.Bits(int64(n)), "bits/pos")
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N), "ns/block")
}

// entropy returns the order-0 entropy in bits of the values of the
// positions without a capture, summed over the tables.
func entropy(vs []valueTable) float64 {
	bits := 0.0
	for i := range vs {
		var count [256]int
		n := 0
		for j, v := range vs[i].values {
			if !vs[i].capture(j) {
				count[v]++
				n++
			}
		}
		for _, k := range count {
			if k > 0 {
				bits -= float64(k) * math.Log2(float64(k)/float64(n))
			}
		}
	}
	return bits
}
