package probe_test

import (
	"encoding/binary"
	"hash/crc32"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/dtb-draughts/dtb/draughts"
	"github.com/dtb-draughts/dtb/index"
	"github.com/dtb-draughts/dtb/internal/tabletest"
	"github.com/dtb-draughts/dtb/internal/testenv"
	"github.com/dtb-draughts/dtb/probe"
	"github.com/dtb-draughts/dtb/table"
)

// TestDamageNeverSilent damages the files of one golden table at random
// in kinds of ways (bits flipped in the header, the block table or the
// blocks, with and without the header checksum recomputed, the rules
// flags of a work file, truncation, a zeroed range, another table's file in its
// place) and probes positions
// of the table and of a table whose captures lead into it: every probe
// either fails or answers what the undamaged tables answer. Damage that
// leaves every probe answering is allowed (a bit of a don't-care block
// region the probes do not read cannot be), but no wrong answer is.
func TestDamageNeverSilent(t *testing.T) {
	plain := filepath.Join(filepath.Dir(tabletest.Golden), "golden-plain")
	targets := []struct {
		dir, file string
		probed    []string // the materials probed
	}{
		{tabletest.Golden, "KKvK.dtb", []string{"KKvK", "KvKK"}}, // KvKK's captures lead into KvK, beside KKvK
		{tabletest.Golden, "KKvK" + table.DistanceExt, []string{"KKvK"}},
		{plain, "MMvM.dtb", []string{"MMvM"}}, // no distance file: the manifest alone vouches for it
	}
	clean := map[string]*probe.Tables{tabletest.Golden: open(t, tabletest.Golden), plain: open(t, plain)}
	rng := rand.New(rand.NewPCG(1, 2))
	rounds := int(testenv.Stride(420, 63))
	wrong, failed := 0, 0
	for round := range rounds {
		target := targets[round%len(targets)]
		d := tabletest.Copy(t, target.dir)
		name := target.file
		path := filepath.Join(d, name)
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		hl, tl := int(binary.LittleEndian.Uint32(b[12:])), int(binary.LittleEndian.Uint64(b[16:]))
		end := 24 + hl + tl // the header checksum's offset
		kind := round / len(targets) % 7
		switch kind {
		case 0: // a bit anywhere
			i := rng.IntN(len(b))
			b[i] ^= 1 << rng.IntN(8)
		case 1, 2: // a bit of the header or block table, the checksum recomputed (1) or not (2)
			i := 24 + rng.IntN(hl+tl)
			b[i] ^= 1 << rng.IntN(8)
			if kind == 1 {
				binary.LittleEndian.PutUint32(b[end:], crc32.Checksum(b[:end], crc32.MakeTable(crc32.Castagnoli)))
			}
		case 3: // truncated
			b = b[:rng.IntN(len(b))]
		case 4: // a range zeroed
			i := rng.IntN(len(b))
			clear(b[i:min(len(b), i+1+rng.IntN(64))])
		case 6: // the rules flags of a work file (table.Work), the checksum recomputed
			b = tabletest.ForgedRules(table.Work.Rules())(b)
		case 5: // another table's file
			other := []string{"KvKK", "KMvK", "KvK"}[rng.IntN(3)]
			if b, err = os.ReadFile(filepath.Join(tabletest.Golden, other+filepath.Ext(name))); err != nil {
				t.Fatal(err)
			}
		}
		if err := os.WriteFile(path, b, 0o644); err != nil {
			t.Fatal(err)
		}
		tables, err := probe.Open(d, probe.Options{})
		if err != nil {
			t.Fatal(err)
		}
		for _, name := range target.probed {
			m, _ := index.ParseMaterial(name)
			eachPosition(m, 37+int64(round), func(p draughts.Position) {
				for _, c := range []probe.Clocks{{}, {Class: 3}} {
					want, err := clean[target.dir].Probe(p, c, 0)
					if err != nil {
						t.Fatal(err)
					}
					got, err := tables.Probe(p, c, 0)
					switch {
					case err != nil:
						failed++
					case got != want:
						wrong++
						if wrong <= 5 {
							t.Errorf("round %d (%s, damage %d): %s %+v: %+v, undamaged %+v", round, name, kind, p.FEN(), c, got, want)
						}
					}
				}
			})
		}
		tables.Close()
	}
	if wrong > 0 || failed == 0 {
		t.Errorf("%d rounds: %d wrong answers, %d failed probes; want none wrong and some failed", rounds, wrong, failed)
	}
}
