/* The code page of the file functions' A forms (fileapi.h: AreFileApisANSI,
 * SetFileApisToANSI, SetFileApisToOEM): per process, ANSI at start; every
 * kernel32 A function that takes or returns a file name converts with
 * core/codepage.h's cp_file().  With the default UTF-8 policy both pages
 * are 65001 and the switch changes nothing a program can see. */
#include "core/codepage.h"
#include "kernel32/kernel32_private.h"

BOOL WINAPI AreFileApisANSI(void)
{
	return !cp_file_is_oem();
}

void WINAPI SetFileApisToANSI(void)
{
	cp_set_file_oem(false);
}

void WINAPI SetFileApisToOEM(void)
{
	cp_set_file_oem(true);
}
