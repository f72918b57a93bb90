/* The NDSHIM_DEBUG line format, +relay's lines and filters, and relay
 * thunks called for real: arguments (registers, stack, floating point)
 * arrive intact, the result comes back, errno survives the logging, and
 * with the channel off binding hands out the function itself. */
#include <errno.h>
#include <fcntl.h>
#include <regex.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <cmocka.h>

#include "core/debug.h"
#include "relay.h"

static void test_debug_prefix(void **state)
{
	char buf[128];

	debug_format_prefix(buf, sizeof(buf), 1234567, 0x1a2b, DBCH_loader, "module_load");
	assert_string_equal(buf, "1.234567:1a2b:trace:loader:module_load ");
	debug_format_prefix(buf, sizeof(buf), 42, 0x7, DBCH_nd, "f");
	assert_string_equal(buf, "0.000042:0007:trace:nd:f ");
	debug_format_prefix(buf, sizeof(buf), 3000000, 0x12345, DBCH_relay, NULL);
	assert_string_equal(buf, "3.000000:12345:trace:relay:");
}

static void test_relay_format(void **state)
{
	const uint64_t args[4] = { 0x140005000, 0x80000000, 1, 0 };
	char buf[256];

	relay_format_call(buf, sizeof(buf), "kernel32.dll.CreateFileA", args, 0x140001234);
	assert_string_equal(buf, "Call kernel32.dll.CreateFileA(140005000,80000000,1,0) ret=140001234");
	relay_format_ret(buf, sizeof(buf), "kernel32.dll.CreateFileA", 0x44, 0x140001234);
	assert_string_equal(buf, "Ret  kernel32.dll.CreateFileA() retval=44 ret=140001234");
	relay_format_ret(buf, sizeof(buf), "ws2_32.dll.#115", 0xffffffffffffffffull, 1);
	assert_string_equal(buf, "Ret  ws2_32.dll.#115() retval=ffffffffffffffff ret=1");
}

static void test_relay_filters(void **state)
{
	relay_set_filters(NULL, NULL);
	assert_true(relay_wanted("kernel32.dll", "CreateFileA"));
	assert_true(relay_wanted("ws2_32.dll", NULL));
	/* Frame readers are never wrapped, whatever the lists say. */
	assert_false(relay_wanted("kernel32.dll", "RaiseException"));
	assert_false(relay_wanted("msvcrt.dll", "_setjmp"));
	assert_false(relay_wanted("ntdll.dll", "RtlCaptureContext"));

	relay_set_filters("KERNEL32;msvcrt.dll.printf", NULL);
	assert_true(relay_wanted("kernel32.dll", "CreateFileA"));
	assert_true(relay_wanted("msvcrt.dll", "printf"));
	assert_false(relay_wanted("msvcrt.dll", "puts"));
	assert_false(relay_wanted("ntdll.dll", "RtlAllocateHeap"));

	relay_set_filters(NULL, "kernel32.dll.EnterCriticalSection, LeaveCriticalSection;ntdll");
	assert_false(relay_wanted("kernel32.dll", "EnterCriticalSection"));
	assert_false(relay_wanted("kernel32.dll", "LeaveCriticalSection"));
	assert_false(relay_wanted("ntdll.dll", "RtlAllocateHeap"));
	assert_true(relay_wanted("kernel32.dll", "CreateFileA"));
	assert_true(relay_wanted("msvcrt.dll", "printf"));

	/* Include, then exclude from what it includes. */
	relay_set_filters("kernel32", "kernel32.CloseHandle");
	assert_true(relay_wanted("kernel32.dll", "CreateFileA"));
	assert_false(relay_wanted("kernel32.dll", "CloseHandle"));
	assert_false(relay_wanted("msvcrt.dll", "printf"));
	/* "x.dll" names a DLL, not a function called "dll". */
	relay_set_filters("ws2_32.dll", NULL);
	assert_true(relay_wanted("ws2_32.dll", "bind"));
	assert_false(relay_wanted("kernel32.dll", "dll"));
	relay_set_filters(NULL, NULL);
}

/* Six integer arguments (two on the stack) and a double in XMM2. */
static uint64_t __attribute__((ms_abi, noinline)) target(uint64_t a, uint64_t b, double c, uint64_t d, uint64_t e,
							  uint64_t f)
{
	errno = 1234;
	return a + 2 * b + (uint64_t)(c * 4) + 8 * d + 16 * e + 32 * f;
}

static double __attribute__((ms_abi, noinline)) ftarget(double a, double b)
{
	return a / b;
}

