/* upper IN OUT: OUT gets IN in upper case.  The Windows program the real
 * ninja build in tests/real runs through CreateProcess. */
#include <ctype.h>
#include <stdio.h>

int main(int argc, char **argv)
{
	FILE *in, *out;
	int c;

	if (argc != 3) {
		fprintf(stderr, "usage: upper IN OUT\n");
		return 2;
	}
	if (!(in = fopen(argv[1], "rb")) || !(out = fopen(argv[2], "wb"))) {
		perror(argv[1]);
		return 1;
	}
	while ((c = fgetc(in)) != EOF)
		fputc(toupper(c), out);
	fclose(in);
	return fclose(out) ? 1 : 0;
}
