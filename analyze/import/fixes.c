/* fixes.c — the import's causes of change and loss (fixes.h): counted, added up over the
 * files, and said one line per cause under -v. */
#include "fixes.h"

#include "../read/trace.h"
#include "../util/strings.h"
#include "../util/u64map.h"

static const struct {
	const char *key, *text;
	enum imp_fix_class cls;
} causes[IMP_FIX_N] = {
#define IMP_FIX_ROW(id, key, cls, text) [IMP_FIX_##id] = { key, text, cls },
	IMP_FIXES(IMP_FIX_ROW)
#undef IMP_FIX_ROW
};

static struct u64map order_of;          /* file string id -> its place + 1 */

void imp_fixes_order(const uint32_t *files, size_t n)
{
	u64map_free(&order_of);
	for (size_t i = 0; i < n; i++)
		if (!u64map_get(&order_of, files[i]))
			u64map_put(&order_of, files[i], (uint32_t)i + 1);
}

/* Whether (file a, offset p) comes before (file b, offset q). */
static int earlier(uint32_t a, uint64_t p, uint32_t b, uint64_t q)
{
	const uint32_t *x = u64map_get(&order_of, a), *y = u64map_get(&order_of, b);
	uint32_t oa = x ? *x : UINT32_MAX, ob = y ? *y : UINT32_MAX;
	return oa != ob ? oa < ob : p < q;
}

void imp_fix_n(struct imp_fixes *x, enum imp_fix cause, uint64_t n, uint32_t file,
	       uint64_t offset)
{
	if (!n || (unsigned)cause >= IMP_FIX_N)
		return;
	if (!x->n[cause] || earlier(file, offset, x->file[cause], x->offset[cause])) {
		x->file[cause] = file;
		x->offset[cause] = offset;
	}
	x->n[cause] += n;
}

void imp_fixes_add(struct imp_fixes *x, const struct imp_fixes *from)
{
	for (int i = 0; i < IMP_FIX_N; i++)
		imp_fix_n(x, (enum imp_fix)i, from->n[i], from->file[i], from->offset[i]);
}

uint64_t imp_fixes_class(const struct imp_fixes *x, enum imp_fix_class cls)
{
	uint64_t n = 0;
	for (int i = 0; i < IMP_FIX_N; i++)
		n += causes[i].cls == cls ? x->n[i] : 0;
	return n;
}

uint64_t imp_fixes_total(const struct imp_fixes *x)
{
	uint64_t n = 0;
	for (int i = 0; i < IMP_FIX_N; i++)
		n += x->n[i];
	return n;
}

const char *imp_fix_key(enum imp_fix cause)
{
	return (unsigned)cause < IMP_FIX_N ? causes[cause].key : "?";
}

const char *imp_fix_text(enum imp_fix cause)
{
	return (unsigned)cause < IMP_FIX_N ? causes[cause].text : "?";
}

enum imp_fix_class imp_fix_class(enum imp_fix cause)
{
	return (unsigned)cause < IMP_FIX_N ? causes[cause].cls : IMP_CHANGE;
}

void imp_fixes_report(const struct imp_fixes *x)
{
	for (int i = 0; i < IMP_FIX_N; i++)
		if (x->n[i])
			diag_note("import: %llu %s (first at offset %llu of %s)",
				  (unsigned long long)x->n[i], causes[i].text,
				  (unsigned long long)x->offset[i],
				  x->file[i] ? strings_get(x->file[i]) : "?");
}
