/* Set-up for the msvcrt unit tests: msvcrt calls the real loader and
 * kernel32 (linked in from libndshim.a), so a test gives them a process
 * (command line) and a thread with a TEB first.  Include once per test
 * program. */
#ifndef MSVCRT_TEST_SUPPORT_H
#define MSVCRT_TEST_SUPPORT_H

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "msvcrt/msvcrt_private.h"
#include "loader.h"
#include "process.h"
#include "win32_helper.h"

/* The program is "prog.exe", run with no arguments; the process
 * environment gets FOO=bar and a hidden "=C:" drive entry. */
static int msvcrt_test_setup(void **state)
{
	static char prog[] = "prog.exe";
	char *argv[] = { prog, NULL };

	if (process_init(prog, 1, argv))
		return -1;
	if (win32_test_setup(state))
		return -1;
	if (!SetEnvironmentVariableW(u"FOO", u"bar") || !SetEnvironmentVariableW(u"=C:", u"C:\\dir"))
		return -1;
	return 0;
}

#endif
