package parallel_test

import (
	"context"
	"fmt"
	"log"
	"sync/atomic"

	"github.com/dtb-draughts/dtb/internal/parallel"
)

func ExampleRange() {
	var sum atomic.Int64
	err := parallel.Range(context.Background(), 100000, 4, func(lo, hi int64) error {
		var s int64
		for i := lo; i < hi; i++ {
			s += i
		}
		sum.Add(s)
		return nil
	})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(sum.Load())
	// Output: 4999950000
}
