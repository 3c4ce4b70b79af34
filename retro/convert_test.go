package retro

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/dtb-draughts/dtb/index"
)

// TestConvertFormat3 converts the value and distance files of format 3
// (testdata/format3) when asked (Convert), and leaves them as they are
// for a build, which reads them.
func TestConvertFormat3(t *testing.T) {
	src := filepath.Join("..", "testdata", "format3")
	for _, forBuild := range []bool{true, false} {
		dir := t.TempDir()
		if err := os.CopyFS(dir, os.DirFS(src)); err != nil {
			t.Fatal(err)
		}
		var done []index.Material
		if err := convertTables(context.Background(), dir, func(m index.Material) { done = append(done, m) }, forBuild); err != nil {
			t.Fatalf("for a build %v: %v", forBuild, err)
		}
		for _, name := range []string{"KMvK.dtb", "KMvK.dtbd"} {
			got, err1 := os.ReadFile(filepath.Join(dir, name))
			old, err2 := os.ReadFile(filepath.Join(src, name))
			if err1 != nil || err2 != nil || bytes.Equal(got, old) != forBuild {
				t.Errorf("for a build %v: %s rewritten %v (%v, %v)", forBuild, name, !bytes.Equal(got, old), err1, err2)
			}
		}
		if len(done) != map[bool]int{true: 0, false: 1}[forBuild] {
			t.Errorf("for a build %v: converted %v", forBuild, done)
		}
	}
}
