// Command sqlite-id-index gives every collection table of a FerretDB v1 SQLite database an index
// on exactly the expression FerretDB's own queries use for an `_id` filter,
// `_ferretdb_sjson->'$._id'`.
//
// FerretDB v1.24 hands SQLite a filter only when it is exactly `{ _id: <value> }`, and the indexes
// it makes itself are on another expression, so without this index every such lookup scans the
// whole table. The service reads its history only by `_id` (docs/storage.md), so with this index
// every read a person makes is an index search however many runs are stored.
//
// Usage: sqlite-id-index <database file>... (idempotent; run while FerretDB runs: WAL and a busy
// timeout let both share the file).
package main

import (
	"database/sql"
	"fmt"
	"os"

	_ "modernc.org/sqlite"
)

func indexDatabase(file string) (int, error) {
	db, err := sql.Open("sqlite", "file:"+file+"?_pragma=busy_timeout(10000)")
	if err != nil {
		return 0, err
	}
	defer db.Close()
	rows, err := db.Query(`SELECT table_name FROM _ferretdb_collections`)
	if err != nil {
		return 0, fmt.Errorf("%s: not a FerretDB database: %w", file, err)
	}
	var tables []string
	for rows.Next() {
		var t string
		if err := rows.Scan(&t); err != nil {
			rows.Close()
			return 0, err
		}
		tables = append(tables, t)
	}
	rows.Close()
	for _, t := range tables {
		q := fmt.Sprintf(`CREATE INDEX IF NOT EXISTS %q ON %q (_ferretdb_sjson->'$._id')`, t+"_id_lookup", t)
		if _, err := db.Exec(q); err != nil {
			return 0, fmt.Errorf("%s: %s: %w", file, t, err)
		}
	}
	return len(tables), nil
}

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: sqlite-id-index <FerretDB SQLite database file>...")
		os.Exit(2)
	}
	for _, file := range os.Args[1:] {
		n, err := indexDatabase(file)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		fmt.Printf("%s: %d tables indexed by _id\n", file, n)
	}
}
