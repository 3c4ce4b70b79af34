package table

import (
	"context"
	"encoding/json"
	"fmt"
	"runtime"
	"strings"

	"github.com/dtb-draughts/dtb/codec"
	"github.com/dtb-draughts/dtb/index"
	"github.com/dtb-draughts/dtb/internal/parallel"
	"github.com/dtb-draughts/dtb/rules"
)

// batch is the number of entries a Writer holds before it passes them on.
var batch = 1 << 16

// A Writer writes a table file from its entries given in index order.
// It holds only a batch of them, and the blocks of codec.Writer. It
// counts the table's stats from the real entries. The entries of capture
// positions, whose side to move must capture, are don't-cares. Each is
// written as a copy of the entry before it, which compresses best.
// Position 0 keeps its own. A theoretical draw has no distance, dtw or
// mtc: those bytes are copies of the entry before's too. The blocks are
// compressed at codec.Smallest.
//
// A Writer of a Work table passes every entry on as given. It keeps the
// real entries of capture positions and counts no stats. One of
// WriteSlim finds the forced threats (rules.ForcedThreat) and fills
// their entries as those of capture positions (rulesForcedThreats). For
// a Rule2 material it marks the value bytes (FreshOnly). Where it writes
// a distance file, it fills the rule-2 distances of at most
// ShortDistance plies as don't-cares too (rulesShortDistances). Such a
// byte is the distance byte of the entry before: 0 in entry 0 and in a
// draw's. The mtc byte is changed to keep the mtc.
//
// A Writer is not safe for concurrent use.
type Writer struct {
	path     string
	rules    uint32                    // the rules flags of the value file
	resolved bool                      // capture positions keep their entries
	values   *codec.Writer             // the value file, or the whole table
	dist     *codec.Writer             // the distance file, or nil
	w        [NumColumns]*codec.Writer // the file of each column
	at       [NumColumns]int           // a column's number in its file
	x        *index.Index
	class    rules.Class
	layout   Layout
	buf      Columns  // entry 0: the last entry passed on; 1 to n: the held ones
	caps     []uint64 // bit j: entry j+1 of buf is a capture position's
	threats  []uint64 // bit j: entry j+1 of buf is a forced threat's; nil without rulesForcedThreats
	n        int      // entries held
	next     int64    // index of the first entry held
	stats    Stats
	given    *Stats // the stats to write instead of those counted (Convert)
}

// NewWriter starts writing the table of m, with the optional columns of
// x, as a file of variant v, Full or Work, at path. A Full table is a
// value file and, if it has columns besides the value, a distance file
// beside it (DistancePath). A Work table is a resolved table: its
// capture positions hold their real entries, so that a prober reads
// them without a search. It is one whole file, compressed at
// codec.Fastest, the stats of its header left zero: larger than a Full
// table, and quicker to write and to probe. The generator keeps such a
// copy of a table it built while later tables read it. WriteSlim writes
// Slim tables. The caller must end with Close or Abort.
func NewWriter(path string, m index.Material, x Extra, v Variant) (*Writer, error) {
	if v != Full && v != Work {
		return nil, fmt.Errorf("%s: no writer of %s tables", path, v)
	}
	return newWriter(path, m, x, v.Rules(), true)
}

