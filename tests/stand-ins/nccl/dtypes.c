/* dtypes.c — NCCL's datatypes: sizes, names, and the element-wise arithmetic the collectives
 * reduce with (sum, product, max, min, pre-multiplied sums, sums divided afterwards).  The
 * 16- and 8-bit floating-point types (half, bfloat16, fp8 e4m3/e5m2) are computed in double
 * and rounded to nearest-even after each binary operation, as the device does pairwise;
 * integers wrap around. */
#include "internal.h"

#include <math.h>
#include <string.h>

static const struct {
	const char *name;
	size_t size;
} types[12] = {
	{"int8", 1}, {"uint8", 1}, {"int32", 4}, {"uint32", 4}, {"int64", 8}, {"uint64", 8},
	{"float16", 2}, {"float32", 4}, {"float64", 8}, {"bfloat16", 2},
	{"float8e4m3", 1}, {"float8e5m2", 1},
};

size_t sn_dtype_size(int dt)
{
	return dt >= 0 && dt < SN_NUM_TYPES ? types[dt].size : 0;
}

const char *sn_dtype_name(int dt)
{
	return dt >= 0 && dt < 12 ? types[dt].name : "invalid";
}

int sn_dtype_is_float(int dt)
{
	return dt >= ncclFloat16 && dt <= ncclFloat8e5m2;
}

/* ------------------------------------------------------------------ small floats */
/* A binary floating-point format of e exponent and m mantissa bits; `fn` formats (fp8 e4m3)
 * have no infinities, their all-ones exponent holds numbers and one NaN. */
struct fmt {
	int e, m, bias, fn, saturate;
};
static const struct fmt f16 = {5, 10, 15, 0, 0}, bf16 = {8, 7, 127, 0, 0},
			e4m3 = {4, 3, 7, 1, 1}, e5m2 = {5, 2, 15, 0, 1};

static double fmt_max(const struct fmt *f)
{
	int emax = (1 << f->e) - 2 - f->bias;
	if (f->fn) /* all-ones exponent usable, all-ones mantissa there is the NaN */
		return (1.0 + ((1 << f->m) - 2) / (double)(1 << f->m)) * ldexp(1.0, emax + 1);
	return (2.0 - ldexp(1.0, -f->m)) * ldexp(1.0, emax);
}

static double decode(unsigned bits, const struct fmt *f)
{
	unsigned man = bits & ((1u << f->m) - 1), emask = (1u << f->e) - 1;
	unsigned ex = (bits >> f->m) & emask;
	int neg = (bits >> (f->e + f->m)) & 1;
	double v;
	if (ex == emask && !f->fn)
		v = man ? NAN : INFINITY;
	else if (ex == emask && man == (1u << f->m) - 1)
		v = NAN;
	else if (ex == 0)
		v = ldexp((double)man, 1 - f->bias - f->m);
	else
		v = ldexp(1.0 + man / (double)(1u << f->m), (int)ex - f->bias);
	return neg ? -v : v;
}

static unsigned encode(double v, const struct fmt *f)
{
	unsigned sign = signbit(v) ? 1u << (f->e + f->m) : 0, emask = (1u << f->e) - 1;
	double a = fabs(v), max = fmt_max(f), q;
	int x, emin = 1 - f->bias;
	if (isnan(v))
		return f->fn ? sign | (emask << f->m) | ((1u << f->m) - 1)
			     : (emask << f->m) | (1u << (f->m - 1));
	if (a == 0)
		return sign;
	if (!isinf(a)) {
		frexp(a, &x); /* a = [0.5, 1) * 2^x: exponent x - 1 */
		x = x - 1 < emin ? emin : x - 1;
		q = ldexp(nearbyint(ldexp(a, f->m - x)), x - f->m); /* to nearest, ties even */
	} else {
		q = a;
	}
	if (q > max)
		return f->saturate || f->fn ? sign | encode(max, f) : sign | (emask << f->m);
	frexp(q, &x);
	if (x - 1 < emin)
		return sign | (unsigned)ldexp(q, f->m - emin);
	return sign | ((unsigned)(x - 1 + f->bias) << f->m) |
	       ((unsigned)ldexp(q / ldexp(1.0, x - 1) - 1.0, f->m) & ((1u << f->m) - 1));
}

