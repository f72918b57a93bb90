/* oleaut32's VARIANTs: VariantInit, VariantClear (a BSTR freed, an
 * object released), VariantCopy (a deep copy of a BSTR, an AddRef'd
 * object), and VariantChangeType between the integers, reals, BOOL and
 * BSTR: banker's rounding, overflow, strings both ways, VARIANT_ALPHABOOL,
 * VT_NULL and VT_EMPTY, in place and through VT_BYREF. */
#define COBJMACROS
#include <windows.h>
#include <oleauto.h>

#include "test.h"

/* A tiny COM object that counts its references. */
static LONG refs;
static HRESULT WINAPI unk_qi(IUnknown *u, REFIID iid, void **out)
{
	(void)iid;
	*out = u;
	return S_OK;
}
static ULONG WINAPI unk_addref(IUnknown *u)
{
	(void)u;
	return ++refs;
}
static ULONG WINAPI unk_release(IUnknown *u)
{
	(void)u;
	return --refs;
}
static IUnknownVtbl unk_vtbl = { unk_qi, unk_addref, unk_release };
static IUnknown unk = { &unk_vtbl };

static HRESULT change(VARIANT *dst, VARTYPE from_vt, VARIANT *src, USHORT flags, VARTYPE vt)
{
	VariantInit(dst);
	V_VT(src) = from_vt;
	return VariantChangeType(dst, src, flags, vt);
}

static void test_basics(void)
{
	VARIANT a, b;

	V_VT(&a) = 0x1234;
	VariantInit(&a);
	ok(V_VT(&a) == VT_EMPTY, "VariantInit: vt %u\n", V_VT(&a));

	V_VT(&a) = VT_BSTR;
	V_BSTR(&a) = SysAllocString(L"copy me");
	VariantInit(&b);
	ok(VariantCopy(&b, &a) == S_OK, "VariantCopy\n");
	ok(V_VT(&b) == VT_BSTR && V_BSTR(&b) != V_BSTR(&a) && !wcscmp(V_BSTR(&b), L"copy me"),
	   "a deep copy of the BSTR\n");
	ok(VariantClear(&a) == S_OK && V_VT(&a) == VT_EMPTY, "VariantClear\n");
	ok(VariantClear(&b) == S_OK, "VariantClear of the copy\n");

	refs = 1;
	V_VT(&a) = VT_UNKNOWN;
	V_UNKNOWN(&a) = &unk;
	VariantInit(&b);
	ok(VariantCopy(&b, &a) == S_OK && refs == 2, "VariantCopy AddRefs: %ld\n", refs);
	VariantClear(&b);
	ok(refs == 1, "VariantClear releases: %ld\n", refs);

	V_VT(&a) = 0x7ff;
	ok(VariantClear(&a) == DISP_E_BADVARTYPE, "an invalid type\n");
}

