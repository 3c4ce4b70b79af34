package diagram

import (
	"bytes"
	"encoding/xml"
	"errors"
	"flag"
	"io"
	"math/bits"
	"os"
	"path/filepath"
	"testing"

	"github.com/dtb-draughts/dtb/draughts"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// golden are the positions drawn into testdata/NAME.txt and NAME.svg.
var golden = []struct{ name, fen string }{
	{"start", "W:W31-50:B1-20"},
	{"kings", "B:WK10,28,K46:B5,23,K41"},
	{"empty", "W:W:B"},
}

// TestGolden compares Text and SVG byte for byte with the files in
// testdata/; go test ./diagram -update rewrites them.
func TestGolden(t *testing.T) {
	for _, g := range golden {
		p, err := draughts.ParseFEN(g.fen)
		if err != nil {
			t.Fatalf("%s: %v", g.fen, err)
		}
		for ext, draw := range map[string]func(draughts.Position) string{".txt": Text, ".svg": SVG} {
			path := filepath.Join("testdata", g.name+ext)
			got := []byte(draw(p))
			if *update {
				if err := os.WriteFile(path, got, 0o644); err != nil {
					t.Fatal(err)
				}
				continue
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (go test -update writes it)", err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("%s of %s differs from %s:\n%s", ext, g.fen, path, got)
			}
		}
	}
}

// TestSVGWellFormed checks that SVG writes well-formed XML with an svg
// root, a circle for each piece and a second circle for each king.
func TestSVGWellFormed(t *testing.T) {
	for _, g := range golden {
		p, _ := draughts.ParseFEN(g.fen)
		d := xml.NewDecoder(bytes.NewReader([]byte(SVG(p))))
		var root string
		circles := 0
		for {
			tok, err := d.Token()
			if errors.Is(err, io.EOF) {
				break
			} else if err != nil {
				t.Fatalf("%s: %v", g.fen, err)
			}
			if s, ok := tok.(xml.StartElement); ok {
				if root == "" {
					root = s.Name.Local
				}
				if s.Name.Local == "circle" {
					circles++
				}
			}
		}
		if want := bits.OnesCount64(p.White|p.Black) + bits.OnesCount64(p.Kings); root != "svg" || circles != want {
			t.Errorf("%s: root %q, %d circles, want svg and %d", g.fen, root, circles, want)
		}
	}
}
