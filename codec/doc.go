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
// docs/format.md specifies the files for readers in any language: its
// section 4 the byte layout (prefix, header, block table, and the three
// stored forms of a block: as they are, packed, or as the tokens of
// package runs), section 7 the manifest (WriteManifest), section 8 the
// versions a reader must refuse. The versions it names are Version and
// ManifestVersion here. The layout is not repeated in this package, so
// that the specification has one copy.
package codec
