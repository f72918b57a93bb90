/* fenv.h as the UCRT defines it (its constants are the _controlfp ones:
 * FE_INEXACT 0x01, FE_UNDERFLOW 0x02, FE_OVERFLOW 0x04, FE_DIVBYZERO
 * 0x08, FE_INVALID 0x10; rounding FE_TONEAREST 0, FE_DOWNWARD 0x100,
 * FE_UPWARD 0x200, FE_TOWARDZERO 0x300), over glibc's, which sets the
 * SSE and x87 units alike.  fenv_t is { _Fe_ctl, _Fe_stat }: the
 * rounding mode and the exceptions raised. */
#include <fenv.h>

#include "msvcrt/msvcrt_private.h"

#define W_INEXACT 0x01
#define W_UNDERFLOW 0x02
#define W_OVERFLOW 0x04
#define W_DIVBYZERO 0x08
#define W_INVALID 0x10
#define W_ALL 0x1f
#define W_ROUND_MASK 0x300

struct crt_fenv {
	unsigned int ctl, stat;
};
_Static_assert(sizeof(struct crt_fenv) == 8, "fenv_t");

static const struct {
	int win, host;
} excepts[] = {
	{ W_INEXACT, FE_INEXACT }, { W_UNDERFLOW, FE_UNDERFLOW }, { W_OVERFLOW, FE_OVERFLOW },
	{ W_DIVBYZERO, FE_DIVBYZERO }, { W_INVALID, FE_INVALID },
};

static int to_host(int w)
{
	int h = 0;

	for (unsigned int i = 0; i < sizeof(excepts) / sizeof(excepts[0]); i++)
		if (w & excepts[i].win)
			h |= excepts[i].host;
	return h;
}

static int to_win(int h)
{
	int w = 0;

	for (unsigned int i = 0; i < sizeof(excepts) / sizeof(excepts[0]); i++)
		if (h & excepts[i].host)
			w |= excepts[i].win;
	return w;
}

static int round_to_host(int w)
{
	switch (w) {
	case 0x000: return FE_TONEAREST;
	case 0x100: return FE_DOWNWARD;
	case 0x200: return FE_UPWARD;
	case 0x300: return FE_TOWARDZERO;
	default: return -1;
	}
}

static int round_to_win(int h)
{
	return h == FE_DOWNWARD ? 0x100 : h == FE_UPWARD ? 0x200 : h == FE_TOWARDZERO ? 0x300 : 0;
}

int __cdecl crt_fegetround(void)
{
	return round_to_win(fegetround());
}

int __cdecl crt_fesetround(int mode)
{
	int h = round_to_host(mode);

	return h < 0 || fesetround(h) ? 1 : 0;
}

int __cdecl crt_fetestexcept(int mask)
{
	return to_win(fetestexcept(to_host(mask & W_ALL)));
}

int __cdecl crt_feclearexcept(int mask)
{
	if (mask & ~W_ALL)
		return 1;
	return feclearexcept(to_host(mask)) ? 1 : 0;
}

/* fexcept_t is an unsigned long (32 bits): the flags themselves. */
int __cdecl crt_fegetexceptflag(unsigned int *flags, int mask)
{
	if (!flags)
		return 1;
	*flags = (unsigned int)crt_fetestexcept(mask);
	return 0;
}

int __cdecl crt_fesetexceptflag(const unsigned int *flags, int mask)
{
	int on, h;

	if (!flags || (mask & ~W_ALL))
		return 1;
	on = to_host((int)*flags & mask);
	h = to_host(mask);
	feclearexcept(h & ~on);
	/* set the flags without trapping: the status bits only */
	if (on) {
		fexcept_t f;

		fegetexceptflag(&f, FE_ALL_EXCEPT);
		f |= (fexcept_t)on;
		fesetexceptflag(&f, FE_ALL_EXCEPT);
	}
	return 0;
}

int __cdecl crt_fegetenv(struct crt_fenv *env)
{
	if (!env)
		return 1;
	env->ctl = (unsigned int)crt_fegetround();
	env->stat = (unsigned int)crt_fetestexcept(W_ALL);
	return 0;
}

int __cdecl crt_fesetenv(const struct crt_fenv *env)
{
	if (!env || crt_fesetround((int)(env->ctl & W_ROUND_MASK)))
		return 1;
	return crt_fesetexceptflag(&env->stat, W_ALL);
}

/* The environment saved and the flags cleared; exceptions never trap
 * here (they are masked by default), so "non-stop" mode is already on. */
int __cdecl crt_feholdexcept(struct crt_fenv *env)
{
	if (crt_fegetenv(env))
		return 1;
	feclearexcept(FE_ALL_EXCEPT);
	return 0;
}

/* _fpreset: the floating-point state a thread starts with under the x64
 * calling convention: MXCSR 0x1F80 (every exception masked, round to
 * nearest, no flags raised) and the x87 control word 0x027F (exceptions
 * masked, 53-bit precision, round to nearest), with the x87 unit
 * re-initialised (FNINIT: empty register stack, no flags). */
void __cdecl crt__fpreset(void)
{
	const unsigned short x87 = 0x027f;
	const unsigned int mxcsr = 0x1f80;

	__asm__ volatile("fninit\n\tfldcw %0" : : "m"(x87));
	__asm__ volatile("ldmxcsr %0" : : "m"(mxcsr));
}
