package main

import (
	"bufio"
	"fmt"
	"strconv"
	"strings"

	"github.com/spf13/pflag"

	"github.com/dtb-draughts/dtb/draughts"
	"github.com/dtb-draughts/dtb/internal/explore"
	"github.com/dtb-draughts/dtb/internal/version"
	"github.com/dtb-draughts/dtb/probe"
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
// 2), the tables and the position of the last pos.
type hubEngine struct {
	e      *env
	dir    string        // --dir, or set-param name=dir before init
	t      *probe.Tables // nil until opened
	pos    draughts.Position
	clocks probe.Clocks // the clocks of pos
	posErr error        // why there is no position to play; nil once pos is set
	werr   error        // the first error writing to stdout
}

func (fl *hubCmd) run(e *env, _ []string) error {
	h := &hubEngine{e: e, dir: fl.dir, posErr: fmt.Errorf("no position: send pos before go")}
	defer h.close()
	sc := bufio.NewScanner(e.stdin)
	for sc.Scan() && h.werr == nil {
		name, args, err := parseHubLine(sc.Text())
		switch {
		case err != nil:
			h.fail(err)
		case name == "quit":
			return h.werr
		case name != "":
			h.do(name, args)
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("standard input: %w", err)
	}
	return h.werr // end of input: the GUI has gone
}

// do answers the command name with its arguments args. Commands it does
// not know are ignored, as the protocol asks.
func (h *hubEngine) do(name string, args map[string]string) {
	switch name {
	case "hub":
		h.send("id", "name", "dtb", "version", hubVersion(), "author", "dtb authors")
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
	case "pos":
		h.pos, h.clocks, h.posErr = h.readPos(args)
		if h.posErr != nil {
			h.fail(h.posErr)
		}
	case "go":
		h.play()
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
// its clocks clock= and rule2= (0 where left out), and the moves played
// from it, moves="...", each carrying the clocks over it. It returns the
// position after the moves and its clocks.
func (h *hubEngine) readPos(args map[string]string) (draughts.Position, probe.Clocks, error) {
	p, err := draughts.ParsePosition(args["pos"])
	if err != nil {
		return p, probe.Clocks{}, err
	}
	c, err := hubClocks(args)
	if err != nil {
		return p, c, err
	}
	var beyond error // the clocks are unknown: a position was beyond the tables
	for _, s := range strings.Fields(args["moves"]) {
		m, err := p.ParseMove(s)
		if err != nil {
			return p, c, fmt.Errorf("moves: %v", err)
		}
		if beyond == nil || p.Converts(m) {
			c, beyond = h.after(p, c, m)
		}
		p = p.Play(m)
	}
	return p, c, beyond
}

// hubClocks reads the clocks of pos: clock=N, the plies played on the
// class clock, and rule2=N, the plies on the 25-move king count.
func hubClocks(args map[string]string) (probe.Clocks, error) {
	var c probe.Clocks
	for _, name := range []string{"clock", "rule2"} {
		n := &c.Class
		if name == "rule2" {
			n = &c.Rule2
		}
		s, ok := args[name]
		if !ok {
			continue
		}
		v, err := strconv.Atoi(s)
		if err != nil {
			return c, fmt.Errorf("%s=%q: want a number of plies", name, s)
		}
		*n = v
	}
	return c, checkClocks(c, lineForm)
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

// play answers go: the best move of the position under its clocks, with
// the opponent's best answer as ponder, after an info line with the
// position's value and clocks; or an error where it has none.
func (h *hubEngine) play() {
	if h.posErr != nil {
		h.fail(h.posErr)
		return
	}
	t, err := h.tables()
	if err != nil {
		h.fail(err)
		return
	}
	best, ok, err := explore.BestMove(t, h.pos, h.clocks)
	switch {
	case err != nil:
		h.fail(fmt.Errorf("%s", probeError(h.pos, h.dir, err)))
		return
	case !ok:
		h.fail(fmt.Errorf("%s: no legal move: the side to move has lost", h.pos.Hub()))
		return
	}
	h.send("info", "value", best.Move.Value.String(), "clock", strconv.Itoa(h.clocks.Class), "rule2", strconv.Itoa(h.clocks.Rule2))
	done := []string{"move", h.pos.HubMove(best.Move.Move)}
	if next, ok, err := explore.BestMove(t, best.After, best.Move.Clocks); err == nil && ok {
		done = append(done, "ponder", best.After.HubMove(next.Move.Move))
	}
	h.send("done", done...)
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

// hubVersion returns the version of dtb.
func hubVersion() string {
	return version.Version
}
