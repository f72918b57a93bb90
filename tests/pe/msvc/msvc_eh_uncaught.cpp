/* A C++ exception that would leave a noexcept function ends the program
 * through __std_terminate (abort: exit code 3) even though a caller has a
 * catch(...): clang guards the noexcept function with a cleanup that
 * calls __std_terminate when the unwind crosses it, after the frames
 * below it were unwound.  Nothing after it runs. */
#include "msvc_test.h"

struct Loud {
	~Loud() { put_raw("msvc_eh_uncaught: local destroyed"); }
};

__declspec(noinline) static void thrower(int v)
{
	Loud l;
	if (v)
		throw v;
}

__declspec(noinline) static void boundary(int v) noexcept
{
	thrower(v);
}

extern "C" void test_main(void)
{
	test_prog = "msvc_eh_uncaught";
	put_raw("msvc_eh_uncaught: throwing");
	try {
		/* through a pointer that drops noexcept, or clang deletes the
		 * try block as unreachable */
		void (*volatile call)(int) = boundary;

		call(1);
	} catch (...) {
		put_raw("msvc_eh_uncaught: caught past noexcept (wrong)");
	}
	put_raw("msvc_eh_uncaught: not reached");
	exit(0);
}
