package verify

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"time"

	"github.com/dtb-draughts/dtb/codec"
	"github.com/dtb-draughts/dtb/index"
	"github.com/dtb-draughts/dtb/rules"
	"github.com/dtb-draughts/dtb/table"
)

// saveEvery is how often a check keeps its progress in Options.Work: a
// check that ends sooner writes nothing. (A variable for the tests.)
var saveEvery = time.Minute

// progress is what the check of one table's values has done, chunk by
// chunk: the chunks checked and their tallies. Kept in Options.Work, it
// lets an interrupted check go on where it stopped.
type progress struct {
	path string // "" to keep none
	key  progressKey

	mu         sync.Mutex
	done       []uint64 // bit c%64 of word c/64 set once chunk c is checked
	checked    int64
	mismatches int64
	examples   []Mismatch // the first Options.Examples, in index order
	stats      table.Stats
	resumed    int64     // positions checked by an earlier run
	saved      time.Time // when last kept, or when the check began
	written    bool      // whether path holds a version of it
}

// progressKey is what a check's results depend on: the files it reads
// and how it tallies. A kept progress with another key is started over.
type progressKey struct {
	Tables   []codec.ManifestEntry `json:"tables"` // as the manifest lists them
	Chunk    int64                 `json:"chunk"`  // positions a chunk
	Examples int                   `json:"examples"`
}

// progressFile is the form of a progress on disk.
type progressFile struct {
	Key        progressKey   `json:"key"`
	Done       []uint64      `json:"done"`
	Checked    int64         `json:"checked"`
	Mismatches int64         `json:"mismatches"`
	Examples   []mismatchRef `json:"examples"`
	Stats      table.Stats   `json:"stats"`
}

// mismatchRef is a Mismatch on disk: the position by its index.
type mismatchRef struct {
	Index      int64       `json:"index"`
	Stored     rules.Entry `json:"stored"`
	Recomputed rules.Entry `json:"recomputed"`
}

// progress returns the progress of the check of m, whose positions go
// by chunks of chunk: the one kept in Options.Work if it has the same
// key, else a new one.
func (v *verifier) progress(m index.Material, chunk int64) (*progress, error) {
	x := index.New(m)
	p := &progress{key: progressKey{Chunk: chunk, Examples: v.o.Examples},
		done: make([]uint64, ((x.Size()+chunk-1)/chunk+63)/64), saved: time.Now()}
	for _, n := range v.reads(m) {
		if e, ok := v.entries[n]; ok && !slices.ContainsFunc(p.key.Tables, func(k codec.ManifestEntry) bool { return k.Material == e.Material }) {
			p.key.Tables = append(p.key.Tables, e)
		}
	}
	if v.o.Work == "" {
		return p, nil
	}
	p.path = filepath.Join(v.o.Work, m.String()+".json")
	b, err := os.ReadFile(p.path)
	if errors.Is(err, fs.ErrNotExist) {
		return p, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading the progress of an earlier check: %w", err)
	}
	p.written = true
	var f progressFile
	if json.Unmarshal(b, &f) != nil || !sameKey(f.Key, p.key) || len(f.Done) != len(p.done) ||
		slices.ContainsFunc(f.Examples, func(e mismatchRef) bool { return e.Index < 0 || e.Index >= x.Size() }) {
		return p, nil // of other files, or damaged: started over
	}
	p.done, p.checked, p.mismatches, p.stats, p.resumed = f.Done, f.Checked, f.Mismatches, f.Stats, f.Checked
	for _, e := range f.Examples {
		p.examples = append(p.examples, Mismatch{Index: e.Index, Position: rules.Position(x.Unrank(e.Index)), Stored: e.Stored, Recomputed: e.Recomputed})
	}
	return p, nil
}

// sameKey reports whether two keys are equal.
func sameKey(a, b progressKey) bool {
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	return bytes.Equal(ja, jb)
}

// isDone reports whether chunk c is checked.
func (p *progress) isDone(c int64) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.done[c/64]>>(c%64)&1 != 0
}

// complete reports whether every chunk of a table of n positions is checked.
func (p *progress) complete(n int64) bool {
	for c := int64(0); c*p.key.Chunk < n; c++ {
		if !p.isDone(c) {
			return false
		}
	}
	return true
}

// add tallies chunk c, checked: its counts, mismatches (the first
// Options.Examples in index order stay) and stats. It keeps the progress
// every saveEvery.
func (p *progress) add(c, checked, found int64, ms []Mismatch, s table.Stats) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.done[c/64] |= 1 << (c % 64)
	p.checked += checked
	p.mismatches += found
	p.examples = append(p.examples, ms...)
	slices.SortFunc(p.examples, func(a, b Mismatch) int { return cmp.Compare(a.Index, b.Index) })
	p.examples = p.examples[:min(len(p.examples), p.key.Examples)]
	p.stats.Merge(s)
	if p.path == "" || time.Since(p.saved) < saveEvery {
		return nil
	}
	return p.saveLocked()
}

// save keeps the progress in Options.Work: always if the check was
// interrupted, else if it was kept before (a check that ended within
// saveEvery leaves nothing behind).
func (p *progress) save(interrupted bool) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.path == "" || !p.written && !interrupted {
		return nil
	}
	return p.saveLocked()
}

func (p *progress) saveLocked() error {
	f := progressFile{Key: p.key, Done: p.done, Checked: p.checked, Mismatches: p.mismatches, Stats: p.stats}
	for _, m := range p.examples {
		f.Examples = append(f.Examples, mismatchRef{m.Index, m.Stored, m.Recomputed})
	}
	b, err := json.Marshal(f)
	if err == nil {
		err = os.MkdirAll(filepath.Dir(p.path), 0o755)
	}
	if err == nil {
		err = codec.WriteAtomic(p.path, func(w io.Writer) error {
			_, err := w.Write(b)
			return err
		})
	}
	if err != nil {
		return fmt.Errorf("cannot keep the progress of the check in %s: %v", filepath.Dir(p.path), err)
	}
	p.saved, p.written = time.Now(), true
	return nil
}

// report copies the tallies into r.
func (p *progress) report(r *Report) {
	p.mu.Lock()
	defer p.mu.Unlock()
	r.Checked, r.Mismatches, r.Examples, r.Resumed = p.checked, p.mismatches, p.examples, p.resumed
}

// forget removes the kept progress of the tables of plan, and Work if
// that leaves it empty.
func (v *verifier) forget(plan []index.Material) {
	if v.o.Work == "" {
		return
	}
	for _, m := range plan {
		os.Remove(filepath.Join(v.o.Work, m.String()+".json"))
	}
	os.Remove(v.o.Work)
}
