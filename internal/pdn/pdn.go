// Package pdn reads and writes games in PDN, the Portable Draughts
// Notation: tag pairs, then the move text and the result.
//
//	games, err := pdn.Parse(strings.NewReader(`[FEN "W:WK2,6:BK50"] 1. 2-11 50-45 *`))
//	p, moves := games[0].Start, games[0].Moves // the position, then "2-11", "50-45"
//	err = games[0].Write(os.Stdout, nil)         // the game back, as PDN
//
// The tags are kept in their order and the result (2-0, 1-1, 0-2, 0-0,
// *) beside them. The move text's numbers, comments ({...} and ; to the
// end of the line), variations ((...), skipped) and annotation marks (!,
// ?, $n) are read past; the moves are kept as written, for
// draughts.Position.ParseMove. A game without a FEN tag starts from the
// initial position.
package pdn

import (
	"errors"
	"fmt"
	"io"
	"regexp"
	"strings"

	"github.com/dtb-draughts/dtb/draughts"
)

// A Tag is a tag pair of a game: [Name "Value"].
type Tag struct {
	Name, Value string
}

// A Game is a game of a PDN file.
type Game struct {
	Tags  []Tag             // in the order of the file: Event, ..., FEN
	Start draughts.Position // the FEN tag's position, or the initial one
	Moves []string          // the moves in order, as written: "32-28", "28x19"
	// Result is the result that ends the move text: 2-0, 1-1, 0-2, 0-0
	// or *; "" where the move text has none.
	Result string
	Line   int // the line of the file where the game starts
}

// Tag returns the value of the game's first tag called name, and
// whether it has one.
func (g *Game) Tag(name string) (string, bool) {
	for _, t := range g.Tags {
		if t.Name == name {
			return t.Value, true
		}
	}
	return "", false
}

// maxBytes bounds what Parse reads: a PDN file of games to annotate is
// far smaller.
const maxBytes = 16 << 20

