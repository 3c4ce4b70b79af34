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
	"github.com/dtb-draughts/dtb/internal/version"
	"github.com/dtb-draughts/dtb/probe"
	"github.com/dtb-draughts/dtb/rules"
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

// built are the C programs, built once per test binary: the example,
// testdata/abi.c, testdata/handles.c and testdata/limit.c.
var built struct {
	once                                sync.Once
	dir, path, abi, handles, limit, err string
}

// buildExample builds libdtb.so and the C programs against it, with $CC
// (default cc), into a temporary directory, once, and returns the
// example's path.
func buildExample(tb testing.TB) string {
	tb.Helper()
	build(tb)
	return built.path
}

// build builds the C programs of built, once.
func build(tb testing.TB) {
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
		built.path, built.abi, built.handles = filepath.Join(built.dir, "dtbprobe"), filepath.Join(built.dir, "abi"), filepath.Join(built.dir, "handles")
		built.limit = filepath.Join(built.dir, "limit")
		cflags := []string{"-O2", "-Wall", "-Wextra", "-Werror", "-pthread", "-I.", "-L" + built.dir, "-ldtb", "-Wl,-rpath," + built.dir}
		for _, args := range [][]string{
			{goTool, "build", "-buildmode=c-shared", "-o", filepath.Join(built.dir, "libdtb.so"), "."},
			append([]string{cc, filepath.Join("..", "examples", "c", "dtbprobe.c"), "-o", built.path}, cflags...),
			append([]string{cc, filepath.Join("testdata", "abi.c"), "-o", built.abi}, cflags...),
			append([]string{cc, filepath.Join("testdata", "handles.c"), "-o", built.handles}, cflags...),
			append([]string{cc, filepath.Join("testdata", "limit.c"), "-o", built.limit}, cflags...),
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
}

// line returns the stdin line of the C example for p with the clocks c,
// which the example passes as they are: class_played and rule2_played
// count plies played, as Clocks do.
func line(p draughts.Position, c probe.Clocks) string {
	men, kings := p.White&^p.Kings, p.White&p.Kings
	bmen, bkings := p.Black&^p.Kings, p.Black&p.Kings
	return fmt.Sprintf("%#x %#x %#x %#x %d %d %d\n", draughts.SquareSet(men), draughts.SquareSet(kings),
		draughts.SquareSet(bmen), draughts.SquareSet(bkings), p.Side, c.Class, c.Rule2)
}

// want returns the C example's answer to p with the clocks c, from the Go
// probe: "status rules theory category distance dtw mtc", the status and
// value of dtb_probe_value, the number of moves and the root moves. The
// numbers are Go's: the C library's must be the same, a failure's
// unknown too.
func want(t *probe.Tables, p draughts.Position, c probe.Clocks) string {
	r, err := t.Probe(p, c, 0)
	e, st := r.Entry, status(err)
	s := fmt.Sprintf("%d %d %d %d %d %d %d %d %d", st, r.Value, e.Theory, r.Category(), e.Distance, e.DTW, e.MTC, st, r.Value)
	moves, err := t.RootMoves(p, c)
	if err != nil {
		return fmt.Sprintf("%s %d", s, status(err))
	}
	s += fmt.Sprintf(" %d", len(moves))
	for _, m := range moves {
		s += fmt.Sprintf(" %s:%d:%d:%d:%d:%d:%d", p.Notation(m.Move), m.Value, m.Entry.Theory, m.Category(), m.Entry.Distance, m.Entry.DTW, m.Entry.MTC)
	}
	return s
}

// A comparison is a run of the C example on positions of a table
// directory, with the answers the Go probe gives.
type comparison struct {
	example, dir string
	tables       *probe.Tables
	in           bytes.Buffer // the example's stdin
	expected     []string     // its lines of output
}

// compare builds the C example and opens dir, whose largest table has
// pieces pieces, for a comparison. The example's first lines are a
// cache-only probe before any read and after, and the pieces.
func compare(t *testing.T, dir string, pieces int) *comparison {
	t.Helper()
	c := &comparison{example: buildExample(t), dir: dir}
	var err error
	if c.tables, err = probe.Open(dir, probe.Options{}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.tables.Close() })
	c.expected = []string{
		fmt.Sprintf("cold %d", status(probe.ErrNotCached)), // a cache-only probe before any read
		"warm 0", // and after
		fmt.Sprintf("pieces %d", pieces),
	}
	return c
}

