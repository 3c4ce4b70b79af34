package table

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/dtb-draughts/dtb/codec"
	"github.com/dtb-draughts/dtb/index"
	"github.com/dtb-draughts/dtb/rules"
)

// testEntries returns pseudo-random entries of the table of m, in runs as
// a real table has them, and capture bits for about a quarter of them.
func testEntries(m index.Material, x Extra) (Columns, []uint64) {
	n := index.New(m).Size()
	cols := NewLayout(m, x).MakeColumns(n)
	captures := make([]uint64, (n+63)/64)
	rng := rand.New(rand.NewPCG(uint64(n), 2))
	class := rules.ClassOf(m)
	var e rules.Entry
	for i := range n {
		if i == 0 || rng.IntN(8) == 0 {
			v := codeValue(byte(rng.IntN(3)))
			d := rng.IntN(40)
			e = rules.NewEntry(class, rules.Outcome{Value: v, Dist: d}, rules.Outcome{Value: v, Dist: d + rng.IntN(3)})
			if x.MTC && v != rules.Draw {
				e.MTC = rng.IntN(d + 1)
			}
		}
		cols.Set(i, e)
		if rng.IntN(4) == 0 {
			captures[i/64] |= 1 << (i % 64)
		}
	}
	return cols, captures
}

// BenchmarkWrite writes the table of KKMvK (2.5 M positions, class A,
// with the dtw column) with write; its MB/s are M positions/s.
func BenchmarkWrite(b *testing.B) {
	m, _ := index.ParseMaterial("KKMvK")
	cols, captures := testEntries(m, Extra{DTW: true})
	path := filepath.Join(b.TempDir(), FileName(m))
	b.SetBytes(int64(len(cols[ValueColumn])))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := write(path, m, cols, captures); err != nil {
			b.Fatal(err)
		}
	}
}

// withBatch sets batch for the rest of the test.
func withBatch(t testing.TB, n int) {
	old := batch
	batch = n
	t.Cleanup(func() { batch = old })
}

// filled returns cols with the don't-cares filled as the format says, one
// position after the other: a capture position's bytes are a copy of the
// entry before it, and so are the bytes beyond the value of a theoretical
// draw; position 0 keeps its own.
func filled(cols Columns, captures []uint64) Columns {
	var out Columns
	for col, b := range cols {
		out[col] = slices.Clone(b)
	}
	for i := int64(1); i < int64(len(out[ValueColumn])); i++ {
		for col, b := range out {
			w := int64(Column(col).Width())
			draw := codeValue(out[ValueColumn][i]&3) == rules.Draw
			if b != nil && (isSet(captures, i) || draw && col != int(ValueColumn)) {
				copy(b[i*w:(i+1)*w], b[(i-1)*w:i*w])
			}
		}
	}
	return out
}

// slice returns entries [lo, hi) of cols and their capture bits.
func slice(cols Columns, captures []uint64, lo, hi int64) (Columns, []uint64) {
	var out Columns
	for col, b := range cols {
		if b != nil {
			w := int64(Column(col).Width())
			out[col] = b[lo*w : hi*w]
		}
	}
	bits := make([]uint64, (hi-lo+63)/64)
	for i := lo; i < hi; i++ {
		if isSet(captures, i) {
			bits[(i-lo)/64] |= 1 << ((i - lo) % 64)
		}
	}
	return out, bits
}

