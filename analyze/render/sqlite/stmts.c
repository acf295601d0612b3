/* render/sqlite/stmts.c — each table's CREATE TABLE and INSERT, made from the column lists of
 * stmts.h, and the prepared inserts the renderer reuses for every row. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db.h"
#include "../../read/trace.h"
#include "stmts.h"

struct column {
	const char *name, *type;
};

#define SQL_COL_DEF(t, col, type) { #col, type },
#define SQL_TABLE_COLS(ID, name) \
	static const struct column cols_##ID[] = { COLS_##ID(SQL_COL_DEF, ID) };
SQL_TABLES(SQL_TABLE_COLS)
#undef SQL_TABLE_COLS

static const struct table {
	const char *name;
	const struct column *cols;
	unsigned ncols;
} tables[ST_COUNT] = {
#define SQL_TABLE_DEF(ID, tname) \
	[ST_##ID] = { #tname, cols_##ID, sizeof(cols_##ID) / sizeof(cols_##ID[0]) },
	SQL_TABLES(SQL_TABLE_DEF)
#undef SQL_TABLE_DEF
};

const char *stmts_table(enum stmt_id id)
{
	return tables[id].name;
}

unsigned stmts_ncols(enum stmt_id id)
{
	return tables[id].ncols;
}

const char *stmts_column(enum stmt_id id, unsigned c)
{
	return tables[id].cols[c].name;
}

/* Appends to a buffer of 4 KiB: no table comes near. */
static void add(char *buf, size_t *n, const char *s)
{
	size_t k = strlen(s);
	if (*n + k + 1 >= 4096)
		abort();
	memcpy(buf + *n, s, k + 1);
	*n += k;
}

int stmts_create_tables(struct sqldb *d)
{
	char sql[4096];
	for (int i = 0; i < ST_COUNT; i++) {
		const struct table *t = &tables[i];
		size_t n = 0;
		sql[0] = 0;
		add(sql, &n, "CREATE TABLE ");
		add(sql, &n, t->name);
		add(sql, &n, " (");
		for (unsigned c = 0; c < t->ncols; c++) {
			add(sql, &n, c ? ", " : "");
			add(sql, &n, t->cols[c].name);
			add(sql, &n, *t->cols[c].type ? " " : "");
			add(sql, &n, t->cols[c].type);
		}
		add(sql, &n, ")");
		if (sqldb_exec(d, sql) < 0)
			return -1;
	}
	return 0;
}

int stmts_prepare(struct sqldb *d)
{
	char sql[4096];
	for (int i = 0; i < ST_COUNT; i++) {
		const struct table *t = &tables[i];
		size_t n = 0;
		sql[0] = 0;
		add(sql, &n, "INSERT INTO ");
		add(sql, &n, t->name);
		add(sql, &n, " VALUES (");
		for (unsigned c = 0; c < t->ncols; c++)
			add(sql, &n, c ? ",?" : "?");
		add(sql, &n, ")");
		int rc = sqlite3_prepare_v3(d->db, sql, -1, SQLITE_PREPARE_PERSISTENT, &d->st[i],
					    NULL);
		if (rc != SQLITE_OK) {
			diag_error("%s: %s", d->path, sqlite3_errmsg(d->db));
			d->failed = 1;
			return -1;
		}
	}
	return 0;
}

void stmts_finalize(struct sqldb *d)
{
	for (int i = 0; i < ST_COUNT; i++) {
		sqlite3_finalize(d->st[i]);
		d->st[i] = NULL;
	}
}

int sqldb_exec(struct sqldb *d, const char *sql)
{
	char *err = NULL;
	if (sqlite3_exec(d->db, sql, NULL, NULL, &err) == SQLITE_OK)
		return 0;
	diag_error("%s: %s", d->path, err ? err : sqlite3_errmsg(d->db));
	sqlite3_free(err);
	d->failed = 1;
	return -1;
}