// add adds p with the clocks cl.
func (c *comparison) add(p draughts.Position, cl probe.Clocks) {
	c.in.WriteString(line(p, cl))
	c.expected = append(c.expected, want(c.tables, p, cl))
}

// check runs the C example on the lines added from 8 threads and compares
// its output with the Go probe's.
func (c *comparison) check(t *testing.T) {
	t.Helper()
	cmd := exec.Command(c.example, c.dir, "--check", "8")
	cmd.Stdin = &c.in
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s: %v\n%s", c.example, err, stderr.Bytes())
	}
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 1<<20)
	n := 0
	for ; sc.Scan(); n++ {
		if n < len(c.expected) && sc.Text() != c.expected[n] {
			t.Fatalf("line %d of the C example:\n%s\nthe Go probe:\n%s", n+1, sc.Text(), c.expected[n])
		}
	}
	if n != len(c.expected) {
		t.Fatalf("the C example wrote %d lines, want %d", n, len(c.expected))
	}
}

// TestC builds the library and the C example, runs the example on
// thousands of positions of the golden tables from 8 threads at once,
// with class clocks fresh, running and run out (and rule-2 counts, which no
// material up to 3 pieces has, so they must change nothing), and compares
// every answer (probe, value, root moves) with the Go probe's. Illegal
// positions and positions without a table are among them.
func TestC(t *testing.T) {
	c := compare(t, golden, 3)
	add := func(p draughts.Position, played int) {
		c.add(p, probe.Clocks{Class: played, Rule2: len(c.expected) % 60})
	}
	first, _ := draughts.ParseFEN("W:WK10:BK5")
	add(first, 0)
	for _, name := range []string{"KvK", "KKvK", "KMvK", "KvKM", "MMvK", "KMvM", "MvMM"} {
		m, _ := index.ParseMaterial(name)
		x := index.New(m)
		counts := rules.ClassOf(m).Budget() + 3 // -1 (fresh), 0 ... budget + 1 (run out)
		for i := int64(0); i < x.Size(); i += 97 {
			p := rules.Position(x.Unrank(i))
			add(p, int(i/97)%counts-1)
			add(p.Flip(), int(i/97+1)%counts-1)
		}
	}
	four, _ := draughts.ParseFEN("W:WK1,K2:BK40,K45")
	add(four, 0) // no table
	crowned, _ := draughts.ParseFEN("W:W10:BK5")
	crowned.White, crowned.Kings = draughts.Bit(3), crowned.Kings&^draughts.Bit(3) // a man on its crowning row
	add(crowned, 0)
	over, _ := draughts.ParseFEN("B:WK10:B")
	add(over, 5) // lost, no move
	over.Side = draughts.White
	add(over, 5) // the game is over: illegal
	for _, l := range []string{
		"0 0x200 0 0x200 0 0",          // two pieces on square 10
		"0 0x4000000000000 0 0x10 0 0", // square 51
		"0 0x200 0 0x10 2 0",           // no such side
		"0 0 0 0 0 0",                  // no pieces at all
		"0 0 0 0 1 0",
	} {
		c.in.WriteString(l + "\n")
		c.expected = append(c.expected, "-3 3 3 3 -1 -1 -1 -3 3 -3") // unknown
	}
	if len(c.expected) < 2000 {
		t.Fatalf("only %d positions", len(c.expected))
	}
	c.check(t)
}