// TestWriter writes a table in several ways, whole, an entry at a time,
// in odd pieces, with batches of two sizes: each file must hold the
// entries with the don't-cares filled and the stats that Stats.Add counts
// position after position, and all must be the same bytes.
func TestWriter(t *testing.T) {
	m, _ := index.ParseMaterial("KMvK")
	x := index.New(m)
	cols, captures := testEntries(m, Extra{DTW: true, MTC: true})
	for _, i := range []int64{0, 995, 996, 997, 998, 999, 1000, 1001, 65535, 65536, 65537, x.Size() - 1} {
		captures[i/64] |= 1 << (i % 64) // runs of captures across batches
	}
	var want Stats
	for i := range x.Size() {
		e, _ := cols.Entry(i)
		want.Add(rules.ClassOf(m), e, isSet(captures, i), func() string { return rules.Position(x.Unrank(i)).FEN() })
	}
	wantCols := filled(cols, captures)
	ways := []struct {
		name  string
		write func(w *Writer) error
	}{
		{"whole", func(w *Writer) error { return w.AddColumns(&cols, captures) }},
		{"entries", func(w *Writer) error {
			for i := range x.Size() {
				e, _ := cols.Entry(i)
				if err := w.add(e, isSet(captures, i)); err != nil {
					return err
				}
			}
			return nil
		}},
		{"pieces", func(w *Writer) error {
			for lo := int64(0); lo < x.Size(); {
				hi := min(lo+777, x.Size())
				c, b := slice(cols, captures, lo, hi)
				if err := w.AddColumns(&c, b); err != nil {
					return err
				}
				if hi < x.Size() { // and one entry on its own
					e, _ := cols.Entry(hi)
					if err := w.add(e, isSet(captures, hi)); err != nil {
						return err
					}
					hi++
				}
				lo = hi
			}
			return nil
		}},
	}
	var first []byte
	for _, n := range []int{batch, 1000} {
		for _, way := range ways {
			t.Run(fmt.Sprintf("%s/batch%d", way.name, n), func(t *testing.T) {
				withBatch(t, n)
				path := filepath.Join(t.TempDir(), FileName(m))
				w, err := NewWriter(path, m, Extra{DTW: true, MTC: true}, Full)
				if err != nil {
					t.Fatal(err)
				}
				if err := way.write(w); err != nil {
					t.Fatal(err)
				}
				if err := w.Close(); err != nil {
					t.Fatal(err)
				}
				if !reflect.DeepEqual(w.Stats(), want) {
					t.Errorf("stats %+v, want %+v", w.Stats(), want)
				}
				f, err := Open(path, m)
				if err != nil {
					t.Fatal(err)
				}
				defer f.Close()
				got, err := f.ReadColumns()
				if err != nil {
					t.Fatal(err)
				}
				if !reflect.DeepEqual(got, wantCols) || !reflect.DeepEqual(f.Stats, want) {
					t.Errorf("the file holds other entries or stats")
				}
				b, err := os.ReadFile(path)
				if err != nil {
					t.Fatal(err)
				}
				if first == nil {
					first = b
				} else if !bytes.Equal(b, first) {
					t.Errorf("the file differs from the first one written")
				}
			})
		}
	}
}

// TestResolvedWriter checks that a resolved table keeps every entry as
// given, those of its capture positions included, says so in its header,
// and counts no stats.
func TestResolvedWriter(t *testing.T) {
	m, _ := index.ParseMaterial("KMvK")
	x := Extra{DTW: true, MTC: true}
	cols, captures := testEntries(m, x)
	for i := int64(1); i < index.New(m).Size(); i += 7 {
		captures[i/64] |= 1 << (i % 64)
	}
	dir := t.TempDir()
	var stats [2]Stats
	for k, v := range []Variant{Full, Work} {
		path := filepath.Join(dir, fmt.Sprint(k), FileName(m))
		os.Mkdir(filepath.Dir(path), 0o755)
		w, err := NewWriter(path, m, x, v)
		if err != nil {
			t.Fatal(err)
		}
		if err := w.AddColumns(&cols, captures); err != nil {
			t.Fatal(err)
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		stats[k] = w.Stats()
		f, err := Open(path, m)
		if err != nil {
			t.Fatal(err)
		}
		got, err := f.ReadColumns()
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		resolved := k == 1
		want := filled(cols, captures)
		if resolved {
			want = cols
		}
		if (f.Variant == Work) != resolved || !reflect.DeepEqual(got, want) {
			t.Errorf("resolved %v: variant %v, or the file holds other entries", resolved, f.Variant)
		}
	}
	if stats[0].Positions != index.New(m).Size() || stats[1] != (Stats{}) {
		t.Errorf("stats %+v, resolved %+v (want none)", stats[0], stats[1])
	}
}

// TestWriterErrors gives a Writer too few or too many entries, or columns
// that do not fit: the error names the file and no file is left.
func TestWriterErrors(t *testing.T) {
	m, _ := index.ParseMaterial("KvK")
	cols, captures := testEntries(m, Extra{})
	e, _ := cols.Entry(0)
	for _, tc := range []struct {
		name  string
		write func(w *Writer) error
		want  string
	}{
		{"few", func(w *Writer) error { return w.add(e, false) }, "1 entries, want 2450"},
		{"many", func(w *Writer) error {
			if err := w.AddColumns(&cols, captures); err != nil {
				return err
			}
			return w.add(e, false)
		}, "more than 2450 entries"},
		{"many columns", func(w *Writer) error {
			if err := w.add(e, false); err != nil {
				return err
			}
			return w.AddColumns(&cols, captures)
		}, "more than 2450 entries"},
		{"no dtw", func(w *Writer) error {
			c := NewLayout(m, Extra{DTW: true}).MakeColumns(10)
			return w.AddColumns(&c, captures)
		}, "columns do not fit the table's [value distance]"},
		{"short", func(w *Writer) error {
			c := cols
			c[DistanceColumn] = c[DistanceColumn][:10]
			return w.AddColumns(&c, captures)
		}, "columns do not fit"},
		{"few capture bits", func(w *Writer) error { return w.AddColumns(&cols, captures[:5]) }, "5 words of capture bits for 2450 entries"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, FileName(m))
			w, err := NewWriter(path, m, Extra{}, Full)
			if err != nil {
				t.Fatal(err)
			}
			err = tc.write(w)
			if err != nil {
				w.Abort()
			} else {
				err = w.Close()
			}
			if err == nil || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("got %v, want an error naming %s and saying %s", err, path, tc.want)
			}
			if names, _ := os.ReadDir(dir); len(names) != 0 {
				t.Errorf("left files %v", names)
			}
		})
	}
}

