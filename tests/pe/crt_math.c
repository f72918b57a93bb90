/* math.h as the DLL exports it (each function taken from msvcrt.dll, or
 * ucrtbase.dll in ucrt_math, with GetProcAddress: mingw-w64 links some
 * math of its own into programs, which would hide the DLL's): results of
 * the C89 functions, the float forms, msvcrt's _-names (_hypot, _logb,
 * _nextafter, _j0 ...) and, in the UCRT, C99's; errno EDOM for a domain
 * error and ERANGE for a pole or an overflow, 0 otherwise. */
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "test.h"

#ifdef _UCRT
#define CRT_DLL "ucrtbase.dll"
#else
#define CRT_DLL "msvcrt.dll"
#endif

static HMODULE crt;
static int *(__cdecl *crt_errno)(void);

typedef double(__cdecl *d1)(double);
typedef double(__cdecl *d2)(double, double);
typedef float(__cdecl *f1)(float);
typedef float(__cdecl *f2)(float, float);

static void *fn(const char *name)
{
	void *p = (void *)GetProcAddress(crt, name);

	ok(p != NULL, "%s has no %s\n", CRT_DLL, name);
	return p;
}

static int close_to(double got, double want)
{
	if (isnan(want))
		return isnan(got);
	if (isinf(want))
		return got == want;
	return fabs(got - want) <= 1e-14 * (fabs(want) > 1 ? fabs(want) : 1);
}

static void check1(const char *name, double x, double want, int want_errno)
{
	d1 f = (d1)fn(name);
	double r;
	int e;

	if (!f)
		return;
	*crt_errno() = 0;
	r = f(x);
	e = *crt_errno();
	ok(close_to(r, want) && e == want_errno, "%s(%g) = %.17g errno %d, expected %.17g errno %d\n", name, x, r, e,
	   want, want_errno);
}

static void check2(const char *name, double x, double y, double want, int want_errno)
{
	d2 f = (d2)fn(name);
	double r;
	int e;

	if (!f)
		return;
	*crt_errno() = 0;
	r = f(x, y);
	e = *crt_errno();
	ok(close_to(r, want) && e == want_errno, "%s(%g, %g) = %.17g errno %d, expected %.17g errno %d\n", name, x, y, r,
	   e, want, want_errno);
}

static void check1f(const char *name, float x, float want, int want_errno)
{
	f1 f = (f1)fn(name);
	float r;
	int e;

	if (!f)
		return;
	*crt_errno() = 0;
	r = f(x);
	e = *crt_errno();
	ok((isnan(want) ? isnan(r) : fabsf(r - want) <= 1e-6f * (fabsf(want) > 1 ? fabsf(want) : 1)) && e == want_errno,
	   "%s(%g) = %.9g errno %d, expected %.9g errno %d\n", name, x, r, e, want, want_errno);
}

static void c89(void)
{
	check1("sqrt", 2.25, 1.5, 0);
	check1("sqrt", -1, NAN, EDOM);
	check1("exp", 0, 1, 0);
	check1("exp", 1000, INFINITY, ERANGE);
	check1("log", 1, 0, 0);
	check1("log", 0, -INFINITY, ERANGE);
	check1("log", -1, NAN, EDOM);
	check1("log10", 1000, 3, 0);
	check1("acos", 2, NAN, EDOM);
	check1("asin", 1, M_PI / 2, 0);
	check1("atan", 1, M_PI / 4, 0);
	check1("sin", 0, 0, 0);
	check1("cos", 0, 1, 0);
	check1("tan", 0, 0, 0);
	check1("sinh", 0, 0, 0);
	check1("cosh", 0, 1, 0);
	check1("tanh", 0, 0, 0);
	check1("floor", -2.5, -3, 0);
	check1("ceil", -2.5, -2, 0);
	check1("fabs", -3, 3, 0);
	check2("pow", 2, 10, 1024, 0);
	check2("pow", -8, 1.0 / 3, NAN, EDOM);
	check2("pow", 10, 400, INFINITY, ERANGE);
	check2("atan2", 1, 1, M_PI / 4, 0);
	check2("fmod", 7, 3, 1, 0);
}

