package reader

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/dtb-draughts/dtb/codec"
	"github.com/dtb-draughts/dtb/draughts"
	"github.com/dtb-draughts/dtb/index"
	"github.com/dtb-draughts/dtb/internal/testenv"
	"github.com/dtb-draughts/dtb/rules"
	"github.com/dtb-draughts/dtb/table"
)

// dir and plain hold the golden tables (see ../../testdata/README.md):
// every table up to 3 pieces, with and without the dtw column.
var (
	dir   = filepath.Join("..", "..", "testdata", "golden")
	plain = filepath.Join("..", "..", "testdata", "golden-plain")
)

func open(tb testing.TB, dir string, o Options) *Tables {
	tb.Helper()
	t, err := Open(dir, o)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { t.Close() })
	return t
}

func mustProbe(tb testing.TB, t *Tables, p draughts.Position) rules.Entry {
	tb.Helper()
	r, err := t.Probe(p, Clocks{}, 0)
	if err != nil {
		tb.Fatalf("%s: %v", p, err)
	}
	return r.Entry
}

func fen(tb testing.TB, s string) draughts.Position {
	tb.Helper()
	p, err := draughts.ParseFEN(s)
	if err != nil {
		tb.Fatal(err)
	}
	return p
}

// recompute returns what the rules say p is worth given the probes of its
// successors: the min-max of docs/rules.md, with the class clocks carried
// over each move as rules.Entry.RulesOutcome says. It shares no code with
// Probe beyond package table.
func recompute(t *Tables, p draughts.Position) (rules.Entry, error) {
	class := rules.ClassOf(rules.MaterialOf(&p))
	var theory, ru []rules.Outcome
	for _, m := range p.Moves(nil) {
		q := p.Play(m)
		r, err := t.Probe(q, Clocks{}, 0)
		if err != nil {
			return rules.Entry{}, err
		}
		s := r.Entry
		theory = append(theory, rules.Outcome{Value: s.Theory, Dist: s.DTW})
		o := rules.Outcome{Value: rules.Loss} // q's side to move has no pieces: lost
		switch {
		case q.Pieces(q.Side) == 0:
		case !m.IsCapture() && p.Kings&draughts.Bit(m.FromSquare()) != 0:
			o = s.KingMoveOutcome(class)
		default:
			o = s.RulesOutcome(class, rules.ClassOf(rules.MaterialOf(&q)))
		}
		ru = append(ru, o)
	}
	return rules.NewEntry(class, best(theory), best(ru)), nil
}

// best returns the outcome of a position whose moves lead to outs, by
// the rule of rules.Minimax.
func best(outs []rules.Outcome) rules.Outcome {
	var m rules.Minimax
	for _, o := range outs {
		m.Add(o)
	}
	return m.Outcome()
}

// storedEntries returns a function giving entry i of the file of m as
// written.
func storedEntries(tb testing.TB, m index.Material) func(i int64) rules.Entry {
	tb.Helper()
	f, err := table.Open(filepath.Join(dir, table.FileName(m)), m)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	cols, err := f.ReadColumns()
	if err != nil {
		tb.Fatal(err)
	}
	return func(i int64) rules.Entry {
		e, _ := cols.Entry(i)
		return e
	}
}

// TestEveryPosition checks every position up to 3 pieces. Its probe
// equals the file's entry when quiet, and the probes add up to the stats
// in the file header. Its probe and that with Black to move are the
// min-max over their successors' probes (capture positions as well as
// quiet ones), and its colour flip probes the same: for every position
// under DTB_LONG=1, for a sample without.
func TestEveryPosition(t *testing.T) {
	tables := open(t, dir, Options{})
	for _, m := range index.Materials(3) {
		x := index.New(m)
		stored := storedEntries(t, m)
		var stats table.Stats
		errs := 0
		stride := testenv.Stride(1, 5) // the successors of a sample without DTB_LONG=1
		for i := range x.Size() {
			w := rules.Position(x.Unrank(i))
			r := mustProbe(t, tables, w)
			stats.Add(rules.ClassOf(m), r, w.HasCapture(), w.FEN)
			if !w.HasCapture() && stored(i) != r {
				t.Errorf("%s: probe %+v, stored %+v", w, r, stored(i))
				errs++
			}
			if i%stride == 0 {
				errs += checkSuccessors(t, tables, w, r)
			}
			if errs > 10 {
				t.Fatal("too many errors")
			}
		}
		h, err := tables.Header(m)
		if err != nil {
			t.Fatal(err)
		}
		var want table.Stats
		if err := json.Unmarshal([]byte(h.Meta["stats"]), &want); err != nil {
			t.Fatal(err)
		}
		if stats != want {
			t.Errorf("%s: stats of the probes %+v, stored %+v", m, stats, want)
		}
	}
}