// BenchmarkWriterAdd writes the table of KKMvK (2.5 M positions, class
// A, with the dtw column) an entry at a time; decoding each entry from
// columns is part of the time. Its MB/s are M positions/s.
func BenchmarkWriterAdd(b *testing.B) {
	m, _ := index.ParseMaterial("KKMvK")
	cols, captures := testEntries(m, Extra{DTW: true})
	path := filepath.Join(b.TempDir(), FileName(m))
	n := int64(len(cols[ValueColumn]))
	b.SetBytes(n)
	b.ReportAllocs()
	for b.Loop() {
		w, err := NewWriter(path, m, Extra{DTW: true}, Full)
		if err != nil {
			b.Fatal(err)
		}
		for i := range n {
			e, _ := cols.Entry(i)
			if err := w.add(e, isSet(captures, i)); err != nil {
				b.Fatal(err)
			}
		}
		if err := w.Close(); err != nil {
			b.Fatal(err)
		}
	}
}

// TestPlainFile reads a table as the version before rulesCompact wrote
// it (rules flags rulesFlagsPlain: a draw's distance, dtw and mtc bytes
// 255, 0xFFFF and 255, the mtc byte itself): it has the entries of the
// compact file of the same table, in the whole and block by block.
func TestPlainFile(t *testing.T) {
	m, _ := index.ParseMaterial("KKvKK") // rule 2: value, distance and mtc; 22 blocks
	x := Extra{DTW: true, MTC: true}
	cols, captures := testEntries(m, x)
	dir := t.TempDir()
	compact := filepath.Join(dir, "compact.dtb")
	if _, err := write(compact, m, cols, captures); err != nil {
		t.Fatal(err)
	}
	f, err := Open(compact, m)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	want, err := f.ReadColumns()
	if err != nil {
		t.Fatal(err)
	}
	n := int64(len(want[ValueColumn]))
	plain := make([][]byte, 0, NumColumns)
	h := f.Header()
	h.Kind, h.Columns = codec.Whole, nil
	delete(h.Meta, distancesKey)
	for _, name := range columnList(f.Layout) {
		c := ColumnNamed(name)
		h.Columns = append(h.Columns, codec.Column{Name: name, Width: c.Width()})
		plain = append(plain, make([]byte, n*int64(c.Width())))
	}
	for i := range n {
		e, _ := want.Entry(i)
		plain[f.Layout[ValueColumn]][i] = want[ValueColumn][i]
		dist := byte(NoDistance)
		if e.Distance >= 0 {
			dist = byte(e.Distance)
		}
		plain[f.Layout[DistanceColumn]][i] = dist
		dtw := uint16(noDTW)
		if e.DTW >= 0 {
			dtw = uint16(e.DTW)
		}
		plain[f.Layout[DTWColumn]][2*i], plain[f.Layout[DTWColumn]][2*i+1] = byte(dtw), byte(dtw>>8)
		mtc := byte(NoMTC)
		if e.MTC >= 0 {
			mtc = byte(e.MTC)
		}
		plain[f.Layout[MTCColumn]][i] = mtc
	}
	h.Rules = rulesFlagsPlain
	path := filepath.Join(dir, "plain.dtb")
	if err := codec.Write(path, h, plain); err != nil {
		t.Fatal(err)
	}
	p, err := Open(path, m)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if !p.Plain || p.Variant == NoRule2 || f.Plain {
		t.Fatalf("Plain %v and %v, tracks rule 2 %v", p.Plain, f.Plain, p.Variant != NoRule2)
	}
	got, err := p.ReadColumns()
	if err != nil {
		t.Fatal(err)
	}
	for b := range int((n + int64(h.BlockSize) - 1) / int64(h.BlockSize)) {
		blk, err := p.ReadBlock(b)
		if err != nil {
			t.Fatal(err)
		}
		for j := range int64(len(blk[ValueColumn])) {
			i := int64(b)*int64(h.BlockSize) + j
			e, _ := blk.Entry(j)
			if w, _ := want.Entry(i); e != w {
				t.Fatalf("block %d: entry %d = %+v, want %+v", b, i, e, w)
			}
		}
	}
	checkRuns(t, f, want)
	checkRuns(t, p, want)
	mtcs := 0
	for i := range n {
		e, _ := got.Entry(i)
		if w, _ := want.Entry(i); e != w {
			t.Fatalf("entry %d = %+v, want %+v", i, e, w)
		}
		if e.MTC > 0 {
			mtcs++
		}
	}
	if mtcs == 0 {
		t.Error("no entry has an mtc")
	}
	// Converted, it is the compact table as a Writer writes it.
	if ok, err := Convert(path, m); !ok || err != nil {
		t.Fatalf("Convert: %v, %v", ok, err)
	}
	for _, pair := range [][2]string{{path, compact}, {DistancePath(path), DistancePath(compact)}} {
		a, err1 := os.ReadFile(pair[0])
		b, err2 := os.ReadFile(pair[1])
		if err1 != nil || err2 != nil || !bytes.Equal(a, b) {
			t.Errorf("converted %s differs from %s (%v, %v)", pair[0], pair[1], err1, err2)
		}
	}
}

