/* ndrun: run a Windows x86-64 program on Linux. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exit_codes.h"
#include "core/debug.h"

static void usage(FILE *f)
{
	fprintf(f, "Usage: ndrun [--help|--version] PROGRAM.exe [ARGS...]\n");
}

int main(int argc, char **argv)
{
	debug_init(getenv("NDSHIM_DEBUG"));
	if (argc < 2) {
		usage(stderr);
		return NDRUN_EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--help")) {
		usage(stdout);
		return 0;
	}
	if (!strcmp(argv[1], "--version")) {
		printf("ndrun %s\n", NDSHIM_VERSION);
		return 0;
	}
	ndrun_error("%s: loading PE programs is not implemented yet", argv[1]);
	return NDRUN_EXIT_BAD_IMAGE;
}
