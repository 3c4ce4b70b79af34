package retro

import (
	"context"
	"errors"
	"path/filepath"
	"strings"

	"github.com/dtb-draughts/dtb/codec"
	"github.com/dtb-draughts/dtb/index"
	"github.com/dtb-draughts/dtb/internal/dirlock"
	"github.com/dtb-draughts/dtb/table"
)

// Convert rewrites the whole tables of dir (formats 1 and 2) as value
// and distance files (format 3) without solving (table.Convert), one at
// a time, each replaced atomically, then writes the manifest. done, if
// not nil, is called with each material converted. It stops at the first
// table it cannot convert, naming it; rerunning it goes on where it
// stopped.
func Convert(ctx context.Context, dir string, done func(index.Material)) error {
	l, err := lock(dir, dir, dirlock.Exclusive)
	if err != nil {
		return err
	}
	defer l.Release()
	if err := removeTemps(dir, "*.dtb.*.tmp", "*"+table.DistanceExt+".*.tmp", codec.ManifestName+".*.tmp"); err != nil {
		return err
	}
	if err := convertTables(ctx, dir, done, false); err != nil {
		return err
	}
	return newCatalog(dir).write()
}

// convertTables converts the whole tables of dir, the caller holding its
// lock, calling done with each material converted. With lenient set it
// leaves the tables it cannot read or convert as they are, for the build
// to replace.
func convertTables(ctx context.Context, dir string, done func(index.Material), lenient bool) error {
	files, err := filepath.Glob(filepath.Join(dir, "*.dtb"))
	if err != nil {
		return err
	}
	for _, path := range files {
		if err := ctx.Err(); err != nil {
			return err
		}
		m, err := index.ParseMaterial(strings.TrimSuffix(filepath.Base(path), ".dtb"))
		if err != nil {
			continue // not a table of ours
		}
		ok, err := table.Convert(path, m)
		if lenient && (errors.Is(err, codec.ErrCorrupt) || errors.Is(err, codec.ErrVersion) || errors.Is(err, table.ErrOtherRules)) {
			continue
		}
		if err != nil {
			return err
		}
		if ok && done != nil {
			done(m)
		}
	}
	return nil
}
