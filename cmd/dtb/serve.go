package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/spf13/pflag"

	"github.com/dtb-draughts/dtb/draughts"
	"github.com/dtb-draughts/dtb/internal/explore"
	"github.com/dtb-draughts/dtb/internal/pdn"
	"github.com/dtb-draughts/dtb/probe"
)

func init() {
	register(&command{
		name: "serve", args: "", summary: "the endgame explorer over HTTP: its page at /?fen=..., its JSON API at /api/probe?fen=... and /api/line?fen=...",
		flags: func(fs *pflag.FlagSet) func(*env, []string) error {
			fl := &serveCmd{}
			tablesFlag(fs, &fl.dir)
			fs.StringVar(&fl.addr, "addr", "127.0.0.1:8080", "address to listen on; localhost only unless another host is given")
			fs.IntVar(&fl.searches, "searches", 0, "requests probing at once, the others waiting (default 2 per CPU)")
			return fl.run
		},
	})
	register(&command{
		name: "line", args: "FEN", summary: "the best line from a position to the end of the game, in PDN: the win or loss played out, or the draw held",
		flags: func(fs *pflag.FlagSet) func(*env, []string) error {
			fl := &lineCmd{}
			tablesFlag(fs, &fl.dir)
			fs.BoolVar(&fl.asJSON, "json", false, `the line as JSON: {"fen":…,"category":"win","moves":[{"number":"1.","move":"2-11","fen":…,"category":"win"},…],"pdn":"1. 2-11 …","end":"no move","result":"2-0"}`)
			fl.register(fs, "plies already played on the class clock of class A and B positions (as dtb probe)", "plies already on the count of the 25-move king rule (as dtb probe)")
			fs.IntVar(&fl.plies, "plies", explore.DefaultPlies, "the most plies of the line")
			fs.StringVar(&fl.notation, "notation", "standard", notationUsage)
			return fl.run
		},
	})
}

// exposed returns a warning where a server listening on addr can be
// reached from other machines, for its API has no authentication; ""
// on a loopback address.
func exposed(addr net.Addr) string {
	tcp, ok := addr.(*net.TCPAddr)
	if !ok || tcp.IP.IsLoopback() {
		return ""
	}
	where := "on " + tcp.IP.String()
	if tcp.IP.IsUnspecified() {
		where = "on every interface"
	}
	return fmt.Sprintf("dtb serve: warning: listening %s: other machines can query the tables, without authentication (--addr 127.0.0.1:%d serves this machine alone)", where, tcp.Port)
}

// serveCmd holds the flags of one run of dtb serve.
type serveCmd struct {
	dir      string
	addr     string
	searches int
}

func (fl *serveCmd) run(e *env, args []string) error {
	t, err := probe.Open(fl.dir, probe.Options{})
	if err != nil {
		return err
	}
	defer t.Close()
	ln, err := net.Listen("tcp", fl.addr)
	if err != nil {
		return fmt.Errorf("cannot listen on %s: %v (choose another with --addr)", fl.addr, errors.Unwrap(err))
	}
	srv := &http.Server{
		Handler:           explore.NewServer(t, fl.dir, fl.searches),
		ReadHeaderTimeout: 5 * time.Second,
		ReadTimeout:       10 * time.Second,
		WriteTimeout:      60 * time.Second,
		IdleTimeout:       2 * time.Minute,
		MaxHeaderBytes:    16 << 10,
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	go func() {
		<-ctx.Done()
		shut, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		srv.Shutdown(shut)
	}()
	fmt.Fprintf(e.stderr, "dtb serve: the explorer of the tables of %s on http://%s/ (its JSON API: /api/probe?fen=..., /api/line?fen=...; interrupt to stop)\n", fl.dir, ln.Addr())
	if w := exposed(ln.Addr()); w != "" {
		fmt.Fprintln(e.stderr, w)
	}
	if err := srv.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// lineCmd holds the flags of one run of dtb line.
type lineCmd struct {
	dir    string
	asJSON bool
	clockFlags
	plies    int
	notation string
}

func (fl *lineCmd) run(e *env, args []string) error {
	if len(args) != 1 {
		return badInput("want one FEN, got %d arguments", len(args))
	}
	if fl.plies < 1 {
		return badInput("--plies %d: want at least 1", fl.plies)
	}
	n, err := moveNotation(fl.notation)
	if err != nil {
		return err
	}
	p, err := parseFEN(args[0])
	if err != nil {
		return err
	}
	t, err := probe.Open(fl.dir, probe.Options{})
	if err != nil {
		return err
	}
	defer t.Close()
	line, err := explore.BestLine(t, p, fl.clocks(), fl.plies, n)
	if err != nil {
		return errors.New(probeError(p, fl.dir, err))
	}
	if fl.asJSON {
		return json.NewEncoder(e.stdout).Encode(line)
	}
	return lineGame(p, line).Write(e.stdout, map[int]string{len(line.Moves): lineEnd(line)})
}

// lineGame returns the line from p as a PDN game: its result, the game
// type of international draughts (GameType 20) and its start, then its
// moves.
func lineGame(p draughts.Position, line explore.Line) *pdn.Game {
	g := &pdn.Game{Tags: []pdn.Tag{{Name: "Result", Value: line.Result}, {Name: "GameType", Value: "20"}, {Name: "FEN", Value: line.FEN}},
		Start: p, Result: line.Result}
	for _, m := range line.Moves {
		g.Moves = append(g.Moves, m.Move)
	}
	return g
}

// lineEnd says why line ends, in words, for the comment after its last
// move; a cursed win or blessed loss says so first.
func lineEnd(line explore.Line) string {
	end := line.Why
	if line.End == "limit" {
		end = fmt.Sprintf("%d plies, %s: ask for more with --plies", len(line.Moves), line.Why)
	}
	if line.Category == probe.CursedWin || line.Category == probe.BlessedLoss {
		end = fmt.Sprintf("a %s in theory, drawn under the rules: %s", map[probe.Category]string{probe.CursedWin: "win", probe.BlessedLoss: "loss"}[line.Category], end)
	}
	return end
}
