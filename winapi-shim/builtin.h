/* Builtin DLLs: Win32 modules implemented in ndrun itself.
 *
 * Each DLL has one folder, winapi-shim/<dll>/, and one export list,
 * <dll>.spec, whose lines are
 *
 *     EXPORT(CloseHandle)               name and C symbol are the same
 *     EXPORT_AS(printf, crt_printf)     the C symbol differs from the name
 *     EXPORT_ORD(WSAStartup, 115)       also reachable by ordinal
 *     EXPORT_ORD_AS(bind, 2, ws_bind)
 *
 * kept sorted by exported name (strcmp order; a unit test checks it).  The
 * list is expanded into a table by builtin_table.h; nothing else lists
 * exports.  A name missing from the list binds to a trap thunk that names
 * it when called, so an unlisted function is never silently a no-op.
 *
 * Every exported function is ms_abi (WINAPI, or __cdecl, which the Wine
 * headers also define as ms_abi on x86-64) and is declared with a
 * prototype the table's translation unit can see: the Wine headers for
 * Win32 names, the DLL's own private header for the rest. */
#ifndef NDSHIM_BUILTIN_H
#define NDSHIM_BUILTIN_H

#include <stddef.h>
#include <stdint.h>

struct builtin_export {
	const char *name;
	const void *addr;
	uint16_t ordinal; /* 0: exported by name only */
};

struct builtin_dll {
	const char *name; /* lower case, with ".dll" */
	const struct builtin_export *exports;
	unsigned int count;
	/* Run at process exit after every PE DLL's DLL_PROCESS_DETACH
	 * (msvcrt flushes its streams here); set with BUILTIN_DETACH. */
	void (*process_detach)(void);
	/* Run when ndrun ends the program itself (an unimplemented function
	 * called, an unhandled exception), before its report: C runtimes
	 * write out their stream buffers here.  Must not wait for locks the
	 * stopped thread may hold.  Set with BUILTIN_STOP. */
	void (*stop)(void);
	/* Names this DLL lacks are looked up here (set with BUILTIN_ALSO):
	 * kernelbase.dll, which hosts most of kernel32's functions on Windows
	 * (programs look them up there, e.g. GetModuleHandle("kernelbase")
	 * then WaitOnAddress), answers with kernel32's. */
	const struct builtin_dll *also;
};

/* Find a builtin by DLL name, case-insensitively, ".dll" optional. */
const struct builtin_dll *builtin_find(const char *name);
const void *builtin_lookup_name(const struct builtin_dll *dll, const char *name);
const void *builtin_lookup_ordinal(const struct builtin_dll *dll, unsigned int ordinal);

/* Every builtin DLL, for enumeration (tests, GetModuleHandle). */
extern const struct builtin_dll *const builtin_dlls[];
extern const unsigned int builtin_dll_count;

#endif
