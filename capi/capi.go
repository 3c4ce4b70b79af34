// Command capi is the C library of dtb: install it with
//
//	make -C capi install PREFIX=/usr/local   # libdtb.so.N, libdtb.a, dtb.h, dtb.pc
//
// (Makefile) and include dtb.h, the hand-written header of this
// directory, which documents every call; examples/c holds a program to
// copy, and python/dtb a Python package over the library. The library
// wraps package probe: handles are numbers naming open probe.Tables (no
// Go pointer reaches C), errors are statuses with a message per handle
// (dtb_last_error), and every call is safe from many threads at once.
//
// The functions of dtb.h are in dtb.c; each calls the dtbgo_ function of
// the same name here.
package main

/*
#include "dtb.h"
*/
import "C"

import (
	"errors"
	"fmt"
	"sync/atomic"
	"unsafe"

	"github.com/dtb-draughts/dtb/codec"
	"github.com/dtb-draughts/dtb/draughts"
	"github.com/dtb-draughts/dtb/internal/version"
	"github.com/dtb-draughts/dtb/probe"
	"github.com/dtb-draughts/dtb/rules"
)

func main() {}

// The ABI version of dtb.h is version.ABI: one of the differences
// overflows a uint otherwise, and the library does not compile.
const _ = uint(C.DTB_ABI_VERSION-version.ABI) + uint(version.ABI-C.DTB_ABI_VERSION)

// versionString is version.Version for dtb_version, never freed.
var versionString = C.CString(version.Version)

// maxHandles is the most directories open at once.
const maxHandles = 256

// A handle names an open directory: in its low slotBits bits its slot in
// handles, 1 to maxHandles, and above them the count of the dtb_open that
// returned it, so that a handle closed (its slot since reused by another
// dtb_open) or never returned names no open directory.
type handle = C.uintptr_t

// slotBits is the bits of a handle that hold its slot.
const slotBits = 9 // 1<<slotBits > maxHandles

// handles holds the open directories by slot; opens counts the dtb_open.
var (
	handles [maxHandles]atomic.Pointer[state]
	opens   atomic.Uint64
)

// state is an open directory.
type state struct {
	handle handle
	tables *probe.Tables
	last   atomic.Pointer[string] // the message of the latest failure
}

// errBadArgument is wrapped by the errors of calls with bad arguments.
var errBadArgument = errors.New("bad argument")

// get returns the state of handle h, nil if it is not open.
func get(h handle) *state {
	slot := int(h & (1<<slotBits - 1))
	if slot < 1 || slot > maxHandles {
		return nil
	}
	if s := handles[slot-1].Load(); s != nil && s.handle == h {
		return s
	}
	return nil
}

// status returns the status of dtb.h that err is.
func status(err error) C.int {
	switch {
	case err == nil:
		return C.DTB_OK
	case errors.Is(err, probe.ErrNotCached):
		return C.DTB_NOT_CACHED
	case errors.Is(err, probe.ErrNotStored):
		return C.DTB_NOT_STORED
	case errors.Is(err, probe.ErrMissing):
		return C.DTB_NO_TABLE
	case errors.Is(err, codec.ErrCorrupt):
		return C.DTB_DAMAGED
	case errors.Is(err, probe.ErrIllegal):
		return C.DTB_ILLEGAL
	case errors.Is(err, errBadArgument):
		return C.DTB_BAD_ARGUMENT
	}
	return C.DTB_IO_ERROR
}

// fail records err as the latest failure of s (a nil s has none) unless
// it is ErrNotCached or ErrNotStored, which a search meets at every
// node, and returns its status.
func (s *state) fail(err error) C.int {
	st := status(err)
	if s != nil && st != C.DTB_NOT_CACHED && st != C.DTB_NOT_STORED {
		msg := err.Error()
		s.last.Store(&msg)
	}
	return st
}

// putString copies str into the C buffer dst of size bytes, truncated and
// NUL-terminated; a NULL or empty buffer gets nothing.
func putString(dst *C.char, size C.size_t, str string) {
	if dst == nil || size == 0 {
		return
	}
	b := unsafe.Slice((*byte)(unsafe.Pointer(dst)), size)
	b[copy(b[:size-1], str)] = 0
}

