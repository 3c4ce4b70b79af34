// Package diagram draws positions of international draughts as board
// diagrams, in text for terminals and Markdown, and as SVG images.
//
// Use it like this:
//
//	p, err := draughts.ParseFEN("W:WK10,28:B23,K41")
//	if err != nil { ... }
//	fmt.Print(diagram.Text(p))
//	os.WriteFile("position.svg", []byte(diagram.SVG(p)), 0o644)
//
// Both draw the board as in printed diagrams: row 1 (squares 1-5) on top,
// square 46 bottom left, with rows and columns as in draughts.RowCol, and
// name the side to move below it. Their output depends on nothing but the
// position, so it can be compared byte for byte.
package diagram

import (
	"fmt"
	"strings"

	"github.com/dtb-draughts/dtb/draughts"
)

// piece returns the letter of what stands on square sq: w or W for a
// White man or king, b or B for Black's, '.' for nothing.
func piece(p draughts.Position, sq int) byte {
	bit := draughts.Bit(sq)
	c := byte('.')
	switch {
	case p.White&bit != 0:
		c = 'w'
	case p.Black&bit != 0:
		c = 'b'
	}
	if p.Kings&bit != 0 {
		c -= 'a' - 'A'
	}
	return c
}

// Text draws p in text, a row per line, light squares blank, with the
// squares of each row on the right, and a last line naming the side to
// move and the letters: w/W White man/king, b/B Black man/king, '.' an
// empty dark square.
func Text(p draughts.Position) string {
	var b strings.Builder
	for r := range 10 {
		for c := range 10 {
			if sq := draughts.SquareAt(r, c); sq == 0 {
				b.WriteString("  ")
			} else {
				b.WriteByte(' ')
				b.WriteByte(piece(p, sq))
			}
		}
		fmt.Fprintf(&b, "   %2d-%d\n", 5*r+1, 5*r+5)
	}
	fmt.Fprintf(&b, "%s to move; w/W White man/king, b/B Black man/king\n", p.Side)
	return b.String()
}

// SVG draws p as a standalone SVG image, 400 by 424 pixels, with the
// number of each dark square in its corner.
func SVG(p draughts.Position) string {
	const cell = 40
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %[1]d %[2]d">`+"\n", 10*cell, 10*cell+24)
	fmt.Fprintf(&b, `<rect width="%d" height="%d" fill="#f0d9b5"/>`+"\n", 10*cell, 10*cell)
	for r := range 10 {
		for c := range 10 {
			sq := draughts.SquareAt(r, c)
			if sq == 0 {
				continue
			}
			x, y := c*cell, r*cell
			fmt.Fprintf(&b, `<rect x="%d" y="%d" width="%d" height="%d" fill="#b58863"/>`+"\n", x, y, cell, cell)
			fmt.Fprintf(&b, `<text x="%d" y="%d" font-family="sans-serif" font-size="9" fill="#f0d9b5">%d</text>`+"\n", x+2, y+10, sq)
			fill, line := "#fafafa", "#202020"
			switch piece(p, sq) {
			case '.':
				continue
			case 'b', 'B':
				fill, line = line, fill
			}
			fmt.Fprintf(&b, `<circle cx="%d" cy="%d" r="15" fill="%s" stroke="#000" stroke-width="1.5"/>`+"\n", x+cell/2, y+cell/2, fill)
			if p.Kings&draughts.Bit(sq) != 0 {
				fmt.Fprintf(&b, `<circle cx="%d" cy="%d" r="7" fill="none" stroke="%s" stroke-width="3"/>`+"\n", x+cell/2, y+cell/2, line)
			}
		}
	}
	fmt.Fprintf(&b, `<text x="4" y="%d" font-family="sans-serif" font-size="14">%s to move</text>`+"\n", 10*cell+17, p.Side)
	b.WriteString("</svg>\n")
	return b.String()
}