static const struct fmt *small_fmt(int dt)
{
	switch (dt) {
	case ncclFloat16: return &f16;
	case ncclBfloat16: return &bf16;
	case ncclFloat8e4m3: return &e4m3;
	case ncclFloat8e5m2: return &e5m2;
	default: return NULL;
	}
}

static double load_small(const void *p, size_t i, const struct fmt *f)
{
	if (f->e + f->m < 8)
		return decode(((const uint8_t *)p)[i], f);
	uint16_t b;
	memcpy(&b, (const char *)p + 2 * i, 2);
	return decode(b, f);
}

static void store_small(void *p, size_t i, const struct fmt *f, double v)
{
	unsigned b = encode(v, f);
	if (f->e + f->m < 8) {
		((uint8_t *)p)[i] = (uint8_t)b;
	} else {
		uint16_t h = (uint16_t)b;
		memcpy((char *)p + 2 * i, &h, 2);
	}
}

void sn_from_double(void *dst, int dt, double v)
{
	const struct fmt *f = small_fmt(dt);
	switch (dt) {
	case ncclInt8: *(int8_t *)dst = (int8_t)v; break;
	case ncclUint8: *(uint8_t *)dst = (uint8_t)v; break;
	case ncclInt32: { int32_t x = (int32_t)v; memcpy(dst, &x, 4); break; }
	case ncclUint32: { uint32_t x = (uint32_t)v; memcpy(dst, &x, 4); break; }
	case ncclInt64: { int64_t x = (int64_t)v; memcpy(dst, &x, 8); break; }
	case ncclUint64: { uint64_t x = (uint64_t)v; memcpy(dst, &x, 8); break; }
	case ncclFloat32: { float x = (float)v; memcpy(dst, &x, 4); break; }
	case ncclFloat64: memcpy(dst, &v, 8); break;
	default:
		if (f)
			store_small(dst, 0, f, v);
	}
}

/* ------------------------------------------------------------------ element-wise */
static double op_double(double a, double b, int op)
{
	switch (op) {
	case ncclProd: return a * b;
	case ncclMax: return a > b || isnan(a) ? a : b;
	case ncclMin: return a < b || isnan(a) ? a : b;
	default: return a + b;
	}
}

/* Integers: arithmetic in the unsigned type of the same width (wraps, no undefined overflow);
 * max and min compare in the type itself. */
#define INT_ACC(T, U)                                                                        \
	static void acc_##T(void *accp, const void *xp, size_t n, int op)                    \
	{                                                                                    \
		T *acc = accp;                                                               \
		const T *x = xp;                                                             \
		size_t i;                                                                    \
		for (i = 0; i < n; i++) {                                                    \
			switch (op) {                                                        \
			case ncclProd: acc[i] = (T)((U)acc[i] * (U)x[i]); break;             \
			case ncclMax: acc[i] = acc[i] > x[i] ? acc[i] : x[i]; break;         \
			case ncclMin: acc[i] = acc[i] < x[i] ? acc[i] : x[i]; break;         \
			default: acc[i] = (T)((U)acc[i] + (U)x[i]);                          \
			}                                                                    \
		}                                                                            \
	}                                                                                    \
	static void scale_##T(void *dp, const void *sp, size_t n, const void *sc)            \
	{                                                                                    \
		T *d = dp, s;                                                                \
		const T *x = sp;                                                             \
		size_t i;                                                                    \
		memcpy(&s, sc, sizeof(s));                                                   \
		for (i = 0; i < n; i++)                                                      \
			d[i] = (T)((U)x[i] * (U)s);                                          \
	}                                                                                    \
	static void div_##T(void *ap, size_t n, int d)                                       \
	{                                                                                    \
		T *a = ap;                                                                   \
		size_t i;                                                                    \
		for (i = 0; i < n; i++)                                                      \
			a[i] = (T)(a[i] / (T)d);                                             \
	}
