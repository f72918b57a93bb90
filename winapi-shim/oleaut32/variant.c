/* VARIANTs: initialising, clearing, copying, and converting between the
 * common scalar types (the integers, VT_INT/VT_UINT, VT_R4/VT_R8,
 * VT_BOOL, VT_BSTR, VT_EMPTY, VT_NULL).
 *
 * Conversions follow oleaut32's documented rules: floating values become
 * integers by rounding half to even ("banker's rounding"), a value out of
 * the target's range is DISP_E_OVERFLOW, VARIANT_TRUE is -1, a string is
 * read as a number in the C locale's form (ndrun's user locale), a BOOL
 * becomes "-1"/"0" or with VARIANT_ALPHABOOL "True"/"False", and VT_NULL
 * converts to nothing but itself.  Conversions that involve the other
 * valid types (dates, currency, decimals, objects, arrays, records) are
 * not implemented and stop the program naming the case
 * (core/unimpl.h); an invalid type is DISP_E_BADVARTYPE. */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/unimpl.h"
#include "oleaut32/oleaut32_private.h"

/* Types VARIANT can hold at all (plain, not VT_BYREF or VT_ARRAY). */
static BOOL vt_valid(VARTYPE vt)
{
	switch (vt) {
	case VT_EMPTY: case VT_NULL: case VT_I2: case VT_I4: case VT_R4: case VT_R8: case VT_CY:
	case VT_DATE: case VT_BSTR: case VT_DISPATCH: case VT_ERROR: case VT_BOOL: case VT_VARIANT:
	case VT_UNKNOWN: case VT_DECIMAL: case VT_I1: case VT_UI1: case VT_UI2: case VT_UI4:
	case VT_I8: case VT_UI8: case VT_INT: case VT_UINT: case VT_RECORD:
		return TRUE;
	}
	return FALSE;
}

void WINAPI VariantInit(VARIANTARG *v)
{
	V_VT(v) = VT_EMPTY;
}

HRESULT WINAPI VariantClear(VARIANTARG *v)
{
	VARTYPE vt = V_VT(v);

	if (!(vt & VT_BYREF)) {
		if (vt & VT_ARRAY)
			unimplemented_case("oleaut32.VariantClear", "VT_ARRAY: no SAFEARRAYs");
		if (!vt_valid(vt))
			return DISP_E_BADVARTYPE;
		switch (vt) {
		case VT_BSTR:
			SysFreeString(V_BSTR(v));
			break;
		case VT_UNKNOWN: case VT_DISPATCH:
			if (V_UNKNOWN(v))
				V_UNKNOWN(v)->lpVtbl->Release(V_UNKNOWN(v));
			break;
		case VT_RECORD:
			unimplemented_case("oleaut32.VariantClear", "VT_RECORD");
		}
	}
	V_VT(v) = VT_EMPTY;
	return S_OK;
}

HRESULT WINAPI VariantCopy(VARIANTARG *dst, const VARIANTARG *src)
{
	VARTYPE vt = V_VT(src);
	HRESULT hr;

	if (dst == src)
		return S_OK;
	if (!(vt & VT_BYREF)) {
		if (vt & VT_ARRAY)
			unimplemented_case("oleaut32.VariantCopy", "VT_ARRAY: no SAFEARRAYs");
		if (!vt_valid(vt))
			return DISP_E_BADVARTYPE;
		if (vt == VT_RECORD)
			unimplemented_case("oleaut32.VariantCopy", "VT_RECORD");
	}
	hr = VariantClear(dst);
	if (FAILED(hr))
		return hr;
	*dst = *src;
	if (vt == VT_BSTR && V_BSTR(src)) {
		V_BSTR(dst) = SysAllocStringByteLen((const char *)V_BSTR(src), SysStringByteLen(V_BSTR(src)));
		if (!V_BSTR(dst)) {
			V_VT(dst) = VT_EMPTY;
			return E_OUTOFMEMORY;
		}
	} else if ((vt == VT_UNKNOWN || vt == VT_DISPATCH) && V_UNKNOWN(src)) {
		V_UNKNOWN(src)->lpVtbl->AddRef(V_UNKNOWN(src));
	}
	return S_OK;
}

