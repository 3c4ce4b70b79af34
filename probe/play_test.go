package probe_test

import (
	"errors"
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/dtb-draughts/dtb/draughts"
	"github.com/dtb-draughts/dtb/index"
	"github.com/dtb-draughts/dtb/internal/explore"
	"github.com/dtb-draughts/dtb/internal/tabletest"
	"github.com/dtb-draughts/dtb/internal/testenv"
	"github.com/dtb-draughts/dtb/probe"
	"github.com/dtb-draughts/dtb/rules"
)

// TestPlay plays games from positions each table calls won, lost or
// drawn, as an engine plays the tables: one side plays the first root
// move (RootMoves) and the other defends or attacks otherwise (at
// random, with the longest dtw, or with the first root move too), the
// clocks kept by a referee of its own (state) and passed to every probe,
// the positions of the game counted. From a won or lost position, with
// fresh clocks and with the clock a position's distance from its end,
// every game must end in the winner's win: within the clocks, no
// position played twice. From a drawn position, the side playing the
// first root move, to move or not, must never lose. The best line
// (explore.BestLine) from a won or lost position must end in a win too.
// The starts: random positions of every table and its longest wins
// (header), up to 4 pieces; up to 5 under DTB_LONG=1.
func TestPlay(t *testing.T) {
	for _, dir := range playDirs(t) {
		tables := open(t, dir)
		games := 0
		for _, m := range tables.Materials() {
			t.Run(m.String(), func(t *testing.T) {
				n := playTable(t, tables, m)
				if n == 0 {
					t.Errorf("%s: no game played", m)
				}
				games += n
			})
		}
		t.Logf("%d tables, %d games", len(tables.Materials()), games)
	}
}

// playDirs returns the tables TestPlay plays in: every table up to 4
// pieces, and up to 5 under DTB_LONG=1; under the race detector, which
// builds and plays ten times slower, the smaller sets the other tests of
// the package build (up to 3 pieces, Rule2 and ClassA).
func playDirs(t *testing.T) []string {
	switch {
	case testenv.Race:
		return []string{tabletest.Golden, tabletest.Rule2.Dir(t), tabletest.ClassA.Dir(t)}
	case testenv.Long():
		return []string{tabletest.Four.Dir(t), tabletest.Five.Dir(t)}
	}
	return []string{tabletest.Four.Dir(t)}
}

// TestPlayAgainstEveryDefence checks that the first root move wins
// against every defence, the positions after every reply followed (the
// defences searched through, each position and clocks once): the
// longest wins of the first set TestPlay plays in (playDirs), with
// fresh clocks and clocks just short of their limit; under DTB_LONG=1
// also the 5-piece game of KMMMvK that rule 2 drew when a king move was
// ranked before a conversion, whose rule-2 position then has a man move
// first.
func TestPlayAgainstEveryDefence(t *testing.T) {
	dirs := playDirs(t)
	tables := open(t, dirs[0])
	n := 0
	for _, m := range tables.Materials() {
		for _, p := range longest(t, tables, m) {
			r, err := tables.Probe(p, probe.Clocks{}, 0)
			if err != nil {
				t.Fatal(err)
			}
			if r.Value == rules.Draw {
				continue // a cursed win
			}
			for _, c := range startClocks(r) {
				if err := everyDefence(tables, p, c); err != nil {
					t.Errorf("%s: %v", m, err)
				}
				n++
			}
		}
	}
	if n < 10 {
		t.Errorf("%d wins searched", n)
	}
	t.Logf("%d wins searched", n)
	if !testenv.Long() || testenv.Race {
		return
	}
	tables = open(t, dirs[1])
	p := probe.FEN(t, "W:WK6,26,K38,42:BK23")
	moves, err := tables.RootMoves(p, probe.Clocks{Rule2: 8})
	if err != nil {
		t.Fatal(err)
	}
	if best := moves[0]; best.Value != rules.Win || p.Kings&draughts.Bit(best.Move.FromSquare()) != 0 {
		t.Errorf("%s, 8 plies on the rule-2 count: best move %s, %v; want a winning man move", p.FEN(), p.Notation(best.Move), best.Value)
	}
	if err := everyDefence(tables, probe.FEN(t, "W:W22,K38,41,48:BK19"), probe.Clocks{}); err != nil {
		t.Error(err)
	}
}

