package explore

import (
	"fmt"

	"github.com/dtb-draughts/dtb/codec"
	"github.com/dtb-draughts/dtb/index"
	"github.com/dtb-draughts/dtb/probe"
	"github.com/dtb-draughts/dtb/retro"
)

// Beyond says in a player's words why the tables in dirs (a directory or
// a list, as probe.Open takes it) have no answer for a position or a
// claim of material m, whose probe failed with missing: the table
// missing, the most pieces of a table there, and what would answer it.
// That is the dtb gen command that builds the table where gen can
// (retro.MaxPieces pieces at most), and the limit where it cannot. A
// probe over the piece limit (probe.Options.MaxPieces) is said as
// missing says it.
//
//	no table for KKKKvK in tables, whose largest tables have 3 pieces (build it with: dtb gen --only KKKKvK --out tables)
//	its captures lead to KvM: no table for it in tables, whose ... (build it with: dtb gen --only MvKM --out tables)
//	40 pieces, more than any table: the largest in tables have 4 pieces, and dtb gen builds tables of up to 7
func Beyond(dirs string, m index.Material, missing *probe.MissingError) string {
	if missing.Limit > 0 {
		return missing.Error()
	}
	held := largest(dirs)
	if m.Pieces() > retro.MaxPieces {
		return fmt.Sprintf("%d pieces, more than any table: the largest in %s have %d pieces, and dtb gen builds tables of up to %d",
			m.Pieces(), dirs, held, retro.MaxPieces)
	}
	why := fmt.Sprintf("no table for %s", m)
	if missing.Material != m {
		why = fmt.Sprintf("its captures lead to %s: no table for it", missing.Material)
	}
	out := dirs
	if list := probe.SplitPath(dirs); len(list) > 0 {
		out = list[0]
	}
	return fmt.Sprintf("%s in %s, whose largest tables have %d pieces (build it with: dtb gen --only %s --out %s)", why, dirs, held, m, out)
}

// largest returns the most pieces of a table the manifests of dirs list,
// 0 for none.
func largest(dirs string) int {
	n := 0
	for _, dir := range probe.SplitPath(dirs) {
		entries, _ := codec.ReadManifest(dir)
		for _, e := range entries {
			if m, err := index.ParseMaterial(e.Material); err == nil {
				n = max(n, m.Pieces())
			}
		}
	}
	return n
}
