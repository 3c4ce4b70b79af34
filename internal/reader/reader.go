// Package reader reads the entries of table files: the core below the
// engines' prober (package probe), the generator (package retro) and the
// verifier (package verify).
//
//	t, err := reader.Open("tables", reader.Options{})
//	if err != nil {
//		return err
//	}
//	defer t.Close()
//	r, err := t.Probe(pos, reader.Clocks{}, reader.WithDistances)
//	// r.Entry is pos's entry, exactly as the generator computed it
//
// Open reads the manifests of directories, OpenFS the one of an fs.FS. A
// table listed there is opened on first use and checked against its
// manifest entry; a work file of the generator (table.Work) is refused
// there. New and Add serve the generator: Add adds a table by its path,
// the generator's resolved copies (work files) included. A Tables is
// safe for concurrent use. Package probe documents what a probe answers:
// its flags, its clocks and its result are probe's, field for field.
//
// # Outline
//
//	tables.go   Open, OpenFS, New, Add: the registry of tables; a file opened on first use
//	reader.go   Probe, Result, Flags, Clocks, Check: the lookup
//	search.go   probeCut: a stored entry (stored), or the search of a capture
//	            position (captures), of a table answered through its colour
//	            flip (searched), of a short rule-2 distance (exactDistance)
//	cache.go    stored: an entry read through the block cache
//	runs.go     distRuns: a block's distance columns as the cache keeps them
//	preload.go  Preload: a table decoded whole, its capture positions resolved
package reader

import (
	"errors"
	"fmt"

	"github.com/dtb-draughts/dtb/draughts"
	"github.com/dtb-draughts/dtb/rules"
)

// ErrIllegal, ErrNotCached and ErrNotStored are probe's (probe.ErrIllegal,
// probe.ErrNotCached, probe.ErrNotStored).
var (
	ErrIllegal   = errors.New("not a legal position")
	ErrNotCached = errors.New("not in the cache")
	ErrNotStored = errors.New("not stored")
)

// Flags modify a probe, as probe.Flags.
type Flags uint8

// The flags, as probe's.
const (
	CacheOnly     Flags = 1 // probe.CacheOnly
	ValuesOnly    Flags = 2 // probe.ValuesOnly
	StoredOnly    Flags = 4 // probe.StoredOnly
	WithDistances Flags = 8 // probe.WithDistances
)

// Result is what the tables say of a position under the running clocks,
// as probe.Result, field for field.
type Result struct {
	Entry       rules.Entry
	Value       rules.Value
	Class       rules.Class
	ValuesAlone bool
}

// Probe returns the entry of p, its value under the rules with the clocks
// c, and the clock its distance counts, as probe.Tables.Probe.
func (t *Tables) Probe(p draughts.Position, c Clocks, f Flags) (Result, error) {
	var r Result
	if err := t.probeCut(&r, p, c, f, exact); err != nil {
		return unknown, err
	}
	return r, nil
}

// unknown is the Result of a failed probe: no value, no category, no
// distances.
var unknown = Result{
	Entry: rules.Entry{Rules: rules.Unknown, Theory: rules.Unknown, Distance: -1, DTW: -1, MTC: -1},
	Value: rules.Unknown,
}

// Check returns the error of a probe of p if no table holds it, nil
// otherwise, as probe.Check.
func Check(p draughts.Position) error {
	switch {
	case p.White&p.Black != 0 || (p.White|p.Black)&^draughts.Board != 0 ||
		p.Kings&^(p.White|p.Black) != 0 || p.Side > draughts.Black ||
		p.White&^p.Kings&draughts.WhiteCrown != 0 || p.Black&^p.Kings&draughts.BlackCrown != 0:
		return &illegalError{p.FEN() + ": not a legal position"}
	case p.White|p.Black == 0:
		return &illegalError{p.FEN() + ": no pieces on the board"}
	case p.Pieces(p.Side) != 0 && p.Pieces(p.Side.Opponent()) == 0:
		return &illegalError{fmt.Sprintf("%s: %v has no pieces: the game is over", p.FEN(), p.Side.Opponent())}
	}
	return nil
}

// illegalError is the error of Check. It holds its message in words, and
// wraps ErrIllegal.
type illegalError struct{ msg string }

func (e *illegalError) Error() string { return e.msg }
func (e *illegalError) Unwrap() error { return ErrIllegal }

// Clocks are the rule clocks of a game as they stand at a position, as
// probe.Clocks: the plies played on the class clock and on the rule-2
// count.
type Clocks struct {
	Class int
	Rule2 int
}

// Left returns the plies left on the clock of a position of class class
// under c. That is the class's budget less the plies played: Class for
// class A and B, Rule2 for Rule2. It is the full budget for none played.
// It is 0 for a clock run out, and for NoClass, which has no clock.
func (c Clocks) Left(class rules.Class) int {
	played := c.Rule2
	if class.Carries() {
		played = c.Class
	}
	return class.Budget() - min(max(played, 0), class.Budget())
}

// fresh reports whether c are as the zero Clocks. Those are a full class
// clock and a fresh rule-2 count.
func (c Clocks) fresh() bool { return c.Class <= 0 && c.Rule2 <= 0 }

// marked reports whether the value file of f answers c alone. It does
// where f marks the positions that a rule-2 count one ply on draws
// (table.FreshOnly). The rule-2 count of c must then be 1.
func (c Clocks) marked(f *file) bool {
	return f.marked() && f.r.Class == rules.Rule2 && c.Rule2 == 1
}

// Value returns the value under the rules with the clocks c of a position
// whose probe is e, as probe.Clocks.Value.
func (c Clocks) Value(class rules.Class, e rules.Entry) rules.Value {
	return e.RulesWith(class, c.Left(class))
}