// playTable plays the games of TestPlay from the positions of m's table
// and returns how many it played.
func playTable(t *testing.T, tables *probe.Tables, m index.Material) int {
	h := fnv.New64a()
	h.Write([]byte(m.String()))
	rng := rand.New(rand.NewPCG(h.Sum64(), 1))
	games := 0
	for _, p := range starts(t, tables, m, rng) {
		r, err := tables.Probe(p, probe.Clocks{}, 0)
		if err != nil {
			t.Fatal(err)
		}
		if r.Value == rules.Draw {
			for _, other := range defences(rng) {
				for _, side := range []draughts.Color{p.Side, p.Side.Opponent()} {
					g := newGame(p, probe.Clocks{})
					err := g.play(tables, side, other)
					if err == nil && g.end == "no move" && g.p.Side == side {
						err = fmt.Errorf("lost: %s", g.record())
					}
					if err != nil {
						t.Errorf("drawn %s, %s playing the first root move against %s: %v", p.FEN(), side, other.name, err)
					}
					games++
				}
			}
			continue
		}
		winner := p.Side
		if r.Value == rules.Loss {
			winner = winner.Opponent()
		}
		for _, c := range startClocks(r) {
			for _, other := range defences(rng) {
				g := newGame(p, c)
				err := g.play(tables, winner, other)
				switch {
				case err != nil:
					t.Errorf("won %s, %+v, against %s: %v", p.FEN(), c, other.name, err)
				case g.end != "no move" || g.p.Side == winner:
					t.Errorf("won %s, %+v, against %s: %s (%s)", p.FEN(), c, other.name, g.end, g.record())
				}
				games++
			}
			if err := bestLine(tables, p, c, winner); err != nil {
				t.Errorf("won %s, %+v: best line %v", p.FEN(), c, err)
			}
		}
	}
	return games
}

// longest returns the longest wins of m's table its header names: by
// distance, dtw and mtc.
func longest(t *testing.T, tables *probe.Tables, m index.Material) []draughts.Position {
	info, err := tables.Info(m)
	if err != nil {
		t.Fatal(err)
	}
	s := info.Stats
	var ps []draughts.Position
	for _, f := range []string{s.LongestDistanceFEN, s.LongestDTWFEN, s.LongestMTCFEN} {
		if f != "" {
			ps = append(ps, probe.FEN(t, f))
		}
	}
	return ps
}

// starts returns the positions TestPlay plays from in m's table: its
// longest wins, and a few won (or lost) and drawn ones at random, either
// side to move.
func starts(t *testing.T, tables *probe.Tables, m index.Material, rng *rand.Rand) []draughts.Position {
	ps := longest(t, tables, m)
	const each = 20 // decisive and drawn positions at random
	x := index.New(m)
	var decisive, drawn int
	for try := 0; try < 100*each && (decisive < each || drawn < each); try++ {
		p := rules.Position(x.Unrank(rng.Int64N(x.Size())))
		if rng.IntN(2) == 1 {
			p = p.Flip()
		}
		if probe.Check(p) != nil || p.CountMoves() == 0 {
			continue
		}
		r, err := tables.Probe(p, probe.Clocks{}, 0)
		if err != nil {
			t.Fatal(err)
		}
		switch {
		case r.Value == rules.Draw && drawn < each:
			drawn++
		case r.Value != rules.Draw && decisive < each:
			decisive++
		default:
			continue
		}
		ps = append(ps, p)
	}
	return ps
}

// startClocks returns the clocks a game from a won or lost position with
// probe result r starts with: fresh, and where its material has a clock
// the clock with just its distance left, a few plies short of its limit.
func startClocks(r probe.Result) []probe.Clocks {
	cs := []probe.Clocks{{}}
	played := r.Class.Budget() - r.Entry.Distance
	switch {
	case r.Entry.Distance < 0 || played <= 0:
	case r.Class == rules.Rule2:
		cs = append(cs, probe.Clocks{Rule2: played})
	case r.Class.Carries():
		cs = append(cs, probe.Clocks{Class: played})
	}
	return cs
}

// A player chooses a move among the root moves of a position, best first.
type player struct {
	name   string
	choose func(moves []probe.RootMove) probe.RootMove
}

// first plays the first root move.
var first = player{"the first root move", func(moves []probe.RootMove) probe.RootMove { return moves[0] }}

