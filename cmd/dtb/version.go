package main

import (
	"fmt"
	"io"
	"runtime"
	"runtime/debug"

	"github.com/spf13/pflag"

	"github.com/dtb-draughts/dtb/codec"
	"github.com/dtb-draughts/dtb/internal/version"
	"github.com/dtb-draughts/dtb/table"
)

func init() {
	register(&command{
		name: "version", args: "", summary: "print the version, commit, Go version, C ABI and file formats of dtb",
		flags: func(fs *pflag.FlagSet) func(*env, []string) error {
			fl := &versionCmd{}
			return fl.run
		},
	})
}

// printVersion writes the version of dtb, the commit it was built from
// (from info, "dirty" with uncommitted changes; "unknown" where info is
// nil or has none), the Go version, the C library's ABI version and the
// versions of the files dtb reads and writes.
func printVersion(w io.Writer, info *debug.BuildInfo) {
	commit := "unknown"
	if info != nil {
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
	fmt.Fprintf(w, "dtb %s\ncommit  %s\ngo      %s\nC ABI   %d (libdtb.so.%[4]d)\n", version.Version, commit, runtime.Version(), version.ABI)
	fmt.Fprintf(w, "tables  format %d written, %d to %d read; index version %d; manifest version %d; rules flags %d\n",
		codec.Version, codec.MinVersion, codec.Version, table.IndexVersion, codec.ManifestVersion, table.RulesFlags)
}

// versionCmd holds the flags of one run of dtb version.
type versionCmd struct {
}

func (fl *versionCmd) run(e *env, args []string) error {
	info, _ := debug.ReadBuildInfo()
	printVersion(e.stdout, info)
	return nil
}