var (
	tagPair = regexp.MustCompile(`^\[\s*([A-Za-z0-9_]+)\s+"((?:[^"\\]|\\.)*)"\s*\]`)
	move    = regexp.MustCompile(`^[0-9]{1,2}(?:[-x][0-9]{1,2})+`)
	number  = regexp.MustCompile(`^[0-9]+\.(?:\.\.)?`)
	result  = regexp.MustCompile(`^(2-0|0-2|1-1|0-0|\*)(?:\s|$)`)

	// unescape and escape read and write a tag's value: PDN escapes " and
	// \ with a \.
	unescape = strings.NewReplacer(`\"`, `"`, `\\`, `\`)
	escape   = strings.NewReplacer(`\`, `\\`, `"`, `\"`)
)

// Parse reads the games of r. Its errors name the line and say what is
// wrong in words.
func Parse(r io.Reader) ([]Game, error) {
	b, err := io.ReadAll(io.LimitReader(r, maxBytes+1))
	if err != nil {
		return nil, err
	}
	if len(b) > maxBytes {
		return nil, fmt.Errorf("more than %d MiB: not a file of games", maxBytes>>20)
	}
	p := parser{src: string(b), line: 1}
	var games []Game
	for {
		p.space()
		if p.src == "" {
			break
		}
		g, err := p.game()
		if err != nil {
			return nil, fmt.Errorf("line %d: %w", p.line, err)
		}
		games = append(games, g)
	}
	if len(games) == 0 {
		return nil, errors.New("no game")
	}
	return games, nil
}

// parser reads PDN from src, which it consumes; line is the line of its
// start.
type parser struct {
	src  string
	line int
}

// advance consumes n bytes.
func (p *parser) advance(n int) {
	p.line += strings.Count(p.src[:n], "\n")
	p.src = p.src[n:]
}

// space consumes white space and comments.
func (p *parser) space() {
	for p.src != "" {
		switch c := p.src[0]; {
		case c == ' ' || c == '\t' || c == '\r' || c == '\n':
			p.advance(1)
		case c == ';':
			n := strings.IndexByte(p.src, '\n')
			if n < 0 {
				n = len(p.src)
			}
			p.advance(n)
		case c == '{':
			n := strings.IndexByte(p.src, '}')
			if n < 0 {
				n = len(p.src) - 1
			}
			p.advance(n + 1)
		default:
			return
		}
	}
}

// game reads one game: its tags, its moves, up to its result or the next
// game's tags.
func (p *parser) game() (Game, error) {
	g := Game{Start: draughts.Start(), Line: p.line}
	for {
		p.space()
		m := tagPair.FindStringSubmatch(p.src)
		if m == nil {
			break
		}
		g.Tags = append(g.Tags, Tag{m[1], unescape.Replace(m[2])})
		p.advance(len(m[0]))
	}
	if f, ok := g.Tag("FEN"); ok {
		var err error
		if g.Start, err = draughts.ParseFEN(f); err != nil {
			return g, err
		}
	}
	for {
		p.space()
		switch {
		case p.src == "":
			return g, nil
		case p.src[0] == '[':
			if !tagPair.MatchString(p.src) {
				return g, fmt.Errorf("%.30q: not a tag pair [Name \"value\"]", strings.SplitN(p.src, "\n", 2)[0])
			}
			return g, nil
		case result.MatchString(p.src):
			m := result.FindStringSubmatch(p.src)
			g.Result = m[1]
			p.advance(len(m[0]))
			return g, nil
		case number.MatchString(p.src):
			p.advance(len(number.FindString(p.src)))
		case move.MatchString(p.src):
			s := move.FindString(p.src)
			g.Moves = append(g.Moves, s)
			p.advance(len(s))
			for p.src != "" && strings.IndexByte("!?", p.src[0]) >= 0 {
				p.advance(1)
			}
		case p.src[0] == '$':
			n := 1
			for n < len(p.src) && p.src[n] >= '0' && p.src[n] <= '9' {
				n++
			}
			p.advance(n)
		case p.src[0] == '(':
			if err := p.variation(); err != nil {
				return g, err
			}
		default:
			word := p.src
			if i := strings.IndexAny(word, " \t\r\n"); i >= 0 {
				word = word[:i]
			}
			return g, fmt.Errorf("%.20q: not a move, a move number, a comment or a result", word)
		}
	}
}

// variation skips a variation, nested ones included.
func (p *parser) variation() error {
	depth := 0
	for p.src != "" {
		switch p.src[0] {
		case '(':
			depth++
		case ')':
			depth--
		case '{':
			p.space()
			continue
		}
		p.advance(1)
		if depth == 0 {
			return nil
		}
	}
	return errors.New("a variation ( ... ) that does not end")
}

// MoveText returns moves, the first played by side, as PDN move text:
// the moves numbered (MoveNumber: "1. 32-28 19-23 2. ...", from "1..."
// when Black starts) and the comments in braces, comments[n] after the
// move of ply n (from 1), comments[0] before the first. A move of Black
// after a comment gets its number again ("3. 11-16 {...} 3... 50-45"),
// as PDN writes it.
func MoveText(side draughts.Color, moves []string, comments map[int]string) string {
	var text []string
	if hasComment(comments, 0) {
		text = append(text, "{"+comments[0]+"}")
	}
	for i, s := range moves {
		if n := MoveNumber(side, i, hasComment(comments, i)); n != "" {
			text = append(text, n)
		}
		text = append(text, s)
		if hasComment(comments, i+1) {
			text = append(text, "{"+comments[i+1]+"}")
		}
	}
	return strings.Join(text, " ")
}

// MoveNumber returns the number PDN writes before move i (from 0) of
// moves whose first is played by side: "N." before a move of White,
// "N..." before the first move where Black plays it, and before another
// of Black's where again is set (after a comment); "" before the others.
func MoveNumber(side draughts.Color, i int, again bool) string {
	i += int(side)
	switch n := 1 + i/2; {
	case i%2 == 0:
		return fmt.Sprintf("%d.", n)
	case i == int(side) || again:
		return fmt.Sprintf("%d...", n)
	}
	return ""
}

// hasComment reports whether comments has one for ply n.
func hasComment(comments map[int]string, n int) bool {
	_, ok := comments[n]
	return ok
}

// Write writes g as PDN: its tags in their order, a blank line, its move
// text (MoveText, with comments) and its result, then a blank line that
// parts it from the next game. A game without a result in its move text
// ends with its Result tag's, if that is one, else with *.
func (g *Game) Write(w io.Writer, comments map[int]string) error {
	var b strings.Builder
	for _, t := range g.Tags {
		fmt.Fprintf(&b, "[%s \"%s\"]\n", t.Name, escape.Replace(t.Value))
	}
	if len(g.Tags) > 0 {
		b.WriteString("\n")
	}
	res := g.Result
	if res == "" {
		res, _ = g.Tag("Result")
		if !result.MatchString(res) {
			res = "*"
		}
	}
	if text := MoveText(g.Start.Side, g.Moves, comments); text != "" {
		b.WriteString(text + " ")
	}
	b.WriteString(res + "\n\n")
	_, err := io.WriteString(w, b.String())
	return err
}
