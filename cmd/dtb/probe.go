package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/spf13/pflag"

	"github.com/dtb-draughts/dtb/draughts"
	"github.com/dtb-draughts/dtb/index"
	"github.com/dtb-draughts/dtb/internal/explore"
	"github.com/dtb-draughts/dtb/internal/slim"
	"github.com/dtb-draughts/dtb/probe"
	"github.com/dtb-draughts/dtb/rules"
	"github.com/dtb-draughts/dtb/table"
)

func init() {
	register(&command{
		name: "probe", args: "[FEN...]", summary: "look positions up in the tables (the lines of standard input, FEN [clock=N] [rule2=N], if no FEN is given)",
		flags: func(fs *pflag.FlagSet) func(*env, []string) error {
			fl := &probeCmd{}
			tablesFlag(fs, &fl.dir)
			fs.BoolVar(&fl.asJSON, "json", false, `one JSON object per position: {"fen":"W:WK10:BK5","category":"win","rules":"win","theory":"win","distance":3,"dtw":3,"mtc":null,"clock":"class B","class_played":0,"rule2_played":null}`)
			fs.BoolVar(&fl.moves, "moves", false, `also every legal move, best first, with its values for the mover under the running clocks and the distances through it (in JSON "moves":[{"move":"10-46","rules":"win",…},…])`)
			fl.register(fs, "plies already played on the class clock (16-move and 5-move rules) of class A and B positions, since the ply that produced the material: 0 (full) or more; 32 (class A) or 10 (class B) and more is the clock run out",
				"plies already on the count of the 25-move king rule: plies since the last man move or capture, 0 (fresh) or more, 50 and more complete; counts where both sides have a king outside classes A and B")
			fs.StringVar(&fl.notation, "notation", "standard", notationUsage)
			return fl.run
		},
	})
}

// checkClocks checks that the counts of c, read from a line as clock=N
// and rule2=N, are plies played, 0 or more. A count at or past its
// clock's budget is a clock run out (probe.Clocks), not an error, so a
// position's clocks after a move read back as they were written.
func checkClocks(c probe.Clocks) error {
	if c.Class < 0 {
		return badInput("clock=%d: want the plies played on the class clock, 0 or more", c.Class)
	}
	if c.Rule2 < 0 {
		return badInput("rule2=%d: want the plies played on the 25-move count, 0 or more", c.Rule2)
	}
	return nil
}

// plyCount is a clock flag: plies played, given in plies or in moves of
// each side, "9" or "9p" 9 plies, "4m" 8 plies.
type plyCount int

func (n *plyCount) Set(s string) error {
	num, plies := s, 1
	if m, ok := strings.CutSuffix(s, "m"); ok {
		num, plies = m, 2
	} else {
		num = strings.TrimSuffix(s, "p")
	}
	v, err := strconv.Atoi(num)
	if err != nil || v < 0 {
		return errors.New("want the plies played, 0 or more: N or Np plies, Nm moves of each side (2N plies)")
	}
	*n = plyCount(v * plies)
	return nil
}

func (n *plyCount) String() string { return strconv.Itoa(int(*n)) }

// Type names the flag's value in dtb COMMAND --help.
func (n *plyCount) Type() string { return "count" }

// clockFlags are the flags --clock and --rule2 of dtb probe, best and
// line: the plies played on the class clock and on the rule-2 count.
type clockFlags struct{ class, rule2 plyCount }

// register adds the flags to fs, with the usage of each and how a count
// is given.
func (c *clockFlags) register(fs *pflag.FlagSet, classUsage, rule2Usage string) {
	const count = " (N or Np: N plies; Nm: N moves of each side, 2N plies)"
	fs.Var(&c.class, "clock", classUsage+count)
	fs.Var(&c.rule2, "rule2", rule2Usage+count)
}

// clocks returns the clocks of the flags.
func (c clockFlags) clocks() probe.Clocks {
	return probe.Clocks{Class: int(c.class), Rule2: int(c.rule2)}
}

