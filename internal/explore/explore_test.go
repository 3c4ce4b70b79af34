package explore_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/dtb-draughts/dtb/draughts"
	"github.com/dtb-draughts/dtb/internal/explore"
	"github.com/dtb-draughts/dtb/internal/tabletest"
	"github.com/dtb-draughts/dtb/internal/testenv"
	"github.com/dtb-draughts/dtb/probe"
	"github.com/dtb-draughts/dtb/rules"
	"github.com/dtb-draughts/dtb/table"
)

func TestMain(m *testing.M) { os.Exit(tabletest.Run(m)) }

func open(t *testing.T, dir string) *probe.Tables {
	t.Helper()
	tables, err := probe.Open(dir, probe.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tables.Close() })
	return tables
}

func fen(t *testing.T, s string) draughts.Position {
	t.Helper()
	p, err := draughts.ParseFEN(s)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestProbe checks a position's category and its moves against the
// probes of the positions after them: each move's FEN is its position,
// and each move's category is the negation of that position's under the
// move's clocks. A class B win with 2 plies played of 10 is a cursed win
// at 9 plies; with none played a win.
func TestProbe(t *testing.T) {
	tables := open(t, tabletest.Golden)
	p := fen(t, "W:WK2,6:BK50")
	for _, c := range []struct {
		played int
		want   probe.Category
	}{{0, probe.Win}, {2, probe.CursedWin}} {
		pos, err := explore.Probe(tables, p, probe.Clocks{Class: c.played})
		if err != nil {
			t.Fatal(err)
		}
		if pos.Category != c.want || pos.Distance == nil || *pos.Distance != 9 || pos.Clock != "class B" || len(pos.Moves) == 0 {
			t.Fatalf("%d plies played: %+v, want %s at class B distance 9, with moves", c.played, pos, c.want)
		}
		for _, m := range pos.Moves {
			q := fen(t, m.FEN)
			r, err := tables.Probe(q, probe.Clocks{Class: deref(m.ClassPlayed), Rule2: deref(m.Rule2Played)}, 0)
			if err != nil {
				t.Fatal(err)
			}
			if want := probe.CategoryOf(r.Value.Neg(), r.Entry.Theory.Neg()); m.Category != want {
				t.Errorf("%d plies played, %s: category %s, the position after it %s", c.played, m.Move, m.Category, want)
			}
			if m.ClassPlayed == nil || m.Rule2Played != nil { // every move stays in class A or B
				t.Errorf("%s: clocks played %v, %v: want a class count, no rule-2 count", m.Move, m.ClassPlayed, m.Rule2Played)
			}
			if m.ManMove != (m.Move == "6-1") || m.Crowning != (m.Move == "6-1") || m.Capture {
				t.Errorf("%s: man move %v, crowning %v, capture %v", m.Move, m.ManMove, m.Crowning, m.Capture)
			}
		}
		if pos.Moves[0].Move != "2-11" || pos.Moves[0].Category != c.want {
			t.Errorf("%d plies played: best move %+v, want 2-11, %s", c.played, pos.Moves[0], c.want)
		}
	}
}

// TestProbeMoveClocks checks that a move's clocks are labelled by the
// class of the position after it, as BestMove's: a crowning from MvK,
// which has no clock, into class B has 0 plies played on the class
// clock; a capture of the lone king leaves no clock running.
func TestProbeMoveClocks(t *testing.T) {
	tables := open(t, tabletest.Golden)
	for _, s := range []string{"W:W6:BK45", "W:WK1,K2:BK7", "W:WK2,6:BK50"} {
		pos, err := explore.Probe(tables, fen(t, s), probe.Clocks{})
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range pos.Moves {
			r, err := tables.Probe(fen(t, m.FEN), probe.Clocks{Class: deref(m.ClassPlayed), Rule2: deref(m.Rule2Played)}, 0)
			if err != nil {
				t.Fatal(err)
			}
			class, rule2 := explore.Played(r.Class, probe.Clocks{Class: deref(m.ClassPlayed), Rule2: deref(m.Rule2Played)})
			if !reflect.DeepEqual(m.ClassPlayed, class) || !reflect.DeepEqual(m.Rule2Played, rule2) {
				t.Errorf("%s %s: clocks played %s, %s; the position after it (%s) counts %s, %s", s, m.Move, count(m.ClassPlayed), count(m.Rule2Played), r.Class, count(class), count(rule2))
			}
		}
		if s == "W:W6:BK45" && (len(pos.Moves) != 1 || pos.Moves[0].ClassPlayed == nil || *pos.Moves[0].ClassPlayed != 0 || pos.Moves[0].Rule2Played != nil) {
			t.Errorf("%s: moves %+v, want 6-1 into class B with 0 plies played on its clock", s, pos.Moves)
		}
	}
}

// count returns *n as JSON writes it: "null" for nil.
func count(n *int) string {
	if n == nil {
		return "null"
	}
	return fmt.Sprint(*n)
}

// deref returns *n, 0 for nil.
func deref(n *int) int {
	if n == nil {
		return 0
	}
	return *n
}

// TestBestLine follows the best line of the longest class B win: 9
// plies, the winner's moves wins, the loser's losses (a move's category
// is its mover's, as in Probe's moves), to a position
// whose side to move has no move, each move with its number; Black to
// move numbers it from "1...". A drawn position's line holds the draw to
// the third repetition, a cursed win's to the end of its clock.
func TestBestLine(t *testing.T) {
	tables := open(t, tabletest.Golden)
	line, err := explore.BestLine(tables, fen(t, "W:WK2,6:BK50"), probe.Clocks{}, 0, draughts.StandardNotation)
	if err != nil {
		t.Fatal(err)
	}
	if len(line.Moves) != 9 || line.End != "no move" || line.Result != "2-0" || line.Why != "Black has no move: White wins in 5 moves (9 plies)" ||
		!strings.HasPrefix(line.PDN, "1. 2-11 ") || strings.Count(line.PDN, ".") != 5 {
		t.Fatalf("line %+v, want 9 plies to no move, numbered from 1., won by White", line)
	}
	for i, m := range line.Moves {
		if want := []probe.Category{probe.Win, probe.Loss}[i%2]; m.Category != want {
			t.Errorf("ply %d, %s: %s for the side that plays it, want %s", i+1, m.Move, m.Category, want)
		}
		if want := []string{fmt.Sprintf("%d.", 1+i/2), ""}[i%2]; m.Number != want {
			t.Errorf("ply %d, %s: number %q, want %q", i+1, m.Move, m.Number, want)
		}
	}
	if q := fen(t, line.Moves[8].FEN); q.CountMoves() != 0 {
		t.Errorf("the line ends at %s, which has moves", q.FEN())
	}
	// The winner's moves: those of the side not to move at the start in
	// a loss, none in a position already lost.
	for f, why := range map[string]string{"W:W28:B23,K45": "White has no move: Black wins in 3 moves (6 plies)", "B:WK10:B": "Black has no move: White wins"} {
		if l, err := explore.BestLine(tables, fen(t, f), probe.Clocks{}, 0, draughts.StandardNotation); err != nil || l.Why != why {
			t.Errorf("the line of %s: %v, why %q, want %q", f, err, l.Why, why)
		}
	}
	black, err := explore.BestLine(tables, fen(t, "B:WK5:BK10,K40"), probe.Clocks{}, 3, draughts.StandardNotation)
	if err != nil || !strings.HasPrefix(black.PDN, "1... ") || strings.Count(black.PDN, ".") != 4 || len(black.Moves) > 3 ||
		black.Moves[0].Number != "1..." || black.Moves[1].Number != "2." {
		t.Errorf("a line from Black: %+v, %v; want at most 3 plies numbered 1... then 2.", black, err)
	}
	if black.End == "limit" && black.Result != "*" {
		t.Errorf("a line cut short: result %q, want *", black.Result)
	}
	draw, err := explore.BestLine(tables, fen(t, "W:WK1:BK50"), probe.Clocks{}, 0, draughts.StandardNotation)
	if err != nil || draw.End != "repetition" || draw.Result != "1-1" || len(draw.Moves) == 0 || draw.Category != probe.Draw {
		t.Fatalf("a drawn position: %+v, %v; want a line to a repetition", draw, err)
	}
	seen := map[string]int{draw.FEN: 1}
	for _, m := range draw.Moves {
		seen[m.FEN]++
		if m.Category != probe.Draw {
			t.Errorf("the drawn line plays %s to a %s", m.Move, m.Category)
		}
	}
	if last := draw.Moves[len(draw.Moves)-1].FEN; seen[last] != 3 {
		t.Errorf("the drawn line ends at %s, on the board %d times, want 3", last, seen[last])
	}
	cursed, err := explore.BestLine(tables, fen(t, "W:WK2,6:BK50"), probe.Clocks{Class: 2}, 0, draughts.StandardNotation)
	if err != nil || cursed.End != "clock" || cursed.Clock != "class B" || cursed.Result != "1-1" || len(cursed.Moves) != 8 || cursed.Category != probe.CursedWin {
		t.Errorf("a cursed win, 2 plies of 10 played: %+v, %v; want 8 plies to the end of the class B clock", cursed, err)
	}
	for _, c := range []struct {
		line   explore.Line
		clocks probe.Clocks
	}{{line, probe.Clocks{}}, {cursed, probe.Clocks{Class: 2}}} {
		pos, err := explore.Probe(tables, fen(t, c.line.FEN), c.clocks)
		if err != nil {
			t.Fatal(err)
		}
		if got, want := c.line.Moves[0].Category, pos.Moves[0].Category; got != want || want != c.line.Category {
			t.Errorf("%s, %+v: the line's first move %s, the probe's %s, want both the position's %s (the mover's)",
				c.line.FEN, c.clocks, got, want, c.line.Category)
		}
	}
}

// TestBestMove checks the best move of a win, a draw and a position
// without a move: the first root move, the position after it probed
// under the clocks carried over it.
func TestBestMove(t *testing.T) {
	tables := open(t, tabletest.Golden)
	for _, c := range []struct {
		fen   string
		clock int
		after rules.Value // for the side to move after the best move
	}{
		{"W:WK2,6:BK50", 0, rules.Loss},
		{"W:WK2,6:BK50", 2, rules.Draw}, // the clock draws the win in 9
		{"W:WK1:BK50", 0, rules.Draw},
	} {
		p := fen(t, c.fen)
		b, ok, err := explore.BestMove(tables, p, probe.Clocks{Class: c.clock})
		if err != nil || !ok {
			t.Fatalf("%s: %v %v", c.fen, ok, err)
		}
		root, _ := tables.RootMoves(p, probe.Clocks{Class: c.clock})
		if b.Move.Move != root[0].Move || b.After != p.Play(root[0].Move) || b.Move.Clocks.Class != c.clock+1 || b.Result.Value != c.after {
			t.Errorf("%s, clock %d: best %+v, want the first root move, its clock %d and %v after it", c.fen, c.clock, b, c.clock+1, c.after)
		}
	}
	if _, ok, err := explore.BestMove(tables, fen(t, "B:WK10:B"), probe.Clocks{}); ok || err != nil {
		t.Errorf("a position without a move: %v %v, want no best move", ok, err)
	}
}

// get sends a GET to the server and decodes its JSON answer into v.
func get(t *testing.T, s http.Handler, target string, v any) int {
	t.Helper()
	w := httptest.NewRecorder()
	s.ServeHTTP(w, httptest.NewRequest(http.MethodGet, target, nil))
	if ct := w.Header().Get("Content-Type"); ct != "application/json" {
		t.Errorf("%s: Content-Type %q", target, ct)
	}
	if err := json.Unmarshal(w.Body.Bytes(), v); err != nil {
		t.Fatalf("%s: %v in %q", target, err, w.Body.String())
	}
	return w.Code
}

// TestServer checks the API's answers and its errors: a bad query or
// position (400), a position beyond the tables (404, saying how many
// pieces the tables have and what would answer it), a damaged table
// (503), another method (405), another path (404); and that the page and
// its script are served.
func TestServer(t *testing.T) {
	dir := tabletest.Copy(t, tabletest.Golden)
	tabletest.ForgeRules(t, filepath.Join(dir, "MMvM.dtb"), table.Work.Rules())
	s := explore.NewServer(open(t, dir), dir, 2)
	var pos explore.Position
	if code := get(t, s, "/api/probe?fen="+url.QueryEscape("W:WK2,6:BK50")+"&clock=2", &pos); code != 200 || pos.Category != probe.CursedWin || pos.Moves[0].Move != "2-11" {
		t.Errorf("probe: %d %+v", code, pos)
	}
	var line explore.Line
	if code := get(t, s, "/api/line?fen=W:WK2,6:BK50", &line); code != 200 || len(line.Moves) != 9 {
		t.Errorf("line: %d %+v", code, line)
	}
	hub := fen(t, "W:WK2,6:BK50").Hub() // the same position in Hub notation
	var byHub explore.Position
	if code := get(t, s, "/api/probe?fen="+hub+"&clock=2", &byHub); code != 200 || !reflect.DeepEqual(byHub, pos) {
		t.Errorf("probe of %s: %d %+v, want %+v", hub, code, byHub, pos)
	}
	for _, c := range []struct {
		target string
		code   int
		words  string
	}{
		{"/api/probe", 400, "no position"},
		{"/api/probe?fen=W:WK10:BK", 400, `FEN "W:WK10:BK"`},
		{"/api/probe?fen=Weeex", 400, `Hub position "Weeex": 4 squares after the side to move, want 50`},
		{"/api/probe?fen=W:WK10:BK5&clock=-1", 400, "clock="},
		{"/api/probe?fen=W:WK10:BK5&clock=x&rule2=1", 400, "clock="},
		{"/api/probe?fen=W:WK10:BK5&fen=W:WK10:BK5", 400, "given 2 times"},
		{"/api/probe?fen=W:WK10:BK5&depth=3", 400, "unknown parameter"},
		{"/api/probe?fen=W:WK10:B", 400, "game is over"},
		{"/api/probe?fen=W:WK1,K2:BK40,K45", 404, "no table for KKvKK in " + dir + ", whose largest tables have 3 pieces (build it with: dtb gen --only KKvKK --out " + dir + ")"},
		{"/api/probe?fen=W:W31-50:B1-20", 404, "40 pieces, more than any table: the largest in " + dir + " have 3 pieces, and dtb gen builds tables of up to 7"},
		{"/api/line?fen=W:W31-50:B1-20", 404, "40 pieces, more than any table"},
		{"/api/probe?fen=W:W46,47:B5", 503, "MMvM.dtb is damaged"},
		{"/api/line?fen=W:W46,47:B5", 503, "MMvM.dtb is damaged"},
		{"/nope", 404, "no such page"},
		{"/static/%ff", 404, "no such file"},
		{"/static/%c0%ae%c0%ae/etc/passwd", 404, "no such file"},
		{"/api/probe?fen=W:WK10:BK5%00junk", 400, `found '\x00' at column 11`},
	} {
		var e struct{ Error string }
		if code := get(t, s, c.target, &e); code != c.code || !strings.Contains(e.Error, c.words) || strings.Contains(e.Error, "\n") {
			t.Errorf("%s: %d %q, want %d and %q", c.target, code, e.Error, c.code, c.words)
		}
	}
	// A table the manifest lists, missing: the directory is damaged.
	missing := tabletest.Copy(t, tabletest.Golden)
	if err := os.Remove(filepath.Join(missing, "KKvK.dtb")); err != nil {
		t.Fatal(err)
	}
	var e struct{ Error string }
	want := filepath.Join(missing, "KKvK.dtb") + " is listed in MANIFEST.json but missing"
	if code := get(t, explore.NewServer(open(t, missing), missing, 2), "/api/probe?fen=W:WK10,K20:BK5", &e); code != 503 || e.Error != want {
		t.Errorf("a listed table missing: %d %q, want 503 and %q", code, e.Error, want)
	}
	for target, want := range map[string]string{"/?fen=W:WK10:BK5": `<script src="/static/explorer.js">`, "/static/explorer.js": "function parseFEN("} {
		w := httptest.NewRecorder()
		s.ServeHTTP(w, httptest.NewRequest(http.MethodGet, target, nil))
		if w.Code != 200 || !strings.Contains(w.Body.String(), want) {
			t.Errorf("%s: %d, want 200 and %q in it", target, w.Code, want)
		}
	}
	w := httptest.NewRecorder()
	s.ServeHTTP(w, httptest.NewRequest(http.MethodPost, "/api/probe?fen=W:WK10:BK5", nil))
	if w.Code != 405 || w.Header().Get("Allow") != "GET, HEAD" {
		t.Errorf("POST: %d, Allow %q", w.Code, w.Header().Get("Allow"))
	}
}

// FuzzQuery sends arbitrary queries: the server answers each with JSON
// and a status of 200, 400, 404 or 503, never a panic or a 500.
func FuzzQuery(f *testing.F) {
	for _, q := range []string{"fen=W:WK10:BK5", "fen=W:WK2,6:BK50&clock=3", "fen=B:W1:B", "rule2=99&fen=W:WK1,K2:BK40,K45", "fen=%zz", "plies=1000&fen=W:WK10:BK5"} {
		f.Add(q)
	}
	tables, err := probe.Open(tabletest.Golden, probe.Options{})
	if err != nil {
		f.Fatal(err)
	}
	s := explore.NewServer(tables, tabletest.Golden, 2)
	f.Fuzz(func(t *testing.T, query string) {
		r := httptest.NewRequest(http.MethodGet, "/api/probe", nil)
		r.URL.RawQuery = query
		w := httptest.NewRecorder()
		s.ServeHTTP(w, r)
		switch w.Code {
		case 200, 400, 404, 503:
		default:
			t.Fatalf("%q: status %d", query, w.Code)
		}
		if !json.Valid(w.Body.Bytes()) {
			t.Fatalf("%q: not JSON: %q", query, w.Body.String())
		}
	})
}

// loadQueries are the mixed requests of the concurrent test and the load
// benchmark: valid, malformed and beyond the tables, with their status.
var loadQueries = []struct {
	target string
	code   int
}{
	{"/api/probe?fen=W:WK10:BK5", 200},
	{"/api/probe?fen=W:WK2,6:BK50&clock=3", 200},
	{"/api/line?fen=W:WK2,6:BK50", 200},
	{"/api/probe?fen=W:W28:B3", 200},
	{"/api/probe?fen=W:WK10:BK", 400},
	{"/api/probe?fen=W:WK10:BK5&clock=zz", 400},
	{"/api/probe?fen=W:WK1,K2:BK40,K45", 404},
}

// TestServerConcurrent sends the mixed requests from 32 goroutines at a
// server that lets 2 probe at once, through a real loopback connection:
// every answer has its status.
func TestServerConcurrent(t *testing.T) {
	srv := httptest.NewServer(explore.NewServer(open(t, tabletest.Golden), tabletest.Golden, 2))
	defer srv.Close()
	errs := make(chan error, 32)
	for g := range 32 {
		go func() {
			for i := range 20 {
				q := loadQueries[(g+i)%len(loadQueries)]
				resp, err := srv.Client().Get(srv.URL + q.target)
				if err != nil {
					errs <- err
					return
				}
				resp.Body.Close()
				if resp.StatusCode != q.code {
					errs <- fmt.Errorf("%s: %d, want %d", q.target, resp.StatusCode, q.code)
					return
				}
			}
			errs <- nil
		}()
	}
	for range 32 {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
}

// BenchmarkServer sends the mixed requests from 64 clients over loopback
// and reports requests a second and the 50th and 99th percentile
// latencies; a request answered with another status than its own fails.
//
//	go test ./explore -run '^$' -bench Server -benchtime 30s
func BenchmarkServer(b *testing.B) {
	tables, err := probe.Open(tabletest.Golden, probe.Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer tables.Close()
	srv := httptest.NewServer(explore.NewServer(tables, tabletest.Golden, 0))
	defer srv.Close()
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 64}}
	var mu sync.Mutex
	var latencies []time.Duration
	var next atomic.Int64
	b.SetParallelism(64 / runtime.GOMAXPROCS(0))
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		var mine []time.Duration
		for pb.Next() {
			q := loadQueries[int(next.Add(1))%len(loadQueries)]
			start := time.Now()
			resp, err := client.Get(srv.URL + q.target)
			if err != nil {
				b.Error(err)
				return
			}
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			mine = append(mine, time.Since(start))
			if resp.StatusCode != q.code {
				b.Errorf("%s: %d, want %d", q.target, resp.StatusCode, q.code)
				return
			}
		}
		mu.Lock()
		latencies = append(latencies, mine...)
		mu.Unlock()
	})
	slices.Sort(latencies)
	if n := len(latencies); n > 0 {
		b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "requests/s")
		b.ReportMetric(float64(latencies[n/2].Microseconds()), "p50-µs")
		b.ReportMetric(float64(latencies[n*99/100].Microseconds()), "p99-µs")
	}
}

