#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <windef.h>

#include "core/debug.h"
#include "core/startup.h"
#include "exit_codes.h"
#include "loader.h"
#include "thunks.h"

/* Thunks are written into a writable page that becomes read+execute when
 * sealed; the next thunk then starts a new page.  No page is ever both
 * writable and executable. */
#define THUNK_SIZE 32
#define POOL_SIZE 4096

static unsigned char *pool;     /* current unsealed page */
static size_t pool_used;

/* The names a thunk reports live as long as the process.  They are
 * chained from here because the only other pointer to one is inside an
 * mmap'ed thunk page, where leak checkers do not look. */
struct thunk_name {
	struct thunk_name *next;
	char name[];
};
static struct thunk_name *names;

static void WINAPI unimplemented_called(const char *name)
{
	loader_stop_runtimes();
	ndrun_error("unimplemented function %s called", name);
	/* As any exit: the handle server's socket goes, the parent learns
	 * the status, shared mutexes held are abandoned. */
	startup_record_exit(NDRUN_EXIT_UNIMPLEMENTED);
	_exit(NDRUN_EXIT_UNIMPLEMENTED);
}

void *thunk_create(const char *dll, const char *func)
{
	void (WINAPI *target)(const char *) = unimplemented_called;
	unsigned char *t;
	struct thunk_name *tn;
	const char *name;
	uint64_t imm;
	size_t len = strlen(dll) + 1 + strlen(func) + 1;

	tn = malloc(sizeof(*tn) + len);
	if (!tn)
		return NULL;
	snprintf(tn->name, len, "%s.%s", dll, func);
	if (!pool || pool_used + THUNK_SIZE > POOL_SIZE) {
		thunk_seal();
		pool = mmap(NULL, POOL_SIZE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (pool == MAP_FAILED) {
			pool = NULL;
			free(tn);
			return NULL;
		}
		pool_used = 0;
	}
	tn->next = names;
	names = tn;
	name = tn->name;
	t = pool + pool_used;
	pool_used += THUNK_SIZE;

	/* mov rcx, name; mov rax, target; jmp rax — the name is the first
	 * (ms_abi) argument, the caller's frame is left as it was. */
	t[0] = 0x48; t[1] = 0xb9;
	imm = (uintptr_t)name;
	memcpy(t + 2, &imm, 8);
	t[10] = 0x48; t[11] = 0xb8;
	imm = (uintptr_t)target;
	memcpy(t + 12, &imm, 8);
	t[20] = 0xff; t[21] = 0xe0;
	memset(t + 22, 0xcc, THUNK_SIZE - 22);
	TRACE(imports, "%s -> trap thunk %p\n", name, (void *)t);
	return t;
}

void thunk_seal(void)
{
	if (!pool)
		return;
	mprotect(pool, POOL_SIZE, PROT_READ | PROT_EXEC);
	pool = NULL;
}
