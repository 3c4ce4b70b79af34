package retro

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/dtb-draughts/dtb/index"
	"github.com/dtb-draughts/dtb/internal/testenv"
	"github.com/dtb-draughts/dtb/table"
)

var updateGolden = flag.Bool("update", false, "rewrite the golden tables in ../testdata")

// TestGolden checks that Generate reproduces the golden tables byte for
// byte, manifest included: every table up to 3 pieces with the dtw column
// (testdata/golden) and without (testdata/golden-plain). A change to the
// ranking, the packing of an entry, the stats or the framing of a file
// fails here. It builds one set with 1 thread and the other with 2 (each
// with both under DTB_LONG=1), so both ways propagate deals a unit out
// (by pairs, and by parallel.Chunk with compare-and-swaps, which 2
// threads take at 3 pieces) are checked.
func TestGolden(t *testing.T) {
	for name, dtw := range map[string]bool{"golden": true, "golden-plain": false} {
		for _, threads := range []int{1, 2} {
			if !testenv.Long() && !*updateGolden && (threads == 1) != dtw {
				continue
			}
			t.Run(fmt.Sprintf("%s/threads=%d", name, threads), func(t *testing.T) {
				checkGolden(t, filepath.Join("..", "testdata", name), dtw, threads)
			})
		}
	}
}

func checkGolden(t *testing.T, golden string, dtw bool, threads int) {
	dir := t.TempDir()
	if err := Generate(context.Background(), Options{Pieces: 3, Dir: dir, DTW: dtw, Threads: threads}); err != nil {
		t.Fatal(err)
	}
	if *updateGolden && threads == 1 { // the first run writes, the second checks against it
		if err := os.RemoveAll(golden); err != nil {
			t.Fatal(err)
		}
		if err := os.CopyFS(golden, os.DirFS(dir)); err != nil {
			t.Fatal(err)
		}
	}
	names := func(dir string) []string {
		entries, err := os.ReadDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		return names
	}
	got, want := names(dir), names(golden)
	if !slices.Equal(got, want) {
		t.Fatalf("files %v, golden %v", got, want)
	}
	for _, name := range got {
		a, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(filepath.Join(golden, name))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(a, b) {
			t.Errorf("%s differs from the golden file (%d bytes, golden %d): regenerate on purpose with -update", name, len(a), len(b))
		}
	}
}

// TestDTWPieces checks that Options.DTWPieces stores the dtw in the
// tables of at most that many pieces only: a build of 3 pieces with
// DTWPieces 2 writes the 2-piece tables of testdata/golden and the
// 3-piece tables of testdata/golden-plain, byte for byte.
func TestDTWPieces(t *testing.T) {
	dir := t.TempDir()
	if err := Generate(context.Background(), Options{Pieces: 3, DTWPieces: 2, Dir: dir, Threads: 2}); err != nil {
		t.Fatal(err)
	}
	for _, m := range index.Materials(3) {
		golden := "golden-plain"
		if m.Pieces() <= 2 {
			golden = "golden"
		}
		name := table.FileName(m)
		a, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(filepath.Join("..", "testdata", golden, name))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(a, b) {
			t.Errorf("%s differs from testdata/%s/%s", name, golden, name)
		}
	}
}
