// Package probe looks positions up in a directory of endgame tables, or in
// a list of them ("tables:more", as SyzygyPath).
//
//	t, err := probe.Open("tables", probe.Options{})
//	if err != nil {
//		return err
//	}
//	defer t.Close()
//	pos, _ := draughts.ParseFEN("W:WK10:BK5")
//	r, err := t.Probe(pos, probe.Clocks{}, 0)
//	// r.Value == rules.Win, r.Category() == probe.Win, r.Entry.Distance == 3
//
// A failed probe's Result reads rules.Unknown and Unknown, never a value
// (Result).
//
// OpenFS reads the tables of an fs.FS instead: embedded in the program,
// served from an archive, or on a system without memory mapping (WASM).
//
//	//go:embed tables
//	var files embed.FS
//	sub, _ := fs.Sub(files, "tables")
//	t, err := probe.OpenFS(sub, probe.Options{})
//
// Open reads the directories' manifests, OpenFS the one at the root of
// its fs.FS. Each table is opened on its first use. Its value file opens
// first, and its distance file when a probe first needs a distance. A
// Tables is safe for concurrent use by many goroutines. Its files are
// opened once. Its blocks are kept in a bounded cache, and a probe of a
// cached block takes no lock (see cache.go). The cache keeps 1-byte
// columns as run-length tokens of package runs, read in place. It
// decodes the blocks probed most, a byte a position.
//
// Probe is the one lookup. Its Result holds the entry exactly as the
// generator (package retro) computed it. That includes positions whose
// side to move must capture. The files hold no real value for them
// (table.CaptureGap). A search over the captures resolves them, each
// capture's result probed in turn. With the entry come the rules value under the
// game's running clocks (Clocks), and the clock the entry's distance
// counts.
//
// Two flags serve a search. ValuesOnly reads the value files alone while
// the clocks are fresh. The cache then holds value blocks only, and an
// engine's directory may lack the distance files. CacheOnly keeps a probe
// off the disk. Such a probe fails with ErrNotCached where it would read
// a block. At the root, RootMoves values every legal move, best first:
//
//	moves, err := t.RootMoves(pos, probe.Clocks{})
//	// moves[0].Move is the best move, moves[0].Value its value
//
// # What an engine passes
//
// The rules value of an entry assumes the clocks as they stand when the
// material arose. An engine passes the clocks of its game as Clocks. It
// keeps them from its game history, both as plies already played:
//
//   - Rule2: the count of the 25-move king rule (rule 2). It counts the
//     plies played since the last man move or capture, 0 right after one.
//     It matters where both sides have a king and the position is of
//     neither class A nor B (rules.Rule2).
//   - Class: the class clock of a class A or B position (16-move and
//     5-move rules). It counts the plies played since the ply that
//     produced the class material, 0 on that ply. After a capture from
//     class A into class B, with a plies played in class A, it is
//     max(a+1-22, 0).
//
// The two never run at once. A class material arises only by a capture or
// a man move, which restarts the rule-2 count. In class A or B only the
// class clock counts. Each is ignored where it does not apply. The zero
// Clocks are both as they stand on the ply that produced the position's
// material. RootMoves shows how they advance in a search. A move inside
// class A or B adds a ply to the class clock. A quiet king move adds a
// ply to the rule-2 count. A capture or man move restarts the count.
// Tables built before rule 2 was tracked (Info's Variant table.NoRule2)
// ignore the rule-2 count: their rule-2 materials have no class
// (Result.Class NoClass), and their rules values assume the count never
// runs out.
//
// # Outline
//
// The files are read by package internal/reader, the core below the
// prober, the generator and the verifier. This package gives the engine's
// API on top of it.
//
//	tables.go   Open, OpenFS: the registry of tables, and what it says of each
//	probe.go    Probe, Result, Flags, Check: the lookup
//	category.go Category: a value under the rules beside the theoretical one
//	clocks.go   Clocks, RootMoves: the game's running clocks
package probe

import (
	"github.com/dtb-draughts/dtb/draughts"
	"github.com/dtb-draughts/dtb/internal/reader"
	"github.com/dtb-draughts/dtb/rules"
)

// ErrIllegal is wrapped by the error of a probe of a position that no
// table holds. Such a position is not legal, or its game is over.
var ErrIllegal = reader.ErrIllegal

// ErrNotCached is the error of a probe with CacheOnly that would read a
// table file.
var ErrNotCached = reader.ErrNotCached