// newWriter returns a Writer of the table of m, with the optional columns
// of x. Its value file has the rules flags flags. A resolved table
// (rulesFlagsWork) is one whole file. The others have a distance file if
// they have distance columns and distances is set.
func newWriter(path string, m index.Material, x Extra, flags uint32, distances bool) (*Writer, error) {
	ix := index.New(m)
	l := NewLayout(m, x)
	resolved := flags == rulesFlagsWork
	w := &Writer{path: path, rules: flags, resolved: resolved, x: ix, class: rules.ClassOf(m), layout: l}
	h := codec.Header{
		Material:     m.String(),
		Kind:         codec.Values,
		IndexVersion: IndexVersion,
		Rules:        flags,
		Positions:    ix.Size(),
	}
	compression := codec.Smallest
	if resolved {
		h.Kind, compression = codec.Whole, codec.Fastest
	}
	var dist []string
	for col := range NumColumns {
		if !l.Has(col) {
			continue
		}
		if h.Kind == codec.Values && col != ValueColumn {
			dist = append(dist, col.Name())
			continue
		}
		w.at[col] = len(h.Columns)
		h.Columns = append(h.Columns, codec.Column{Name: col.Name(), Width: col.Width()})
	}
	if len(dist) > 0 {
		h.Meta = map[string]string{distancesKey: strings.Join(dist, ",")}
	}
	vw, err := codec.NewWriter(path, h)
	if err != nil {
		return nil, err
	}
	vw.SetCompression(compression)
	w.values = vw
	for col := range NumColumns {
		if l.Has(col) && (h.Kind == codec.Whole || col == ValueColumn) {
			w.w[col] = vw
		}
	}
	if len(dist) > 0 && distances {
		h.Kind, h.Columns, h.Meta, h.Rules = codec.Distances, nil, nil, flags&^rulesFreshMarks
		for col := DistanceColumn; col < NumColumns; col++ {
			if l.Has(col) {
				w.at[col] = len(h.Columns)
				h.Columns = append(h.Columns, codec.Column{Name: col.Name(), Width: col.Width()})
			}
		}
		dw, err := codec.NewWriter(DistancePath(path), h)
		if err != nil {
			vw.Abort()
			return nil, err
		}
		dw.SetCompression(compression)
		w.dist = dw
		for col := DistanceColumn; col < NumColumns; col++ {
			if l.Has(col) {
				w.w[col] = dw
			}
		}
	}
	k := min(int64(batch), ix.Size())
	w.buf, w.caps = NewLayout(m, x).MakeColumns(k+1), make([]uint64, (k+63)/64)
	if flags&rulesForcedThreats != 0 {
		w.threats = make([]uint64, len(w.caps))
	}
	return w, nil
}

func (w *Writer) errorf(format string, args ...any) error {
	return fmt.Errorf("write %s: %s", w.path, fmt.Sprintf(format, args...))
}

// add adds the entry e of the next position, a capture position if
// capture is set.
func (w *Writer) add(e rules.Entry, capture bool) error {
	if w.next+int64(w.n) == w.x.Size() {
		return w.errorf("more than %d entries", w.x.Size())
	}
	w.n++
	w.buf.Set(int64(w.n), e)
	if capture {
		w.caps[(w.n-1)/64] |= 1 << ((w.n - 1) % 64)
	}
	if w.n == len(w.buf[ValueColumn])-1 {
		return w.flush()
	}
	return nil
}

// AddColumns adds the entries cols of the next positions. cols has the
// columns of the table and is not modified. Bit i%64 of word i/64 of
// captures marks entry i as a capture position.
func (w *Writer) AddColumns(cols *Columns, captures []uint64) error {
	n := int64(len(cols[ValueColumn]))
	for col := range NumColumns {
		if cols.Has(col) != w.layout.Has(col) || int64(len(cols[col])) != n*int64(col.Width()) && cols.Has(col) {
			return w.errorf("columns do not fit the table's %v", columnList(w.layout))
		}
	}
	switch {
	case int64(len(captures)) < (n+63)/64:
		return w.errorf("%d words of capture bits for %d entries", len(captures), n)
	case w.next+int64(w.n)+n > w.x.Size():
		return w.errorf("more than %d entries", w.x.Size())
	}
	for i := int64(0); i < n; {
		k := min(n-i, int64(len(w.buf[ValueColumn])-1-w.n))
		for col, b := range w.buf {
			if b != nil {
				wd := int64(Column(col).Width())
				copy(b[(int64(w.n)+1)*wd:], cols[col][i*wd:(i+k)*wd])
			}
		}
		for j := range k {
			if isSet(captures, i+j) {
				p := int64(w.n) + j
				w.caps[p/64] |= 1 << (p % 64)
			}
		}
		w.n += int(k)
		i += k
		if w.n == len(w.buf[ValueColumn])-1 {
			if err := w.flush(); err != nil {
				return err
			}
		}
	}
	return nil
}

func isSet(bits []uint64, i int64) bool { return bits[i/64]&(1<<(i%64)) != 0 }

// flush counts the held entries and fills their don't-cares, unless the
// table is resolved, and passes the entries on to the codec.Writer.
func (w *Writer) flush() error {
	if !w.resolved {
		w.countAndFill()
	}
	for col, b := range w.buf {
		if b != nil && w.w[col] != nil {
			wd := Column(col).Width()
			if _, err := w.w[col].Write(w.at[col], b[wd:(w.n+1)*wd]); err != nil {
				return err
			}
		}
	}
	w.buf.copyEntry(0, int64(w.n))
	clear(w.caps)
	w.next += int64(w.n)
	w.n = 0
	return nil
}

