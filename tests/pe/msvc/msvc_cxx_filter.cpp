/* vcruntime140's C++ helpers for code outside catch blocks:
 * __CxxExceptionFilter (an SEH filter that catches by C++ type and builds
 * the catch parameter), __CxxDetectRethrow, __CxxQueryExceptionSize and
 * __CxxRegister/UnregisterExceptionObject (the current exception, and
 * when the thrown object dies). */
#include "msvc_test.h"

struct EXCEPTION_RECORD_ {
	unsigned long code, flags;
	EXCEPTION_RECORD_ *next;
	void *address;
	unsigned long nparams;
	unsigned long long info[15];
};

struct EXCEPTION_POINTERS_ {
	EXCEPTION_RECORD_ *record;
	void *context;
};

extern "C" {
int __cdecl __CxxExceptionFilter(void *ep, const void *type, int adjectives, void *object);
int __cdecl __CxxDetectRethrow(void *ep);
unsigned int __cdecl __CxxQueryExceptionSize(void);
int __cdecl __CxxRegisterExceptionObject(void *ep, void *storage);
void __cdecl __CxxUnregisterExceptionObject(void *storage, int rethrow);
int __cdecl __uncaught_exceptions(void);
void **__cdecl __current_exception(void);
void **__cdecl __current_exception_context(void);
void __stdcall RaiseException(unsigned long code, unsigned long flags, unsigned long n, const unsigned long long *args);
}

static int widget_dtors;

struct Widget {
	int value;
	Widget(int v) : value(v) {}
	Widget(const Widget &o) : value(o.value) {}
	~Widget() { widget_dtors++; }
};

/* typeid gives the RTTI type descriptors (type_info is vcruntime's:
 * declared here, as there are no MSVC headers) */
class type_info {
public:
	virtual ~type_info();

private:
	mutable void *data;
	char name[1];
};
namespace std {
using ::type_info;
}

#define td_int ((const void *)&typeid(int))
#define td_widget ((const void *)&typeid(Widget))
/* catch(...): a descriptor with an empty name */
static const struct {
	const void *vtable, *spare;
	char name[8];
} td_all = { 0, 0, "" };

#define HT_REFERENCE 8
#define HT_STD_DOTDOT 0x40

__declspec(noinline) static void throw_int(int v)
{
	throw v;
}

__declspec(noinline) static void throw_widget(int v)
{
	throw Widget(v);
}

__declspec(noinline) static void raise_seh(void)
{
	RaiseException(0xe0001234, 0, 0, 0);
}

/* what one filter call saw */
static int filter_result, built_int;
static Widget *built_ref;

static int filter(EXCEPTION_POINTERS_ *ep, const void *type, int adjectives, void *object)
{
	filter_result = __CxxExceptionFilter(ep, type, adjectives, object);
	return filter_result;
}

/* filter for the thrower's exception with (type, adjectives); returns
 * what the filter said, -1 when nothing caught it */
static int run_filter(void (*thrower)(int), int arg, const void *type, int adjectives, void *object)
{
	filter_result = -1;
	__try {
		__try {
			thrower(arg);
		} __except (filter((EXCEPTION_POINTERS_ *)__exception_info(), type, adjectives, object)) {
		}
	} __except (1) {
	}
	return filter_result;
}

/* Wine 8's __CxxExceptionFilter is a stub that never takes anything
 * (todo_wine where it should) */
static void test_filter(void)
{
	int seh;

	ok_eq_todo_wine(1, run_filter(throw_int, 5, td_int, 0, &built_int));
	ok_eq_todo_wine(5, built_int);
	ok_eq(0, run_filter(throw_int, 5, td_widget, HT_REFERENCE, &built_ref));
	ok_eq_todo_wine(1, run_filter(throw_int, 6, &td_all, 0, 0));
	ok_eq_todo_wine(1, run_filter(throw_int, 6, 0, 0, 0));
	built_ref = 0;
	ok_eq_todo_wine(1, run_filter(throw_widget, 9, td_widget, HT_REFERENCE, &built_ref));
	ok_todo_wine(built_ref != 0, "catch (Widget &) got the object");
	/* an SEH exception: only catch(...) takes it */
	filter_result = -1;
	__try {
		__try {
			raise_seh();
		} __except (filter((EXCEPTION_POINTERS_ *)__exception_info(), td_int, 0, 0)) {
		}
	} __except (1) {
	}
	ok_eq(0, filter_result);
	/* catch(...) takes it, unless it is standard C++'s (HT_IsStdDotDot) */
	seh = -1;
	__try {
		__try {
			raise_seh();
		} __except (seh = __CxxExceptionFilter(__exception_info(), &td_all, 0, 0)) {
		}
	} __except (1) {
	}
	ok_eq_todo_wine(1, seh);
	seh = -1;
	__try {
		__try {
			raise_seh();
		} __except (seh = __CxxExceptionFilter(__exception_info(), &td_all, HT_STD_DOTDOT, 0)) {
		}
	} __except (1) {
	}
	ok_eq(0, seh);
	ok_eq_todo_wine(1, run_filter(throw_int, 6, &td_all, HT_STD_DOTDOT, 0));
	ok_eq(0, __CxxExceptionFilter(0, td_int, 0, 0));
}

