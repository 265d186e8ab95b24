module webhook-trigger-service/sqlite-tune

go 1.25

require modernc.org/sqlite v1.32.0

require github.com/mattn/go-sqlite3 v1.14.53 // indirect

replace modernc.org/sqlite => ../sqlite-driver
