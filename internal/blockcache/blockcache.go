// Package blockcache keeps decoded blocks of files in memory, within a
// budget of bytes, for many goroutines at once:
//
//	c := blockcache.New[*myBlock](64 << 20)
//	f := blockcache.NewFile[*myBlock](blocks) // one file's blocks
//	read := func(i int) (*myBlock, int64, error) {
//		return readBlock(i) // the block and the bytes it takes
//	}
//	b, err := c.Get(f, i, read)
//
// A block held is read without a lock. When the blocks held go over the
// budget, a clock hand passes over them in turn and drops the first not
// read since it last passed. A block read by two goroutines at once is
// read twice and held once.
package blockcache

import (
	"sync"
	"sync/atomic"
)

// A Cache holds blocks of type B of any number of files.
type Cache[B any] struct {
	mu     sync.Mutex
	budget int64 // 0: no limit
	used   int64
	ring   []held[B]
	hand   int
}

// A File is the blocks of one file, held or not.
type File[B any] struct {
	slots []atomic.Pointer[item[B]]
}

type item[B any] struct {
	b    B
	size int64
	used atomic.Bool // read since the clock hand last passed
}

// held is a block the cache holds: block i of f.
type held[B any] struct {
	f *File[B]
	i int
}

// New returns a cache within budget bytes, 0 for no limit.
func New[B any](budget int64) *Cache[B] { return &Cache[B]{budget: budget} }

// NewFile returns the n blocks of a file, none held.
func NewFile[B any](n int) *File[B] { return &File[B]{slots: make([]atomic.Pointer[item[B]], n)} }

// Get returns block i of f, calling read(i) for it, and holding what it
// returns, if the cache does not hold it. (A read made once, rather than
// a closure over i at each call, keeps a Get of a block held free of
// allocations.)
func (c *Cache[B]) Get(f *File[B], i int, read func(i int) (B, int64, error)) (B, error) {
	if it := f.slots[i].Load(); it != nil {
		if !it.used.Load() { // a store only where it changes: goroutines read the same blocks
			it.used.Store(true)
		}
		return it.b, nil
	}
	b, size, err := read(i)
	if err != nil {
		return b, err
	}
	return c.add(f, i, b, size), nil
}

// add holds b, block i of f, which takes size bytes, unless another
// goroutine has read it meanwhile, and returns the block held.
func (c *Cache[B]) add(f *File[B], i int, b B, size int64) B {
	c.mu.Lock()
	defer c.mu.Unlock()
	if it := f.slots[i].Load(); it != nil {
		return it.b
	}
	it := &item[B]{b: b, size: size}
	it.used.Store(true) // not the first to go
	f.slots[i].Store(it)
	c.used += size
	c.ring = append(c.ring, held[B]{f, i})
	c.trim()
	return b
}

// Hold counts n bytes more (fewer, if negative) held outside the cache
// within its budget, dropping blocks to stay within it.
func (c *Cache[B]) Hold(n int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.used += n
	c.trim()
}

// Used returns the bytes counted: the blocks held and Hold's.
func (c *Cache[B]) Used() int64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.used
}

// trim drops blocks until the cache is within its budget or holds one
// block.
func (c *Cache[B]) trim() {
	for c.budget > 0 && c.used > c.budget && len(c.ring) > 1 {
		if c.hand >= len(c.ring) {
			c.hand = 0
		}
		h := c.ring[c.hand]
		if h.f.slots[h.i].Load().used.Swap(false) {
			c.hand++
			continue
		}
		c.drop(c.hand)
	}
}

// drop drops the block at position k of the ring.
func (c *Cache[B]) drop(k int) {
	h := c.ring[k]
	c.used -= h.f.slots[h.i].Load().size
	h.f.slots[h.i].Store(nil)
	last := len(c.ring) - 1
	c.ring[k], c.ring[last] = c.ring[last], held[B]{}
	c.ring = c.ring[:last]
}

// Drop drops the blocks of f.
func (c *Cache[B]) Drop(f *File[B]) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for k := 0; k < len(c.ring); {
		if c.ring[k].f == f {
			c.drop(k)
			continue
		}
		k++
	}
}