// checkSuccessors checks that the probes of w, whose probe is r, and of
// w with Black to move are the min-max over their successors' probes,
// and that w's colour flip probes as w. It returns the errors reported.
func checkSuccessors(t *testing.T, tables *Tables, w draughts.Position, r rules.Entry) (errs int) {
	t.Helper()
	b := w
	b.Side = draughts.Black
	for _, p := range []draughts.Position{w, b} {
		got, err := tables.Probe(p, Clocks{}, 0)
		want, werr := recompute(tables, p)
		if err != nil || werr != nil || got.Entry != want {
			t.Errorf("%s: probe %+v %v, from the successors %+v %v", p, got, err, want, werr)
			errs++
		}
	}
	if flip := mustProbe(t, tables, w.Flip()); flip != r {
		t.Errorf("%s: %+v but its flip %s: %+v", w, r, w.Flip(), flip)
		errs++
	}
	return errs
}

// TestWithoutDTW checks that tables without the dtw column give the same
// values and distances, and DTW -1.
func TestWithoutDTW(t *testing.T) {
	with, without := open(t, dir, Options{}), open(t, plain, Options{})
	for _, m := range index.Materials(3) {
		x := index.New(m)
		for i := int64(0); i < x.Size(); i += testenv.Stride(1, 1) {
			p := rules.Position(x.Unrank(i))
			want := mustProbe(t, with, p)
			want.DTW = -1
			if got := mustProbe(t, without, p); got != want {
				t.Fatalf("%s: without dtw %+v, want %+v", p, got, want)
			}
		}
	}
}

func TestKnownFacts(t *testing.T) {
	tables := open(t, dir, Options{})
	win := func(dist, dtw int) rules.Entry {
		return rules.Entry{Rules: rules.Win, Theory: rules.Win, Distance: dist, DTW: dtw, MTC: -1}
	}
	for _, c := range []struct {
		fen  string
		want rules.Entry
	}{
		{"W:WK10:BK5", win(3, 3)},  // the longest KvK win (5-move rule: class B)
		{"B:WK46:BK41", win(3, 3)}, // its colour flip
		{"W:WK2:BK26", rules.Entry{Rules: rules.Draw, Theory: rules.Draw, Distance: -1, DTW: -1, MTC: -1}},
		{"W:W28:BK23", win(-1, 1)}, // MvK, no class: 28x19 ends the game
		{"W:W6:BK1", rules.Entry{Rules: rules.Loss, Theory: rules.Loss, Distance: -1, MTC: -1}}, // blocked
		{"B:WK10", rules.Entry{Rules: rules.Loss, Theory: rules.Loss}},
	} {
		if r := mustProbe(t, tables, fen(t, c.fen)); r != c.want {
			t.Errorf("%s: %+v, want %+v", c.fen, r, c.want)
		}
	}
	kvk := index.New(index.Material{WhiteKings: 1, BlackKings: 1})
	longest := 0
	for i := range kvk.Size() {
		p := rules.Position(kvk.Unrank(i))
		r := mustProbe(t, tables, p)
		if p.HasCapture() && r != (rules.Entry{Rules: rules.Win, Theory: rules.Win, Distance: 1, DTW: 1, MTC: -1}) {
			t.Errorf("%s: a king that takes the other: %+v, want a win at distance 1", p, r)
		}
		if r.Rules == rules.Win {
			longest = max(longest, r.Distance)
		}
	}
	if longest != 3 {
		t.Errorf("longest KvK win %d plies, want 3", longest)
	}
}

