// An engine's own module that depends on dtb. Until the module is
// published, it names a clone of the repository with replace; this one
// is two folders up. docs/engines.md, "Go: package probe".
module example.com/engine

go 1.26.0

require github.com/dtb-draughts/dtb v0.5.0

require (
	github.com/klauspost/compress v1.20.4 // indirect
	golang.org/x/sync v0.25.0 // indirect
)

replace github.com/dtb-draughts/dtb => ../..
