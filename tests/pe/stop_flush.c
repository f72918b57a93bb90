/* When ndrun stops a program itself, what the program wrote through its C
 * runtime's buffers reaches the file first.  stdout is redirected to a
 * file by the runner, so it is fully buffered and nothing below is
 * written before the stop.  Argument "unimplemented": call a function
 * ndrun does not implement (exit 125); "exception": raise an exception
 * nobody handles.  ndrun-only: Windows (and Wine) end the process at an
 * unhandled exception without flushing, and implement the function. */
#include <stdio.h>
#include <string.h>
#include <windows.h>

int main(int argc, char **argv)
{
	WCHAR buf[16];

	if (argc != 2) {
		fprintf(stderr, "usage: stop_flush unimplemented|exception\n");
		return 2;
	}
	printf("printf before the stop\n");
	puts("puts before the stop");
	fwrite("fwrite before the stop\n", 1, 23, stdout);
	if (!strcmp(argv[1], "unimplemented"))
		GetFirmwareEnvironmentVariableW(L"", L"{00000000-0000-0000-0000-000000000000}", buf, sizeof(buf));
	else
		RaiseException(0xE0000043, EXCEPTION_NONCONTINUABLE, 0, NULL);
	printf("\nnot stopped\n");
	return 0;
}
