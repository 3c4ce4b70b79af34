package reader

import (
	"fmt"
	"sync/atomic"
	"unsafe"

	"github.com/dtb-draughts/dtb/codec"
	"github.com/dtb-draughts/dtb/rules"
	"github.com/dtb-draughts/dtb/runs"
	"github.com/dtb-draughts/dtb/table"
)

// The cache (Tables.cache) keeps blocks within a byte budget
// (blockcache). It keeps each column of 1 byte an entry as a
// runs.Column, read in place. A block of values is kept as that. A block
// of distances or extras is kept as a distRuns (a dtw column, 2 bytes an
// entry, decoded). Each file has the blocks of each of its parts
// (file.blocks). A probe whose block is cached takes no lock. A miss
// reads and decodes the block outside any lock, then takes the cache's
// lock for the few steps of storing it.
//
// A block probed often is decoded, a byte a position (hot). A probe then
// reads its entry without a scan of tokens. A probe of one position in
// sampleEvery, by its place in the block, counts a hit of its block. The
// block's promoteAfter-th counted hit promotes it to its decoded form
// (blockcache.Cache.Promote). The decoded blocks take at most a
// hotShare-th of the budget. The clock drops a decoded block as any
// other, which makes room for the next.
// sampleEvery, promoteAfter and hotShare rule the decoding of the blocks
// probed most (see cache). A block is decoded after some
// sampleEvery*promoteAfter probes. The decoded blocks take at most a
// sixteenth of the cache. So the cache holds nearly as many positions a
// byte as its blocks of tokens do (BenchmarkRuns).
const (
	sampleEvery  = 64
	promoteAfter = 16
	hotShare     = 16
)

// A part is the columns of a table that a probe reads together. The
// values part is its value file. The distances part is the distance
// column of its distance file. A search's probe of class A or B, or one
// under running clocks, needs it (ValuesOnly). The extras part is the
// other columns, dtw and mtc. Only a probe without ValuesOnly reads them.
type part int

const (
	values part = iota
	distances
	extras
	numParts
)

// columns are the columns of each part but the values: from the first
// up to the second.
var columns = [numParts][2]table.Column{distances: {table.DistanceColumn, table.DTWColumn}, extras: {table.DTWColumn, table.NumColumns}}

// block is one block of a part of a table. It holds its value column as
// runs (values), or its other columns (distances, extras). In file.mem it
// holds a whole table decoded (cols).
type block struct {
	value   runs.Column
	dist    distRuns
	cols    table.Columns
	size    int64        // bytes, the block's fixed part included
	hits    atomic.Int32 // probes counted (see cache)
	decoded bool         // its columns are decoded (hot)
}

// read reads block n of part p of f in the form the cache keeps, and
// returns the bytes it takes.
func read(f *file, p part, n int) (*block, int64, error) {
	b := &block{size: int64(unsafe.Sizeof(block{}))}
	if p != values {
		dist, err := readDistRuns(f.r, n, columns[p][0], columns[p][1])
		if err != nil {
			return nil, 0, err
		}
		b.dist = dist
		b.size += dist.size()
		return b, b.size, nil
	}
	value, err := f.r.ReadRuns(n, table.ValueColumn)
	if err != nil {
		return nil, 0, err
	}
	b.value = value
	b.size += b.value.Size()
	return b, b.size, nil
}

// get returns block n of part p of f. It reads a block not in the cache,
// or fails with ErrNotCached if cachedOnly is set. The caller must not
// modify the block.
func (t *Tables) get(f *file, p part, n int64, cachedOnly bool) (*block, error) {
	if cachedOnly {
		if b, ok := t.cache.Held(f.blocks[p], int(n)); ok {
			return b, nil
		}
		return nil, ErrNotCached
	}
	return t.cache.Get(f.blocks[p], int(n), f.reads[p])
}

// count counts a probe of position j of b, block n of part p of f. It
// counts only the sampled positions. At its promoteAfter-th count it
// decodes b (see cache). Where there is no room then, it decodes b at a
// later count.
func (t *Tables) count(f *file, p part, n int64, b *block, j int) {
	if j%sampleEvery == 0 && !b.decoded {
		t.counted(f, p, n, b)
	}
}

// counted is count of a sampled probe. A block that finds no room among
// the decoded ones tries again after promoteAfter counts.
func (t *Tables) counted(f *file, p part, n int64, b *block) {
	if b.hits.Add(1)%promoteAfter != 0 {
		return
	}
	positions := int(min(f.blockSize, f.x.Size()-n*f.blockSize))
	d := &block{decoded: true, size: int64(unsafe.Sizeof(block{}))}
	if p == values {
		d.value = b.value.Decoded(positions)
		d.size += d.value.Size()
	} else {
		d.dist = b.dist.decoded(positions)
		d.size += d.dist.size()
	}
	t.cache.Promote(f.blocks[p], int(n), b, d, d.size, t.cacheBytes/hotShare)
}

// noDistances is the distances of a block read without them: none, so
// that its entries hold the values alone. It is never written.
var noDistances distRuns

// stored sets *e to the values stored for entry i of f. It sets the
// columns of its parts up to last (see part). It reads their blocks
// unless cachedOnly is set. It reports whether the entry is marked
// FreshOnly.
func (t *Tables) stored(e *rules.Entry, f *file, i int64, cachedOnly bool, last part) (fresh bool, err error) {
	var v byte
	var ok bool
	if b := f.mem.Load(); b != nil {
		v = b.cols[table.ValueColumn][i]
		ok = b.cols.EntryAt(e, v, i)
	} else {
		n, j := i/f.blockSize, int(i%f.blockSize)
		b, err := t.get(f, values, n, cachedOnly)
		if err != nil {
			return false, err
		}
		t.count(f, values, n, b, j)
		v = b.value.At(j)
		var parts [numParts]*distRuns
		for p := distances; p < numParts; p++ {
			parts[p] = &noDistances
			if p <= last && f.blocks[p] != nil {
				b, err := t.get(f, p, n, cachedOnly)
				if err != nil {
					return false, err
				}
				t.count(f, p, n, b, j)
				parts[p] = &b.dist
			}
		}
		ok = entryAt(e, v, j, parts[distances], parts[extras])
	}
	fresh = v&table.FreshOnly != 0
	if !ok || fresh && !f.marked() {
		return false, &codec.FileError{Path: f.path, Kind: codec.ErrCorrupt, Reason: fmt.Sprintf("entry %d: bad value byte %#x", i, v)}
	}
	return fresh, nil
}
