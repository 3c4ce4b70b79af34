package verify

import (
	"sync/atomic"
	"testing"

	"github.com/dtb-draughts/dtb/table"
)

// TestBlockCache fills a cache of three blocks' room with five, reading
// two before the fifth, and checks that it drops the blocks not read
// since the clock hand last passed, and what a table held outside it
// takes (hold) and gives back.
func TestBlockCache(t *testing.T) {
	tb := &memTable{blocks: make([]atomic.Pointer[block], 5)}
	c := &blockCache{budget: 3 * 100}
	newBlock := func() *block { return &block{cols: table.Columns{table.ValueColumn: make([]byte, 100)}} }
	held := func() (bs []int) {
		for b := range tb.blocks {
			if tb.blocks[b].Load() != nil {
				bs = append(bs, b)
			}
		}
		return bs
	}
	for b := range 3 {
		c.add(tb, int64(b), newBlock())
	}
	if got := held(); len(got) != 3 || c.used != 300 {
		t.Fatalf("three blocks added: held %v, %d bytes", got, c.used)
	}
	// The hand clears the marks of 0, 1 and 2, comes back to 0 and drops it.
	c.add(tb, 3, newBlock())
	if got := held(); len(got) != 3 || tb.blocks[0].Load() != nil {
		t.Fatalf("a fourth added: held %v, want 1, 2, 3", got)
	}
	// The hand passed them all: read 3 and 1, and 2 is the first it finds unread.
	tb.blocks[3].Load().used.Store(true)
	tb.blocks[1].Load().used.Store(true)
	c.add(tb, 4, newBlock())
	if got := held(); len(got) != 3 || tb.blocks[2].Load() != nil {
		t.Fatalf("a fifth added after reading 3 and 1: held %v, want 1, 3, 4", got)
	}
	if again := c.add(tb, 4, newBlock()); again != tb.blocks[4].Load() || c.used != 300 {
		t.Errorf("block 4 added twice: not the block held, or counted twice (%d bytes)", c.used)
	}
	c.hold(150) // a table held whole: room for one block and a half
	if got := held(); len(got) != 1 || c.used != 250 {
		t.Errorf("150 bytes held beside: held %v, %d bytes in all", got, c.used)
	}
	c.hold(-150)
	c.release(tb)
	if got := held(); len(got) != 0 || c.used != 0 || len(c.ring) != 0 {
		t.Errorf("released: held %v, %d bytes, %d in the ring", got, c.used, len(c.ring))
	}
}
