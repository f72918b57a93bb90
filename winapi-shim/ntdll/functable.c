/* The function-table registry: every loaded image's .pdata, tables added
 * with RtlAddFunctionTable or RtlAddGrowableFunctionTable, and callbacks
 * installed for generated code -- as many as the program makes (a JIT
 * may register one per function).
 *
 * Lookups happen on any thread during unwinding; the tables change only
 * when modules load or code is generated.  The registered ranges form one
 * array sorted by start address (with the running maximum of the ends,
 * so overlapping ranges are found too), searched by bisection: a lookup
 * among 5,000 tables is a dozen steps.  A change builds a new array and
 * publishes it with one atomic store, so the fault handler can ask "is
 * this PE code?" without a lock; an array replaced while such a reader
 * may still hold it is freed by a later change, once no reader is
 * inside.  Everything else reads the tables under a read-write lock. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/debug.h"
#include "ntdll/ntdll_private.h"
#include "ntdll/seh_private.h"
#include "core/pecall.h"

enum table_kind { TABLE_IMAGE, TABLE_DYNAMIC, TABLE_GROWABLE, TABLE_CALLBACK };

struct func_table {
	ULONG64 start, end;
	enum table_kind kind;
	ULONG64 base;              /* what RVAs are relative to */
	RUNTIME_FUNCTION *entries; /* IMAGE, DYNAMIC and GROWABLE */
	DWORD count;
	DWORD max_count;           /* GROWABLE */
	bool sorted;               /* entries by BeginAddress: bisection works */
	DWORD image_size;          /* IMAGE: bounds for unwind-info RVAs */
	ULONG64 ident;             /* DYNAMIC: the table; CALLBACK: TableIdentifier */
	PGET_RUNTIME_FUNCTION_CALLBACK callback;
	void *context;
	char name[64];
	char *path;                /* IMAGE: the file, for its symbol table */
};

struct range {
	ULONG64 start, end;
	ULONG64 max_end; /* the largest end of this range and all before it */
	struct func_table *t;
};

struct snapshot {
	size_t n;
	struct range r[];
};

static const struct snapshot empty_snapshot;
static _Atomic(const struct snapshot *) current = &empty_snapshot;
/* Lock-free readers (seh_pc_in_pe) inside a snapshot right now. */
static atomic_int lockfree_readers;
/* Replaced snapshots a lock-free reader may still have been reading. */
static struct retired {
	struct retired *next;
	const struct snapshot *snap;
} *retired;
static pthread_rwlock_t tables_lock = PTHREAD_RWLOCK_INITIALIZER;

/* Index of the last range starting at or below pc, or -1. */
static long last_start_at_or_below(const struct snapshot *snap, ULONG64 pc)
{
	size_t lo = 0, hi = snap->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (snap->r[mid].start <= pc)
			lo = mid + 1;
		else
			hi = mid;
	}
	return (long)lo - 1;
}

/* The range holding pc: an image wins over a table registered inside it,
 * else the one that starts last. */
static struct func_table *snapshot_find(const struct snapshot *snap, ULONG64 pc)
{
	struct func_table *found = NULL;

	for (long i = last_start_at_or_below(snap, pc); i >= 0 && snap->r[i].max_end > pc; i--) {
		const struct range *r = &snap->r[i];

		if (pc >= r->end)
			continue;
		if (r->t->kind == TABLE_IMAGE)
			return r->t;
		if (!found)
			found = r->t;
	}
	return found;
}

/* Caller holds tables_lock for writing.  The new snapshot is the old one
 * with add inserted (if not NULL) and drop removed (if not NULL). */
