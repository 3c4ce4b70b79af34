package retro

import (
	"cmp"
	"context"
	"fmt"
	"math/bits"
	"slices"
	"sync/atomic"

	"github.com/dtb-draughts/dtb/draughts"
	"github.com/dtb-draughts/dtb/index"
	"github.com/dtb-draughts/dtb/internal/parallel"
	"github.com/dtb-draughts/dtb/rules"
)

// A group is the tables whose positions reach each other by quiet moves.
// It holds a material M and its colour flip. A symmetric M makes a group
// of one table. A quiet move from a position of M (White to move) leads to
// a position of M with Black to move. The flip table holds that position.
// So every quiet move goes from one table of the group to the other.
// Every capture and crowning leaves the group for a table solved earlier.
// A group is solved in units (see unit).
//
// A group of kings alone is solved on orbits (index.Orbits). The board's
// symmetries keep its positions' values, so one position of each orbit
// stands for all. Its tables are written whole.
type group struct {
	tables []*index.Index // [M] or [M, flip(M)]
	// orbits are the orbits of each table of a group of kings alone,
	// once made (see makeOrbits). They are nil for a group with men.
	orbits []*index.Orbits
}

func newGroup(m index.Material) *group {
	g := &group{tables: []*index.Index{index.New(m)}}
	if m.Flip() != m {
		g.tables = append(g.tables, index.New(m.Flip()))
	}
	return g
}

// materials returns the materials of the group's tables.
func (g *group) materials() []index.Material {
	var ms []index.Material
	for _, x := range g.tables {
		ms = append(ms, x.Material())
	}
	return ms
}

// kingsAlone reports whether the group's positions have kings alone.
// Such a group is solved on orbits.
func (g *group) kingsAlone() bool { return g.tables[0].Material().Men() == 0 }

// makeOrbits makes the orbits of the tables of a group of kings alone,
// if not made yet. It uses up to threads goroutines.
func (g *group) makeOrbits(threads int) {
	if g.kingsAlone() && g.orbits == nil {
		for _, x := range g.tables {
			g.orbits = append(g.orbits, index.NewOrbits(x, threads))
		}
	}
}

// size returns the positions of the group's tables.
func (g *group) size() int64 {
	var n int64
	for _, x := range g.tables {
		n += x.Size()
	}
	return n
}

// other returns the table of the group holding the successors of table t.
func (g *group) other(t int) int { return len(g.tables) - 1 - t }

// A unit is the part of a group that the solver holds at once. It holds
// some men configurations, each with every placement of the kings, in
// both tables of the group.
//
// A block is the positions of one table of the group that share one men
// configuration. They are contiguous in the table: the index is
// men-major. A king move leads from a block to its pair. That is the
// block of the other table with the same men turned by 180 degrees and
// the colours swapped. A unit holds whole pairs of blocks, so every king
// move stays inside it.
//
// A man move advances a man by one row. So it leads to a block of the
// next level. A level is the total advancement of the men, which a
// colour flip keeps. Units are solved from the highest level down. The
// units of one level read the finished units of the level above.
// Captures and crownings lead to other groups, solved before. So inside
// a unit only king moves are iterated. Every other move is an external
// successor whose value is known.
//
// The pairs of a level are numbered in the order of their first block's
// men configuration, in the group's first table. Each unit holds a run
// of consecutive pairs (levelUnits). Pair p of a unit is blocks 2p (the
// first table's) and 2p+1 (its pair). A unit's local ids number its blocks'
// positions block by block. Local id j*k+i is position i (in king order)
// of block j.
//
// A symmetric group has a material that is its own colour flip. There a
// configuration may be its own flip. Its pair is then a copy of it,
// solved alongside. The copy has the same positions with the side to
// move's parity marked, which gives them the same values.
//
// In a group of kings alone a block's local ids are the orbits of its
// table's placements (index.Orbits). Local id j*k+n stands for every
// position of orbit n. The unit's work file holds every position.
type unit struct {
	g         *group
	name      string // GROUP.lLEVEL.N, a safe file name: KKMvKM.l3.0
	level     int
	k         int64 // local ids per block: the king placements of the material, or their orbits
	kings     int64 // positions per block: the king placements of the material
	firstRank int64 // men configuration of the first block
	pairs     int64
	blocks    []block // while the unit is solved (see load)
	// work counts the positions the solver's passes have gone through so
	// far. Each analysis goes through every position once in its first
	// pass, then through each position as it is decided. The number of
	// those passes is passes: twice the analyses, as far as known. The
	// progress reporter reads both.
	work, passes atomic.Int64
}

