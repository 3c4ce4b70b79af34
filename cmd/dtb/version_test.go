package main

import (
	"bytes"
	"fmt"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/dtb-draughts/dtb/codec"
	"github.com/dtb-draughts/dtb/internal/version"
	"github.com/dtb-draughts/dtb/table"
)

func TestVersion(t *testing.T) {
	formats := fmt.Sprintf("format %d written, %d to %d read; index version %d; manifest version %d; rules flags %d",
		codec.Version, codec.MinVersion, codec.Version, table.IndexVersion, codec.ManifestVersion, table.RulesFlags)
	for _, args := range [][]string{{"version"}, {"--version"}} {
		out, errOut, code := dtb(args...)
		if code != 0 || errOut != "" || !strings.HasPrefix(out, "dtb "+version.Version+"\n") || !strings.Contains(out, runtime.Version()) || !strings.Contains(out, formats) {
			t.Errorf("dtb %s: status %d, stdout %q, stderr %q; want %s, %s and %q", args[0], code, out, errOut, version.Version, runtime.Version(), formats)
		}
	}
	if out, _, _ := dtb("help"); !strings.Contains(out, "\n  version ") {
		t.Errorf("dtb help does not list version: %q", out)
	}
	var b bytes.Buffer
	printVersion(&b, &debug.BuildInfo{Main: debug.Module{Version: "v9.9.9"}, Settings: []debug.BuildSetting{
		{Key: "vcs.revision", Value: "abc123"}, {Key: "vcs.modified", Value: "true"}}})
	want := fmt.Sprintf("dtb %s\ncommit  abc123 dirty\ngo      %s\nC ABI   %d (libdtb.so.%[3]d)\n", version.Version, runtime.Version(), version.ABI)
	if out := b.String(); !strings.HasPrefix(out, want) {
		t.Errorf("version of a dirty build: %q, want %q first", out, want)
	}
}
