package parallel

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
)

// TestRange checks that the chunks of Range and of Chunks cover [0, n)
// once each, start at multiples of their size, and that no more than
// threads run at once.
func TestRange(t *testing.T) {
	for _, size := range []int64{Chunk, 1000} {
		for _, n := range []int64{0, 1, size - 1, size, 3*size + 5} {
			var mu sync.Mutex
			seen := map[int64]int64{}
			var running, most atomic.Int32
			f := func(lo, hi int64) error {
				r := running.Add(1)
				defer running.Add(-1)
				for m := most.Load(); r > m && !most.CompareAndSwap(m, r); m = most.Load() {
				}
				mu.Lock()
				defer mu.Unlock()
				seen[lo] = hi
				return nil
			}
			var err error
			if size == Chunk {
				err = Range(context.Background(), n, 2, f)
			} else {
				err = Chunks(context.Background(), n, size, 2, f)
			}
			var covered int64
			for lo, hi := range seen {
				if lo%size != 0 || hi <= lo || hi > n || hi-lo > size {
					t.Errorf("size %d, n %d: chunk [%d, %d)", size, n, lo, hi)
				}
				covered += hi - lo
			}
			if err != nil || covered != n || most.Load() > 2 {
				t.Errorf("size %d, n %d: error %v, %d indices covered, %d goroutines at once", size, n, err, covered, most.Load())
			}
		}
	}
}

// TestRangeStops checks that Range returns f's error and ctx's.
func TestRangeStops(t *testing.T) {
	bad := errors.New("bad")
	var calls atomic.Int32
	err := Range(context.Background(), 1000*Chunk, 1, func(lo, hi int64) error {
		calls.Add(1)
		return bad
	})
	if !errors.Is(err, bad) || calls.Load() > 10 {
		t.Errorf("error %v after %d calls, want %v soon", err, calls.Load(), bad)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := Range(ctx, Chunk, 1, func(lo, hi int64) error { return nil }); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: error %v", err)
	}
}
