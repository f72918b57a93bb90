/* Helpers for the msvcrt unit tests: weak stand-ins for the loader and
 * kernel32 functions msvcrt calls, so the tests link and run on their own
 * (the real ones, when linked in, take precedence), plus the inputs the
 * stand-ins serve.  Include once per test program. */
#ifndef MSVCRT_TEST_SUPPORT_H
#define MSVCRT_TEST_SUPPORT_H

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "msvcrt/msvcrt_private.h"
#include "loader.h"

static const WCHAR *msvcrt_test_cmdline_w = u"prog.exe";
static const char *msvcrt_test_cmdline_a = "prog.exe";
/* a Windows environment block: '='-entries are hidden from the CRT */
static const WCHAR msvcrt_test_env[] = u"=C:=C:\\dir\0Path=C:\\bin\0FOO=bar\0\0";

__attribute__((weak)) const WCHAR *loader_command_line_w(void)
{
	return msvcrt_test_cmdline_w;
}

__attribute__((weak)) const char *loader_command_line_a(void)
{
	return msvcrt_test_cmdline_a;
}

__attribute__((weak)) LPWSTR WINAPI GetEnvironmentStringsW(void)
{
	WCHAR *copy = malloc(sizeof(msvcrt_test_env));
	memcpy(copy, msvcrt_test_env, sizeof(msvcrt_test_env));
	return copy;
}

__attribute__((weak)) BOOL WINAPI FreeEnvironmentStringsW(LPWSTR block)
{
	free(block);
	return TRUE;
}

__attribute__((weak)) void WINAPI ExitProcess(UINT code)
{
	_exit(code);
}

__attribute__((weak)) HANDLE WINAPI CreateThread(SECURITY_ATTRIBUTES *sa, SIZE_T stack,
						 LPTHREAD_START_ROUTINE start, void *arg,
						 DWORD flags, DWORD *tid)
{
	return NULL; /* the unit tests start no threads */
}

__attribute__((weak)) void WINAPI ExitThread(DWORD code)
{
	_exit(100);
}

#endif
