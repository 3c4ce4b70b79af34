// Package browser holds the test that drives the explorer's page
// (package explore) in headless Chromium. It is a module of its own, so
// that the module of the tables does not depend on chromedp:
//
//	cd internal/explore/browser && go test ./...
//
// The test skips where Chromium is missing, unless DTB_REQUIRE_TOOLS is
// set (.ci/run installs it).
package browser
