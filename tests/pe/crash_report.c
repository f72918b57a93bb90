/* ndrun's report of an unhandled exception names what a developer needs
 * (ndrun's own output, so ndrun only; tests/pe/crash_report.stderr.grep):
 *  - each frame's module and nearest symbol, from the program's COFF
 *    symbol table (mingw keeps one unless stripped);
 *  - for a fault inside a builtin on memory the program passed, which
 *    builtin it was;
 *  - the full NTSTATUS the program ended with, and the exit status the
 *    shell sees (its low byte: 0xc0000005 gives 5).
 * The program: strlen(NULL) through msvcrt, handled by nobody. */
#include <stdio.h>
#include <windows.h>

static size_t(__cdecl *p_strlen)(const char *);

size_t __attribute__((noinline)) crash_report_faulting_function(const char *s)
{
	return p_strlen(s) + 1;
}

int main(int argc, char **argv)
{
	(void)argv;
	p_strlen = (void *)GetProcAddress(GetModuleHandleA("msvcrt.dll"), "strlen");
	printf("calling strlen(NULL)\n");
	fflush(stdout);
	/* argc is 1: NULL, which the compiler cannot see. */
	printf("%zu\n", crash_report_faulting_function(argc > 5 ? "x" : NULL));
	return 0;
}
