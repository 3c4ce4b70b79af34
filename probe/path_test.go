package probe_test

import (
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/dtb-draughts/dtb/codec"
	"github.com/dtb-draughts/dtb/draughts"
	"github.com/dtb-draughts/dtb/index"
	"github.com/dtb-draughts/dtb/internal/tabletest"
	"github.com/dtb-draughts/dtb/probe"
	"github.com/dtb-draughts/dtb/table"
)

// TestOpenList splits the golden tables between two directories: a list
// of both finds every table, empty elements aside, and a material listed
// in both is read from the first.
func TestOpenList(t *testing.T) {
	sep := string(filepath.ListSeparator)
	small := tabletest.Keep(t, tabletest.Golden, func(m index.Material) bool { return m.Pieces() <= 2 })
	large := tabletest.Keep(t, tabletest.Golden, func(m index.Material) bool { return m.Pieces() > 2 })
	all, err := probe.Open(tabletest.Golden, probe.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer all.Close()
	fens := []string{"W:WK10:BK5", "W:W28:BK23", "W:WK2,6:BK50", "B:WK10,K37:BK5"}
	for _, dirs := range []string{small + sep + large, sep + large + sep + sep + small + sep} {
		tables, err := probe.Open(dirs, probe.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if got, want := tables.Materials(), all.Materials(); !slices.Equal(got, want) {
			t.Errorf("Open(%q): materials %v, want %v", dirs, got, want)
		}
		for _, s := range fens {
			p, _ := draughts.ParseFEN(s)
			got, err := tables.Probe(p, probe.Clocks{}, 0)
			want, _ := all.Probe(p, probe.Clocks{}, 0)
			if err != nil || got != want {
				t.Errorf("Open(%q): %s: %+v %v, want %+v", dirs, s, got, err, want)
			}
		}
		tables.Close()
	}

	// A damaged KvK behind a good one is never read; in front, it is.
	damaged := tabletest.Copy(t, tabletest.Golden)
	tabletest.ForgeRules(t, filepath.Join(damaged, "KvK.dtb"), table.Work.Rules())
	p, _ := draughts.ParseFEN("W:WK10:BK5")
	for dirs, bad := range map[string]bool{small + sep + damaged: false, damaged + sep + small: true} {
		tables, err := probe.Open(dirs, probe.Options{})
		if err != nil {
			t.Fatal(err)
		}
		_, err = tables.Probe(p, probe.Clocks{}, 0)
		if got := errors.Is(err, codec.ErrCorrupt); got != bad {
			t.Errorf("Open(%q): KvK: %v, want damaged %v", dirs, err, bad)
		}
		tables.Close()
	}

	for _, dirs := range []string{"", sep, sep + sep} {
		if _, err := probe.Open(dirs, probe.Options{}); err == nil || !strings.Contains(err.Error(), "no table directory") {
			t.Errorf("Open(%q): %v, want no table directory", dirs, err)
		}
	}
	if _, err := probe.Open(small+sep+t.TempDir(), probe.Options{}); err == nil {
		t.Errorf("Open with a directory without a manifest: no error")
	}
}
