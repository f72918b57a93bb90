/* __CxxFrameHandler4 (vcruntime140_1.dll) on hand-encoded FH4 tables
 * (msvc_fh4_tables.S; clang 14 cannot emit them): catch by type and by
 * reference, catch(...), destructors of locals during unwinding (an
 * object in the frame, one through a pointer, an unwind funclet), a
 * nested try, a rethrow from a catch funclet, continuation addresses
 * returned by the funclet, chosen by its returned index (function-
 * relative and RVA), an exception thrown out of a catch block, and
 * __uncaught_exceptions() in the unwind and in a catch block. */
#include "msvc_test.h"

/* throwing a double makes clang ask for the CRT's floating-point marker */
extern "C" int _fltused = 0;

static char trail[64];
static int trail_len, widget_dtors, thrower_dtors, caught_int = -1, bad_guard, bad_frame;
static const void *rethrown, *caught_widget;
/* __uncaught_exceptions() in the unwind funclet, in guard P's and G's
 * destructors, and in the int catch block */
static int uncaught_unwound = -1, uncaught_p = -1, uncaught_g = -1, uncaught_int = -1;

extern "C" int __cdecl __uncaught_exceptions(void);

static void mark(char c)
{
	if (trail_len < 63)
		trail[trail_len++] = c;
	trail[trail_len] = 0;
}

struct Guard {
	int id;
	int alive;
};

struct Widget {
	int value;
	Widget(int v) : value(v) {}
	Widget(const Widget &o) : value(o.value) {}
	~Widget()
	{
		widget_dtors++;
		mark('x');
	}
};

struct ThrowerGuard {
	~ThrowerGuard() { thrower_dtors++; }
};

extern "C" {
int fh4_run(int mode);

void fh4_guard_init(Guard *g, int id)
{
	g->id = id;
	g->alive = 1;
}

/* the destructor the unwind map names (objects and pointed-to ones) */
void fh4_guard_dtor(Guard *g)
{
	if (!g->alive)
		bad_guard++;
	g->alive = 0;
	if (g->id == 'P')
		uncaught_p = __uncaught_exceptions();
	else if (g->id == 'G')
		uncaught_g = __uncaught_exceptions();
	mark((char)(g->id | 0x20));
}

/* state 3's unwind funclet passes on the frame it was given: fh4_run's */
void fh4_unwound(const char *frame)
{
	const Guard *g = (const Guard *)(frame + 32);

	if (g->id != 'G' || !g->alive)
		bad_frame++;
	uncaught_unwound = __uncaught_exceptions();
	mark('u');
}

__declspec(noinline) void fh4_throw(int mode)
{
	ThrowerGuard t;

	switch (mode) {
	case 1:
		throw 7;
	case 2:
		throw 6;
	case 3:
		throw Widget(5);
	case 4:
		throw 1.5;
	case 5:
		throw Widget(9);
	}
}

void fh4_caught_int(int v)
{
	caught_int = v;
	uncaught_int = __uncaught_exceptions();
	mark('i');
}

void fh4_rethrowing(const Widget *w)
{
	rethrown = w;
	mark('r');
}

/* a Widget of 9 leaves its catch block with a new exception */
void fh4_caught_widget(const Widget *w)
{
	caught_widget = w;
	mark('w');
	if (w->value == 9)
		throw 42;
}

void fh4_caught_all(void)
{
	mark('a');
}
}

static void reset(void)
{
	trail_len = 0;
	trail[0] = 0;
	widget_dtors = 0;
	thrower_dtors = 0;
	caught_int = -1;
	rethrown = caught_widget = 0;
	uncaught_unwound = uncaught_p = uncaught_g = uncaught_int = -1;
}

static void check_trail(int line, const char *want, int todo_wine)
{
	if (strcmp(trail, want)) {
		char buf[128];
		size_t len = 0;

		test_cat(buf, &len, "trail ");
		test_cat(buf, &len, trail);
		test_cat(buf, &len, ", expected ");
		test_cat(buf, &len, want);
		if (todo_wine)
			test_ok_todo_wine(0, line, buf, 0);
		else
			test_ok(0, line, buf, 0);
	} else {
		test_ok(1, line, "", 0);
	}
}

/* Wine 8's FH4 deviates from Windows (from the C++ rules MSVC's runtime
 * follows) where the checks are todo_wine: a frame of an FH3 function
 * (fh4_throw, clang-built) below the FH4 frame that catches does not
 * have its locals destroyed.  What it does with exceptions raised inside
 * FH4 catch funclets (a rethrow, a new throw) crashes the program (it
 * resumes the continuation on the funclet's stack): those parts do not
 * run under Wine, and say so. */
extern "C" void test_main(void)
{
	int r;

	test_prog = "msvc_fh4";

	/* no exception: the locals die in the normal flow */
	reset();
	r = fh4_run(0);
	ok_eq(0, r);
	ok_eq(1, thrower_dtors);
	check_trail(__LINE__, "pg", 0);

	/* int caught by value in the inner try; the funclet returns index 1
	 * for 7 and 0 otherwise: two continuations */
	reset();
	r = fh4_run(1);
	ok_eq(11, r);
	ok_eq(7, caught_int);
	ok_eq(0, uncaught_int);
	ok_eq(0, uncaught_g);
	ok_eq_todo_wine(1, thrower_dtors);
	check_trail(__LINE__, "ipg", 0);
	reset();
	r = fh4_run(2);
	ok_eq(10, r);
	ok_eq(6, caught_int);
	check_trail(__LINE__, "ipg", 0);

	/* a double: no inner catch takes it; the unwind funclet of the inner
	 * try runs, then p dies, then catch(...) */
	reset();
	r = fh4_run(4);
	ok_eq(30, r);
	ok_eq_todo_wine(1, thrower_dtors);
	check_trail(__LINE__, "upag", 0);
	/* the unwind funclet and p's destructor run with the exception
	 * uncaught; g dies after the catch */
	ok_eq(1, uncaught_unwound);
	ok_eq(1, uncaught_p);
	ok_eq(0, uncaught_g);
	ok_eq(0, bad_guard);
	ok_eq(0, bad_frame);

	if (test_on_wine()) {
		ok_todo_wine(0, "exceptions raised in FH4 catch funclets (not run under Wine)");
		exit(test_summary());
	}

	/* Widget: the inner catch rethrows it, the outer one catches it by
	 * reference (the same object); the unwind to the outer try destroys
	 * p through its pointer but does not run the inner try's funclet */
	reset();
	r = fh4_run(3);
	ok_eq(20, r);
	ok(rethrown && rethrown == caught_widget, "the rethrown object is the one caught");
	ok_eq(1, widget_dtors);
	ok_eq(1, thrower_dtors);
	check_trail(__LINE__, "rpwxg", 0);

	/* an int thrown out of the outer catch block leaves fh4_run: the
	 * Widget dies with its catch block, then g */
	reset();
	r = -1;
	try {
		fh4_run(5);
		ok(0, "the exception was not caught");
	} catch (int v) {
		r = v;
	}
	ok_eq(42, r);
	ok_eq(1, widget_dtors);
	check_trail(__LINE__, "rpwxg", 0);
	ok_eq(0, bad_guard);
	ok_eq(0, bad_frame);
	exit(test_summary());
}