// countAndFill counts the held entries in the stats and fills their
// don't-cares.
func (w *Writer) countAndFill() {
	if w.threats != nil {
		w.findThreats()
	}
	for j := int64(1); j <= int64(w.n); j++ {
		i := w.next + j - 1
		capture := isSet(w.caps, j-1)
		threat := w.threats != nil && isSet(w.threats, j-1)
		if v := w.buf[ValueColumn][j]; v&3 == valueCode(rules.Draw) && v>>2 <= valueCode(rules.Win) && !capture && !threat && i > 0 {
			// Most entries: a quiet draw, which Stats.Add only counts.
			w.stats.count(rules.Draw, codeValue(v>>2), false)
			w.buf.copyColumns(j, j-1, DistanceColumn)
			continue
		}
		e, _ := w.buf.Entry(j)
		w.stats.Add(w.class, e, capture, func() string { return rules.Position(w.x.Unrank(i)).FEN() })
		if w.rules&rulesFreshMarks != 0 {
			w.buf.markFreshOnly(j)
		}
		short := w.rules&rulesShortDistances != 0 && w.class == rules.Rule2 && e.Distance >= 0 && e.Distance <= ShortDistance
		switch {
		case i == 0:
			if short || e.Theory == rules.Draw && w.rules&rulesShortDistances != 0 {
				// The fills copy it on: 0 keeps every fill byte low,
				// so a running count rarely needs the search.
				w.buf.setDistanceByte(j, 0)
			}
		case capture || threat:
			w.buf.copyEntry(j, j-1)
		case e.Theory == rules.Draw:
			w.buf.copyColumns(j, j-1, DistanceColumn)
		case short:
			w.buf.setDistanceByte(j, w.buf[DistanceColumn][j-1])
		}
	}
}

// findThreats marks the capture positions and the forced threats among
// the held entries, in caps and threats, on every core. A table with
// rulesForcedThreats leaves out both. WriteSlim marks no capture.
func (w *Writer) findThreats() {
	n := int64(w.n)
	clear(w.threats)
	// Whole words to each goroutine: none writes another's.
	parallel.Range(context.Background(), (n+63)/64, runtime.GOMAXPROCS(0), func(lo, hi int64) error {
		pl := w.x.Unrank(w.next + lo*64)
		for k := lo * 64; k < min(hi*64, n); k++ {
			if k > lo*64 {
				pl, _ = w.x.Next(pl)
			}
			p := rules.Position(pl)
			if p.HasCapture() {
				w.caps[k/64] |= 1 << (k % 64)
			} else if rules.ForcedThreat(&p) {
				w.threats[k/64] |= 1 << (k % 64)
			}
		}
		return nil
	})
}

// setDistanceByte sets the distance byte of entry i to b, keeping its
// mtc (stored less the distance byte).
func (c *Columns) setDistanceByte(i int64, b byte) {
	d := c[DistanceColumn]
	if m := c[MTCColumn]; m != nil {
		m[i] += d[i] - b
	}
	d[i] = b
}

// copyEntry copies entry src to entry dst.
func (c *Columns) copyEntry(dst, src int64) { c.copyColumns(dst, src, ValueColumn) }

// copyColumns copies the bytes of entry src to entry dst in the columns
// from first on.
func (c *Columns) copyColumns(dst, src int64, first Column) {
	for col, b := range c[first:] {
		col += int(first)
		if b != nil {
			wd := int64(Column(col).Width())
			copy(b[dst*wd:(dst+1)*wd], b[src*wd:(src+1)*wd])
		}
	}
}

// Close checks that every position got its entry. It writes the stats
// into the header of the value file and finishes the files (see
// codec.Writer.Close). The distance file comes first: a value file under
// its real name has its distance file beside it.
func (w *Writer) Close() error {
	if err := w.flush(); err != nil {
		w.Abort()
		return err
	}
	if w.next != w.x.Size() {
		w.Abort()
		return w.errorf("%d entries, want %d", w.next, w.x.Size())
	}
	if w.given != nil {
		w.stats = *w.given
	}
	stats, err := json.Marshal(w.stats)
	if err != nil {
		w.Abort()
		return err
	}
	w.values.SetMeta(statsKey, string(stats))
	if w.dist != nil {
		if err := w.dist.Close(); err != nil {
			w.values.Abort()
			return err
		}
	}
	return w.values.Close()
}

// Abort discards the files (see codec.Writer.Abort).
func (w *Writer) Abort() {
	w.values.Abort()
	if w.dist != nil {
		w.dist.Abort()
	}
}

// Stats returns the stats of the table, once Close has succeeded.
func (w *Writer) Stats() Stats { return w.stats }
