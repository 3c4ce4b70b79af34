package runs

import (
	"bytes"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// checkColumn checks that c answers every position as b does and takes
// fewer bytes than b (but for a raw form).
func checkColumn(tb testing.TB, b []byte, c Column, what string) {
	tb.Helper()
	for i, want := range b {
		if got := c.At(i); got != want {
			tb.Fatalf("%d positions, %s, form %s: position %d is %d, want %d", len(b), what, form(&c), i, got, want)
		}
	}
	if c.Size() > int64(len(b)) {
		tb.Errorf("%d positions, %s: %d bytes in form %s", len(b), what, c.Size(), form(&c))
	}
}

// checkRuns checks the column b: Compact with its values given as
// codec.Reader gives them and without, and its stored form (Append,
// Parse, Expand) where it has one. It returns Compact's column.
func checkRuns(tb testing.TB, b []byte) Column {
	tb.Helper()
	c := Compact(b, nil)
	checkColumn(tb, b, c, "no values given")
	if values := slices.Compact(slices.Sorted(slices.Values(b))); len(values) <= 4 {
		checkColumn(tb, b, Compact(b, values), "values given")
	}
	stored, ok := Append([]byte{9}, b)
	if !ok {
		if len(stored) != 1 {
			tb.Fatalf("%d positions: Append without a form appended %d bytes", len(b), len(stored)-1)
		}
		if c.lay != nil {
			tb.Errorf("%d positions: no stored form, but Compact's has tokens", len(b))
		}
		return c
	}
	f := stored[1:]
	if len(f) >= len(b) {
		tb.Fatalf("%d positions: a stored form of %d bytes", len(b), len(f))
	}
	p, err := Parse(f, len(b))
	if err != nil {
		tb.Fatalf("%d positions: Parse of Append's form: %v", len(b), err)
	}
	checkColumn(tb, b, p, "parsed")
	if d := p.Decoded(len(b)); d.lay != nil || d.data != nil && !bytes.Equal(d.data, b) {
		tb.Fatalf("%d positions: Decoded of the %s form gives the %s form, %d bytes", len(b), form(&p), form(&d), len(d.data))
	}
	got, err := Expand([]byte{7}, f, len(b))
	if err != nil || got[0] != 7 || !bytes.Equal(got[1:], b) {
		tb.Fatalf("%d positions: Expand of Append's form: %v, %d bytes, equal %v", len(b), err, len(got)-1, bytes.Equal(got[1:], b))
	}
	// A last literal may pass the end by fewer than 8 positions.
	for _, n := range []int{len(b) / 2, len(b) + 8} {
		if _, err := Parse(f, n); err == nil && len(b) >= 16 {
			tb.Errorf("%d positions: Parse takes the form as %d", len(b), n)
		}
	}
	return c
}

// form names the form of c.
func form(c *Column) string {
	switch {
	case c.lay != nil:
		return "tokens"
	case c.data == nil:
		return "uniform"
	}
	return "raw"
}

// column returns n positions drawn from k values, in runs whose lengths
// are 1 to maxRun, uniformly.
func column(rng *rand.Rand, n, k, maxRun int) []byte {
	vals := make([]byte, k)
	for i := range vals {
		vals[i] = byte(rng.IntN(256))
	}
	b := make([]byte, n)
	for i := 0; i < n; {
		v := vals[rng.IntN(k)]
		for end := min(n, i+1+rng.IntN(maxRun)); i < end; i++ {
			b[i] = v
		}
	}
	return b
}

// TestRuns checks columns of every palette size and of short and long
// runs, in every form.
func TestRuns(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	forms := map[string]bool{}
	for _, n := range []int{1, 7, 100, 5000, 1 << 16, 1<<16 + 1} {
		for _, k := range []int{1, 2, 3, 4, 5, 9, 16, 17, 60, 128, 129, 200} {
			for _, maxRun := range []int{1, 3, 40, 3000} {
				c := checkRuns(t, column(rng, n, k, maxRun))
				forms[form(&c)] = true
			}
		}
	}
	for _, f := range []string{"tokens", "uniform", "raw"} {
		if !forms[f] {
			t.Errorf("no column kept %s", f)
		}
	}
}

// TestExample checks the example of format.md (section 4.3).
func TestExample(t *testing.T) {
	b := append(bytes.Repeat([]byte{10}, 40), 0, 10, 0, 10, 10, 0, 10, 8, 8)
	want := []byte{0xdb, 0x14, 0x3e, 0x04, 0, 8, 10, 3, 0}
	got, ok := Append(nil, b)
	if !ok || !bytes.Equal(got, want) {
		t.Fatalf("form of %v: % x, want % x", b, got, want)
	}
}

// TestLayouts checks that every layout's tokens mean what encode means by
// them, a literal's digits and a run's length, and that its lengths are
// the format's.
func TestLayouts(t *testing.T) {
	for k := 2; k <= MaxPalette; k++ {
		l := layoutOf(k)
		if l.w < 1 || l.w > 7 || l.lits+len(l.lens)*k > 256 || l.lens[0] != l.w+1 {
			t.Fatalf("k %d: w %d, %d literals, %d lengths from %d", k, l.w, l.lits, len(l.lens), l.lens[0])
		}
		for c := range 256 {
			if c >= l.lits+len(l.lens)*k {
				if l.adv[c] != 0 {
					t.Fatalf("k %d: unused token %d covers %d positions", k, c, l.adv[c])
				}
				continue
			}
			if l.adv[c] == 0 {
				t.Fatalf("k %d: token %d covers no position", k, c)
			}
			for d := range min(int(l.adv[c]), 8) {
				if int(l.num[c][d]) >= k {
					t.Fatalf("k %d: token %d, position %d: palette number %d", k, c, d, l.num[c][d])
				}
			}
		}
	}
}

// TestLengths checks that the run lengths do not depend on the last bits
// of pow: no length before rounding lies within 1e-6 of a half.
func TestLengths(t *testing.T) {
	for k := 2; k <= MaxPalette; k++ {
		l := layoutOf(k)
		for j, x := range runLengths(l.w, len(l.lens)) {
			if f := x - math.Floor(x); math.Abs(f-0.5) < 1e-6 {
				t.Errorf("k %d: length %d is %v, near a half", k, j, x)
			}
		}
	}
	if got := layoutOf(2).lens; got[0] != 8 || got[len(got)-1] != topRun {
		t.Errorf("k 2: lengths %v, want 8 to %d", got, topRun)
	}
}

// FuzzCompact checks that the forms of any column answer every position
// as the column does.
func FuzzCompact(f *testing.F) {
	f.Add([]byte{1, 1, 1, 2, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 3})
	f.Add([]byte{5, 0, 5, 0, 5, 0, 7, 0, 7, 0})
	f.Fuzz(func(t *testing.T, b []byte) {
		// Stretch b into runs so that run tokens are met as well as literals:
		// each byte pair (value, length) is a run.
		var col []byte
		for i := 0; i+1 < len(b) && len(col) < 1<<17; i += 2 {
			for range int(b[i+1])*int(b[i+1]) + 1 {
				col = append(col, b[i])
			}
		}
		checkRuns(t, col)
	})
}

// FuzzParse checks that any bytes read as a stored form give ErrForm or a
// column that Expand and At read alike.
func FuzzParse(f *testing.F) {
	b := append(bytes.Repeat([]byte{3}, 300), 1, 2, 3, 1, 1, 1)
	form, _ := Append(nil, b)
	f.Add(form, uint16(len(b)))
	f.Add([]byte{0xdb, 0x14, 0x3e, 0x04, 0, 8, 10, 3, 0}, uint16(49))
	f.Fuzz(func(t *testing.T, form []byte, n uint16) {
		c, err := Parse(form, int(n))
		out, xerr := Expand(nil, form, int(n))
		if (err == nil) != (xerr == nil) {
			t.Fatalf("Parse: %v, Expand: %v", err, xerr)
		}
		if err != nil {
			return
		}
		for i, want := range out {
			if got := c.At(i); got != want {
				t.Fatalf("position %d: At %d, Expand %d", i, got, want)
			}
		}
	})
}

// TestParseDamage checks that Parse refuses forms with a bad palette,
// token or length.
func TestParseDamage(t *testing.T) {
	b := append(bytes.Repeat([]byte{10}, 40), 0, 10, 0, 10, 10, 0, 10, 8, 8)
	good, _ := Append(nil, b)
	for name, f := range map[string]func(f []byte) []byte{
		"tag":            func(f []byte) []byte { f[len(f)-1] = 1; return f },
		"palette size":   func(f []byte) []byte { f[len(f)-2] = 1; return f },
		"palette order":  func(f []byte) []byte { f[len(f)-3], f[len(f)-4] = f[len(f)-4], f[len(f)-3]; return f },
		"unused token":   func(f []byte) []byte { f[0] = 255; return f },
		"run past n":     func(f []byte) []byte { return append([]byte{f[0]}, f...) },
		"too few tokens": func(f []byte) []byte { return f[1:] },
		"empty":          func(f []byte) []byte { return nil },
	} {
		if _, err := Parse(f(slices.Clone(good)), len(b)); err != ErrForm {
			t.Errorf("%s: %v, want ErrForm", name, err)
		}
	}
}

// BenchmarkForm measures a column of 64 Ki positions of 4 values in runs
// of 1 to 40: Parse of its stored form (a cache's miss, past zstd),
// Expand (a decode), At (a lookup), each with ns/block or ns/at.
func BenchmarkForm(b *testing.B) {
	rng := rand.New(rand.NewPCG(2, 2))
	col := column(rng, 1<<16, 4, 40)
	form, ok := Append(nil, col)
	if !ok {
		b.Fatal("no stored form")
	}
	b.Run("parse", func(b *testing.B) {
		for b.Loop() {
			if _, err := Parse(form, len(col)); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N), "ns/block")
	})
	b.Run("expand", func(b *testing.B) {
		out := make([]byte, 0, len(col))
		for b.Loop() {
			if _, err := Expand(out, form, len(col)); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N), "ns/block")
	})
	b.Run("at", func(b *testing.B) {
		c, _ := Parse(form, len(col))
		v, i := byte(0), 0
		for b.Loop() {
			v += c.At(i)
			i = (i + 40503) % len(col)
		}
		sink = v
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N), "ns/at")
	})
}

// sink keeps the lookups of BenchmarkForm.
var sink byte
