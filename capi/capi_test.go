package main

import (
	"bufio"
	"bytes"
	"cmp"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/dtb-draughts/dtb/draughts"
	"github.com/dtb-draughts/dtb/index"
	"github.com/dtb-draughts/dtb/internal/tabletest"
	"github.com/dtb-draughts/dtb/probe"
	"github.com/dtb-draughts/dtb/table"
)

// golden holds every table up to 3 pieces (../testdata/README.md).
var golden = tabletest.Golden

func TestMain(m *testing.M) {
	code := tabletest.Run(m)
	if built.dir != "" {
		os.RemoveAll(built.dir)
	}
	os.Exit(code)
}

// built is the C example, built once per test binary.
var built struct {
	once           sync.Once
	dir, path, err string
}

// buildExample builds libdtb.so and the C example against it, with $CC
// (default cc), into a temporary directory, once, and returns the
// example's path.
func buildExample(tb testing.TB) string {
	tb.Helper()
	built.once.Do(func() {
		cc := cmp.Or(os.Getenv("CC"), "cc")
		if _, err := exec.LookPath(cc); err != nil {
			built.err = fmt.Sprintf("no C compiler (%v): install one (gcc) or set $CC; the C library cannot be tested without it", err)
			return
		}
		goTool, err := exec.LookPath("go")
		if err != nil {
			built.err = fmt.Sprintf("no go command: %v", err)
			return
		}
		if built.dir, err = os.MkdirTemp("", "dtb-capi-test"); err != nil {
			built.err = err.Error()
			return
		}
		built.path = filepath.Join(built.dir, "dtbprobe")
		for _, args := range [][]string{
			{goTool, "build", "-buildmode=c-shared", "-o", filepath.Join(built.dir, "libdtb.so"), "."},
			{cc, "-O2", "-Wall", "-Wextra", "-Werror", "-pthread", "-I.", filepath.Join("..", "examples", "c", "dtbprobe.c"),
				"-L" + built.dir, "-ldtb", "-Wl,-rpath," + built.dir, "-o", built.path},
		} {
			if out, err := exec.Command(args[0], args[1:]...).CombinedOutput(); err != nil {
				built.err = fmt.Sprintf("%s: %v\n%s", strings.Join(args, " "), err, out)
				return
			}
		}
	})
	if built.err != "" {
		tb.Fatal(built.err)
	}
	return built.path
}

// line returns the stdin line of the C example for p with the clocks c.
func line(p draughts.Position, c probe.Clocks) string {
	men, kings := p.White&^p.Kings, p.White&p.Kings
	bmen, bkings := p.Black&^p.Kings, p.Black&p.Kings
	return fmt.Sprintf("%#x %#x %#x %#x %d %d %d\n", draughts.SquareSet(men), draughts.SquareSet(kings),
		draughts.SquareSet(bmen), draughts.SquareSet(bkings), p.Side, c.Class, c.Rule2)
}

// want returns the C example's answer to p with the clocks c, from the Go
// probe: "status rules theory distance dtw value moves" and the root
// moves.
func want(t *probe.Tables, p draughts.Position, c probe.Clocks) string {
	r, err := t.Probe(p, c, 0)
	if err != nil {
		return fmt.Sprintf("%d -9 -9 -9 -9 %d %d", status(err), status(err), status(err))
	}
	e, v := r.Entry, r.Value
	s := fmt.Sprintf("0 %d %d %d %d", v, e.Theory, e.Distance, e.DTW)
	moves, err := t.RootMoves(p, c)
	if err != nil {
		return fmt.Sprintf("%s %d %d", s, v, status(err))
	}
	s += fmt.Sprintf(" %d %d", v, len(moves))
	for _, m := range moves {
		s += fmt.Sprintf(" %s:%d:%d:%d:%d", p.Notation(m.Move), m.Value, m.Entry.Theory, m.Entry.Distance, m.Entry.DTW)
	}
	return s
}

