// Package version holds the version of dtb, which dtb version, dtb hub
// and the C library (dtb_version) report, and the version of the C ABI
// (DTB_ABI_VERSION of capi/dtb.h, which package capi checks against
// ABI when it compiles). CHANGELOG.md says what each version changed;
// capi/Makefile reads both constants from the sources, and the Python
// package's build (python/build_backend.py) Version.
package version

// Version is the version of dtb, in the form of a Go module's tag.
const Version = "v0.5.0"

// ABI is the version of the C library's ABI, DTB_ABI_VERSION of
// capi/dtb.h: the N of libdtb.so.N.
const ABI = 4
