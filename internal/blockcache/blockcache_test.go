package blockcache

import (
	"errors"
	"slices"
	"sync"
	"testing"
)

// TestClock fills a cache of three blocks' room with five, reading two
// before the fifth, and checks that it drops the blocks not read since the
// clock hand last passed, and what Hold and Drop do.
func TestClock(t *testing.T) {
	c := New[int](300)
	f := NewFile[int](5)
	reads := 0
	get := func(i int) {
		t.Helper()
		b, err := c.Get(f, i, func(i int) (int, int64, error) { reads++; return i * 10, 100, nil })
		if err != nil || b != i*10 {
			t.Fatalf("block %d: %d, %v", i, b, err)
		}
	}
	held := func() (is []int) {
		for i := range f.slots {
			if f.slots[i].Load() != nil {
				is = append(is, i)
			}
		}
		return is
	}
	for i := range 3 {
		get(i)
	}
	get(1) // held: not read again
	if got := held(); !slices.Equal(got, []int{0, 1, 2}) || c.Used() != 300 || reads != 3 {
		t.Fatalf("three blocks read, one twice: held %v, %d bytes, %d reads", got, c.Used(), reads)
	}
	// The hand clears the marks of 0, 1 and 2, comes back to 0 and drops it.
	get(3)
	if got := held(); !slices.Equal(got, []int{1, 2, 3}) {
		t.Fatalf("a fourth read: held %v, want 1, 2, 3", got)
	}
	// The hand passed them all: read 3 and 1, and 2 is the first it finds unread.
	get(3)
	get(1)
	get(4)
	if got := held(); !slices.Equal(got, []int{1, 3, 4}) {
		t.Fatalf("a fifth read after 3 and 1: held %v, want 1, 3, 4", got)
	}
	c.Hold(150) // room for one block and a half beside
	if got := held(); len(got) != 1 || c.Used() != 250 {
		t.Errorf("150 bytes held beside: held %v, %d bytes in all", got, c.Used())
	}
	c.Hold(-150)
	c.Drop(f)
	if got := held(); len(got) != 0 || c.Used() != 0 || len(c.ring) != 0 {
		t.Errorf("dropped: held %v, %d bytes, %d in the ring", got, c.Used(), len(c.ring))
	}
	bad := errors.New("bad block")
	if _, err := c.Get(f, 2, func(int) (int, int64, error) { return 0, 0, bad }); err != bad || f.slots[2].Load() != nil {
		t.Errorf("a read that fails: %v, held %v", err, held())
	}
}

// TestConcurrent reads blocks from many goroutines under a budget of a
// few and checks every block read is the right one and the budget holds
// (run with -race).
func TestConcurrent(t *testing.T) {
	c := New[*int](4 * 8)
	f := NewFile[*int](64)
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for k := range 2000 {
				i := (k*7 + g) % 64
				b, err := c.Get(f, i, func(i int) (*int, int64, error) { return &i, 8, nil })
				if err != nil || *b != i {
					t.Errorf("block %d: %v, %v", i, b, err)
					return
				}
			}
		})
	}
	wg.Wait()
	if c.Used() > 4*8 {
		t.Errorf("%d bytes held, budget 32", c.Used())
	}
}

// TestPromote promotes held blocks within a share of the budget and
// checks what Held, Promoted and Used say, and that a promoted block is
// dropped as any other.
func TestPromote(t *testing.T) {
	c := New[int](300)
	f := NewFile[int](4)
	read := func(i int) (int, int64, error) { return i, 100, nil }
	for i := range 2 {
		if _, err := c.Get(f, i, read); err != nil {
			t.Fatal(err)
		}
	}
	if _, ok := c.Held(f, 2); ok {
		t.Fatal("block 2 held before it was read")
	}
	if !c.Promote(f, 0, 0, -1, 150, 150) {
		t.Fatal("block 0 not promoted")
	}
	switch {
	case c.Promote(f, 0, -1, -2, 10, 300):
		t.Error("a promoted block promoted again")
	case c.Promote(f, 1, 7, -1, 10, 300):
		t.Error("block 1 promoted from a block it is not")
	case c.Promote(f, 1, 1, -1, 10, 150):
		t.Error("block 1 promoted beyond the limit")
	}
	if b, ok := c.Held(f, 0); !ok || b != -1 || c.Promoted() != 150 || c.Used() != 250 {
		t.Fatalf("block 0 %d (held %v), %d bytes promoted, %d used; want -1, 150, 250", b, ok, c.Promoted(), c.Used())
	}
	for i := 2; i < 4; i++ { // over the budget: the clock drops blocks, the promoted one among them
		if _, err := c.Get(f, i, read); err != nil {
			t.Fatal(err)
		}
	}
	if _, ok := c.Held(f, 0); ok || c.Promoted() != 0 || c.Used() > 300 {
		t.Errorf("after two more blocks: block 0 held %v, %d bytes promoted, %d used", ok, c.Promoted(), c.Used())
	}
}