// ErrNotStored is the error of a probe with StoredOnly of a position that
// the files do not store. StoredOnly says which positions they are.
var ErrNotStored = reader.ErrNotStored

// Flags modify a probe.
type Flags uint8

// CacheOnly makes a probe never touch the disk. It fails with
// ErrNotCached where it would open a table file or read a block not in
// the cache. A search can probe with it at every node. The probes near
// the root then do the reads.
const CacheOnly = Flags(reader.CacheOnly)

// ValuesOnly makes a probe with fresh clocks read the value files alone.
// It also reads the distance column of class A and B, whose rules values
// need it. Its Entry's DTW and MTC are then -1. So is its Distance
// outside class A and B, unless the search of a capture position finds
// them. With running clocks it reads the distance column. It never reads
// dtw or mtc. A search probes with it. Its directory may then hold value
// files alone. Its cache holds value blocks and the few distance columns
// of class A and B. A table whose directory holds its values alone
// (table.File.ValuesAlone) is always probed so. A probe of it with
// running clocks fails, saying so, and so does RootMoves.
const ValuesOnly = Flags(reader.ValuesOnly)

// StoredOnly makes a probe answer only positions whose entry a file
// stores. It serves an engine that searches the others itself. The others
// fail with ErrNotStored instead of being searched. Positions that must
// capture are among them: they are don't-cares on disk. A slim
// directory's table leaves out the forced threats (rules.ForcedThreat). A
// table answered by a search stores no positions (package slim). A slim
// distance file may leave out short rule-2 distances
// (table.SlimFlags.ShortDistances). A win or loss of such a table fails
// too where the probe needs its distance. A table preloaded into memory
// (Preload) answers all its positions.
const StoredOnly = Flags(reader.StoredOnly)

// WithDistances makes a probe read the distances of a table whose
// directory holds its values alone (table.File.ValuesAlone). Such a probe
// fails with an error wrapping fs.ErrNotExist that says they are not
// there. Without the flag, the probe reads that table as with ValuesOnly.
// RootMoves, which orders moves by their distances, probes with it. So
// does a verifier.
const WithDistances = Flags(reader.WithDistances)

// Result is what the tables say of a position under the running clocks.
// A failed probe returns unknown: its values are rules.Unknown, its
// Category Unknown, its distances -1. The zero Result is no probe's
// answer: it reads as a draw.
type Result struct {
	// Entry is the position's entry, exactly as the generator computed
	// it. Its Rules is the value with the clocks as they stand when the
	// material arose.
	Entry rules.Entry
	// Value is the value under the rules with the clocks passed.
	Value rules.Value
	// Class is the class of the position's table under its file's rules
	// (Tables.Class). It is the clock Entry.Distance counts: the class
	// clock of class A or B, or the rule-2 count of Rule2. NoClass means
	// none.
	Class rules.Class
	// ValuesAlone reports that the position's table was read as with
	// ValuesOnly, because its directory holds its values alone. Entry
	// then has no distances, though the table has them.
	ValuesAlone bool
}

// Probe returns the entry of p, its value under the rules with the clocks
// c, and the clock its distance counts. The clocks change Value alone. A
// position whose side to move has no pieces, and the other side some, is
// lost at distance 0 without a table. Probe returns a *MissingError if a
// table it needs is not in the directory, or p has more pieces than the
// limit (Options.MaxPieces): an engine treats both alike. It returns a *codec.FileError,
// naming the file and block, if a table is damaged. For a position that
// no table holds, it returns Check's error. If f has CacheOnly, it
// returns ErrNotCached where a table would have to be read.
func (t *Tables) Probe(p draughts.Position, c Clocks, f Flags) (Result, error) {
	r, err := t.r.Probe(p, reader.Clocks(c), reader.Flags(f))
	return Result(r), err
}

// Category returns the category of r (CategoryOf): under the rules with
// the clocks passed, beside the theoretical value.
func (r Result) Category() Category { return CategoryOf(r.Value, r.Entry.Theory) }

// Check returns the error of a probe of p if no table holds it, nil
// otherwise. The error wraps ErrIllegal, names p and says why. There may
// be pieces off the board or on one square, or a man on its crowning row.
// There may be no pieces at all, or the opponent of the side to move may
// have none. (A side to move without pieces has lost: Probe answers it
// without a table.)
func Check(p draughts.Position) error { return reader.Check(p) }
