/* An exception that would leave an FH4 noexcept function (hand-encoded
 * tables, msvc_fh4_noexcept_tables.S) ends the program through
 * std::terminate (abort: exit code 3) even though a caller has a
 * catch(...), and it does so while searching, as MSVC's runtime does:
 * no destructor below or in the noexcept frame runs. */
#include "msvc_test.h"

struct Loud {
	~Loud() { put_raw("msvc_fh4_noexcept: a local destroyed (wrong)"); }
};

extern "C" {
void fh4_boundary(int v);

void fh4_guard_init(void *g)
{
	(void)g;
}

void fh4_guard_dtor(void *g)
{
	(void)g;
	put_raw("msvc_fh4_noexcept: the noexcept frame's local destroyed (wrong)");
}

__declspec(noinline) void fh4_thrower(int v)
{
	Loud l;

	if (v)
		throw v;
}
}

extern "C" void test_main(void)
{
	test_prog = "msvc_fh4_noexcept";
	put_raw("msvc_fh4_noexcept: throwing");
	try {
		fh4_boundary(1);
	} catch (...) {
		put_raw("msvc_fh4_noexcept: caught past noexcept (wrong)");
	}
	put_raw("msvc_fh4_noexcept: not reached");
	exit(0);
}
