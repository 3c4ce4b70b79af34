package retro

import (
	"context"
	"fmt"
	"math/bits"
	"slices"
	"sync/atomic"

	"github.com/dtb-draughts/dtb/draughts"
	"github.com/dtb-draughts/dtb/index"
	"github.com/dtb-draughts/dtb/parallel"
	"github.com/dtb-draughts/dtb/table"
)

// A unit is the part of a group that the solver holds at once: some men
// configurations, each with every placement of the kings, in both tables
// of the group.
//
// A block is the positions of one table of the group that share one men
// configuration (contiguous in the table: the index is men-major), so a
// king move leads from a block to the block of the other table with the
// same men turned by 180 degrees and the colours swapped: its pair. A unit
// holds whole pairs of blocks, so every king move stays inside it. A man
// move advances a man by one row, so it leads to a block of the next level
// (the total advancement of the men, which a colour flip keeps): units are
// solved from the highest level down, and the units of one level read the
// finished units of the level above. Captures and crownings lead to other
// groups, solved before. So inside a unit only king moves are iterated;
// every other move is an external successor whose value is known.
//
// The pairs of a level are numbered in the order of their first block's
// men configuration (of the group's first table), and each unit holds up
// to perUnit consecutive ones. Pair p of a unit is blocks 2p (the first
// table's) and 2p+1 (its pair); a unit's local ids number its blocks'
// positions block by block: id j*k+i is position i (in king order) of
// block j. In a symmetric group (a material that is its own colour flip)
// a configuration may be its own flip: its pair is a copy of it, solved
// alongside (the same positions with the side to move's parity marked,
// which gives them the same values).
type unit struct {
	g         *group
	name      string // GROUP.lLEVEL.N, a safe file name: KKMvKM.l3.0
	level     int
	k         int64 // positions per block: the king placements of the material
	firstRank int64 // men configuration of the first block
	pairs     int64
	blocks    []block // while the unit is solved (see load)
	// work counts the positions the solver's passes have gone through so
	// far: every position once in the first pass, then each position as
	// it is decided by each analysis solved; passes is the number of
	// those passes, 1 plus the analyses solved (as far as known). The
	// progress reporter reads them.
	work, passes atomic.Int64
}

// block is the positions of table t of the group with men configuration
// r (of the table's index).
type block struct {
	t int
	r int64
}

func (u *unit) size() int64 { return 2 * u.pairs * u.k }

// A layout places the men configurations of a group in its units.
type layout struct {
	g       *group
	k       int64
	lvl     []uint8  // by configuration of the first table: its level, or second for the second of a pair in a symmetric group
	ord     []uint32 // by configuration of the first table: its number among the pairs of its level
	perUnit int64    // pairs a unit holds
	units   []*unit  // highest level first
	first   []int    // by level: its first unit
}

// second marks, in a symmetric group, a configuration whose pair is
// numbered at its flip.
const second = 255

// newLayout splits the group into units of at most unitPositions(n)
// positions (at least one pair of blocks each), where n is the positions
// of the group's largest level. It takes 5 bytes a men configuration of
// the group's first table.
func (g *group) newLayout(unitPositions func(largestLevel int64) int64) *layout {
	x := g.tables[0]
	l := &layout{g: g, k: x.KingPlacements(), lvl: make([]uint8, x.MenConfigs()), ord: make([]uint32, x.MenConfigs())}
	var count [second]int64
	for r := range x.MenConfigs() {
		wm, bm := x.UnrankMen(r)
		if len(g.tables) == 1 && g.flipRank(0, r) < r {
			l.lvl[r] = second
			continue
		}
		lv := level(wm, bm)
		l.lvl[r] = uint8(lv)
		count[lv]++
	}
	l.perUnit = max(unitPositions(2*l.k*slices.Max(count[:]))/(2*l.k), 1)
	var firstRanks [second][]int64
	clear(count[:])
	for r, lv := range l.lvl {
		if lv == second {
			continue
		}
		l.ord[r] = uint32(count[lv])
		if count[lv]%l.perUnit == 0 {
			firstRanks[lv] = append(firstRanks[lv], int64(r))
		}
		count[lv]++
	}
	l.first = make([]int, second)
	for lv := second - 1; lv >= 0; lv-- {
		l.first[lv] = len(l.units)
		for n, r := range firstRanks[lv] {
			pairs := min(l.perUnit, count[lv]-int64(n)*l.perUnit)
			l.units = append(l.units, &unit{g: g, name: fmt.Sprintf("%s.l%d.%d", x.Material(), lv, n), level: lv, k: l.k, firstRank: r, pairs: pairs})
		}
	}
	return l
}

// flipRank returns the men configuration, in the other table of the
// group, of configuration r of table t turned and recoloured.
func (g *group) flipRank(t int, r int64) int64 {
	wm, bm := g.tables[t].UnrankMen(r)
	flip := table.FlipPlacement(index.Placement{WhiteMen: wm, BlackMen: bm})
	return g.tables[g.other(t)].RankMen(flip.WhiteMen, flip.BlackMen)
}

