/* Thread-local storage, three ways, across several threads at once:
 *   - __thread / _Thread_local (mingw gcc compiles these to emutls, which
 *     sits on TlsAlloc/TlsGetValue),
 *   - TlsAlloc/TlsSetValue/TlsGetValue directly,
 *   - native static TLS, as MSVC emits it: variables in .tls$ sections,
 *     reached through the TEB's ThreadLocalStoragePointer (gs:[0x58])
 *     indexed by _tls_index, which the loader must fill per thread from
 *     the image's TLS template. */
#include <intrin.h>
#include <stdint.h>
#include <string.h>
#include <windows.h>

#include "test.h"

/* gcc 12 sees __readgsqword's gs-relative load as a load from address 0x58
 * and warns (its -Warray-bounds does not know about segment bases). */
#pragma GCC diagnostic ignored "-Warray-bounds"

#define NTHREADS 4

static __thread int gnu_tls = 42;
static _Thread_local const char *c11_tls = "initial";

/* Sections .tls$<x> sort between mingw's .tls (_tls_start) and .tls$ZZZ
 * (_tls_end), so these land inside the image's TLS template. */
__attribute__((section(".tls$NDT"), used)) int native_int = 0x1234;
__attribute__((section(".tls$NDT"), used)) char native_str[16] = "template";

extern ULONG _tls_index;

static const IMAGE_TLS_DIRECTORY64 *tls_dir;
static DWORD tls_slot;
static volatile LONG arrived;
static HANDLE all_arrived;

/* What the program's own TLS callback saw. */
#define MAX_TIDS 64
static volatile LONG cb_process_attach, cb_main_started_at_attach = -1;
static volatile LONG cb_attach_count, cb_detach_count, cb_block_missing;
static DWORD cb_attach_tids[MAX_TIDS], cb_detach_tids[MAX_TIDS];
static volatile LONG main_started;

static void NTAPI exe_tls_callback(PVOID module, DWORD reason, PVOID reserved)
{
	LONG i;

	(void)module;
	(void)reserved;
	/* Rule: by the time callbacks run for a thread, the thread's TLS block
	 * for this module exists. */
	if (!((void **)__readgsqword(0x58))[_tls_index])
		InterlockedIncrement(&cb_block_missing);
	switch (reason) {
	case DLL_PROCESS_ATTACH:
		InterlockedIncrement(&cb_process_attach);
		cb_main_started_at_attach = main_started;
		break;
	case DLL_THREAD_ATTACH:
		i = InterlockedIncrement(&cb_attach_count) - 1;
		if (i < MAX_TIDS)
			cb_attach_tids[i] = GetCurrentThreadId();
		break;
	case DLL_THREAD_DETACH:
		i = InterlockedIncrement(&cb_detach_count) - 1;
		if (i < MAX_TIDS)
			cb_detach_tids[i] = GetCurrentThreadId();
		break;
	}
}

__attribute__((section(".CRT$XLB"), used))
const PIMAGE_TLS_CALLBACK tls_test_callback = exe_tls_callback;

static int tid_in(const DWORD *tids, LONG count, DWORD tid)
{
	LONG i;

	for (i = 0; i < count && i < MAX_TIDS; i++)
		if (tids[i] == tid)
			return 1;
	return 0;
}

struct thread_result {
	int index;
	DWORD tid;
	void *gnu_addr, *native_addr, *tls_block;
};

/* This thread's copy of native variable VAR: its template address moved
 * from the template into this thread's block. */
static void *native_copy(void *var)
{
	char *block = ((char **)__readgsqword(0x58))[_tls_index];

	return block + ((uintptr_t)var - tls_dir->StartAddressOfRawData);
}