// defences returns the players that defend a lost position, or attack a
// drawn one, against the first root move: the first root move too, the
// move of the longest dtw among those of the best value (the dtw's
// defence rather than the clock's), and moves at random.
func defences(rng *rand.Rand) []player {
	longest := func(moves []probe.RootMove) probe.RootMove {
		best := moves[0]
		for _, m := range moves {
			if m.Value == best.Value && m.Entry.DTW > best.Entry.DTW {
				best = m
			}
		}
		return best
	}
	random := func(moves []probe.RootMove) probe.RootMove { return moves[rng.IntN(len(moves))] }
	return []player{first, {"the longest dtw", longest}, {"random moves", random}}
}

// A state is a position of a game and its clocks as the rules keep them
// (../docs/rules.md), counted apart from the prober's Clocks.
type state struct {
	p     draughts.Position
	count int         // plies since the last man move or capture (rule 2)
	class rules.Class // the class of p's material: ClassA, ClassB or NoClass
	left  int         // plies left on the clock of class A or B
}

// clockClass returns the class whose clock counts at p: class A or B,
// else NoClass.
func clockClass(p *draughts.Position) rules.Class {
	if c := rules.ClassOf(rules.MaterialOf(p)); c.Carries() {
		return c
	}
	return rules.NoClass
}

// newState returns the state of p with the clocks c, as plies played.
func newState(p draughts.Position, c probe.Clocks) state {
	s := state{p: p, count: max(c.Rule2, 0), class: clockClass(&p)}
	s.left = s.class.Budget() - min(max(c.Class, 0), s.class.Budget())
	return s
}

// clocks returns the clocks of s as a probe reads them.
func (s state) clocks() probe.Clocks {
	return probe.Clocks{Class: s.class.Budget() - s.left, Rule2: s.count}
}

// after returns the state after the move m: the rule-2 count restarts
// with a capture or man move and runs on otherwise; a class clock runs
// on inside its class, starts afresh from another material (32 plies in
// class A, 10 in class B) and from class A into class B keeps
// min(left-1, 10) plies.
func (s state) after(m draughts.Move) state {
	conversion := m.IsCapture() || s.p.Kings&draughts.Bit(m.FromSquare()) == 0
	next := state{p: s.p.Play(m), count: s.count + 1}
	if conversion {
		next.count = 0
	}
	next.class = clockClass(&next.p)
	switch {
	case !next.class.Carries():
	case next.class == s.class:
		next.left = s.left - 1
	case s.class == rules.ClassA && next.class == rules.ClassB:
		next.left = min(s.left-1, next.class.Budget())
	default:
		next.left = next.class.Budget()
	}
	return next
}

// over says how the game stands at s for its side to move: "no move"
// (lost, rule 5 first), drawn by a clock run out, or "" (going on).
func (s state) over() string {
	switch {
	case s.p.CountMoves() == 0:
		return "no move"
	case s.class.Carries() && s.left <= 0:
		return "drawn by the " + s.class.String() + " clock"
	case s.count >= rules.Rule2Plies:
		return "drawn by rule 2"
	}
	return ""
}

// A game is played from a start by two players, the positions counted.
type game struct {
	state
	seen  map[draughts.Position]int
	moves []string
	end   string // why the game ended: "no move" for a loss of its side to move
}

// maxPlies ends a game that has not ended: more than any win of the
// tables takes.
const maxPlies = 600

func newGame(p draughts.Position, c probe.Clocks) *game {
	return &game{state: newState(p, c), seen: map[draughts.Position]int{p: 1}}
}

// play plays the game to its end, side playing the first root move and
// the other side other, and fails where the side playing the first root
// move lets its value under the rules fall (from a win, or to a loss);
// in a won game, a position played again or a draw is a failure too.
func (g *game) play(tables *probe.Tables, side draughts.Color, other player) error {
	won := false
	for len(g.moves) < maxPlies {
		g.end = g.over()
		switch {
		case g.end != "":
			return nil
		case g.seen[g.p] > 1 && won:
			return fmt.Errorf("%s played again: %s", g.p.FEN(), g.record())
		case g.seen[g.p] >= 3:
			g.end = "drawn by repetition"
			return nil
		}
		moves, err := tables.RootMoves(g.p, g.clocks())
		if err != nil {
			return err
		}
		m := other.choose(moves)
		if g.p.Side == side {
			m = moves[0]
			switch {
			case m.Value == rules.Win:
				won = true
			case won || m.Value == rules.Loss:
				return fmt.Errorf("%s, %+v: the first root move %s %v: %s", g.p.FEN(), g.clocks(), g.p.Notation(m.Move), m.Value, g.record())
			}
		}
		g.moves = append(g.moves, g.p.Notation(m.Move))
		g.state = g.after(m.Move)
		g.seen[g.p]++
	}
	if won {
		return fmt.Errorf("no end after %d plies: %s", maxPlies, g.record())
	}
	g.end = "a long draw"
	return nil
}