// checkRuns checks that each column of every block of f, read alone
// (ReadBlock of one column) and as runs (ReadRuns, and those decoded),
// holds the bytes of want, every entry of f: the bytes that mean
// something, those of the value column and of the theoretical wins and
// losses (see DecodeEntry).
func checkRuns(t *testing.T, f *File, want Columns) {
	t.Helper()
	size := int64(f.Header().BlockSize)
	for b := range int((int64(len(want[ValueColumn])) + size - 1) / size) {
		lo := int64(b) * size
		n := min(size, int64(len(want[ValueColumn]))-lo)
		for col := range NumColumns {
			if !f.Layout.Has(col) {
				continue
			}
			w := int64(col.Width())
			wantBlock := want[col][lo*w : (lo+n)*w]
			got, err := f.ReadBlock(b, col)
			if err != nil {
				t.Fatal(err)
			}
			for c := range got {
				if Column(c) != col && got[c] != nil {
					t.Fatalf("%s block %d: ReadBlock of the %s column read the %s column too", f.path, b, col.Name(), Column(c).Name())
				}
			}
			if len(got[col]) != len(wantBlock) {
				t.Fatalf("%s block %d: ReadBlock of the %s column has %d bytes, want %d", f.path, b, col.Name(), len(got[col]), len(wantBlock))
			}
			means := func(j int) bool {
				theory, _ := want.Values(lo + int64(j))
				return col == ValueColumn || theory != rules.Draw
			}
			for j := range int(n) {
				if means(j) && !bytes.Equal(got[col][int64(j)*w:int64(j+1)*w], wantBlock[int64(j)*w:int64(j+1)*w]) {
					t.Fatalf("%s block %d: ReadBlock of the %s column differs at %d", f.path, b, col.Name(), j)
				}
			}
			if w != 1 {
				continue
			}
			r, err := f.ReadRuns(b, col)
			if err != nil {
				t.Fatal(err)
			}
			d := r.Decoded(int(n))
			for j := range int(n) {
				if means(j) && (r.At(j) != wantBlock[j] || d.At(j) != wantBlock[j]) {
					t.Fatalf("%s block %d: the %s column as runs has %d at %d (decoded %d), want %d", f.path, b, col.Name(), r.At(j), j, d.At(j), wantBlock[j])
				}
			}
		}
	}
}

