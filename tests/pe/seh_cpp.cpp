// C++ exceptions through the Windows x64 unwinder (mingw's libgcc SEH
// personality on RaiseException/RtlUnwindEx): throw and catch across many
// frames and through another DLL's frames, destructors run (and counted)
// during unwinding, rethrow, nested exceptions, the std::exception
// hierarchy, exceptions thrown and caught on another thread, an
// exception_ptr carried between threads, and catch(...) of a RaiseException
// translated into a C++ exception by a vectored handler.
#include <exception>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "test.h"

static int destroyed;

struct Counted {
	int id;
	explicit Counted(int i) : id(i) {}
	~Counted() { destroyed++; }
};

struct MyError : std::runtime_error {
	int code;
	MyError(const char *what, int c) : std::runtime_error(what), code(c) {}
};

static int __attribute__((noinline)) recurse(int depth, int throw_at)
{
	Counted c(depth);
	if (depth == throw_at)
		throw MyError("deep", depth);
	return recurse(depth + 1, throw_at) + c.id;
}

static void test_many_frames()
{
	destroyed = 0;
	try {
		recurse(0, 50);
		ok(0, "no exception\n");
	} catch (const MyError &e) {
		ok(e.code == 50, "code %d\n", e.code);
		ok(std::string(e.what()) == "deep", "what %s\n", e.what());
	}
	// Rule: every frame between throw and catch destroys its locals.
	ok(destroyed == 51, "destroyed %d\n", destroyed);
}

static int throwing_callback(int v)
{
	Counted c(v);
	throw v * 10;
}

static void test_through_dll()
{
	HMODULE dll = LoadLibraryA("sehdll.dll");
	typedef int (*call_fn)(int (*)(int), int);
	call_fn call;

	ok(dll != NULL, "LoadLibrary error %lu\n", GetLastError());
	if (!dll)
		return;
	call = (call_fn)(void *)GetProcAddress(dll, "sehdll_call");
	destroyed = 0;
	try {
		call(throwing_callback, 4);
		ok(0, "no exception\n");
	} catch (int v) {
		ok(v == 50, "caught %d\n", v);
	}
	ok(destroyed == 1, "destroyed %d\n", destroyed);
}

static void test_rethrow()
{
	int outer = 0;
	const void *first = nullptr, *second = nullptr;

	destroyed = 0;
	try {
		try {
			Counted c(1);
			throw MyError("again", 7);
		} catch (MyError &e) {
			first = &e;
			e.code++;
			throw;
		}
	} catch (const MyError &e) {
		second = &e;
		outer = e.code;
	}
	// Rule: throw; rethrows the same object, not a copy.
	ok(outer == 8, "code %d\n", outer);
	ok(first == second, "object %p then %p\n", first, second);
	ok(destroyed == 1, "destroyed %d\n", destroyed);
}

static void test_nested()
{
	int inner = 0, outer = 0;

	try {
		throw 1;
	} catch (int a) {
		try {
			throw std::string("inner");
		} catch (const std::string &s) {
			inner = s == "inner" ? a + 1 : -1;
		}
		// The first exception is still the current one here.
		try {
			throw;
		} catch (int b) {
			outer = b;
		}
	}
	ok(inner == 2, "inner %d\n", inner);
	ok(outer == 1, "outer %d\n", outer);

	// std::throw_with_nested keeps the cause.
	std::string chain;
	try {
		try {
			throw std::out_of_range("cause");
		} catch (...) {
			std::throw_with_nested(std::runtime_error("effect"));
		}
	} catch (const std::runtime_error &e) {
		chain = e.what();
		try {
			std::rethrow_if_nested(e);
		} catch (const std::out_of_range &cause) {
			chain += std::string("<-") + cause.what();
		}
	}
	ok(chain == "effect<-cause", "chain %s\n", chain.c_str());
}

