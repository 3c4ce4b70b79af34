package retro

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/dtb-draughts/dtb/codec"
	"github.com/dtb-draughts/dtb/index"
)

// TestCatalogVouches checks which files a catalog finds valid without
// decoding them: those its directory's manifest lists with their size and
// CRC-32C as they are now. A file changed since it was listed, or not
// listed, is decoded and checked.
func TestCatalogVouches(t *testing.T) {
	dir := t.TempDir()
	if err := Generate(context.Background(), Options{Pieces: 2, Dir: dir, Threads: 1}); err != nil {
		t.Fatal(err)
	}
	kvk, kvm := filepath.Join(dir, "KvK.dtb"), filepath.Join(dir, "KvM.dtb")
	if c := newCatalog(dir); !c.vouches(kvk) || !c.vouches(kvm) {
		t.Fatal("a valid file is not vouched for")
	}
	entries, err := codec.ReadManifest(dir)
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(kvm)
	if err != nil {
		t.Fatal(err)
	}
	b[len(b)-1] ^= 0xff // in the last block: the header still reads
	if err := os.WriteFile(kvm, b, 0o644); err != nil {
		t.Fatal(err)
	}
	if newCatalog(dir).vouches(kvm) {
		t.Error("a file damaged since it was listed is vouched for")
	}
	if err := os.Remove(filepath.Join(dir, codec.ManifestName)); err != nil {
		t.Fatal(err)
	}
	if c := newCatalog(dir); !c.vouches(kvk) || c.vouches(kvm) {
		t.Error("without a manifest: the valid file or the damaged one misjudged")
	}
	// A manifest that lists the damaged file as it is now: trusted, which
	// shows that a listed file's blocks are not decoded.
	for i, e := range entries {
		if e.File == "KvM.dtb" {
			entries[i].Size, entries[i].CRC32C, _ = codec.FileCRC(kvm)
		}
	}
	if err := codec.WriteManifest(dir, entries); err != nil {
		t.Fatal(err)
	}
	if !newCatalog(dir).vouches(kvm) {
		t.Error("a file listed as it is was decoded")
	}
}

// TestSurvey removes one group from a finished directory: the survey finds
// the others kept and loads only the tables that group reads, directly or
// through capture positions; Generate then rebuilds that group alone, byte
// for byte.
func TestSurvey(t *testing.T) {
	dir := t.TempDir()
	o := Options{Pieces: 3, Dir: dir, Threads: 1}
	if err := Generate(context.Background(), o); err != nil {
		t.Fatal(err)
	}
	removed := map[string][]byte{}
	for _, name := range []string{"KMvK.dtb", "KvKM.dtb"} {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		removed[name] = b
		if err := os.Remove(filepath.Join(dir, name)); err != nil {
			t.Fatal(err)
		}
	}
	mats, err := plan(o)
	if err != nil {
		t.Fatal(err)
	}
	kept, load := survey(mats, func(index.Material) bool { return true }, &builder{Options: o})
	for _, m := range mats {
		group := m.String() == "KMvK" || m.String() == "KvKM"
		if (kept[m] == nil) != group {
			t.Errorf("%v: kept %v", m, kept[m] != nil)
		}
		// KMvK reads KvK and MvK (captures by either side), KKvK (the
		// crowning) and their flips; their capture positions read KvK.
		want := map[string]bool{"KvK": true, "MvK": true, "KvM": true, "KKvK": true, "KvKK": true}[m.String()]
		if load[m] != want {
			t.Errorf("%v: load %v, want %v", m, load[m], want)
		}
	}
	var built []index.Material
	o.Done = func(r Report) {
		if r.Built {
			built = append(built, r.Material)
		}
	}
	if err := Generate(context.Background(), o); err != nil {
		t.Fatal(err)
	}
	if len(built) != 2 {
		t.Errorf("built %v, want KMvK and KvKM", built)
	}
	for name, want := range removed {
		if got, err := os.ReadFile(filepath.Join(dir, name)); err != nil || !bytes.Equal(got, want) {
			t.Errorf("%s rebuilt differs (%v)", name, err)
		}
	}
}
