/* test-argblob.c — an imported event's args as bytes (analyze/import/argblob.c) and back:
 * each JSON type, whole numbers as integers up to 2^53 and doubles past it, nesting, nesting
 * too deep kept as its JSON text, and a buffer too small refused with nothing written. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../analyze/import/argblob.h"
#include "../../common/import.h"
#include "tap.h"

/* The members read back, as text: key=value, I int, D double, S'string', T F N, [..] {..}. */
static int dump(const uint8_t *blob, size_t len, char *out, size_t cap)
{
	struct argblob_reader r;
	struct argblob_item it;
	size_t n = 0;
	int rc;
	out[0] = '\0';
	argblob_reader_init(&r, blob, len);
	while ((rc = argblob_next(&r, &it)) > 0) {
		char v[160] = "";
		switch (it.type) {
		case TPROF_IMP_A_NULL: strcpy(v, "N"); break;
		case TPROF_IMP_A_FALSE: strcpy(v, "F"); break;
		case TPROF_IMP_A_TRUE: strcpy(v, "T"); break;
		case TPROF_IMP_A_INT: snprintf(v, sizeof(v), "I%lld", (long long)it.i); break;
		case TPROF_IMP_A_DOUBLE: snprintf(v, sizeof(v), "D%.17g", it.d); break;
		case TPROF_IMP_A_STR: snprintf(v, sizeof(v), "S'%.*s'", (int)it.s_len, it.s); break;
		case TPROF_IMP_A_OBJ: strcpy(v, "{"); break;
		case TPROF_IMP_A_ARR: strcpy(v, "["); break;
		case TPROF_IMP_A_END: strcpy(v, "}"); break;
		}
		n += (size_t)snprintf(out + n, n < cap ? cap - n : 0, "%s%.*s%s%s", n ? " " : "",
				      (int)it.key_len, it.key ? it.key : "", it.key ? "=" : "", v);
	}
	return rc;
}

static void one(const char *what, const char *json, const char *want)
{
	cJSON *args = cJSON_Parse(json);
	uint8_t buf[4096];
	char got[8192];
	size_t len = 0;
	ok(args && argblob_encode(args, buf, &len, sizeof(buf), NULL) == 0, "%s: encoded", what);
	ok(dump(buf, len, got, sizeof(got)) == 0, "%s: read back to its end", what);
	ok(!strcmp(got, want), "%s: read back as written", what);
	if (strcmp(got, want))
		printf("#   got  %s\n#   want %s\n", got, want);
	cJSON_Delete(args);
}

int main(void)
{
	one("no member", "{}", "");
	one("whole numbers", "{\"n\":1,\"neg\":-7,\"z\":-0.0,\"w\":3.0}", "n=I1 neg=I-7 z=I0 w=I3");
	one("integers up to 2^53, doubles past it",
	    "{\"big\":9007199254740991,\"edge\":9007199254740992,\"nbig\":-9007199254740991}",
	    "big=I9007199254740991 edge=D9007199254740992 nbig=I-9007199254740991");
	one("doubles", "{\"f\":2.5,\"e\":1e300,\"t\":-1e-300,\"h\":0.5}",
	    "f=D2.5 e=D1.0000000000000001e+300 t=D-1e-300 h=D0.5");
	one("literals and strings",
	    "{\"b\":true,\"c\":false,\"x\":null,\"s\":\"hi\",\"empty\":\"\"}",
	    "b=T c=F x=N s=S'hi' empty=S''");
	one("arrays and objects", "{\"l\":[1,\"two\",{\"three\":3},[]],\"o\":{}}",
	    "l=[ I1 S'two' { three=I3 } [ } } o={ }");

	/* deeper than 31: the rest as its JSON text */
	char deep[256] = "{\"d\":", want[2048] = "d=[";
	for (int i = 0; i < 40; i++)
		strcat(deep, "[");
	strcat(deep, "1");
	for (int i = 0; i < 40; i++)
		strcat(deep, "]");
	strcat(deep, "}");
	for (int i = 1; i < 31; i++)
		strcat(want, " [");
	strcat(want, " S'");
	for (int i = 31; i < 40; i++)
		strcat(want, "[");
	strcat(want, "1");
	for (int i = 31; i < 40; i++)
		strcat(want, "]");
	strcat(want, "'");
	for (int i = 0; i < 31; i++)
		strcat(want, " }");
	one("nested 40 deep", deep, want);

	/* too small: refused, the length where it was */
	cJSON *args = cJSON_Parse("{\"s\":\"a string longer than the room\"}");
	uint8_t buf[16];
	size_t len = 3;
	ok(argblob_encode(args, buf, &len, sizeof(buf), NULL) < 0 && len == 3,
	   "args larger than the room: refused, nothing appended");
	cJSON_Delete(args);

	/* damaged: an END at the top, a string longer than the bytes */
	uint8_t bad1[] = { TPROF_IMP_A_END };
	uint8_t bad2[] = { TPROF_IMP_A_STR, 1, 0, 'k', 200, 0, 0, 0, 'x' };
	char got[64];
	ok(dump(bad1, sizeof(bad1), got, sizeof(got)) < 0, "an END outside any nesting: damaged");
	ok(dump(bad2, sizeof(bad2), got, sizeof(got)) < 0, "a string past the end: damaged");
	return tap_done();
}
