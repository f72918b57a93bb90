/* A C++ exception nothing catches, in a program without the CRT's startup
 * code (whose filter would call terminate): the process ends as for any
 * unhandled exception, with the exception code 0xe06d7363 as its exit
 * status (99, its low byte, on Linux); nothing after the throw runs. */
#include "msvc_test.h"

struct Loud {
	~Loud() { puts("msvc_eh_unhandled: destroyed (wrong)"); }
};

__declspec(noinline) static void thrower(int v)
{
	Loud l;
	if (v)
		throw v;
}

extern "C" void test_main(void)
{
	test_prog = "msvc_eh_unhandled";
	thrower(1);
	puts("msvc_eh_unhandled: not reached");
	exit(0);
}