// TestLongestLines follows the best line from the longest theoretical
// win of every table without a clock (the header's longest_dtw_fen): it
// takes exactly the published dtw, to a position whose side to move has
// no move. The golden tables up to 3 pieces; under DTB_LONG=1 those up to
// 4 pieces too.
func TestLongestLines(t *testing.T) {
	dirs := []string{tabletest.Golden}
	if testenv.Long() {
		dirs = append(dirs, tabletest.Four.Dir(t))
	}
	n := 0
	for _, dir := range dirs {
		tables := open(t, dir)
		for _, m := range tables.Materials() {
			info, err := tables.Info(m)
			if err != nil {
				t.Fatal(err)
			}
			s := info.Stats
			if rules.ClassOf(m) != rules.NoClass || s.LongestDTWFEN == "" {
				continue
			}
			line, err := explore.BestLine(tables, fen(t, s.LongestDTWFEN), probe.Clocks{}, 0, draughts.StandardNotation)
			if err != nil || len(line.Moves) != s.LongestDTW || line.End != "no move" {
				t.Errorf("%s, %s: a line of %d plies to %q (%v), want the dtw %d to no move", m, s.LongestDTWFEN, len(line.Moves), line.End, err, s.LongestDTW)
			}
			n++
		}
	}
	if n < 4 {
		t.Errorf("%d lines followed", n)
	}
	t.Logf("%d lines followed", n)
}