func TestErrors(t *testing.T) {
	tables := open(t, dir, Options{})
	for _, s := range []string{"W:WK10", "B:W:BK10"} {
		if r, err := tables.Probe(fen(t, s), Clocks{}, 0); !errors.Is(err, ErrIllegal) {
			t.Errorf("%s (the side not to move has no pieces): %+v %v, want ErrIllegal", s, r, err)
		}
	}
	for _, s := range []string{"W", "B:W:B"} {
		if r, err := tables.Probe(fen(t, s), Clocks{}, 0); !errors.Is(err, ErrIllegal) || err.Error() != fen(t, s).FEN()+": no pieces on the board" {
			t.Errorf("%s (no pieces at all): %+v %v, want ErrIllegal", s, r, err)
		}
	}
	illegal := draughts.Position{White: draughts.Bit(3), Black: draughts.Bit(30)} // a white man on its crowning row
	if _, err := tables.Probe(illegal, Clocks{}, 0); !errors.Is(err, ErrIllegal) {
		t.Errorf("a man on its crowning row: %v, want ErrIllegal", err)
	}
	_, err := tables.Probe(fen(t, "W:WK1,K2,K3:BK40,K45"), Clocks{}, 0)
	if !errors.Is(err, ErrMissing) || !strings.Contains(err.Error(), "KKKvKK") {
		t.Errorf("5 pieces: %v, want ErrMissing naming KKKvKK", err)
	}
	many := draughts.Position{White: draughts.Board &^ draughts.WhiteCrown &^ draughts.Bit(25), Black: draughts.Bit(25)}
	if _, err := tables.Probe(many, Clocks{}, 0); !errors.Is(err, ErrMissing) {
		t.Errorf("44 white men (beyond Material.Slot): %v, want ErrMissing", err)
	}
	if _, err := tables.Header(index.Material{WhiteKings: 5, BlackKings: 1}); !errors.Is(err, ErrMissing) {
		t.Errorf("Header of a missing table: %v, want ErrMissing", err)
	}
	if _, err := Open(t.TempDir(), Options{}); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Open without a manifest: %v, want fs.ErrNotExist", err)
	}
}

