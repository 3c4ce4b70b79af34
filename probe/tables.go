package probe

import (
	"io/fs"

	"github.com/dtb-draughts/dtb/codec"
	"github.com/dtb-draughts/dtb/index"
	"github.com/dtb-draughts/dtb/internal/reader"
	"github.com/dtb-draughts/dtb/rules"
	"github.com/dtb-draughts/dtb/table"
)

// Options configure Open.
type Options struct {
	// CacheBytes bounds the blocks kept in memory; 0 (or less) means 64
	// MiB. The cache keeps 1-byte columns as run-length tokens of package
	// runs, read in place, and decodes the blocks probed most.
	CacheBytes int64
	// MaxPieces, if positive, limits the tables to positions of at most
	// that many pieces, as Stockfish's SyzygyProbeLimit. A position or
	// table of more is missing: a *MissingError, its file not opened.
	// 0 (or less) means no limit. SetMaxPieces changes it.
	MaxPieces int
}

// ErrMissing is wrapped by the error of a probe whose material has no
// table.
var ErrMissing = reader.ErrMissing

// MissingError is the error of a probe that needs a table the directories
// lack. That is the table of the position itself, or of a position its
// captures lead to. It wraps ErrMissing. Its Material is the material of
// the missing table, its Limit the piece limit it is over
// (Options.MaxPieces), 0 if none.
type MissingError = reader.MissingError

// Tables is a directory of tables, or several, opened for probing.
type Tables struct {
	r *reader.Tables
}

// Open reads the manifests of dirs and returns the tables they list. It
// opens no table file. Each file is checked against its directory's
// manifest when it is opened (table.OpenListed). A table the manifest
// does not vouch for is damaged.
//
// dirs is one directory or a list of them, joined by the system's list
// separator (filepath.ListSeparator: ':' on Unix, ';' on Windows). Empty
// elements are ignored. A material listed in two directories is read
// from the first. A table searched through its colour flip (a slim
// directory) comes with that flip: it is left out with it.
func Open(dirs string, o Options) (*Tables, error) {
	r, err := reader.Open(dirs, reader.Options(o))
	if err != nil {
		return nil, err
	}
	return &Tables{r}, nil
}

// OpenFS reads the manifest at the root of fsys and returns the tables
// it lists, as Open does for a directory, their files read through fsys
// (table.OpenFS): tables embedded in the program (embed.FS), served
// from an archive, or on a system without memory mapping (WASM). A file
// of fsys is mapped only where it is an *os.File (os.DirFS) and the
// system maps; one without ReadAt is read whole into memory when first
// probed (codec.OpenFS). Errors name the files as fsys does.
func OpenFS(fsys fs.FS, o Options) (*Tables, error) {
	r, err := reader.OpenFS(fsys, reader.Options(o))
	if err != nil {
		return nil, err
	}
	return &Tables{r}, nil
}

// SplitPath returns the directories of a list as Open reads it: split at
// filepath.ListSeparator, empty elements left out.
func SplitPath(dirs string) []string { return reader.SplitPath(dirs) }

// SetMaxPieces sets the piece limit of Options.MaxPieces; n <= 0 lifts
// it. It may run while probes do: a probe under way may see either limit.
func (t *Tables) SetMaxPieces(n int) { t.r.SetMaxPieces(n) }

// MaxPieces returns the most pieces of a table within the limit, 0 if
// there is none: the largest position t answers.
func (t *Tables) MaxPieces() int { return t.r.MaxPieces() }

// Close closes the table files. The Tables must not be used afterwards.
func (t *Tables) Close() error { return t.r.Close() }

// Materials returns the materials that have a table within the piece
// limit, in the order of index.Materials.
func (t *Tables) Materials() []index.Material { return t.r.Materials() }

// Header returns the file header of the table of m. A table answered by a
// search through its colour flip has none. For it, Header returns an
// error wrapping ErrNotStored.
func (t *Tables) Header(m index.Material) (codec.Header, error) { return t.r.Header(m) }

// Info returns what the header of the table of m says beyond the codec's:
// its class, columns, variant and stats. A table answered by a search
// through its colour flip has none, as for Header.
func (t *Tables) Info(m index.Material) (table.Info, error) { return t.r.Info(m) }

// Class returns the class of m under the rules of its table file. That is
// the clock the distance of its entries counts (table.Info.Class). It is
// rules.ClassOf(m), except for a table built before rule 2 was tracked.
// Such a table's Rule2 materials have no clock (NoClass). Class opens the
// file.
func (t *Tables) Class(m index.Material) (rules.Class, error) { return t.r.Class(m) }

// Preload reads the table of m whole into memory and resolves its capture
// positions by search. From then on a probe of one of its positions needs
// no search, lock or read. It serves a prober that probes much of a
// table. It also searches what a slim directory's files leave out: forced
// threats and short rule-2 distances. A table answered by a search
// through its colour flip is searched whole. The table stays in memory as
// long as t, 1 to 4 bytes a position by its columns. Preloading a table
// again does nothing. Preload reads distances, as with WithDistances. So
// it fails where the directory holds the values alone of the table, or of
// one its searches reach.
func (t *Tables) Preload(m index.Material) error { return t.r.Preload(m) }
