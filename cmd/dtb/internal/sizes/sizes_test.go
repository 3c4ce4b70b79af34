package sizes

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dtb-draughts/dtb/codec"
	"github.com/dtb-draughts/dtb/index"
	"github.com/dtb-draughts/dtb/table"
)

// golden and plain hold every table up to 3 pieces, with and without the
// dtw column (see testdata/README.md).
var (
	golden = filepath.Join("..", "..", "..", "..", "testdata", "golden")
	plain  = filepath.Join("..", "..", "..", "..", "testdata", "golden-plain")
)

// onDisk returns, by piece count (0: all), the number of tables of dir,
// the bytes of their files as the file system reports them, those of
// their value files (or whole tables) alone, and their positions by the
// index.
func onDisk(t *testing.T, dir string) (tables, bytes, values, positions map[int]int64) {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join(dir, "*.dtb"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no tables in %s: %v", dir, err)
	}
	tables, bytes, values, positions = map[int]int64{}, map[int]int64{}, map[int]int64{}, map[int]int64{}
	for _, f := range paths {
		st, err := os.Stat(f)
		if err != nil {
			t.Fatal(err)
		}
		var dist int64
		if st, err := os.Stat(table.DistancePath(f)); err == nil {
			dist = st.Size()
		}
		m, err := index.ParseMaterial(filepath.Base(f[:len(f)-len(".dtb")]))
		if err != nil {
			t.Fatal(err)
		}
		for _, n := range []int{0, m.Pieces()} {
			tables[n]++
			bytes[n] += st.Size() + dist
			values[n] += st.Size()
			positions[n] += index.New(m).Size()
		}
	}
	return tables, bytes, values, positions
}

// TestEveryByte checks that the rows account for every byte of the
// golden table files, piece count by piece count, by column and by kind
// of file, and count their tables and positions; in format 3 and in
// format 2 (whole tables).
func TestEveryByte(t *testing.T) {
	for _, c := range []struct {
		dir   string
		dtw   bool
		whole bool
	}{{golden, true, false}, {plain, false, false}, {filepath.Join("..", "..", "..", "..", "testdata", "format2"), true, true}} {
		rows, err := Measure(c.dir)
		if err != nil {
			t.Fatal(err)
		}
		files, bytes, values, positions := onDisk(t, c.dir)
		if len(rows) != 3 || rows[0].Pieces != 2 || rows[1].Pieces != 3 || rows[2].Pieces != 0 {
			t.Fatalf("%s: rows %+v, want 2 pieces, 3 pieces and the total", c.dir, rows)
		}
		for _, r := range rows {
			if int64(r.Tables) != files[r.Pieces] || r.Bytes() != bytes[r.Pieces] || r.Positions != positions[r.Pieces] {
				t.Errorf("%s: %d pieces: %d tables, %d bytes, %d positions; on disk %d, %d, %d",
					c.dir, r.Pieces, r.Tables, r.Bytes(), r.Positions, files[r.Pieces], bytes[r.Pieces], positions[r.Pieces])
			}
			want := r.Files
			want[codec.Whole], want[codec.Values], want[codec.Distances] = 0, values[r.Pieces], bytes[r.Pieces]-values[r.Pieces]
			if c.whole {
				want[codec.Whole], want[codec.Values], want[codec.Distances] = bytes[r.Pieces], 0, 0
			}
			if r.Files != want {
				t.Errorf("%s: %d pieces: files of each kind %v, want %v", c.dir, r.Pieces, r.Files, want)
			}
			if r.Columns[table.ValueColumn] <= 0 || r.Columns[table.DistanceColumn] <= 0 || (r.Columns[table.DTWColumn] > 0) != c.dtw {
				t.Errorf("%s: %d pieces: columns %v, want value and distance bytes, dtw bytes %v", c.dir, r.Pieces, r.Columns, c.dtw)
			}
		}
	}
}

func TestBits(t *testing.T) {
	r := Row{Positions: 64, Columns: [table.NumColumns]int64{4, 2, 0}, Prefix: 10}
	if r.Bytes() != 16 || r.Bits(r.Bytes()) != 2 || r.Bits(r.Columns[table.ValueColumn]) != 0.5 {
		t.Errorf("%+v: %d bytes, %g bits a position, value %g; want 16, 2, 0.5", r, r.Bytes(), r.Bits(r.Bytes()), r.Bits(4))
	}
	if (Row{}).Bits(5) != 0 {
		t.Error("bits a position without positions: not 0")
	}
}

// TestErrors checks that a directory without a manifest, a bad material
// name and a damaged file fail.
func TestErrors(t *testing.T) {
	if _, err := Measure(t.TempDir()); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("no manifest: %v, want fs.ErrNotExist", err)
	}
	bad := t.TempDir()
	if err := codec.WriteManifest(bad, []codec.ManifestEntry{{File: "X.dtb", Material: "X"}}); err != nil {
		t.Fatal(err)
	}
	if _, err := Measure(bad); !errors.Is(err, codec.ErrCorrupt) || !strings.HasPrefix(err.Error(), filepath.Join(bad, codec.ManifestName)+" is damaged (entry ") {
		t.Errorf("material X: %v, want codec.ErrCorrupt naming the manifest", err)
	}
	damaged := t.TempDir()
	if err := os.CopyFS(damaged, os.DirFS(golden)); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(damaged, "KvK.dtb")
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	b[30] ^= 0x55 // the header
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Measure(damaged); !errors.Is(err, codec.ErrCorrupt) {
		t.Errorf("a damaged header: %v, want codec.ErrCorrupt", err)
	}
}
