/* core/filelock: Windows' byte-range rules on OFD locks, as another open
 * file description (another handle, another process) sees them through
 * F_OFD_GETLK: overlapping shared ranges of one handle unlock one at a
 * time, bytes still covered by a range of one's own stay locked, an
 * exclusive range conflicts with its own handle, forget drops all. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <unistd.h>
#include <cmocka.h>

#define WIN32_NO_STATUS
#include "core/file.h"
#include "core/filelock.h"
#include <winternl.h>
#undef WIN32_NO_STATUS
#include <ntstatus.h>

static char path[64];

static int open_rw(void)
{
	int fd = open(path, O_RDWR | O_CLOEXEC);

	assert_true(fd >= 0);
	return fd;
}

/* The lock type another description would run into at [off, off+len):
 * F_UNLCK when none. */
static short probe(int fd, off_t off, off_t len, short want)
{
	struct flock fl = { .l_type = want, .l_whence = SEEK_SET, .l_start = off, .l_len = len };

	assert_int_equal(fcntl(fd, F_OFD_GETLK, &fl), 0);
	return fl.l_type;
}

static int setup(void **state)
{
	int fd;

	snprintf(path, sizeof(path), "/tmp/ndshim-filelock-%d", (int)getpid());
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	assert_true(fd >= 0);
	close(fd);
	return 0;
}

static int teardown(void **state)
{
	unlink(path);
	return 0;
}

static void test_shared_overlaps(void **state)
{
	struct file *f = file_create(open_rw(), FILE_READ_DATA | FILE_WRITE_DATA, 0, true);
	int other = open_rw();

	assert_non_null(f);
	/* [0,10) and [5,15) shared, through one handle. */
	assert_int_equal(filelock_try(f, 0, 10, false), STATUS_SUCCESS);
	assert_int_equal(filelock_try(f, 5, 10, false), STATUS_SUCCESS);
	assert_int_equal(probe(other, 0, 15, F_WRLCK), F_RDLCK);
	assert_int_equal(probe(other, 0, 15, F_RDLCK), F_UNLCK);
	/* An exclusive range over them conflicts with the handle itself. */
	assert_int_equal(filelock_try(f, 12, 1, true), STATUS_LOCK_NOT_GRANTED);
	assert_int_equal(filelock_try(f, 20, 5, true), STATUS_SUCCESS);
	/* Unlocks name ranges exactly. */
	assert_int_equal(filelock_unlock(f, 0, 5), STATUS_RANGE_NOT_LOCKED);
	assert_int_equal(filelock_unlock(f, 0, 10), STATUS_SUCCESS);
	/* [0,5) is free now; [5,15) still held. */
	assert_int_equal(probe(other, 0, 5, F_WRLCK), F_UNLCK);
	assert_int_equal(probe(other, 5, 1, F_WRLCK), F_RDLCK);
	assert_int_equal(probe(other, 14, 1, F_WRLCK), F_RDLCK);
	assert_int_equal(probe(other, 22, 1, F_RDLCK), F_WRLCK);
	/* The same range twice needs two unlocks. */
	assert_int_equal(filelock_try(f, 5, 10, false), STATUS_SUCCESS);
	assert_int_equal(filelock_unlock(f, 5, 10), STATUS_SUCCESS);
	assert_int_equal(probe(other, 5, 10, F_WRLCK), F_RDLCK);
	assert_int_equal(filelock_unlock(f, 5, 10), STATUS_SUCCESS);
	assert_int_equal(probe(other, 0, 20, F_WRLCK), F_UNLCK);
	assert_int_equal(filelock_unlock(f, 5, 10), STATUS_RANGE_NOT_LOCKED);
	/* Zero bytes: recorded, conflicting with nothing. */
	assert_int_equal(filelock_try(f, 21, 0, true), STATUS_SUCCESS);
	assert_int_equal(filelock_unlock(f, 21, 0), STATUS_SUCCESS);
	/* Forgetting drops everything. */
	filelock_forget(f);
	assert_int_equal(probe(other, 0, 0, F_WRLCK), F_UNLCK);
	assert_int_equal(filelock_unlock(f, 20, 5), STATUS_RANGE_NOT_LOCKED);
	object_unref(&f->obj);
	close(other);
}

static void test_two_descriptions(void **state)
{
	struct file *a = file_create(open_rw(), FILE_READ_DATA | FILE_WRITE_DATA, 0, true);
	struct file *b = file_create(open_rw(), FILE_READ_DATA | FILE_WRITE_DATA, 0, true);

	assert_int_equal(filelock_try(a, 100, 10, true), STATUS_SUCCESS);
	assert_int_equal(filelock_try(b, 105, 1, false), STATUS_LOCK_NOT_GRANTED);
	assert_int_equal(filelock_try(b, 110, 1, true), STATUS_SUCCESS);
	/* Offsets past Linux's largest are cut, not refused. */
	assert_int_equal(filelock_try(b, 0x7ffffffffffffff0ull, 0x100, true), STATUS_SUCCESS);
	assert_int_equal(filelock_try(a, 0x7ffffffffffffff8ull, 1, false), STATUS_LOCK_NOT_GRANTED);
	assert_int_equal(filelock_try(a, ~0ull, 2, false), STATUS_INVALID_LOCK_RANGE);
	/* The last handle closing lets the other in. */
	object_unref(&a->obj);
	assert_int_equal(filelock_try(b, 100, 5, true), STATUS_SUCCESS);
	object_unref(&b->obj);
}

/* What the Win32 functions report for these statuses. */
static void test_errors(void **state)
{
	assert_int_equal(RtlNtStatusToDosError(STATUS_LOCK_NOT_GRANTED), ERROR_LOCK_VIOLATION);
	assert_int_equal(RtlNtStatusToDosError(STATUS_FILE_LOCK_CONFLICT), ERROR_LOCK_VIOLATION);
	assert_int_equal(RtlNtStatusToDosError(STATUS_RANGE_NOT_LOCKED), ERROR_NOT_LOCKED);
	assert_int_equal(RtlNtStatusToDosError(STATUS_INVALID_LOCK_RANGE), ERROR_INVALID_LOCK_RANGE);
	/* The table's neighbours are still found (it is searched by halves). */
	assert_int_equal(RtlNtStatusToDosError(STATUS_SHARING_VIOLATION), ERROR_SHARING_VIOLATION);
	assert_int_equal(RtlNtStatusToDosError(STATUS_INVALID_DEVICE_STATE), ERROR_BAD_COMMAND);
	assert_int_equal(RtlNtStatusToDosError(STATUS_INVALID_BUFFER_SIZE), ERROR_INVALID_USER_BUFFER);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_shared_overlaps),
		cmocka_unit_test(test_two_descriptions),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
