package main

import (
	"bytes"
	"fmt"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/dtb-draughts/dtb/codec"
	"github.com/dtb-draughts/dtb/table"
)

func TestVersion(t *testing.T) {
	formats := fmt.Sprintf("format %d written, %d to %d read; index version %d", codec.Version, codec.MinVersion, codec.Version, table.IndexVersion)
	for _, args := range [][]string{{"version"}, {"--version"}} {
		out, errOut, code := dtb(args...)
		if code != 0 || errOut != "" || !strings.HasPrefix(out, "dtb ") || !strings.Contains(out, runtime.Version()) || !strings.Contains(out, formats) {
			t.Errorf("dtb %s: status %d, stdout %q, stderr %q; want the version, %s and %q", args[0], code, out, errOut, runtime.Version(), formats)
		}
	}
	if out, _, _ := dtb("help"); !strings.Contains(out, "\n  version ") {
		t.Errorf("dtb help does not list version: %q", out)
	}
	var b bytes.Buffer
	printVersion(&b, &debug.BuildInfo{Main: debug.Module{Version: "v1.2.3"}, Settings: []debug.BuildSetting{
		{Key: "vcs.revision", Value: "abc123"}, {Key: "vcs.modified", Value: "true"}}})
	if out := b.String(); !strings.HasPrefix(out, "dtb v1.2.3\ncommit  abc123 dirty\n") {
		t.Errorf("version of a dirty build: %q", out)
	}
}