/* A value on its way between two types. */
struct value {
	enum { VAL_INT, VAL_UINT, VAL_REAL, VAL_STRING, VAL_EMPTY } kind;
	LONGLONG i;
	ULONGLONG u;
	double r;
	BSTR s;
};

static BOOL is_plain_scalar(VARTYPE vt)
{
	switch (vt) {
	case VT_EMPTY: case VT_I1: case VT_I2: case VT_I4: case VT_I8: case VT_INT: case VT_UI1:
	case VT_UI2: case VT_UI4: case VT_UI8: case VT_UINT: case VT_R4: case VT_R8: case VT_BOOL:
	case VT_BSTR:
		return TRUE;
	}
	return FALSE;
}

/* The value of a plain variant, or of what a VT_BYREF one points to. */
static void get_value(VARTYPE vt, const void *p, struct value *val)
{
	val->kind = VAL_INT;
	switch (vt) {
	case VT_EMPTY: val->kind = VAL_EMPTY; break;
	case VT_I1: val->i = *(const signed char *)p; break;
	case VT_I2: val->i = *(const SHORT *)p; break;
	case VT_BOOL: val->i = *(const VARIANT_BOOL *)p; break;
	case VT_I4: case VT_INT: val->i = *(const LONG *)p; break;
	case VT_I8: val->i = *(const LONGLONG *)p; break;
	case VT_UI1: val->i = *(const BYTE *)p; break;
	case VT_UI2: val->i = *(const USHORT *)p; break;
	case VT_UI4: case VT_UINT: val->i = *(const ULONG *)p; break;
	case VT_UI8: val->kind = VAL_UINT; val->u = *(const ULONGLONG *)p; break;
	case VT_R4: val->kind = VAL_REAL; val->r = *(const float *)p; break;
	case VT_R8: val->kind = VAL_REAL; val->r = *(const double *)p; break;
	case VT_BSTR: val->kind = VAL_STRING; val->s = *(const BSTR *)p; break;
	}
}

/* A number in a string: spaces around it, a sign, digits with an optional
 * fraction and exponent.  An integer without fraction or exponent keeps
 * all 64 bits. */
static HRESULT parse_string(BSTR s, struct value *val)
{
	char buf[128], *end;
	UINT len = SysStringLen(s), i, n = 0;
	BOOL integral = TRUE, digits = FALSE;

	for (i = 0; i < len && n < sizeof(buf) - 1; i++) {
		if (s[i] > 0x7f)
			return DISP_E_TYPEMISMATCH;
		buf[n++] = (char)s[i];
	}
	if (i < len)
		return DISP_E_TYPEMISMATCH;
	buf[n] = 0;
	while (n && isspace((unsigned char)buf[n - 1]))
		buf[--n] = 0;
	char *p = buf;
	while (isspace((unsigned char)*p))
		p++;
	const char *q = p;
	if (*q == '+' || *q == '-')
		q++;
	for (; *q; q++) {
		if (isdigit((unsigned char)*q))
			digits = TRUE;
		else if (*q == '.' || *q == 'e' || *q == 'E')
			integral = FALSE;
		else if ((*q == '+' || *q == '-') && (q[-1] == 'e' || q[-1] == 'E'))
			;
		else
			return DISP_E_TYPEMISMATCH;
	}
	if (!digits)
		return DISP_E_TYPEMISMATCH;
	errno = 0;
	if (integral && *p != '-') {
		val->kind = VAL_UINT;
		val->u = strtoull(p, &end, 10);
	} else if (integral) {
		val->kind = VAL_INT;
		val->i = strtoll(p, &end, 10);
	} else {
		val->kind = VAL_REAL;
		val->r = strtod(p, &end);
	}
	if (*end)
		return DISP_E_TYPEMISMATCH;
	if (errno == ERANGE)
		return DISP_E_OVERFLOW;
	return S_OK;
}

/* The value as a whole number within [lo, hi] (signed) or [0, uhi]. */
static HRESULT to_signed(const struct value *val, LONGLONG lo, LONGLONG hi, LONGLONG *out)
{
	switch (val->kind) {
	case VAL_EMPTY:
		*out = 0;
		return S_OK;
	case VAL_INT:
		if (val->i < lo || val->i > hi)
			return DISP_E_OVERFLOW;
		*out = val->i;
		return S_OK;
	case VAL_UINT:
		if (val->u > (ULONGLONG)hi)
			return DISP_E_OVERFLOW;
		*out = (LONGLONG)val->u;
		return S_OK;
	case VAL_REAL: {
		double r = nearbyint(val->r); /* the default mode: half to even */
		if (isnan(r) || r < (double)lo || r >= (double)hi + 1.0)
			return DISP_E_OVERFLOW;
		*out = (LONGLONG)r;
		return S_OK;
	}
	default:
		return DISP_E_TYPEMISMATCH;
	}
}

