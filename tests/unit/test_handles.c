/* The handle table and handleapi: lookups, types, reuse, invalid values,
 * close protection, DuplicateHandle. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "core/handle.h"
#include "core/sync.h"
#include "core/thread.h"
#include "core/wait.h"
#include "win32_helper.h"

static HANDLE garbage[] = {
	NULL, INVALID_HANDLE_VALUE, (HANDLE)(LONG_PTR)-3, (HANDLE)1, (HANDLE)2, (HANDLE)0x12344,
	(HANDLE)0x7ffffffc, (HANDLE)(uintptr_t)0xdeadbeefcafe0000ull, (HANDLE)(LONG_PTR)-8,
};

static void test_values_are_multiples_of_4(void **state)
{
	HANDLE a = CreateEventA(NULL, TRUE, FALSE, NULL);
	HANDLE b = CreateEventA(NULL, TRUE, FALSE, NULL);

	assert_non_null(a);
	assert_non_null(b);
	assert_int_equal((uintptr_t)a & 3, 0);
	assert_int_equal((uintptr_t)b & 3, 0);
	assert_ptr_not_equal(a, b);
	assert_true(CloseHandle(a));
	assert_true(CloseHandle(b));
}

static void test_invalid_handles_fail_cleanly(void **state)
{
	DWORD flags;

	for (size_t i = 0; i < sizeof(garbage) / sizeof(garbage[0]); i++) {
		HANDLE h = garbage[i];

		SetLastError(0xdead);
		assert_false(SetEvent(h));
		assert_int_equal(GetLastError(), ERROR_INVALID_HANDLE);
		SetLastError(0xdead);
		assert_false(GetHandleInformation(h, &flags));
		assert_int_equal(GetLastError(), ERROR_INVALID_HANDLE);
		SetLastError(0xdead);
		assert_false(ReleaseSemaphore(h, 1, NULL));
		assert_int_equal(GetLastError(), ERROR_INVALID_HANDLE);
		if (h == INVALID_HANDLE_VALUE) {
			/* == GetCurrentProcess(): closing it is a no-op that
			 * succeeds, and waiting on it times out. */
			assert_true(CloseHandle(h));
			assert_int_equal(WaitForSingleObject(h, 0), WAIT_TIMEOUT);
			continue;
		}
		SetLastError(0xdead);
		assert_false(CloseHandle(h));
		assert_int_equal(GetLastError(), ERROR_INVALID_HANDLE);
		SetLastError(0xdead);
		assert_int_equal(WaitForSingleObject(h, 0), WAIT_FAILED);
		assert_int_equal(GetLastError(), ERROR_INVALID_HANDLE);
	}
}

static void test_closed_handle_is_invalid_and_reused(void **state)
{
	HANDLE a = CreateEventA(NULL, TRUE, FALSE, NULL), b;

	assert_true(CloseHandle(a));
	SetLastError(0);
	assert_false(CloseHandle(a));
	assert_int_equal(GetLastError(), ERROR_INVALID_HANDLE);
	assert_false(SetEvent(a));
	b = CreateSemaphoreA(NULL, 0, 1, NULL);
	assert_ptr_equal(a, b); /* the freed slot comes back first */
	/* ... and now names a semaphore, not the old event. */
	SetLastError(0);
	assert_false(SetEvent(b));
	assert_int_equal(GetLastError(), ERROR_INVALID_HANDLE);
	assert_true(ReleaseSemaphore(b, 1, NULL));
	assert_true(CloseHandle(b));
}

static void test_type_checks(void **state)
{
	HANDLE ev = CreateEventA(NULL, FALSE, FALSE, NULL);
	HANDLE sem = CreateSemaphoreA(NULL, 0, 2, NULL);
	HANDLE mtx = CreateMutexA(NULL, FALSE, NULL);
	DWORD code;

	SetLastError(0);
	assert_false(ReleaseSemaphore(ev, 1, NULL));
	assert_int_equal(GetLastError(), ERROR_INVALID_HANDLE);
	SetLastError(0);
	assert_false(ReleaseMutex(sem));
	assert_int_equal(GetLastError(), ERROR_INVALID_HANDLE);
	SetLastError(0);
	assert_false(ResetEvent(mtx));
	assert_int_equal(GetLastError(), ERROR_INVALID_HANDLE);
	SetLastError(0);
	assert_false(GetExitCodeThread(ev, &code));
	assert_int_equal(GetLastError(), ERROR_INVALID_HANDLE);
	{
		struct object *o = handle_get(ev, NULL);

		assert_non_null(o);
		assert_ptr_equal(o->ops, &event_ops);
		object_unref(o);
		o = handle_get(ev, &event_ops);
		assert_non_null(o);
		object_unref(o);
	}
	assert_null(handle_get(ev, &semaphore_ops));
	CloseHandle(ev);
	CloseHandle(sem);
	CloseHandle(mtx);
}

