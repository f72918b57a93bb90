/* MSVC C++ exception handling (__CxxFrameHandler3, _CxxThrowException,
 * STATUS_UNWIND_CONSOLIDATE): what catches what, the catch parameter's
 * construction, destructors during unwinding, rethrow, nesting, and
 * exceptions thrown out of catch blocks. */
/* The same program is also linked against msvcrt.dll's C++ support
 * instead of vcruntime140's (msvc_eh_msvcrt, tests/pe/rules.mk). */
#ifndef MSVC_EH_NAME
#define MSVC_EH_NAME "msvc_eh"
#endif
#include "msvc_test.h"

/* handler order is what some tests check */
#pragma clang diagnostic ignored "-Wexceptions"

static int ctor_count, copy_count, dtor_count;
static char trail[64];
static int trail_len;

static void mark(char c)
{
	if (trail_len < 63)
		trail[trail_len++] = c;
	trail[trail_len] = 0;
}

static void reset(void)
{
	ctor_count = copy_count = dtor_count = 0;
	trail_len = 0;
	trail[0] = 0;
}

struct Base {
	int value;
	Base(int v) : value(v) { ctor_count++; }
	Base(const Base &o) : value(o.value) { copy_count++; }
	virtual ~Base() { dtor_count++; }
	virtual int kind() const { return 1; }
};

struct Derived : Base {
	int extra;
	Derived(int v) : Base(v), extra(v * 2) {}
	Derived(const Derived &o) : Base(o), extra(o.extra) {}
	int kind() const override { return 2; }
};

/* a second base at a non-zero offset: catching by it adjusts the pointer */
struct Other {
	int tag;
	Other() : tag(77) {}
	virtual ~Other() {}
};

struct Multi : Derived, Other {
	Multi(int v) : Derived(v) {}
};

/* a virtual base: reached through the vbtable, copied with the
 * most-derived flag */
struct VBase {
	int x;
	VBase() : x(5) {}
	virtual ~VBase() {}
};

struct Left : virtual VBase {
	int l = 1;
};

struct Right : virtual VBase {
	int r = 2;
};

struct Diamond : Left, Right {
	int d = 3;
	Diamond() { x = 55; }
	Diamond(const Diamond &o) : VBase(o), Left(o), Right(o), d(o.d + 100) { copy_count++; }
};

/* what std::exception looks like to a catch block */
struct my_exception {
	virtual ~my_exception() {}
	virtual const char *what() const { return "my_exception"; }
};

struct my_runtime_error : my_exception {
	const char *msg;
	my_runtime_error(const char *m) : msg(m) {}
	const char *what() const override { return msg; }
};

struct Guard {
	char c;
	Guard(char c) : c(c) {}
	~Guard() { mark(c); }
};

static volatile int zero;

__declspec(noinline) static void throw_int(int v)
{
	Guard g('a');
	if (v + zero)
		throw v;
}

__declspec(noinline) static void throw_derived(int v)
{
	Guard g1('1');
	{
		Guard g2('2');
		if (v + zero)
			throw Derived(v);
	}
}

__declspec(noinline) static void deep(int n)
{
	Guard g((char)('A' + n));
	if (n <= 0) {
		throw_derived(9);
		return;
	}
	deep(n - 1);
}

static void test_basic(void)
{
	int caught = 0;

	reset();
	try {
		throw_int(42);
	} catch (int v) {
		caught = v;
	}
	ok_eq(42, caught);
	ok(!strcmp(trail, "a"), "the thrower's local was destroyed");

	caught = 0;
	try {
		throw_int(5);
	} catch (long) {
		caught = -1;
	} catch (unsigned int) {
		caught = -2;
	} catch (int &v) {
		caught = v + 1;
	}
	ok_eq(6, caught);
}

static void test_classes(void)
{
	int kind = 0, value = 0;

	reset();
	try {
		throw_derived(3);
	} catch (Base &b) {
		kind = b.kind();
		value = b.value;
		ok_eq(0, copy_count);
	}
	ok_eq(2, kind);
	ok_eq(3, value);
	ok(!strcmp(trail, "21"), "inner guard first, then outer");
	ok_eq(1, ctor_count);
	ok_eq(1, dtor_count);

	/* by value: the parameter is copy-constructed as the catch type */
	reset();
	try {
		throw_derived(4);
	} catch (Base b) {
		kind = b.kind();
		value = b.value;
	}
	ok_eq(1, kind);
	ok_eq(4, value);
	ok_eq(1, copy_count);
	ok_eq(2, dtor_count);

	reset();
	try {
		throw_derived(5);
	} catch (Derived d) {
		kind = d.kind();
		value = d.extra;
	}
	ok_eq(2, kind);
	ok_eq(10, value);

	/* the nearest matching handler in order, not the best match */
	reset();
	try {
		throw_derived(6);
	} catch (Other &) {
		kind = -1;
	} catch (const Base &b) {
		kind = 10 + b.kind();
	} catch (Derived &) {
		kind = -2;
	}
	ok_eq(12, kind);

	/* a base at an offset */
	reset();
	try {
		throw Multi(8);
	} catch (Other &o) {
		value = o.tag;
	}
	ok_eq(77, value);
}