static void float_forms(void)
{
	check1f("sqrtf", 6.25f, 2.5f, 0);
	check1f("sqrtf", -1, NAN, EDOM);
	check1f("expf", 0, 1, 0);
	check1f("logf", 1, 0, 0);
	check1f("floorf", 1.5f, 1, 0);
	check1f("ceilf", 1.5f, 2, 0);
	check1f("sinf", 0, 0, 0);
	check1f("cosf", 0, 1, 0);
	check1f("log10f", 100, 2, 0);
	f2 p = (f2)fn("powf");
	if (p)
		ok(p(2, 3) == 8, "powf(2, 3)\n");
}

static void underscore_forms(void)
{
	check2("_hypot", 3, 4, 5, 0);
	check1("_logb", 8, 3, 0);
	check2("_nextafter", 1, 2, 1 + DBL_EPSILON, 0);
	check2("_copysign", 1, -2, -1, 0);
	check1("_chgsign", 1, -1, 0);
	check1("_j0", 0, 1, 0);
	check1("_j1", 0, 0, 0);
	int(__cdecl * finite)(double) = (void *)fn("_finite");
	int(__cdecl * isnan_)(double) = (void *)fn("_isnan");
	if (finite && isnan_)
		ok(finite(1) && !finite(INFINITY) && isnan_(NAN) && !isnan_(1), "_finite/_isnan\n");
}

#ifdef _UCRT
static void c99(void)
{
	check1("cbrt", -27, -3, 0);
	check1("exp2", 3, 8, 0);
	check1("log2", 8, 3, 0);
	check1("expm1", 0, 0, 0);
	check1("log1p", 0, 0, 0);
	check1("log1p", -1, -INFINITY, ERANGE);
	check1("tgamma", 5, 24, 0);
	check1("lgamma", 1, 0, 0);
	check1("erf", 0, 0, 0);
	check1("erfc", 0, 1, 0);
	check1("round", 2.5, 3, 0);
	check1("rint", 2.5, 2, 0);
	check1("nearbyint", 3.5, 4, 0);
	check1("trunc", -2.7, -2, 0);
	check1("acosh", 1, 0, 0);
	check1("acosh", 0.5, NAN, EDOM);
	check1("asinh", 0, 0, 0);
	check1("atanh", 0, 0, 0);
	check1("logb", 8, 3, 0);
	check2("fdim", 5, 3, 2, 0);
	check2("fmax", 1, 2, 2, 0);
	check2("fmin", 1, 2, 1, 0);
	check2("remainder", 5, 3, -1, 0);
	check2("hypot", 3, 4, 5, 0);
	check2("copysign", 3, -0.0, -3, 0);
	check2("nextafter", 1, 0, 1 - DBL_EPSILON / 2, 0);
	/* long double is double: the l forms are the same functions */
	check1("cbrtl", 8, 2, 0);
	check1("roundl", -0.5, -1, 0);
	check1f("cbrtf", 8, 2, 0);
	check1f("roundf", 2.5f, 3, 0);
	check1f("truncf", -1.5f, -1, 0);
	check1f("tanhf", 0, 0, 0);

	double(__cdecl * fma_)(double, double, double) = (void *)fn("fma");
	double(__cdecl * scalbn_)(double, int) = (void *)fn("scalbn");
	int(__cdecl * ilogb_)(double) = (void *)fn("ilogb");
	double(__cdecl * remquo_)(double, double, int *) = (void *)fn("remquo");
	int q = 0;
	/* fenv.h with the UCRT's constants (FE_TOWARDZERO 0x300, FE_INEXACT 1) */
	int(__cdecl * getround)(void) = (void *)fn("fegetround");
	int(__cdecl * setround)(int) = (void *)fn("fesetround");
	int(__cdecl * clearexc)(int) = (void *)fn("feclearexcept");
	int(__cdecl * testexc)(int) = (void *)fn("fetestexcept");
	d1 rint_ = (d1)fn("rint");
	if (getround && setround && clearexc && testexc && rint_) {
		volatile double third = 1.0;

		ok(getround() == 0, "fegetround: %#x\n", getround());
		ok(setround(0x300) == 0 && getround() == 0x300, "fesetround toward zero\n");
		ok(rint_(-2.7) == -2, "rint toward zero\n");
		ok(setround(0x100) == 0 && rint_(2.7) == 2 && rint_(-2.2) == -3, "rint downward\n");
		ok(setround(0) == 0 && rint_(2.5) == 2, "back to nearest\n");
		ok(setround(0x1234) != 0, "fesetround of nonsense\n");
		ok(clearexc(0x1f) == 0 && testexc(0x1f) == 0, "feclearexcept\n");
		third = third / 3.0;
		ok(testexc(0x1f) == 0x01, "1/3 raised %#x, not FE_INEXACT alone\n", testexc(0x1f));
		clearexc(0x1f);
	}
	if (fma_ && scalbn_ && ilogb_ && remquo_) {
		ok(fma_(2, 3, 4) == 10, "fma\n");
		ok(scalbn_(1, 3) == 8, "scalbn\n");
		ok(ilogb_(8) == 3, "ilogb\n");
		ok(remquo_(7, 2, &q) == -1 && (q & 7) == 4, "remquo: q %d\n", q);
	}
}
#endif

