/* The invalid-parameter handler: what the CRT's checked functions (the _s
 * family, printf's refused %n, ...) call before returning EINVAL/ERANGE.
 * Without a handler of the program's own, the UCRT ends the process with
 * a fast-fail (STATUS_STACK_BUFFER_OVERRUN, FAST_FAIL_INVALID_ARG); the
 * program never sees the call return. */
#include <errno.h>
#include <stdatomic.h>
#include <unistd.h>

#include "msvcrt/msvcrt_private.h"
#include "core/debug.h"
#include "core/pecall.h"

static _Atomic(crt_invalid_handler) handler;

crt_invalid_handler __cdecl crt__set_invalid_parameter_handler(crt_invalid_handler h)
{
	return atomic_exchange(&handler, h);
}

crt_invalid_handler __cdecl crt__get_invalid_parameter_handler(void)
{
	return atomic_load(&handler);
}

void __cdecl crt__invalid_parameter(const WCHAR *expr, const WCHAR *func, const WCHAR *file, unsigned int line,
				    uintptr_t reserved)
{
	crt_invalid_handler h = atomic_load(&handler);
	static const char msg[] = "ndrun: invalid parameter passed to a C runtime function; "
				  "the program has no handler (_set_invalid_parameter_handler): stopping it\n";

	if (h) {
		PE_CALL5(h, expr, func, file, line, reserved);
		return;
	}
	if (write(2, msg, sizeof(msg) - 1) < 0) {
		/* nothing left to report to */
	}
	crt_flush_all_streams();
	ExitProcess(STATUS_STACK_BUFFER_OVERRUN);
}

void crt_invalid_parameter_noinfo(void)
{
	crt__invalid_parameter(NULL, NULL, NULL, 0, 0);
}

int crt_invalid_arg(void)
{
	crt_set_errno(EINVAL);
	crt_invalid_parameter_noinfo();
	return -1;
}

void __cdecl crt__invalid_parameter_noinfo(void)
{
	crt_invalid_parameter_noinfo();
}

/* Called where returning is impossible: after a handler returns, the
 * default action (the fast-fail) still happens. */
void __cdecl crt__invalid_parameter_noinfo_noreturn(void)
{
	crt_invalid_parameter_noinfo();
	ExitProcess(STATUS_STACK_BUFFER_OVERRUN);
}