static void find_tls_directory(void)
{
	char *base = (char *)GetModuleHandleW(NULL);
	IMAGE_NT_HEADERS64 *nt = (void *)(base + ((IMAGE_DOS_HEADER *)base)->e_lfanew);
	IMAGE_DATA_DIRECTORY *d = &nt->OptionalHeader.DataDirectory[IMAGE_DIRECTORY_ENTRY_TLS];

	ok(d->VirtualAddress != 0, "the program has no TLS directory\n");
	if (d->VirtualAddress)
		tls_dir = (void *)(base + d->VirtualAddress);
}

/* Rule: a new thread's TLS block is a copy of the template
 * (StartAddressOfRawData..EndAddressOfRawData) followed by SizeOfZeroFill
 * zero bytes, and it is not the template itself. */
static void check_fresh_block(const char *who)
{
	const char *tmpl = (const char *)(uintptr_t)tls_dir->StartAddressOfRawData;
	size_t size = tls_dir->EndAddressOfRawData - tls_dir->StartAddressOfRawData;
	const char *block = ((char **)__readgsqword(0x58))[_tls_index];
	size_t i, zeros = 0;

	ok(block != NULL && block != tmpl, "%s: TLS block %p, template %p\n", who, block, tmpl);
	if (!block || block == tmpl)
		return;
	ok(!memcmp(block, tmpl, size), "%s: TLS block differs from the template\n", who);
	for (i = 0; i < tls_dir->SizeOfZeroFill; i++)
		zeros += block[size + i] == 0;
	ok(zeros == tls_dir->SizeOfZeroFill, "%s: %u of %lu zero-fill bytes are zero\n", who,
	   (unsigned)zeros, tls_dir->SizeOfZeroFill);
	ok(*(int *)native_copy(&native_int) == 0x1234, "%s: native_int %#x\n", who,
	   *(int *)native_copy(&native_int));
	ok(!strcmp(native_copy(native_str), "template"), "%s: native_str [%s]\n", who,
	   (char *)native_copy(native_str));
}

static DWORD WINAPI thread_main(void *arg)
{
	struct thread_result *r = arg;
	char name[16];
	int *my_int;

	__mingw_snprintf(name, sizeof(name), "thread %d", r->index);
	/* Rule: the program's TLS callbacks get DLL_THREAD_ATTACH in the new
	 * thread before its start routine runs. */
	ok(tid_in(cb_attach_tids, cb_attach_count, GetCurrentThreadId()),
	   "%s: no THREAD_ATTACH callback on this thread\n", name);
	/* Rule: each new thread starts with the initial values, whatever
	 * other threads have written to their copies. */
	ok(gnu_tls == 42, "%s: gnu_tls %d\n", name, gnu_tls);
	ok(!strcmp(c11_tls, "initial"), "%s: c11_tls [%s]\n", name, c11_tls);
	/* Rule: a TLS slot reads NULL in a thread that never set it. */
	ok(TlsGetValue(tls_slot) == NULL, "%s: TLS slot %p\n", name, TlsGetValue(tls_slot));
	if (tls_dir)
		check_fresh_block(name);

	gnu_tls = 1000 + r->index;
	c11_tls = name;
	TlsSetValue(tls_slot, r);
	r->gnu_addr = (void *)&gnu_tls;
	r->tls_block = ((void **)__readgsqword(0x58))[_tls_index];
	if (tls_dir) {
		my_int = native_copy(&native_int);
		r->native_addr = my_int;
		*my_int = 0x5000 + r->index;
	}

	/* Everyone writes before anyone checks, so that a shared copy would
	 * show up as a wrong value. */
	if (InterlockedIncrement(&arrived) == NTHREADS)
		SetEvent(all_arrived);
	WaitForSingleObject(all_arrived, INFINITE);

	ok(gnu_tls == 1000 + r->index, "%s: gnu_tls became %d\n", name, gnu_tls);
	ok(c11_tls == name, "%s: c11_tls became [%s]\n", name, c11_tls);
	ok(TlsGetValue(tls_slot) == r, "%s: TLS slot became %p\n", name, TlsGetValue(tls_slot));
	if (tls_dir)
		ok(*(int *)native_copy(&native_int) == 0x5000 + r->index, "%s: native_int became %#x\n",
		   name, *(int *)native_copy(&native_int));
	return 0;
}

