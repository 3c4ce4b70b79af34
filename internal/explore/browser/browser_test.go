package browser_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image/png"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/dtb-draughts/dtb/draughts"
	"github.com/dtb-draughts/dtb/internal/explore"
	"github.com/dtb-draughts/dtb/internal/tabletest"
	"github.com/dtb-draughts/dtb/internal/testenv"
	"github.com/dtb-draughts/dtb/probe"
)

// TestBrowser drives the explorer's page in headless Chromium over the
// golden tables: it opens a position from the URL and checks that the
// page shows the verdict and the moves, best first, that the API gives;
// sets up a position by its FEN, plays a move by clicking a piece and its
// square, places a piece with the editor, sets up one beyond the tables
// (the page says why), and steps through the best line, numbered. It keeps a screenshot of the page in $DTB_ARTEFACTS (a temporary
// directory if unset).
func TestBrowser(t *testing.T) {
	chrome := testenv.Tool(t, "chromium", "chromium")
	tables, err := probe.Open(tabletest.Golden, probe.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer tables.Close()
	srv := httptest.NewServer(explore.NewServer(tables, tabletest.Golden, 0))
	defer srv.Close()
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(chrome), chromedp.NoSandbox, chromedp.WindowSize(1100, 800))
	alloc, cancel := chromedp.NewExecAllocator(context.Background(), opts...)
	defer cancel()
	browser, cancel := chromedp.NewContext(alloc)
	defer cancel()
	if err := chromedp.Do(browser); err != nil { // starts the browser, without a timeout
		t.Fatalf("starting %s: %v", chrome, err)
	}
	// do runs steps, each of which must end within a minute.
	do := func(what string, steps ...chromedp.Action[chromedp.Void]) {
		t.Helper()
		ctx, cancel := context.WithTimeout(browser, time.Minute)
		defer cancel()
		if err := chromedp.Do(ctx, steps...); err != nil {
			t.Fatalf("%s: %v", what, err)
		}
	}
	// until waits for the page to show the condition's JavaScript true.
	until := func(what, condition string) {
		t.Helper()
		ctx, cancel := context.WithTimeout(browser, time.Minute)
		defer cancel()
		if _, err := chromedp.Run(ctx, chromedp.Poll[bool](condition, chromedp.WithPollingTimeout(30*time.Second))); err != nil {
			page, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`document.getElementById("fen").value + " | " + document.getElementById("verdict").textContent + " | " + document.getElementById("error").textContent`))
			t.Fatalf("%s: %v; the page shows %s", what, err, page)
		}
	}
	// shows waits for the page to show fen on its board, with its answer.
	shows := func(fen string) {
		t.Helper()
		until(fen, fmt.Sprintf(`document.getElementById("fen").value === %q && document.getElementById("verdict").textContent !== ""`, fen))
	}
	value := func(expression string, v any) {
		t.Helper()
		ctx, cancel := context.WithTimeout(browser, time.Minute)
		defer cancel()
		raw, err := chromedp.Run(ctx, chromedp.Evaluate[string]("JSON.stringify("+expression+")"))
		if err == nil {
			err = json.Unmarshal([]byte(raw), v)
		}
		if err != nil {
			t.Fatalf("%s: %v", expression, err)
		}
	}

	start := "W:WK2,6:BK50"
	do("open "+start, chromedp.Navigate(srv.URL+"/?fen="+start))
	shows(start)
	var verdict string
	var moves []string
	value(`document.getElementById("verdict").textContent`, &verdict)
	value(`[...document.querySelectorAll("#moves li")].map(li => li.dataset.move + " " + li.className)`, &moves)
	p, err := draughts.ParseFEN(start)
	if err != nil {
		t.Fatal(err)
	}
	want, err := explore.Probe(tables, p, probe.Clocks{})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(verdict, "White to move: "+want.Category.String()) || len(moves) != len(want.Moves) {
		t.Fatalf("the page shows %q and %d moves; the API %s and %d", verdict, len(moves), want.Category, len(want.Moves))
	}
	for i, m := range want.Moves {
		if moves[i] != m.Move+" "+m.Category.String() {
			t.Errorf("move %d on the page %q, from the API %s %s", i+1, moves[i], m.Move, m.Category)
		}
	}

	// A position from its FEN and from its Hub string, then a move by
	// clicking: king 10 to 46, the class clock after it taken from the
	// move's answer.
	do("set up W:WK10:BK5", chromedp.SetValue(chromedp.CSS("#fen"), "W:WK10:BK5"), chromedp.Click(chromedp.CSS("#fenform button")))
	shows("W:WK10:BK5")
	kk, _ := draughts.ParseFEN("B:WK2:BK5,30")
	do("set up "+kk.Hub(), chromedp.SetValue(chromedp.CSS("#fen"), kk.Hub()), chromedp.Click(chromedp.CSS("#fenform button")))
	shows("B:WK2:BK5,30")
	do("set up W:WK10:BK5 again", chromedp.SetValue(chromedp.CSS("#fen"), "W:WK10:BK5"), chromedp.Click(chromedp.CSS("#fenform button")))
	shows("W:WK10:BK5")
	do("pick the king on 10", chromedp.Click(chromedp.CSS(`rect[data-square="10"]`)))
	until("square 46 a target", `document.querySelector('rect[data-square="46"]').getAttribute("class") === "target"`)
	do("play 10-46", chromedp.Click(chromedp.CSS(`rect[data-square="46"]`)))
	shows("B:WK46:BK5")
	kvk, _ := draughts.ParseFEN("W:WK10:BK5")
	answer, err := explore.Probe(tables, kvk, probe.Clocks{})
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range answer.Moves {
		if m.Move == "10-46" {
			if m.ClassPlayed == nil {
				t.Fatalf("10-46: no class clock after it: %+v", m)
			}
			until("the class clock after 10-46", fmt.Sprintf(`document.getElementById("clock").value === "%d"`, *m.ClassPlayed))
		}
	}

	// The editor: a black man on 30.
	do("edit", chromedp.Click(chromedp.CSS("#edit")), chromedp.Click(chromedp.CSS(`#palette button[data-piece="bm"]`)),
		chromedp.Click(chromedp.CSS(`rect[data-square="30"]`)))
	shows("B:WK46:BK5,30")
	do("stop editing", chromedp.Click(chromedp.CSS("#edit")))

	// A position beyond the tables: the page says what the directory
	// holds and what dtb gen would build, in the API's words.
	do("set up the game's start", chromedp.SetValue(chromedp.CSS("#fen"), "W:W31-50:B1-20"), chromedp.Click(chromedp.CSS("#fenform button")))
	until("the start beyond the tables", `!document.getElementById("error").hidden && document.getElementById("error").textContent.includes("40 pieces, more than any table: the largest in ")`)

	// The best line of the start, stepped forwards three plies and back one.
	line, err := explore.BestLine(tables, p, probe.Clocks{}, 0, draughts.StandardNotation)
	if err != nil {
		t.Fatal(err)
	}
	do("open "+start, chromedp.Navigate(srv.URL+"/?fen="+start))
	shows(start)
	until("the best line", fmt.Sprintf(`document.querySelectorAll("#line span").length === %d`, len(line.Moves)))
	// numbered as PDN numbers it, with why it ends and the result
	until("the numbered line", fmt.Sprintf(`document.getElementById("line").textContent === %q`, line.PDN+" "+line.Why+" "+line.Result))
	for ply := 1; ply <= 3; ply++ {
		do("forward", chromedp.Click(chromedp.CSS("#forward")))
		shows(line.Moves[ply-1].FEN)
	}
	do("back", chromedp.Click(chromedp.CSS("#back")))
	shows(line.Moves[1].FEN)

	ctx, cancel := context.WithTimeout(browser, time.Minute)
	defer cancel()
	shot, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(shot))
	if err != nil || img.Bounds().Dx() < 500 {
		t.Fatalf("screenshot: %v", err)
	}
	dir := os.Getenv("DTB_ARTEFACTS")
	if dir == "" {
		dir = t.TempDir()
	}
	path := filepath.Join(dir, "explorer.png")
	if err := os.WriteFile(path, shot, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshot of the explorer: %s", path)
}