// TestAnnotate plays the best line of the longest class B win but for
// White's third move, a drawing one: that move is marked, with the
// winning move beside it, and no other; an illegal move is an
// IllegalError naming its ply.
func TestAnnotate(t *testing.T) {
	tables := open(t, tabletest.Golden)
	start := fen(t, "W:WK2,6:BK50")
	line, err := explore.BestLine(tables, start, probe.Clocks{}, 0, draughts.StandardNotation)
	if err != nil {
		t.Fatal(err)
	}
	moves := []string{line.Moves[0].Move, line.Moves[1].Move, line.Moves[2].Move, line.Moves[3].Move}
	// Ply 5: a draw instead of 11-6.
	p := start
	for _, s := range moves {
		m, _ := p.ParseMove(s)
		p = p.Play(m)
	}
	pos, err := explore.Probe(tables, p, probe.Clocks{Class: 4})
	if err != nil {
		t.Fatal(err)
	}
	var slip string
	for _, m := range pos.Moves {
		if m.Category == probe.Draw {
			slip = m.Move
			break
		}
	}
	if slip == "" || pos.Moves[0].Category != probe.Win {
		t.Fatalf("%s: no drawing move beside a win: %+v", p.FEN(), pos.Moves)
	}
	marks, err := explore.Annotate(tables, start, append(moves, slip))
	if err != nil {
		t.Fatal(err)
	}
	want := explore.Mark{Ply: 5, Move: slip, Before: probe.Win, After: probe.Draw, Best: pos.Moves[0].Move}
	if len(marks) != 1 || marks[0] != want {
		t.Errorf("marks %+v, want %+v", marks, want)
	}
	var bad *explore.IllegalError
	if _, err := explore.Annotate(tables, start, []string{"2-11", "50-46"}); !errors.As(err, &bad) || bad.Ply != 2 || !strings.HasPrefix(err.Error(), "ply 2: move \"50-46\" is not legal") {
		t.Errorf("an illegal move: %v, want an IllegalError at ply 2", err)
	}
}

