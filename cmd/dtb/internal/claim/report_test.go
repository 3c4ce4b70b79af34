package claim_test

import (
	"bytes"
	"context"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/dtb-draughts/dtb/cmd/dtb/internal/claim"
	"github.com/dtb-draughts/dtb/internal/testenv"
	"github.com/dtb-draughts/dtb/probe"
)

var update = flag.Bool("update", false, "rewrite the golden report in testdata/")

// TestWriteReport writes the report from the 4-piece tables, which answer
// every claim but the one on KKKKvK, and compares it and its diagrams byte
// for byte with testdata/claims.md and testdata/claims/; go test ./claim
// -update rewrites them.
func TestWriteReport(t *testing.T) {
	testenv.SkipUnlessLong(t, "the claims report over every 4-piece position")
	tb, err := probe.Open(tablesDir(t), probe.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer tb.Close()
	golden, err := filepath.Abs("testdata")
	if err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	t.Chdir(out) // the report names its path: make it the same every time
	if err := claim.WriteReport(context.Background(), tb, "tables", "claims.md", 0); err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join("claims", "*.svg"))
	if len(files) != 4 {
		t.Errorf("diagrams %q, want 4: claims 1, 3, 4 and 5", files)
	}
	for _, name := range append(files, "claims.md") {
		got, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(golden, name)
		if *update {
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, got, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if want, err := os.ReadFile(path); err != nil || !bytes.Equal(got, want) {
			t.Errorf("%s differs from %s (%v); go test ./claim -update rewrites it:\n%s", name, path, err, got)
		}
	}
}
