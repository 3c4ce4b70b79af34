package retro_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/dtb-draughts/dtb/retro"
)

// Every table of 2 pieces, built in a new directory.
func ExampleGenerate() {
	dir, err := os.MkdirTemp("", "tables")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	if err := retro.Generate(context.Background(), retro.Options{Pieces: 2, Dir: dir}); err != nil {
		panic(err)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.dtb"))
	for _, f := range files {
		fmt.Println(filepath.Base(f))
	}
	// Output:
	// KvK.dtb
	// KvM.dtb
	// MvK.dtb
	// MvM.dtb
}
