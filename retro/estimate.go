package retro

import (
	"cmp"
	"fmt"
	"runtime"
	"time"

	"github.com/dtb-draughts/dtb/index"
)

// MaxPieces is the most pieces a table Generate builds may have.
const MaxPieces = 7

// Rate returns the positions a CPU-second that building the group of m
// takes: solving it, then writing its tables. It is the one table of
// rates from which dtb gen and dtb plan estimate times, typical of each
// kind of group as measured on a 2-core EPYC (docs/benchmarks.md,
// "Generation"): every table up to 5 pieces 2.5 M; 6 pieces 1.1 to 2 M
// with men (KKKKKvM 0.66 M), 1.2 to 2.4 M of kings alone; 7 pieces 0.7
// M with men (KMvKKKKK), 1.5 to 2.2 M of kings alone.
func Rate(m index.Material) float64 {
	switch n := m.Pieces(); {
	case n <= 5:
		return 2.5e6
	case m.Men() == 0:
		return 1.5e6
	case n == 6:
		return 1.4e6
	}
	return 0.7e6
}

// AssembleRate is the positions a CPU-second of a group's unit after its
// parts (Unit.Assembles), which reads the parts' units back and writes
// the tables: 6.2 M measured on the 4-piece KKvKM (5.0 M positions in
// 0.8 s), rounded down for the reading from a shared disk.
const AssembleRate = 5e6

// CPUSeconds estimates the CPU time of building u: its positions at the
// Rate of its group, or at AssembleRate for a group after its parts.
func (u Unit) CPUSeconds() float64 {
	if u.Assembles {
		return float64(u.Positions) / AssembleRate
	}
	m, _ := parseGroup(cmp.Or(u.Group, u.ID)) // a unit of Units names its group
	return float64(u.Positions) / Rate(m)
}

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
	var cpu float64 // seconds
	for _, m := range mats {
		n := index.New(m).Size()
		e.Positions += n
		cpu += float64(n) / Rate(m)
		all, least := groupMemory(m, o.extra(m))
		e.Memory = max(e.Memory, memoryWithin(all, least, o.Mem))
		if least > e.Least {
			e.Least, e.Largest = least, m
		}
	}
	if o.Threads <= 0 {
		o.Threads = runtime.NumCPU()
	}
	e.Time = time.Duration(cpu / float64(o.Threads) * float64(time.Second))
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