// check runs the C example on dir with the lines of in from 8 threads and
// compares its output with expected.
func check(t *testing.T, example, dir string, in *bytes.Buffer, expected []string) {
	t.Helper()
	cmd := exec.Command(example, dir, "--check", "8")
	cmd.Stdin = in
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s: %v\n%s", example, err, stderr.Bytes())
	}
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 1<<20)
	n := 0
	for ; sc.Scan(); n++ {
		if n < len(expected) && sc.Text() != expected[n] {
			t.Fatalf("line %d of the C example:\n%s\nthe Go probe:\n%s", n+1, sc.Text(), expected[n])
		}
	}
	if n != len(expected) {
		t.Fatalf("the C example wrote %d lines, want %d", n, len(expected))
	}
}

// TestC builds the library and the C example, runs the example on
// thousands of positions of the golden tables from 8 threads at once,
// with class clocks full and running (and rule-2 counts, which no
// material up to 3 pieces has, so they must change nothing), and compares
// every answer (probe, value, root moves) with the Go probe's. Illegal
// positions and positions without a table are among them.
func TestC(t *testing.T) {
	example := buildExample(t)
	tables, err := probe.Open(golden, probe.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer tables.Close()

	var in bytes.Buffer
	expected := []string{
		fmt.Sprintf("cold %d", status(probe.ErrNotCached)), // a cache-only probe before any read
		"warm 0", // and after
		"pieces 3",
	}
	add := func(p draughts.Position, budget int) {
		c := probe.Clocks{Class: budget, Rule2: len(expected) % 60}
		in.WriteString(line(p, c))
		expected = append(expected, want(tables, p, c))
	}
	first, _ := draughts.ParseFEN("W:WK10:BK5")
	add(first, probe.FullClock)
	for _, name := range []string{"KvK", "KKvK", "KMvK", "KvKM", "MMvK", "KMvM", "MvMM"} {
		m, _ := index.ParseMaterial(name)
		x := index.New(m)
		budgets := table.ClassOf(m).Budget() + 2 // FullClock, 0 ... budget
		for i := int64(0); i < x.Size(); i += 97 {
			p := table.Position(x.Unrank(i))
			add(p, int(i/97)%budgets-1)
			add(p.Flip(), int(i/97+1)%budgets-1)
		}
	}
	four, _ := draughts.ParseFEN("W:WK1,K2:BK40,K45")
	add(four, probe.FullClock) // no table
	crowned, _ := draughts.ParseFEN("W:W10:BK5")
	crowned.White, crowned.Kings = draughts.Bit(3), crowned.Kings&^draughts.Bit(3) // a man on its crowning row
	add(crowned, probe.FullClock)
	over, _ := draughts.ParseFEN("B:WK10:B")
	add(over, 5) // lost, no move
	over.Side = draughts.White
	add(over, 5) // the game is over: illegal
	for _, l := range []string{
		"0 0x200 0 0x200 0 -1",          // two pieces on square 10
		"0 0x4000000000000 0 0x10 0 -1", // square 51
		"0 0x200 0 0x10 2 -1",           // no such side
		"0 0 0 0 0 -1",                  // no pieces at all
		"0 0 0 0 1 -1",
	} {
		in.WriteString(l + "\n")
		expected = append(expected, "-3 -9 -9 -9 -9 -3 -3")
	}
	if len(expected) < 2000 {
		t.Fatalf("only %d positions", len(expected))
	}
	check(t, example, golden, &in, expected)
}

// TestCRule2 compares, on KMvKK and the tables it needs (KKvKK among
// them) with the rule-2 distance, the C example's answers with the Go
// probe's on positions of KKvKK and KMvKK under rule-2 counts from fresh
// (-1 and 0) to complete (50 and beyond), the root moves carrying the
// count over each move. Some of the positions must be won or lost with a
// fresh count and drawn with the count they are given.
func TestCRule2(t *testing.T) {
	example := buildExample(t)
	dir := tabletest.Rule2.Dir(t)
	tables, err := probe.Open(dir, probe.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer tables.Close()

	var in bytes.Buffer
	expected := []string{fmt.Sprintf("cold %d", status(probe.ErrNotCached)), "warm 0", "pieces 4"}
	cut := 0 // positions won or lost with a fresh count but drawn with theirs
	for _, name := range []string{"KKvKK", "KMvKK"} {
		m, _ := index.ParseMaterial(name)
		x := index.New(m)
		for i := int64(0); i < x.Size(); i += 211 {
			for _, p := range []draughts.Position{table.Position(x.Unrank(i)), table.Position(x.Unrank(i)).Flip()} {
				c := probe.Clocks{Class: probe.FullClock, Rule2: int(i/211)%53 - 1} // -1 ... 51
				if r, err := tables.Probe(p, c, 0); err == nil && r.Entry.Distance >= 0 {
					c.Rule2 = table.Rule2Plies - r.Entry.Distance + int(i/211)%2 // just in time, or a ply late
				}
				in.WriteString(line(p, c))
				expected = append(expected, want(tables, p, c))
				if r, err := tables.Probe(p, c, 0); err == nil && r.Value != r.Entry.Rules {
					cut++
				}
			}
		}
	}
	if cut < 100 || len(expected) < 2000 {
		t.Fatalf("%d positions, %d of them drawn by the running count: too few", len(expected), cut)
	}
	check(t, example, dir, &in, expected)
}

// TestCOpenError checks that the C example reports a directory without
// tables in one line and fails.
func TestCOpenError(t *testing.T) {
	out, err := exec.Command(buildExample(t), t.TempDir(), "W:WK10:BK5").CombinedOutput()
	if err == nil || !strings.Contains(string(out), "MANIFEST.json") || strings.Count(string(out), "\n") != 1 {
		t.Errorf("a directory without tables: %v, %q; want a failure naming MANIFEST.json in one line", err, out)
	}
}

// BenchmarkC runs the C example's benchmark: b.N cached-only probes from
// each of 1 and 2 threads, of quiet KMvK positions and of positions with
// a capture to search, through dtb_probe and dtb_probe_value. It reports
// the wall time per probe the example measured, all threads together,
// the cost of the call from C into Go included.
func BenchmarkC(b *testing.B) {
	example := buildExample(b)
	m := index.Material{WhiteKings: 1, WhiteMen: 1, BlackKings: 1}
	x := index.New(m)
	for _, capture := range []bool{false, true} {
		var in bytes.Buffer
		for i := int64(0); i < x.Size() && in.Len() < 4096*32; i += 7 {
			if p := table.Position(x.Unrank(i)); p.HasCapture() == capture {
				in.WriteString(line(p, probe.Clocks{Class: probe.FullClock}))
			}
		}
		for _, threads := range []int{1, 2} {
			b.Run(fmt.Sprintf("capture=%v/threads=%d", capture, threads), func(b *testing.B) {
				cmd := exec.Command(example, golden, "--bench", fmt.Sprint(threads), fmt.Sprint(b.N))
				cmd.Stdin = bytes.NewReader(in.Bytes())
				out, err := cmd.CombinedOutput()
				if err != nil {
					b.Fatalf("%v: %s", err, out)
				}
				var probeNS, valueNS float64
				var probeFailed, valueFailed int
				if _, err := fmt.Sscanf(string(out), "probe %f ns/probe %d failed\nvalue %f ns/probe %d failed",
					&probeNS, &probeFailed, &valueNS, &valueFailed); err != nil || probeFailed+valueFailed > 0 {
					b.Fatalf("%v: %s", err, out)
				}
				b.ReportMetric(probeNS, "ns/probe")
				b.ReportMetric(valueNS, "ns/value")
			})
		}
	}
}
