package verify

import (
	"sync"
	"sync/atomic"

	"github.com/dtb-draughts/dtb/probe"
	"github.com/dtb-draughts/dtb/table"
)

// A block is a decoded block of a table read by blocks, its capture
// positions resolved (see verifier.stored).
type block struct {
	cols table.Columns
	// captures has bit j%64 of word j/64 set for a capture position j.
	captures []uint64
	used     atomic.Bool // read since the cache's clock hand last passed it
}

// capture reports whether entry j of b is a capture position.
func (b *block) capture(j int64) bool { return b.captures[j/64]>>(j%64)&1 != 0 }

// block returns block b of t, reading it if the cache does not hold it.
func (v *verifier) block(t *memTable, b int64) (*block, error) {
	if blk := t.blocks[b].Load(); blk != nil {
		if !blk.used.Load() { // a store only where it changes: two threads read the same blocks
			blk.used.Store(true)
		}
		return blk, nil
	}
	blk, err := v.readBlock(t, b)
	if err != nil {
		return nil, err
	}
	return v.cache.add(t, b, blk), nil
}

// readBlock decodes block b of t, resolving its capture positions, or
// searches its positions for a table answered by a search.
func (v *verifier) readBlock(t *memTable, b int64) (*block, error) {
	lo := b * t.blockSize
	hi := min(lo+t.blockSize, t.x.Size())
	var cols table.Columns
	if t.file != nil {
		var err error
		if cols, err = t.file.ReadBlock(int(b)); err != nil {
			return nil, err
		}
	} else {
		cols = t.layout.MakeColumns(hi - lo)
	}
	blk := &block{cols: cols, captures: make([]uint64, (hi-lo+63)/64)}
	pl := t.x.Unrank(lo)
	for i := lo; i < hi; i++ {
		if i > lo {
			pl, _ = t.x.Next(pl)
		}
		p := table.Position(pl)
		var e table.Entry
		capture, probed := p.HasCapture(), true
		if t.file == nil {
			r, err := v.pt.Probe(p, probe.Clocks{}, probe.WithDistances)
			if err != nil {
				return nil, err
			}
			e = r.Entry
		} else {
			var err error
			if e, capture, probed, err = v.stored(t.file, &cols, i-lo, i, p); err != nil {
				return nil, err
			}
		}
		if probed {
			cols.Set(i-lo, e)
		}
		if capture {
			blk.captures[(i-lo)/64] |= 1 << ((i - lo) % 64)
		}
	}
	return blk, nil
}

// blockCache holds the blocks read of the tables read by blocks, within
// a budget of bytes less those of the tables held whole (hold). When it
// is over, it drops blocks not read lately: its clock hand passes over
// the blocks in turn, dropping the first not read since it last passed.
type blockCache struct {
	mu     sync.Mutex
	budget int64 // 0: no limit
	used   int64
	ring   []cached
	hand   int
}

// cached is a block the cache holds.
type cached struct {
	t    *memTable
	b    int64
	size int64
}

// add holds blk, block b of t, unless another thread has read it
// meanwhile, and returns the block held.
func (c *blockCache) add(t *memTable, b int64, blk *block) *block {
	c.mu.Lock()
	defer c.mu.Unlock()
	if held := t.blocks[b].Load(); held != nil {
		return held
	}
	blk.used.Store(true) // not the first to go
	t.blocks[b].Store(blk)
	size := int64(len(blk.captures)) * 8
	for _, col := range blk.cols {
		size += int64(len(col))
	}
	c.used += size
	c.ring = append(c.ring, cached{t, b, size})
	c.trim()
	return blk
}

// hold counts n bytes more (or fewer, if negative) held outside the
// cache, and drops blocks to stay within the budget.
func (c *blockCache) hold(n int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.used += n
	c.trim()
}

// trim drops blocks until the cache is within its budget or holds one
// block.
func (c *blockCache) trim() {
	for c.budget > 0 && c.used > c.budget && len(c.ring) > 1 {
		if c.hand >= len(c.ring) {
			c.hand = 0
		}
		e := c.ring[c.hand]
		if blk := e.t.blocks[e.b].Load(); blk.used.Swap(false) {
			c.hand++
			continue
		}
		c.drop(c.hand)
	}
}

// drop drops the block at ring position k.
func (c *blockCache) drop(k int) {
	e := c.ring[k]
	e.t.blocks[e.b].Store(nil)
	c.used -= e.size
	last := len(c.ring) - 1
	c.ring[k], c.ring[last] = c.ring[last], cached{}
	c.ring = c.ring[:last]
}

// release drops the blocks of t.
func (c *blockCache) release(t *memTable) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for k := 0; k < len(c.ring); {
		if c.ring[k].t == t {
			c.drop(k)
			continue
		}
		k++
	}
}