// lineClocks splits a line of standard input, "FEN clock=N rule2=N" with
// either count optional, into its position and its clocks; a count not
// given is the one of c, the flags'. The counts are checked.
func lineClocks(line string, c probe.Clocks) (string, probe.Clocks, error) {
	f := strings.Fields(line)
	seen := map[string]bool{}
	for len(f) > 1 && strings.Contains(f[len(f)-1], "=") {
		name, value, _ := strings.Cut(f[len(f)-1], "=")
		f = f[:len(f)-1]
		n, err := strconv.Atoi(value)
		switch {
		case name != "clock" && name != "rule2":
			return "", c, badInput("%q: a line gives its clocks as clock=N and rule2=N after the position", name+"="+value)
		case seen[name]:
			return "", c, badInput("%s= given twice", name)
		case err != nil:
			return "", c, badInput("%s=%q: want a number of plies", name, value)
		}
		seen[name] = true
		if name == "clock" {
			c.Class = n
		} else {
			c.Rule2 = n
		}
	}
	return strings.Join(f, " "), c, checkClocks(c)
}

// probeError says why the position p could not be probed in dir: for a
// missing table, which one and what would answer it (explore.Beyond).
func probeError(p draughts.Position, dir string, err error) string {
	var missing *probe.MissingError
	if !errors.As(err, &missing) {
		return fmt.Sprintf("%s: %s", p.FEN(), explain(err))
	}
	return fmt.Sprintf("%s: %s", p.FEN(), explore.Beyond(dir, rules.MaterialOf(&p), missing))
}

// fenEntry is a position, its table entry (its rules value under the
// clocks passed), the clock its distance counts and, with --moves, its
// moves. In JSON it is one object with the entry's keys as rules.Entry
// writes them after the FEN and its category, then the clock ("class A", "class B",
// "rule 2" or null), the clocks passed (clockKeys), "rule2_tracked":false
// for a table built before rule 2 was tracked, and the moves last:
// {"fen":"W:WK10:BK5","category":"win","rules":"win",…,"clock":"class B","class_played":0,"rule2_played":null,"moves":[{"move":"10-46","category":"win",…},…]}
// (dtb claim writes its examples without the clocks.)
type fenEntry struct {
	FEN       string
	Side      draughts.Color // to move: the side the entry of a probe is for
	Entry     rules.Entry
	Probed    bool // a probe of dtb probe: Clock, Played and Untracked are set
	Clock     rules.Class
	Played    probe.Clocks // the clocks the position was probed with
	Untracked bool         // the table does not track rule 2
	Moves     []moveEntry  // nil: not asked for
}

// moveEntry is a move, the entry of the position through it for the
// mover (its rules value under the running clocks) and the clock its
// distance counts, the position's (probe.RootMove), in JSON
// {"move":"10-46","category":"win","rules":"win",…,"clock":"class B"}.
type moveEntry struct {
	Move  string
	Entry rules.Entry
	Clock rules.Class
}

// untrackedNote is the note of a position whose table does not track
// rule 2.
const untrackedNote = "rules value ignores the 25-move rule: table built before it was tracked"

// write writes f in JSON to enc or in words to w.
func (f fenEntry) write(w io.Writer, enc *json.Encoder, asJSON bool) error {
	if asJSON {
		return enc.Encode(f)
	}
	note := ""
	if f.Untracked {
		note = "  (" + untrackedNote + ")"
	}
	if _, err := fmt.Fprintf(w, "%s  %s%s\n", f.FEN, describe(f.Entry, f.Clock, f.Side, f.Side), note); err != nil {
		return err
	}
	for _, m := range f.Moves {
		if _, err := fmt.Fprintf(w, "  %s  %s\n", m.Move, describe(m.Entry, m.Clock, f.Side, f.Side)); err != nil {
			return err
		}
	}
	return nil
}

func (f fenEntry) MarshalJSON() ([]byte, error) {
	b, err := keyEntry("fen", f.FEN, f.Entry, f.Clock, f.Probed)
	if err != nil {
		return nil, err
	}
	if f.Probed {
		b = append(b[:len(b)-1], clockKeys(f.Clock, f.Played)...)
		b = append(b, '}')
	}
	if f.Untracked {
		b = append(b[:len(b)-1], `,"rule2_tracked":false}`...)
	}
	if f.Moves == nil {
		return b, nil
	}
	moves, err := json.Marshal(f.Moves)
	if err != nil {
		return nil, err
	}
	return fmt.Appendf(b[:len(b)-1], `,"moves":%s}`, moves), nil
}

func (m moveEntry) MarshalJSON() ([]byte, error) {
	return keyEntry("move", m.Move, m.Entry, m.Clock, true)
}

