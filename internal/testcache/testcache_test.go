package testcache

import (
	"bytes"
	"testing"
)

// TestCode checks that the code of a source changes with its code and
// its directives, not with its comments.
func TestCode(t *testing.T) {
	base := "//go:build linux\n\n// Package p is p.\npackage p\n\nvar x = 1 // one\n"
	for _, c := range []struct {
		src  string
		same bool
	}{
		{"//go:build linux\n\n// Package p does p.\npackage p\n\nvar x = 1 /* one */\n", true},
		{"//go:build linux\n\npackage p\n\n\nvar x = 1\n", true},
		{"//go:build linux\n\n// Package p is p.\npackage p\n\nvar x = 2 // one\n", false},
		{"//go:build darwin\n\n// Package p is p.\npackage p\n\nvar x = 1 // one\n", false},
		{"//go:build linux\n\n// Package p is p.\npackage p\n\nvar x = \"1\" // one\n", false},
	} {
		if same := bytes.Equal(code([]byte(base)), code([]byte(c.src))); same != c.same {
			t.Errorf("code of %q is the same as of %q: %v, want %v", c.src, base, same, c.same)
		}
	}
}