// block is the positions of table t of the group with men configuration
// r (of the table's index).
type block struct {
	t int
	r int64
}

// size returns the local ids of the unit.
func (u *unit) size() int64 { return 2 * u.pairs * u.k }

// positions returns the positions of the unit: more than its local ids
// in a group of kings alone.
func (u *unit) positions() int64 { return 2 * u.pairs * u.kings }

// orbits returns the orbits of the table of block j in a group of kings
// alone, nil in another.
func (u *unit) orbits(j int64) *index.Orbits {
	if u.g.orbits == nil {
		return nil
	}
	return u.g.orbits[u.blocks[j].t]
}

// A layout places the men configurations of a group in its units.
type layout struct {
	g     *group
	k     int64
	lvl   []uint8  // by configuration of the first table: its level, or second (see second)
	ord   []uint32 // by configuration of the first table: its number among the pairs of its level
	pairs []int64  // by level: its pairs
	cut   []int64  // by level: its units (levelUnits)
	units []*unit  // highest level first
	first []int    // by level: its first unit
}

// second marks, in a symmetric group, a configuration whose pair is
// numbered at its flip.
const second = 255

// newLayout splits the group into units of at most unitPositions
// positions, each level into at least split units where it has that
// many pairs (levelUnits). Each unit holds at least one pair of blocks.
// The layout takes 5 bytes a men configuration of the group's first
// table.
func (g *group) newLayout(unitPositions int64, split int) *layout {
	x := g.tables[0]
	l := &layout{g: g, k: x.KingPlacements(), lvl: make([]uint8, x.MenConfigs()), ord: make([]uint32, x.MenConfigs()),
		pairs: make([]int64, second), cut: make([]int64, second), first: make([]int, second)}
	for r := range x.MenConfigs() {
		wm, bm := x.UnrankMen(r)
		if len(g.tables) == 1 && g.flipRank(0, r) < r {
			l.lvl[r] = second
			continue
		}
		lv := level(wm, bm)
		l.lvl[r], l.ord[r] = uint8(lv), uint32(l.pairs[lv])
		l.pairs[lv]++
	}
	k := l.k
	if g.kingsAlone() {
		k = index.OrbitCount(x.Material())
	}
	var firstRanks [second][]int64
	for lv, c := range l.pairs {
		l.cut[lv] = levelUnits(c, unitPositions, l.k, split)
	}
	for r, lv := range l.lvl {
		if lv != second && int64(l.ord[r]) == unitStart(int64(len(firstRanks[lv])), l.cut[lv], l.pairs[lv]) {
			firstRanks[lv] = append(firstRanks[lv], int64(r))
		}
	}
	for lv := second - 1; lv >= 0; lv-- {
		l.first[lv] = len(l.units)
		for i, r := range firstRanks[lv] {
			n, c := int64(i), l.cut[lv]
			pairs := unitStart(n+1, c, l.pairs[lv]) - unitStart(n, c, l.pairs[lv])
			l.units = append(l.units, &unit{g: g, name: fmt.Sprintf("%s.l%d.%d", x.Material(), lv, i), level: lv, k: k, kings: l.k, firstRank: r, pairs: pairs})
		}
	}
	return l
}

// levelUnits returns the units a level of pairs pairs of blocks is cut
// into: enough that each holds at most unitPositions positions (k a
// block), and at least split where the level has that many pairs. Both
// the solver (newLayout) and the schedule (Parts) count by it.
//
// A level is cut by men configurations, into runs of consecutive pairs
// of nearly equal counts (unitStart). A unit must hold whole pairs, so
// that every king move stays inside it. Any run of a level's pairs
// will do: the units of a level read only the level above, never each
// other. Every pair has the same positions, so equal counts make equal
// units, and a part, a run of units, takes about its share of the
// level's time. More units than the budget needs only makes each
// smaller, so the solver stays within the budget.
func levelUnits(pairs, unitPositions, k int64, split int) int64 {
	perUnit := max(unitPositions/(2*k), 1)
	return max((pairs+perUnit-1)/perUnit, min(int64(split), pairs))
}

