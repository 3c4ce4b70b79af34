package draughts

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// This file checks Moves against a slow reference generator written on
// (row, column) coordinates (RowCol and SquareAt, tested in board_test.go),
// sharing nothing with the bitboard code.

type coord struct{ r, c int } // row 0..9 from Black's side, column 0..9, as in RowCol

func coordOf(s int) coord {
	r, c := RowCol(s)
	return coord{r, c}
}

// refMoves returns the legal moves as "from-to" and "from x to {captured}"
// strings, sorted.
func refMoves(p Position) []string {
	var board [51]int // 0 empty, +1 own man, +2 own king, -1/-2 opponent's
	for s := 1; s <= 50; s++ {
		b := Bit(s)
		v := 0
		switch {
		case p.Pieces(p.Side)&b != 0:
			v = 1
		case p.Pieces(p.Side.Opponent())&b != 0:
			v = -1
		}
		if p.Kings&b != 0 {
			v *= 2
		}
		board[s] = v
	}
	fwd := -1
	if p.Side == Black {
		fwd = 1
	}
	type capture struct {
		from, to int
		taken    []int
	}
	var caps []capture
	best := 0
	var walk func(from, at int, king bool, taken []int)
	walk = func(from, at int, king bool, taken []int) {
		more := false
		for _, d := range []coord{{-1, -1}, {-1, 1}, {1, -1}, {1, 1}} {
			a := coordOf(at)
			dist := 1
			for ; king; dist++ {
				s := SquareAt(a.r+dist*d.r, a.c+dist*d.c)
				if s == 0 || (board[s] != 0 && s != from) {
					break
				}
			}
			over := SquareAt(a.r+dist*d.r, a.c+dist*d.c)
			if over == 0 || board[over] >= 0 || slices.Contains(taken, over) {
				continue
			}
			for l := dist + 1; ; l++ {
				to := SquareAt(a.r+l*d.r, a.c+l*d.c)
				if to == 0 || (board[to] != 0 && to != from) {
					break
				}
				more = true
				walk(from, to, king, append(slices.Clone(taken), over))
				if !king {
					break
				}
			}
		}
		if !more && len(taken) > 0 {
			if len(taken) > best {
				best, caps = len(taken), nil
			}
			if len(taken) == best {
				caps = append(caps, capture{from, at, taken})
			}
		}
	}
	for s := 1; s <= 50; s++ {
		if board[s] > 0 {
			walk(s, s, board[s] == 2, nil)
		}
	}
	var out []string
	if len(caps) > 0 {
		for _, c := range caps {
			t := slices.Clone(c.taken)
			slices.Sort(t)
			m := fmt.Sprintf("%dx%d %v", c.from, c.to, t)
			if !slices.Contains(out, m) {
				out = append(out, m)
			}
		}
	} else {
		for s := 1; s <= 50; s++ {
			a := coordOf(s)
			for _, dc := range []int{-1, 1} {
				if board[s] == 1 {
					if to := SquareAt(a.r+fwd, a.c+dc); to != 0 && board[to] == 0 {
						out = append(out, fmt.Sprintf("%d-%d", s, to))
					}
				}
				for dr := -1; board[s] == 2 && dr <= 1; dr += 2 {
					for l := 1; ; l++ {
						to := SquareAt(a.r+l*dr, a.c+l*dc)
						if to == 0 || board[to] != 0 {
							break
						}
						out = append(out, fmt.Sprintf("%d-%d", s, to))
					}
				}
			}
		}
	}
	slices.Sort(out)
	return out
}

func moveStrings(moves []Move) []string {
	var out []string
	for _, m := range moves {
		if m.IsCapture() {
			out = append(out, fmt.Sprintf("%dx%d %v", m.FromSquare(), m.ToSquare(), m.Captures()))
		} else {
			out = append(out, fmt.Sprintf("%d-%d", m.FromSquare(), m.ToSquare()))
		}
	}
	slices.Sort(out)
	return out
}

// positionFromBytes builds a legal position from arbitrary bytes: each
// byte places a piece (square, colour, king) on a free square.
func positionFromBytes(data []byte) Position {
	var p Position
	if len(data) > 0 && data[0]&1 == 1 {
		p.Side = Black
	}
	for i := 1; i < len(data) && i <= 30; i++ {
		s := int(data[i]%50) + 1
		b := Bit(s)
		if p.Occupied()&b != 0 {
			continue
		}
		king := data[i]&0x40 != 0
		if data[i]&0x80 == 0 {
			if !king && b&WhiteCrown != 0 {
				continue
			}
			p.White |= b
		} else {
			if !king && b&BlackCrown != 0 {
				continue
			}
			p.Black |= b
		}
		if king {
			p.Kings |= b
		}
	}
	return p
}

