package main

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/spf13/pflag"

	"github.com/dtb-draughts/dtb/draughts"
	"github.com/dtb-draughts/dtb/internal/explore"
	"github.com/dtb-draughts/dtb/probe"
	"github.com/dtb-draughts/dtb/rules"
)

func init() {
	register(&command{
		name: "best", args: "[FEN...]", summary: "the best move of positions, the position after it and its clocks (the lines of standard input, FEN [clock=N] [rule2=N], if no FEN is given)",
		flags: func(fs *pflag.FlagSet) func(*env, []string) error {
			fl := &probeCmd{best: true}
			tablesFlag(fs, &fl.dir)
			fs.BoolVar(&fl.asJSON, "json", false, `one JSON object per position, as dtb probe's, with "best": the move and the position after it as dtb probe gives it under the clocks after the move, null where there is no move: {"fen":"W:WK10:BK5",…,"best":{"move":"10-46","fen":"B:WK46:BK5","category":"loss",…,"class_played":1,"rule2_played":null}}`)
			fl.register(fs, "plies already played on the class clock of class A and B positions, as dtb probe takes it: 0 (full) or more, 32 (class A) or 10 (class B) and more the clock run out",
				"plies already on the count of the 25-move king rule, as dtb probe takes it: 0 (fresh) or more, 50 and more complete")
			fs.StringVar(&fl.notation, "notation", "standard", notationUsage)
			return fl.run
		},
	})
}

// bestEntry is the answer of dtb best: a position, its best move and
// the position after it under the clocks after the move. In JSON it is
// the position's object with "best" last: the move in front of the
// object of the position after it, or null where there is no move.
type bestEntry struct {
	fenEntry
	Move  string // "": the position has no move
	After fenEntry
}

func (b bestEntry) MarshalJSON() ([]byte, error) {
	f, err := b.fenEntry.MarshalJSON()
	if err != nil {
		return nil, err
	}
	best := []byte("null")
	if b.Move != "" {
		after, err := b.After.MarshalJSON()
		if err != nil {
			return nil, err
		}
		m, _ := json.Marshal(b.Move)
		best = fmt.Appendf(nil, `{"move":%s,%s`, m, after[1:])
	}
	return fmt.Appendf(f[:len(f)-1], `,"best":%s}`, best), nil
}

// write writes b in JSON to enc or in words to w: the position's line as
// dtb probe writes it, then the move, the position after it as a line of
// dtb best's standard input, and its values.
func (b bestEntry) write(w io.Writer, enc *json.Encoder, asJSON bool) error {
	if asJSON {
		return enc.Encode(b)
	}
	if err := b.fenEntry.write(w, enc, false); err != nil {
		return err
	}
	if b.Move == "" {
		_, err := fmt.Fprintln(w, "  no move: the side to move has lost")
		return err
	}
	a := b.After
	_, err := fmt.Fprintf(w, "  best %s  %s%s  %s\n", b.Move, a.FEN, clockArgs(a.Clock, a.Played), describe(a.Entry, a.Clock, a.Side, a.Side))
	return err
}

// clockArgs returns the clocks c of a position whose clock is kind as a
// line of standard input gives them: " clock=N", " rule2=N" or "".
func clockArgs(kind rules.Class, c probe.Clocks) string {
	switch class, rule2 := explore.Played(kind, c); {
	case class != nil:
		return fmt.Sprintf(" clock=%d", *class)
	case rule2 != nil:
		return fmt.Sprintf(" rule2=%d", *rule2)
	}
	return ""
}

// answerBest writes the best move of p under the clocks c
// (explore.BestMove), or says on stderr after where why there is none.
func (a *answerer) answerBest(where string, p draughts.Position, c probe.Clocks) error {
	r, err := a.t.Probe(p, c, 0)
	var best explore.Best
	var ok bool
	if err == nil {
		best, ok, err = explore.BestMove(a.t, p, c)
	}
	if err != nil {
		a.fail(where, p, err)
		return nil
	}
	a.note(p, r)
	b := bestEntry{fenEntry: a.entry(p, r, c)}
	if ok {
		a.note(best.After, best.Result)
		b.Move = a.notation.Write(&p, best.Move.Move)
		b.After = a.entry(best.After, best.Result, best.Move.Clocks)
	}
	return b.write(a.e.stdout, a.enc, a.fl.asJSON)
}
