/* Process start-up: the smallest program that runs the C runtime's
 * start-up and prints, as bench/run times it under ndrun and wine. */
#include <stdio.h>

int main(void)
{
	puts("hello");
	return 0;
}
