package reader

import (
	"fmt"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/dtb-draughts/dtb/codec"
	"github.com/dtb-draughts/dtb/rules"
	"github.com/dtb-draughts/dtb/runs"
	"github.com/dtb-draughts/dtb/table"
)

// cache keeps blocks within a byte budget. It keeps each column of 1 byte
// an entry as a runs.Column, read in place. A block of values is kept as
// that. A block of distances or extras is kept as a distRuns (a dtw
// column, 2 bytes an entry, decoded). Each file has a slot per block and
// part (file.blocks).
// A probe whose block is cached takes no lock: it loads the slot and
// marks the block used. A miss reads and decodes the block outside any
// lock. It then takes the cache's lock for the few steps of storing it.
// It evicts blocks by the clock algorithm: a block used since the hand
// last passed gets another round. Then it fills the slot. Two goroutines
// missing the same block may both decode it; the first to store it wins.
//
// A block probed often is decoded, a byte a position (hot). A probe then
// reads its entry without a scan of tokens. A probe of one position in
// sampleEvery, by its place in the block, counts a hit of its block. The
// block's promoteAfter-th counted hit replaces it in its slot by its
// decoded form. The decoded blocks take at most a hotShare-th of the
// budget. The clock evicts a decoded block as any other, which makes room
// for the next.
type cache struct {
	limit int64 // bytes

	mu   sync.Mutex // guards what follows
	size int64      // bytes of the blocks in ring
	hot  int64      // bytes of the decoded blocks among them
	ring []*block   // the cached blocks
	hand int        // next block of ring to consider for eviction
}

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
	size    int64                  // bytes, the block's fixed part included
	slot    *atomic.Pointer[block] // the file's slot that holds it
	used    atomic.Bool            // probed since the hand last passed
	hits    atomic.Int32           // probes counted (see cache)
	decoded bool                   // its columns are decoded (hot)
	at      int                    // its index in cache.ring, guarded by cache.mu
}

// read reads block n of part p of f in the form the cache keeps.
func read(f *file, p part, n int64) (*block, error) {
	b := &block{size: int64(unsafe.Sizeof(block{}))}
	if p != values {
		dist, err := readDistRuns(f.r, int(n), columns[p][0], columns[p][1])
		if err != nil {
			return nil, err
		}
		b.dist = dist
		b.size += dist.size()
		return b, nil
	}
	value, err := f.r.ReadRuns(int(n), table.ValueColumn)
	if err != nil {
		return nil, err
	}
	b.value = value
	b.size += b.value.Size()
	return b, nil
}

// get returns block n of part p of f. It reads a block not in the cache,
// or fails with ErrNotCached if cachedOnly is set. The caller must not
// modify the block.
func (c *cache) get(f *file, p part, n int64, cachedOnly bool) (*block, error) {
	slot := &f.blocks[p][n]
	if b := slot.Load(); b != nil {
		if !b.used.Load() { // no write, so no cache line bouncing, once marked
			b.used.Store(true)
		}
		return b, nil
	}
	if cachedOnly {
		return nil, ErrNotCached
	}
	b, err := read(f, p, n)
	if err != nil {
		return nil, err
	}
	b.slot = slot
	return c.store(b), nil
}

// store puts b in its slot, evicting blocks until it fits, and returns
// it. If another goroutine stored a block there meanwhile, store returns
// that one.
func (c *cache) store(b *block) *block {
	c.mu.Lock()
	defer c.mu.Unlock()
	if old := b.slot.Load(); old != nil {
		return old
	}
	c.evict(b.size)
	b.at = len(c.ring)
	c.ring = append(c.ring, b)
	c.size += b.size
	b.slot.Store(b)
	return b
}

// evict evicts blocks by the clock until n more bytes fit, or none is
// left. The caller holds c.mu.
func (c *cache) evict(n int64) {
	for c.size+n > c.limit && len(c.ring) > 0 {
		v := c.ring[c.hand]
		if v.used.Load() {
			v.used.Store(false)
			c.hand = (c.hand + 1) % len(c.ring)
			continue
		}
		v.slot.Store(nil)
		c.size -= v.size
		if v.decoded {
			c.hot -= v.size
		}
		last := len(c.ring) - 1
		c.ring[c.hand], c.ring[last] = c.ring[last], nil
		c.ring = c.ring[:last]
		if c.hand == last {
			c.hand = 0
		} else {
			c.ring[c.hand].at = c.hand
		}
	}
}

// count counts a probe of position j of b, block n of part p of f. It
// counts only the sampled positions. At its promoteAfter-th count it
// decodes b (see cache). Where there is no room then, it decodes b at a
// later count.
func (c *cache) count(f *file, p part, n int64, b *block, j int) {
	if j%sampleEvery == 0 && !b.decoded {
		c.counted(f, p, n, b)
	}
}

// counted is count of a sampled probe. A block that finds no room among
// the decoded ones tries again after promoteAfter counts.
func (c *cache) counted(f *file, p part, n int64, b *block) {
	if b.hits.Add(1)%promoteAfter != 0 {
		return
	}
	positions := int(min(f.blockSize, f.x.Size()-n*f.blockSize))
	d := &block{slot: b.slot, decoded: true, size: int64(unsafe.Sizeof(block{}))}
	if p == values {
		d.value = b.value.Decoded(positions)
		d.size += d.value.Size()
	} else {
		d.dist = b.dist.decoded(positions)
		d.size += d.dist.size()
	}
	d.used.Store(true)
	c.mu.Lock()
	defer c.mu.Unlock()
	if b.slot.Load() != b || c.hot+d.size > c.limit/hotShare {
		return // evicted meanwhile, or no room
	}
	d.at = b.at
	c.ring[d.at] = d
	c.size += d.size - b.size
	c.hot += d.size
	b.slot.Store(d)
	c.evict(0)
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
		b, err := t.cache.get(f, values, n, cachedOnly)
		if err != nil {
			return false, err
		}
		t.cache.count(f, values, n, b, j)
		v = b.value.At(j)
		var parts [numParts]*distRuns
		for p := distances; p < numParts; p++ {
			parts[p] = &noDistances
			if p <= last && f.blocks[p] != nil {
				b, err := t.cache.get(f, p, n, cachedOnly)
				if err != nil {
					return false, err
				}
				t.cache.count(f, p, n, b, j)
				parts[p] = &b.dist
			}
		}
		ok = entryAt(e, v, j, parts[distances], parts[extras])
	}
	fresh = v&table.FreshOnly != 0
	if !ok || fresh && !f.marked {
		return false, &codec.FileError{Path: f.path, Kind: codec.ErrCorrupt, Reason: fmt.Sprintf("entry %d: bad value byte %#x", i, v)}
	}
	return fresh, nil
}