// unitStart returns the first pair of unit i of the n units of a level
// of pairs pairs (pairs for i = n).
func unitStart(i, n, pairs int64) int64 { return i * pairs / n }

// unitOf returns the unit of the n units of a level of pairs pairs that
// holds pair o: the last whose start is at most o.
func unitOf(o, n, pairs int64) int64 { return ((o+1)*n - 1) / pairs }

// flipRank returns men configuration r of table t, turned and
// recoloured. The result is a configuration of the group's other table.
func (g *group) flipRank(t int, r int64) int64 {
	wm, bm := g.tables[t].UnrankMen(r)
	flip := rules.FlipPlacement(index.Placement{WhiteMen: wm, BlackMen: bm})
	return g.tables[g.other(t)].RankMen(flip.WhiteMen, flip.BlackMen)
}

// locate returns the unit and the block in it of men configuration r of
// table t. The unit is numbered as in l.units.
func (l *layout) locate(t int, r int64) (n, j int) {
	if t == 1 || l.lvl[r] == second {
		return l.pairAt(l.g.flipRank(t, r), 1)
	}
	return l.pairAt(r, 0)
}

// pairAt returns the unit and a block of the pair of configuration r of
// the first table. Side 0 picks the first table's block, side 1 its
// pair.
func (l *layout) pairAt(r int64, side int) (n, j int) {
	lv, o := l.lvl[r], int64(l.ord[r])
	cut, c := l.cut[lv], l.pairs[lv]
	i := unitOf(o, cut, c)
	return l.first[lv] + int(i), int(2*(o-unitStart(i, cut, c))) + side
}

// load lists the blocks of unit u. Its pairs are the configurations of
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

// advancement[c][s-1] is how many rows a man of colour c on square s has
// advanced from its own back row.
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

// placement returns the table and index of the position of local id. In
// a group of kings alone that is the representative of its orbit.
func (u *unit) placement(id int64) (t int, i int64) {
	j := id / u.k
	b := u.blocks[j]
	if o := u.orbits(j); o != nil {
		return b.t, o.Representative(id % u.k)
	}
	return b.t, b.r*u.k + id%u.k
}

// A visitor is called for positions of a unit in the order of their ids.
// It has a move buffer of its own.
type visitor func(id int64, p draughts.Position, buf []draughts.Move) error

// walk calls a visitor for every position of the unit, on up to threads
// goroutines. Each range of ids gets a visitor of its own from
// newVisitor.
func (u *unit) walk(ctx context.Context, threads int, newVisitor func() visitor) error {
	return parallel.Range(ctx, u.size(), threads, func(lo, hi int64) error {
		var buf [draughts.MaxMoves]draughts.Move
		f := newVisitor()
		start := lo
		for lo < hi {
			t, i := u.placement(lo)
			x, o := u.g.tables[t], u.orbits(lo/u.k)
			pl := x.Unrank(i)
			for end := min(hi, (lo/u.k+1)*u.k); ; {
				if err := f(lo, rules.Position(pl), buf[:0]); err != nil {
					return err
				}
				if lo++; lo == end {
					break
				}
				pl, _ = x.Next(pl)
				for i++; o != nil && !o.IsRepresentative(i); i++ {
					pl, _ = x.Next(pl)
				}
			}
		}
		u.work.Add(hi - start)
		return nil
	})
}

// localIDs returns a walk through the positions of u from pos on, giving
// their local ids. It walks in the order of the work file: block by
// block, each in index order.
func (u *unit) localIDs(pos int64) *localIDs {
	return &localIDs{u: u, pos: pos}
}

// A localIDs walks through positions of a unit, from pos on (see
// unit.localIDs).
type localIDs struct {
	u   *unit
	pos int64
	x   *index.Index
	o   *index.Orbits
	p   index.Placement // of pos-1, in a group of kings alone
}

// next returns the local id of the next position.
func (l *localIDs) next() int64 {
	pos, u := l.pos, l.u
	l.pos++
	j, i := pos/u.kings, pos%u.kings
	o := u.orbits(j)
	if o == nil {
		return pos
	}
	if l.x == nil || i == 0 {
		l.x, l.o = u.g.tables[u.blocks[j].t], o
		l.p = l.x.UnrankKings(i, 0, 0)
	} else {
		l.p, _ = l.x.Next(l.p)
	}
	n, _ := l.o.Rank(l.p)
	return j*u.k + n
}

