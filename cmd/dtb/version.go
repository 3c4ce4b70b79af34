package main

import (
	"fmt"
	"io"
	"runtime"
	"runtime/debug"

	"github.com/spf13/pflag"

	"github.com/dtb-draughts/dtb/codec"
	"github.com/dtb-draughts/dtb/table"
)

func init() {
	register(&command{
		name: "version", args: "", summary: "print the version, commit, Go version and file formats of dtb",
		flags: func(fs *pflag.FlagSet) func(*env, []string) error {
			fl := &versionCmd{}
			return fl.run
		},
	})
}

// printVersion writes the module version of info ("(devel)" when built
// in a clone), the commit it was built from ("dirty" with uncommitted
// changes), the Go version and the versions of the files dtb reads and
// writes. info may be nil.
func printVersion(w io.Writer, info *debug.BuildInfo) {
	version, commit := "unknown", "unknown"
	if info != nil {
		if info.Main.Version != "" {
			version = info.Main.Version
		}
		dirty := ""
		for _, s := range info.Settings {
			switch {
			case s.Key == "vcs.revision":
				commit = s.Value
			case s.Key == "vcs.modified" && s.Value == "true":
				dirty = " dirty"
			}
		}
		commit += dirty
	}
	fmt.Fprintf(w, "dtb %s\ncommit  %s\ngo      %s\ntables  format %d written, %d to %d read; index version %d\n",
		version, commit, runtime.Version(), codec.Version, codec.MinVersion, codec.Version, table.IndexVersion)
}

// versionCmd holds the flags of one run of dtb version.
type versionCmd struct {
}

func (fl *versionCmd) run(e *env, args []string) error {
	info, _ := debug.ReadBuildInfo()
	printVersion(e.stdout, info)
	return nil
}