#ifdef _UCRT
/* complex.h: _Dcomplex and _Fcomplex are structs of two numbers */
typedef struct {
	double v[2];
} dcx;
typedef struct {
	float v[2];
} fcx;

static int near_cx(dcx z, double re, double im)
{
	return close_to(z.v[0], re) && fabs(z.v[1] - im) < 1e-14;
}

static void complex_forms(void)
{
	dcx(__cdecl * build)(double, double) = (void *)fn("_Cbuild");
	dcx(__cdecl * mulcc)(dcx, dcx) = (void *)fn("_Cmulcc");
	double(__cdecl * cabs_)(dcx) = (void *)fn("cabs");
	double(__cdecl * carg_)(dcx) = (void *)fn("carg");
	double(__cdecl * norm_)(dcx) = (void *)fn("norm");
	dcx(__cdecl * csqrt_)(dcx) = (void *)fn("csqrt");
	dcx(__cdecl * cexp_)(dcx) = (void *)fn("cexp");
	dcx(__cdecl * conj_)(dcx) = (void *)fn("conj");
	dcx(__cdecl * cpow_)(dcx, dcx) = (void *)fn("cpow");
	float(__cdecl * cabsf_)(fcx) = (void *)fn("cabsf");
	fcx(__cdecl * csqrtf_)(fcx) = (void *)fn("csqrtf");
	fcx(__cdecl * fbuild)(float, float) = (void *)fn("_FCbuild");
	fcx f;

	/* Wine's ucrtbase has cabs, _Cmulcc and others only as stubs that
	 * stop the program: checked under ndrun alone */
	if (test_on_wine()) {
		printf("ucrt_math: complex.h not checked under Wine (its ucrtbase lacks cabs, _Cmulcc ...)\n");
		return;
	}
	if (!build || !mulcc || !cabs_ || !carg_ || !norm_ || !csqrt_ || !cexp_ || !conj_ || !cpow_ || !cabsf_ ||
	    !csqrtf_ || !fbuild)
		return;
	ok(near_cx(build(1, 2), 1, 2), "_Cbuild\n");
	ok(near_cx(mulcc(build(1, 2), build(3, 4)), -5, 10), "_Cmulcc\n");
	ok(cabs_(build(3, 4)) == 5, "cabs\n");
	ok(close_to(carg_(build(0, 1)), M_PI / 2), "carg\n");
	ok(norm_(build(3, 4)) == 25, "norm\n");
	ok(near_cx(csqrt_(build(-4, 0)), 0, 2), "csqrt(-4)\n");
	ok(near_cx(cexp_(build(0, M_PI)), -1, 0), "cexp(i pi)\n");
	ok(near_cx(conj_(build(1, 2)), 1, -2), "conj\n");
	ok(near_cx(cpow_(build(0, 1), build(2, 0)), -1, 0), "cpow(i, 2)\n");
	ok(cabsf_(fbuild(3, 4)) == 5, "cabsf\n");
	f = csqrtf_(fbuild(-9, 0));
	ok(fabsf(f.v[0]) < 1e-6f && fabsf(f.v[1] - 3) < 1e-6f, "csqrtf(-9): %g %g\n", f.v[0], f.v[1]);
}
#endif

int main(void)
{
	crt = GetModuleHandleA(CRT_DLL);
	ok(crt != NULL, "%s is not loaded\n", CRT_DLL);
	if (!crt)
		return test_summary();
	crt_errno = (void *)GetProcAddress(crt, "_errno");
	c89();
	float_forms();
	underscore_forms();
#ifdef _UCRT
	c99();
	complex_forms();
#endif
	return test_summary();
}
