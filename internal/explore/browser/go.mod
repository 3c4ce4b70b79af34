module github.com/dtb-draughts/dtb/internal/explore/browser

go 1.26.0

require (
	github.com/chromedp/chromedp v0.23.1
	github.com/dtb-draughts/dtb v0.0.0
)

require (
	github.com/chromedp/cdproto v0.160.1 // indirect
	github.com/go-json-experiment/json v0.0.0-20260213210345-44df1a37e875 // indirect
	github.com/klauspost/compress v1.20.4 // indirect
	golang.org/x/sync v0.25.0 // indirect
)

replace github.com/dtb-draughts/dtb => ../../..