// TestPageWords runs the explorer's script in node on answers of the API
// and checks the words of its distances: each in plies, a win or loss
// in the winner's moves, as dtb probe says them; and that the page
// says what a cursed win is and in what the clocks count.
func TestPageWords(t *testing.T) {
	page, err := os.ReadFile(filepath.Join("web", "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"a <span class=\"cursed-win\">cursed win</span> is a win in theory that the 16-move, 5-move or 25-move rule makes a draw",
		"class clock: plies played", "rule-2 count: plies played", "a move of each side is 2 plies"} {
		if !strings.Contains(string(page), want) {
			t.Errorf("web/index.html does not say %q", want)
		}
	}
	node := testenv.Tool(t, "node", "nodejs")
	script, err := os.ReadFile(filepath.Join("web", "explorer.js"))
	if err != nil {
		t.Fatal(err)
	}
	src, ok := strings.CutSuffix(string(script), "\ninit();\n")
	if !ok {
		t.Fatal("web/explorer.js does not end with init();")
	}
	cases := []struct {
		side, answer, want string
	}{
		{"White", `{"rules":"win","theory":"win","distance":9,"clock":"class B","dtw":9,"mtc":null}`, "White wins in 5 moves (dtw 9 plies), distance 9 plies on the class B clock"},
		{"White", `{"rules":"draw","theory":"win","distance":9,"clock":"class B","dtw":9,"mtc":null}`, "White wins in theory in 5 moves (dtw 9 plies), distance 9 plies on the class B clock"},
		{"Black", `{"rules":"win","theory":"win","distance":1,"clock":"rule 2","dtw":3,"mtc":1}`, "Black wins in 2 moves (dtw 3 plies), distance 1 ply on the rule-2 count, mtc 1 ply"},
		{"White", `{"rules":"loss","theory":"loss","distance":null,"dtw":6,"mtc":null}`, "Black wins in 3 moves (dtw 6 plies)"},
		{"Black", `{"rules":"loss","theory":"loss","distance":0,"clock":"none","dtw":0,"mtc":0}`, "White has won (dtw 0 plies), distance 0 plies, mtc 0 plies"},
		{"White", `{"rules":"draw","theory":"draw","distance":null,"dtw":null,"mtc":null}`, ""},
	}
	for _, c := range cases {
		src += fmt.Sprintf("\nconsole.log(distances(%s, %q));", c.answer, c.side)
	}
	out, err := exec.Command(node, "-e", src).CombinedOutput()
	if err != nil {
		t.Fatalf("node: %v\n%s", err, out)
	}
	got := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
	for i, c := range cases {
		if i >= len(got) || got[i] != c.want {
			t.Errorf("distances(%s, %s): got %q, want %q", c.answer, c.side, got, c.want)
		}
	}
}
