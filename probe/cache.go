package probe

import (
	"container/list"
	"sync"

	"github.com/dtb-draughts/dtb/table"
)

// The cache has 1<<shardBits independently locked shards.
const (
	shardBits = 4
	shards    = 1 << shardBits
)

// cache keeps decoded blocks, least recently used out first. An entry
// holds one block of positions of one file, every column probe reads
// decoded, so that a probe takes one lock. An entry belongs to one shard
// by its key; each shard has its own lock and an equal part of the byte
// budget. Blocks are read and decoded outside the lock, so two goroutines
// missing the same block may both decode it.
type cache struct {
	shards [shards]shard
}

type shard struct {
	mu    sync.Mutex
	limit int64 // bytes
	size  int64
	lru   list.List // of *block, most recently used first
	index map[uint64]*list.Element
}

// block is block number n of a file, every column decoded.
type block struct {
	key  uint64
	cols table.Columns
	size int64
}

func (c *cache) init(bytes int64) {
	for i := range c.shards {
		c.shards[i].limit = bytes / shards
		c.shards[i].index = make(map[uint64]*list.Element)
	}
}

// get returns block n of f. The caller must not modify it.
func (c *cache) get(f *file, n int64) (*block, error) {
	// File ids are below 1<<16 (there are fewer materials of up to
	// maxPieces), and no file has 1<<48 blocks: its block table would take
	// 4 PiB.
	key := uint64(n)<<16 | uint64(f.id)
	s := &c.shards[key*0x9e3779b97f4a7c15>>(64-shardBits)]
	s.mu.Lock()
	if e := s.index[key]; e != nil {
		s.lru.MoveToFront(e)
		b := e.Value.(*block)
		s.mu.Unlock()
		return b, nil
	}
	s.mu.Unlock()

	cols, err := f.r.ReadBlock(int(n))
	if err != nil {
		return nil, err
	}
	b := &block{key: key, cols: cols}
	for _, c := range cols {
		b.size += int64(len(c))
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if e := s.index[key]; e != nil { // decoded meanwhile by another goroutine
		return e.Value.(*block), nil
	}
	s.index[key] = s.lru.PushFront(b)
	s.size += b.size
	for s.size > s.limit {
		old := s.lru.Remove(s.lru.Back()).(*block)
		delete(s.index, old.key)
		s.size -= old.size
	}
	return b, nil
}
