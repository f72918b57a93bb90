/* The C math functions (mathfn.h): glibc's, called from ms_abi, with a
 * domain or range error reported in the CRT's errno as Windows' runtimes
 * report it (sqrt(-1): EDOM; exp(1000), log(0): ERANGE).  glibc's own
 * errno is left as it was. */
#include <errno.h>
#include <math.h>

#include "msvcrt/msvcrt_private.h"

/* glibc's function itself, through a pointer the compiler cannot see
 * through: gcc would inline rint, floor and the like as arithmetic that
 * assumes round-to-nearest, and fesetround (fenv.c) must reach them. */
#define M(ret, name, params, args)                                                                         \
	ret __cdecl crt_##name params                                                                      \
	{                                                                                                  \
		ret(*volatile fn) params = name;                                                           \
		int saved = errno;                                                                         \
		ret r;                                                                                     \
		errno = 0;                                                                                 \
		r = fn args;                                                                               \
		if (errno)                                                                                 \
			crt_set_errno_host(errno);                                                         \
		errno = saved;                                                                             \
		return r;                                                                                  \
	}
#include "msvcrt/mathfn.h"
#undef M

/* scalbln's long is 32 bits on Windows */
double __cdecl crt_scalbln(double x, int n)
{
	return crt_scalbn(x, n);
}

float __cdecl crt_scalblnf(float x, int n)
{
	return crt_scalbnf(x, n);
}

/* The float forms of lrint, lround (long: 32 bits), llrint, llround. */
int __cdecl crt_lrintf(float x)
{
	return (int)lrintf(x);
}

int __cdecl crt_lroundf(float x)
{
	return (int)lroundf(x);
}

int64_t __cdecl crt_llrintf(float x)
{
	return llrintf(x);
}

int64_t __cdecl crt_llroundf(float x)
{
	return llroundf(x);
}

float __cdecl crt_nanf(const char *tag)
{
	(void)tag;
	return NAN;
}
