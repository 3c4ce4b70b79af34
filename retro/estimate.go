package retro

import (
	"fmt"
	"runtime"
	"time"

	"github.com/dtb-draughts/dtb/index"
)

// MaxPieces is the most pieces a table Generate builds may have.
const MaxPieces = 7

// positionsPerThreadSecond is the solving rate from which Estimate
// extrapolates the time. It was measured on the 5-piece tables and on
// KMvKKKM with its deps.
const positionsPerThreadSecond = 1.4e6

// Estimate is what a build will take, extrapolated from measured rates.
type Estimate struct {
	Tables    int
	Positions int64 // of the tables to build, each counted once (White to move)
	// Memory is the bytes of solver memory for the largest group: a
	// material and its flip. It is within the budget Options.Mem where
	// the group's smallest units fit in it.
	Memory int64
	// Least is the memory that the group Largest takes in its smallest
	// units: the most of any group. A smaller Options.Mem cannot be kept.
	Least   int64
	Largest index.Material
	Time    time.Duration // with Options.Threads threads (0: every CPU)
}

// EstimateOf returns what building the tables of o takes. It counts the
// tables already on disk as if they had to be built. It returns the error
// Generate would return if they cannot be built.
func EstimateOf(o Options) (Estimate, error) {
	if err := checkPieces(o); err != nil {
		return Estimate{}, err
	}
	mats, err := plan(o)
	if err != nil {
		return Estimate{}, err
	}
	e := Estimate{Tables: len(mats)}
	for _, m := range mats {
		e.Positions += index.New(m).Size()
		all, least := groupMemory(m, o.extra(m))
		e.Memory = max(e.Memory, memoryWithin(all, least, o.Mem))
		if least > e.Least {
			e.Least, e.Largest = least, m
		}
	}
	if o.Threads <= 0 {
		o.Threads = runtime.NumCPU()
	}
	threads := float64(o.Threads)
	e.Time = time.Duration(float64(e.Positions) / positionsPerThreadSecond / threads * float64(time.Second))
	return e, nil
}

// checkPieces returns an error if o asks for tables of more than MaxPieces
// pieces.
func checkPieces(o Options) error {
	switch {
	case o.Only != nil && o.Only.Pieces() > MaxPieces:
		return fmt.Errorf("%s has %d pieces: tables of more than %d pieces cannot be built", *o.Only, o.Only.Pieces(), MaxPieces)
	case o.Only == nil && o.Pieces > MaxPieces:
		return fmt.Errorf("pieces %d: tables of more than %d pieces cannot be built", o.Pieces, MaxPieces)
	}
	return nil
}
