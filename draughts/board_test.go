package draughts

import (
	"math/bits"
	"testing"
)

func TestRowCol(t *testing.T) {
	for _, c := range []struct{ sq, row, col int }{
		{1, 0, 1}, {5, 0, 9}, {6, 1, 0}, {10, 1, 8}, {23, 4, 5}, {28, 5, 4}, {46, 9, 0}, {50, 9, 8},
	} {
		if r, col := RowCol(c.sq); r != c.row || col != c.col {
			t.Errorf("RowCol(%d) = %d, %d, want %d, %d", c.sq, r, col, c.row, c.col)
		}
	}
	seen := map[[2]int]bool{}
	for sq := 1; sq <= 50; sq++ {
		r, c := RowCol(sq)
		if (r+c)%2 != 1 || seen[[2]int{r, c}] {
			t.Errorf("RowCol(%d) = %d, %d: not a new dark square", sq, r, c)
		}
		seen[[2]int{r, c}] = true
		if got := SquareAt(r, c); got != sq {
			t.Errorf("SquareAt(RowCol(%d)) = %d", sq, got)
		}
	}
	for _, rc := range [][2]int{{0, 0}, {4, 4}, {9, 9}, {-1, 0}, {0, -1}, {10, 1}, {1, 10}} {
		if got := SquareAt(rc[0], rc[1]); got != 0 {
			t.Errorf("SquareAt(%d, %d) = %d, want 0", rc[0], rc[1], got)
		}
	}
}

// TestStep checks Directions against rows and columns: a step by d < 0
// goes one row up, by d > 0 one row down, one column left or right, and
// from every square the four steps reach just its diagonal neighbours.
func TestStep(t *testing.T) {
	for sq := 1; sq <= 50; sq++ {
		r, c := RowCol(sq)
		var reached uint64
		for _, d := range Directions {
			x := Step(Bit(sq), d)
			if x == 0 {
				continue
			}
			tr, tc := RowCol(Square(x))
			dr := 1
			if d < 0 {
				dr = -1
			}
			if bits.OnesCount64(x) != 1 || tr-r != dr || (tc-c != 1 && tc-c != -1) {
				t.Errorf("Step(square %d, %d) = %#x", sq, d, x)
			}
			reached |= x
		}
		var want uint64
		for _, n := range [][2]int{{-1, -1}, {-1, 1}, {1, -1}, {1, 1}} {
			if to := SquareAt(r+n[0], c+n[1]); to != 0 {
				want |= Bit(to)
			}
		}
		if reached != want {
			t.Errorf("steps from %d reach %#x, want %#x", sq, reached, want)
		}
	}
}

func TestMirror(t *testing.T) {
	for s := 1; s <= 50; s++ {
		if got := Mirror(Bit(s)); got != Bit(51-s) {
			t.Errorf("Mirror(square %d) = %#x, want square %d", s, got, 51-s)
		}
		if got := MirrorSet(1 << (s - 1)); got != 1<<(50-s) {
			t.Errorf("MirrorSet(square %d) = %#x, want square %d", s, got, 51-s)
		}
		r, c := RowCol(s)
		if mr, mc := RowCol(51 - s); mr != 9-r || mc != 9-c {
			t.Errorf("square %d on %d, %d; its mirror on %d, %d", s, r, c, mr, mc)
		}
	}
	if Mirror(Board) != Board {
		t.Errorf("Mirror of all squares = %#x", Mirror(Board))
	}
	if MirrorSet(1<<50-1) != 1<<50-1 {
		t.Errorf("MirrorSet of all squares = %#x", MirrorSet(1<<50-1))
	}
}
