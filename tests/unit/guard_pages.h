/* Three pages for tests of stores and copies through a bad pointer:
 * [0] read-write, [1] read-only, both filled with 0x5a, [2] unmapped.
 * A cmocka group setup and teardown (test_probe, test_user_put). */
#ifndef NDSHIM_TEST_GUARD_PAGES_H
#define NDSHIM_TEST_GUARD_PAGES_H

#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static uint8_t *pages;
static size_t ps;

static int guard_pages_setup(void **state)
{
	ps = (size_t)sysconf(_SC_PAGESIZE);
	pages = mmap(NULL, 3 * ps, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (pages == MAP_FAILED)
		return -1;
	memset(pages, 0x5a, 2 * ps);
	mprotect(pages + ps, ps, PROT_READ);
	munmap(pages + 2 * ps, ps);
	return 0;
}

static int guard_pages_teardown(void **state)
{
	munmap(pages, 2 * ps);
	return 0;
}

#endif