static void test_change_type(void)
{
	VARIANT s, d;
	HRESULT hr;

	/* Banker's rounding: halves go to the even neighbour. */
	V_R8(&s) = 2.5;
	hr = change(&d, VT_R8, &s, 0, VT_I4);
	ok(hr == S_OK && V_VT(&d) == VT_I4 && V_I4(&d) == 2, "2.5 -> %ld\n", V_I4(&d));
	V_R8(&s) = 3.5;
	hr = change(&d, VT_R8, &s, 0, VT_I4);
	ok(hr == S_OK && V_I4(&d) == 4, "3.5 -> %ld\n", V_I4(&d));
	V_R8(&s) = -2.5;
	hr = change(&d, VT_R8, &s, 0, VT_I2);
	ok(hr == S_OK && V_I2(&d) == -2, "-2.5 -> %d\n", V_I2(&d));
	V_R8(&s) = 2.6;
	hr = change(&d, VT_R8, &s, 0, VT_UI1);
	ok(hr == S_OK && V_UI1(&d) == 3, "2.6 -> %u\n", V_UI1(&d));

	/* Overflow. */
	V_I4(&s) = 256;
	ok(change(&d, VT_I4, &s, 0, VT_UI1) == DISP_E_OVERFLOW, "256 in a byte\n");
	/* VarUI4FromI4's docs: a negative value is DISP_E_OVERFLOW; Wine's
	 * VariantChangeType gives 0xffffffff. */
	V_I4(&s) = -1;
	ok_todo_wine(change(&d, VT_I4, &s, 0, VT_UI4) == DISP_E_OVERFLOW, "-1 in VT_UI4\n");
	V_R8(&s) = 1e20;
	ok(change(&d, VT_R8, &s, 0, VT_I8) == DISP_E_OVERFLOW, "1e20 in VT_I8\n");
	V_I4(&s) = 32767;
	ok(change(&d, VT_I4, &s, 0, VT_I2) == S_OK && V_I2(&d) == 32767, "32767 in VT_I2\n");

	/* BOOL. */
	V_I4(&s) = 7;
	ok(change(&d, VT_I4, &s, 0, VT_BOOL) == S_OK && V_BOOL(&d) == VARIANT_TRUE, "7 -> TRUE\n");
	V_BOOL(&s) = VARIANT_TRUE;
	ok(change(&d, VT_BOOL, &s, 0, VT_I4) == S_OK && V_I4(&d) == -1, "TRUE -> %ld\n", V_I4(&d));
	hr = change(&d, VT_BOOL, &s, 0, VT_BSTR);
	ok(hr == S_OK && V_VT(&d) == VT_BSTR && !wcscmp(V_BSTR(&d), L"-1"), "TRUE -> \"%ls\"\n",
	   hr == S_OK ? V_BSTR(&d) : L"");
	VariantClear(&d);
	hr = change(&d, VT_BOOL, &s, VARIANT_ALPHABOOL, VT_BSTR);
	ok(hr == S_OK && !wcscmp(V_BSTR(&d), L"True"), "ALPHABOOL TRUE -> \"%ls\"\n",
	   hr == S_OK ? V_BSTR(&d) : L"");
	VariantClear(&d);

	/* Numbers to strings and back. */
	V_I4(&s) = -1234;
	hr = change(&d, VT_I4, &s, 0, VT_BSTR);
	ok(hr == S_OK && !wcscmp(V_BSTR(&d), L"-1234"), "-1234 -> \"%ls\"\n", hr == S_OK ? V_BSTR(&d) : L"");
	VariantClear(&d);
	V_R8(&s) = 1.5;
	hr = change(&d, VT_R8, &s, 0, VT_BSTR);
	ok(hr == S_OK && !wcscmp(V_BSTR(&d), L"1.5"), "1.5 -> \"%ls\"\n", hr == S_OK ? V_BSTR(&d) : L"");
	VariantClear(&d);
	V_R8(&s) = 0.1;
	hr = change(&d, VT_R8, &s, 0, VT_BSTR);
	ok(hr == S_OK && !wcscmp(V_BSTR(&d), L"0.1"), "0.1 -> \"%ls\"\n", hr == S_OK ? V_BSTR(&d) : L"");
	VariantClear(&d);
	V_I8(&s) = 9007199254740993LL;
	hr = change(&d, VT_I8, &s, 0, VT_BSTR);
	ok(hr == S_OK && !wcscmp(V_BSTR(&d), L"9007199254740993"), "I8 -> \"%ls\"\n",
	   hr == S_OK ? V_BSTR(&d) : L"");
	VariantClear(&d);

	V_BSTR(&s) = SysAllocString(L" 42 ");
	hr = change(&d, VT_BSTR, &s, 0, VT_I4);
	ok(hr == S_OK && V_I4(&d) == 42, "\" 42 \" -> %ld (%#lx)\n", V_I4(&d), hr);
	SysFreeString(V_BSTR(&s));
	V_BSTR(&s) = SysAllocString(L"-2.5");
	hr = change(&d, VT_BSTR, &s, 0, VT_R8);
	ok(hr == S_OK && V_R8(&d) == -2.5, "\"-2.5\" -> %g\n", V_R8(&d));
	hr = change(&d, VT_BSTR, &s, 0, VT_I4);
	ok(hr == S_OK && V_I4(&d) == -2, "\"-2.5\" -> VT_I4 %ld\n", V_I4(&d));
	SysFreeString(V_BSTR(&s));
	V_BSTR(&s) = SysAllocString(L"twelve");
	ok(change(&d, VT_BSTR, &s, 0, VT_I4) == DISP_E_TYPEMISMATCH, "\"twelve\"\n");
	SysFreeString(V_BSTR(&s));
	V_BSTR(&s) = SysAllocString(L"300");
	ok(change(&d, VT_BSTR, &s, 0, VT_UI1) == DISP_E_OVERFLOW, "\"300\" in a byte\n");
	SysFreeString(V_BSTR(&s));
	V_BSTR(&s) = SysAllocString(L"True");
	ok(change(&d, VT_BSTR, &s, 0, VT_BOOL) == S_OK && V_BOOL(&d) == VARIANT_TRUE, "\"True\" -> BOOL\n");
	SysFreeString(V_BSTR(&s));

	/* EMPTY is 0 and the empty string; NULL converts to nothing else. */
	ok(change(&d, VT_EMPTY, &s, 0, VT_I4) == S_OK && V_VT(&d) == VT_I4 && V_I4(&d) == 0, "EMPTY -> 0\n");
	hr = change(&d, VT_EMPTY, &s, 0, VT_BSTR);
	ok(hr == S_OK && V_VT(&d) == VT_BSTR && SysStringLen(V_BSTR(&d)) == 0, "EMPTY -> \"\"\n");
	VariantClear(&d);
	ok(change(&d, VT_NULL, &s, 0, VT_I4) == DISP_E_TYPEMISMATCH, "NULL -> VT_I4\n");

	/* In place, and through a reference. */
	V_VT(&s) = VT_I4;
	V_I4(&s) = 65;
	ok(VariantChangeType(&s, &s, 0, VT_BSTR) == S_OK && V_VT(&s) == VT_BSTR && !wcscmp(V_BSTR(&s), L"65"),
	   "in place\n");
	VariantClear(&s);
	LONG target = 99;
	V_VT(&s) = VT_I4 | VT_BYREF;
	V_I4REF(&s) = &target;
	VariantInit(&d);
	ok(VariantChangeType(&d, &s, 0, VT_R8) == S_OK && V_VT(&d) == VT_R8 && V_R8(&d) == 99.0, "by reference\n");
}

int main(void)
{
	test_basics();
	test_change_type();
	return test_summary();
}
