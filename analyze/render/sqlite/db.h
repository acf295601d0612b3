/* render/sqlite/db.h — the database file the SQLite renderer fills (db.c): written under a
 * temporary name beside its final one (util/outname.h) with the journal and syncing off,
 * every insert a prepared statement (stmts.c) inside large transactions, and renamed over
 * the final name once complete, so that a failed run leaves any earlier file as it was. */
#ifndef TPROF_ANALYZE_SQLITE_DB_H
#define TPROF_ANALYZE_SQLITE_DB_H

#include <sqlite3.h>
#include <stdint.h>

#include "stmts.h"

/* The application id in the file header (PRAGMA application_id): "tprf". */
#define SQLDB_APPLICATION_ID 0x74707266

struct out_format;

struct sqldb {
	sqlite3 *db;
	char *path;
	struct outname *name;            /* the output (util/outname.h) */
	const char *tmp;                 /* where it is written until complete */
	sqlite3_stmt *st[ST_COUNT];
	uint64_t rows;                   /* inserted in all */
	uint64_t txn_rows;               /* in the transaction under way */
	int failed;
};

/* Whether the file at path is a database tprof wrote (its application id): NULL when it is,
 * else why not (out_format.foreign, util/outname.h). */
const char *sqldb_foreign(const char *path);
/* Creates the temporary file of path (util/outname.h: fmt says what may be at path) and
 * opens it for bulk loading; -1 (said) on error. */
int sqldb_open(struct sqldb *d, const char *path, const struct out_format *fmt);
/* Runs SQL (several statements); -1 (said, d->failed set) on error. */
int sqldb_exec(struct sqldb *d, const char *sql);
/* Steps an insert whose values are bound, resets it; commits every so many rows. */
void sqldb_insert(struct sqldb *d, enum stmt_id id);
/* Commits and closes the connection, keeping the temporary file as it is (a part of a
 * parallel analysis, read by the first analysis process); -1 (said) on error. */
int sqldb_close_part(struct sqldb *d);
/* Removes the part's file, without a word, once read. */
void sqldb_remove_part(struct sqldb *d);
/* Commits, closes and, when keep and nothing failed, puts the file in place (or has it wait
 * for a held set: util/outname.h); otherwise removes it.  Returns -1 when the file was not
 * written. */
int sqldb_close(struct sqldb *d, int keep);

/* Binding the values of an insert (columns from 1).  Values stay bound from one insert to
 * the next; an id column never bound stays NULL, and SQLite gives each row the next id,
 * which costs less than checking one given. */
static inline void sq_i64(struct sqldb *d, enum stmt_id id, int col, int64_t v)
{
	sqlite3_bind_int64(d->st[id], col, v);
}

static inline void sq_f64(struct sqldb *d, enum stmt_id id, int col, double v)
{
	sqlite3_bind_double(d->st[id], col, v);
}

/* NULL when !has. */
static inline void sq_opt(struct sqldb *d, enum stmt_id id, int col, int has, int64_t v)
{
	if (has)
		sqlite3_bind_int64(d->st[id], col, v);
	else
		sqlite3_bind_null(d->st[id], col);
}

/* Text that must stay valid until the insert (s may be NULL: a NULL value). */
static inline void sq_text(struct sqldb *d, enum stmt_id id, int col, const char *s, int len)
{
	if (s)
		sqlite3_bind_text(d->st[id], col, s, len, SQLITE_STATIC);
	else
		sqlite3_bind_null(d->st[id], col);
}

#endif
