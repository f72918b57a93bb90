/* complex.h as the UCRT has it: _Dcomplex and _Fcomplex are structs of
 * two numbers ({ re, im }), not C99 complex types (passed and returned as
 * the Windows x64 ABI passes structs: a _Fcomplex in a register, a
 * _Dcomplex through memory), computed with glibc's complex functions.
 * _Lcomplex is _Dcomplex (long double is double): the l forms are the
 * d ones under other names (ucrtbase.spec). */

#include <complex.h>
#include <math.h>

#include "msvcrt/msvcrt_private.h"

struct crt_dcomplex {
	double v[2];
};
struct crt_fcomplex {
	float v[2];
};
_Static_assert(sizeof(struct crt_dcomplex) == 16, "_Dcomplex");
_Static_assert(sizeof(struct crt_fcomplex) == 8, "_Fcomplex");

static double complex from_d(struct crt_dcomplex z)
{
	return CMPLX(z.v[0], z.v[1]);
}

static struct crt_dcomplex to_d(double complex z)
{
	return (struct crt_dcomplex){ { creal(z), cimag(z) } };
}

static float complex from_f(struct crt_fcomplex z)
{
	return CMPLXF(z.v[0], z.v[1]);
}

static struct crt_fcomplex to_f(float complex z)
{
	return (struct crt_fcomplex){ { crealf(z), cimagf(z) } };
}

/* z -> z, for double and float */
#define Z1(name)                                                                                           \
	struct crt_dcomplex __cdecl crt_##name(struct crt_dcomplex z)                                       \
	{                                                                                                  \
		return to_d(name(from_d(z)));                                                              \
	}                                                                                                  \
	struct crt_fcomplex __cdecl crt_##name##f(struct crt_fcomplex z)                                    \
	{                                                                                                  \
		return to_f(name##f(from_f(z)));                                                           \
	}
/* z -> real */
#define R1(name)                                                                                           \
	double __cdecl crt_##name(struct crt_dcomplex z)                                                    \
	{                                                                                                  \
		return name(from_d(z));                                                                    \
	}                                                                                                  \
	float __cdecl crt_##name##f(struct crt_fcomplex z)                                                  \
	{                                                                                                  \
		return name##f(from_f(z));                                                                 \
	}
#include "msvcrt/complexfn.h"
#undef Z1
#undef R1

struct crt_dcomplex __cdecl crt_cpow(struct crt_dcomplex z, struct crt_dcomplex w)
{
	return to_d(cpow(from_d(z), from_d(w)));
}

struct crt_fcomplex __cdecl crt_cpowf(struct crt_fcomplex z, struct crt_fcomplex w)
{
	return to_f(cpowf(from_f(z), from_f(w)));
}

/* |z|^2 (Microsoft's, not C99's) */
double __cdecl crt_norm(struct crt_dcomplex z)
{
	return z.v[0] * z.v[0] + z.v[1] * z.v[1];
}

float __cdecl crt_normf(struct crt_fcomplex z)
{
	return z.v[0] * z.v[0] + z.v[1] * z.v[1];
}

/* Building and multiplying, the operators C has and MSVC's C lacks. */
struct crt_dcomplex __cdecl crt__Cbuild(double re, double im)
{
	return (struct crt_dcomplex){ { re, im } };
}

struct crt_fcomplex __cdecl crt__FCbuild(float re, float im)
{
	return (struct crt_fcomplex){ { re, im } };
}

struct crt_dcomplex __cdecl crt__Cmulcc(struct crt_dcomplex a, struct crt_dcomplex b)
{
	return to_d(from_d(a) * from_d(b));
}

struct crt_dcomplex __cdecl crt__Cmulcr(struct crt_dcomplex a, double b)
{
	return (struct crt_dcomplex){ { a.v[0] * b, a.v[1] * b } };
}

struct crt_fcomplex __cdecl crt__FCmulcc(struct crt_fcomplex a, struct crt_fcomplex b)
{
	return to_f(from_f(a) * from_f(b));
}

struct crt_fcomplex __cdecl crt__FCmulcr(struct crt_fcomplex a, float b)
{
	return (struct crt_fcomplex){ { a.v[0] * b, a.v[1] * b } };
}
