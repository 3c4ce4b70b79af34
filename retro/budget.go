package retro

import (
	"github.com/dtb-draughts/dtb/draughts"
	"github.com/dtb-draughts/dtb/index"
	"github.com/dtb-draughts/dtb/rules"
	"github.com/dtb-draughts/dtb/table"
)

// A budget divides Options.Mem between the parts of a build (see the
// package doc). Zero means no bound. While a group is solved, the parts
// are the store's solved tables, its reader's cache and the solver.
// While its tables are written, the solver's share goes to the caches of
// the writing.
type budget int64

// store is the share of the solved tables in the store's memory: a
// quarter.
func (b budget) store() int64 { return int64(b) / 4 }

// cache is the share of the reader's cache of decoded blocks. It is a
// sixteenth, and at least 16 MiB.
func (b budget) cache() int64 { return max(int64(b)/16, 16<<20) }

// solver is the rest, the solver's share. It holds the unit at work (see
// Options.unitPositions). It also holds the blocks the unit reads of the
// level above (see above).
func (b budget) solver() int64 { return int64(b) - int64(b)/4 - int64(b)/16 }

// above is the solver's part for the blocks read of the level above
// (see aboveLevel). It is an eighth, and at least a byte: a
// block at a time. With no budget it is 0, no bound.
func (b budget) above() int64 {
	if b <= 0 {
		return 0
	}
	return max(b.solver()/8, 1)
}

// writing is the share of each of the n tables written at once. It holds
// a table's cache of the units' decoded blocks. The n caches take an
// eighth together.
func (b budget) writing(n int) int64 { return int64(b) / 8 / int64(n) }

// tableBytes returns the bytes a solved table of m takes in a store. The
// table has n positions and the columns of extra. Beyond its columns it
// counts a byte a position. That is more than the bit a position of its
// resolution bitmap (see solved.bytes). The store decides by it whether
// to keep a table in memory. Units counts by it the tables a unit reads.
func tableBytes(m index.Material, n int64, extra table.Extra) int64 {
	return n * int64(table.NewLayout(m, extra).Width()+1)
}

// positionSize returns what the solver takes a position in a group of
// class c. The group's tables have the optional columns x.
//
// The finished units of the level above take aboveBytes: their lookup
// columns, decoded (see lookupColumns). Those are the value, a class
// distance and the dtw.
//
// The unit at work takes unitBits at most. Its analyses run one after
// the other (see solve). Each takes 16 bits a position: its word, which
// ends as its result (see word.go). A wide analysis takes 24: its word
// and its counts apart. The theory analysis is wide with dtw. The rules
// analysis is wide where its class's clock carries over. With dtw and
// mtc the theory analysis keeps 2 bits more for the mtc analysis
// (solver.ahead). A result that another analysis follows is written to
// the work folder. The unit's entries are written a batch at a time
// (writeUnit). The pending lines take a 32nd of a bit (lineSize).
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
// memory budget Mem. The group has class c and optional columns x (see
// positionSize). The unit fits in the solver's share beside the blocks
// it reads (budget.above). A unit of one pair of blocks may not fit. It
// then takes the store's share too (see buildGroup).
func (o Options) unitPositions(x table.Extra, c rules.Class) int64 {
	if o.Mem <= 0 {
		return 1 << 62
	}
	b := budget(o.Mem)
	_, bits := positionSize(x, c)
	return max((b.solver()-b.above())*8/bits, 1)
}

// bytesPerGroupPosition is the memory a build takes for each position of
// a group with men. Beside the solver's part (positionSize) it counts the
// tables read and the writing's buffers. It rounds up measured peaks of
// the whole process: 5.9 to 10.3 bytes, by the columns.
const bytesPerGroupPosition = 8

// groupMemory returns the solver memory of the group of m. Its tables
// have the optional columns x. Solved in one unit a level, the group
// takes all. In its smallest units it takes least. Such a unit is one
// men configuration and its flip, with every placement of the kings.
// Both add the configurations of the level above that the man moves of
// one configuration reach. Those are two a man, decoded at positionSize's
// aboveBytes.
//
// A group of kings alone is one unit of two blocks of orbits. Each block
// is about a quarter of a table, counted at positionSize. The orbits'
// marks come on top.
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

// levelConfigs returns the number of men configurations of m by level
// (see level). It counts them square by square.
func levelConfigs(m index.Material) []int64 {
	// n[w][b][l] counts the configurations of w white and b black men at
	// level l, on the squares so far.
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

// memoryWithin returns the memory of a group under the budget mem (0:
// none). The group takes all as one unit and least in its smallest units.
// The solver splits it into units within the budget as far as it can.
func memoryWithin(all, least, mem int64) int64 {
	if mem <= 0 {
		return all
	}
	return min(all, max(least, mem))
}
