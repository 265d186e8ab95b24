// Package sqlite is the embedded servers' SQLite driver: SQLite's own C library (through
// github.com/mattn/go-sqlite3) in place of modernc.org/sqlite, the Go translation of it that the
// Temporal CLI's dev server and FerretDB are built with. scripts/binaries.sh builds both servers with
// `replace modernc.org/sqlite => scripts/sqlite-driver`; their code is unchanged.
//
// Why (docs/storage.md, "The embedded servers' SQLite"): the dev server spends about a third of its
// CPU inside SQLite, and modernc's translation both runs slower than the C library and compiles
// every statement afresh on every call. This driver keeps a cache of compiled statements on each
// connection (statementCache). Measured on one-run deliveries at 16 senders (docs/benchmark.md).
//
// The contract is the part of modernc.org/sqlite those servers use, and no more:
//   - database/sql driver "sqlite", opened with modernc's DSN: `file:<path>?<params>`, where each
//     `_pragma=<pragma>` runs as `PRAGMA <pragma>` on every new connection, in order (both
//     `name=value` and `name(value)`), `_time_format` is dropped (times are written as modernc's
//     "sqlite" format writes them: `2006-01-02 15:04:05.999999999-07:00`), and every other parameter
//     (`mode`, `cache`, …) is SQLite's own URI parameter;
//   - its errors as *Error, whose Code() is SQLite's extended result code and whose text is
//     "<the code's text>: <message> (<code>)", as modernc words it (the Temporal server matches
//     "SQL logic error: table … already exists (1)" when it sets up a store that exists);
//   - package lib's result codes.
//
// The file format is SQLite's: a data folder written by either driver is read by the other.
package sqlite

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"strings"

	sqlite3 "github.com/mattn/go-sqlite3"
)

// statementCache is how many compiled statements each connection keeps, least recently used out
// first. The dev server runs a few dozen distinct statements on its one connection; FerretDB opens
// up to 100 connections, each with statements per collection table, so the cache is per connection
// and small: 64 statements of a few KiB each.
const statementCache = 64

// Error is a failed SQLite call, shaped as modernc.org/sqlite's.
type Error struct {
	msg  string
	code int
}

func (e *Error) Error() string { return e.msg }

// Code is SQLite's extended result code (SQLITE_CONSTRAINT_UNIQUE, …).
func (e *Error) Code() int { return e.code }

// wrap gives a C library error modernc's shape; other errors (context, arguments) pass as they are.
func wrap(err error) error {
	var se sqlite3.Error
	if err == nil || !errors.As(err, &se) {
		return err
	}
	code := int(se.ExtendedCode)
	return &Error{msg: fmt.Sprintf("%s: %s (%d)", se.Code.Error(), se.Error(), code), code: code}
}

type sqliteDriver struct{}

func init() { sql.Register("sqlite", sqliteDriver{}) }

// Open opens a connection on modernc's DSN (see the package's contract).
func (sqliteDriver) Open(dsn string) (driver.Conn, error) {
	name, query, _ := strings.Cut(dsn, "?")
	params, err := url.ParseQuery(query)
	if err != nil {
		return nil, fmt.Errorf("sqlite: the DSN's parameters: %w", err)
	}
	pragmas := params["_pragma"]
	params.Del("_pragma")
	params.Del("_time_format")
	if params.Get("_stmt_cache_size") == "" {
		params.Set("_stmt_cache_size", strconv.Itoa(statementCache))
	}
	d := &sqlite3.SQLiteDriver{ConnectHook: func(c *sqlite3.SQLiteConn) error {
		for _, p := range pragmas {
			if _, err := c.Exec("PRAGMA "+p, nil); err != nil {
				return wrap(err)
			}
		}
		return nil
	}}
	c, err := d.Open(name + "?" + params.Encode())
	if err != nil {
		return nil, wrap(err)
	}
	return &conn{c.(*sqlite3.SQLiteConn)}, nil
}

// conn is the C library's connection with modernc's errors on the calls database/sql makes.
type conn struct{ *sqlite3.SQLiteConn }

func (c *conn) ExecContext(ctx context.Context, q string, args []driver.NamedValue) (driver.Result, error) {
	r, err := c.SQLiteConn.ExecContext(ctx, q, args)
	return r, wrap(err)
}

func (c *conn) QueryContext(ctx context.Context, q string, args []driver.NamedValue) (driver.Rows, error) {
	r, err := c.SQLiteConn.QueryContext(ctx, q, args)
	return r, wrap(err)
}

func (c *conn) PrepareContext(ctx context.Context, q string) (driver.Stmt, error) {
	s, err := c.SQLiteConn.PrepareContext(ctx, q)
	return s, wrap(err)
}

func (c *conn) BeginTx(ctx context.Context, opts driver.TxOptions) (driver.Tx, error) {
	t, err := c.SQLiteConn.BeginTx(ctx, opts)
	return t, wrap(err)
}
