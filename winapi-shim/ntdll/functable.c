/* The function-table registry: every loaded image's .pdata, tables added
 * with RtlAddFunctionTable, and callbacks installed for generated code.
 *
 * Lookups happen on any thread during unwinding; the tables change only
 * when modules load or code is generated.  Slots are read under a
 * read-write lock, and each slot's range is also published atomically so
 * the fault handler can ask "is this PE code?" without taking the lock. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

#include "core/debug.h"
#include "ntdll/ntdll_private.h"
#include "ntdll/seh_private.h"

#define MAX_TABLES 512

enum table_kind { TABLE_IMAGE, TABLE_DYNAMIC, TABLE_CALLBACK };

struct func_table {
	_Atomic ULONG64 start; /* 0: free slot */
	_Atomic ULONG64 end;
	enum table_kind kind;
	ULONG64 base;              /* what RVAs are relative to */
	RUNTIME_FUNCTION *entries; /* IMAGE and DYNAMIC */
	DWORD count;
	DWORD image_size;          /* IMAGE: bounds for unwind-info RVAs */
	ULONG64 ident;             /* DYNAMIC: the table; CALLBACK: TableIdentifier */
	PGET_RUNTIME_FUNCTION_CALLBACK callback;
	void *context;
	char name[64];
};

static struct func_table tables[MAX_TABLES];
static pthread_rwlock_t tables_lock = PTHREAD_RWLOCK_INITIALIZER;

/* Caller holds tables_lock for writing. */
static struct func_table *alloc_slot(void)
{
	for (int i = 0; i < MAX_TABLES; i++)
		if (!atomic_load_explicit(&tables[i].start, memory_order_relaxed))
			return &tables[i];
	return NULL;
}

/* Caller holds tables_lock for writing; the slot's other fields are set. */
static void publish(struct func_table *t, ULONG64 start, ULONG64 end)
{
	atomic_store_explicit(&t->end, end, memory_order_relaxed);
	atomic_store_explicit(&t->start, start, memory_order_release);
}

static void retire(struct func_table *t)
{
	atomic_store_explicit(&t->start, 0, memory_order_release);
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
	struct func_table *t;
	const char *slash;

	pthread_rwlock_wrlock(&tables_lock);
	t = alloc_slot();
	if (!t) {
		pthread_rwlock_unlock(&tables_lock);
		ndrun_error("too many images for the unwinder; %s will not handle exceptions", name);
		return;
	}
	t->kind = TABLE_IMAGE;
	t->base = (ULONG64)base;
	t->image_size = size > 0xffffffffu ? 0xffffffffu : (DWORD)size;
	image_pdata(base, size, &t->entries, &t->count);
	t->ident = 0;
	t->callback = NULL;
	t->context = NULL;
	slash = name ? strrchr(name, '/') : NULL;
	snprintf(t->name, sizeof(t->name), "%s", slash ? slash + 1 : name ? name : "?");
	publish(t, (ULONG64)base, (ULONG64)base + size);
	pthread_rwlock_unlock(&tables_lock);
	TRACE(seh, "%s at %p: %u function entries\n", t->name, base, t->count);
}

void seh_unregister_image(void *base)
{
	pthread_rwlock_wrlock(&tables_lock);
	for (int i = 0; i < MAX_TABLES; i++) {
		struct func_table *t = &tables[i];
		if (t->kind == TABLE_IMAGE && atomic_load(&t->start) == (ULONG64)base)
			retire(t);
	}
	pthread_rwlock_unlock(&tables_lock);
}

int seh_pc_in_pe(ULONG64 pc)
{
	for (int i = 0; i < MAX_TABLES; i++) {
		ULONG64 start = atomic_load_explicit(&tables[i].start, memory_order_acquire);
		if (start && pc >= start && pc < atomic_load_explicit(&tables[i].end, memory_order_relaxed))
			return 1;
	}
	return 0;
}

/* Caller holds tables_lock. */
static struct func_table *find_table(ULONG64 pc)
{
	struct func_table *found = NULL;

	for (int i = 0; i < MAX_TABLES; i++) {
		struct func_table *t = &tables[i];
		ULONG64 start = atomic_load_explicit(&t->start, memory_order_acquire);
		if (!start || pc < start || pc >= atomic_load_explicit(&t->end, memory_order_relaxed))
			continue;
		/* An image wins over a table registered inside it. */
		if (!found || t->kind == TABLE_IMAGE)
			found = t;
	}
	return found;
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

/* Binary search of a table sorted by BeginAddress. */
static RUNTIME_FUNCTION *search(RUNTIME_FUNCTION *entries, DWORD count, DWORD rva)
{
	DWORD lo = 0, hi = count;

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
			rf = search(t->entries, t->count, (DWORD)(pc - t->base));
			if (rf && t->kind == TABLE_IMAGE)
				rf = resolve_image_entry(t, rf);
		}
	}
	pthread_rwlock_unlock(&tables_lock);

	/* Outside the lock: the callback is PE code and may add tables. */
	if (callback)
		rf = callback(pc, context);
	if (rf)
		*base = tbase;
	TRACE(seh, "pc %#lx -> %p (base %#llx)\n", (unsigned long)pc, rf, (unsigned long long)tbase);
	return rf;
}

BOOLEAN CDECL RtlAddFunctionTable(RUNTIME_FUNCTION *table, DWORD count, DWORD_PTR base)
{
	struct func_table *t;
	ULONG64 lo = ~0ull, hi = 0;

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
	pthread_rwlock_wrlock(&tables_lock);
	t = alloc_slot();
	if (t) {
		t->kind = TABLE_DYNAMIC;
		t->base = base;
		t->entries = table;
		t->count = count;
		t->image_size = 0;
		t->ident = (ULONG64)table;
		t->callback = NULL;
		t->context = NULL;
		snprintf(t->name, sizeof(t->name), "dynamic");
		publish(t, base + lo, base + hi);
	}
	pthread_rwlock_unlock(&tables_lock);
	TRACE(seh, "%p x%u base %#lx: %s\n", table, count, (unsigned long)base, t ? "ok" : "full");
	return t != NULL;
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
	pthread_rwlock_wrlock(&tables_lock);
	t = alloc_slot();
	if (t) {
		t->kind = TABLE_CALLBACK;
		t->base = base;
		t->entries = NULL;
		t->count = 0;
		t->image_size = 0;
		t->ident = ident;
		t->callback = callback;
		t->context = context;
		snprintf(t->name, sizeof(t->name), "callback");
		publish(t, base, base + length);
	}
	pthread_rwlock_unlock(&tables_lock);
	return t != NULL;
}

BOOLEAN CDECL RtlDeleteFunctionTable(RUNTIME_FUNCTION *table)
{
	BOOLEAN found = FALSE;

	pthread_rwlock_wrlock(&tables_lock);
	for (int i = 0; i < MAX_TABLES && !found; i++) {
		struct func_table *t = &tables[i];
		if (atomic_load(&t->start) && t->kind != TABLE_IMAGE && t->ident == (ULONG64)table) {
			retire(t);
			found = TRUE;
		}
	}
	pthread_rwlock_unlock(&tables_lock);
	return found;
}
