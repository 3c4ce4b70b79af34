// Package probe looks positions up in a directory of endgame tables.
//
//	t, err := probe.Open("tables", probe.Options{})
//	if err != nil {
//		return err
//	}
//	defer t.Close()
//	pos, _ := draughts.ParseFEN("W:WK10:BK5")
//	r, err := t.Probe(pos) // r.Value == table.Win, r.Distance == 3
//
// Open reads the directory's manifest; each table file is opened on its
// first use. A Tables is safe for concurrent use by many goroutines: files
// are opened once, and decoded blocks are kept in a bounded cache split
// into shards with a lock each, so probes of different blocks rarely wait
// for each other.
//
// Probe returns exactly what the generator (package retro) computed,
// including for positions whose side to move must capture: those hold no
// real value on disk (table.RulesCapturesDontCare) and are resolved by a
// search over the captures, each capture's result probed in turn.
package probe

import (
	"encoding/binary"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/dtb-draughts/dtb/codec"
	"github.com/dtb-draughts/dtb/draughts"
	"github.com/dtb-draughts/dtb/index"
	"github.com/dtb-draughts/dtb/table"
)

// Options configure Open.
type Options struct {
	// CacheBytes bounds the decoded blocks kept in memory; 0 (or less)
	// means 64 MiB.
	CacheBytes int64
}

// ErrMissing is wrapped by the error of a probe whose material has no
// table in the directory.
var ErrMissing = errors.New("probe: no table")

// Result is what the tables say about a position, from the side to move's
// point of view.
type Result struct {
	Value  table.Value // under the rules (RULES.md)
	Theory table.Value // theoretical: only repetition draws
	// Distance is the class distance of a class A or B position: the least
	// budget in plies under which it is won (or lost); -1 for a position
	// drawn under every budget or not of class A or B.
	Distance int
	// DTW is the theoretical number of plies to the end of the game; -1
	// for a draw or when the tables lack the dtw column.
	DTW int
}

// maxPieces is the most pieces a material may have: the index of some
// materials with more does not fit in an int64.
const maxPieces = 14

// The columns probe reads, in file-independent order.
const (
	colValue = iota
	colDistance
	colDTW
	numColumns
)

var columns = [numColumns]codec.Column{
	{Name: table.ColumnValue, Width: 1},
	{Name: table.ColumnDistance, Width: 1},
	{Name: table.ColumnDTW, Width: 2},
}

// Tables is a directory of tables opened for probing.
type Tables struct {
	files map[uint32]*file // by materialKey
	mats  []index.Material // index.Materials order
	cache cache
}

// file is one table file, opened on first use.
type file struct {
	id    int // key of its blocks in the cache
	path  string
	m     index.Material
	class table.Class

	once      sync.Once
	err       error // of opening
	r         *codec.Reader
	x         *index.Index
	col       [numColumns]int // the file's column of each of columns; -1 if absent
	blockSize int64
	dontCare  bool                  // capture positions hold no real value
	mem       atomic.Pointer[block] // the whole table after Preload, capture positions resolved
}

var errClosed = errors.New("probe: tables closed")

// Open reads dir's manifest and returns the tables it lists. It opens no
// table file.
func Open(dir string, o Options) (*Tables, error) {
	entries, err := codec.ReadManifest(dir)
	if err != nil {
		return nil, err
	}
	if o.CacheBytes <= 0 {
		o.CacheBytes = 64 << 20
	}
	t := &Tables{files: make(map[uint32]*file, len(entries))}
	most := 0
	for i, e := range entries {
		m, err := index.ParseMaterial(e.Material)
		if err == nil && (t.files[materialKey(m)] != nil || m.Pieces() > maxPieces) {
			err = fmt.Errorf("duplicate or more than %d pieces", maxPieces)
		}
		if err != nil {
			return nil, fmt.Errorf("probe: %s: entry %q: %v: %w", filepath.Join(dir, codec.ManifestName), e.File, err, codec.ErrCorrupt)
		}
		t.files[materialKey(m)] = &file{id: i, path: filepath.Join(dir, e.File), m: m, class: table.ClassOf(m)}
		most = max(most, m.Pieces())
	}
	for _, m := range index.Materials(most) {
		if t.files[materialKey(m)] != nil {
			t.mats = append(t.mats, m)
		}
	}
	t.cache.init(o.CacheBytes)
	return t, nil
}

