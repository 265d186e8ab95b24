// Package lib holds the SQLite result codes that the embedded servers read from modernc.org/sqlite/lib
// (the Temporal dev server's and FerretDB's duplicate-key checks), and SQLITE_ERROR, which the
// driver's tests check. Values from sqlite3.h.
package lib

const (
	SQLITE_ERROR                 = 1
	SQLITE_CONSTRAINT            = 19
	SQLITE_CONSTRAINT_PRIMARYKEY = SQLITE_CONSTRAINT | 6<<8
	SQLITE_CONSTRAINT_UNIQUE     = SQLITE_CONSTRAINT | 8<<8
)