// locate returns the unit (its number in l.units) and the block in it of
// men configuration r of table t.
func (l *layout) locate(t int, r int64) (n, j int) {
	if t == 1 || l.lvl[r] == second {
		return l.pairAt(l.g.flipRank(t, r), 1)
	}
	return l.pairAt(r, 0)
}

// pairAt returns the unit and the block of side side (0: the first
// table's block, 1: its pair) of the pair of configuration r of the
// first table.
func (l *layout) pairAt(r int64, side int) (n, j int) {
	o := int64(l.ord[r])
	return l.first[l.lvl[r]] + int(o/l.perUnit), int(2*(o%l.perUnit)) + side
}

// load lists the blocks of unit u, whose pairs are the configurations of
// its level from u.firstRank on.
func (l *layout) load(u *unit) {
	u.blocks = make([]block, 0, 2*u.pairs)
	o := l.g.other(0)
	for r := u.firstRank; int64(len(u.blocks)) < 2*u.pairs; r++ {
		if int(l.lvl[r]) == u.level {
			u.blocks = append(u.blocks, block{0, r}, block{o, l.g.flipRank(0, r)})
		}
	}
}

// advancement[c][s-1] is how far a man of colour c on square s has
// advanced from its own back row, in rows.
var advancement = func() (a [2][50]int) {
	for sq := 1; sq <= 50; sq++ {
		row, _ := draughts.RowCol(sq)
		a[draughts.White][sq-1], a[draughts.Black][sq-1] = 9-row, row
	}
	return a
}()

// level returns the total advancement of the men of a configuration.
func level(whiteMen, blackMen uint64) int {
	n := 0
	for c, set := range [2]uint64{whiteMen, blackMen} {
		for ; set != 0; set &= set - 1 {
			n += advancement[c][bits.TrailingZeros64(set)]
		}
	}
	return n
}

// position returns the placement of local id.
func (u *unit) placement(id int64) (t int, i int64) {
	b := u.blocks[id/u.k]
	return b.t, b.r*u.k + id%u.k
}

// A visitor is called for positions of a unit in the order of their ids,
// with a move buffer of its own.
type visitor func(id int64, p draughts.Position, buf []draughts.Move) error

// walk calls a visitor for every position of the unit, on up to threads
// goroutines; each range of ids gets a visitor of its own from
// newVisitor.
func (u *unit) walk(ctx context.Context, threads int, newVisitor func() visitor) error {
	return parallel.Range(ctx, u.size(), threads, func(lo, hi int64) error {
		var buf [draughts.MaxMoves]draughts.Move
		f := newVisitor()
		start := lo
		for lo < hi {
			t, i := u.placement(lo)
			x := u.g.tables[t]
			pl := x.Unrank(i)
			for end := min(hi, (lo/u.k+1)*u.k); lo < end; lo++ {
				if err := f(lo, table.Position(pl), buf[:0]); err != nil {
					return err
				}
				pl, _ = x.Next(pl)
			}
		}
		u.work.Add(hi - start)
		return nil
	})
}

// maxUnmoves bounds the predecessors of a position in the usual case (six
// kings have at most 6*17); predecessors appends past it if needed.
const maxUnmoves = 128

// squareBit converts one bitboard bit to its square-set bit.
func squareBit(b uint64) uint64 { return 1 << (draughts.Square(b) - 1) }

// predecessors appends to buf the local ids of the positions from which a
// king's move, if quiet, leads to the position id: the positions where
// White must capture are among them, and the caller skips those. They
// are White to move in the pair of id's block: id is the colour flip of
// the position after White's move (q below).
//
// men holds the men of the block of the caller's last position, so that
// a run of positions of one block unranks them once.
func (u *unit) predecessors(id int64, buf []int64, men *blockMen) []int64 {
	j := id / u.k
	b, pair := u.blocks[j], j^1
	x := u.g.tables[b.t]
	if men.block != j+1 {
		men.block = j + 1
		men.white, men.black = x.UnrankMen(b.r)
	}
	q := table.FlipPlacement(x.UnrankKings(id%u.k, men.white, men.black)) // White has just moved
	qb := table.Position(q)
	empty := qb.Empty()
	px, base := u.g.tables[u.blocks[pair].t], pair*u.k
	for kings := qb.White & qb.Kings; kings != 0; kings &= kings - 1 {
		to := kings & -kings
		km := px.MoveWhiteKing(q, squareBit(to))
		for _, d := range draughts.Directions {
			for from := draughts.Step(to, d) & empty; from != 0; from = draughts.Step(from, d) & empty {
				buf = append(buf, base+km.RankTo(squareBit(from)))
			}
		}
	}
	return buf
}

// blockMen holds the men of one block of a unit: block is the block's
// number plus one, 0 before any.
type blockMen struct {
	block        int64
	white, black uint64
}