typedef uint64_t(__attribute__((ms_abi)) *target_fn)(uint64_t, uint64_t, double, uint64_t, uint64_t, uint64_t);
typedef double(__attribute__((ms_abi)) *ftarget_fn)(double, double);

static int data_export;

/* stderr into a file while fn runs; returns what was written. */
static char *capture_stderr(void (*fn)(void *), void *arg)
{
	char path[] = "/tmp/ndshim-relay-XXXXXX", *text;
	int fd = mkstemp(path), saved = dup(2);
	long n;

	assert_true(fd >= 0 && saved >= 0);
	unlink(path);
	dup2(fd, 2);
	fn(arg);
	dup2(saved, 2);
	close(saved);
	n = lseek(fd, 0, SEEK_END);
	text = calloc(1, (size_t)n + 1);
	assert_int_equal(pread(fd, text, (size_t)n, 0), n);
	close(fd);
	return text;
}

struct call_result {
	target_fn fn;
	ftarget_fn ffn;
	uint64_t result;
	double fresult;
	int err;
};

static void call_thunks(void *arg)
{
	struct call_result *r = arg;

	errno = 0;
	r->result = r->fn(1, 2, 3.0, 4, 5, 6);
	r->err = errno;
	r->fresult = r->ffn(1.0, 8.0);
}

static void test_relay_thunk(void **state)
{
	struct call_result r = { 0 };
	char *log, want[640];
	regex_t re;
	int n;

	debug_init("-relay");
	relay_set_filters(NULL, NULL);
	/* Off: the function itself, no thunk. */
	assert_ptr_equal(relay_wrap("test.dll", "target", 0, (const void *)target), (const void *)target);

	debug_init("+relay");
	r.fn = (target_fn)relay_wrap("test.dll", "target", 0, (const void *)target);
	r.ffn = (ftarget_fn)relay_wrap("test.dll", NULL, 7, (const void *)ftarget);
	assert_ptr_not_equal((const void *)r.fn, (const void *)target);
	assert_ptr_not_equal((const void *)r.ffn, (const void *)ftarget);
	/* One thunk per function, however often it is bound. */
	assert_ptr_equal(relay_wrap("test.dll", "target", 0, (const void *)target), (const void *)r.fn);
	/* Data exports and frame readers stay as they are. */
	assert_ptr_equal(relay_wrap("test.dll", "data", 0, &data_export), &data_export);
	assert_ptr_equal(relay_wrap("kernel32.dll", "RaiseException", 0, (const void *)target), (const void *)target);

	log = capture_stderr(call_thunks, &r);
	debug_init("-relay");
	assert_int_equal(r.result, 1 + 2 * 2 + 12 + 8 * 4 + 16 * 5 + 32 * 6);
	assert_int_equal(r.err, 1234);
	assert_true(r.fresult == 0.125);

	/* The double rides in XMM2 and its integer slot (R8) is undefined. */
	snprintf(want, sizeof(want),
		 "^[0-9]+\\.[0-9]{6}:%04lx:trace:relay:Call test\\.dll\\.target\\(1,2,[0-9a-f]+,4\\) ret=[0-9a-f]+\n"
		 "[0-9]+\\.[0-9]{6}:%04lx:trace:relay:Ret  test\\.dll\\.target\\(\\) retval=%x ret=[0-9a-f]+\n"
		 "[0-9]+\\.[0-9]{6}:%04lx:trace:relay:Call test\\.dll\\.#7\\([0-9a-f]+,[0-9a-f]+,[0-9a-f]+,[0-9a-f]+\\) "
		 "ret=[0-9a-f]+\n"
		 "[0-9]+\\.[0-9]{6}:%04lx:trace:relay:Ret  test\\.dll\\.#7\\(\\) retval=[0-9a-f]+ ret=[0-9a-f]+\n$",
		 (long)syscall(SYS_gettid), (long)syscall(SYS_gettid), 1 + 4 + 12 + 32 + 80 + 192,
		 (long)syscall(SYS_gettid), (long)syscall(SYS_gettid));
	n = regcomp(&re, want, REG_EXTENDED);
	assert_int_equal(n, 0);
	if (regexec(&re, log, 0, NULL, 0))
		fail_msg("relay lines:\n%s\ndo not match\n%s", log, want);
	regfree(&re);
	free(log);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_debug_prefix),
		cmocka_unit_test(test_relay_format),
		cmocka_unit_test(test_relay_filters),
		cmocka_unit_test(test_relay_thunk),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
