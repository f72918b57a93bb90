/* +relay thunks and their log lines (relay.h).  Thunks live in pages
 * mapped twice from one memfd: written through a read+write view and run
 * through a read+execute one, so a thunk made by GetProcAddress after
 * loading needs no sealing step and no page is ever writable and
 * executable at once. */
#include <pthread.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>
#include <sys/mman.h>

#include <windef.h>

#include "core/debug.h"
#include "relay.h"

/* Logging reads all four argument registers and RAX whatever the function
 * takes or returns, so some hold nothing the caller set: tell memcheck
 * that is meant (the program's own uses are still checked). */
#if __has_include(<valgrind/memcheck.h>)
#include <valgrind/memcheck.h>
#define REGISTERS_READ(p, n) ((void)VALGRIND_MAKE_MEM_DEFINED(p, n))
#else
#define REGISTERS_READ(p, n) ((void)0)
#endif

#define THUNK_SIZE 32
#define CHUNK_SIZE 65536

/* Called from relay_common.S. */
void WINAPI relay_log_call(const struct relay_entry *e, const uint64_t *args, uint64_t ret);
void WINAPI relay_log_ret(const struct relay_entry *e, uint64_t retval, uint64_t ret);
extern char relay_common[];
/* GNU ld's bounds of the program's code: exports outside are data
 * (msvcrt's _fmode, _iob, ...), which a thunk must not replace. */
extern char __executable_start[], etext[];

static unsigned char *chunk_rw, *chunk_rx;
static size_t chunk_used = CHUNK_SIZE;
/* Every thunk made, to reuse them; the lock also covers the chunk. */
static struct relay_entry *entries;
static pthread_mutex_t entries_lock = PTHREAD_MUTEX_INITIALIZER;

struct filter {
	char **items;
	size_t count;
	int set;
};
static struct filter include, exclude;
static int filters_read;

/* These read their caller's frame (context capture, unwinding, setjmp)
 * or never return to it by the normal path: a relay frame in between
 * would be captured or unwound instead of the PE caller's. */
static const char *const never_wrapped[] = {
	"RaiseException", "RtlCaptureContext", "RtlRaiseException", "RtlRestoreContext",
	"RtlUnwind", "RtlUnwindEx", "_setjmp", "_setjmpex", "longjmp", "setjmp",
};

static void filter_parse(struct filter *f, const char *spec)
{
	char *copy, *tok, *save = NULL;

	for (size_t i = 0; i < f->count; i++)
		free(f->items[i]);
	free(f->items);
	f->items = NULL;
	f->count = 0;
	f->set = spec != NULL;
	if (!spec || !(copy = strdup(spec)))
		return;
	for (tok = strtok_r(copy, ";, ", &save); tok; tok = strtok_r(NULL, ";, ", &save)) {
		char **grown = realloc(f->items, (f->count + 1) * sizeof(*grown));

		if (!grown)
			break;
		f->items = grown;
		if ((f->items[f->count] = strdup(tok)))
			f->count++;
	}
	free(copy);
}

void relay_set_filters(const char *inc, const char *exc)
{
	filter_parse(&include, inc);
	filter_parse(&exclude, exc);
	filters_read = 1;
}

/* "kernel32.dll" and "KERNEL32" both name kernel32.dll. */
static int dll_matches(const char *pattern, size_t len, const char *dll)
{
	size_t dlen = strlen(dll);

	if (dlen > 4 && !strcasecmp(dll + dlen - 4, ".dll"))
		dlen -= 4;
	if (len > 4 && !strncasecmp(pattern + len - 4, ".dll", 4))
		len -= 4;
	return len == dlen && !strncasecmp(pattern, dll, len);
}

static int item_matches(const char *item, const char *dll, const char *name)
{
	const char *dot = strrchr(item, '.');

	/* "dll.Function"; "x.dll" is a DLL, not a function called "dll". */
	if (dot && strcasecmp(dot, ".dll"))
		return name && !strcmp(dot + 1, name) && dll_matches(item, (size_t)(dot - item), dll);
	return dll_matches(item, strlen(item), dll) || (!dot && name && !strcmp(item, name));
}

static int filter_matches(const struct filter *f, const char *dll, const char *name)
{
	for (size_t i = 0; i < f->count; i++)
		if (item_matches(f->items[i], dll, name))
			return 1;
	return 0;
}

int relay_wanted(const char *dll, const char *name)
{
	if (!filters_read)
		relay_set_filters(getenv("NDSHIM_RELAY_INCLUDE"), getenv("NDSHIM_RELAY_EXCLUDE"));
	for (size_t i = 0; name && i < sizeof(never_wrapped) / sizeof(never_wrapped[0]); i++)
		if (!strcmp(name, never_wrapped[i]))
			return 0;
	if (include.set && !filter_matches(&include, dll, name))
		return 0;
	return !filter_matches(&exclude, dll, name);
}