__declspec(noinline) static void rethrow_current(int)
{
	throw;
}

/* what __CxxDetectRethrow says of the exception thrower raises */
static int detect(void (*thrower)(int), int arg)
{
	int r = -1;

	__try {
		thrower(arg);
	} __except (r = __CxxDetectRethrow(__exception_info()), 1) {
	}
	return r;
}

/* __CxxDetectRethrow tells `throw;` from a throw.  Wine's answers the
 * opposite (a record with a ThrowInfo is its "rethrow") and then
 * replaces the record the pointers name. */
static void test_detect_rethrow(void)
{
	EXCEPTION_RECORD_ rec = {};
	EXCEPTION_POINTERS_ ep = { &rec, 0 };
	static const int dummy_info = 0;
	int in_catch = -1, new_throw = -1;

	/* records made by hand: Wine's function crashes on them */
	if (test_on_wine()) {
		ok_todo_wine(0, "__CxxDetectRethrow on records made by hand (not run under Wine)");
	} else {
		rec.code = 0xe06d7363;
		rec.flags = 1;
		rec.nparams = 4;
		rec.info[0] = 0x19930520;
		ok_eq(1, __CxxDetectRethrow(&ep));
		rec.info[1] = (unsigned long long)&rec;
		rec.info[2] = (unsigned long long)&dummy_info;
		ok_eq(0, __CxxDetectRethrow(&ep));
		rec.info[2] = 0;
		rec.code = 0xc0000005;
		ok_eq(0, __CxxDetectRethrow(&ep));
		ok_eq(0, __CxxDetectRethrow(0));
	}
	try {
		throw_int(8);
	} catch (int) {
		in_catch = detect(rethrow_current, 0);
		new_throw = detect(throw_int, 9);
	}
	ok_eq_todo_wine(1, in_catch);
	ok_eq_todo_wine(0, new_throw);
}

/* Registering inside the filter, where the thrown object still lives. */
static int reg_ok, reg_current, reg_nested_dtors, reg_dtors, reg_restored, reg_rethrow_dtors;
/* __uncaught_exceptions() in the filter: during the search, once
 * __CxxExceptionFilter took the exception, and once it is registered */
static int reg_uncaught_search, reg_uncaught_taken, reg_uncaught_registered;

static int register_filter(EXCEPTION_POINTERS_ *ep)
{
	unsigned long long outer[8], inner[8];
	void *prev = *__current_exception();

	reg_uncaught_search = __uncaught_exceptions();
	__CxxExceptionFilter(ep, &td_all, HT_STD_DOTDOT, 0);
	reg_uncaught_taken = __uncaught_exceptions();
	reg_ok = __CxxRegisterExceptionObject(ep, outer);
	reg_uncaught_registered = __uncaught_exceptions();
	reg_current = *__current_exception() == ep->record && *__current_exception_context() == ep->context;
	/* registered twice: the inner end leaves the object alive */
	__CxxRegisterExceptionObject(ep, inner);
	__CxxUnregisterExceptionObject(inner, 0);
	reg_nested_dtors = widget_dtors;
	__CxxUnregisterExceptionObject(outer, 0);
	reg_dtors = widget_dtors;
	reg_restored = *__current_exception() == prev;
	return 1;
}

static int rethrow_filter(EXCEPTION_POINTERS_ *ep)
{
	unsigned long long storage[8];

	__CxxRegisterExceptionObject(ep, storage);
	/* rethrown: the object goes on */
	__CxxUnregisterExceptionObject(storage, 1);
	reg_rethrow_dtors = widget_dtors;
	return 1;
}

static void test_register(void)
{
	/* the storage callers allocate: FRAMEINFO and the saved current
	 * exception and context, four pointers on x64 (Wine asks for 16
	 * bytes: its storage layout is its own) */
	ok_eq_todo_wine(32, __CxxQueryExceptionSize());
	ok(__CxxQueryExceptionSize() <= 64, "the storage fits the tests' buffers");

	/* test_filter's filters took exceptions no handler registered:
	 * they stay counted, so count from here */
	int uncaught = __uncaught_exceptions();

	widget_dtors = 0;
	__try {
		throw_widget(3);
	} __except (register_filter((EXCEPTION_POINTERS_ *)__exception_info())) {
	}
	ok_eq(1, reg_ok);
	/* vcruntime counts an exception a filter took until its handler
	 * registers it; the search itself counts nothing (Wine's filter is
	 * a stub, see test_filter) */
	ok_eq(uncaught, reg_uncaught_search);
	ok_eq_todo_wine(uncaught + 1, reg_uncaught_taken);
	ok_eq(uncaught, reg_uncaught_registered);
	ok(reg_current, "the registered exception is the current one");
	ok_eq(0, reg_nested_dtors);
	ok_eq(1, reg_dtors);
	ok(reg_restored, "the previous current exception is back");

	widget_dtors = 0;
	__try {
		throw_widget(4);
	} __except (rethrow_filter((EXCEPTION_POINTERS_ *)__exception_info())) {
	}
	ok_eq(0, reg_rethrow_dtors);
}

extern "C" void test_main(void)
{
	test_prog = "msvc_cxx_filter";
	test_filter();
	test_detect_rethrow();
	test_register();
	exit(test_summary());
}
