package probe_test

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/dtb-draughts/dtb/codec"
	"github.com/dtb-draughts/dtb/draughts"
	"github.com/dtb-draughts/dtb/internal/tabletest"
	"github.com/dtb-draughts/dtb/probe"
	"github.com/dtb-draughts/dtb/table"
)

// TestManifestVouches forges the rules flags of KKvK.dtb into those of a
// work file, the header checksum recomputed: with the manifest as it was,
// the header checksum it records refuses the file; with a manifest
// rewritten to fit, the flags do; a forged distance file is refused by
// its value file's header. Each refusal is an error wrapping
// codec.ErrCorrupt that names the file, never a wrong answer.
func TestManifestVouches(t *testing.T) {
	p, _ := draughts.ParseFEN("W:WK10,K37:BK5")
	for _, c := range []struct {
		name string
		edit func(t *testing.T, dir string)
		want string
	}{
		{"flags forged", func(t *testing.T, dir string) {
			tabletest.ForgeRules(t, filepath.Join(dir, "KKvK.dtb"), table.Work.Rules())
		}, "KKvK.dtb is damaged (header checksum "},
		{"flags forged, manifest fitted", func(t *testing.T, dir string) {
			path := filepath.Join(dir, "KKvK.dtb")
			tabletest.ForgeRules(t, path, table.Work.Rules())
			entries, err := codec.ReadManifest(dir)
			if err != nil {
				t.Fatal(err)
			}
			i := slices.IndexFunc(entries, func(e codec.ManifestEntry) bool { return e.File == "KKvK.dtb" })
			r, err := codec.Open(path)
			if err != nil {
				t.Fatal(err)
			}
			entries[i].HeaderCRC32C = r.HeaderCRC()
			r.Close()
			if entries[i].Size, entries[i].CRC32C, err = codec.FileCRC(path); err != nil {
				t.Fatal(err)
			}
			if err := codec.WriteManifest(dir, entries); err != nil {
				t.Fatal(err)
			}
		}, "KKvK.dtb is damaged (rules flags 0x33, those of a work file of dtb gen"},
		{"distance file forged", func(t *testing.T, dir string) {
			tabletest.ForgeRules(t, filepath.Join(dir, "KKvK"+table.DistanceExt), table.Work.Rules())
		}, "KKvK.dtbd is damaged (header: "},
		{"manifest set back to version 1", func(t *testing.T, dir string) {
			// Version 1 lists no header checksums and no distance files.
			entries, err := codec.ReadManifest(dir)
			if err != nil {
				t.Fatal(err)
			}
			for i := range entries {
				entries[i].HeaderCRC32C, entries[i].Distances = 0, nil
			}
			b, err := json.Marshal(map[string]any{"version": 1, "tables": entries})
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, codec.ManifestName), b, 0o644); err != nil {
				t.Fatal(err)
			}
		}, "KKvK.dtb is damaged (a file of format 4, listed in MANIFEST.json without its header checksum)"},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := tabletest.Copy(t, tabletest.Golden)
			c.edit(t, dir)
			tables := open(t, dir)
			_, err := tables.Probe(p, probe.Clocks{}, probe.ValuesOnly)
			if !errors.Is(err, codec.ErrCorrupt) || !strings.Contains(err.Error(), filepath.Join(dir, c.want)) {
				t.Errorf("%s: %v, want codec.ErrCorrupt and %q", p.FEN(), err, c.want)
			}
		})
	}
}
