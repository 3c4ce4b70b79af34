package codec

// Format is the version of a file's format. Its predicates say what a
// version changes, so that a reader asks what a file holds rather than
// which version wrote it.
type Format uint32

// The versions read: Open accepts MinVersion to Version, Write writes
// Version.
const (
	MinVersion Format = 1
	Version    Format = 4
)

// HasKind reports whether the header says which part of a table the file
// holds (3 on); a file of an earlier version is a whole table (Whole).
func (f Format) HasKind() bool { return f >= 3 }

// Packs reports whether a block may be stored packed: its values in
// fewer bits, the palette at its end (2 on; a block of version 1 is its
// zstd frame alone).
func (f Format) Packs() bool { return f >= 2 }

// Tokens reports whether a block may be stored as run tokens, read in
// place (package runs; 4 on).
func (f Format) Tokens() bool { return f >= 4 }

// ChecksForm reports whether a block's checksum covers its stored form
// (4 on), which a reader checks before decoding it, rather than its
// decoded bytes.
func (f Format) ChecksForm() bool { return f >= 4 }

// HeaderChecksum reports whether a manifest must list the file's header
// checksum (3 on: only manifests of version 1, over files of format 2,
// list none).
func (f Format) HeaderChecksum() bool { return f >= 3 }
