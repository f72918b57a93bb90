/* Small functions of the UCRT's utility and math sets that are not
 * glibc's unchanged: byte swaps and rotations, the div family (long is
 * 32-bit here), floating-point classification with Windows' codes, and
 * rand_s from the kernel's random numbers. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <sys/random.h>
#include <unistd.h>

#include "msvcrt/msvcrt_private.h"

unsigned short __cdecl crt__byteswap_ushort(unsigned short v)
{
	return __builtin_bswap16(v);
}

unsigned int __cdecl crt__byteswap_ulong(unsigned int v)
{
	return __builtin_bswap32(v);
}

uint64_t __cdecl crt__byteswap_uint64(uint64_t v)
{
	return __builtin_bswap64(v);
}

unsigned int __cdecl crt__rotl(unsigned int v, int shift)
{
	shift &= 31;
	return shift ? (v << shift) | (v >> (32 - shift)) : v;
}

unsigned int __cdecl crt__rotr(unsigned int v, int shift)
{
	shift &= 31;
	return shift ? (v >> shift) | (v << (32 - shift)) : v;
}

uint64_t __cdecl crt__rotl64(uint64_t v, int shift)
{
	shift &= 63;
	return shift ? (v << shift) | (v >> (64 - shift)) : v;
}

uint64_t __cdecl crt__rotr64(uint64_t v, int shift)
{
	shift &= 63;
	return shift ? (v >> shift) | (v << (64 - shift)) : v;
}

int64_t __cdecl crt_llabs(int64_t v)
{
	return v < 0 ? -v : v;
}

struct crt_div_t __cdecl crt_div(int num, int den)
{
	struct crt_div_t r = { num / den, num % den };
	return r;
}

struct crt_lldiv_t __cdecl crt_lldiv(int64_t num, int64_t den)
{
	struct crt_lldiv_t r = { num / den, num % den };
	return r;
}

/* _dclass / fpclassify codes of Windows' math.h */
#define CRT_FP_INFINITE 1
#define CRT_FP_NAN 2
#define CRT_FP_NORMAL (-1)
#define CRT_FP_SUBNORMAL (-2)
#define CRT_FP_ZERO 0

static short classify(int c)
{
	switch (c) {
	case FP_INFINITE:
		return CRT_FP_INFINITE;
	case FP_NAN:
		return CRT_FP_NAN;
	case FP_SUBNORMAL:
		return CRT_FP_SUBNORMAL;
	case FP_ZERO:
		return CRT_FP_ZERO;
	default:
		return CRT_FP_NORMAL;
	}
}

short __cdecl crt__dclass(double x)
{
	return classify(fpclassify(x));
}

short __cdecl crt__fdclass(float x)
{
	return classify(fpclassify(x));
}

short __cdecl crt__dtest(const double *x)
{
	return crt__dclass(*x);
}

short __cdecl crt__fdtest(const float *x)
{
	return crt__fdclass(*x);
}

int __cdecl crt__dsign(double x)
{
	return signbit(x) ? 0x8000 : 0;
}

int __cdecl crt__finite(double x)
{
	return isfinite(x);
}

int __cdecl crt__isnan(double x)
{
	return isnan(x);
}

double __cdecl crt__chgsign(double x)
{
	return -x;
}

/* The tag selects a NaN payload on some systems; Windows ignores it too. */
double __cdecl crt_nan(const char *tag)
{
	return NAN;
}

/* long is 32-bit: out-of-range results are unspecified, as in C. */
int __cdecl crt_lround(double x)
{
	return (int)lround(x);
}

int64_t __cdecl crt_llround(double x)
{
	return llround(x);
}

int __cdecl crt_lrint(double x)
{
	return (int)lrint(x);
}

int64_t __cdecl crt_llrint(double x)
{
	return llrint(x);
}

/* rand_s: a 32-bit number from the kernel's CSPRNG. */
int __cdecl crt_rand_s(unsigned int *out)
{
	if (!out) {
		crt_set_errno(EINVAL);
		crt_invalid_parameter_noinfo();
		return EINVAL;
	}
	for (;;) {
		ssize_t n = getrandom(out, sizeof(*out), 0);
		if (n == (ssize_t)sizeof(*out))
			return 0;
		if (n < 0 && errno != EINTR) {
			crt_set_errno_host(errno);
			return *crt__errno();
		}
	}
}

int __cdecl crt__getpid(void)
{
	return (int)GetCurrentProcessId();
}

/* _set_abort_behavior: which of abort's actions happen (_WRITE_ABORT_MSG,
 * _CALL_REPORTFAULT); abort here never shows a message box or reports a
 * fault, so only the flags are kept, as the caller may read them back. */
static unsigned int abort_flags = 3;

unsigned int __cdecl crt__set_abort_behavior(unsigned int flags, unsigned int mask)
{
	unsigned int old = abort_flags;
	abort_flags = (abort_flags & ~mask) | (flags & mask);
	return old;
}