// TestFormerVersions reads the table files of codec format versions 1
// (testdata/format1/KMvK.dtb, the golden KMvK table before packed blocks)
// and 3 (testdata/format3, its value and distance files before blocks
// stored as tokens) entry by entry against today's golden files of the
// same table, whole and block by block as the prober keeps them.
func TestFormerVersions(t *testing.T) {
	m, _ := index.ParseMaterial("KMvK")
	dirs := []string{"golden-plain", "format1", "format3"}
	cols := make([]Columns, len(dirs))
	for i, dir := range dirs {
		path := filepath.Join("..", "testdata", dir, "KMvK.dtb")
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if v, want := codec.Format(b[8]), []codec.Format{codec.Version, 1, 3}[i]; v != want {
			t.Fatalf("%s: format version %d, want %d", path, v, want)
		}
		f, err := Open(path, m)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		if cols[i], err = f.ReadColumns(); err != nil {
			t.Fatal(err)
		}
		if len(cols[i][ValueColumn]) == 0 || len(cols[i][DistanceColumn]) == 0 {
			t.Fatalf("%s: no value or distance column", path)
		}
		for c := range cols[i] {
			if !bytes.Equal(cols[i][c], cols[0][c]) {
				t.Errorf("%s: column %d differs", path, c)
			}
		}
		checkRuns(t, f, cols[0])
	}
}

// TestConvert converts the whole tables of testdata/format2 (format 2,
// written before the value and distance files) and gets the files of
// testdata/golden byte for byte, those of a fresh build; a table already
// converted is left as it is.
func TestConvert(t *testing.T) {
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS(filepath.Join("..", "testdata", "format2"))); err != nil {
		t.Fatal(err)
	}
	golden := filepath.Join("..", "testdata", "golden")
	for _, m := range index.Materials(3) {
		path := filepath.Join(dir, FileName(m))
		if ok, err := Convert(path, m); !ok || err != nil {
			t.Fatalf("Convert %s: %v, %v", m, ok, err)
		}
		for _, p := range []string{path, DistancePath(path)} {
			got, err1 := os.ReadFile(p)
			want, err2 := os.ReadFile(filepath.Join(golden, filepath.Base(p)))
			if err1 != nil || err2 != nil || !bytes.Equal(got, want) {
				t.Errorf("%s: differs from testdata/golden (%v, %v)", filepath.Base(p), err1, err2)
			}
		}
		if ok, err := Convert(path, m); ok || err != nil {
			t.Errorf("Convert %s again: %v, %v; want nothing done", m, ok, err)
		}
	}
}

// TestConvertFormat3 converts the value and distance files of
// testdata/format3 (format 3) and gets those of testdata/golden-plain,
// a fresh build's, byte for byte.
func TestConvertFormat3(t *testing.T) {
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS(filepath.Join("..", "testdata", "format3"))); err != nil {
		t.Fatal(err)
	}
	m, _ := index.ParseMaterial("KMvK")
	path := filepath.Join(dir, FileName(m))
	if ok, err := Convert(path, m); !ok || err != nil {
		t.Fatalf("Convert: %v, %v", ok, err)
	}
	for _, p := range []string{path, DistancePath(path)} {
		got, err1 := os.ReadFile(p)
		want, err2 := os.ReadFile(filepath.Join("..", "testdata", "golden-plain", filepath.Base(p)))
		if err1 != nil || err2 != nil || !bytes.Equal(got, want) {
			t.Errorf("%s: differs from testdata/golden-plain (%v, %v)", filepath.Base(p), err1, err2)
		}
	}
	if ok, err := Convert(path, m); ok || err != nil {
		t.Errorf("Convert again: %v, %v; want nothing done", ok, err)
	}
}

