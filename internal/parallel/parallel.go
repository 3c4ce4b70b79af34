// Package parallel runs a function over a range of indices, in chunks,
// on a bounded number of goroutines.
//
// Use it like this:
//
//	err := parallel.Range(ctx, n, threads, func(lo, hi int64) error {
//		for i := lo; i < hi; i++ {
//			... // work on index i
//		}
//		return nil
//	})
//
// Every chunk but the last holds Chunk indices and starts at a multiple of
// Chunk, so a chunk owns whole 64-bit words of a bit set over the indices.
package parallel

import (
	"context"

	"golang.org/x/sync/errgroup"
)

// Chunk is the number of indices a call of f takes, a multiple of 64.
const Chunk = 1 << 14

// Range calls f on the chunks [lo, hi) of [0, n), in any order, on up to
// threads goroutines at a time. It stops starting chunks at the first
// error or when ctx is done, and returns that error or ctx's.
func Range(ctx context.Context, n int64, threads int, f func(lo, hi int64) error) error {
	return Chunks(ctx, n, Chunk, threads, f)
}

// Chunks is Range with chunks of size indices: every chunk but the last
// holds size indices and starts at a multiple of size.
func Chunks(ctx context.Context, n, size int64, threads int, f func(lo, hi int64) error) error {
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(threads)
	for lo := int64(0); lo < n && gctx.Err() == nil; lo += size {
		g.Go(func() error { return f(lo, min(lo+size, n)) })
	}
	if err := g.Wait(); err != nil {
		return err
	}
	return ctx.Err()
}
