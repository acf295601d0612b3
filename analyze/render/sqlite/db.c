/* render/sqlite/db.c — the database file: how a database tprof wrote is told from anything
 * else (which may be someone's data), the temporary file (util/outname.h) opened with
 * bulk-loading settings, and inserts committed in large transactions. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../../common/xalloc.h"
#include "db.h"
#include "../../util/outname.h"
#include "../../read/trace.h"

/* Rows per transaction: large enough that commits cost nothing, small enough that the
 * page cache is written out as it goes. */
#define TXN_ROWS 1000000

/* The file header of an SQLite database: the magic string, and the application id at 68. */
static const char sqlite_magic[16] = "SQLite format 3";

const char *sqldb_foreign(const char *path)
{
	unsigned char h[100];
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n = fd >= 0 ? read(fd, h, sizeof(h)) : -1;
	if (fd >= 0)
		close(fd);
	if (n < (ssize_t)sizeof(h) || memcmp(h, sqlite_magic, sizeof(sqlite_magic)))
		return "exists and is not an SQLite database";
	uint32_t app = (uint32_t)h[68] << 24 | (uint32_t)h[69] << 16 | (uint32_t)h[70] << 8 | h[71];
	if (app != SQLDB_APPLICATION_ID)
		return "is an SQLite database that tprof did not write";
	return NULL;
}

/* Bulk loading: no rollback journal, no syncing (the file is renamed into place only when
 * complete, so a crash leaves a temporary file, never a half-written FILE: util/outname.h),
 * large pages and cache, an exclusive lock taken once. */
static const char bulk_pragmas[] =
	"PRAGMA page_size = 16384;"
	"PRAGMA journal_mode = OFF;"
	"PRAGMA synchronous = OFF;"
	"PRAGMA locking_mode = EXCLUSIVE;"
	"PRAGMA cache_size = -65536;";

int sqldb_open(struct sqldb *d, const char *path, const struct out_format *fmt)
{
	int fd;
	memset(d, 0, sizeof(*d));
	d->path = xstrdup(path);
	if (!(d->name = outname_begin(path, fmt, &fd))) {
		diag_error("%s", outname_error());
		d->failed = 1;
		return -1;
	}
	close(fd);
	d->tmp = outname_path(d->name);
	/* One thread writes: no mutex around each call, no allocation statistics (whose lock
	 * every allocation takes); the latter can only be set before SQLite starts. */
	sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
	int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX;
	if (sqlite3_open_v2(d->tmp, &d->db, flags, NULL) != SQLITE_OK) {
		diag_error("cannot write %s: %s", path,
			   d->db ? sqlite3_errmsg(d->db) : "out of memory");
		d->failed = 1;
		return -1;
	}
	char app[64];
	snprintf(app, sizeof(app), "PRAGMA application_id = %d;", (int)SQLDB_APPLICATION_ID);
	if (sqldb_exec(d, bulk_pragmas) < 0 || sqldb_exec(d, app) < 0 ||
	    stmts_create_tables(d) < 0 || stmts_prepare(d) < 0 || sqldb_exec(d, "BEGIN") < 0)
		return -1;
	return 0;
}

void sqldb_insert(struct sqldb *d, enum stmt_id id)
{
	sqlite3_stmt *st = d->st[id];
	if (d->failed)
		return;
	int rc = sqlite3_step(st);
	sqlite3_reset(st);
	if (rc != SQLITE_DONE) {
		diag_error("%s: writing table %s: %s", d->path, stmts_table(id),
			   sqlite3_errmsg(d->db));
		d->failed = 1;
		return;
	}
	d->rows++;
	if (++d->txn_rows >= TXN_ROWS) {
		d->txn_rows = 0;
		sqldb_exec(d, "COMMIT; BEGIN");
	}
}

/* Commits and closes the connection (the file stays). */
static void disconnect(struct sqldb *d)
{
	stmts_finalize(d);
	if (d->db && !d->failed)
		sqldb_exec(d, "COMMIT");
	if (d->db && sqlite3_close(d->db) != SQLITE_OK && !d->failed) {
		diag_error("%s: %s", d->path, sqlite3_errmsg(d->db));
		d->failed = 1;
	}
	d->db = NULL;
}

int sqldb_close_part(struct sqldb *d)
{
	disconnect(d);
	return d->failed ? -1 : 0;
}

void sqldb_remove_part(struct sqldb *d)
{
	disconnect(d);
	if (d->name)
		outname_end(d->name, 0, 0);
	d->name = NULL;
	d->tmp = NULL;
	free(d->path);
	d->path = NULL;
}

int sqldb_close(struct sqldb *d, int keep)
{
	disconnect(d);
	int rc = 0;
	if (d->name && outname_end(d->name, keep && !d->failed, 0) < 0) {
		diag_error("%s", outname_error());
		d->failed = 1;
	}
	if (!keep || d->failed)
		rc = -1;
	d->name = NULL;
	d->tmp = NULL;
	free(d->path);
	d->path = NULL;
	return rc;
}
