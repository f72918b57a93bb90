/* Stopping on an unimplemented case of a function: core/unimpl.h. */
#include <stdarg.h>
#include <stdio.h>
#include <unistd.h>

#include "core/debug.h"
#include "core/unimpl.h"
#include "exit_codes.h"
#include "loader.h"

void unimplemented_case(const char *func, const char *fmt, ...)
{
	char what[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	loader_stop_runtimes();
	ndrun_error("unimplemented function %s called (%s)", func, what);
	_exit(NDRUN_EXIT_UNIMPLEMENTED);
}
