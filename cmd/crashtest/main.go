// Command crashtest checks that an interrupted dtb gen always resumes to
// the tables of an uninterrupted build. It builds dtb, builds the tables
// once as a reference (and verifies them with dtb verify), then, round
// after round, starts dtb gen in a fresh directory and kills it (SIGKILL)
// at a random moment, sometimes kills the rerun too, and reruns it to the
// end: every file must then be byte for byte the reference's (SHA-256),
// with no stray file, and the tables must answer dtb probe. With --mem,
// the killed runs and the reruns solve each group in several units under
// that budget, while the reference is built with dtb gen's default: the
// kills then fall between and inside units too. Any budget is taken,
// however small (DTB_MEM_UNCHECKED=1 in dtb's environment): 1MiB splits
// every group into its smallest units.
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
	kills := fs.IntP("kills", "k", 20, "kills in all")
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
	t := &tester{root: root, pieces: *pieces, mem: *mem, bin: *dtb, rng: rand.New(rand.NewPCG(*seed, 0))}
	fmt.Printf("crashtest: %d kills at %d pieces, --mem %q, seed %d\n", *kills, *pieces, *mem, *seed)
	err := t.run(*kills)
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
	mem    string // --mem of the killed runs and reruns, "" for none
	bin    string
	rng    *rand.Rand
	build  time.Duration // of the reference
	ref    map[string][32]byte
}

func (t *tester) run(kills int) error {
	start := time.Now()
	if t.bin == "" {
		t.bin = filepath.Join(t.root, "dtb")
		if out, err := exec.Command("go", "build", "-o", t.bin, "github.com/dtb-draughts/dtb/cmd/dtb").CombinedOutput(); err != nil {
			return fmt.Errorf("go build: %v: %s", err, out)
		}
	}
	ref := filepath.Join(t.root, "ref")
	os.RemoveAll(ref)
	buildStart := time.Now()
	if err := t.dtb("gen", "--pieces", strconv.Itoa(t.pieces), "--out", ref); err != nil {
		return fmt.Errorf("reference build: %w", err)
	}
	t.build = time.Since(buildStart)
	if err := t.dtb("verify", "--dir", ref); err != nil {
		return fmt.Errorf("reference verify: %w", err)
	}
	var err error
	if t.ref, err = hashes(ref); err != nil {
		return err
	}
	fmt.Printf("reference: %d files built in %s, verified\n", len(t.ref), t.build.Round(time.Millisecond))
	dir := filepath.Join(t.root, "work")
	for done, round := 0, 1; done < kills; round++ {
		if err := os.RemoveAll(dir); err != nil {
			return err
		}
		var moments []string
		for {
			killed, at, err := t.killedRun(dir)
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
		if err := t.dtb(t.genArgs(dir)...); err != nil {
			return fmt.Errorf("round %d: resume after kills at %s: %w", round, strings.Join(moments, ", "), err)
		}
		if err := t.check(dir); err != nil {
			return fmt.Errorf("round %d: after kills at %s: %w", round, strings.Join(moments, ", "), err)
		}
		fmt.Printf("round %d: kills at %s; resumed in %s: identical, probes (%d/%d kills)\n",
			round, strings.Join(moments, ", "), time.Since(resume).Round(time.Millisecond), done, kills)
	}
	fmt.Printf("crashtest: passed, %d kills at %d pieces in %s\n", kills, t.pieces, time.Since(start).Round(time.Second))
	return nil
}

// killedRun starts dtb gen on dir and kills it, half of the time at a
// random moment within the time of the reference build, half of the time
// as soon as it sees the directory change for the k-th time (a file or a
// temporary file appears or goes), k random: the moments around a write,
// where a run is most fragile. It reports whether the kill came before
// the run finished, and when.
func (t *tester) killedRun(dir string) (bool, string, error) {
	cmd := exec.Command(t.bin, t.genArgs(dir)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		return false, "", err
	}
	start := time.Now()
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	deadline := time.After(time.Duration(t.rng.Int64N(int64(t.build))))
	changes, k := -1, 0 // no watch: kill at the deadline
	if t.rng.IntN(2) == 0 {
		k = 1 + t.rng.IntN(2*len(t.ref))
		changes, deadline = k, nil
	}
	at := ""
	seen := listing(dir)
	for at == "" {
		select {
		case err := <-exited:
			if err != nil {
				return false, "", fmt.Errorf("dtb gen, not killed yet: %v: %s", err, stderr.Bytes())
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

// genArgs returns the arguments of a killed run or a rerun into dir.
func (t *tester) genArgs(dir string) []string {
	args := []string{"gen", "--pieces", strconv.Itoa(t.pieces), "--out", dir}
	if t.mem != "" {
		args = append(args, "--mem", t.mem)
	}
	return args
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

// check compares dir with the reference and probes a position of the
// largest material.
func (t *tester) check(dir string) error {
	got, err := hashes(dir)
	if err != nil {
		return err
	}
	var diffs []string
	for name, h := range t.ref {
		if g, ok := got[name]; !ok {
			diffs = append(diffs, name+" missing")
		} else if g != h {
			diffs = append(diffs, name+" differs")
		}
	}
	for name := range got {
		if _, ok := t.ref[name]; !ok {
			diffs = append(diffs, name+" stray")
		}
	}
	if len(diffs) > 0 {
		slices.Sort(diffs)
		return fmt.Errorf("not the reference: %s", strings.Join(diffs, ", "))
	}
	// N-1 white kings against a black king.
	var kings []string
	for sq := 46; sq < 46+t.pieces-1; sq++ {
		kings = append(kings, "K"+strconv.Itoa(sq))
	}
	return t.dtb("probe", "--dir", dir, "W:W"+strings.Join(kings, ",")+":BK5")
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

// hashes returns the SHA-256 of every file of dir by name.
func hashes(dir string) (map[string][32]byte, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	out := map[string][32]byte{}
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			return nil, err
		}
		out[e.Name()] = sha256.Sum256(b)
	}
	return out, nil
}
