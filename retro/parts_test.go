package retro

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/dtb-draughts/dtb/index"
	"github.com/dtb-draughts/dtb/internal/dirlock"
	"github.com/dtb-draughts/dtb/table"
)

// TestParts builds the group KKvM as a scheduler runs the units of
// Parts on two nodes without a budget: the group, the largest, gets
// Split 2, two solver units a level. Its parts run level by level, the
// two parts of a level at once, then the group's own unit. The tables
// must be Generate's (generated), the group's unit solving nothing. A
// part run before the level above is finished, or under another split,
// fails, naming that level; one run without a split fails, naming the
// flag. The group's unit beside a running part names the part. A part
// interrupted resumes, and removes its own temporary files, not its
// sibling's.
func TestParts(t *testing.T) {
	ref, err := generated()
	if err != nil {
		t.Fatal(err)
	}
	only, _ := index.ParseMaterial("KKvM")
	dir := t.TempDir()
	o := Options{Only: &only, DTW: true, MTC: true, Dir: dir, Threads: 1}
	units, err := Parts(o, 2)
	if err != nil {
		t.Fatal(err)
	}
	o.Split = 2         // every job of the group, as dtb plan passes --split 2
	var levels [][]Unit // the group's parts by level, highest first
	for _, u := range units {
		switch {
		case u.Group == only.String():
			if u.Split != 2 {
				t.Errorf("part %s: split %d, want 2", u.ID, u.Split)
			}
			if len(levels) == 0 || !strings.HasPrefix(u.ID, strings.TrimSuffix(levels[len(levels)-1][0].ID, "1of2")) {
				levels = append(levels, nil)
			}
			levels[len(levels)-1] = append(levels[len(levels)-1], u)
		case u.ID != only.String():
			for _, m := range u.Materials { // the deps' tables, from Generate's
				for _, name := range []string{table.FileName(m), table.DistancePath(table.FileName(m))} {
					copyFile(t, filepath.Join(ref, name), filepath.Join(dir, name))
				}
			}
		}
	}
	if len(levels) < 3 || len(levels[1]) != 2 {
		t.Fatalf("parts by level: %v", levels)
	}
	ctx := context.Background()
	second := levels[1][0].ID
	want := "part " + second + " needs the units of level 8 of KKvM finished in " + dir + " under the same --mem and --split: build the parts KKvM.l8.* first"
	if err := BuildUnit(ctx, second, o); err == nil || err.Error() != want {
		t.Errorf("%s first: %v, want %q", second, err, want)
	}
	noSplit := o
	noSplit.Split = 0
	wantSplit := "part " + second + " needs the --split of its plan: run dtb gen --unit " + second + " --split N, N the --nodes of its dtb plan"
	if err := BuildUnit(ctx, second, noSplit); err == nil || err.Error() != wantSplit {
		t.Errorf("%s without a split: %v, want %q", second, err, wantSplit)
	}

	var mu sync.Mutex
	solved := 0
	t.Cleanup(func() { testHookUnitDone = nil })
	testHookUnitDone = func(name string, s bool) error {
		mu.Lock()
		defer mu.Unlock()
		if s {
			solved++
		}
		return nil
	}
	// The first part is cancelled as its unit starts. It leaves temporary
	// files as a kill would, beside its sibling's. Its rerun removes its
	// own only and solves its unit.
	first, sib := levels[0][0].ID, levels[0][1].ID
	cancelled, cancel := context.WithCancel(ctx)
	oc := o
	oc.Progress = func(p Progress) {
		if strings.Contains(p.Current, ".l8.") {
			cancel()
		}
	}
	if err := BuildUnit(cancelled, first, oc); !errors.Is(err, context.Canceled) {
		t.Fatalf("%s cancelled: %v", first, err)
	}
	work := filepath.Join(dir, WorkDir, "KKvM")
	own := []string{filepath.Join(work, first, "KKvM.l8.0.1.result"), filepath.Join(work, "KKvM.l8.0.unit.1.tmp")}
	sibling := []string{filepath.Join(work, sib, "KKvM.dtb.spill"), filepath.Join(work, "KKvM.l8.1.unit.1.tmp")}
	for _, f := range append(own, sibling...) {
		if err := os.MkdirAll(filepath.Dir(f), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(f, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := BuildUnit(ctx, first, o); err != nil || solved != 1 {
		t.Fatalf("%s resumed: %v, %d units solved", first, err, solved)
	}
	for _, f := range own {
		if _, err := os.Stat(f); err == nil {
			t.Errorf("the part's own %s is left", f)
		}
	}
	for _, f := range sibling {
		if _, err := os.Stat(f); err != nil {
			t.Errorf("a sibling's file is gone: %v", err)
		}
		os.Remove(f)
	}
	os.Remove(filepath.Join(work, sib))
	for n, level := range levels {
		if n == 1 { // the level above is done, under split 2: one unit a level without
			other, last := o, level[1].ID
			other.Split = 3
			want := strings.Replace(want, second, last, 1)
			if err := BuildUnit(ctx, last, other); err == nil || err.Error() != want {
				t.Errorf("%s without the split: %v, want %q", last, err, want)
			}
		}
		var g sync.WaitGroup
		errs := make([]error, len(level))
		for i, p := range level {
			g.Go(func() { errs[i] = BuildUnit(ctx, p.ID, o) })
		}
		g.Wait()
		if err := errors.Join(errs...); err != nil {
			t.Fatal(err)
		}
	}
	if left, _ := filepath.Glob(filepath.Join(dir, WorkDir, "KKvM", "*.*of2")); len(left) > 0 {
		t.Errorf("the parts left their folders: %v", left)
	}
	if runtime.GOOS != "windows" && runtime.GOOS != "plan9" { // flock: the group's unit and its parts keep apart
		part, err := dirlock.Shared(work)
		if err != nil {
			t.Fatal(err)
		}
		scratch := filepath.Join(work, first)
		if err := os.Mkdir(scratch, 0o755); err != nil {
			t.Fatal(err)
		}
		own, err := dirlock.Exclusive(scratch)
		if err != nil {
			t.Fatal(err)
		}
		running := "is building unit " + first + " in " // the part, where the system names the holder
		if _, err := os.Stat("/proc/locks"); err != nil {
			running = "is building unit KKvM in "
		}
		if err := BuildUnit(ctx, only.String(), o); err == nil || !strings.Contains(err.Error(), running) {
			t.Errorf("the group's unit beside a part: %v, want %q", err, running)
		}
		own.Release()
		os.Remove(scratch)
		part.Release()
		group, err := dirlock.Exclusive(work)
		if err != nil {
			t.Fatal(err)
		}
		if err := BuildUnit(ctx, first, o); err == nil || !strings.Contains(err.Error(), "is building unit KKvM in") {
			t.Errorf("a part beside the group's unit: %v", err)
		}
		group.Release()
	}
	solved = 0
	if err := BuildUnit(ctx, only.String(), o); err != nil || solved > 0 {
		t.Fatalf("the group after its parts: %v, %d units solved", err, solved)
	}
	for _, m := range []index.Material{only, only.Flip()} {
		for _, name := range []string{table.FileName(m), table.DistancePath(table.FileName(m))} {
			got, err1 := os.ReadFile(filepath.Join(dir, name))
			want, err2 := os.ReadFile(filepath.Join(ref, name))
			if err1 != nil || err2 != nil || string(got) != string(want) {
				t.Errorf("%s differs from Generate's (%v, %v)", name, err1, err2)
			}
		}
	}
	if _, err := os.Stat(filepath.Join(dir, WorkDir, "KKvM")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the group's work folder is left: %v", err)
	}
}

// copyFile copies the file from, if there, to the file to.
func copyFile(t *testing.T, from, to string) {
	t.Helper()
	b, err := os.ReadFile(from)
	if errors.Is(err, os.ErrNotExist) {
		return
	}
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, b, 0o644); err != nil {
		t.Fatal(err)
	}
}