// clockKeys returns the JSON keys of the clocks c of a position whose
// clock is kind ("clock"): the plies played on each count, null where it
// does not apply to the position.
func clockKeys(kind rules.Class, c probe.Clocks) string {
	count := func(n *int) string {
		if n == nil {
			return "null"
		}
		return strconv.Itoa(*n)
	}
	class, rule2 := explore.Played(kind, c)
	return fmt.Sprintf(`,"class_played":%s,"rule2_played":%s`, count(class), count(rule2))
}

// keyEntry returns the JSON object of e with "key":value in front and,
// if withClock is set (a probe's answer), its "category" after it
// (probe.Category) and "clock" last.
func keyEntry(key, value string, e rules.Entry, clock rules.Class, withClock bool) ([]byte, error) {
	v, err := json.Marshal(value)
	if err != nil {
		return nil, err
	}
	b, err := json.Marshal(e) // {"rules":…}
	if err != nil {
		return nil, err
	}
	if !withClock {
		return fmt.Appendf(nil, `{%q:%s,%s`, key, v, b[1:]), nil
	}
	c := []byte("null")
	if clock != rules.NoClass {
		c, _ = json.Marshal(clock.String())
	}
	return fmt.Appendf(nil, `{%q:%s,"category":%q,%s,"clock":%s}`, key, v, probe.CategoryOf(e.Rules, e.Theory), b[1:len(b)-1], c), nil
}

// describe returns the values and distances of an entry in words, its
// values those of the side pov in a position whose side to move is
// toMove: the values, a win or loss told in the winner's moves from the
// dtw, the distance with the clock it counts, the mtc, each in plies:
// "rules win  theoretical win  White wins in 5 moves (dtw 9 plies)  distance 9 plies on the class B clock".
// A theoretical win drawn under the rules wins "in theory".
func describe(e rules.Entry, clock rules.Class, pov, toMove draughts.Color) string {
	s := fmt.Sprintf("rules %v  theoretical %v", e.Rules, e.Theory)
	if e.Theory != rules.Draw && e.DTW >= 0 {
		winner := pov
		if e.Theory == rules.Loss {
			winner = pov.Opponent()
		}
		theory := ""
		if e.Rules != e.Theory {
			theory = " in theory"
		}
		if e.DTW == 0 {
			s += fmt.Sprintf("  %v has won%s (dtw 0 plies)", winner, theory)
		} else {
			s += fmt.Sprintf("  %v wins%s in %s (dtw %s)", winner, theory, explore.Moves(explore.WinnerMoves(e.DTW, winner == toMove)), explore.Plies(e.DTW))
		}
	}
	if e.Distance >= 0 {
		s += "  distance " + explore.Plies(e.Distance) + clockWords[clock]
	}
	if e.MTC >= 0 {
		s += "  mtc " + explore.Plies(e.MTC)
	}
	return s
}

// clockWords names after a distance the clock it counts.
var clockWords = map[rules.Class]string{rules.ClassA: " on the class A clock", rules.ClassB: " on the class B clock", rules.Rule2: " on the rule-2 count"}

// probeCmd holds the flags of one run of dtb probe or dtb best.
type probeCmd struct {
	dir    string
	asJSON bool
	moves  bool
	best   bool // dtb best: the best move in place of the moves
	clockFlags
	notation string
}

func (fl *probeCmd) run(e *env, args []string) error {
	clocks := fl.clocks()
	n, err := moveNotation(fl.notation)
	if err != nil {
		return err
	}
	positions := make([]draughts.Position, len(args))
	for i, a := range args {
		var err error
		if positions[i], err = parseFEN(a); err != nil {
			return err
		}
	}
	t, err := probe.Open(fl.dir, probe.Options{})
	if err != nil {
		return err
	}
	defer t.Close()
	a := &answerer{fl: fl, e: e, t: t, enc: json.NewEncoder(e.stdout), notation: n, noDTW: map[index.Material]bool{}}
	for _, p := range positions {
		if err := a.answer("", p, clocks); err != nil {
			return err
		}
	}
	bad := 0
	if len(args) == 0 { // one position a line on stdin
		if bad, err = a.batch(clocks); err != nil {
			return err
		}
	}
	switch {
	case bad > 0:
		return usageError{errReported}
	case a.failed > 0:
		return errReported
	}
	return nil
}

