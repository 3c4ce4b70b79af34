// Command crashtest checks that an interrupted dtb gen, dtb slim or dtb
// convert always resumes to the files of an uninterrupted run. It builds
// dtb, then for each command runs it once as a reference (the tables
// built checked with dtb verify), then, round after round, starts it in a
// fresh directory and kills it (SIGKILL) at a random moment, sometimes
// kills the rerun too, and reruns it to the end: every file must then be
// byte for byte the reference's (SHA-256), with no stray file, and the
// tables must answer dtb probe. dtb gen builds the tables up to --pieces;
// dtb slim writes their slim directory; dtb convert rewrites a copy of
// the tables of an older format in --old. With --mem, the killed runs and
// the reruns of dtb gen solve each group in several units under that
// budget, while the reference is built with dtb gen's default: the kills
// then fall between and inside units too. Any budget is taken, however
// small (DTB_MEM_UNCHECKED=1 in dtb's environment): 1MiB splits every
// group into its smallest units.
//
//	go run ./cmd/crashtest --pieces 4 --kills 20 --mem 1MiB
//
// Exit status: 0 when every resume matched, 1 on a mismatch or failure, 2
// on bad usage.
package main

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/pflag"
)

func main() {
	fs := pflag.NewFlagSet("crashtest", pflag.ContinueOnError)
	pieces := fs.IntP("pieces", "n", 3, "build the tables up to N pieces (2..5)")
	kills := fs.IntP("kills", "k", 20, "kills of each command")
	commands := fs.StringSlice("commands", []string{"gen", "slim", "convert"}, "the dtb commands to kill: gen, slim, convert")
	old := fs.String("old", filepath.Join("testdata", "format2"), "tables of an older format, for dtb convert")
	seed := fs.Uint64("seed", uint64(time.Now().UnixNano()), "random seed of the kill moments")
	dtb := fs.String("dtb", "", "dtb binary to test (default: go build ./cmd/dtb)")
	work := fs.String("work", "", "work directory, kept afterwards (default: a temporary one, removed)")
	mem := fs.String("mem", "", "dtb gen --mem of the killed runs and the reruns, however small (default: dtb gen's)")
	if err := fs.Parse(os.Args[1:]); err != nil {
		if errors.Is(err, pflag.ErrHelp) {
			fmt.Fprintf(os.Stderr, "usage: crashtest [flags]\n\n%s", fs.FlagUsages())
			os.Exit(0)
		}
		fail(2, err)
	}
	if *pieces < 2 || *pieces > 5 || *kills < 1 || fs.NArg() != 0 {
		fail(2, errors.New("--pieces must be in 2..5, --kills at least 1, and no arguments"))
	}
	for _, c := range *commands {
		if !slices.Contains([]string{"gen", "slim", "convert"}, c) {
			fail(2, fmt.Errorf("--commands: %q is not gen, slim or convert", c))
		}
	}
	os.Setenv("DTB_MEM_UNCHECKED", "1") // for the dtb runs
	root := *work
	if root == "" {
		dir, err := os.MkdirTemp("", "crashtest")
		if err != nil {
			fail(1, err)
		}
		defer os.RemoveAll(dir)
		root = dir
	}
	t := &tester{root: root, pieces: *pieces, mem: *mem, old: *old, bin: *dtb, rng: rand.New(rand.NewPCG(*seed, 0))}
	fmt.Printf("crashtest: %d kills of dtb %s at %d pieces, --mem %q, seed %d\n", *kills, strings.Join(*commands, ", "), *pieces, *mem, *seed)
	err := t.run(*commands, *kills)
	if err != nil {
		if *work == "" {
			os.RemoveAll(root)
		}
		fail(1, err)
	}
}

func fail(code int, err error) {
	fmt.Fprintf(os.Stderr, "crashtest: %v\n", err)
	os.Exit(code)
}

// tester holds one crash test.
type tester struct {
	root   string
	pieces int
	mem    string // --mem of the killed runs and reruns of dtb gen, "" for none
	old    string // tables of an older format, for dtb convert
	bin    string
	rng    *rand.Rand
}

// A job is a dtb command that writes a directory, killed and rerun.
type job struct {
	name    string
	args    func(dir string, reference bool) []string // the command line that writes dir, in the reference run or not
	prepare func(dir string) error                    // makes dir as the command finds it at first
	fen     string                                    // a position the directory's tables answer
	took    time.Duration                             // the reference run
	ref     map[string][32]byte                       // the reference's files
}