// maxUnmoves bounds the predecessors of a position in the usual case. Six
// kings have at most 6*17. The buffer grows past it if needed (see
// predecessors).
const maxUnmoves = 128

// squareBit converts one bitboard bit to its square-set bit.
func squareBit(b uint64) uint64 { return 1 << (draughts.Square(b) - 1) }

// A pred is a predecessor of a position. It holds the predecessor's local
// id and how many of its quiet moves lead to the position. In a group of
// kings alone they lead to the position's orbit.
type pred struct {
	id    int64
	moves uint8
}

// predecessors appends to buf the positions from which a king's move, if
// quiet, leads to the position id. The positions where White must capture
// are among them; the caller skips those. They are White to move in the
// pair of id's block. The position id is the colour flip of the position
// after White's move (q below).
//
// The argument men holds the men of the block of the caller's last
// position. A run of positions of one block thus unranks them once.
func (u *unit) predecessors(id int64, buf []pred, men *blockMen) []pred {
	j := id / u.k
	b, pair := u.blocks[j], j^1
	x := u.g.tables[b.t]
	if o := u.orbits(j); o != nil {
		return u.orbitPredecessors(id, x.UnrankKings(o.Representative(id%u.k), 0, 0), buf)
	}
	if men.block != j+1 {
		men.block = j + 1
		men.white, men.black = x.UnrankMen(b.r)
	}
	q := rules.FlipPlacement(x.UnrankKings(id%u.k, men.white, men.black)) // White has just moved
	qb := rules.Position(q)
	empty := qb.Empty()
	px, base := u.g.tables[u.blocks[pair].t], pair*u.k
	for kings := qb.White & qb.Kings; kings != 0; kings &= kings - 1 {
		to := kings & -kings
		km := px.MoveWhiteKing(q, squareBit(to))
		for _, d := range draughts.Directions {
			for from := draughts.Step(to, d) & empty; from != 0; from = draughts.Step(from, d) & empty {
				buf = append(buf, pred{base + km.RankTo(squareBit(from)), 1})
			}
		}
	}
	return buf
}

// orbitPredecessors is predecessors in a group of kings alone. It
// appends the orbits from which a quiet king move leads to orbit id. The
// representative of orbit id is placed at p.
//
// Let Q be the position decided, in orbit Qo. A position P of orbit Po
// may have m moves into Qo. P then counts m moves fewer not known to
// lose. The moves from the positions of Po into Qo are |Po| * m =
// |Qo| * n. There n is the number of positions of Po that move to Q. Each
// is found once here, so each counts |Qo|/|Po| moves. An orbit has 4
// positions over the symmetries that fix them. So |Qo|/|Po| is the
// symmetries that fix P over those that fix Q. Where only the identity
// fixes Q, that is a whole number: P's fixers. Otherwise the positions
// of one orbit are summed first.
func (u *unit) orbitPredecessors(id int64, p index.Placement, buf []pred) []pred {
	j := id / u.k
	pair := j ^ 1
	po, base := u.orbits(pair), pair*u.k
	_, fixQ := index.Canonical(p)
	q := rules.FlipPlacement(p) // White has just moved
	qb := rules.Position(q)
	empty := qb.Empty()
	start := len(buf)
	for kings := qb.White & qb.Kings; kings != 0; kings &= kings - 1 {
		to := kings & -kings
		om := po.MoveWhiteKing(q, squareBit(to))
		for _, d := range draughts.Directions {
			for from := draughts.Step(to, d) & empty; from != 0; from = draughts.Step(from, d) & empty {
				n, fixP := om.RankTo(squareBit(from))
				buf = append(buf, pred{base + n, uint8(fixP)})
			}
		}
	}
	if fixQ == 1 {
		return buf
	}
	found := buf[start:]
	slices.SortFunc(found, func(a, b pred) int { return cmp.Compare(a.id, b.id) })
	out := start
	for i, p := range found {
		if i > 0 && p.id == buf[out-1].id {
			buf[out-1].moves += p.moves
			continue
		}
		buf[out] = p
		out++
	}
	buf = buf[:out]
	for i := range buf[start:] {
		buf[start+i].moves /= uint8(fixQ)
	}
	return buf
}

// blockMen holds the men of one block of a unit. Its field block is the
// block's number plus one, 0 before any.
type blockMen struct {
	block        int64
	white, black uint64
}