// TestRulesFlags checks which rules flags a value file may have: those of
// a build and of the earlier versions, and a build's with the flags of a
// slim directory (rulesSlim), short distances only with marks, and
// forced threats left out of no table of class A or B.
func TestRulesFlags(t *testing.T) {
	for _, c := range []struct {
		rules uint32
		known bool
	}{
		{rulesFlagsFull, true},
		{rulesFlagsWork, true},
		{rulesFlagsPlain, true},
		{rulesFlagsNoRule2, true},
		{rulesFlagsFull | rulesForcedThreats, true},
		{rulesFlagsFull | rulesFreshMarks | rulesForcedThreats, true},
		{rulesFlagsFull | rulesSlim, true},
		{rulesFlagsFull | rulesShortDistances, false},
		{rulesFlagsWork | rulesForcedThreats, false},
		{rulesFlagsPlain | rulesFreshMarks, false},
		{rulesFlagsFull | rulesForcedThreats<<1, false},
	} {
		if got := knownRulesFlags(c.rules); got != c.known {
			t.Errorf("rules flags %#x: known %v, want %v", c.rules, got, c.known)
		}
	}
	for _, c := range []struct {
		material string
		ok       bool
	}{{"KvM", true}, {"KMvKK", true}, {"KKvK", false}} { // none, rule 2, class B
		m, _ := index.ParseMaterial(c.material)
		cols, captures := testEntries(m, Extra{})
		path := filepath.Join(t.TempDir(), FileName(m))
		if _, err := write(path, m, cols, captures); err != nil {
			t.Fatal(err)
		}
		f, err := Open(path, m)
		if err != nil {
			t.Fatal(err)
		}
		h := f.Header()
		f.Close()
		h.Rules |= rulesForcedThreats
		info, err := checkHeader(path, h, m)
		if (err == nil) != c.ok || err == nil && (!info.Slim.ForcedThreats || info.Variant != Slim) || err != nil && !errors.Is(err, codec.ErrCorrupt) {
			t.Errorf("%s with forced threats left out: %+v, %v; want accepted %v", m, info, err, c.ok)
		}
	}
}

// write writes the table of m to path atomically (see codec.Write) with a
// Writer: its entries cols, every position's, and returns its stats. The
// entries of the positions marked in captures (bit i%64 of word i/64 for
// position i) are don't-cares (see Writer). cols is not modified.
func write(path string, m index.Material, cols Columns, captures []uint64) (Stats, error) {
	w, err := NewWriter(path, m, Extra{DTW: cols.Has(DTWColumn), MTC: cols.Has(MTCColumn)}, Full)
	if err != nil {
		return Stats{}, err
	}
	if err := w.AddColumns(&cols, captures); err != nil {
		w.Abort()
		return Stats{}, err
	}
	if err := w.Close(); err != nil {
		return Stats{}, err
	}
	return w.Stats(), nil
}

// TestFiles checks which names of a directory are its table files: value
// files then distance files, sorted, without folders, temporary files or
// the manifest; none in a directory that does not exist. The directory's
// name holds glob characters, which a glob would read as a pattern.
func TestFiles(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "tables[1]")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"KvK.dtb", "KKvK.dtbd", "KKvK.dtb", "KvK.dtb.123.tmp", codec.ManifestName, "notes.txt"} {
		if err := os.WriteFile(filepath.Join(dir, name), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(filepath.Join(dir, "old.dtb"), 0o755); err != nil {
		t.Fatal(err)
	}
	in := func(names ...string) []string {
		var paths []string
		for _, n := range names {
			paths = append(paths, filepath.Join(dir, n))
		}
		return paths
	}
	if got, err := ValueFiles(dir); err != nil || !slices.Equal(got, in("KKvK.dtb", "KvK.dtb")) {
		t.Errorf("ValueFiles = %q, %v", got, err)
	}
	if got, err := Files(dir); err != nil || !slices.Equal(got, in("KKvK.dtb", "KvK.dtb", "KKvK.dtbd")) {
		t.Errorf("Files = %q, %v", got, err)
	}
	if got, err := Files(filepath.Join(dir, "missing")); err != nil || got != nil {
		t.Errorf("Files of a missing directory = %q, %v", got, err)
	}
}