static bool replace_snapshot(struct func_table *add, struct func_table *drop)
{
	const struct snapshot *old = atomic_load(&current);
	struct snapshot *snap;
	size_t n = 0;
	ULONG64 max_end = 0;
	bool inserted = !add;

	snap = malloc(sizeof(*snap) + (old->n + 1) * sizeof(snap->r[0]));
	if (!snap)
		return false;
	for (size_t i = 0; i <= old->n; i++) {
		if (!inserted && (i == old->n || old->r[i].start > add->start)) {
			snap->r[n].start = add->start;
			snap->r[n].end = add->end;
			snap->r[n].t = add;
			n++;
			inserted = true;
		}
		if (i < old->n && old->r[i].t != drop)
			snap->r[n++] = old->r[i];
	}
	for (size_t i = 0; i < n; i++) {
		if (snap->r[i].end > max_end)
			max_end = snap->r[i].end;
		snap->r[i].max_end = max_end;
	}
	snap->n = n;
	atomic_store(&current, snap);

	/* A reader that entered after the store reads the new snapshot:
	 * with none inside now, every replaced one can go. */
	if (old != &empty_snapshot) {
		struct retired *r = malloc(sizeof(*r));

		if (r) {
			r->snap = old;
			r->next = retired;
			retired = r;
		} /* else the old snapshot is leaked rather than freed early */
	}
	if (!atomic_load(&lockfree_readers)) {
		while (retired) {
			struct retired *r = retired;

			retired = r->next;
			free((void *)r->snap);
			free(r);
		}
	}
	return true;
}

/* Caller holds tables_lock for writing; t's fields are set. */
static bool publish(struct func_table *t)
{
	return replace_snapshot(t, NULL);
}

/* Caller holds tables_lock for writing. */
static void retire(struct func_table *t)
{
	if (!replace_snapshot(NULL, t)) {
		/* No memory for a smaller snapshot: the range stays, empty. */
		t->count = 0;
		t->kind = TABLE_DYNAMIC;
		t->ident = 0;
		return;
	}
	free(t->path);
	free(t);
}

static bool entries_sorted(const RUNTIME_FUNCTION *e, DWORD count)
{
	for (DWORD i = 1; i < count; i++)
		if (e[i].BeginAddress < e[i - 1].BeginAddress)
			return false;
	return true;
}

/* The exception directory of a mapped image, validated against its size. */
static void image_pdata(const BYTE *base, size_t size, RUNTIME_FUNCTION **entries, DWORD *count)
{
	const IMAGE_DOS_HEADER *dos = (const void *)base;
	const IMAGE_NT_HEADERS64 *nt;
	const IMAGE_DATA_DIRECTORY *dir;
	size_t nt_off;

	*entries = NULL;
	*count = 0;
	if (size < sizeof(*dos) || dos->e_magic != IMAGE_DOS_SIGNATURE)
		return;
	nt_off = (DWORD)dos->e_lfanew;
	if (nt_off > size || size - nt_off < sizeof(*nt))
		return;
	nt = (const void *)(base + nt_off);
	if (nt->Signature != IMAGE_NT_SIGNATURE ||
	    nt->OptionalHeader.Magic != IMAGE_NT_OPTIONAL_HDR64_MAGIC ||
	    nt->OptionalHeader.NumberOfRvaAndSizes <= IMAGE_DIRECTORY_ENTRY_EXCEPTION)
		return;
	dir = &nt->OptionalHeader.DataDirectory[IMAGE_DIRECTORY_ENTRY_EXCEPTION];
	if (!dir->VirtualAddress || !dir->Size)
		return;
	if (dir->VirtualAddress > size || dir->Size > size - dir->VirtualAddress) {
		TRACE(seh, "exception directory %#x+%#x outside image of %#zx bytes\n",
		      dir->VirtualAddress, dir->Size, size);
		return;
	}
	*entries = (RUNTIME_FUNCTION *)(base + dir->VirtualAddress);
	*count = dir->Size / sizeof(RUNTIME_FUNCTION);
}