static HRESULT to_unsigned(const struct value *val, ULONGLONG hi, ULONGLONG *out)
{
	switch (val->kind) {
	case VAL_EMPTY:
		*out = 0;
		return S_OK;
	case VAL_INT:
		if (val->i < 0 || (ULONGLONG)val->i > hi)
			return DISP_E_OVERFLOW;
		*out = (ULONGLONG)val->i;
		return S_OK;
	case VAL_UINT:
		if (val->u > hi)
			return DISP_E_OVERFLOW;
		*out = val->u;
		return S_OK;
	case VAL_REAL: {
		double r = nearbyint(val->r);
		if (isnan(r) || r < 0 || r >= (double)hi + 1.0)
			return DISP_E_OVERFLOW;
		*out = (ULONGLONG)r;
		return S_OK;
	}
	default:
		return DISP_E_TYPEMISMATCH;
	}
}

static double to_real(const struct value *val)
{
	switch (val->kind) {
	case VAL_INT: return (double)val->i;
	case VAL_UINT: return (double)val->u;
	case VAL_REAL: return val->r;
	default: return 0;
	}
}

static BSTR ascii_bstr(const char *s)
{
	size_t n = strlen(s);
	BSTR b = SysAllocStringLen(NULL, (UINT)n);

	if (b)
		for (size_t i = 0; i <= n; i++)
			b[i] = (WCHAR)(unsigned char)s[i];
	return b;
}

/* 15 significant digits for a double, 7 for a float, as VarBstrFromR8
 * and VarBstrFromR4 give them (an exponent only where %G uses one). */
static HRESULT to_string(const struct value *val, VARTYPE from, USHORT flags, BSTR *out)
{
	char buf[64];

	switch (val->kind) {
	case VAL_EMPTY:
		buf[0] = 0;
		break;
	case VAL_INT:
		if (from == VT_BOOL && (flags & VARIANT_ALPHABOOL))
			snprintf(buf, sizeof(buf), "%s", val->i ? "True" : "False");
		else
			snprintf(buf, sizeof(buf), "%lld", (long long)val->i);
		break;
	case VAL_UINT:
		snprintf(buf, sizeof(buf), "%llu", (unsigned long long)val->u);
		break;
	case VAL_REAL:
		snprintf(buf, sizeof(buf), "%.*G", from == VT_R4 ? 7 : 15, val->r);
		break;
	default:
		return DISP_E_TYPEMISMATCH;
	}
	*out = ascii_bstr(buf);
	return *out ? S_OK : E_OUTOFMEMORY;
}

/* "True"/"False" (any case) or a number, for a string that becomes a
 * BOOL. */
static HRESULT string_to_bool(BSTR s, struct value *val)
{
	static const WCHAR true_w[] = { 'T', 'R', 'U', 'E', 0 }, false_w[] = { 'F', 'A', 'L', 'S', 'E', 0 };
	UINT len = SysStringLen(s);

	for (int which = 0; which < 2; which++) {
		const WCHAR *w = which ? false_w : true_w;
		UINT n = which ? 5 : 4, i;
		if (len != n)
			continue;
		for (i = 0; i < n && (s[i] & ~0x20) == w[i]; i++)
			;
		if (i == n) {
			val->kind = VAL_INT;
			val->i = which ? 0 : 1;
			return S_OK;
		}
	}
	return parse_string(s, val);
}

