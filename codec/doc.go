// Package codec reads and writes table files: self-describing,
// checksummed, random-access files, a table's values in one and its
// distances in another (Kind), plus a manifest for a directory of tables.
//
// A file holds Positions entries. Each entry has one or more fixed-width
// byte columns (for example "value", 1 byte per position, or "dtw", 2 bytes
// little-endian); the codec stores the bytes and does not interpret them.
//
//	h := codec.Header{
//		Material:  "KKvK",
//		Kind:      codec.Values,
//		Positions: int64(len(values)),
//		Columns:   []codec.Column{{Name: "value", Width: 1}},
//	}
//	if err := codec.Write("tables/KKvK.dtb", h, [][]byte{values}); err != nil {
//		return err
//	}
//	r, err := codec.Open("tables/KKvK.dtb")
//	if err != nil {
//		return err
//	}
//	defer r.Close()
//	block, err := r.ReadBlock(0, int(pos/int64(r.Header().BlockSize)), buf)
//
// Write replaces a file atomically: a crash never leaves a half-written
// table under the real name. A Writer writes the same file from columns
// given a piece at a time, holding only a few blocks of them, for a table
// larger than memory. A Reader is safe for concurrent use; it keeps
// only the header and the block table in memory and reads each block when
// asked, from the file mapped into memory on Unix (a copy, no system
// call), with ReadAt elsewhere. OpenFS reads a file of an fs.FS (an
// embed.FS, an archive, a system without mapping), NewReader one of any
// io.ReaderAt, in the same way. Every error names the file, and errors
// about a block name its column and block. Damage of any kind
// (truncation, a wrong magic, a length out of range, a checksum
// mismatch, an undecodable block) yields an error wrapping ErrCorrupt; a
// file from a newer writer yields ErrVersion.
//
// # File format
//
// docs/format.md specifies a whole table directory for readers in any
// language: this byte layout, the order of the positions (package index),
// what the columns and the rules flags of package table mean, how capture
// positions are resolved, and the versions a reader must refuse. It
// repeats the layout below; a change to one must be made in the other.
//
// All integers are little-endian. A file is a fixed prefix, a header, a
// block table, a checksum, then the compressed blocks:
//
//	offset     size  field
//	0          8     magic "DTBTABLE"
//	8          4     format version, uint32 (Version = 4; 1 to 3 are read too)
//	12         4     H: header length in bytes, uint32 (at most 1 MiB)
//	16         8     T: block table length in bytes, uint64
//	24         H     header (below)
//	24+H       T     block table (below)
//	24+H+T     4     CRC-32C (Castagnoli) of bytes [0, 24+H+T)
//	28+H+T     ...   compressed blocks, in block table order, back to back
//	                 up to the end of the file
//
// The header is a sequence of fields; strings are a uint16 byte length
// followed by the bytes:
//
//	string   material, e.g. "KKMvK"
//	uint8    kind (Kind: 1 values, 2 distances; versions 3 and 4, 0 before)
//	uint32   index scheme version
//	uint32   rules (opaque flags chosen by the writer)
//	uint64   positions P (at most 2^56)
//	uint32   block size B, positions per block (1 to 2^24)
//	uint16   number of columns C (at least 1); then per column:
//	  string   name (non-empty, unique)
//	  uint8    width in bytes: 1, 2 or 4
//	uint32   number of meta entries M; then per entry, sorted by key:
//	  string   key (unique)
//	  uint32   value length, then the value bytes
//
// Each column is cut into N = ceil(P/B) blocks of B positions; the last
// block holds the rest. Block b of a column of width W decodes to
// min(B, P-b*B)*W bytes. The block table has one 16-byte entry per column
// and block, column by column (entry c*N+b is block b of column c), so
// T = 16*C*N:
//
//	uint64   offset of the compressed block from the start of the file
//	uint32   compressed length in bytes
//	uint32   CRC-32C of the block's stored form (version 4), of its
//	         decoded bytes (versions 1 to 3)
//
// Each block is an independent zstd frame (no zstd checksum) of the
// block's stored form. The first block starts at 28+H+T, each next block
// starts where the previous one ends, and the last one ends at the end of
// the file. A block's form is at most 2^16 times as long as its
// compressed length (zstd cannot expand more); in version 1, whose blocks
// are their forms, that bounds what a damaged header can make a reader
// allocate.
//
// The stored form of a block of n bytes is the bytes themselves, or,
// only if it is shorter than n, in version 4 and for a column of width 1
// whose block takes 2 to runs.MaxPalette distinct values, the block as
// tokens: runs of one value or literals of a few positions, then the
// palette, its size and a 0 (package runs has the layout); or, in
// versions 2 to 4, the bytes packed: if they take k = 1 to 4 distinct
// values, each byte is replaced by a code of b bits (b = 0 for k = 1, 1
// for k = 2, 2 for k = 3 or 4), the index of its value in the palette,
// the k values in increasing order:
//
//	ceil(n*b/8)  codes, 8/b to a byte, the first in the lowest bits
//	k            the palette
//	1            k
//
// So its length and last byte tell the three forms apart, and a version
// 1 file, all of whose blocks are stored as they are, reads the same
// way. A writer stores a block as tokens where it can, else packed where
// that is shorter. Tokens are what the prober's cache keeps of a value
// block (ReadRuns parses them, with no decoding), and compress 6 to 12%
// smaller than packed blocks.
//
// # Manifest
//
// A directory of tables may hold MANIFEST.json (see WriteManifest), a JSON
// object {"version": 2, "tables": [...]} listing each table's file (its
// value file, or the whole table) with its material, positions, size,
// CRC-32C of the whole file and header checksum (Reader.HeaderCRC), and
// its distance file with the same, sorted by file name. Version 1 has no
// distance files and no header checksums.
package codec
