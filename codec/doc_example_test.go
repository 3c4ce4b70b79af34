package codec_test

import (
	"bytes"
	"encoding/hex"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestFormatExample checks the example of docs/format.md (section 4.7)
// against testdata/golden: every line of its byte dumps of KvK.dtb and
// KvK.dtbd, in order, and the stats it quotes.
func TestFormatExample(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "docs", "format.md"))
	if err != nil {
		t.Fatal(err)
	}
	section := string(doc)
	start := strings.Index(section, "### 4.7 Example")
	end := strings.Index(section[start+1:], "\n## ")
	if start < 0 || end < 0 {
		t.Fatal("docs/format.md: no section 4.7 before section 5")
	}
	blocks := strings.Split(section[start:start+1+end], "```")
	var dumps []string
	var stats string
	for i := 1; i < len(blocks); i += 2 { // the insides of the code blocks
		switch b := strings.TrimSpace(blocks[i]); {
		case strings.HasPrefix(b, "00000000: "):
			dumps = append(dumps, b)
		case strings.HasPrefix(b, "{"):
			stats = b
		}
	}
	files := []string{"KvK.dtb", "KvK.dtbd"}
	if len(dumps) != len(files) || stats == "" {
		t.Fatalf("docs/format.md, section 4.7: %d byte dumps and stats %q, want %d and the stats", len(dumps), stats, len(files))
	}
	line := regexp.MustCompile(`^([0-9a-f]{8}): ((?:[0-9a-f]{2,4} ?)+?)  `)
	for i, name := range files {
		file, err := os.ReadFile(filepath.Join("..", "testdata", "golden", name))
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range strings.Split(dumps[i], "\n") {
			m := line.FindStringSubmatch(l)
			if m == nil {
				t.Fatalf("%s dump: line %q is not a byte dump", name, l)
			}
			off, _ := strconv.ParseInt(m[1], 16, 64)
			want, err := hex.DecodeString(strings.ReplaceAll(m[2], " ", ""))
			if err != nil || off+int64(len(want)) > int64(len(file)) || !bytes.Equal(file[off:off+int64(len(want))], want) {
				t.Errorf("%s at %#x: docs/format.md shows % x, the file holds % x", name, off, want, file[off:min(off+int64(len(want)), int64(len(file)))])
			}
		}
	}
	if golden, _ := os.ReadFile(filepath.Join("..", "testdata", "golden", "KvK.dtb")); !bytes.Contains(golden, []byte(stats)) {
		t.Errorf("docs/format.md quotes the stats %s, which KvK.dtb does not hold", stats)
	}
}
