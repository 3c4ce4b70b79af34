package main

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/spf13/pflag"

	"github.com/dtb-draughts/dtb/draughts"
	"github.com/dtb-draughts/dtb/internal/explore"
	"github.com/dtb-draughts/dtb/internal/version"
	"github.com/dtb-draughts/dtb/probe"
	"github.com/dtb-draughts/dtb/rules"
)

func init() {
	register(&command{
		name: "hub", args: "", summary: "an engine for Hub GUIs and tools: play the best moves of the tables over the Hub protocol on standard input and output",
		flags: func(fs *pflag.FlagSet) func(*env, []string) error {
			fl := &hubCmd{}
			tablesFlag(fs, &fl.dir)
			return fl.run
		},
	})
}

// hubCmd holds the flags of one run of dtb hub.
type hubCmd struct{ dir string }

// hubEngine is one session of dtb hub: the Hub protocol of Scan (version
// 2), the tables, the position of the last pos and the game it follows.
type hubEngine struct {
	e      *env
	dir    string        // --dir, or set-param name=dir before init
	t      *probe.Tables // nil until opened
	pos    draughts.Position
	clocks probe.Clocks // the clocks of pos
	posErr error        // why there is no position to play; nil once pos is set
	game   []hubPly     // the positions of the last pos, pos= through its moves
	werr   error        // the first error writing to stdout
}

// hubPly is a position of the game dtb hub follows, with its clocks.
type hubPly struct {
	p draughts.Position
	c probe.Clocks
}

func (fl *hubCmd) run(e *env, _ []string) error {
	h := &hubEngine{e: e, dir: fl.dir, posErr: fmt.Errorf("no position: send pos before go")}
	defer h.close()
	lr := newLineReader(e.stdin)
	for h.werr == nil {
		line, ok, err := lr.next()
		if !ok {
			if err != nil {
				return fmt.Errorf("standard input: %w", err)
			}
			return h.werr // the end of the input: the GUI has gone
		}
		name, args, perr := parseHubLine(line)
		switch {
		case err != nil || perr != nil:
			h.refuse(name, cmp.Or(err, perr))
		case name == "quit":
			return h.werr
		case name != "":
			h.do(name, args)
		}
	}
	return h.werr
}

// refuse answers a line of the command name that cannot be read, for
// err. A refused pos leaves no position, and a refused go still ends
// with done.
func (h *hubEngine) refuse(name string, err error) {
	h.fail(err)
	switch name {
	case "pos":
		h.posErr, h.game = errors.New("no position: the last pos was refused"), nil
	case "go":
		h.send("done")
	}
}

// do answers the command name with its arguments args. Commands it does
// not know are ignored, as the protocol asks.
func (h *hubEngine) do(name string, args map[string]string) {
	switch name {
	case "hub":
		h.send("id", "name", "dtb", "version", version.Version, "author", "dtb authors")
		h.send("param", "name", "dir", "value", h.dir, "type", "string")
		h.send("wait")
	case "set-param":
		if args["name"] == "dir" && args["value"] != "" {
			h.close()
			h.dir = args["value"]
		}
	case "init":
		if _, err := h.tables(); err != nil {
			h.fail(err)
		}
		h.send("ready")
	case "new-game":
		h.game = nil
	case "pos":
		var game []hubPly
		if game, h.posErr = h.readPos(args); h.posErr != nil {
			h.refuse(name, h.posErr)
			return
		}
		h.game, h.pos, h.clocks = game, game[len(game)-1].p, game[len(game)-1].c
	case "go":
		if err := h.play(); err != nil {
			h.refuse(name, err)
		}
	case "ping":
		h.send("pong")
	}
}

// tables returns the tables of h.dir, opening them on first use.
func (h *hubEngine) tables() (*probe.Tables, error) {
	if h.t == nil {
		t, err := probe.Open(h.dir, probe.Options{})
		if err != nil {
			return nil, fmt.Errorf("%s", explain(err))
		}
		h.t = t
	}
	return h.t, nil
}

func (h *hubEngine) close() {
	if h.t != nil {
		h.t.Close()
		h.t = nil
	}
}