func (t *tester) run(commands []string, kills int) error {
	start := time.Now()
	if t.bin == "" {
		t.bin = filepath.Join(t.root, "dtb")
		if out, err := exec.Command("go", "build", "-o", t.bin, "github.com/dtb-draughts/dtb/cmd/dtb").CombinedOutput(); err != nil {
			return fmt.Errorf("go build: %v: %s", err, out)
		}
	}
	// N-1 white kings against a black king.
	var kings []string
	for sq := 46; sq < 46+t.pieces-1; sq++ {
		kings = append(kings, "K"+strconv.Itoa(sq))
	}
	fen := "W:W" + strings.Join(kings, ",") + ":BK5"
	built := filepath.Join(t.root, "ref-gen") // gen's reference
	remove := func(dir string) error { return os.RemoveAll(dir) }
	jobs := map[string]*job{
		"gen": {name: "gen", prepare: remove, fen: fen, args: func(dir string, reference bool) []string {
			args := []string{"gen", "--pieces", strconv.Itoa(t.pieces), "--out", dir}
			if t.mem != "" && !reference { // the reference under dtb gen's default budget
				args = append(args, "--mem", t.mem)
			}
			return args
		}},
		"slim": {name: "slim", prepare: remove, fen: fen, args: func(dir string, _ bool) []string {
			return []string{"slim", "--dir", built, "--out", dir}
		}},
		"convert": {name: "convert", fen: "W:WK46,K47:BK5", args: func(dir string, _ bool) []string {
			return []string{"convert", "--dir", dir}
		}, prepare: func(dir string) error {
			if err := os.RemoveAll(dir); err != nil {
				return err
			}
			return copyDir(t.old, dir)
		}},
	}
	// dtb gen's reference, which dtb slim reads, comes first.
	for _, name := range []string{"gen", "slim", "convert"} {
		j := jobs[name]
		if !slices.Contains(commands, name) && (name != "gen" || !slices.Contains(commands, "slim")) {
			continue
		}
		if err := t.reference(j); err != nil {
			return err
		}
		if !slices.Contains(commands, name) {
			continue
		}
		if err := t.kill(j, kills); err != nil {
			return fmt.Errorf("dtb %s: %w", j.name, err)
		}
	}
	fmt.Printf("crashtest: passed, %d kills of each of dtb %s at %d pieces in %s\n", kills, strings.Join(commands, ", "), t.pieces, time.Since(start).Round(time.Second))
	return nil
}

// reference runs j once to the end, without a kill, and checks what it
// wrote with dtb verify.
func (t *tester) reference(j *job) error {
	dir := filepath.Join(t.root, "ref-"+j.name)
	if err := j.prepare(dir); err != nil {
		return err
	}
	start := time.Now()
	if err := t.dtb(j.args(dir, true)...); err != nil {
		return fmt.Errorf("reference run: %w", err)
	}
	j.took = time.Since(start)
	if err := t.dtb("verify", "--dir", dir); err != nil {
		return fmt.Errorf("reference verify: %w", err)
	}
	var err error
	if j.ref, err = hashes(dir); err != nil {
		return err
	}
	fmt.Printf("dtb %s: reference of %d files written in %s, verified\n", j.name, len(j.ref), j.took.Round(time.Millisecond))
	return nil
}

// kill runs rounds of j until it has been killed kills times: each
// round prepares a fresh directory, kills j there (and, half of the
// time, its rerun too, and so on), then reruns it to the end and checks
// the directory against the reference.
func (t *tester) kill(j *job, kills int) error {
	dir := filepath.Join(t.root, "work-"+j.name)
	for done, round := 0, 1; done < kills; round++ {
		if err := j.prepare(dir); err != nil {
			return err
		}
		var moments []string
		for {
			killed, at, err := t.killedRun(j, dir)
			if err != nil {
				return err
			}
			if killed {
				done++
				moments = append(moments, at)
			} else {
				moments = append(moments, "finished first")
			}
			if done >= kills || t.rng.IntN(2) == 0 {
				break // else kill the rerun too
			}
		}
		resume := time.Now()
		if err := t.dtb(j.args(dir, false)...); err != nil {
			return fmt.Errorf("round %d: resume after kills at %s: %w", round, strings.Join(moments, ", "), err)
		}
		if err := t.check(j, dir); err != nil {
			return fmt.Errorf("round %d: after kills at %s: %w", round, strings.Join(moments, ", "), err)
		}
		fmt.Printf("dtb %s, round %d: kills at %s; resumed in %s: identical, probes (%d/%d kills)\n",
			j.name, round, strings.Join(moments, ", "), time.Since(resume).Round(time.Millisecond), done, kills)
	}
	return nil
}