static void test_hierarchy()
{
	std::vector<int> v(3);
	int which = 0;

	try {
		v.at(10);
	} catch (const std::logic_error &e) {
		// out_of_range derives from logic_error.
		which = dynamic_cast<const std::out_of_range *>(&e) ? 1 : 2;
	} catch (...) {
		which = 3;
	}
	ok(which == 1, "which %d\n", which);

	which = 0;
	try {
		throw MyError("mine", 3);
	} catch (const std::logic_error &) {
		which = 1;
	} catch (const std::exception &e) {
		which = std::string(e.what()) == "mine" ? 2 : 3;
	}
	ok(which == 2, "which %d\n", which);

	which = 0;
	try {
		throw 2.5;
	} catch (int) {
		which = 1;
	} catch (double d) {
		which = d == 2.5 ? 2 : 3;
	}
	ok(which == 2, "which %d\n", which);
}

static void test_other_thread()
{
	int caught = 0, thread_destroyed = 0;
	std::exception_ptr carried;

	std::thread t([&] {
		try {
			int before = destroyed;
			try {
				recurse(0, 10);
			} catch (const MyError &e) {
				caught = e.code;
			}
			thread_destroyed = destroyed - before;
			throw std::runtime_error("to main");
		} catch (...) {
			carried = std::current_exception();
		}
	});
	t.join();
	ok(caught == 10, "caught %d\n", caught);
	ok(thread_destroyed == 11, "destroyed %d\n", thread_destroyed);
	try {
		if (carried)
			std::rethrow_exception(carried);
		ok(0, "nothing carried\n");
	} catch (const std::runtime_error &e) {
		ok(std::string(e.what()) == "to main", "what %s\n", e.what());
	}
}

// libgcc's personality lets foreign (non-C++) exceptions pass: catch(...)
// alone does not stop a RaiseException (wine64 agrees: unhandled).  A
// vectored handler can translate one into a C++ throw by resuming in a
// function that throws, called from where the exception was raised.
struct SehError {
	DWORD code;
	ULONG_PTR param;
};

static void __attribute__((noinline)) throw_translated(DWORD code, ULONG_PTR param)
{
	throw SehError{ code, param };
}

static LONG CALLBACK translate(EXCEPTION_POINTERS *ptrs)
{
	EXCEPTION_RECORD *rec = ptrs->ExceptionRecord;
	CONTEXT *ctx = ptrs->ContextRecord;

	if ((rec->ExceptionCode & 0xffff0000) != 0xE0010000)
		return EXCEPTION_CONTINUE_SEARCH;
	// A call frame: the raising point's rip as return address.
	ctx->Rsp -= 8;
	*(DWORD64 *)ctx->Rsp = ctx->Rip;
	ctx->Rip = (DWORD64)throw_translated;
	ctx->Rcx = rec->ExceptionCode;
	ctx->Rdx = rec->NumberParameters ? rec->ExceptionInformation[0] : 0;
	return EXCEPTION_CONTINUE_EXECUTION;
}

static void test_catch_all_raise_exception()
{
	void *handler = AddVectoredExceptionHandler(1, translate);
	DWORD caught = 0;

	destroyed = 0;
	try {
		Counted c(1);
		RaiseException(0xE0011234, 0, 0, NULL);
		ok(0, "RaiseException returned\n");
	} catch (...) {
		try {
			throw;
		} catch (const SehError &e) {
			caught = e.code;
		}
	}
	ok(caught == 0xE0011234, "caught %#lx\n", caught);
	ok(destroyed == 1, "destroyed %d\n", destroyed);

	// Raised inside a DLL, caught in the program.
	HMODULE dll = LoadLibraryA("sehdll.dll");
	typedef void (*raise_fn)(DWORD, ULONG_PTR);
	raise_fn raise = dll ? (raise_fn)(void *)GetProcAddress(dll, "sehdll_raise") : nullptr;
	ULONG_PTR param = 0;
	caught = 0;
	try {
		if (raise)
			raise(0xE0015678, 99);
	} catch (const SehError &e) {
		caught = e.code;
		param = e.param;
	} catch (...) {
		caught = 1;
	}
	ok(caught == 0xE0015678 && param == 99, "caught %#lx param %lu\n", caught, (unsigned long)param);
	ok(RemoveVectoredExceptionHandler(handler), "RemoveVectoredExceptionHandler failed\n");
}

int main()
{
	test_many_frames();
	test_through_dll();
	test_rethrow();
	test_nested();
	test_hierarchy();
	test_other_thread();
	test_catch_all_raise_exception();
	return test_summary();
}
