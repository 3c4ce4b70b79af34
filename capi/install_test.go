package main

import (
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/dtb-draughts/dtb/internal/testenv"
)

// TestInstall runs scripts/c-install-test.sh: make -C capi install into a
// temporary prefix, the SONAME and exports of libdtb.so.N, and the C
// example built through pkg-config, as C99 and with libdtb.a, and a C++
// program, each probing the golden tables. Without make, g++ or
// pkg-config it skips, or fails under DTB_REQUIRE_TOOLS=1; under the race
// detector it skips, since the script builds without it.
func TestInstall(t *testing.T) {
	if testenv.Race {
		t.Skip("scripts/c-install-test.sh builds without the race detector: run it without -race")
	}
	testenv.Tool(t, "make", "make")
	testenv.Tool(t, "g++", "g++")
	testenv.Tool(t, "pkg-config", "pkg-config")
	out, err := exec.Command("bash", filepath.Join("..", "scripts", "c-install-test.sh")).CombinedOutput()
	if err != nil {
		t.Fatalf("scripts/c-install-test.sh: %v\n%s", err, out)
	}
}
