/* render/sqlite/db.c — the database file: the check that an existing file may be replaced
 * (only one tprof wrote, or an empty one: anything else may be someone's data), the
 * temporary file beside it with bulk-loading settings, inserts committed in large
 * transactions, and the rename that puts the finished file in place. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "db.h"
#include "../../read/trace.h"

/* Rows per transaction: large enough that commits cost nothing, small enough that the
 * page cache is written out as it goes. */
#define TXN_ROWS 1000000

/* The file header of an SQLite database: the magic string, and the application id at 68. */
static const char sqlite_magic[16] = "SQLite format 3";

/* The directory the file goes in (where its temporary file is made) must take new files. */
static int check_dir(const char *path)
{
	char *dir = strdup(path);
	if (!dir)
		abort();
	char *slash = strrchr(dir, '/');
	if (!slash)
		strcpy(dir, ".");
	else if (slash == dir)
		dir[1] = 0;
	else
		*slash = 0;
	struct stat st;
	int err = 0;
	if (stat(dir, &st) < 0)
		err = errno;
	else if (!S_ISDIR(st.st_mode))
		err = ENOTDIR;
	else if (access(dir, W_OK | X_OK) < 0)
		err = errno;
	if (err) {
		errno = err;
		diag_error("-o %s: cannot write in %s: %m", path, dir);
	}
	free(dir);
	return err ? -1 : 0;
}

int sqldb_check_target(const char *path)
{
	struct stat st;
	if (check_dir(path) < 0)
		return -1;
	if (stat(path, &st) < 0)
		return errno == ENOENT ? 0 : (diag_error("-o %s: %m", path), -1);
	if (S_ISDIR(st.st_mode)) {
		diag_error("-o %s: is a directory (the SQLite output is a file)", path);
		return -1;
	}
	if (!S_ISREG(st.st_mode)) {
		diag_error("-o %s: exists and is not a regular file; not replacing it", path);
		return -1;
	}
	if (st.st_size == 0)
		return 0;
	unsigned char h[100];
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		diag_error("-o %s: %m", path);
		return -1;
	}
	ssize_t n = read(fd, h, sizeof(h));
	close(fd);
	if (n < (ssize_t)sizeof(h) || memcmp(h, sqlite_magic, sizeof(sqlite_magic))) {
		diag_error("-o %s: exists and is not an SQLite database; not replacing it (remove "
			   "it or choose another name)", path);
		return -1;
	}
	uint32_t app = (uint32_t)h[68] << 24 | (uint32_t)h[69] << 16 | (uint32_t)h[70] << 8 | h[71];
	if (app != SQLDB_APPLICATION_ID) {
		diag_error("-o %s: is an SQLite database that tprof did not write; not replacing "
			   "it (remove it or choose another name)", path);
		return -1;
	}
	return 0;
}

/* A fresh file name beside path, created empty (O_EXCL), or NULL. */
static char *temp_beside(const char *path)
{
	size_t n = strlen(path);
	char *tmp = malloc(n + 16);
	if (!tmp)
		abort();
	memcpy(tmp, path, n);
	memcpy(tmp + n, ".tmp-XXXXXX", 12);
	int fd = mkstemp(tmp);
	if (fd < 0) {
		diag_error("cannot write %s: %m", path);
		free(tmp);
		return NULL;
	}
	/* the permissions a file created by open would have had */
	mode_t um = umask(0);
	umask(um);
	fchmod(fd, 0666 & ~um);
	close(fd);
	return tmp;
}

/* Bulk loading: no rollback journal, no syncing (the file is renamed into place only when
 * complete, so a crash leaves a temporary file, never a half-written FILE), large pages and
 * cache, an exclusive lock taken once. */
static const char bulk_pragmas[] =
	"PRAGMA page_size = 16384;"
	"PRAGMA journal_mode = OFF;"
	"PRAGMA synchronous = OFF;"
	"PRAGMA locking_mode = EXCLUSIVE;"
	"PRAGMA cache_size = -65536;";

int sqldb_open(struct sqldb *d, const char *path)
{
	memset(d, 0, sizeof(*d));
	d->path = strdup(path);
	if (!d->path || !(d->tmp = temp_beside(path))) {
		d->failed = 1;
		return -1;
	}
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

int sqldb_close(struct sqldb *d, int keep)
{
	stmts_finalize(d);
	if (d->db && !d->failed)
		sqldb_exec(d, "COMMIT");
	if (d->db && sqlite3_close(d->db) != SQLITE_OK && !d->failed) {
		diag_error("%s: %s", d->path, sqlite3_errmsg(d->db));
		d->failed = 1;
	}
	d->db = NULL;
	int rc = 0;
	if (keep && !d->failed && d->tmp && rename(d->tmp, d->path) < 0) {
		diag_error("cannot write %s: %m", d->path);
		d->failed = 1;
	}
	if (!keep || d->failed) {
		if (d->tmp) {
			unlink(d->tmp);
			diag_error("%s was not written; a file of that name is left as it was",
				   d->path);
		}
		rc = -1;
	}
	free(d->tmp);
	free(d->path);
	d->tmp = d->path = NULL;
	return rc;
}
