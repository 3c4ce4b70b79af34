package sums

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRoundTrip writes the sums of a directory, parses them back and
// checks the directory against them: all good, then one file changed,
// one removed, and a file that the list does not name left alone.
func TestRoundTrip(t *testing.T) {
	dir := t.TempDir()
	for name, data := range map[string]string{"KvK.dtb": "a", "KvM.dtb": "b", "MANIFEST.json": "{}", "notes.txt": "x"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	list, err := Of(dir)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := Write(&b, list); err != nil {
		t.Fatal(err)
	}
	// sha256sum of "a", the first line
	if want := "ca978112ca1bbdcafac231b39a23dc4da786eff8147c4e72b9807785afee48bb  KvK.dtb\n"; !strings.HasPrefix(b.String(), want) || strings.Count(b.String(), "\n") != 3 {
		t.Fatalf("list:\n%s", b.String())
	}
	want, err := Parse(&b, "list")
	if err != nil {
		t.Fatal(err)
	}
	check := func() map[string]Result {
		rs, err := Check(dir, want)
		if err != nil {
			t.Fatal(err)
		}
		m := map[string]Result{}
		for _, r := range rs {
			m[r.Name] = r
		}
		return m
	}
	for name, r := range check() {
		if !r.OK() {
			t.Errorf("%s: %+v", name, r)
		}
	}
	os.WriteFile(filepath.Join(dir, "KvM.dtb"), []byte("c"), 0o644)
	os.Remove(filepath.Join(dir, "MANIFEST.json"))
	rs := check()
	if r := rs["KvM.dtb"]; r.OK() || r.Got == "" {
		t.Errorf("changed file: %+v", r)
	}
	if r := rs["MANIFEST.json"]; r.OK() || r.Got != "" {
		t.Errorf("missing file: %+v", r)
	}
	if !rs["KvK.dtb"].OK() || len(rs) != 3 {
		t.Errorf("results %+v", rs)
	}
}

// TestParse checks the lines Parse takes and those it refuses.
func TestParse(t *testing.T) {
	h := strings.Repeat("ab", 32)
	for _, good := range []string{h + "  KvK.dtb\n", h + " *KvK.dtb\r\n\n", strings.ToUpper(h) + "  KvK.dtb"} {
		s, err := Parse(strings.NewReader(good), "f")
		if err != nil || len(s) != 1 || s[0] != (Sum{"KvK.dtb", h}) {
			t.Errorf("Parse(%q) = %v, %v", good, s, err)
		}
	}
	for _, bad := range []string{"", "\n", h, h + " KvK.dtb", h[2:] + "  KvK.dtb", "zz" + h[2:] + "  KvK.dtb",
		h + "  ../KvK.dtb", h + "  ..", h + "  KvK.dtb\n" + h + "  KvK.dtb"} {
		if s, err := Parse(strings.NewReader(bad), "f"); err == nil {
			t.Errorf("Parse(%q) = %v, want an error", bad, s)
		}
	}
}

// FuzzParse checks that Parse never panics and that what it takes writes
// back to a list it takes again, the same.
func FuzzParse(f *testing.F) {
	f.Add(strings.Repeat("0", 64) + "  KvK.dtb\n")
	f.Add(strings.Repeat("f", 64) + " *MANIFEST.json\r\n")
	f.Fuzz(func(t *testing.T, in string) {
		s, err := Parse(strings.NewReader(in), "f")
		if err != nil {
			return
		}
		var b bytes.Buffer
		Write(&b, s)
		again, err := Parse(&b, "f")
		if err != nil || len(again) != len(s) {
			t.Fatalf("%q parsed to %v, written back to %q: %v", in, s, b.String(), err)
		}
		for i := range s {
			if again[i] != s[i] {
				t.Fatalf("%q: %v then %v", in, s, again)
			}
		}
	})
}