// TestCFlagsForged runs the C example on the golden tables with the rules
// flags of KKvK.dtb forged into those of a work file, the header checksum
// recomputed: every probe that reads KKvK answers DTB_DAMAGED (-2) and
// the others answer as the Go probe does.
func TestCFlagsForged(t *testing.T) {
	dir := tabletest.Copy(t, golden)
	tabletest.ForgeRules(t, filepath.Join(dir, "KKvK.dtb"), table.Work.Rules())
	c := compare(t, dir, 3)
	damaged := 0
	for _, fen := range []string{"W:WK10:BK5", "W:WK10,K37:BK5", "W:WK10,K20:BK5", "W:WK2,6:BK50"} {
		p, _ := draughts.ParseFEN(fen)
		c.add(p, probe.Clocks{})
		if strings.HasPrefix(c.expected[len(c.expected)-1], "-2 ") {
			damaged++
		}
	}
	if damaged != 2 {
		t.Errorf("%d of the probes of KKvK damaged, want 2: %q", damaged, c.expected)
	}
	c.check(t)
}

// TestCRule2 compares, on KMvKK and the tables it needs (KKvKK among
// them) with the rule-2 distance, the C example's answers with the Go
// probe's on positions of KKvKK and KMvKK under rule-2 counts from fresh
// (-1 and 0) to complete (50 and beyond), the root moves carrying the
// count over each move. Some of the positions must be won or lost with a
// fresh count and drawn with the count they are given, and some must have
// an mtc, which the C result carries as the Go entry does.
func TestCRule2(t *testing.T) {
	ex := compare(t, tabletest.Rule2.Dir(t), 4)
	tables := ex.tables
	cut := 0 // positions won or lost with a fresh count but drawn with theirs
	mtc := 0 // positions with an mtc
	for _, name := range []string{"KKvKK", "KMvKK"} {
		m, _ := index.ParseMaterial(name)
		x := index.New(m)
		for i := int64(0); i < x.Size(); i += 211 {
			for _, p := range []draughts.Position{rules.Position(x.Unrank(i)), rules.Position(x.Unrank(i)).Flip()} {
				c := probe.Clocks{Rule2: int(i/211)%53 - 1} // -1 ... 51
				if r, err := tables.Probe(p, c, 0); err == nil && r.Entry.Distance >= 0 {
					c.Rule2 = rules.Rule2Plies - r.Entry.Distance + int(i/211)%2 // just in time, or a ply late
				}
				ex.add(p, c)
				if r, err := tables.Probe(p, c, 0); err == nil && r.Value != r.Entry.Rules {
					cut++
				}
				if r, err := tables.Probe(p, c, 0); err == nil && r.Entry.MTC >= 0 {
					mtc++
				}
			}
		}
	}
	if cut < 100 || mtc < 100 || len(ex.expected) < 2000 {
		t.Fatalf("%d positions, %d of them drawn by the running count, %d with an mtc: too few", len(ex.expected), cut, mtc)
	}
	ex.check(t)
}

