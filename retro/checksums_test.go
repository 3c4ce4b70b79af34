package retro

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dtb-draughts/dtb/index"
	"github.com/dtb-draughts/dtb/internal/testenv"
)

// checksums is the published SHA-256 of every file of dtb gen --pieces 5
// --dtw --mtc (../testdata/README.md).
const checksums = "../testdata/checksums/pieces5-dtw-mtc.sha256"

// TestPublishedChecksums checks every file of the tables up to 4 pieces
// with dtw and mtc that Generate builds (generated, which other tests
// share) against the published checksums; under DTB_LONG=1 it builds
// those up to 5 pieces (about 16 CPU-minutes), whose files must be
// exactly those listed, manifest included.
func TestPublishedChecksums(t *testing.T) {
	want := readChecksums(t, checksums)
	if !testenv.Long() {
		dir, err := generated()
		if err != nil {
			t.Fatal(err)
		}
		if n := checkSums(t, dir, want, false); n != 82 { // 41 tables and their distance files
			t.Errorf("%d files checked, want 82", n)
		}
		return
	}
	dir := t.TempDir()
	if err := Generate(context.Background(), Options{Pieces: 5, Dir: dir, DTW: true, MTC: true}); err != nil {
		t.Fatal(err)
	}
	if n := checkSums(t, dir, want, true); n != len(want) {
		t.Errorf("%d files built, %d published", n, len(want))
	}
}

// readChecksums returns the published checksums of file path by file
// name.
func readChecksums(t *testing.T, path string) map[string]string {
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sums := map[string]string{}
	s := bufio.NewScanner(f)
	for s.Scan() {
		sum, name, ok := strings.Cut(s.Text(), "  ")
		if !ok || len(sum) != 64 {
			t.Fatalf("%s: bad line %q", path, s.Text())
		}
		sums[name] = sum
	}
	if err := s.Err(); err != nil {
		t.Fatal(err)
	}
	return sums
}

// TestKingsAloneSums builds the groups of four kings alone, solved on
// orbits, with the tables they read (kings alone too), and checks each
// file against the published checksums of the default build.
func TestKingsAloneSums(t *testing.T) {
	want := readChecksums(t, "../testdata/checksums/pieces4.sha256")
	dir := t.TempDir()
	for _, name := range []string{"KKvKK", "KKKvK"} {
		m, _ := index.ParseMaterial(name)
		if err := Generate(context.Background(), Options{Only: &m, Dir: dir, DTWPieces: 4, Threads: 3}); err != nil {
			t.Fatal(err)
		}
	}
	n := checkSums(t, dir, want, false)
	if n != 12 { // KvK, KKvK, KvKK, KKKvK, KvKKK, KKvKK, each with its distances
		t.Errorf("%d files built, want 12", n)
	}
}

// checkSums checks the SHA-256 of every file in dir against want, the
// manifest only if manifest is set (a manifest lists the tables built),
// and returns the files checked.
func checkSums(t *testing.T, dir string, want map[string]string, manifest bool) int {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, e := range entries {
		if e.Name() == "MANIFEST.json" && !manifest {
			continue
		}
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		sum := sha256.Sum256(b)
		if got := hex.EncodeToString(sum[:]); got != want[e.Name()] {
			t.Errorf("%s: SHA-256 %s, published %q", e.Name(), got, want[e.Name()])
		}
		n++
	}
	return n
}
