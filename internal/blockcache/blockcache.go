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
// read twice and held once. Held answers from the blocks held alone. A
// block read often may be promoted to a form faster to read, within a
// share of the budget (Promote): the prober decodes its hot blocks so.
package blockcache

import (
	"sync"
	"sync/atomic"
)

// A Cache holds blocks of type B of any number of files.
type Cache[B comparable] struct {
	mu       sync.Mutex
	budget   int64 // 0: no limit
	used     int64
	promoted int64 // of used, by the promoted blocks
	ring     []held[B]
	hand     int
}

// A File is the blocks of one file, held or not.
type File[B comparable] struct {
	slots []atomic.Pointer[item[B]]
}

type item[B comparable] struct {
	b        B
	size     int64
	used     atomic.Bool // read since the clock hand last passed
	promoted bool        // by Promote
}

// held is a block the cache holds: block i of f.
type held[B comparable] struct {
	f *File[B]
	i int
}

// New returns a cache within budget bytes, 0 for no limit.
func New[B comparable](budget int64) *Cache[B] { return &Cache[B]{budget: budget} }

// NewFile returns the n blocks of a file, none held.
func NewFile[B comparable](n int) *File[B] {
	return &File[B]{slots: make([]atomic.Pointer[item[B]], n)}
}

// Len returns the blocks of f.
func (f *File[B]) Len() int { return len(f.slots) }

// Get returns block i of f, calling read(i) for it, and holding what it
// returns, if the cache does not hold it. (A read made once, rather than
// a closure over i at each call, keeps a Get of a block held free of
// allocations.)
func (c *Cache[B]) Get(f *File[B], i int, read func(i int) (B, int64, error)) (B, error) {
	if b, ok := c.Held(f, i); ok {
		return b, nil
	}
	b, size, err := read(i)
	if err != nil {
		return b, err
	}
	return c.add(f, i, b, size), nil
}

// Held returns block i of f and true if the cache holds it, without
// reading it otherwise.
func (c *Cache[B]) Held(f *File[B], i int) (B, bool) {
	if it := f.slots[i].Load(); it != nil {
		if !it.used.Load() { // a store only where it changes: goroutines read the same blocks
			it.used.Store(true)
		}
		return it.b, true
	}
	var none B
	return none, false
}

// Promote puts b, which takes size bytes, in the place of block i of f,
// if the cache holds old there, not promoted already, and the promoted
// blocks then take at most limit bytes. It reports whether it did. A
// promoted block is held, read and dropped as any other.
func (c *Cache[B]) Promote(f *File[B], i int, old, b B, size, limit int64) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	it := f.slots[i].Load()
	if it == nil || it.b != old || it.promoted || c.promoted+size > limit {
		return false
	}
	p := &item[B]{b: b, size: size, promoted: true}
	p.used.Store(true)
	f.slots[i].Store(p)
	c.used += size - it.size
	c.promoted += size
	c.trim()
	return true
}

// Promoted returns the bytes of the promoted blocks held.
func (c *Cache[B]) Promoted() int64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.promoted
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
	it := h.f.slots[h.i].Load()
	c.used -= it.size
	if it.promoted {
		c.promoted -= it.size
	}
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