// killedRun starts j on dir and kills it, half of the time at a random
// moment within the time of the reference run, half of the time as soon
// as it sees the directory change for the k-th time (a file or a
// temporary file appears or goes), k random: the moments around a write,
// where a run is most fragile. It reports whether the kill came before
// the run finished, and when.
func (t *tester) killedRun(j *job, dir string) (bool, string, error) {
	cmd := exec.Command(t.bin, j.args(dir, false)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		return false, "", err
	}
	start := time.Now()
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	deadline := time.After(time.Duration(t.rng.Int64N(int64(j.took))))
	changes, k := -1, 0 // no watch: kill at the deadline
	if t.rng.IntN(2) == 0 {
		k = 1 + t.rng.IntN(2*len(j.ref))
		changes, deadline = k, nil
	}
	at := ""
	seen := listing(dir)
	for at == "" {
		select {
		case err := <-exited:
			if err != nil {
				return false, "", fmt.Errorf("not killed yet: %v: %s", err, stderr.Bytes())
			}
			return false, "", nil
		case <-deadline:
			at = time.Since(start).Round(time.Millisecond).String()
		case <-time.After(200 * time.Microsecond):
			if changes < 0 {
				continue
			}
			if now := listing(dir); now != seen {
				seen = now
				if changes--; changes == 0 {
					at = fmt.Sprintf("change %d", k)
				}
			}
		}
	}
	if err := cmd.Process.Kill(); err != nil && !errors.Is(err, os.ErrProcessDone) {
		return false, "", err
	}
	err := <-exited
	var exit *exec.ExitError
	if errors.As(err, &exit) && !exit.Exited() { // killed by the signal
		return true, at, nil
	}
	return false, "", err // it finished just before the kill
}

// listing returns the paths under dir (the work folder's units
// included), or "" if it cannot be read.
func listing(dir string) string {
	var b strings.Builder
	filepath.WalkDir(dir, func(path string, _ os.DirEntry, err error) error {
		if err == nil {
			b.WriteString(path + "\n")
		}
		return nil
	})
	return b.String()
}

// check compares dir, written by j, with j's reference and probes j's
// position there.
func (t *tester) check(j *job, dir string) error {
	got, err := hashes(dir)
	if err != nil {
		return err
	}
	var diffs []string
	for name, h := range j.ref {
		if g, ok := got[name]; !ok {
			diffs = append(diffs, name+" missing")
		} else if g != h {
			diffs = append(diffs, name+" differs")
		}
	}
	for name := range got {
		if _, ok := j.ref[name]; !ok {
			diffs = append(diffs, name+" stray")
		}
	}
	if len(diffs) > 0 {
		slices.Sort(diffs)
		return fmt.Errorf("not the reference: %s", strings.Join(diffs, ", "))
	}
	return t.dtb("probe", "--dir", dir, j.fen)
}

// dtb runs dtb with args and returns an error with its stderr if it fails.
func (t *tester) dtb(args ...string) error {
	cmd := exec.Command(t.bin, args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("dtb %s: %v: %s", strings.Join(args, " "), err, bytes.TrimSpace(stderr.Bytes()))
	}
	return nil
}

// hashes returns the SHA-256 of every file of dir by name; a folder left
// there is named with a slash, with a zero sum.
func hashes(dir string) (map[string][32]byte, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	out := map[string][32]byte{}
	for _, e := range entries {
		if e.IsDir() {
			out[e.Name()+"/"] = [32]byte{}
			continue
		}
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			return nil, err
		}
		out[e.Name()] = sha256.Sum256(b)
	}
	return out, nil
}

// copyDir copies the files of from into a new directory to.
func copyDir(from, to string) error {
	entries, err := os.ReadDir(from)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(to, 0o755); err != nil {
		return err
	}
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join(from, e.Name()))
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(to, e.Name()), b, 0o644); err != nil {
			return err
		}
	}
	return nil
}