// batch answers the lines of standard input, "FEN clock=N rule2=N" with
// each count optional (c, the flags', where not given), and returns how
// many were bad input, each said on stderr with its line number.
func (a *answerer) batch(c probe.Clocks) (bad int, err error) {
	lr := newLineReader(a.e.stdin)
	for {
		line, ok, err := lr.next()
		if !ok {
			if err != nil {
				return bad, fmt.Errorf("standard input: %w", err)
			}
			return bad, nil
		}
		if line = strings.TrimSpace(line); line == "" && err == nil {
			continue
		}
		where := fmt.Sprintf("line %d: ", lr.n)
		fen, lc := "", c
		if err == nil {
			fen, lc, err = lineClocks(line, c)
		}
		var p draughts.Position
		if err == nil {
			p, err = parseFEN(fen)
		}
		if err != nil {
			fmt.Fprintf(a.e.stderr, "dtb %s: %s%v\n", a.e.command, where, err)
			bad++
		} else if err := a.answer(where, p, lc); err != nil {
			return bad, err
		}
	}
}

// answerer answers the positions of one run of dtb probe or dtb best.
type answerer struct {
	fl          *probeCmd
	e           *env
	t           *probe.Tables
	enc         *json.Encoder
	notation    draughts.Notation       // how moves are written
	failed      int                     // positions without an answer
	noDTW       map[index.Material]bool // the materials said to have no dtw
	valuesAlone bool                    // said that some tables have no distances
}

// fail says on stderr after where why p has no answer.
func (a *answerer) fail(where string, p draughts.Position, err error) {
	fmt.Fprintf(a.e.stderr, "dtb %s: %s%s\n", a.e.command, where, probeError(p, a.fl.dir, err))
	a.failed++
}

// entry returns the fenEntry of p, probed in a.t as r under the clocks c.
func (a *answerer) entry(p draughts.Position, r probe.Result, c probe.Clocks) fenEntry {
	r.Entry.Rules = r.Value
	info, err := a.t.Info(rules.MaterialOf(&p))
	untracked := err == nil && info.Variant == table.NoRule2 // a table of the first version
	return fenEntry{FEN: p.FEN(), Side: p.Side, Entry: r.Entry, Probed: true, Clock: r.Class, Played: c, Untracked: untracked}
}

// answer writes the answer of p under the clocks c, or says on stderr
// after where why there is none.
func (a *answerer) answer(where string, p draughts.Position, clocks probe.Clocks) error {
	if a.fl.best {
		return a.answerBest(where, p, clocks)
	}
	r, err := a.t.Probe(p, clocks, 0)
	var root []probe.RootMove
	if err == nil && a.fl.moves {
		root, err = a.t.RootMoves(p, clocks)
	}
	if err != nil {
		a.fail(where, p, err)
		return nil
	}
	a.note(p, r)
	f := a.entry(p, r, clocks)
	if a.fl.moves {
		f.Moves = []moveEntry{} // a position without a move has "moves":[]
	}
	for _, m := range root {
		m.Entry.Rules = m.Value
		f.Moves = append(f.Moves, moveEntry{a.notation.Write(&p, m.Move), m.Entry, m.Class})
	}
	return f.write(a.e.stdout, a.enc, a.fl.asJSON)
}

// note says on stderr, once, what the tables of p's answer r lack: the
// distances, or the dtw and how to build it.
func (a *answerer) note(p draughts.Position, r probe.Result) {
	switch m := rules.MaterialOf(&p); {
	case r.ValuesAlone && !a.valuesAlone:
		a.valuesAlone = true
		fmt.Fprintf(a.e.stderr, "dtb %s: %s holds the values of some tables alone, without their distances (dtb slim writes them unless --distances=false)\n", a.e.command, holder(a.fl.dir, m))
	case !r.ValuesAlone && r.Entry.Theory != rules.Draw && r.Entry.DTW < 0 && !a.noDTW[m]:
		a.noDTW[m] = true
		dir := holder(a.fl.dir, m)
		how := fmt.Sprintf("build them with: dtb gen --only %s --dtw --out %s", m, dir)
		if slim.Is(dir) {
			how = fmt.Sprintf("write %s with: dtb slim --dir BUILD --out %s, BUILD a directory dtb gen built with --dtw", dir, dir)
		}
		fmt.Fprintf(a.e.stderr, "dtb %s: the tables of %s in %s have no dtw (%s)\n", a.e.command, m, dir, how)
	}
}