//export dtbgo_open
func dtbgo_open(abi C.int, dir *C.char, cacheMB C.int, msg *C.char, msgSize C.size_t) handle {
	if abi != C.DTB_ABI_VERSION {
		putString(msg, msgSize, fmt.Sprintf("dtb_open: the program was compiled against dtb.h of ABI version %d, the library is version %d: rebuild the program", abi, C.DTB_ABI_VERSION))
		return 0
	}
	if dir == nil {
		putString(msg, msgSize, "dtb_open: NULL directory")
		return 0
	}
	t, err := probe.Open(C.GoString(dir), probe.Options{CacheBytes: int64(cacheMB) << 20})
	if err != nil {
		putString(msg, msgSize, err.Error())
		return 0
	}
	s := &state{tables: t}
	n := opens.Add(1)
	for i := range handles {
		s.handle = handle(n<<slotBits | uint64(i+1))
		if handles[i].CompareAndSwap(nil, s) {
			return s.handle
		}
	}
	t.Close()
	putString(msg, msgSize, fmt.Sprintf("dtb_open: more than %d directories open", maxHandles))
	return 0
}

//export dtbgo_version
func dtbgo_version() *C.char { return versionString }

//export dtbgo_close
func dtbgo_close(h handle) {
	if s := get(h); s != nil && handles[h&(1<<slotBits-1)-1].CompareAndSwap(s, nil) {
		s.tables.Close()
	}
}

// position returns the position c describes, or an error wrapping
// probe.ErrIllegal.
func position(c *C.dtb_position) (draughts.Position, error) {
	wm, wk, bm, bk := uint64(c.white_men), uint64(c.white_kings), uint64(c.black_men), uint64(c.black_kings)
	switch {
	case (wm|wk|bm|bk)>>50 != 0:
		return draughts.Position{}, fmt.Errorf("dtb: %w: a square set has bits beyond square 50", probe.ErrIllegal)
	case wm&wk != 0 || bm&bk != 0 || (wm|wk)&(bm|bk) != 0:
		return draughts.Position{}, fmt.Errorf("dtb: %w: two pieces on one square", probe.ErrIllegal)
	case c.side != C.DTB_WHITE && c.side != C.DTB_BLACK:
		return draughts.Position{}, fmt.Errorf("dtb: %w: side %d is neither DTB_WHITE nor DTB_BLACK", probe.ErrIllegal, c.side)
	}
	return draughts.Position{
		White: draughts.FromSquareSet(wm | wk),
		Black: draughts.FromSquareSet(bm | bk),
		Kings: draughts.FromSquareSet(wk | bk),
		Side:  draughts.Color(c.side),
	}, nil
}

// clocks returns the clocks c points to, fresh ones for NULL. Both
// count plies played, as in package probe.
func clocks(c *C.dtb_clocks) probe.Clocks {
	if c == nil {
		return probe.Clocks{}
	}
	return probe.Clocks{Class: int(c.class_played), Rule2: int(c.rule2_played)}
}

// The values and categories of dtb.h are those of rules.Value and
// probe.Category: each of the sums overflows a uint otherwise, and the
// library does not compile.
const (
	_ = uint(C.DTB_LOSS-rules.Loss) + uint(rules.Loss-C.DTB_LOSS) + uint(C.DTB_DRAW-rules.Draw) + uint(rules.Draw-C.DTB_DRAW) +
		uint(C.DTB_WIN-rules.Win) + uint(rules.Win-C.DTB_WIN) + uint(C.DTB_UNKNOWN-rules.Unknown) + uint(rules.Unknown-C.DTB_UNKNOWN)
	_ = uint(C.DTB_CATEGORY_LOSS-probe.Loss) + uint(probe.Loss-C.DTB_CATEGORY_LOSS) +
		uint(C.DTB_CATEGORY_BLESSED_LOSS-probe.BlessedLoss) + uint(probe.BlessedLoss-C.DTB_CATEGORY_BLESSED_LOSS) +
		uint(C.DTB_CATEGORY_DRAW-probe.Draw) + uint(probe.Draw-C.DTB_CATEGORY_DRAW) +
		uint(C.DTB_CATEGORY_CURSED_WIN-probe.CursedWin) + uint(probe.CursedWin-C.DTB_CATEGORY_CURSED_WIN) +
		uint(C.DTB_CATEGORY_WIN-probe.Win) + uint(probe.Win-C.DTB_CATEGORY_WIN) +
		uint(C.DTB_UNKNOWN-probe.Unknown) + uint(probe.Unknown-C.DTB_UNKNOWN)
)