// TestCClassA compares, on KKKvK and the tables it needs, the C
// example's answers with the Go probe's on positions of KKKvK and KvKKK
// (the strong side and the lone king to move) under class A clocks from
// fresh to run out, the root moves carrying the clock over each move:
// into class B by the lone king's captures. Some of the positions must be
// won or lost with a fresh clock and drawn with the plies they are given,
// some root moves into class B drawn by the clock carried, and some
// positions must have an mtc.
func TestCClassA(t *testing.T) {
	ex := compare(t, tabletest.ClassA.Dir(t), 4)
	tables := ex.tables
	cut, carried, mtc := 0, 0, 0
	played := []int{-1, 0, 1, 10, 17, 18, 22, 25, 30, 31, 32, 33}
	for _, name := range []string{"KKKvK", "KvKKK"} {
		m, _ := index.ParseMaterial(name)
		x := index.New(m)
		for i := int64(0); i < x.Size(); i += 401 {
			for k, p := range []draughts.Position{rules.Position(x.Unrank(i)), rules.Position(x.Unrank(i)).Flip()} {
				c := probe.Clocks{Class: played[(int(i/401)+k)%len(played)], Rule2: 7} // Rule2 ignored
				r, err := tables.Probe(p, c, 0)
				if err != nil {
					t.Fatal(err)
				}
				if r.Entry.Distance >= 0 && i%2 == 0 {
					c.Class = rules.ClassA.Budget() - r.Entry.Distance + int(i/401)%2 // just in time, or a ply late
					r, _ = tables.Probe(p, c, 0)
				}
				if r.Value != r.Entry.Rules {
					cut++
				}
				if r.Entry.MTC >= 0 {
					mtc++
				}
				moves, _ := tables.RootMoves(p, c)
				for _, rm := range moves {
					q := p.Play(rm.Move)
					if rules.ClassOf(rules.MaterialOf(&q)) == rules.ClassB && rm.Value != rm.Entry.Rules && c.Class < rules.ClassA.Budget() {
						carried++
					}
				}
				ex.add(p, c)
			}
		}
	}
	for _, c := range []struct {
		fen    string
		played int
	}{
		// won in 15 plies: with 17 played, not 18
		{"W:WK1,K7,K18:BK35", 17}, {"W:WK1,K7,K18:BK35", 18},
		// 3x21 into class B loses in 2 with 30 played, not 31
		{"B:WK12,K16,K20:BK3", 30}, {"B:WK12,K16,K20:BK3", 31},
	} {
		p, err := draughts.ParseFEN(c.fen)
		if err != nil {
			t.Fatal(err)
		}
		ex.add(p, probe.Clocks{Class: c.played})
	}
	if cut < 50 || carried == 0 || mtc < 100 || len(ex.expected) < 2000 {
		t.Fatalf("%d positions, %d of them drawn by the running clock, %d root moves into class B drawn by the clock carried, %d with an mtc: too few",
			len(ex.expected), cut, carried, mtc)
	}
	ex.check(t)
}

// TestCABI checks the ABI version: the header's and the library's are
// the same and 4, dtb_version is version.Version, dtb_open_version refuses a program compiled against
// another version, saying to rebuild it, and dtb_open opens; a probe with
// DTB_VALUES_ONLY gives the values without the dtw, with DTB_CACHED_ONLY
// too once its block is cached, DTB_STORED_ONLY answers a quiet position
// and DTB_NOT_STORED for a capture, and an unknown flag is refused.
func TestCABI(t *testing.T) {
	build(t)
	checkOutput(t, built.abi, "header 4 library 4 dtb "+version.Version+"\n"+
		"version 3: refused: dtb_open: the program was compiled against dtb.h of ABI version 3, the library is version 4: rebuild the program\n"+
		"version 4: opened\n"+
		"version 5: refused: dtb_open: the program was compiled against dtb.h of ABI version 5, the library is version 4: rebuild the program\n"+
		"dtb_open: opened\n"+
		"flags 0: 0 rules 1 theory 1 category 2 distance -1 dtw 5 mtc -1\n"+
		"flags 2: 0 rules 1 theory 1 category 2 distance -1 dtw -1 mtc -1\n"+
		"flags 3: 0 rules 1 theory 1 category 2 distance -1 dtw -1 mtc -1\n"+
		"flags 4: 0 rules 1 theory 1 category 2 distance -1 dtw 5 mtc -1\n"+
		"flags 8: -5 rules 3 theory 3 category 3 distance -1 dtw -1 mtc -1\n"+
		"capture, flags 0: 0 rules 1 category 2\n"+
		"capture, flags 4: -7 rules 3 category 3\n", golden)
}

// checkOutput runs the program prog with args and checks that it succeeds
// and prints want.
func checkOutput(t *testing.T, prog, want string, args ...string) {
	t.Helper()
	out, err := exec.Command(prog, args...).CombinedOutput()
	if err != nil {
		t.Fatalf("%s: %v\n%s", prog, err, out)
	}
	if string(out) != want {
		t.Errorf("%s:\n%s\nwant\n%s", prog, out, want)
	}
}