static void test_flags_and_protect_from_close(void **state)
{
	HANDLE h = CreateEventA(NULL, TRUE, FALSE, NULL);
	DWORD flags = 0xff;

	assert_true(GetHandleInformation(h, &flags));
	assert_int_equal(flags, 0);
	assert_true(SetHandleInformation(h, HANDLE_FLAG_PROTECT_FROM_CLOSE | HANDLE_FLAG_INHERIT,
					 HANDLE_FLAG_PROTECT_FROM_CLOSE));
	assert_true(GetHandleInformation(h, &flags));
	assert_int_equal(flags, HANDLE_FLAG_PROTECT_FROM_CLOSE);
	SetLastError(0);
	assert_false(CloseHandle(h));
	assert_int_equal(GetLastError(), ERROR_INVALID_HANDLE);
	assert_true(SetEvent(h)); /* still open */
	assert_true(SetHandleInformation(h, HANDLE_FLAG_INHERIT, HANDLE_FLAG_INHERIT));
	assert_true(GetHandleInformation(h, &flags));
	assert_int_equal(flags, HANDLE_FLAG_PROTECT_FROM_CLOSE | HANDLE_FLAG_INHERIT);
	assert_true(SetHandleInformation(h, HANDLE_FLAG_PROTECT_FROM_CLOSE, 0));
	assert_true(CloseHandle(h));
	SetLastError(0);
	assert_false(SetHandleInformation(h, HANDLE_FLAG_INHERIT, 0));
	assert_int_equal(GetLastError(), ERROR_INVALID_HANDLE);
}

static void test_duplicate(void **state)
{
	HANDLE ev = CreateEventA(NULL, TRUE, FALSE, NULL), dup = NULL, dup2 = NULL;
	DWORD flags;

	assert_true(DuplicateHandle(GetCurrentProcess(), ev, GetCurrentProcess(), &dup, 0, TRUE,
				    DUPLICATE_SAME_ACCESS));
	assert_non_null(dup);
	assert_ptr_not_equal(dup, ev);
	assert_true(GetHandleInformation(dup, &flags));
	assert_int_equal(flags, HANDLE_FLAG_INHERIT);
	/* Same object: setting through one is seen through the other,
	 * and it outlives the original handle. */
	assert_true(CloseHandle(ev));
	assert_true(SetEvent(dup));
	assert_true(DuplicateHandle(GetCurrentProcess(), dup, GetCurrentProcess(), &dup2, 0, FALSE,
				    DUPLICATE_SAME_ACCESS | DUPLICATE_CLOSE_SOURCE));
	{
		/* The source was closed: one handle left (dup2 may reuse
		 * dup's slot, so count rather than close dup again). */
		struct object *o = handle_get(dup2, &event_ops);

		assert_non_null(o);
		assert_int_equal(atomic_load(&o->handle_count), 1);
		object_unref(o);
	}
	assert_int_equal(WaitForSingleObject(dup2, 0), WAIT_OBJECT_0);
	assert_true(CloseHandle(dup2));

	SetLastError(0);
	assert_false(DuplicateHandle(GetCurrentProcess(), dup2, GetCurrentProcess(), &dup, 0, FALSE,
				     DUPLICATE_SAME_ACCESS));
	assert_int_equal(GetLastError(), ERROR_INVALID_HANDLE);
	SetLastError(0);
	assert_false(DuplicateHandle(GetCurrentProcess(), NULL, GetCurrentProcess(), &dup, 0, FALSE,
				     DUPLICATE_SAME_ACCESS));
	assert_int_equal(GetLastError(), ERROR_INVALID_HANDLE);
	/* Another "process" handle: not supported, refused. */
	ev = CreateEventA(NULL, TRUE, FALSE, NULL);
	SetLastError(0);
	assert_false(DuplicateHandle(ev, ev, GetCurrentProcess(), &dup, 0, FALSE, DUPLICATE_SAME_ACCESS));
	assert_int_equal(GetLastError(), ERROR_INVALID_HANDLE);
	CloseHandle(ev);
}