// Close closes the table files. The Tables must not be used afterwards.
func (t *Tables) Close() error {
	var errs []error
	for _, f := range t.files {
		f.once.Do(func() { f.err = errClosed })
		if f.r != nil {
			errs = append(errs, f.r.Close())
		}
	}
	return errors.Join(errs...)
}

// Materials returns the materials that have a table, in the order of
// index.Materials.
func (t *Tables) Materials() []index.Material { return slices.Clone(t.mats) }

// Header returns the file header of the table of m.
func (t *Tables) Header(m index.Material) (codec.Header, error) {
	f, err := t.file(m)
	if err != nil {
		return codec.Header{}, err
	}
	return f.r.Header(), nil
}

// materialKey returns a map key for m, unique among materials whose
// counts are below 256 (and quicker to hash than m).
func materialKey(m index.Material) uint32 {
	return uint32(m.WhiteMen)<<24 | uint32(m.WhiteKings)<<16 | uint32(m.BlackMen)<<8 | uint32(m.BlackKings)
}

// file returns the opened table of m.
func (t *Tables) file(m index.Material) (*file, error) {
	f := t.files[materialKey(m)]
	if f == nil || f.m != m {
		return nil, fmt.Errorf("%w for %s", ErrMissing, m)
	}
	f.once.Do(func() { f.err = f.open() })
	return f, f.err
}

// open opens the file and checks that its header fits its material.
func (f *file) open() (err error) {
	r, err := codec.Open(f.path)
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			r.Close()
		}
	}()
	bad := func(kind error, format string, args ...any) error {
		return fmt.Errorf("probe: %s: %s: %w", f.path, fmt.Sprintf(format, args...), kind)
	}
	h := r.Header()
	f.x = index.New(f.m)
	switch {
	case h.Material != f.m.String():
		return bad(codec.ErrCorrupt, "material %s, want %s", h.Material, f.m)
	case h.IndexVersion != table.IndexVersion:
		return bad(codec.ErrVersion, "index version %d, want %d", h.IndexVersion, table.IndexVersion)
	case h.Positions != f.x.Size():
		return bad(codec.ErrCorrupt, "%d positions, want %d", h.Positions, f.x.Size())
	}
	for c, want := range columns {
		f.col[c] = slices.IndexFunc(h.Columns, func(col codec.Column) bool { return col.Name == want.Name })
		if f.col[c] >= 0 && h.Columns[f.col[c]] != want {
			return bad(codec.ErrCorrupt, "column %q is %d bytes wide, want %d", want.Name, h.Columns[f.col[c]].Width, want.Width)
		}
	}
	if f.col[colValue] < 0 {
		return bad(codec.ErrCorrupt, "no %q column", table.ColumnValue)
	}
	f.blockSize = int64(h.BlockSize)
	f.dontCare = h.Rules&table.RulesCapturesDontCare != 0
	f.r = r
	return nil
}

// Probe returns the values of p. A position whose side to move has no
// pieces is lost at distance 0 without a table. Probe returns an error
// wrapping ErrMissing if a table it needs is not in the directory, one
// wrapping codec.ErrCorrupt (naming the file and block) if a table is
// damaged, and an error for a position that is not legal or whose side to
// move has pieces but the other side none.
func (t *Tables) Probe(p draughts.Position) (Result, error) {
	if err := check(&p); err != nil {
		return Result{}, err
	}
	if p.Pieces(p.Side) == 0 {
		return Result{Value: table.Loss, Theory: table.Loss}, nil
	}
	f, err := t.file(table.MaterialOf(&p))
	if err != nil {
		return Result{}, err
	}
	if f.dontCare && f.mem.Load() == nil && p.HasCapture() {
		return t.captures(&p, f)
	}
	return t.stored(f, f.x.Rank(table.Placement(&p)))
}

