package retro

import (
	"github.com/dtb-draughts/dtb/draughts"
	"github.com/dtb-draughts/dtb/index"
	"github.com/dtb-draughts/dtb/rules"
	"github.com/dtb-draughts/dtb/table"
)

// A budget divides the memory budget Options.Mem (0: no bound) between
// the parts of a build that hold memory while a group is solved (see the
// outline in the package doc): the store's solved tables, the prober's
// cache and the solver; while a group's tables are written, the solver's
// share goes to the caches of the writing.
type budget int64

// store is the share of the solved tables the store keeps in memory: a
// quarter.
func (b budget) store() int64 { return int64(b) / 4 }

// cache is the share of the prober's cache of decoded blocks: a
// sixteenth, and at least 16 MiB.
func (b budget) cache() int64 { return max(int64(b)/16, 16<<20) }

// solver is the rest, the solver's: the unit at work (see
// Options.unitPositions), and the blocks it reads of the finished units
// of the level above (above).
func (b budget) solver() int64 { return int64(b) - int64(b)/4 - int64(b)/16 }

// above is the part of the solver's share that holds the blocks read of
// the finished units of the level above (see aboveLevel): an eighth, at
// least a byte (a block at a time); 0, no bound, for no budget.
func (b budget) above() int64 {
	if b <= 0 {
		return 0
	}
	return max(b.solver()/8, 1)
}

// writing is the share of each of the n tables written at once: their
// caches of the units' decoded blocks, within an eighth together.
func (b budget) writing(n int) int64 { return int64(b) / 8 / int64(n) }

// tableBytes returns the bytes that a solved table of m with n positions
// and the columns of extra takes in a store, counted at a byte a position
// beyond its columns: more than the bit a position its resolution bitmap
// adds (see solved.bytes). The store decides by it whether to keep a
// table in memory, and Units counts the tables a unit reads by it.
func tableBytes(m index.Material, n int64, extra table.Extra) int64 {
	return n * int64(table.NewLayout(m, extra).Width()+1)
}

// positionSize returns what the solver takes a position in a group of
// class c: of the finished units of the level above, whose lookup
// columns (see lookupColumns: the value, a class distance, the dtw) take
// aboveBytes, decoded; and of the unit at work, unitBits at most. Its
// analyses run one after the other (see solve), each in 16 bits a
// position, its word (which ends as its result: see word.go), and 24
// where it is wide (its counts apart): the theory analysis with dtw,
// the rules analysis where its class's clock carries over. With dtw and
// mtc the theory analysis keeps 2 bits more for the mtc analysis
// (solver.ahead). A result that another analysis follows is written to
// the work folder, the unit's entries a batch at a time (writeUnit); the
// pending lines take a 32nd of a bit (lineSize). x are the optional
// columns of the group's tables.
func positionSize(x table.Extra, c rules.Class) (aboveBytes, unitBits int64) {
	aboveBytes, unitBits = 2, 16 // value and distance; a packed analysis
	if x.DTW {
		aboveBytes += 2
	}
	if x.DTW || c.Carries() {
		unitBits = 24
	}
	if x.DTW && x.MTC {
		unitBits += 2
	}
	return aboveBytes, unitBits
}

// unitPositions returns the most positions a unit may have under the
// memory budget Mem in a group of class c with the optional columns x
// (see positionSize): the unit fits in the solver's share beside the
// blocks it reads of the level above (budget.above). A unit of one pair
// of blocks that does not fit takes the store's share too (see
// groupBuild.run).
func (o Options) unitPositions(x table.Extra, c rules.Class) int64 {
	if o.Mem <= 0 {
		return 1 << 62
	}
	b := budget(o.Mem)
	_, bits := positionSize(x, c)
	return max((b.solver()-b.above())*8/bits, 1)
}

// bytesPerGroupPosition is the memory a build takes for each position of
// a group with men, as measured by the peak of the whole process on
// KKKvKK, a group of kings only (one unit), before it was solved on
// orbits, under --mem 512MiB: 6.3 bytes with the default columns, 7.8
// with dtw, 10.3 with dtw and mtc; 5.9 on KKKKvKK with mtc under --mem
// 8GiB. Beside the solver's part (positionSize) it counts the tables
// read and the writing's buffers.
const bytesPerGroupPosition = 8

// groupMemory returns the solver memory of the group of m, whose tables
// have the optional columns x: all of it, solved in one unit a level,
// and the least it takes split into its smallest units, one men
// configuration and its flip with every placement of the kings; each
// beside the configurations of the level above that the man moves of
// one configuration reach (two a man, decoded at positionSize's aboveBytes).
// A group of kings alone is one unit of two blocks of orbits (each
// about a quarter of a table), counted at positionSize, beside the
// orbits' marks. Built from its deps
// with mtc, KKKKvKK peaks at 533 MiB; Units counts 657 MiB with the
// tables it reads.
func groupMemory(m index.Material, x table.Extra) (all, least int64) {
	ix := index.New(m)
	n := ix.Size()
	if m != m.Flip() {
		n += index.New(m.Flip()).Size()
	}
	above, bits := positionSize(x, rules.ClassOf(m))
	if m.Men() == 0 {
		all = 2*index.OrbitCount(m)*bits/8 + n/7
		return all, all
	}
	k, tables := ix.KingPlacements(), n/ix.Size()
	for _, c := range levelConfigs(m) {
		all = max(all, c*k*tables*bytesPerGroupPosition)
		least = max(least, min(c*k*tables, 2*k)*bytesPerGroupPosition)
	}
	reads := 2 * int64(m.Men()) * k * above
	return all + reads, least + reads
}

// levelConfigs returns the men configurations of m by level (see
// level), counted square by square.
func levelConfigs(m index.Material) []int64 {
	// n[w][b][l]: the configurations of w white and b black men on the
	// squares so far, at level l.
	const maxLevel = 9 * MaxPieces
	var n [MaxPieces + 1][MaxPieces + 1][maxLevel + 1]int64
	n[0][0][0] = 1
	for sq := 50; sq >= 1; sq-- {
		for w := m.WhiteMen; w >= 0; w-- {
			for b := m.BlackMen; b >= 0; b-- {
				for l := maxLevel; l >= 0; l-- {
					var add int64
					if a := advancement[draughts.White][sq-1]; sq > 5 && w > 0 && l >= a {
						add += n[w-1][b][l-a]
					}
					if a := advancement[draughts.Black][sq-1]; sq <= 45 && b > 0 && l >= a {
						add += n[w][b-1][l-a]
					}
					n[w][b][l] += add
				}
			}
		}
	}
	levels := n[m.WhiteMen][m.BlackMen][:]
	last := len(levels)
	for last > 1 && levels[last-1] == 0 {
		last--
	}
	return levels[:last]
}

// memoryWithin returns the memory of a group that takes all as one unit
// and least in its smallest units, under the budget mem (0: none): the
// solver splits it into units within the budget as far as it can.
func memoryWithin(all, least, mem int64) int64 {
	if mem <= 0 {
		return all
	}
	return min(all, max(least, mem))
}
