// Package table binds the entries of package rules to table files: how
// a table's columns encode an Entry, the file header and its rules flags,
// and the stats of a table. The generator (retro), the prober (probe) and
// the verifier (verify) all read and write tables through it.
//
//	f, err := table.Open("tables/KKvK.dtb", m) // checks the header against m
//	cols, err := f.ReadColumns()               // every entry, decoded bytes
//	e, ok := cols.Entry(i)                     // e.Rules, e.Theory, e.Distance, e.DTW
//	vals, err := f.ReadBlock(b, table.ValueColumn) // block b of the value file alone
//
// A table holds the positions of one material with White to move, ranked
// by package index (rules.Placement). It stores the values of every
// entry; a table whose material has a clock (rules.Class) also its
// distance, and optionally the dtw and the mtc. docs/format.md specifies
// the files; Column lists the columns and their encoding. A table is a
// value file (KKvK.dtb, the value column) and, if it has other columns, a
// distance file (KKvK.dtbd); Writer writes both, File reads them, Convert
// makes them from a whole table of format 2. Files written before rule 2
// was tracked (rulesNo25Move) are still read: their Rule2 materials have
// no clock.
package table
