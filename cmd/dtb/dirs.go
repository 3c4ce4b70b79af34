package main

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/spf13/pflag"

	"github.com/dtb-draughts/dtb/codec"
	"github.com/dtb-draughts/dtb/index"
	"github.com/dtb-draughts/dtb/probe"
)

// pathVar names the table directories a reading command takes when its
// --dir is left out: one directory or a list, as --dir.
const pathVar = "DTB_PATH"

// dirKey annotates a flag naming table directories with its dirKind.
const dirKey = "dtb-dirs"

// The kinds of a flag naming table directories.
const (
	readList = "list" // read a list of directories; pathVar when left out
	readOne  = "one"  // read one directory; pathVar when left out
	writeOne = "out"  // write one directory
)

// tablesFlag declares --dir of a command that reads a list of table
// directories, as probe.Open does.
func tablesFlag(fs *pflag.FlagSet, p *string) {
	usage := fmt.Sprintf("table directory, or a list of them read in order (a%cb: a material is read from the first that lists it); %s when left out", filepath.ListSeparator, pathVar)
	dirFlag(fs, p, "dir", "d", readList, usage)
}

// dirFlag declares a flag naming table directories, of kind (readList,
// readOne, writeOne), with default "tables"; checkDirs checks it.
func dirFlag(fs *pflag.FlagSet, p *string, name, short, kind, usage string) {
	fs.StringVarP(p, name, short, "tables", usage)
	fs.SetAnnotation(name, dirKey, []string{kind})
}

// checkDirs sets each reading flag of fs left out to pathVar's list,
// where that holds a directory, and refuses a list where a flag takes one
// directory.
func checkDirs(fs *pflag.FlagSet, e *env) (err error) {
	fs.VisitAll(func(f *pflag.Flag) {
		kind := f.Annotations[dirKey]
		if err != nil || kind == nil {
			return
		}
		fromVar := !f.Changed && kind[0] != writeOne && len(probe.SplitPath(e.path)) > 0
		if fromVar {
			f.Value.Set(e.path)
		}
		dirs := probe.SplitPath(f.Value.String())
		switch {
		case kind[0] == writeOne && strings.ContainsRune(f.Value.String(), filepath.ListSeparator):
			err = badInput("--%s %s: dtb %s writes one directory, not a list", f.Name, f.Value, e.command)
		case kind[0] == readOne && len(dirs) > 1 && fromVar:
			err = badInput("%s=%s is a list: dtb %s reads one directory (give it with --%s)", pathVar, e.path, e.command, f.Name)
		case kind[0] == readOne && len(dirs) > 1:
			err = badInput("--%s %s: dtb %s reads one directory, not a list", f.Name, f.Value, e.command)
		case kind[0] == readOne && len(dirs) == 1:
			f.Value.Set(dirs[0])
		}
	})
	return err
}

// holder returns the directory of the list dirs whose manifest lists m
// first, as probe.Open reads it; the first directory if none does.
func holder(dirs string, m index.Material) string {
	list := probe.SplitPath(dirs)
	if len(list) == 0 {
		return dirs
	}
	for _, dir := range list {
		entries, _ := codec.ReadManifest(dir)
		for _, e := range entries {
			if e.Material == m.String() || e.Searched == m.String() {
				return dir
			}
		}
	}
	return list[0]
}
