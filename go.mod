module github.com/dtb-draughts/dtb

go 1.26.0

require (
	github.com/klauspost/compress v1.20.4
	github.com/spf13/pflag v1.1.0
	golang.org/x/sync v0.25.0
)
