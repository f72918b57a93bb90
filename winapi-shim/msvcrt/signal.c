/* signal/raise with Windows signal numbers.  Handlers are ms_abi and are
 * only called through raise (and abort): hardware faults reach PE code
 * through SEH, and Ctrl-C through the console handler, not through here. */
#include <errno.h>
#include <pthread.h>
#include <unistd.h>

#include "msvcrt/msvcrt_private.h"
#include "core/debug.h"
#include "core/pecall.h"

static pthread_mutex_t sig_lock = PTHREAD_MUTEX_INITIALIZER;
static crt_sighandler_t handlers[CRT_SIGABRT + 1];

static int valid_signal(int sig)
{
	switch (sig) {
	case CRT_SIGINT: case CRT_SIGILL: case CRT_SIGFPE: case CRT_SIGSEGV:
	case CRT_SIGTERM: case CRT_SIGBREAK: case CRT_SIGABRT:
		return 1;
	default:
		return 0;
	}
}

crt_sighandler_t __cdecl crt_signal(int sig, crt_sighandler_t handler)
{
	if (sig == CRT_SIGABRT_COMPAT)
		sig = CRT_SIGABRT;
	if (!valid_signal(sig)) {
		crt_set_errno(EINVAL);
		return CRT_SIG_ERR;
	}
	pthread_mutex_lock(&sig_lock);
	crt_sighandler_t old = handlers[sig];
	handlers[sig] = handler;
	pthread_mutex_unlock(&sig_lock);
	TRACE(msvcrt, "signal %d -> %p\n", sig, (void *)handler);
	return old;
}

/* As in msvcrt, a handler is reset to SIG_DFL before it runs; SIGFPE
 * handlers get the FPE subcode _FPE_EXPLICITGEN (0x8c) as a 2nd argument. */
int __cdecl crt_raise(int sig)
{
	if (sig == CRT_SIGABRT_COMPAT)
		sig = CRT_SIGABRT;
	if (!valid_signal(sig)) {
		crt_set_errno(EINVAL);
		return -1;
	}
	pthread_mutex_lock(&sig_lock);
	crt_sighandler_t h = handlers[sig];
	if (h != CRT_SIG_IGN)
		handlers[sig] = CRT_SIG_DFL;
	pthread_mutex_unlock(&sig_lock);

	if (h == CRT_SIG_IGN)
		return 0;
	if (h == CRT_SIG_DFL) {
		/* msvcrt's default action ends the process with exit code 3 */
		_exit(3);
	}
	if (sig == CRT_SIGFPE)
		PE_CALL2(h, sig, 0x8c);
	else
		PE_CALL1(h, sig);
	return 0;
}
