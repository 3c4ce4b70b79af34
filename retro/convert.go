package retro

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"

	"github.com/dtb-draughts/dtb/codec"
	"github.com/dtb-draughts/dtb/index"
	"github.com/dtb-draughts/dtb/internal/dirlock"
	"github.com/dtb-draughts/dtb/table"
)

// Convert rewrites the tables of dir of an older format without solving
// (table.Convert). Those are whole tables of formats 1 and 2, and the
// value and distance files of format 3. It writes them as value and
// distance files of the current format. It converts one table at a
// time, each replaced atomically, then writes the manifest. If done is
// not nil, it is called with each material converted.
//
// Convert stops at the first table it cannot convert, naming it.
// Rerunning it goes on where it stopped. Until the manifest is written,
// the directory holds codec.ConvertingName. That file tells a reader to
// rerun the conversion if it finds a table other than the manifest says.
func Convert(ctx context.Context, dir string, done func(index.Material)) error {
	l, err := lock(dir, dir, dirlock.Exclusive)
	if err != nil {
		return err
	}
	defer l.Release()
	if err := codec.RemoveTemps(dir, table.TempGlobs...); err != nil {
		return err
	}
	mark := filepath.Join(dir, codec.ConvertingName)
	if err := os.WriteFile(mark, []byte("dtb convert began rewriting the tables here and has not finished: rerun dtb convert --dir DIR\n"), 0o644); err != nil {
		return err
	}
	if err := convertTables(ctx, dir, done, false); err != nil {
		return err
	}
	return newCatalog(dir).write()
}

// convertTables converts the tables of dir of an older format. The
// caller holds the lock of dir. It calls done with each material
// converted. With forBuild set it converts only whole tables, which a
// build does not read. It leaves those it cannot read or convert as they
// are, for the build to replace. A build reads the value and distance
// files of an older version as they are. Converting them is the user's
// choice (dtb convert), not a silent hour of a build.
func convertTables(ctx context.Context, dir string, done func(index.Material), forBuild bool) error {
	files, err := table.ValueFiles(dir)
	if err != nil {
		return err
	}
	for _, path := range files {
		if err := ctx.Err(); err != nil {
			return err
		}
		m, err := index.ParseMaterial(strings.TrimSuffix(filepath.Base(path), table.ValueExt))
		if err != nil {
			continue // not a table of ours
		}
		if forBuild && !whole(path) {
			continue
		}
		ok, err := table.Convert(path, m)
		if forBuild && (errors.Is(err, codec.ErrCorrupt) || errors.Is(err, codec.ErrVersion) || errors.Is(err, table.ErrOtherRules)) {
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

// whole reports whether the file at path is a whole table (formats 1 and
// 2). It also reports true for a file that cannot be read.
func whole(path string) bool {
	r, err := codec.Open(path)
	if err != nil {
		return true
	}
	defer r.Close()
	return r.Header().Kind == codec.Whole
}