// readPos reads the arguments of pos: the position pos= (Hub or FEN),
// its clocks clock= and rule2= (h.carried where both are left out), and
// the moves played from it, moves="...", each carrying the clocks over
// it. It returns the positions from pos= through the moves, each with
// its clocks.
func (h *hubEngine) readPos(args map[string]string) ([]hubPly, error) {
	fen, ok := args["pos"]
	if !ok {
		return nil, fmt.Errorf("pos: no pos=: want pos=POSITION (Hub's 51 characters or a FEN)")
	}
	p, err := parseFEN(fen)
	if err != nil {
		return nil, err
	}
	c, given, err := hubClocks(args)
	if err != nil {
		return nil, err
	}
	if !given {
		c = h.carried(p)
	}
	game := []hubPly{{p, c}}
	var beyond error // the clocks are unknown: a position was beyond the tables
	moves := strings.Fields(args["moves"])
	for i, s := range moves {
		m, err := p.ParseMove(s)
		if err != nil {
			return nil, fmt.Errorf("moves: move %d of %d: %v", i+1, len(moves), err)
		}
		if beyond == nil || p.Converts(m) {
			c, beyond = h.after(p, c, m)
		}
		p = p.Play(m)
		game = append(game, hubPly{p, c})
	}
	if err := probe.Check(p); err != nil {
		return nil, err
	}
	return game, beyond
}

// carried returns the clocks of p, a position sent with no clocks, as
// the game dtb hub follows gives them: those of p where it is one of the
// last pos's positions, or where it follows the last of them by one or
// two plies (a GUI sends the position after the last capture or man
// move, and only the king moves since). Any other p gets the zero clocks:
// its material arose on the ply that produced it.
func (h *hubEngine) carried(p draughts.Position) probe.Clocks {
	for _, g := range slices.Backward(h.game) {
		if g.p == p {
			return g.c
		}
	}
	if len(h.game) == 0 || h.t == nil {
		return probe.Clocks{}
	}
	last := h.game[len(h.game)-1]
	first, err := h.t.RootMoves(last.p, last.c)
	if err != nil {
		return probe.Clocks{}
	}
	for _, r := range first {
		q := last.p.Play(r.Move)
		if q == p {
			return r.Clocks
		}
		second, err := h.t.RootMoves(q, r.Clocks)
		if err != nil {
			continue
		}
		for _, s := range second {
			if q.Play(s.Move) == p {
				return s.Clocks
			}
		}
	}
	return probe.Clocks{}
}

// hubClocks reads the clocks of pos: clock=N, the plies played on the
// class clock, and rule2=N, the plies on the 25-move king count, each 0
// where left out; given reports that one of them was there.
func hubClocks(args map[string]string) (c probe.Clocks, given bool, err error) {
	for _, name := range []string{"clock", "rule2"} {
		n := &c.Class
		if name == "rule2" {
			n = &c.Rule2
		}
		s, ok := args[name]
		if !ok {
			continue
		}
		given = true
		v, err := strconv.Atoi(s)
		if err != nil {
			return c, given, fmt.Errorf("%s=%q: want a number of plies", name, s)
		}
		*n = v
	}
	return c, given, checkClocks(c)
}

// after returns the clocks c of p carried over its move m, as
// probe.Tables.RootMoves carries them. Where p is beyond the tables, a
// conversion restarts them; any other move leaves them unknown (an error).
func (h *hubEngine) after(p draughts.Position, c probe.Clocks, m draughts.Move) (probe.Clocks, error) {
	t, err := h.tables()
	if err != nil {
		return c, err
	}
	root, err := t.RootMoves(p, c)
	if err != nil && p.Converts(m) {
		return probe.Clocks{}, nil
	}
	if err != nil {
		return c, fmt.Errorf("%s", probeError(p, h.dir, err))
	}
	for _, r := range root {
		if r.Move == m {
			return r.Clocks, nil
		}
	}
	return c, fmt.Errorf("%s: %s is not a move of the tables", p.FEN(), p.HubMove(m))
}