// result returns the C result of an entry whose value under the clocks
// is v; of a failed probe, that of rules.Unknown and no distances.
func result(v rules.Value, e rules.Entry) C.dtb_result {
	return C.dtb_result{
		rules:    C.int(v),
		theory:   C.int(e.Theory),
		category: C.int(probe.CategoryOf(v, e.Theory)),
		distance: C.int(e.Distance),
		dtw:      C.int(e.DTW),
		mtc:      C.int(e.MTC),
	}
}

// probeFlags returns the probe.Flags of the C flags, which args checked.
func probeFlags(flags C.int) probe.Flags {
	var f probe.Flags
	if flags&C.DTB_CACHED_ONLY != 0 {
		f |= probe.CacheOnly
	}
	if flags&C.DTB_VALUES_ONLY != 0 {
		f |= probe.ValuesOnly
	}
	if flags&C.DTB_STORED_ONLY != 0 {
		f |= probe.StoredOnly
	}
	return f
}

// args checks the arguments every probe has: an open handle and known
// flags; and pos, unless it is not passed, which it returns as a
// position.
func args(h handle, flags C.int, pos *C.dtb_position, posPassed bool) (*state, draughts.Position, error) {
	s := get(h)
	switch {
	case s == nil:
		return nil, draughts.Position{}, fmt.Errorf("dtb: %w: handle %#x is not open", errBadArgument, uint64(h))
	case flags&^(C.DTB_CACHED_ONLY|C.DTB_VALUES_ONLY|C.DTB_STORED_ONLY) != 0:
		return s, draughts.Position{}, fmt.Errorf("dtb: %w: unknown flags %#x", errBadArgument, flags)
	case !posPassed:
		return s, draughts.Position{}, nil
	case pos == nil:
		return s, draughts.Position{}, fmt.Errorf("dtb: %w: NULL position", errBadArgument)
	}
	p, err := position(pos)
	return s, p, err
}

// unknown is the C result of a failed probe.
var unknown = result(rules.Unknown, rules.Entry{Rules: rules.Unknown, Theory: rules.Unknown, Distance: -1, DTW: -1, MTC: -1})

//export dtbgo_probe
func dtbgo_probe(h handle, pos *C.dtb_position, c *C.dtb_clocks, flags C.int, r *C.dtb_result) C.int {
	if r != nil {
		*r = unknown
	}
	s, p, err := args(h, flags, pos, true)
	if err != nil {
		return s.fail(err)
	}
	return s.probe(p, c, flags, r)
}

//export dtbgo_probe_fen
func dtbgo_probe_fen(h handle, fen *C.char, c *C.dtb_clocks, flags C.int, r *C.dtb_result) C.int {
	if r != nil {
		*r = unknown
	}
	s, _, err := args(h, flags, nil, false)
	if err != nil {
		return s.fail(err)
	}
	p, err := fenPosition(fen)
	if err != nil {
		return s.fail(err)
	}
	return s.probe(p, c, flags, r)
}

// fenPosition returns the position of a FEN, or an error wrapping
// probe.ErrIllegal (errBadArgument for NULL).
func fenPosition(fen *C.char) (draughts.Position, error) {
	if fen == nil {
		return draughts.Position{}, fmt.Errorf("dtb: %w: NULL FEN", errBadArgument)
	}
	p, err := draughts.ParsePosition(C.GoString(fen))
	if err != nil {
		return draughts.Position{}, fmt.Errorf("dtb: %w: %v", probe.ErrIllegal, err)
	}
	return p, nil
}

