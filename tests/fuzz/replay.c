/* The fuzz target without libFuzzer: run LLVMFuzzerTestOneInput once on
 * each file named, so the host compiler (and the ASan build) replays the
 * corpus and the crash regressions in `make check`.  Prints one line per
 * file; a crash or a sanitizer report kills the run, which fails it. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int main(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		FILE *f = fopen(argv[i], "rb");
		uint8_t *buf = NULL;
		long len;

		if (!f || fseek(f, 0, SEEK_END) || (len = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) ||
		    !(buf = malloc(len ? (size_t)len : 1)) || fread(buf, 1, (size_t)len, f) != (size_t)len) {
			fprintf(stderr, "replay: cannot read %s\n", argv[i]);
			return 2;
		}
		fclose(f);
		LLVMFuzzerTestOneInput(buf, (size_t)len);
		free(buf);
		printf("ok   %s\n", argv[i]);
		fflush(stdout);
	}
	return 0;
}