// play answers go: an info line with the position's value under its
// clocks, its score, the clocks that apply to it and the best line, then
// done with the best move and the opponent's best answer as ponder. It
// returns why there is no move to play.
func (h *hubEngine) play() error {
	if h.posErr != nil {
		return h.posErr
	}
	t, err := h.tables()
	if err != nil {
		return err
	}
	r, err := t.Probe(h.pos, h.clocks, 0)
	var best explore.Best
	var ok bool
	if err == nil {
		best, ok, err = explore.BestMove(t, h.pos, h.clocks)
	}
	switch {
	case err != nil:
		return fmt.Errorf("%s", probeError(h.pos, h.dir, err))
	case !ok:
		return fmt.Errorf("%s: no legal move: the side to move has lost", h.pos.Hub())
	}
	move := h.pos.HubMove(best.Move.Move)
	pv := []string{move}
	done := []string{"move", move}
	if line, err := explore.BestLine(t, h.pos, h.clocks, 0, draughts.HubNotation); err == nil && len(line.Moves) > 0 {
		pv = pv[:0]
		for _, m := range line.Moves {
			pv = append(pv, m.Move)
		}
	} else if next, ok, err := explore.BestMove(t, best.After, best.Move.Clocks); err == nil && ok {
		pv = append(pv, best.After.HubMove(next.Move.Move))
	}
	if len(pv) > 1 {
		done = append(done, "ponder", pv[1])
	}
	info := []string{"value", r.Value.String(), "score", hubScore(r)}
	switch class, rule2 := explore.Played(r.Class, h.clocks); {
	case class != nil:
		info = append(info, "clock", strconv.Itoa(*class))
	case rule2 != nil:
		info = append(info, "rule2", strconv.Itoa(*rule2))
	}
	h.send("info", append(info, "pv", strings.Join(pv, " "))...)
	h.send("done", done...)
	return nil
}

// hubScore returns the score of r for its side to move as Hub GUIs show
// a search's, in men: 0 for a draw, and for a win (a loss) 100 less a
// hundredth of a man a ply of its distance to the end of the game (dtw,
// else the distance on its clock), as Scan scores a win it has found.
func hubScore(r probe.Result) string {
	plies := r.Entry.DTW
	if plies < 0 {
		plies = max(r.Entry.Distance, 0)
	}
	score := 100 - float64(plies)/100
	switch r.Value {
	case rules.Draw:
		score = 0
	case rules.Loss:
		score = -score
	}
	return strconv.FormatFloat(score, 'f', 2, 64)
}

// fail answers Hub's error message="..." with err.
func (h *hubEngine) fail(err error) { h.send("error", "message", err.Error()) }

// send writes one line of the protocol: the command name, then each pair
// of pairs as name=value, the value quoted where it must be.
func (h *hubEngine) send(name string, pairs ...string) {
	var b strings.Builder
	b.WriteString(name)
	for i := 0; i+1 < len(pairs); i += 2 {
		fmt.Fprintf(&b, " %s=%s", pairs[i], hubValue(pairs[i+1]))
	}
	b.WriteByte('\n')
	if h.werr == nil {
		_, h.werr = h.e.stdout.Write([]byte(b.String()))
	}
}

// hubValue returns v as the value of a pair: bare where it is a name,
// else in double quotes (a double quote inside becomes a single one).
func hubValue(v string) string {
	if v != "" && !strings.ContainsFunc(v, hubSpecial) {
		return v
	}
	return `"` + strings.ReplaceAll(strings.Map(func(r rune) rune {
		if r < ' ' {
			return ' '
		}
		return r
	}, v), `"`, "'") + `"`
}

// hubSpecial reports whether r ends a name: a blank, '=', '"' or a
// control character.
func hubSpecial(r rune) bool {
	return r <= ' ' || r == '=' || r == '"' || r == 0x7f
}

// parseHubLine splits a line of the protocol, `name arg=value arg="a
// value" flag`, into its command and arguments (a flag's value is "").
// A blank line has the command "".
func parseHubLine(line string) (string, map[string]string, error) {
	name, s := hubName(trimBlank(line))
	args := map[string]string{}
	for s = trimBlank(s); s != ""; s = trimBlank(s) {
		var key, value string
		if key, s = hubName(s); key == "" {
			return name, args, fmt.Errorf("%s: %q: want name=value", name, s)
		}
		if s = trimBlank(s); strings.HasPrefix(s, "=") {
			s = trimBlank(s[1:])
			if strings.HasPrefix(s, `"`) {
				end := strings.IndexByte(s[1:], '"')
				if end < 0 {
					return name, args, fmt.Errorf("%s: %s=%s: no closing quote", name, key, s)
				}
				value, s = s[1:end+1], s[end+2:]
			} else {
				value, s = hubName(s)
			}
		}
		args[key] = value
	}
	return name, args, nil
}

// hubName splits a name off the front of s.
func hubName(s string) (string, string) {
	i := strings.IndexFunc(s, hubSpecial)
	if i < 0 {
		return s, ""
	}
	return s[:i], s[i:]
}

func trimBlank(s string) string {
	return strings.TrimLeftFunc(s, func(r rune) bool { return r <= ' ' || r == 0x7f })
}
