// Stands in for modernc.org/sqlite in the builds of the embedded servers (scripts/binaries.sh:
// `replace modernc.org/sqlite => this folder`), so it carries that module's path. See driver.go.
module modernc.org/sqlite

go 1.25

require github.com/mattn/go-sqlite3 v1.14.53
