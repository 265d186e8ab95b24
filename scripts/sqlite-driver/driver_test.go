package sqlite_test

import (
	"database/sql"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"testing"
	"time"

	"modernc.org/sqlite"
	"modernc.org/sqlite/lib"
)

func open(t *testing.T, params string) *sql.DB {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+filepath.Join(t.TempDir(), "t.db")+"?"+params)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

func pragma(t *testing.T, db *sql.DB, name string) string {
	t.Helper()
	var v string
	if err := db.QueryRow("PRAGMA " + name).Scan(&v); err != nil {
		t.Fatal(err)
	}
	return v
}

// The Temporal dev server writes `name=value`, FerretDB `name(value)`: both run on each connection.
func TestPragmasInBothForms(t *testing.T) {
	db := open(t, "_pragma=journal_mode%3Dwal&_pragma=busy_timeout(1234)&_time_format=sqlite")
	if got := pragma(t, db, "journal_mode"); got != "wal" {
		t.Errorf("journal_mode %q, want wal", got)
	}
	if got := pragma(t, db, "busy_timeout"); got != "1234" {
		t.Errorf("busy_timeout %q, want 1234", got)
	}
}

func TestAFailedPragmaFailsTheOpen(t *testing.T) {
	db := open(t, "_pragma=journal_mode%3D'")
	if err := db.Ping(); err == nil {
		t.Fatal("a pragma SQLite refuses opened a connection")
	}
}

func codeOf(t *testing.T, err error) int {
	t.Helper()
	var se *sqlite.Error
	if !errors.As(err, &se) {
		t.Fatalf("%v (%T) is not a *sqlite.Error", err, err)
	}
	return se.Code()
}

// Duplicate keys: how the dev server tells a workflow that exists and FerretDB a duplicate `_id`.
func TestConstraintErrorsCarryTheExtendedCode(t *testing.T) {
	db := open(t, "")
	for _, q := range []string{
		"CREATE TABLE k (id INTEGER PRIMARY KEY, u TEXT)",
		"CREATE UNIQUE INDEX k_u ON k (u)",
		"INSERT INTO k VALUES (1, 'a')",
	} {
		if _, err := db.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	_, err := db.Exec("INSERT INTO k VALUES (1, 'b')")
	if got := codeOf(t, err); got != lib.SQLITE_CONSTRAINT_PRIMARYKEY {
		t.Errorf("a duplicate primary key: code %d, want %d", got, lib.SQLITE_CONSTRAINT_PRIMARYKEY)
	}
	_, err = db.Exec("INSERT INTO k VALUES (?, ?)", 2, "a")
	if got := codeOf(t, err); got != lib.SQLITE_CONSTRAINT_UNIQUE {
		t.Errorf("a duplicate unique key: code %d, want %d", got, lib.SQLITE_CONSTRAINT_UNIQUE)
	}
}

// The Temporal server's own pattern for a store whose tables exist (sqlplugin/sqlite, driver.go).
func TestATableThatExistsIsWordedAsModerncWordsIt(t *testing.T) {
	db := open(t, "")
	if _, err := db.Exec("CREATE TABLE executions (id INTEGER)"); err != nil {
		t.Fatal(err)
	}
	_, err := db.Exec("CREATE TABLE executions (id INTEGER)")
	exists := regexp.MustCompile(`SQL logic error: table .* already exists \(1\)`)
	if err == nil || !exists.MatchString(err.Error()) || codeOf(t, err) != lib.SQLITE_ERROR {
		t.Errorf("got %v", err)
	}
}

// Times are stored as modernc's "sqlite" format stores them, so a store either driver wrote sorts
// and compares the same (the dev server's visibility indexes compare close_time as text).
func TestTimesAreWrittenInModerncsSqliteFormat(t *testing.T) {
	db := open(t, "_time_format=sqlite")
	if _, err := db.Exec("CREATE TABLE v (close_time TIMESTAMP)"); err != nil {
		t.Fatal(err)
	}
	at := time.Date(2026, 11, 30, 7, 8, 9, 123456000, time.UTC)
	if _, err := db.Exec("INSERT INTO v VALUES (?)", at); err != nil {
		t.Fatal(err)
	}
	var text string
	var back time.Time
	if err := db.QueryRow("SELECT CAST(close_time AS TEXT), close_time FROM v").Scan(&text, &back); err != nil {
		t.Fatal(err)
	}
	if text != "2026-11-30 07:08:09.123456+00:00" {
		t.Errorf("stored %q", text)
	}
	if !back.Equal(at) {
		t.Errorf("read back %v, want %v", back, at)
	}
}

// The dev server's visibility schema has full-text tables (executions_visibility_fts_*).
func TestFullTextSearchIsBuiltIn(t *testing.T) {
	db := open(t, "")
	if _, err := db.Exec("CREATE VIRTUAL TABLE f USING fts5 (a)"); err != nil {
		t.Fatalf("fts5: %v (build with -tags sqlite_fts5)", err)
	}
}

// SQLite's own URI parameters pass through: an in-memory store writes no file.
func TestSqliteURIParametersPassThrough(t *testing.T) {
	dir := t.TempDir()
	db, err := sql.Open("sqlite", "file:"+filepath.Join(dir, "m.db")+"?mode=memory&cache=shared")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec("CREATE TABLE m (a)"); err != nil {
		t.Fatal(err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("mode=memory wrote %d files", len(entries))
	}
}

// A statement run again is taken from the connection's cache: same answers, every time.
func TestRepeatedStatementsAnswerTheSame(t *testing.T) {
	db := open(t, "")
	db.SetMaxOpenConns(1)
	if _, err := db.Exec("CREATE TABLE r (n INTEGER)"); err != nil {
		t.Fatal(err)
	}
	for i := 1; i <= 200; i++ {
		if _, err := db.Exec("INSERT INTO r VALUES (?)", i); err != nil {
			t.Fatal(err)
		}
		var sum int
		if err := db.QueryRow("SELECT sum(n) FROM r WHERE n <= ?", i).Scan(&sum); err != nil {
			t.Fatal(err)
		}
		if sum != i*(i+1)/2 {
			t.Fatalf("after %d rows the sum is %d", i, sum)
		}
	}
}