static void *new_thunk_slot(unsigned char **rw)
{
	if (chunk_used + THUNK_SIZE > CHUNK_SIZE) {
		int fd = memfd_create("ndshim-relay", MFD_CLOEXEC);
		void *w, *x;

		if (fd < 0)
			return NULL;
		if (ftruncate(fd, CHUNK_SIZE)) {
			close(fd);
			return NULL;
		}
		w = mmap(NULL, CHUNK_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
		x = mmap(NULL, CHUNK_SIZE, PROT_READ | PROT_EXEC, MAP_SHARED, fd, 0);
		close(fd);
		if (w == MAP_FAILED || x == MAP_FAILED) {
			if (w != MAP_FAILED)
				munmap(w, CHUNK_SIZE);
			if (x != MAP_FAILED)
				munmap(x, CHUNK_SIZE);
			return NULL;
		}
		chunk_rw = w;
		chunk_rx = x;
		chunk_used = 0;
	}
	*rw = chunk_rw + chunk_used;
	chunk_used += THUNK_SIZE;
	return chunk_rx + chunk_used - THUNK_SIZE;
}

const void *relay_thunk(enum debug_channel ch, const char *name, const void *func)
{
	struct relay_entry *e;
	unsigned char *w;
	uint64_t imm;
	size_t len;
	void *t;

	pthread_mutex_lock(&entries_lock);
	for (e = entries; e; e = e->next)
		if (e->func == func && e->channel == ch)
			break;
	if (e) {
		pthread_mutex_unlock(&entries_lock);
		return e->thunk;
	}
	len = strlen(name) + 1;
	e = malloc(sizeof(*e) + len);
	t = e ? new_thunk_slot(&w) : NULL;
	if (!t) {
		pthread_mutex_unlock(&entries_lock);
		free(e);
		return NULL;
	}
	memcpy(e->name, name, len);
	e->func = func;
	e->thunk = t;
	e->channel = ch;
	/* mov rax, entry; mov r11, relay_common; jmp r11 — RAX and R11 are
	 * volatile and carry no ms_abi argument. */
	w[0] = 0x48; w[1] = 0xb8;
	imm = (uintptr_t)e;
	memcpy(w + 2, &imm, 8);
	w[10] = 0x49; w[11] = 0xbb;
	imm = (uintptr_t)relay_common;
	memcpy(w + 12, &imm, 8);
	w[20] = 0x41; w[21] = 0xff; w[22] = 0xe3;
	memset(w + 23, 0xcc, THUNK_SIZE - 23);
	e->next = entries;
	entries = e;
	pthread_mutex_unlock(&entries_lock);
	return t;
}

const void *relay_wrap(const char *dll, const char *name, unsigned int ordinal, const void *func)
{
	char full[256];
	const void *t;

	if (!TRACE_ON(relay) || !func || (const char *)func < __executable_start || (const char *)func >= etext ||
	    !relay_wanted(dll, name))
		return func;
	if (name)
		snprintf(full, sizeof(full), "%s.%s", dll, name);
	else
		snprintf(full, sizeof(full), "%s.#%u", dll, ordinal);
	t = relay_thunk(DBCH_relay, full, func);
	if (!t)
		return func; /* out of memory: the call still works, unlogged */
	TRACE(imports, "%s -> relay thunk %p\n", full, t);
	return t;
}

int relay_format_call(char *buf, size_t size, const char *name, const uint64_t args[4], uint64_t ret)
{
	return snprintf(buf, size, "Call %s(%llx,%llx,%llx,%llx) ret=%llx", name, (unsigned long long)args[0],
			(unsigned long long)args[1], (unsigned long long)args[2], (unsigned long long)args[3],
			(unsigned long long)ret);
}

int relay_format_ret(char *buf, size_t size, const char *name, uint64_t retval, uint64_t ret)
{
	return snprintf(buf, size, "Ret  %s() retval=%llx ret=%llx", name, (unsigned long long)retval,
			(unsigned long long)ret);
}

/* errno is saved: msvcrt's errno is the thread's, which logging's write
 * must not change behind the program's back. */
void WINAPI relay_log_call(const struct relay_entry *e, const uint64_t *args, uint64_t ret)
{
	char line[512];
	int saved = errno;
	uint64_t regs[4];

	memcpy(regs, args, sizeof(regs));
	REGISTERS_READ(regs, sizeof(regs));
	relay_format_call(line, sizeof(line), e->name, regs, ret);
	debug_printf(e->channel, NULL, "%s\n", line);
	errno = saved;
}

void WINAPI relay_log_ret(const struct relay_entry *e, uint64_t retval, uint64_t ret)
{
	char line[512];
	int saved = errno;

	REGISTERS_READ(&retval, sizeof(retval));
	relay_format_ret(line, sizeof(line), e->name, retval, ret);
	debug_printf(e->channel, NULL, "%s\n", line);
	errno = saved;
}
