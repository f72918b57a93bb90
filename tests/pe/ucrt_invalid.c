/* Without a handler of its own, an invalid parameter ends the program as
 * the UCRT's fast-fail does on Windows: exit status 0xc0000409 (low byte 9
 * on Linux).  ndrun names the cause on stderr and flushes what the program
 * had written first, as whenever it stops a program (Windows' fast-fail
 * loses it).  ndrun only: Wine raises 0xc0000417 as an exception instead. */
#define __USE_MINGW_ANSI_STDIO 0

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test.h"

int main(void)
{
	char buf[16];
	const char *volatile fmt = "%n";
	int n;

	/* mingw-w64's start-up code installs a handler that ignores the
	 * report; NULL restores the runtime's default. */
	_set_invalid_parameter_handler(NULL);
	printf("before the invalid call\n");
	/* %n without _set_printf_count_output is an invalid parameter */
	snprintf(buf, sizeof(buf), fmt, &n);
	printf("after the invalid call: the program went on\n");
	return test_summary();
}