void seh_register_image(void *base, size_t size, const char *name)
{
	struct func_table *t = calloc(1, sizeof(*t));
	const char *slash;
	bool ok;

	if (!t) {
		ndrun_error("no memory to register %s with the unwinder; it will not handle exceptions", name);
		return;
	}
	t->kind = TABLE_IMAGE;
	t->base = (ULONG64)base;
	t->image_size = size > 0xffffffffu ? 0xffffffffu : (DWORD)size;
	image_pdata(base, size, &t->entries, &t->count);
	t->sorted = entries_sorted(t->entries, t->count);
	slash = name ? strrchr(name, '/') : NULL;
	snprintf(t->name, sizeof(t->name), "%s", slash ? slash + 1 : name ? name : "?");
	t->path = slash ? strdup(name) : NULL;
	t->start = (ULONG64)base;
	t->end = (ULONG64)base + size;
	pthread_rwlock_wrlock(&tables_lock);
	ok = publish(t);
	pthread_rwlock_unlock(&tables_lock);
	if (!ok) {
		free(t->path);
		free(t);
		ndrun_error("no memory to register %s with the unwinder; it will not handle exceptions", name);
		return;
	}
	TRACE(seh, "%s at %p: %u function entries\n", t->name, base, t->count);
}

/* Caller holds tables_lock for writing: the table whose kind and
 * identifier match, or NULL. */
static struct func_table *find_ident(bool image, ULONG64 ident)
{
	const struct snapshot *snap = atomic_load(&current);

	for (size_t i = 0; i < snap->n; i++) {
		struct func_table *t = snap->r[i].t;

		if (image ? t->kind == TABLE_IMAGE && t->start == ident : t->kind != TABLE_IMAGE && t->ident == ident)
			return t;
	}
	return NULL;
}

void seh_unregister_image(void *base)
{
	struct func_table *t;

	pthread_rwlock_wrlock(&tables_lock);
	t = find_ident(true, (ULONG64)base);
	if (t)
		retire(t);
	pthread_rwlock_unlock(&tables_lock);
}

int seh_pc_in_pe(ULONG64 pc)
{
	const struct snapshot *snap;
	int found;

	atomic_fetch_add(&lockfree_readers, 1);
	snap = atomic_load(&current);
	found = snapshot_find(snap, pc) != NULL;
	atomic_fetch_sub(&lockfree_readers, 1);
	return found;
}

/* Caller holds tables_lock. */
static struct func_table *find_table(ULONG64 pc)
{
	return snapshot_find(atomic_load(&current), pc);
}

void seh_describe_pc(ULONG64 pc, char *buf, size_t len)
{
	struct func_table *t;

	pthread_rwlock_rdlock(&tables_lock);
	t = find_table(pc);
	if (t && t->kind == TABLE_IMAGE)
		snprintf(buf, len, "%s+0x%llx", t->name, (unsigned long long)(pc - t->base));
	else
		snprintf(buf, len, "0x%llx", (unsigned long long)pc);
	pthread_rwlock_unlock(&tables_lock);
}

int seh_image_of_pc(ULONG64 pc, ULONG64 *base, DWORD *size, char *path, size_t pathlen)
{
	struct func_table *t;
	int found = 0;

	pthread_rwlock_rdlock(&tables_lock);
	t = find_table(pc);
	if (t && t->kind == TABLE_IMAGE) {
		*base = t->base;
		*size = t->image_size;
		snprintf(path, pathlen, "%s", t->path ? t->path : "");
		found = 1;
	}
	pthread_rwlock_unlock(&tables_lock);
	return found;
}

/* Binary search of a table sorted by BeginAddress; a table that is not
 * sorted (Windows does not require it of dynamic ones) is walked. */
static RUNTIME_FUNCTION *search(RUNTIME_FUNCTION *entries, DWORD count, bool sorted, DWORD rva)
{
	DWORD lo = 0, hi = count;

	if (!sorted) {
		for (DWORD i = 0; i < count; i++)
			if (rva >= entries[i].BeginAddress && rva < entries[i].EndAddress)
				return &entries[i];
		return NULL;
	}

	while (lo < hi) {
		DWORD mid = lo + (hi - lo) / 2;
		if (rva < entries[mid].BeginAddress)
			hi = mid;
		else if (rva >= entries[mid].EndAddress)
			lo = mid + 1;
		else
			return &entries[mid];
	}
	return NULL;
}

