package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/dtb-draughts/dtb/codec"
	"github.com/dtb-draughts/dtb/index"
	"github.com/dtb-draughts/dtb/internal/slim"
	"github.com/dtb-draughts/dtb/table"
)

// explain returns the message of err and, where err is that of a table
// directory whose files dtb gen can build or mend (a damaged or missing
// table, a damaged manifest or none, no tables), the command that does.
func explain(err error) string {
	var damaged *codec.FileError
	var open *fs.PathError
	switch {
	case errors.As(err, &damaged):
		if filepath.Base(damaged.Path) == codec.ManifestName {
			return fmt.Sprintf("%v; write it anew with: dtb gen --manifest --out %s", err, filepath.Dir(damaged.Path))
		}
		return fmt.Sprintf("%v; rebuild it with: %s", err, rebuild([]string{damaged.Path}))
	case errors.As(err, &open) && errors.Is(err, fs.ErrNotExist) && (filepath.Ext(open.Path) == table.ValueExt || filepath.Ext(open.Path) == table.DistanceExt):
		return fmt.Sprintf("%s is listed in %s but missing (rebuild it with: %s)", open.Path, codec.ManifestName, rebuild([]string{open.Path}))
	case errors.As(err, &open) && errors.Is(err, fs.ErrNotExist) && filepath.Base(open.Path) == codec.ManifestName:
		dir := filepath.Dir(open.Path)
		if tables, _ := table.ValueFiles(dir); len(tables) > 0 {
			return fmt.Sprintf("%s has tables but no %s (write it with: dtb gen --manifest --out %s)", dir, codec.ManifestName, dir)
		}
		return fmt.Sprintf("%s holds no tables (build them with: dtb gen --out %s)", dir, dir)
	}
	return err.Error()
}

// rebuild returns the commands that rebuild the damaged table files at
// paths, all of one directory, with the optional columns of the other
// tables there: dtb gen rebuilds a table that fails its checks and keeps
// the good ones. A slim directory is written anew by dtb slim from the
// build it came from; a directory whose conversion was interrupted is
// finished by dtb convert.
func rebuild(paths []string) string {
	dir := filepath.Dir(paths[0])
	if _, err := os.Stat(filepath.Join(dir, codec.ConvertingName)); err == nil {
		return "dtb convert --dir " + dir + " (a dtb convert there was interrupted; nothing is lost)"
	}
	if slim.Is(dir) {
		return "dtb slim --dir BUILD --out " + dir + " (BUILD: the directory dtb gen built, which the slim tables come from)"
	}
	flags := genFlags(dir)
	var cmds []string
	for _, path := range paths {
		only := ""
		name, _, _ := strings.Cut(filepath.Base(path), ".")
		if m, err := index.ParseMaterial(name); err == nil {
			only = " --only " + m.String()
		}
		cmds = append(cmds, fmt.Sprintf("dtb gen%s --out %s%s", only, dir, flags))
	}
	return strings.Join(cmds, " && ")
}

// genFlags returns the flags of dtb gen that build the optional columns
// of the tables of dir, as their headers say: --dtw if a table of more
// than dtwPieces pieces has the dtw, --mtc if a table has the mtc.
func genFlags(dir string) string {
	entries, _ := codec.ReadManifest(dir)
	var dtw, mtc bool
	for _, e := range entries {
		m, err := index.ParseMaterial(e.Material)
		if err != nil {
			continue
		}
		f, err := table.Open(filepath.Join(dir, e.File), m)
		if err != nil {
			continue
		}
		f.Close()
		dtw = dtw || m.Pieces() > dtwPieces && f.Layout.Has(table.DTWColumn)
		mtc = mtc || f.Layout.Has(table.MTCColumn)
	}
	flags := ""
	if dtw {
		flags += " --dtw"
	}
	if mtc {
		flags += " --mtc"
	}
	return flags
}
