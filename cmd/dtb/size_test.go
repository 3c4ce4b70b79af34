package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestSizeCommand checks that dtb size prints a row per piece count and a
// total whose bytes are those of the golden table files on disk, in text
// and in JSON.
func TestSizeCommand(t *testing.T) {
	dir := filepath.Join("..", "..", "testdata", "golden")
	var onDisk, values int64
	for _, pattern := range []string{"*.dtb", "*.dtbd"} {
		files, err := filepath.Glob(filepath.Join(dir, pattern))
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range files {
			st, err := os.Stat(f)
			if err != nil {
				t.Fatal(err)
			}
			onDisk += st.Size()
			if pattern == "*.dtb" {
				values += st.Size()
			}
		}
	}

	out, errOut, code := dtb("size", "--dir", dir)
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if code != 0 || len(lines) != 4 {
		t.Fatalf("size: %d %q %q, want a header and 3 rows", code, out, errOut)
	}
	head, total := strings.Fields(lines[0]), strings.Fields(lines[3])
	if len(head) != 30 || head[15] != "headers" || head[21] != "value_files" || len(total) != 21 || total[0] != "total" || total[2] != "815145" {
		t.Fatalf("size: header %q, total row %q", head, total)
	}
	if n, err := strconv.ParseInt(total[13], 10, 64); err != nil || n != onDisk {
		t.Errorf("size: total bytes %q, want the %d bytes on disk", total[13], onDisk)
	}

	out, errOut, code = dtb("size", "--dir", dir, "--json")
	lines = strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if code != 0 || len(lines) != 3 {
		t.Fatalf("size --json: %d %q %q, want 3 lines", code, out, errOut)
	}
	var row struct {
		Pieces *int             `json:"pieces"`
		Bytes  map[string]int64 `json:"bytes"`
		Bits   map[string]float64
	}
	if err := json.Unmarshal([]byte(lines[2]), &row); err != nil {
		t.Fatal(err)
	}
	parts := row.Bytes["value"] + row.Bytes["distance"] + row.Bytes["dtw"] + row.Bytes["headers"]
	files := row.Bytes["value_files"] + row.Bytes["distance_files"] + row.Bytes["whole_tables"]
	if row.Pieces != nil || row.Bytes["total"] != onDisk || parts != onDisk || files != onDisk || row.Bytes["value_files"] != values || row.Bits["total"] <= 0 {
		t.Errorf("size --json: total %q, want pieces null and %d bytes in all, in its parts and files too, %d in value files", lines[2], onDisk, values)
	}
}