/* An image entry whose unwind-info RVA has its low bit set points at the
 * entry that holds the real unwind information (shared .pdata entries). */
static RUNTIME_FUNCTION *resolve_image_entry(const struct func_table *t, RUNTIME_FUNCTION *rf)
{
	for (int depth = 0; rf && depth < 8; depth++) {
		DWORD unwind = rf->UnwindData;
		if (!(unwind & 1)) {
			if (unwind > t->image_size || t->image_size - unwind < 4)
				return NULL;
			return rf;
		}
		unwind &= ~1u;
		if (unwind > t->image_size || t->image_size - unwind < sizeof(*rf))
			return NULL;
		rf = (RUNTIME_FUNCTION *)(t->base + unwind);
	}
	return NULL;
}

struct table_search {
	const struct func_table *t;
	DWORD rva;
	RUNTIME_FUNCTION *found;
};

static void search_table(void *arg)
{
	struct table_search *ts = arg;

	ts->found = search(ts->t->entries, ts->t->count, ts->t->sorted, ts->rva);
	if (ts->found && ts->t->kind == TABLE_IMAGE)
		ts->found = resolve_image_entry(ts->t, ts->found);
}

PRUNTIME_FUNCTION WINAPI RtlLookupFunctionEntry(DWORD_PTR pc, DWORD_PTR *base,
						UNWIND_HISTORY_TABLE *history)
{
	RUNTIME_FUNCTION *rf = NULL;
	PGET_RUNTIME_FUNCTION_CALLBACK callback = NULL;
	void *context = NULL;
	struct func_table *t;
	ULONG64 tbase = 0;

	pthread_rwlock_rdlock(&tables_lock);
	t = find_table(pc);
	if (t) {
		tbase = t->base;
		if (t->kind == TABLE_CALLBACK) {
			callback = t->callback;
			context = t->context;
		} else if (pc - t->base <= 0xffffffffu) {
			struct table_search ts = { t, (DWORD)(pc - t->base), NULL };

			/* A damaged image's .pdata may lie in pages it cannot
			 * read: then no entry. */
			if (seh_run_probed(search_table, &ts))
				rf = ts.found;
		}
	}
	pthread_rwlock_unlock(&tables_lock);

	/* Outside the lock: the callback is PE code and may add tables. */
	if (callback)
		rf = (RUNTIME_FUNCTION *)PE_CALL2(callback, pc, context);
	if (rf)
		*base = tbase;
	TRACE(seh, "pc %#lx -> %p (base %#llx)\n", (unsigned long)pc, rf, (unsigned long long)tbase);
	return rf;
}

/* A new dynamic table's record, or NULL (no memory). */
static struct func_table *new_table(enum table_kind kind, ULONG64 base, ULONG64 start, ULONG64 end,
				    const char *name)
{
	struct func_table *t = calloc(1, sizeof(*t));

	if (!t)
		return NULL;
	t->kind = kind;
	t->base = base;
	t->start = start;
	t->end = end;
	snprintf(t->name, sizeof(t->name), "%s", name);
	return t;
}

static bool add_table(struct func_table *t)
{
	bool ok;

	pthread_rwlock_wrlock(&tables_lock);
	ok = publish(t);
	pthread_rwlock_unlock(&tables_lock);
	if (!ok)
		free(t);
	return ok;
}

