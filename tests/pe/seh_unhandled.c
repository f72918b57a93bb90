/* An exception nobody handles ends the process with the exception code
 * as its exit code (Linux keeps the low 8 bits: 0xE0000042 -> 66), after
 * a report on stderr. */
#include <stdio.h>
#include <windows.h>

int main(void)
{
	ULONG_PTR param = 7;

	printf("raising\n");
	fflush(stdout);
	RaiseException(0xE0000042, EXCEPTION_NONCONTINUABLE, 1, &param);
	printf("RaiseException returned\n");
	return 0;
}
