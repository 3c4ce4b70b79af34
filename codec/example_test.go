package codec_test

import (
	"fmt"
	"log"
	"os"
	"path/filepath"

	"github.com/dtb-draughts/dtb/codec"
)

func Example() {
	dir, err := os.MkdirTemp("", "tables")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)

	// A table of 10 positions with a 1-byte and a 2-byte column.
	values := []byte{0, 1, 2, 1, 0, 0, 2, 1, 1, 0}
	dtw := make([]byte, 2*len(values))
	for i := range values {
		dtw[2*i] = byte(3 * i)
	}
	h := codec.Header{
		Material:  "KvK",
		Positions: int64(len(values)),
		BlockSize: 4,
		Columns:   []codec.Column{{Name: "value", Width: 1}, {Name: "dtw", Width: 2}},
		Meta:      map[string]string{"wins": "4"},
	}
	path := filepath.Join(dir, "KvK.dtb")
	if err := codec.Write(path, h, [][]byte{values, dtw}); err != nil {
		log.Fatal(err)
	}

	r, err := codec.Open(path)
	if err != nil {
		log.Fatal(err)
	}
	defer r.Close()
	fmt.Println(r.Header().Material, r.Header().Positions, "positions in", r.Blocks(), "blocks")
	block, err := r.ReadBlock(0, 1, nil) // positions 4 to 7 of "value"
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(block)
	col, err := r.ReadColumn(1)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(len(col), "bytes of dtw, position 9:", col[18])
	fmt.Println(r.Check())
	// Output:
	// KvK 10 positions in 3 blocks
	// [0 0 2 1]
	// 20 bytes of dtw, position 9: 27
	// <nil>
}