static void test_virtual_base(void)
{
	int value = 0;

	reset();
	try {
		throw Diamond();
	} catch (VBase &v) {
		value = v.x;
	}
	ok_eq(55, value);

	try {
		throw Diamond();
	} catch (Right &r) {
		value = r.r + r.x;
	}
	ok_eq(57, value);

	try {
		throw Diamond();
	} catch (Diamond d) {
		value = d.d + d.x + d.l + d.r;
	}
	ok_eq(161, value);
	ok_eq(1, copy_count);
}

static void test_pointers(void)
{
	Derived *thrown = new Derived(11);
	const char *str = 0;
	int value = 0;

	try {
		throw thrown;
	} catch (Base *b) {
		value = b->value;
		ok(b == static_cast<Base *>(thrown), "pointer to base");
	}
	ok_eq(11, value);
	delete thrown;

	Multi *m = new Multi(12);
	try {
		throw m;
	} catch (Other *o) {
		ok(o == static_cast<Other *>(m), "pointer adjusted to the second base");
		value = o->tag;
	}
	ok_eq(77, value);
	delete m;

	/* a pointer to const does not bind to a pointer to non-const */
	try {
		throw "text";
	} catch (char *) {
		value = -1;
	} catch (const char *s) {
		str = s;
		value = 1;
	}
	ok_eq(1, value);
	ok(str && !strcmp(str, "text"), "string thrown by pointer");
}

static void test_catch_all_and_std(void)
{
	int got = 0;
	const char *what = 0;

	try {
		throw 1.0f == 1.0f ? 3 : 4;
	} catch (...) {
		got = 1;
	}
	ok_eq(1, got);

	try {
		throw my_runtime_error("boom");
	} catch (const my_exception &e) {
		what = e.what();
	}
	ok(what && !strcmp(what, "boom"), "what() of a derived exception");
}

static void test_unwind_deep(void)
{
	int value = 0;

	reset();
	try {
		Guard outer('o');
		deep(3);
	} catch (Derived &d) {
		value = d.value;
		mark('c');
	}
	ok_eq(9, value);
	ok(!strcmp(trail, "21ABCDoc"), "every frame's locals, innermost first, before the catch");
}

__declspec(noinline) static void rethrower(void **seen)
{
	try {
		throw_derived(21);
	} catch (Base &b) {
		*seen = &b;
		mark('r');
		throw;
	}
}

static void test_rethrow(void)
{
	void *seen = 0;
	int value = 0;

	reset();
	try {
		rethrower(&seen);
	} catch (Derived &d) {
		ok(seen == &d, "the same object is rethrown");
		value = d.value;
		ok_eq(0, dtor_count);
	}
	ok_eq(21, value);
	ok_eq(1, ctor_count);
	ok_eq(0, copy_count);
	ok_eq(1, dtor_count);

	/* rethrow from catch(...) inside a catch: nested handlers */
	reset();
	try {
		try {
			throw Derived(22);
		} catch (...) {
			try {
				throw;
			} catch (Base &b) {
				value = b.value;
			}
			ok_eq(0, dtor_count);
			throw;
		}
	} catch (Derived &d) {
		value += d.value;
	}
	ok_eq(44, value);
	ok_eq(1, dtor_count);
}

__declspec(noinline) static int throw_from_catch(void)
{
	Guard g('f');
	try {
		throw 1;
	} catch (int) {
		Guard g2('g');
		throw Derived(31);
	}
	return 0;
}

static void test_throw_from_catch(void)
{
	int value = 0;

	reset();
	try {
		throw_from_catch();
	} catch (Base &b) {
		value = b.value;
	}
	ok_eq(31, value);
	ok(!strcmp(trail, "gf"), "the catch block's local, then the function's");
	ok_eq(1, dtor_count);

	/* caught by an enclosing try of the same function */
	reset();
	value = 0;
	try {
		Guard g('x');
		try {
			throw 5;
		} catch (int v) {
			Guard g2('y');
			throw Derived(v);
		}
	} catch (Derived &d) {
		value = d.value;
		mark('z');
	}
	ok_eq(5, value);
	ok(!strcmp(trail, "yxz"), "the catch's local, the try's local, then the outer catch");
	ok_eq(1, dtor_count);
}

static void test_nested(void)
{
	int where = 0;

	try {
		try {
			throw_int(7);
		} catch (Base &) {
			where = 1;
		}
		where = 2;
	} catch (int v) {
		where = 100 + v;
	}
	ok_eq(107, where);

	/* the thrown object dies once the catch block is done */
	reset();
	try {
		throw Derived(1);
	} catch (const Derived &) {
		ok_eq(0, dtor_count);
	}
	ok_eq(1, dtor_count);

	/* a loop of throws: no state left behind */
	int sum = 0;
	for (int i = 0; i < 1000; i++) {
		try {
			throw_int(i + 1);
		} catch (int v) {
			sum += v;
		}
	}
	ok_eq(500500, sum);
}

extern "C" void test_main(void)
{
	test_prog = MSVC_EH_NAME;
	test_basic();
	test_classes();
	test_pointers();
	test_virtual_base();
	test_catch_all_and_std();
	test_unwind_deep();
	test_rethrow();
	test_throw_from_catch();
	test_nested();
	exit(test_summary());
}