int main(void)
{
	struct thread_result res[NTHREADS];
	HANDLE th[NTHREADS];
	int i, j;

	main_started = 1;
	/* Rule: the program's TLS callbacks run once with DLL_PROCESS_ATTACH
	 * before its entry point. */
	ok(cb_process_attach == 1, "PROCESS_ATTACH callback ran %ld times\n", cb_process_attach);
	ok(cb_main_started_at_attach == 0, "PROCESS_ATTACH callback ran after main started (%ld)\n",
	   cb_main_started_at_attach);
	find_tls_directory();
	tls_slot = TlsAlloc();
	ok(tls_slot != TLS_OUT_OF_INDEXES, "TlsAlloc failed %lu\n", GetLastError());
	all_arrived = CreateEventW(NULL, TRUE, FALSE, NULL);

	if (tls_dir) {
		/* Rule: the loader stores the module's TLS index where
		 * AddressOfIndex points (mingw's _tls_index). */
		ok(tls_dir->AddressOfIndex == (uintptr_t)&_tls_index, "AddressOfIndex %#llx, &_tls_index %p\n",
		   (unsigned long long)tls_dir->AddressOfIndex, (void *)&_tls_index);
		check_fresh_block("main");
		/* Change the main thread's copies: new threads must not see it. */
		*(int *)native_copy(&native_int) = 0x9999;
		strcpy(native_copy(native_str), "main's");
		ok(native_int == 0x1234, "writing the main thread's copy changed the template\n");
	}
	gnu_tls = 7;
	c11_tls = "main";
	TlsSetValue(tls_slot, &main);

	for (i = 0; i < NTHREADS; i++) {
		memset(&res[i], 0, sizeof(res[i]));
		res[i].index = i;
		th[i] = CreateThread(NULL, 0, thread_main, &res[i], 0, &res[i].tid);
		ok(th[i] != NULL, "CreateThread failed %lu\n", GetLastError());
	}
	for (i = 0; i < NTHREADS; i++) {
		WaitForSingleObject(th[i], INFINITE);
		CloseHandle(th[i]);
	}

	/* Rule: a thread's exit runs the TLS callbacks with DLL_THREAD_DETACH
	 * on that thread (before the thread counts as ended). */
	for (i = 0; i < NTHREADS; i++)
		ok(tid_in(cb_detach_tids, cb_detach_count, res[i].tid),
		   "thread %d: no THREAD_DETACH callback\n", i);
	ok(cb_block_missing == 0, "%ld callbacks ran without a TLS block\n", cb_block_missing);

	/* Rule: every thread had its own copy of each variable. */
	for (i = 0; i < NTHREADS; i++)
		for (j = i + 1; j < NTHREADS; j++) {
			ok(res[i].gnu_addr != res[j].gnu_addr, "threads %d and %d share gnu_tls\n", i, j);
			ok(res[i].tls_block != res[j].tls_block, "threads %d and %d share a TLS block\n",
			   i, j);
			ok(res[i].native_addr != res[j].native_addr,
			   "threads %d and %d share native_int\n", i, j);
		}
	ok(gnu_tls == 7, "main: gnu_tls became %d\n", gnu_tls);
	ok(!strcmp(c11_tls, "main"), "main: c11_tls became [%s]\n", c11_tls);
	ok(TlsGetValue(tls_slot) == (void *)&main, "main: TLS slot became %p\n", TlsGetValue(tls_slot));
	if (tls_dir) {
		ok(*(int *)native_copy(&native_int) == 0x9999, "main: native_int became %#x\n",
		   *(int *)native_copy(&native_int));
		ok(!strcmp(native_copy(native_str), "main's"), "main: native_str became [%s]\n",
		   (char *)native_copy(native_str));
	}
	ok(TlsFree(tls_slot), "TlsFree failed %lu\n", GetLastError());
	CloseHandle(all_arrived);
	return test_summary();
}