// record returns the last moves of the game, as far as its position.
func (g *game) record() string {
	moves := g.moves[max(len(g.moves)-24, 0):]
	return fmt.Sprintf("... %s (%d plies) to %s, %+v", strings.Join(moves, " "), len(g.moves), g.p.FEN(), g.clocks())
}

// bestLine checks that the best line from p under the clocks c ends in
// the win of winner, no position played twice.
func bestLine(tables *probe.Tables, p draughts.Position, c probe.Clocks, winner draughts.Color) error {
	line, err := explore.BestLine(tables, p, c, 0, draughts.StandardNotation)
	if err != nil {
		return err
	}
	loser := p.Side
	if len(line.Moves)%2 == 1 {
		loser = loser.Opponent()
	}
	if line.End != "no move" || loser == winner {
		return fmt.Errorf("%d plies to %q, %s to move", len(line.Moves), line.End, loser)
	}
	seen := map[string]bool{p.FEN(): true}
	for _, m := range line.Moves {
		if seen[m.FEN] {
			return fmt.Errorf("%s played again: %s", m.FEN, line.PDN)
		}
		seen[m.FEN] = true
	}
	return nil
}

// everyDefence checks that the side p's tables call the winner under the
// clocks c wins against every defence, playing the first root move:
// within the clocks, no position played twice on any line. Each position
// with its clocks is searched once.
func everyDefence(tables *probe.Tables, p draughts.Position, c probe.Clocks) error {
	r, err := tables.Probe(p, c, 0)
	if err != nil {
		return err
	}
	winner := p.Side
	switch r.Value {
	case rules.Draw:
		return fmt.Errorf("%s, %+v: a draw", p.FEN(), c)
	case rules.Loss:
		winner = winner.Opponent()
	}
	d := defended{tables: tables, winner: winner, won: map[state]bool{}, path: map[draughts.Position]bool{}}
	if err := d.search(newState(p, c)); err != nil {
		return fmt.Errorf("%s, %+v: %w", p.FEN(), c, err)
	}
	return nil
}

// defended is the search of everyDefence.
type defended struct {
	tables *probe.Tables
	winner draughts.Color
	won    map[state]bool             // the states the winner is known to win
	path   map[draughts.Position]bool // the positions of the line searched
	line   []string                   // its moves
}

// errLine ends a search that failed; the line to its end is in the error.
var errLine = errors.New("the first root move does not win")

func (d *defended) search(s state) error {
	if d.won[s] {
		return nil
	}
	fail := func(why string) error {
		return fmt.Errorf("%w: %s after %s", errLine, why, strings.Join(d.line, " "))
	}
	switch end := s.over(); {
	case end == "no move" && s.p.Side != d.winner:
		d.won[s] = true
		return nil
	case end != "":
		return fail(s.p.FEN() + ": " + end)
	case d.path[s.p]:
		return fail(s.p.FEN() + " played again")
	}
	moves := s.p.Moves(nil) // every defence
	if s.p.Side == d.winner {
		root, err := d.tables.RootMoves(s.p, s.clocks())
		if err != nil {
			return err
		}
		if root[0].Value != rules.Win {
			return fail(fmt.Sprintf("%s, %+v: the first root move %v", s.p.FEN(), s.clocks(), root[0].Value))
		}
		moves = []draughts.Move{root[0].Move}
	}
	d.path[s.p] = true
	for _, m := range moves {
		d.line = append(d.line, s.p.Notation(m))
		err := d.search(s.after(m))
		d.line = d.line[:len(d.line)-1]
		if err != nil {
			return err
		}
	}
	delete(d.path, s.p)
	d.won[s] = true
	return nil
}
