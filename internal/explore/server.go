package explore

import (
	"context"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"net/http"
	"net/url"
	"runtime"
	"strconv"
	"strings"

	"github.com/dtb-draughts/dtb/draughts"
	"github.com/dtb-draughts/dtb/probe"
	"github.com/dtb-draughts/dtb/rules"
)

// A Server answers over HTTP, read-only, from one probe.Tables shared by
// all requests:
//
//	GET /api/probe?fen=F[&clock=N][&rule2=N]  a Position, as JSON
//	GET /api/line?fen=F[&clock=N][&rule2=N][&plies=N]  a Line, as JSON
//	GET /?fen=F  the explorer's page: a board, the moves, the best line
//	GET /static/...  its script and style, embedded in the binary (web/)
//
// clock and rule2 are the plies played on the class clock and the rule-2
// count (probe.Clocks), 0 if left out. Errors are JSON, {"error": "..."},
// with the status: 400 for a bad query or a position that is not legal,
// 404 for a position whose table (or one its moves need) is not in the
// directory, its error saying what would answer it (Beyond), 503 for a
// damaged or unreadable table, 405 for a method other than GET or HEAD;
// never 500 for what a user sends. At most a bounded number of requests
// probe at once; the others wait their turn.
type Server struct {
	tables   *probe.Tables
	dir      string        // the directories t was opened from, named in Beyond's hint
	searches chan struct{} // a token per probing request
	mux      *http.ServeMux
}

// NewServer returns a Server over t, opened from dir (probe.Open), that
// lets searches requests probe at once (2 per CPU if searches <= 0).
func NewServer(t *probe.Tables, dir string, searches int) *Server {
	if searches <= 0 {
		searches = 2 * runtime.GOMAXPROCS(0)
	}
	s := &Server{tables: t, dir: dir, searches: make(chan struct{}, searches), mux: http.NewServeMux()}
	s.mux.HandleFunc("/api/probe", s.answer(func(q query) (any, error) { return Probe(s.tables, q.pos, q.clocks) }))
	s.mux.HandleFunc("/api/line", s.answer(func(q query) (any, error) {
		return BestLine(s.tables, q.pos, q.clocks, q.plies, draughts.StandardNotation)
	}))
	s.mux.Handle("GET /{$}", page("index.html"))
	s.mux.Handle("GET /static/", http.StripPrefix("/static/", static()))
	s.mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		writeError(w, http.StatusNotFound, fmt.Sprintf("no such page %q: the API is /api/probe?fen=... and /api/line?fen=...", r.URL.Path))
	})
	return s
}

// web holds the explorer's page, script and style.
//
//go:embed web
var web embed.FS

// webFiles are the files of web/.
var webFiles, _ = fs.Sub(web, "web")

// page returns the handler that serves the file name of web/.
func page(name string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.ServeFileFS(w, r, webFiles, name)
	})
}

// static returns the handler of the files of web/ under /static/. A
// path no file can have (not UTF-8, or with ".." in it) is not found, as
// a missing file is: http.FileServerFS answers it 500.
func static() http.Handler {
	files := http.FileServerFS(webFiles)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if name := strings.Trim(r.URL.Path, "/"); name != "" && !fs.ValidPath(name) {
			writeError(w, http.StatusNotFound, fmt.Sprintf("no such file %q", r.URL.Path))
			return
		}
		files.ServeHTTP(w, r)
	})
}

// ServeHTTP serves r.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.mux.ServeHTTP(w, r) }

// answer returns the handler of an API call that computes its answer
// from the query with f.
func (s *Server) answer(f func(query) (any, error)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			writeError(w, http.StatusMethodNotAllowed, "only GET is served")
			return
		}
		q, err := parseQuery(r.URL.Query())
		if err != nil {
			writeError(w, http.StatusBadRequest, err.Error())
			return
		}
		if err := s.acquire(r.Context()); err != nil {
			return // the client left
		}
		v, err := f(q)
		<-s.searches
		if err != nil {
			msg := err.Error()
			if missing := (*probe.MissingError)(nil); errors.As(err, &missing) {
				msg = Beyond(s.dir, rules.MaterialOf(&q.pos), missing)
			}
			writeError(w, statusOf(err), msg)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(v)
	}
}

// acquire waits for a search token, or for ctx to end.
func (s *Server) acquire(ctx context.Context) error {
	select {
	case s.searches <- struct{}{}:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// statusOf returns the HTTP status of an error of Probe or BestLine.
func statusOf(err error) int {
	switch {
	case errors.Is(err, probe.ErrIllegal):
		return http.StatusBadRequest
	case errors.Is(err, probe.ErrMissing):
		return http.StatusNotFound
	}
	return http.StatusServiceUnavailable // a damaged table (codec.ErrCorrupt) or one that cannot be read

}

// writeError writes {"error": msg} with the status.
func writeError(w http.ResponseWriter, status int, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(struct {
		Error string `json:"error"`
	}{msg})
}

// A query is what an API call asks about.
type query struct {
	pos    draughts.Position
	clocks probe.Clocks
	plies  int
}

// maxPlies bounds the plies of a line: no line is longer.
const maxPlies = 1000

// parseQuery parses the parameters of an API call: fen (required), clock
// and rule2 (plies played, 0 or more: at or past its budget a clock has
// run out) and plies (0 to maxPlies). Its errors are one line in the
// user's words.
func parseQuery(v url.Values) (query, error) {
	var q query
	for name := range v {
		switch name {
		case "fen", "clock", "rule2", "plies":
		default:
			return q, fmt.Errorf("unknown parameter %q: the parameters are fen, clock, rule2 and plies", name)
		}
		if len(v[name]) > 1 {
			return q, fmt.Errorf("parameter %q given %d times", name, len(v[name]))
		}
	}
	fen := strings.TrimSpace(v.Get("fen"))
	if fen == "" {
		return q, errors.New(`no position: give one as fen=..., e.g. fen=W:WK10:BK5`)
	}
	var err error
	if q.pos, err = draughts.ParsePosition(fen); err != nil {
		return q, err
	}
	for _, c := range []struct {
		name string
		to   *int
		max  int
	}{{"clock", &q.clocks.Class, math.MaxInt}, {"rule2", &q.clocks.Rule2, math.MaxInt}, {"plies", &q.plies, maxPlies}} {
		s := v.Get(c.name)
		if s == "" {
			continue
		}
		n, err := strconv.Atoi(s)
		if err != nil || n < 0 || n > c.max {
			want := "0 or more"
			if c.max < math.MaxInt {
				want = fmt.Sprintf("from 0 to %d", c.max)
			}
			return q, fmt.Errorf("%s=%.20q: want a number of plies, %s", c.name, s, want)
		}
		*c.to = n
	}
	return q, nil
}