// TestCorrupt damages a block of one copied table and the header of
// another: probes that need them fail with codec.ErrCorrupt naming the
// file, and the others still work.
func TestCorrupt(t *testing.T) {
	bad := t.TempDir()
	if err := os.CopyFS(bad, os.DirFS(dir)); err != nil {
		t.Fatal(err)
	}
	flip := func(name string, at func(size int) int) {
		path := filepath.Join(bad, name)
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		b[at(len(b))] ^= 0x55
		if err := os.WriteFile(path, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	flip("KKvK.dtb", func(size int) int { return size - 10 }) // the last block
	flip("KvM.dtb", func(int) int { return 30 })              // the header
	tables := open(t, bad, Options{})
	for _, c := range []struct{ fen, file string }{
		{"W:WK1,K2:BK45", "KKvK.dtb is damaged (block"}, // reads the damaged block
		{"W:W28:B23,K45", "KvM.dtb"},                    // 28x19 leads to KvM, Black to move
	} {
		_, err := tables.Probe(fen(t, c.fen), Clocks{}, 0)
		if !errors.Is(err, codec.ErrCorrupt) || !strings.Contains(err.Error(), c.file) {
			t.Errorf("%s: %v, want codec.ErrCorrupt naming %s", c.fen, err, c.file)
		}
	}
	if r := mustProbe(t, tables, fen(t, "W:WK10:BK5")); r.Rules != rules.Win {
		t.Errorf("KvK with other tables damaged: %+v", r)
	}
}

// TestConcurrent probes the same positions from many goroutines through
// a small cache and compares with the results of one goroutine.
func TestConcurrent(t *testing.T) {
	var positions []draughts.Position
	for _, name := range []string{"KvK", "KKvK", "KvKM", "KMvM", "MvMM"} {
		m, _ := index.ParseMaterial(name)
		x := index.New(m)
		for i := int64(0); i < x.Size(); i += 13 {
			positions = append(positions, rules.Position(x.Unrank(i)))
		}
	}
	want := make([]rules.Entry, len(positions))
	ref := open(t, dir, Options{})
	for i, p := range positions {
		want[i] = mustProbe(t, ref, p)
	}
	tables := open(t, dir, Options{CacheBytes: 512 << 10}) // two blocks at most: evicts
	var wg sync.WaitGroup
	for g := range 16 {
		wg.Go(func() {
			for k := range positions {
				i := (k + g*len(positions)/16) % len(positions)
				if r, err := tables.Probe(positions[i], Clocks{}, 0); err != nil || r.Entry != want[i] {
					t.Errorf("%s: %+v %v, want %+v", positions[i], r, err, want[i])
					return
				}
			}
		})
	}
	wg.Wait()
	if used := tables.cache.Used(); used > tables.cacheBytes {
		t.Errorf("cache holds %d bytes, more than its %d", used, tables.cacheBytes)
	}
}

// positions returns n random positions of KMvK (value, distance and dtw
// columns) with a capture or without, as capture says.
func positions(n int, capture bool) []draughts.Position {
	x := index.New(index.Material{WhiteKings: 1, WhiteMen: 1, BlackKings: 1})
	rng := rand.New(rand.NewPCG(1, 2))
	var out []draughts.Position
	for len(out) < n {
		p := rules.Position(x.Unrank(rng.Int64N(x.Size())))
		if p.HasCapture() == capture {
			out = append(out, p)
		}
	}
	return out
}

// benchmark calls probe on the positions in turn from GOMAXPROCS
// goroutines (go test -cpu 1,2 sets it), after probing each once with
// tables.Probe, and reports the wall time per call, all goroutines
// together, in ns/probe.
func benchmark(b *testing.B, tables *Tables, positions []draughts.Position, probe func(draughts.Position) error) {
	benchmarkUnit(b, "ns/probe", tables, positions, probe)
}

// benchmarkUnit is benchmark with the wall time per call reported in unit.
func benchmarkUnit(b *testing.B, unit string, tables *Tables, positions []draughts.Position, probe func(draughts.Position) error) {
	for _, p := range positions {
		mustProbe(b, tables, p)
	}
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		i := rand.IntN(len(positions))
		for pb.Next() {
			if err := probe(positions[i%len(positions)]); err != nil {
				b.Error(err)
				return
			}
			i++
		}
	})
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N), unit)
}

// BenchmarkProbe probes quiet positions whose blocks are cached.
func BenchmarkProbe(b *testing.B) {
	tables := open(b, dir, Options{})
	benchmark(b, tables, positions(4096, false), func(p draughts.Position) error {
		_, err := tables.Probe(p, Clocks{}, 0)
		return err
	})
}

// BenchmarkProbeCached is BenchmarkProbe with CacheOnly.
func BenchmarkProbeCached(b *testing.B) {
	tables := open(b, dir, Options{})
	benchmark(b, tables, positions(4096, false), func(p draughts.Position) error {
		_, err := tables.Probe(p, Clocks{}, CacheOnly)
		return err
	})
}

// BenchmarkValue is BenchmarkProbeCached under the clocks of a game in
// progress: a class clock partly spent, a rule-2 count under way.
func BenchmarkValue(b *testing.B) {
	tables := open(b, dir, Options{})
	c := Clocks{Class: 5, Rule2: 20}
	benchmark(b, tables, positions(4096, false), func(p draughts.Position) error {
		_, err := tables.Probe(p, c, CacheOnly)
		return err
	})
}

// BenchmarkProbeCapture probes positions whose side to move must capture:
// a search over the captures, each successor probed from the cache.
func BenchmarkProbeCapture(b *testing.B) {
	tables := open(b, dir, Options{})
	benchmark(b, tables, positions(4096, true), func(p draughts.Position) error {
		_, err := tables.Probe(p, Clocks{}, 0)
		return err
	})
}

// BenchmarkProbeDecode probes quiet positions through a cache too small
// for a block: every probe reads and decodes its block (from the page
// cache of the operating system).
func BenchmarkProbeDecode(b *testing.B) {
	tables := open(b, dir, Options{CacheBytes: 1})
	benchmark(b, tables, positions(4096, false), func(p draughts.Position) error {
		_, err := tables.Probe(p, Clocks{}, 0)
		return err
	})
}

