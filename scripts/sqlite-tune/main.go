// Command sqlite-tune adjusts the SQLite databases of the embedded servers (docs/storage.md):
//
//	sqlite-tune ferretdb-id-index <database file>...
//
// gives every collection table of a FerretDB v1 SQLite database an index on exactly the expression
// FerretDB's own queries use for an `_id` filter, `_ferretdb_sjson->'$._id'`. FerretDB v1.24 hands
// SQLite a filter only when it is exactly `{ _id: <value> }`, and the indexes it makes itself are
// on another expression, so without this index every such lookup scans the whole table. Run while
// FerretDB runs: WAL and a busy timeout let both share the file.
//
//	sqlite-tune temporal-visibility <database file>
//
// drops the indexes of the Temporal dev server's visibility table that nothing the service, its
// operators' searches or the Web UI's lists use. The table has 45 indexes, and every workflow's
// start and close rewrite an entry in each: dropping the unused ones made a CSV row 1.16x as fast
// (paired 1,500-row CSVs on 2026-11-25, docs/benchmark.md). A search on a dropped column still
// works, by scanning. Run while the dev server is stopped (the service runs it with an exclusive lock).
//
//	sqlite-tune temporal-classic-tasks <database file>
//
// prints how many tasks the dev server's classic task table holds (`tasks`: the one task queues
// use without fair dispatch). Fair dispatch keeps its tasks in another table and never reads this
// one, so a queue switched to it with tasks still here would never hand them out: the service turns
// fair dispatch on only once this table is empty (src/embedded/servers.ts). Run while the dev
// server is stopped.
//
// All are idempotent; the last only reads.
package main

import (
	"database/sql"
	"fmt"
	"os"

	_ "modernc.org/sqlite" // scripts/sqlite-driver (go.mod), as the embedded servers are built
)

// unusedVisibilityIndexes are the indexes of the dev server's `executions_visibility` on columns
// the service never searches by: history size and length, durations and transition counts,
// schedules, batches, worker versioning and deployments, run ids, execution time, and the custom
// search attribute slots of types it does not use (its own are Keyword: src/domain/search-attributes.ts).
var unusedVisibilityIndexes = []string{
	"by_execution_time", "by_history_length", "by_history_size_bytes", "by_execution_duration",
	"by_state_transition_count", "by_parent_run_id", "by_root_run_id", "by_batcher_user",
	"by_temporal_scheduled_start_time", "by_temporal_scheduled_by_id", "by_temporal_schedule_paused",
	"by_temporal_namespace_division", "by_temporal_pause_info", "by_temporal_worker_deployment_version",
	"by_temporal_workflow_versioning_behavior", "by_temporal_worker_deployment",
	"by_bool_01", "by_bool_02", "by_bool_03", "by_datetime_01", "by_datetime_02", "by_datetime_03",
	"by_double_01", "by_double_02", "by_double_03", "by_int_01", "by_int_02", "by_int_03",
}

func open(file string) (*sql.DB, error) {
	if _, err := os.Stat(file); err != nil {
		return nil, err
	}
	return sql.Open("sqlite", "file:"+file+"?_pragma=busy_timeout(10000)")
}

func indexFerretDB(file string) error {
	db, err := open(file)
	if err != nil {
		return err
	}
	defer db.Close()
	rows, err := db.Query(`SELECT table_name FROM _ferretdb_collections`)
	if err != nil {
		return fmt.Errorf("%s: not a FerretDB database: %w", file, err)
	}
	var tables []string
	for rows.Next() {
		var t string
		if err := rows.Scan(&t); err != nil {
			rows.Close()
			return err
		}
		tables = append(tables, t)
	}
	rows.Close()
	for _, t := range tables {
		q := fmt.Sprintf(`CREATE INDEX IF NOT EXISTS %q ON %q (_ferretdb_sjson->'$._id')`, t+"_id_lookup", t)
		if _, err := db.Exec(q); err != nil {
			return fmt.Errorf("%s: %s: %w", file, t, err)
		}
	}
	fmt.Printf("%s: %d tables indexed by _id\n", file, len(tables))
	return nil
}

func tuneTemporalVisibility(file string) error {
	db, err := open(file)
	if err != nil {
		return err
	}
	defer db.Close()
	var tables int
	err = db.QueryRow(`SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'executions_visibility'`).
		Scan(&tables)
	if err != nil || tables != 1 {
		return fmt.Errorf("%s: not a Temporal dev server database (no executions_visibility): %v", file, err)
	}
	for _, index := range unusedVisibilityIndexes {
		if _, err := db.Exec(fmt.Sprintf(`DROP INDEX IF EXISTS %q`, index)); err != nil {
			return fmt.Errorf("%s: dropping %s: %w", file, index, err)
		}
	}
	var left int
	err = db.QueryRow(`SELECT count(*) FROM sqlite_master WHERE type = 'index' AND tbl_name = 'executions_visibility'`).
		Scan(&left)
	if err != nil {
		return err
	}
	fmt.Printf("%s: %d visibility indexes kept\n", file, left)
	return nil
}

// countClassicTasks prints the rows of the dev server's classic task table.
func countClassicTasks(file string) error {
	db, err := open(file)
	if err != nil {
		return err
	}
	defer db.Close()
	var n int
	if err := db.QueryRow(`SELECT count(*) FROM tasks`).Scan(&n); err != nil {
		return fmt.Errorf("%s: not a Temporal dev server database (no tasks table): %w", file, err)
	}
	fmt.Println(n)
	return nil
}

func main() {
	usage := "usage: sqlite-tune ferretdb-id-index <file>... | sqlite-tune temporal-visibility <file> | " +
		"sqlite-tune temporal-classic-tasks <file>"
	if len(os.Args) < 3 {
		fmt.Fprintln(os.Stderr, usage)
		os.Exit(2)
	}
	var err error
	switch os.Args[1] {
	case "ferretdb-id-index":
		for _, file := range os.Args[2:] {
			if err = indexFerretDB(file); err != nil {
				break
			}
		}
	case "temporal-visibility":
		err = tuneTemporalVisibility(os.Args[2])
	case "temporal-classic-tasks":
		err = countClassicTasks(os.Args[2])
	default:
		fmt.Fprintln(os.Stderr, usage)
		os.Exit(2)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
