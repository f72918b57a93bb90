/* dbghelp for the calling process: SymFromAddr over this program's own
 * exports (name, displacement, module base), SymGetModuleBase64,
 * SymFunctionTableAccess64, StackWalk64 from a captured context up
 * through three exported functions to main, and EnumerateLoadedModulesEx. */
#include <windows.h>
#include <dbghelp.h>

#include "test.h"

static DWORD64 pcs[16];
static int npcs;

__declspec(dllexport) __attribute__((noinline)) void ndshim_walk_leaf(void)
{
	CONTEXT ctx;
	STACKFRAME64 frame;

	RtlCaptureContext(&ctx);
	memset(&frame, 0, sizeof(frame));
	frame.AddrPC.Offset = ctx.Rip;
	frame.AddrPC.Mode = AddrModeFlat;
	frame.AddrStack.Offset = ctx.Rsp;
	frame.AddrStack.Mode = AddrModeFlat;
	frame.AddrFrame.Offset = ctx.Rbp;
	frame.AddrFrame.Mode = AddrModeFlat;
	npcs = 0;
	while (npcs < 16 && StackWalk64(IMAGE_FILE_MACHINE_AMD64, GetCurrentProcess(), GetCurrentThread(), &frame, &ctx,
					NULL, SymFunctionTableAccess64, SymGetModuleBase64, NULL))
		pcs[npcs++] = frame.AddrPC.Offset;
}

__declspec(dllexport) __attribute__((noinline)) void ndshim_walk_middle(void)
{
	ndshim_walk_leaf();
	__asm__ volatile("" ::: "memory"); /* not a tail call */
}

__declspec(dllexport) __attribute__((noinline)) void ndshim_walk_outer(void)
{
	ndshim_walk_middle();
	__asm__ volatile("" ::: "memory");
}

/* Whether pc lies in the function at f (at most 256 bytes long here). */
static int in_function(DWORD64 pc, void (*f)(void))
{
	return pc >= (DWORD64)(ULONG_PTR)f && pc < (DWORD64)(ULONG_PTR)f + 256;
}

static void test_symbols(void)
{
	char buf[sizeof(SYMBOL_INFO) + 256];
	SYMBOL_INFO *si = (SYMBOL_INFO *)buf;
	DWORD64 disp = 99, addr = (DWORD64)(ULONG_PTR)ndshim_walk_middle + 3;
	HMODULE self = GetModuleHandleA(NULL);
	BOOL ret;

	memset(buf, 0, sizeof(buf));
	si->SizeOfStruct = sizeof(SYMBOL_INFO);
	si->MaxNameLen = 256;
	/* Windows finds the export with the module's symbols loaded by
	 * SymInitialize's invade; Wine 8's dbghelp fails to load this
	 * program's symbols (ERROR_FILE_NOT_FOUND). */
	ret = SymFromAddr(GetCurrentProcess(), addr, &disp, si);
	ok_todo_wine(ret, "SymFromAddr: %lu\n", GetLastError());
	if (ret) {
		ok(!strcmp(si->Name, "ndshim_walk_middle"), "name [%s]\n", si->Name);
		ok(si->NameLen == strlen("ndshim_walk_middle"), "NameLen %lu\n", si->NameLen);
		ok(disp == 3, "displacement %llu\n", (unsigned long long)disp);
		ok(si->Address == (DWORD64)(ULONG_PTR)ndshim_walk_middle, "address %#llx\n", (unsigned long long)si->Address);
		ok(si->ModBase == (DWORD64)(ULONG_PTR)self, "ModBase %#llx\n", (unsigned long long)si->ModBase);
		/* A short name buffer: cut, NameLen still the full length. */
		si->MaxNameLen = 6;
		ok(SymFromAddr(GetCurrentProcess(), addr, &disp, si) && !strcmp(si->Name, "ndshi"), "cut name [%s]\n",
		   si->Name);
	}

	ok(SymGetModuleBase64(GetCurrentProcess(), addr) == (DWORD64)(ULONG_PTR)self, "SymGetModuleBase64\n");
	ok(SymFunctionTableAccess64(GetCurrentProcess(), addr) != NULL, "SymFunctionTableAccess64\n");
}

static __attribute__((noinline)) void test_walk(void)
{
	int i;

	ndshim_walk_outer();
	ok(npcs >= 4, "only %d frames\n", npcs);
	if (npcs < 4)
		return;
	ok(in_function(pcs[0], ndshim_walk_leaf), "frame 0 %#llx is not in the leaf\n", (unsigned long long)pcs[0]);
	ok(in_function(pcs[1], ndshim_walk_middle), "frame 1 %#llx is not in the middle\n", (unsigned long long)pcs[1]);
	ok(in_function(pcs[2], ndshim_walk_outer), "frame 2 %#llx is not in the outer\n", (unsigned long long)pcs[2]);
	for (i = 3; i < npcs; i++)
		if (in_function(pcs[i], (void (*)(void))test_walk))
			break;
	ok(i < npcs, "test_walk is not on the stack\n");
}

/* EnumerateLoadedModulesEx lists this program (with its image size)
 * and kernel32. */
struct seen {
	HMODULE self, k32;
	int self_seen, k32_seen;
	ULONG self_size;
};

static BOOL CALLBACK module_cb(PCSTR name, DWORD64 base, ULONG size, PVOID ctx)
{
	struct seen *s = ctx;

	(void)name;
	if (base == (DWORD64)(ULONG_PTR)s->self) {
		s->self_seen++;
		s->self_size = size;
	}
	if (base == (DWORD64)(ULONG_PTR)s->k32)
		s->k32_seen++;
	return TRUE;
}

static void test_modules(void)
{
	struct seen s = { GetModuleHandleA(NULL), GetModuleHandleA("kernel32.dll"), 0, 0, 0 };
	IMAGE_NT_HEADERS *nt = (IMAGE_NT_HEADERS *)((BYTE *)s.self + ((IMAGE_DOS_HEADER *)s.self)->e_lfanew);

	ok(EnumerateLoadedModulesEx(GetCurrentProcess(), module_cb, &s), "EnumerateLoadedModulesEx: %lu\n",
	   GetLastError());
	ok(s.self_seen == 1 && s.self_size == nt->OptionalHeader.SizeOfImage, "the program: %d, size %lu\n",
	   s.self_seen, s.self_size);
	ok(s.k32_seen == 1, "kernel32: %d\n", s.k32_seen);
}

int main(void)
{
	ok(SymInitialize(GetCurrentProcess(), NULL, TRUE), "SymInitialize: %lu\n", GetLastError());
	SymSetOptions(SymGetOptions() | SYMOPT_UNDNAME);
	ok(SymGetOptions() & SYMOPT_UNDNAME, "options\n");
	test_symbols();
	test_walk();
	test_modules();
	ok(SymCleanup(GetCurrentProcess()), "SymCleanup: %lu\n", GetLastError());
	return test_summary();
}
