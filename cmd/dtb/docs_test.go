package main

import (
	"bytes"
	"encoding/json"
	"os"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/dtb-draughts/dtb/internal/testcache"
)

// TestDocExamples runs the examples of docs/cli.md and the README's tour
// on testdata/golden and compares their output with the text, so that
// the docs cannot go stale.
//
// An example is a line "$ dtb ..." in a fenced block, its output the
// lines after it up to the next "$ " line or the end of the block:
// stdout and stderr together, as a terminal shows them. In the output a
// line "..." (indented or not) stands for any lines, none included, and
// "…" inside a line for any text. The command may take its standard
// input from a pipe, printf '...' | dtb ..., or from the lines after it
// up to END (dtb ... <<'END'), be followed by a comment (# ...), and be
// piped to head -N (its first N lines) or to jq . (the output compared as
// JSON values, not as text).
//
// An example runs where it reads testdata/golden (--dir testdata/golden)
// or no tables (moves, play, perft). The others are skipped: those that
// read other directories (tables, engine, a DTB_PATH), which a test does
// not have; those that write files (gen, slim, convert, sums, a
// redirection, --out, --svg); those whose output varies with the
// machine and the build (verify's and gen's times, version's commit);
// serve, a server; and the session of dtb hub under "## hub", which
// TestHubTranscript runs.
func TestDocExamples(t *testing.T) {
	root := testcache.ModuleRoot()
	t.Chdir(root)
	ran := 0
	for _, doc := range []string{"docs/cli.md", "README.md"} {
		text, err := os.ReadFile(doc)
		if err != nil {
			t.Fatal(err)
		}
		for _, x := range docExamples(string(text)) {
			if !x.runs() {
				continue
			}
			ran++
			t.Run(doc+":"+strconv.Itoa(x.line), func(t *testing.T) {
				x.check(t)
			})
		}
	}
	if ran < 20 {
		t.Errorf("%d examples run, want at least 20: are the docs read as the test expects?", ran)
	}
}

// docExample is a command of the docs and the output they give it.
type docExample struct {
	line    int    // of the command, from 1
	command string // after "$ ", its comment removed
	stdin   string // a here-document's lines
	output  []string
}

// docExamples returns the examples of the fenced blocks of text.
func docExamples(text string) []docExample {
	var xs []docExample
	lines := strings.Split(text, "\n")
	inBlock := false
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		if strings.HasPrefix(l, "```") {
			inBlock = !inBlock
			continue
		}
		cmd, ok := strings.CutPrefix(l, "$ ")
		if !inBlock || !ok {
			continue
		}
		x := docExample{line: i + 1, command: stripComment(cmd)}
		if c, ok := strings.CutSuffix(x.command, " <<'END'"); ok {
			x.command = c
			for i++; i < len(lines) && lines[i] != "END"; i++ {
				x.stdin += lines[i] + "\n"
			}
		}
		for i+1 < len(lines) && !strings.HasPrefix(lines[i+1], "$ ") && !strings.HasPrefix(lines[i+1], "```") {
			i++
			x.output = append(x.output, lines[i])
		}
		xs = append(xs, x)
	}
	return xs
}

// stripComment returns a command line without its comment, a # outside
// quotes after a space, and the spaces before it.
func stripComment(cmd string) string {
	quote := rune(0)
	for i, r := range cmd {
		switch {
		case quote != 0:
			if r == quote {
				quote = 0
			}
		case r == '\'' || r == '"':
			quote = r
		case r == '#' && i > 0 && cmd[i-1] == ' ':
			return strings.TrimRight(cmd[:i], " ")
		}
	}
	return cmd
}

// shellWords splits a command line as a shell does into its pipeline's
// commands and their words, with quotes ('...', "...") and printf's \n.
func shellWords(cmd string) [][]string {
	var pipeline [][]string
	var words []string
	var word strings.Builder
	inWord, quote := false, rune(0)
	end := func() {
		if inWord {
			words = append(words, word.String())
		}
		word.Reset()
		inWord = false
	}
	for _, r := range cmd {
		switch {
		case quote != 0 && r == quote:
			quote = 0
		case quote != 0:
			word.WriteRune(r)
		case r == '\'' || r == '"':
			quote, inWord = r, true
		case r == ' ':
			end()
		case r == '|':
			end()
			pipeline, words = append(pipeline, words), nil
		default:
			word.WriteRune(r)
			inWord = true
		}
	}
	end()
	return append(pipeline, words)
}