// benchDir returns the tables BenchmarkPieces reads: the directory named
// by $DTB_BENCH_DIR, or the golden tables.
func benchDir() string { return cmp.Or(os.Getenv("DTB_BENCH_DIR"), dir) }

// quiet returns n random positions of n-piece tables of t without a
// capture, White to move, drawn uniformly from the positions the tables
// store, or nil if t has no n-piece table.
func quiet(t *Tables, pieces, n int) []draughts.Position {
	var xs []*index.Index
	var ends []int64 // ends[k]: positions of xs[:k+1]
	for _, m := range t.Materials() {
		if m.Pieces() == pieces {
			xs = append(xs, index.New(m))
			ends = append(ends, xs[len(xs)-1].Size())
			if k := len(ends); k > 1 {
				ends[k-1] += ends[k-2]
			}
		}
	}
	if xs == nil {
		return nil
	}
	rng := rand.New(rand.NewPCG(uint64(pieces), 3))
	var out []draughts.Position
	for len(out) < n {
		i := rng.Int64N(ends[len(ends)-1])
		k, _ := slices.BinarySearch(ends, i+1)
		if k > 0 {
			i -= ends[k-1]
		}
		if p := rules.Position(xs[k].Unrank(i)); !p.HasCapture() {
			out = append(out, p)
		}
	}
	return out
}

// BenchmarkPieces reports, for each piece count of the tables in
// benchDir, the wall time of a probe of a random quiet position
// (pieces=N/cached: with CacheOnly, its blocks in the cache;
// cached-values-only: with ValuesOnly too), of one that reads and decodes
// its blocks, every column (pieces=N/decode: through a cache too small
// for a block; values-only: the value block alone), and of reading the
// block of the values or of the distances alone as the cache keeps it
// (pieces=N/values, pieces=N/distances, in ns/block, over the positions
// whose table has them). The 1024 positions of a piece count lie in up to
// 1024 blocks, which the cache of 1 GiB holds.
//
//	DTB_BENCH_DIR=tables go test ./internal/reader -run '^$' -bench Pieces -cpu 1
func BenchmarkPieces(b *testing.B) {
	cached, decode := open(b, benchDir(), Options{CacheBytes: 1 << 30}), open(b, benchDir(), Options{CacheBytes: 1})
	for n := 2; n <= maxPieces; n++ {
		ps := quiet(cached, n, 1024)
		if ps == nil {
			continue
		}
		b.Run(fmt.Sprintf("pieces=%d/cached", n), func(b *testing.B) {
			benchmark(b, cached, ps, func(p draughts.Position) error {
				_, err := cached.Probe(p, Clocks{}, CacheOnly)
				return err
			})
		})
		b.Run(fmt.Sprintf("pieces=%d/decode", n), func(b *testing.B) {
			benchmark(b, decode, ps, func(p draughts.Position) error {
				_, err := decode.Probe(p, Clocks{}, 0)
				return err
			})
		})
		b.Run(fmt.Sprintf("pieces=%d/cached-values-only", n), func(b *testing.B) {
			benchmark(b, cached, ps, func(p draughts.Position) error {
				_, err := cached.Probe(p, Clocks{}, CacheOnly|ValuesOnly)
				return err
			})
		})
		b.Run(fmt.Sprintf("pieces=%d/values-only", n), func(b *testing.B) {
			benchmark(b, decode, ps, func(p draughts.Position) error {
				_, err := decode.Probe(p, Clocks{}, ValuesOnly)
				return err
			})
		})
		for k, name := range []string{values: "values", distances: "distances"} {
			part := part(k)
			has := slices.DeleteFunc(slices.Clone(ps), func(p draughts.Position) bool {
				f, err := decode.file(rules.MaterialOf(&p), false)
				return err != nil || f.blocks[part] == nil
			})
			if len(has) == 0 {
				continue
			}
			b.Run(fmt.Sprintf("pieces=%d/%s", n, name), func(b *testing.B) {
				benchmarkUnit(b, "ns/block", decode, has, func(p draughts.Position) error {
					f, err := decode.file(rules.MaterialOf(&p), false)
					if err == nil {
						_, _, err = read(f, part, int(f.x.Rank(rules.Placement(&p))/f.blockSize))
					}
					return err
				})
			})
		}
	}
}