BOOLEAN CDECL RtlAddFunctionTable(RUNTIME_FUNCTION *table, DWORD count, DWORD_PTR base)
{
	struct func_table *t;
	ULONG64 lo = ~0ull, hi = 0;
	bool ok;

	if (!table || !count)
		return FALSE;
	for (DWORD i = 0; i < count; i++) {
		if (table[i].BeginAddress < lo)
			lo = table[i].BeginAddress;
		if (table[i].EndAddress > hi)
			hi = table[i].EndAddress;
	}
	if (lo >= hi)
		return FALSE;
	t = new_table(TABLE_DYNAMIC, base, base + lo, base + hi, "dynamic");
	if (!t)
		return FALSE;
	t->entries = table;
	t->count = count;
	t->sorted = entries_sorted(table, count);
	t->ident = (ULONG64)table;
	ok = add_table(t);
	TRACE(seh, "%p x%u base %#lx: %s\n", table, count, (unsigned long)base, ok ? "ok" : "no memory");
	return ok;
}

BOOLEAN CDECL RtlInstallFunctionTableCallback(DWORD_PTR ident, DWORD_PTR base, DWORD length,
					      PGET_RUNTIME_FUNCTION_CALLBACK callback,
					      PVOID context, PCWSTR dll)
{
	struct func_table *t;

	/* The identifier's two low bits must be set: that is how
	 * RtlDeleteFunctionTable tells it from a table pointer. */
	if ((ident & 3) != 3 || !callback || !length)
		return FALSE;
	t = new_table(TABLE_CALLBACK, base, base, base + length, "callback");
	if (!t)
		return FALSE;
	t->ident = ident;
	t->callback = callback;
	t->context = context;
	return add_table(t);
}

BOOLEAN CDECL RtlDeleteFunctionTable(RUNTIME_FUNCTION *table)
{
	struct func_table *t;

	pthread_rwlock_wrlock(&tables_lock);
	t = find_ident(false, (ULONG64)table);
	/* A growable table goes through its own call. */
	if (t && t->kind == TABLE_GROWABLE)
		t = NULL;
	if (t)
		retire(t);
	pthread_rwlock_unlock(&tables_lock);
	return t != NULL;
}

/* A table a JIT fills as it emits code: entries [0, count) are in use,
 * sorted, up to max_count; the range is fixed from the start. */
DWORD WINAPI RtlAddGrowableFunctionTable(void **handle, RUNTIME_FUNCTION *table, DWORD count, DWORD max_count,
					 ULONG_PTR range_base, ULONG_PTR range_end)
{
	struct func_table *t;

	if (!handle || !table || count > max_count || range_end <= range_base)
		return STATUS_INVALID_PARAMETER;
	t = new_table(TABLE_GROWABLE, range_base, range_base, range_end, "growable");
	if (!t)
		return 0xC0000017; /* STATUS_NO_MEMORY */
	t->entries = table;
	t->count = count;
	t->max_count = max_count;
	t->sorted = true;
	/* The handle is the record itself: nothing else names it. */
	t->ident = (ULONG64)t;
	if (!add_table(t))
		return 0xC0000017;
	*handle = t;
	TRACE(seh, "growable %p x%u/%u range %#lx-%#lx\n", table, count, max_count, (unsigned long)range_base,
	      (unsigned long)range_end);
	return STATUS_SUCCESS;
}

void WINAPI RtlGrowFunctionTable(void *handle, DWORD count)
{
	struct func_table *t;

	pthread_rwlock_wrlock(&tables_lock);
	t = find_ident(false, (ULONG64)handle);
	/* Windows only lets it grow, within the maximum. */
	if (t && t->kind == TABLE_GROWABLE && count >= t->count && count <= t->max_count)
		t->count = count;
	pthread_rwlock_unlock(&tables_lock);
}

void WINAPI RtlDeleteGrowableFunctionTable(void *handle)
{
	struct func_table *t;

	pthread_rwlock_wrlock(&tables_lock);
	t = find_ident(false, (ULONG64)handle);
	if (t && t->kind == TABLE_GROWABLE)
		retire(t);
	pthread_rwlock_unlock(&tables_lock);
}
