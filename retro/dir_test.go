package retro

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/dtb-draughts/dtb/codec"
)

// TestCatalogVouches checks which files a catalog trusts without decoding
// them: those its directory's manifest lists with their size and CRC-32C
// as they are, and those it found valid itself; not a file changed since
// it was listed, nor one the manifest does not list.
func TestCatalogVouches(t *testing.T) {
	dir := t.TempDir()
	if err := Generate(context.Background(), Options{Pieces: 2, Dir: dir, Threads: 1}); err != nil {
		t.Fatal(err)
	}
	kvk, kvm := filepath.Join(dir, "KvK.dtb"), filepath.Join(dir, "KvM.dtb")
	if c := newCatalog(dir); !c.vouches(kvk) || !c.vouches(kvm) {
		t.Fatal("a listed, unchanged file is not vouched for")
	}
	b, err := os.ReadFile(kvm)
	if err != nil {
		t.Fatal(err)
	}
	b[len(b)-1] ^= 0xff
	if err := os.WriteFile(kvm, b, 0o644); err != nil {
		t.Fatal(err)
	}
	if newCatalog(dir).vouches(kvm) {
		t.Error("a file changed since it was listed is vouched for")
	}
	if err := os.Remove(filepath.Join(dir, codec.ManifestName)); err != nil {
		t.Fatal(err)
	}
	c := newCatalog(dir)
	if c.vouches(kvk) {
		t.Error("a file no manifest lists is vouched for")
	}
	if _, ok, err := c.entry(kvk); !ok || err != nil || !c.vouches(kvk) {
		t.Errorf("a file the catalog checked (ok %v, %v) is not vouched for", ok, err)
	}
	if _, ok, err := c.entry(kvm); ok || err != nil || c.vouches(kvm) {
		t.Errorf("the damaged file: ok %v, %v, vouched for %v", ok, err, c.vouches(kvm))
	}
}