INT_ACC(int8_t, uint8_t)
INT_ACC(uint8_t, uint8_t)
INT_ACC(int32_t, uint32_t)
INT_ACC(uint32_t, uint32_t)
INT_ACC(int64_t, uint64_t)
INT_ACC(uint64_t, uint64_t)

#define FLOAT_ACC(T)                                                                         \
	static void acc_##T(void *accp, const void *xp, size_t n, int op)                    \
	{                                                                                    \
		T *acc = accp;                                                               \
		const T *x = xp;                                                             \
		size_t i;                                                                    \
		for (i = 0; i < n; i++) {                                                    \
			switch (op) {                                                        \
			case ncclProd: acc[i] = acc[i] * x[i]; break;                        \
			case ncclMax: acc[i] = (T)op_double(acc[i], x[i], op); break;        \
			case ncclMin: acc[i] = (T)op_double(acc[i], x[i], op); break;        \
			default: acc[i] = acc[i] + x[i];                                     \
			}                                                                    \
		}                                                                            \
	}                                                                                    \
	static void scale_##T(void *dp, const void *sp, size_t n, const void *sc)            \
	{                                                                                    \
		T *d = dp, s;                                                                \
		const T *x = sp;                                                             \
		size_t i;                                                                    \
		memcpy(&s, sc, sizeof(s));                                                   \
		for (i = 0; i < n; i++)                                                      \
			d[i] = x[i] * s;                                                     \
	}
FLOAT_ACC(float)
FLOAT_ACC(double)

void sn_accumulate(void *acc, const void *x, size_t n, int dt, int op)
{
	const struct fmt *f = small_fmt(dt);
	size_t i;
	switch (dt) {
	case ncclInt8: acc_int8_t(acc, x, n, op); return;
	case ncclUint8: acc_uint8_t(acc, x, n, op); return;
	case ncclInt32: acc_int32_t(acc, x, n, op); return;
	case ncclUint32: acc_uint32_t(acc, x, n, op); return;
	case ncclInt64: acc_int64_t(acc, x, n, op); return;
	case ncclUint64: acc_uint64_t(acc, x, n, op); return;
	case ncclFloat32: acc_float(acc, x, n, op); return;
	case ncclFloat64: acc_double(acc, x, n, op); return;
	}
	if (f)
		for (i = 0; i < n; i++)
			store_small(acc, i, f,
				    op_double(load_small(acc, i, f), load_small(x, i, f), op));
}

void sn_scale(void *dst, const void *src, size_t n, int dt, const void *scalar)
{
	const struct fmt *f = small_fmt(dt);
	size_t i;
	switch (dt) {
	case ncclInt8: scale_int8_t(dst, src, n, scalar); return;
	case ncclUint8: scale_uint8_t(dst, src, n, scalar); return;
	case ncclInt32: scale_int32_t(dst, src, n, scalar); return;
	case ncclUint32: scale_uint32_t(dst, src, n, scalar); return;
	case ncclInt64: scale_int64_t(dst, src, n, scalar); return;
	case ncclUint64: scale_uint64_t(dst, src, n, scalar); return;
	case ncclFloat32: scale_float(dst, src, n, scalar); return;
	case ncclFloat64: scale_double(dst, src, n, scalar); return;
	}
	if (f) {
		double s = load_small(scalar, 0, f);
		for (i = 0; i < n; i++)
			store_small(dst, i, f, load_small(src, i, f) * s);
	}
}

void sn_divide(void *acc, size_t n, int dt, int d)
{
	switch (dt) {
	case ncclInt8: div_int8_t(acc, n, d); break;
	case ncclUint8: div_uint8_t(acc, n, d); break;
	case ncclInt32: div_int32_t(acc, n, d); break;
	case ncclUint32: div_uint32_t(acc, n, d); break;
	case ncclInt64: div_int64_t(acc, n, d); break;
	case ncclUint64: div_uint64_t(acc, n, d); break;
	}
}