// checkMoves checks the invariants of Moves on p against the reference.
func checkMoves(t *testing.T, p Position) {
	got, want := moveStrings(p.Moves(nil)), refMoves(p)
	if !slices.Equal(got, want) {
		t.Fatalf("%s: moves\n%v\nwant\n%v", p.FEN(), got, want)
	}
	if n := p.CountMoves(); n != len(got) {
		t.Fatalf("%s: CountMoves %d, want %d", p.FEN(), n, len(got))
	}
	if p.HasCapture() != (len(got) > 0 && p.Moves(nil)[0].IsCapture()) {
		t.Fatalf("%s: HasCapture wrong", p.FEN())
	}
	// Captures against the reference itself: Moves returns what Captures
	// gives wherever that is not empty.
	wantCaps := slices.DeleteFunc(slices.Clone(want), func(m string) bool { return !strings.Contains(m, "x") })
	if caps := moveStrings(p.Captures(nil)); !slices.Equal(caps, wantCaps) {
		t.Fatalf("%s: Captures\n%v\nwant\n%v", p.FEN(), caps, wantCaps)
	}
	if !p.HasCapture() {
		var men []Move
		kings := 0
		for _, m := range p.Moves(nil) {
			if p.Kings&(1<<m.From) != 0 {
				kings++
			} else {
				men = append(men, m)
			}
		}
		if got := p.ManMoves(nil); !slices.Equal(got, men) {
			t.Fatalf("%s: ManMoves %v, want %v", p.FEN(), got, men)
		}
		if got := p.KingMoves(); got != kings {
			t.Fatalf("%s: KingMoves %d, want %d", p.FEN(), got, kings)
		}
	}
	for _, m := range p.Moves(nil) {
		q := p.Play(m)
		if q.White&q.Black != 0 || q.Kings&^(q.White|q.Black) != 0 ||
			q.White&^q.Kings&WhiteCrown != 0 || q.Black&^q.Kings&BlackCrown != 0 || q.Side == p.Side {
			t.Fatalf("%s: %s plays to an illegal position %s", p.FEN(), p.Notation(m), q.FEN())
		}
		if back, err := p.ParseMove(p.Notation(m)); err != nil || back != m {
			t.Fatalf("%s: notation %s parses to %v, %v", p.FEN(), p.Notation(m), back, err)
		}
		checkHubMove(t, p, m)
	}
}

func TestMovesAgainstReference(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	data := make([]byte, 31)
	for range 20000 {
		n := 2 + r.IntN(30)
		for i := range data[:n] {
			data[i] = byte(r.Uint32())
		}
		checkMoves(t, positionFromBytes(data[:n]))
	}
}

func FuzzMoves(f *testing.F) {
	f.Add([]byte{0, 10, 20, 130, 140, 77})
	f.Add([]byte{1, 0x40 | 27, 0x80 | 22, 0x80 | 13, 0x80 | 35})
	f.Fuzz(func(t *testing.T, data []byte) {
		checkMoves(t, positionFromBytes(data))
	})
}

// BenchmarkCaptures lists the captures of random positions of three
// kings against a king and two men, either side to move, 60% of them with
// a capture, as the generator does for every position of such a table
// (ns/op is per position).
//
//	go test ./draughts -run '^$' -bench 'Captures$'
func BenchmarkCaptures(b *testing.B) {
	r := rand.New(rand.NewPCG(5, 6))
	ps := make([]Position, 4096)
	for i := range ps {
		data := []byte{byte(r.IntN(2))}
		for range 3 {
			data = append(data, byte(r.IntN(50))|0x40)
		}
		data = append(data, byte(r.IntN(50))|0xc0, byte(r.IntN(50))|0x80, byte(r.IntN(50))|0x80)
		ps[i] = positionFromBytes(data)
	}
	var buf [MaxMoves]Move
	i := 0
	for b.Loop() {
		ps[i%len(ps)].Captures(buf[:0])
		i++
	}
}

// BenchmarkKingCaptures lists the moves of random positions of three to
// six kings where the side to move must capture, as in the kings-only
// endgame tables (ns/op is per position).
//
//	go test ./draughts -run '^$' -bench KingCaptures
func BenchmarkKingCaptures(b *testing.B) {
	r := rand.New(rand.NewPCG(3, 4))
	var ps []Position
	for len(ps) < 1024 {
		data := []byte{byte(r.IntN(2))}
		for range 3 + r.IntN(4) {
			data = append(data, byte(r.IntN(50))|0x40|byte(r.IntN(2))<<7)
		}
		if p := positionFromBytes(data); p.HasCapture() {
			ps = append(ps, p)
		}
	}
	var buf [MaxMoves]Move
	i := 0
	for b.Loop() {
		ps[i%len(ps)].Moves(buf[:0])
		i++
	}
}