// probe fills r with the probe of p; a failure leaves it unknown.
func (s *state) probe(p draughts.Position, c *C.dtb_clocks, flags C.int, r *C.dtb_result) C.int {
	if r == nil {
		return s.fail(fmt.Errorf("dtb: %w: NULL result", errBadArgument))
	}
	res, err := s.tables.Probe(p, clocks(c), probeFlags(flags))
	if err != nil {
		return s.fail(err)
	}
	*r = result(res.Value, res.Entry)
	return C.DTB_OK
}

//export dtbgo_probe_value
func dtbgo_probe_value(h handle, pos *C.dtb_position, c *C.dtb_clocks, flags C.int, v *C.int) C.int {
	if v == nil {
		return get(h).fail(fmt.Errorf("dtb: %w: NULL value", errBadArgument))
	}
	*v = C.DTB_UNKNOWN
	s, p, err := args(h, flags, pos, true)
	if err != nil {
		return s.fail(err)
	}
	res, err := s.tables.Probe(p, clocks(c), probeFlags(flags))
	if err != nil {
		return s.fail(err)
	}
	*v = C.int(res.Value)
	return C.DTB_OK
}

//export dtbgo_root_moves
func dtbgo_root_moves(h handle, pos *C.dtb_position, c *C.dtb_clocks, moves *C.dtb_root_move, maxMoves C.int) C.int {
	s, p, err := args(h, 0, pos, true)
	if err != nil {
		return s.fail(err)
	}
	return s.rootMoves(p, c, moves, maxMoves)
}

//export dtbgo_root_moves_fen
func dtbgo_root_moves_fen(h handle, fen *C.char, c *C.dtb_clocks, moves *C.dtb_root_move, maxMoves C.int) C.int {
	s, _, err := args(h, 0, nil, false)
	if err != nil {
		return s.fail(err)
	}
	p, err := fenPosition(fen)
	if err != nil {
		return s.fail(err)
	}
	return s.rootMoves(p, c, moves, maxMoves)
}

// rootMoves writes the root moves of p to moves.
func (s *state) rootMoves(p draughts.Position, c *C.dtb_clocks, moves *C.dtb_root_move, maxMoves C.int) C.int {
	if maxMoves > 0 && moves == nil {
		return s.fail(fmt.Errorf("dtb: %w: NULL moves", errBadArgument))
	}
	rm, err := s.tables.RootMoves(p, clocks(c))
	if err != nil {
		return s.fail(err)
	}
	out := unsafe.Slice(moves, max(maxMoves, 0))
	for i, m := range rm[:min(len(rm), len(out))] {
		o := &out[i]
		o.from, o.to = C.int(m.Move.FromSquare()), C.int(m.Move.ToSquare())
		o.captured = C.uint64_t(draughts.SquareSet(m.Move.Captured))
		o.result = result(m.Value, m.Entry)
		putString(&o.notation[0], C.size_t(len(o.notation)), p.Notation(m.Move))
	}
	return C.int(len(rm))
}

//export dtbgo_max_pieces
func dtbgo_max_pieces(h handle) C.int {
	s, _, err := args(h, 0, nil, false)
	if err != nil {
		return s.fail(err)
	}
	return C.int(s.tables.MaxPieces())
}

//export dtbgo_set_max_pieces
func dtbgo_set_max_pieces(h handle, n C.int) C.int {
	s, _, err := args(h, 0, nil, false)
	if err != nil {
		return s.fail(err)
	}
	s.tables.SetMaxPieces(int(n))
	return C.DTB_OK
}

//export dtbgo_last_error
func dtbgo_last_error(h handle, msg *C.char, size C.size_t) C.size_t {
	s := get(h)
	if s == nil {
		putString(msg, size, "")
		return 0
	}
	last := s.last.Load()
	if last == nil {
		putString(msg, size, "")
		return 0
	}
	putString(msg, size, *last)
	return C.size_t(len(*last))
}
