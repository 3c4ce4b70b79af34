// Package draughts is the rules engine of international draughts (10x10):
// positions on bitboards, FEN and Hub notation, legal move generation
// under the FMJD rules, move notation and perft.
//
// Use it like this:
//
//	pos, err := draughts.ParseFEN("W:W31-50:B1-20")
//	if err != nil { ... }
//	var buf [draughts.MaxMoves]draughts.Move
//	for _, m := range pos.Moves(buf[:0]) {
//		fmt.Println(pos.Notation(m))
//		next := pos.Play(m)
//		...
//	}
//
// # Board layout
//
// Squares are numbered 1..50 in the standard way. A bitboard is a uint64
// whose bit (s-1)+(s-1)/10 stands for square s: one unused "ghost" bit after
// every second row (bits 10, 21, 32 and 43) makes every diagonal step a
// constant shift of 5 or 6 bits, so that sliding and jumping are shifts and
// masks. Bits 54..63 and the ghost bits are never set in a valid bitboard.
// SquareSet and FromSquareSet convert to and from plain square sets (bit
// s-1 for square s). Step moves squares along Directions, Mirror and
// MirrorSet turn the board by 180 degrees, and RowCol and SquareAt give a
// square's place in a diagram.
package draughts

import "math/bits"

// Color is a side: White or Black.
type Color uint8

// The two sides.
const (
	White Color = iota
	Black
)

// Opponent returns the other side.
func (c Color) Opponent() Color { return c ^ 1 }

func (c Color) String() string {
	if c == White {
		return "White"
	}
	return "Black"
}

// Bitboard masks.
const (
	// Board holds the 50 playable squares.
	Board uint64 = (1<<54 - 1) &^ (1<<10 | 1<<21 | 1<<32 | 1<<43)
	// WhiteCrown is row 1 (squares 1..5), where White men are crowned.
	WhiteCrown uint64 = 0x1f
	// BlackCrown is row 10 (squares 46..50), where Black men are crowned.
	BlackCrown uint64 = 0x1f << 49
)

// Directions are the four diagonal steps as rotations of a bitboard, for
// Step: towards row 1 (White's forward) by -6 and -5 bits, towards row 10
// (Black's forward) by +5 and +6.
var Directions = [4]int{-6, -5, 5, 6}

// Step moves every square of the bitboard x one diagonal step in direction
// d (one of Directions); squares that leave the board vanish.
func Step(x uint64, d int) uint64 { return bits.RotateLeft64(x, d) & Board }

// Bit returns the bitboard of square s (1..50).
func Bit(s int) uint64 { return 1 << bitIndex(s) }

func bitIndex(s int) int { return s - 1 + (s-1)/10 }

// squareOf maps a bit index of Board to its square number.
var squareOf = func() (t [64]int8) {
	for s := 1; s <= 50; s++ {
		t[bitIndex(s)] = int8(s)
	}
	return t
}()

// Square returns the square number (1..50) of the lowest set bit of x.
func Square(x uint64) int { return int(squareOf[bits.TrailingZeros64(x)]) }

// SquareSet converts a bitboard to a plain square set (bit s-1 for square
// s), the form the index package uses.
func SquareSet(x uint64) uint64 {
	return x&0x3ff | x>>1&(0x3ff<<10) | x>>2&(0x3ff<<20) | x>>3&(0x3ff<<30) | x>>4&(0x3ff<<40)
}

// FromSquareSet converts a plain square set back to a bitboard.
func FromSquareSet(x uint64) uint64 {
	return x&0x3ff | (x&(0x3ff<<10))<<1 | (x&(0x3ff<<20))<<2 | (x&(0x3ff<<30))<<3 | (x&(0x3ff<<40))<<4
}

// Mirror turns a bitboard by 180 degrees: square s goes to 51-s. The
// board's bits 0 to 53 (a free bit after each row pair) reversed are bits
// 53 to 0 of the same layout, so one bit reversal does it.
func Mirror(x uint64) uint64 { return bits.Reverse64(x) >> 10 }

// MirrorSet turns a plain square set (bit s-1 for square s) by 180
// degrees: square s goes to 51-s.
func MirrorSet(set uint64) uint64 { return bits.Reverse64(set) >> 14 }

// RowCol returns the row and column of square sq (1..50) as the board is
// drawn in diagrams, counting from 0: row 0 holds squares 1..5 on columns
// 1, 3, .., 9, row 1 squares 6..10 on columns 0, 2, .., 8, and so on down
// to square 46 on row 9, column 0. A square's row and column add up to an
// odd number.
func RowCol(sq int) (row, col int) {
	row = (sq - 1) / 5
	return row, 2*((sq-1)%5) + 1 - row%2
}

// SquareAt returns the square number (1..50) on row row and column col,
// both counted from 0 as in RowCol, or 0 for a light square or one off
// the board.
func SquareAt(row, col int) int {
	if row < 0 || row > 9 || col < 0 || col > 9 || (row+col)%2 == 0 {
		return 0
	}
	return 5*row + col/2 + 1
}
