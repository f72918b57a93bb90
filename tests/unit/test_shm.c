/* core/shm: per-user named segments.  One creator wins a race, the name
 * goes with its last holder, and a segment left by a killed holder is
 * recycled rather than taken for a live one. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pthread.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "core/codepage.h"
#include "core/shm.h"
#include "core/wstr.h"
#include "win32_helper.h"

static WCHAR name[64];

static void make_name(const char *tag)
{
	char a[64];
	WCHAR *w;

	snprintf(a, sizeof(a), "Local\\unit_shm_%s_%d", tag, (int)getpid());
	w = utf8_to_utf16_dup(a);
	memcpy(name, w, (wstr_len(w) + 1) * sizeof(WCHAR));
	free(w);
}

static void test_create_open_close(void **state)
{
	char *pa = NULL, *pb = NULL, *kept;
	bool existed = true;
	DWORD err = 0;
	struct stat st;
	int a, b;

	make_name("basic");
	a = shm_open_named("t", name, false, 0, &existed, &err, &pa);
	assert_int_equal(a, -1);
	assert_int_equal(err, ERROR_FILE_NOT_FOUND);
	a = shm_open_named("t", name, true, 12345, &existed, &err, &pa);
	assert_true(a >= 0);
	assert_false(existed);
	assert_int_equal(fstat(a, &st), 0);
	assert_int_equal(st.st_size, 12345);
	/* Global\ and no prefix name the same segment as Local\. */
	b = shm_open_named("t", name + 6, true, 1, &existed, &err, &pb);
	assert_true(b >= 0);
	assert_true(existed);
	assert_int_equal(fstat(b, &st), 0);
	assert_int_equal(st.st_size, 12345);
	shm_close_named(a, pa);
	/* Still held by b. */
	a = shm_open_named("t", name, false, 0, &existed, &err, &pa);
	assert_true(a >= 0);
	shm_close_named(a, pa);
	kept = strdup(pb);
	shm_close_named(b, pb);
	a = shm_open_named("t", name, false, 0, &existed, &err, &pa);
	assert_int_equal(a, -1);
	assert_int_equal(err, ERROR_FILE_NOT_FOUND);
	assert_int_equal(stat(kept, &st), -1);

	/* The creator closing last removes the file too. */
	a = shm_open_named("t", name, true, 100, &existed, &err, &pa);
	assert_true(a >= 0);
	assert_false(existed);
	assert_int_equal(stat(pa, &st), 0);
	shm_close_named(a, pa);
	assert_int_equal(stat(kept, &st), -1);
	free(kept);
}

/* A holder killed without closing leaves the file but not its lock. */
static void test_stale_segment_recycled(void **state)
{
	char *path = NULL;
	bool existed = true;
	DWORD err = 0;
	pid_t pid;
	int fd, status;

	make_name("stale");
	pid = fork();
	assert_true(pid >= 0);
	if (!pid)
		_exit(shm_open_named("t", name, true, 4096, &existed, &err, &path) >= 0 ? 0 : 1);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_int_equal(status, 0);
	fd = shm_open_named("t", name, false, 0, &existed, &err, &path);
	assert_int_equal(fd, -1); /* stale: removed, not opened */
	fd = shm_open_named("t", name, true, 8192, &existed, &err, &path);
	assert_true(fd >= 0);
	assert_false(existed);
	shm_close_named(fd, path);
}

struct racer {
	pthread_barrier_t *go;
	int fd;
	bool existed;
	char *path;
};

static void *race(void *arg)
{
	struct racer *r = arg;
	DWORD err;

	pthread_barrier_wait(r->go);
	r->fd = shm_open_named("t", name, true, 4096, &r->existed, &err, &r->path);
	return NULL;
}

/* Many creators at once: exactly one makes it, all get the same file. */
static void test_creators_race(void **state)
{
	enum { N = 8 };
	struct racer r[N];
	pthread_barrier_t go;
	pthread_t th[N];
	struct stat first, st;
	char *kept;
	int made = 0;

	for (int round = 0; round < 20; round++) {
		make_name("race");
		pthread_barrier_init(&go, NULL, N);
		for (int i = 0; i < N; i++) {
			r[i].go = &go;
			pthread_create(&th[i], NULL, race, &r[i]);
		}
		made = 0;
		for (int i = 0; i < N; i++) {
			pthread_join(th[i], NULL);
			assert_true(r[i].fd >= 0);
			made += !r[i].existed;
		}
		assert_int_equal(made, 1);
		assert_int_equal(fstat(r[0].fd, &first), 0);
		kept = strdup(r[0].path);
		for (int i = 0; i < N; i++) {
			assert_int_equal(fstat(r[i].fd, &st), 0);
			assert_int_equal(st.st_ino, first.st_ino);
			shm_close_named(r[i].fd, r[i].path);
		}
		/* Whoever closed last, the name is gone. */
		assert_int_equal(stat(kept, &st), -1);
		free(kept);
		pthread_barrier_destroy(&go);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_create_open_close),
		cmocka_unit_test(test_stale_segment_recycled),
		cmocka_unit_test(test_creators_race),
	};
	return cmocka_run_group_tests(tests, win32_test_setup, win32_test_teardown);
}