// TestPreload checks that probes of preloaded tables give what probes
// through the cache give, for every position with either side to move,
// and that Preload reports missing and damaged tables.
func TestPreload(t *testing.T) {
	cached, loaded := open(t, dir, Options{}), open(t, dir, Options{})
	mats := loaded.Materials()
	slices.Reverse(mats) // larger tables first: their captures are resolved through the cache
	for _, m := range mats {
		if err := loaded.Preload(m); err != nil {
			t.Fatal(err)
		}
	}
	if err := loaded.Preload(mats[0]); err != nil {
		t.Errorf("second Preload: %v", err)
	}
	for _, m := range mats {
		x := index.New(m)
		for i := int64(0); i < x.Size(); i += testenv.Stride(1, 1) {
			p := rules.Position(x.Unrank(i))
			for _, q := range []draughts.Position{p, p.Flip()} {
				if a, b := mustProbe(t, cached, q), mustProbe(t, loaded, q); a != b {
					t.Fatalf("%s: %+v through the cache, %+v preloaded", q.FEN(), a, b)
				}
			}
		}
	}
	if err := loaded.Preload(index.Material{WhiteKings: 5, BlackKings: 1}); !errors.Is(err, ErrMissing) {
		t.Errorf("Preload of a missing table: %v, want ErrMissing", err)
	}
	bad := t.TempDir()
	if err := os.CopyFS(bad, os.DirFS(dir)); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(bad, "KvK.dtb")
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	b[len(b)-10] ^= 0x55
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"KvK", "KvKK"} { // KvK itself, and KvKK whose captures lead to KvK
		m, _ := index.ParseMaterial(name)
		if err := open(t, bad, Options{}).Preload(m); !errors.Is(err, codec.ErrCorrupt) || !strings.Contains(err.Error(), "KvK.dtb") {
			t.Errorf("Preload of %s with KvK damaged: %v, want codec.ErrCorrupt naming KvK.dtb", name, err)
		}
	}
}

// TestResolvedTable writes a resolved copy of a golden table, every entry
// probed, capture positions included, and checks that a prober given only
// that copy, in place of the table added before, answers every position
// as the golden tables do: it reads capture positions without a search,
// which would need the smaller tables it lacks.
func TestResolvedTable(t *testing.T) {
	golden := open(t, dir, Options{})
	m, _ := index.ParseMaterial("KvKM") // a capture leaves KvK or KvM
	x := index.New(m)
	path := filepath.Join(t.TempDir(), table.FileName(m))
	w, err := table.NewWriter(path, m, table.Extra{DTW: true}, table.Work)
	if err != nil {
		t.Fatal(err)
	}
	captures := 0
	cols, marks := table.NewLayout(m, table.Extra{DTW: true}).MakeColumns(x.Size()), make([]uint64, (x.Size()+63)/64)
	for i := range x.Size() {
		p := rules.Position(x.Unrank(i))
		if p.HasCapture() {
			captures++
			marks[i/64] |= 1 << (i % 64)
		}
		cols.Set(i, mustProbe(t, golden, p))
	}
	if err := w.AddColumns(&cols, marks); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if captures == 0 {
		t.Fatal("no capture positions to check")
	}
	copied := New(Options{})
	defer copied.Close()
	for _, p := range []string{filepath.Join(dir, table.FileName(m)), path} { // the second replaces the first
		if err := copied.Add(m, p); err != nil {
			t.Fatal(err)
		}
	}
	if got := copied.Materials(); !slices.Equal(got, []index.Material{m}) {
		t.Fatalf("materials %v, want %v", got, m)
	}
	for i := range x.Size() {
		p := rules.Position(x.Unrank(i))
		if a, b := mustProbe(t, golden, p), mustProbe(t, copied, p); a != b {
			t.Fatalf("%s: %+v from the golden tables, %+v from the resolved copy", p.FEN(), a, b)
		}
	}
}