// check reports a position that no table holds: pieces off the board or on
// one square, a man on its crowning row, or a side to move whose
// opponent has no pieces.
func check(p *draughts.Position) error {
	switch {
	case p.White&p.Black != 0 || (p.White|p.Black)&^draughts.Board != 0 ||
		p.Kings&^(p.White|p.Black) != 0 || p.Side > draughts.Black ||
		p.White&^p.Kings&draughts.WhiteCrown != 0 || p.Black&^p.Kings&draughts.BlackCrown != 0:
		return fmt.Errorf("probe: not a legal position: %s", p.FEN())
	case p.Pieces(p.Side) != 0 && p.Pieces(p.Side.Opponent()) == 0:
		return fmt.Errorf("probe: %s: %v has no pieces: the game is over", p.FEN(), p.Side.Opponent())
	}
	return nil
}

// stored returns the values stored for entry i of f.
func (t *Tables) stored(f *file, i int64) (Result, error) {
	b, j := f.mem.Load(), int(i)
	if b == nil {
		var err error
		if b, err = t.cache.get(f, i/f.blockSize); err != nil {
			return Result{}, err
		}
		j = int(i % f.blockSize)
	}
	theory, rules, ok := table.UnpackValues(b.cols[colValue][j])
	if !ok {
		return Result{}, fmt.Errorf("probe: %s: entry %d: bad value byte %#x: %w", f.path, i, b.cols[colValue][j], codec.ErrCorrupt)
	}
	r := Result{Value: rules, Theory: theory, Distance: -1, DTW: -1}
	if d := b.cols[colDistance]; d != nil && d[j] != table.NoDistance {
		r.Distance = int(d[j])
	}
	if d := b.cols[colDTW]; d != nil {
		if n := binary.LittleEndian.Uint16(d[2*j:]); n != table.NoDTW {
			r.DTW = int(n)
		}
	}
	return r, nil
}

// captures resolves a capture position of f's material as the generator
// does: from its successors, each probed in turn, the winner choosing the
// shortest win and the loser the longest loss; under the rules each
// successor's outcome is seen through the clock that carries over the
// capture (table.RulesOutcome).
func (t *Tables) captures(p *draughts.Position, f *file) (Result, error) {
	var theory, rules table.Minimax
	dtw := f.col[colDTW] >= 0
	var buf [draughts.MaxMoves]draughts.Move
	for _, m := range p.Moves(buf[:0]) {
		q := p.Play(m)
		s, err := t.Probe(q)
		if err != nil {
			return Result{}, err
		}
		theory.Add(table.Outcome{Value: s.Theory, Dist: max(s.DTW, 0)})
		dtw = dtw && (s.Theory == table.Draw || s.DTW >= 0)
		rules.Add(rulesOutcome(f.class, &q, s))
	}
	th, ru := theory.Outcome(), rules.Outcome()
	r := Result{Value: ru.Value, Theory: th.Value, Distance: -1, DTW: -1}
	if dtw && th.Value != table.Draw {
		r.DTW = th.Dist
	}
	if f.class != table.NoClass && ru.Value != table.Draw {
		r.Distance = ru.Dist
		if ru.Dist > f.class.Budget() {
			r.Value = table.Draw
		}
	}
	return r, nil
}

// rulesOutcome returns the outcome under the rules, seen from a position of
// class from, of its successor q whose probe result is s: lost at 0 if q's
// side to move has no pieces, else table.RulesOutcome.
func rulesOutcome(from table.Class, q *draughts.Position, s Result) table.Outcome {
	if q.Pieces(q.Side) == 0 {
		return table.Outcome{Value: table.Loss}
	}
	dist := table.NoDistance
	if s.Distance >= 0 {
		dist = s.Distance
	}
	return table.RulesOutcome(from, table.ClassOf(table.MaterialOf(q)), s.Theory, s.Value, dist)
}
