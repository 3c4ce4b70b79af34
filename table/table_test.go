package table

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/dtb-draughts/dtb/index"
	"github.com/dtb-draughts/dtb/rules"
)

func TestColumns(t *testing.T) {
	m, _ := index.ParseMaterial("KKvK")
	c := NewLayout(m, Extra{DTW: true, MTC: true}).MakeColumns(3)
	entries := []rules.Entry{
		{Rules: rules.Win, Theory: rules.Win, Distance: 7, DTW: 7, MTC: 3},
		{Rules: rules.Draw, Theory: rules.Loss, Distance: -1, DTW: 20, MTC: 20},
		{Rules: rules.Draw, Theory: rules.Draw, Distance: -1, DTW: -1, MTC: -1},
	}
	for i, e := range entries {
		c.Set(int64(i), e)
	}
	for i, want := range entries {
		if got, ok := c.Entry(int64(i)); got != want || !ok {
			t.Errorf("entry %d = %+v, %v; want %+v", i, got, ok, want)
		}
	}
	c.copyEntry(2, 0)
	c[ValueColumn][2] = ValueByte(rules.Draw, rules.Draw) // a draw over a win's bytes
	if got, ok := c.Entry(2); got != entries[2] || !ok {
		t.Errorf("a draw with a win's distance bytes = %+v, %v; want %+v", got, ok, entries[2])
	}
	c[ValueColumn][0] = 0x0f // rules value 3
	if _, ok := c.Entry(0); ok {
		t.Error("Entry accepts value 3")
	}
	m, _ = index.ParseMaterial("KKKKvM")
	if c := NewLayout(m, Extra{}).MakeColumns(1); c.Has(DistanceColumn) || c.Has(DTWColumn) || c.Has(MTCColumn) || !c.Has(ValueColumn) {
		t.Error("KKKKvM: want the value column alone")
	}
	m, _ = index.ParseMaterial("KKKKvK") // rule 2: both sides have a king
	if c := NewLayout(m, Extra{MTC: true}).MakeColumns(1); !c.Has(DistanceColumn) || c.Has(DTWColumn) || !c.Has(MTCColumn) {
		t.Error("KKKKvK: want the value, distance and mtc columns")
	}
}

// TestSetOutcomes checks that SetOutcomes writes the bytes of Set of the
// entry NewEntry makes, and that Values reads the values Entry does, in
// every layout.
func TestSetOutcomes(t *testing.T) {
	dists := []int{0, 9, 10, 11, 32, 33, 50, 51, 253, 254, 300}
	for _, name := range []string{"KKKvMMM", "KKKvK", "KKvK", "KKKvKM"} {
		m, _ := index.ParseMaterial(name)
		class := rules.ClassOf(m)
		for _, extra := range []Extra{{}, {DTW: true}, {MTC: true}, {DTW: true, MTC: true}} {
			set, got := NewLayout(m, extra).MakeColumns(1), NewLayout(m, extra).MakeColumns(1)
			for _, v := range []rules.Value{rules.Loss, rules.Draw, rules.Win} {
				for _, d := range dists {
					for _, rd := range dists {
						theory, rv := rules.Outcome{Value: v, Dist: d}, rules.Outcome{Value: v, Dist: rd}
						if v != rules.Draw && rd%2 == 1 {
							rv.Value = rules.Draw // as a clock has it
						}
						set.Set(0, rules.NewEntry(class, theory, rv))
						got.SetOutcomes(0, class, theory, rv)
						for col := range NumColumns {
							if !bytes.Equal(set[col], got[col]) {
								t.Fatalf("%s %+v: SetOutcomes(%v, %v) wrote %v in column %v, Set of NewEntry %v", name, extra, theory, rv, got[col], col, set[col])
							}
						}
						e, _ := got.Entry(0)
						if th, ru := got.Values(0); th != e.Theory || ru != e.Rules {
							t.Fatalf("%s: Values = %v, %v; Entry %+v", name, th, ru, e)
						}
					}
				}
			}
		}
	}
}

func TestCountsJSON(t *testing.T) {
	b, _ := json.Marshal(Counts{Loss: 1, Draw: 2, Win: 3})
	if want := `{"win":3,"draw":2,"loss":1}`; string(b) != want {
		t.Errorf("counts JSON %s, want %s", b, want)
	}
	for _, in := range []string{`{"win":3,"draw":2,"loss":1}`, `[1,2,3]`} {
		var c Counts
		if err := json.Unmarshal([]byte(in), &c); err != nil || c != (Counts{Loss: 1, Draw: 2, Win: 3}) {
			t.Errorf("counts from %s: %v, %v", in, c, err)
		}
	}
}

// TestRule2Cursed checks which entries rule 2 itself turns into draws,
// and that Stats counts them by side.
func TestRule2Cursed(t *testing.T) {
	var s Stats
	for _, c := range []struct {
		class rules.Class
		e     rules.Entry
		want  bool
	}{
		{rules.Rule2, rules.Entry{Rules: rules.Draw, Theory: rules.Win, Distance: 51, DTW: 70, MTC: 51}, true},
		{rules.Rule2, rules.Entry{Rules: rules.Draw, Theory: rules.Loss, Distance: 254, DTW: 400, MTC: 300}, true},
		{rules.Rule2, rules.Entry{Rules: rules.Win, Theory: rules.Win, Distance: 50, DTW: 70, MTC: 50}, false},   // the fresh count suffices
		{rules.Rule2, rules.Entry{Rules: rules.Draw, Theory: rules.Win, Distance: -1, DTW: 70, MTC: 3}, false},   // drawn by a later clock, not by the count
		{rules.Rule2, rules.Entry{Rules: rules.Draw, Theory: rules.Draw, Distance: -1, DTW: -1, MTC: -1}, false}, // a draw
		{rules.ClassA, rules.Entry{Rules: rules.Draw, Theory: rules.Win, Distance: 60, DTW: 60, MTC: 60}, false}, // not rule 2
		{rules.NoClass, rules.Entry{Rules: rules.Win, Theory: rules.Win, Distance: -1, DTW: 90, MTC: 80}, false},
	} {
		if got := c.e.Rule2Cursed(c.class); got != c.want {
			t.Errorf("%+v.Rule2Cursed(%v) = %v, want %v", c.e, c.class, got, c.want)
		}
		s.Add(c.class, c.e, false, func() string { return "fen" })
	}
	if s.Rule2CursedWins != 1 || s.Rule2BlessedLosses != 1 || s.CursedWins != 3 || s.BlessedLosses != 1 || s.LongestMTC != 80 {
		t.Errorf("stats %+v: want 1 rule-2 cursed win, 1 rule-2 blessed loss, 3 cursed wins, 1 blessed loss, longest mtc 80", s)
	}
}