static void test_duplicate_pseudo_handles(void **state)
{
	HANDLE th = NULL, ph = NULL;
	DWORD code = 0;

	assert_true(DuplicateHandle(GetCurrentProcess(), GetCurrentThread(), GetCurrentProcess(), &th, 0,
				    FALSE, DUPLICATE_SAME_ACCESS));
	assert_ptr_not_equal(th, GetCurrentThread());
	assert_int_equal((uintptr_t)th & 3, 0);
	assert_true(GetExitCodeThread(th, &code));
	assert_int_equal(code, STILL_ACTIVE);
	assert_int_equal(WaitForSingleObject(th, 0), WAIT_TIMEOUT);
	assert_true(SetThreadPriority(th, THREAD_PRIORITY_ABOVE_NORMAL));
	assert_int_equal(GetThreadPriority(GetCurrentThread()), THREAD_PRIORITY_ABOVE_NORMAL);
	assert_true(SetThreadPriority(GetCurrentThread(), THREAD_PRIORITY_NORMAL));
	assert_true(CloseHandle(th));

	assert_true(DuplicateHandle(GetCurrentProcess(), GetCurrentProcess(), GetCurrentProcess(), &ph, 0,
				    FALSE, DUPLICATE_SAME_ACCESS));
	assert_int_equal(WaitForSingleObject(ph, 0), WAIT_TIMEOUT);
	assert_true(CloseHandle(ph));
	assert_true(CloseHandle(GetCurrentThread()));
}

static void test_object_lives_while_referenced(void **state)
{
	struct object *ev = event_create(true, false);
	HANDLE h = handle_create(ev, GENERIC_ALL, 0);

	assert_int_equal(atomic_load(&ev->refcount), 2);
	assert_int_equal(atomic_load(&ev->handle_count), 1);
	assert_true(CloseHandle(h));
	assert_int_equal(atomic_load(&ev->refcount), 1);
	assert_int_equal(atomic_load(&ev->handle_count), 0);
	event_set(ev);
	assert_int_equal(wait_for_objects(1, &ev, false, 0, false), WAIT_OBJECT_0);
	object_unref(ev);
}

struct collected {
	struct object *obj;
	HANDLE *out;
	size_t n;
};

static void collect(HANDLE h, struct object *obj, DWORD access, void *ctx)
{
	struct collected *c = ctx;

	if (obj == c->obj && c->n < 64)
		c->out[c->n++] = h;
}

/* Inherited handles keep the parent's values: handle_create_at takes a
 * given free value (beyond the table or on the free list), refuses a
 * taken one, and the slots it skipped stay usable. */
static void test_create_at_given_value(void **state)
{
	struct object *ev = event_create(true, false);
	HANDLE given = (HANDLE)(uintptr_t)0x4000, h, seen[64];
	size_t n = 0;

	assert_ptr_equal(handle_create_at(given, ev, EVENT_ALL_ACCESS, HANDLE_FLAG_INHERIT), given);
	assert_null(handle_create_at(given, ev, EVENT_ALL_ACCESS, 0));
	assert_int_equal(GetLastError(), ERROR_INVALID_HANDLE);
	assert_null(handle_create_at((HANDLE)(uintptr_t)0x4002, ev, EVENT_ALL_ACCESS, 0));
	assert_true(SetEvent(given));

	/* A value below it, now on the free list, can be taken too. */
	h = CreateEventA(NULL, TRUE, FALSE, NULL);
	assert_non_null(h);
	assert_true(CloseHandle(h));
	assert_ptr_equal(handle_create_at(h, ev, EVENT_ALL_ACCESS, HANDLE_FLAG_INHERIT), h);

	for (int i = 0; i < 40; i++)
		seen[i] = CreateEventA(NULL, FALSE, FALSE, NULL);
	for (int i = 0; i < 40; i++) {
		assert_non_null(seen[i]);
		assert_ptr_not_equal(seen[i], given);
		assert_ptr_not_equal(seen[i], h);
		assert_true(CloseHandle(seen[i]));
	}

	/* handle_for_each finds both by their inherit flag. */
	struct collected c = { ev, seen, 0 };

	handle_for_each(HANDLE_FLAG_INHERIT, collect, &c);
	n = c.n;
	assert_int_equal(n, 2);
	assert_true((seen[0] == h && seen[1] == given) || (seen[0] == given && seen[1] == h));
	assert_true(CloseHandle(given));
	assert_true(CloseHandle(h));
	object_unref(ev);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_values_are_multiples_of_4),
		cmocka_unit_test(test_invalid_handles_fail_cleanly),
		cmocka_unit_test(test_closed_handle_is_invalid_and_reused),
		cmocka_unit_test(test_type_checks),
		cmocka_unit_test(test_flags_and_protect_from_close),
		cmocka_unit_test(test_duplicate),
		cmocka_unit_test(test_duplicate_pseudo_handles),
		cmocka_unit_test(test_object_lives_while_referenced),
		cmocka_unit_test(test_create_at_given_value),
	};
	return cmocka_run_group_tests(tests, win32_test_setup, win32_test_teardown);
}