static HRESULT convert(VARIANTARG *dst, const struct value *src, VARTYPE from, USHORT flags, VARTYPE vt)
{
	struct value val = *src;
	LONGLONG i;
	ULONGLONG u;
	HRESULT hr = S_OK;

	if (val.kind == VAL_STRING && vt != VT_BSTR) {
		hr = vt == VT_BOOL ? string_to_bool(val.s, &val) : parse_string(val.s, &val);
		if (FAILED(hr))
			return hr;
	}
	switch (vt) {
	case VT_EMPTY:
		break;
	case VT_I1: hr = to_signed(&val, -128, 127, &i); V_I1(dst) = (CHAR)i; break;
	case VT_I2: hr = to_signed(&val, -32768, 32767, &i); V_I2(dst) = (SHORT)i; break;
	case VT_I4: hr = to_signed(&val, INT32_MIN, INT32_MAX, &i); V_I4(dst) = (LONG)i; break;
	case VT_INT: hr = to_signed(&val, INT32_MIN, INT32_MAX, &i); V_INT(dst) = (INT)i; break;
	case VT_I8: hr = to_signed(&val, INT64_MIN, INT64_MAX, &i); V_I8(dst) = i; break;
	case VT_UI1: hr = to_unsigned(&val, 0xff, &u); V_UI1(dst) = (BYTE)u; break;
	case VT_UI2: hr = to_unsigned(&val, 0xffff, &u); V_UI2(dst) = (USHORT)u; break;
	case VT_UI4: hr = to_unsigned(&val, 0xffffffff, &u); V_UI4(dst) = (ULONG)u; break;
	case VT_UINT: hr = to_unsigned(&val, 0xffffffff, &u); V_UINT(dst) = (UINT)u; break;
	case VT_UI8: hr = to_unsigned(&val, UINT64_MAX, &u); V_UI8(dst) = u; break;
	case VT_R4: {
		double r = to_real(&val);
		if (fabs(r) > 3.402823466e38)
			return DISP_E_OVERFLOW;
		V_R4(dst) = (float)r;
		break;
	}
	case VT_R8: V_R8(dst) = to_real(&val); break;
	case VT_BOOL: V_BOOL(dst) = to_real(&val) != 0 ? VARIANT_TRUE : VARIANT_FALSE; break;
	case VT_BSTR: {
		BSTR s;
		if (val.kind == VAL_STRING) {
			s = SysAllocStringByteLen((const char *)val.s, SysStringByteLen(val.s));
			hr = s || !val.s ? S_OK : E_OUTOFMEMORY;
		} else {
			hr = to_string(&val, from, flags, &s);
		}
		if (SUCCEEDED(hr))
			V_BSTR(dst) = s;
		break;
	}
	}
	if (SUCCEEDED(hr))
		V_VT(dst) = vt;
	return hr;
}

HRESULT WINAPI VariantChangeTypeEx(VARIANTARG *dst, const VARIANTARG *src, LCID lcid, USHORT flags, VARTYPE vt)
{
	VARTYPE from = V_VT(src) & ~VT_BYREF;
	const void *p = (V_VT(src) & VT_BYREF) ? V_BYREF(src) : (const void *)&V_I1(src);
	struct value val;
	VARIANTARG tmp;
	HRESULT hr;

	if ((V_VT(src) & VT_BYREF) && !p)
		return E_INVALIDARG;
	if (!vt_valid(from) || !vt_valid(vt & ~(VT_BYREF | VT_ARRAY)) || (vt & VT_BYREF))
		return DISP_E_BADVARTYPE;
	if (from == vt && !(V_VT(src) & VT_BYREF))
		return VariantCopy(dst, src);
	if (from == VT_NULL || vt == VT_NULL) {
		if (from != vt)
			return DISP_E_TYPEMISMATCH;
		hr = VariantClear(dst);
		if (SUCCEEDED(hr))
			V_VT(dst) = VT_NULL;
		return hr;
	}
	if (!is_plain_scalar(from) || !is_plain_scalar(vt))
		unimplemented_case("oleaut32.VariantChangeTypeEx", "from type %u to type %u", V_VT(src), vt);
	get_value(from, p, &val);
	VariantInit(&tmp);
	hr = convert(&tmp, &val, from, flags, vt);
	if (FAILED(hr))
		return hr;
	/* dst may be src: the value is complete before src is cleared. */
	hr = VariantClear(dst);
	if (FAILED(hr)) {
		VariantClear(&tmp);
		return hr;
	}
	*dst = tmp;
	return S_OK;
}

HRESULT WINAPI VariantChangeType(VARIANTARG *dst, const VARIANTARG *src, USHORT flags, VARTYPE vt)
{
	return VariantChangeTypeEx(dst, src, LOCALE_USER_DEFAULT, flags, vt);
}