// TestCHandles checks that a closed handle, one whose slot another
// dtb_open reuses, and one with other bits set are refused with
// DTB_BAD_ARGUMENT (-5), their results DTB_UNKNOWN (3), as are NULL
// pointers, while the open handle keeps answering (testdata/handles.c).
func TestCHandles(t *testing.T) {
	build(t)
	plain := filepath.Join(filepath.Dir(golden), "golden-plain")
	checkOutput(t, built.handles, "open: 0\n"+
		"closed: -5\n"+
		"reopened: same handle 0, old -5, new 0\n"+
		"top bit: -5\n"+
		"bit 32: -5\n"+
		"NULL handle: -5, NULL result: -5, NULL position: -5 (value 3), NULL value: -5\n"+
		"old handle: max pieces -5, last error 0\n"+
		"new after closing the old again: 0\n"+
		"new closed: -5\n", golden, plain)
}

// TestCMaxPieces checks dtb_set_max_pieces over the golden tables (up to
// 3 pieces) with testdata/limit.c: under a limit of 2, a 3-piece position
// is DTB_NO_TABLE (-1), even for dtb_root_moves, whose moves all capture
// into 2 pieces; a closed handle is DTB_BAD_ARGUMENT (-5).
func TestCMaxPieces(t *testing.T) {
	build(t)
	checkOutput(t, built.limit, "max pieces 3\n"+
		"set 2: 0, max pieces 2\n"+
		"2 pieces: 0\n"+
		"3 pieces: -1\n"+
		"no table for KvKK: more than 2 pieces, the probe limit\n"+
		"3 pieces, cached only: -1\n"+
		"3 pieces, root moves: -1\n"+
		"set 0: 0, max pieces 3\n"+
		"3 pieces: 0\n"+
		"closed: -5\n", golden)
}

// TestCOpenError checks that the C example reports a directory without
// tables in one line and fails.
func TestCOpenError(t *testing.T) {
	out, err := exec.Command(buildExample(t), t.TempDir(), "W:WK10:BK5").CombinedOutput()
	if err == nil || !strings.Contains(string(out), "MANIFEST.json") || strings.Count(string(out), "\n") != 1 {
		t.Errorf("a directory without tables: %v, %q; want a failure naming MANIFEST.json in one line", err, out)
	}
}

// TestCProbeHub checks that dtb_probe_fen reads a Hub position as it
// reads the FEN of the same position, and names a bad one in one line.
func TestCProbeHub(t *testing.T) {
	p, _ := draughts.ParseFEN("W:WK10:BK5")
	hub := p.Hub()
	checkOutput(t, buildExample(t), "W:WK10:BK5  win  rules win  theoretical win  distance 3  dtw 3  mtc -1\n"+
		hub+"  win  rules win  theoretical win  distance 3  dtw 3  mtc -1\n", golden, "W:WK10:BK5", hub)
	out, err := exec.Command(buildExample(t), golden, hub[:50]).CombinedOutput()
	if err == nil || !strings.Contains(string(out), "49 squares after the side to move, want 50") || strings.Count(string(out), "\n") != 1 {
		t.Errorf("a short Hub position: %v, %q; want a failure saying so in one line", err, out)
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
			if p := rules.Position(x.Unrank(i)); p.HasCapture() == capture {
				in.WriteString(line(p, probe.Clocks{}))
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

// TestCOpenList checks that dtb_open takes a list of directories: the
// golden tables split in two answer as the golden tables do.
func TestCOpenList(t *testing.T) {
	small := tabletest.Keep(t, golden, func(m index.Material) bool { return m.Pieces() <= 2 })
	large := tabletest.Keep(t, golden, func(m index.Material) bool { return m.Pieces() > 2 })
	fens := []string{"W:WK10:BK5", "W:WK2,6:BK50"}
	want, err := exec.Command(buildExample(t), append([]string{golden}, fens...)...).CombinedOutput()
	if err != nil {
		t.Fatalf("%v\n%s", err, want)
	}
	sep := string(filepath.ListSeparator)
	checkOutput(t, buildExample(t), string(want), append([]string{sep + small + sep + large}, fens...)...)
}