// runs reports whether x is an example the test runs (TestDocExamples).
func (x docExample) runs() bool {
	if strings.ContainsAny(x.command, ">&") || strings.Contains(x.command, "--out") || strings.Contains(x.command, "--svg") {
		return false
	}
	for _, words := range shellWords(x.command) {
		if len(words) < 2 || words[0] != "dtb" {
			continue
		}
		switch words[1] {
		case "moves", "play", "perft":
			return true
		case "probe", "best", "line", "stats", "size", "claim", "annotate":
			return strings.Contains(x.command, "--dir testdata/golden")
		}
	}
	return false
}

// check runs x and compares its output with the docs'.
func (x docExample) check(t *testing.T) {
	stdin, filter := x.stdin, ""
	var args []string
	for _, words := range shellWords(x.command) {
		switch {
		case len(words) >= 2 && words[0] == "printf":
			stdin = strings.ReplaceAll(words[1], `\n`, "\n")
		case len(words) >= 1 && words[0] == "dtb":
			args = words[1:]
		case len(words) == 2 && (words[0] == "head" || words[0] == "jq" && words[1] == "."):
			filter = strings.Join(words, " ")
		default:
			t.Fatalf("%s: the test runs no %q", x.command, words)
		}
	}
	var out bytes.Buffer
	run(args, &env{stdin: strings.NewReader(stdin), stdout: &out, stderr: &out})
	got := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	want := x.output
	switch {
	case filter == "jq .":
		var g, w any
		if err := json.Unmarshal(out.Bytes(), &g); err != nil {
			t.Fatalf("%s: %v", x.command, err)
		}
		if err := json.Unmarshal([]byte(strings.Join(want, "\n")), &w); err != nil {
			t.Fatalf("the docs' output of %s is no JSON value: %v", x.command, err)
		}
		if !reflect.DeepEqual(g, w) {
			t.Errorf("%s:\n%s\nthe docs give\n%s", x.command, out.String(), strings.Join(want, "\n"))
		}
		return
	case strings.HasPrefix(filter, "head -"):
		n, err := strconv.Atoi(strings.TrimPrefix(filter, "head -"))
		if err != nil {
			t.Fatalf("%s: %v", x.command, err)
		}
		got = got[:min(n, len(got))]
	}
	if !matchLines(trimBlankLines(got), trimBlankLines(want)) {
		t.Errorf("%s:\n%s\nthe docs give\n%s", x.command, strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// trimBlankLines returns lines without the blank lines at their end: a PDN
// game's, the docs' before the end of a block.
func trimBlankLines(lines []string) []string {
	for len(lines) > 0 && lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	return lines
}

// matchLines reports whether the lines got match want, where a line
// "..." matches any lines and "…" any text of a line.
func matchLines(got, want []string) bool {
	if len(want) == 0 {
		return len(got) == 0
	}
	if strings.TrimSpace(want[0]) == "..." {
		for i := 0; i <= len(got); i++ {
			if matchLines(got[i:], want[1:]) {
				return true
			}
		}
		return false
	}
	if len(got) == 0 {
		return false
	}
	parts := strings.Split(want[0], "…")
	for i, p := range parts {
		parts[i] = regexp.QuoteMeta(p)
	}
	return regexp.MustCompile("^"+strings.Join(parts, ".*")+"$").MatchString(got[0]) && matchLines(got[1:], want[1:])
}

// TestDocExamplesRead checks the reading of the docs' examples on a
// block: the here-document, the comment, the elisions and the pipes.
func TestDocExamplesRead(t *testing.T) {
	xs := docExamples("text\n```\n$ dtb annotate --dir testdata/golden - <<'END'\n1. 2-11 *\nEND\n[Result \"*\"]\n$ dtb moves W:W28,32:B23   # a capture\n28x19\n```\n$ dtb not in a block\n")
	if len(xs) != 2 || xs[0].stdin != "1. 2-11 *\n" || xs[0].command != "dtb annotate --dir testdata/golden -" ||
		!reflect.DeepEqual(xs[0].output, []string{`[Result "*"]`}) || xs[1].command != "dtb moves W:W28,32:B23" || xs[1].line != 7 {
		t.Errorf("examples %+v", xs)
	}
	if w := shellWords(`printf 'a b\n' | dtb probe --dir "x y" | head -1`); !reflect.DeepEqual(w, [][]string{{"printf", `a b\n`}, {"dtb", "probe", "--dir", "x y"}, {"head", "-1"}}) {
		t.Errorf("shellWords: %q", w)
	}
	if !matchLines([]string{"a", "b", "c x d"}, []string{"...", "c … d"}) || matchLines([]string{"a", "b"}, []string{"a"}) || matchLines([]string{"ab"}, []string{"a…c"}) {
		t.Error("matchLines")
	}
}
