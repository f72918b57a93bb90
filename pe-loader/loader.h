/* What the PE loader offers the rest of ndrun (the builtin DLLs).
 *
 * Every function here is sysv (plain Linux C); the kernel32/ntdll exports
 * that PE code calls wrap them.  Functions that can fail set the Win32
 * last error and return NULL/FALSE, so a wrapper can return directly. */
#ifndef NDSHIM_LOADER_H
#define NDSHIM_LOADER_H

#include <stdint.h>
#include <windef.h>
#include <winbase.h>
#include <winternl.h>
#include <winerror.h>

/* Modules (LoadLibraryExW, GetModuleHandleW, GetProcAddress, FreeLibrary,
 * GetModuleFileNameW).  HMODULE is the image base, for builtins too. */
HMODULE loader_load_library(const WCHAR *name, DWORD flags);
BOOL loader_free_library(HMODULE module);
HMODULE loader_get_module_handle(const WCHAR *name); /* NULL: the exe */
/* GetModuleHandleExW: GET_MODULE_HANDLE_EX_FLAG_FROM_ADDRESS, _PIN and
 * _UNCHANGED_REFCOUNT honoured. */
HMODULE loader_get_module_handle_ex(DWORD flags, const WCHAR *name);
BOOL loader_disable_thread_calls(HMODULE module);
/* name: a string, or an ordinal when its high bits are zero (MAKEINTRESOURCE). */
void *loader_get_proc_address(HMODULE module, const char *name);
/* For crash reports: a "note:" line on stderr for each of the last (up
 * to three) GetProcAddress look-ups that returned NULL, newest first. */
void loader_note_failed_lookups(void);

/* SetDllDirectoryW's folder: unix_dir (taken over, malloc'ed) searched
 * after the program's folder, win_dir what GetDllDirectoryW reports; both
 * NULL for the default search.  FALSE when out of memory. */
BOOL loader_set_dll_directory(char *unix_dir, const WCHAR *win_dir);
/* A malloc'ed copy of the folder set, or NULL. */
WCHAR *loader_get_dll_directory(void);
DWORD loader_get_module_file_name(HMODULE module, WCHAR *buf, DWORD size);
/* EnumProcessModules: at most max HMODULEs into out (the program's
 * first); the number loaded. */
DWORD loader_enum_modules(HMODULE *out, DWORD max);
/* A loaded module's base, size, entry point (NULL: none) and file name
 * (e.g. "kernel32.dll", valid while the module stays loaded); NULL
 * module: the program.  FALSE with ERROR_INVALID_HANDLE when module is
 * not loaded. */
BOOL loader_module_info(HMODULE module, void **base, DWORD *size, void **entry, const char **name);

/* Threads.  A thread that will run PE code first gets a TEB (GS base,
 * static TLS copies, last-error slot) with loader_thread_init, then runs
 * TLS callbacks and DllMain(DLL_THREAD_ATTACH) with loader_thread_attach;
 * on its way out it calls loader_thread_detach and loader_thread_exit. */
TEB *loader_thread_init(void *stack_base, void *stack_limit);
void loader_thread_attach(void);
void loader_thread_detach(void);
void loader_thread_exit(void);

/* The TEB of the calling thread, NULL on a thread that never ran PE code
 * (such threads have no GS base: never read gs: there). */
TEB *loader_current_teb(void);

/* Calls the PE function fn(args[0], ..., args[9]) and returns its rax,
 * restoring the registers a sysv call keeps from its own frame
 * (pe-loader/callpe.S): a damaged image's code that clobbers them cannot
 * crash the caller.  Builtins call the program's callbacks through it
 * (core/pecall.h), so that their faults are the program's. */
#define PE_CALL_MAX_ARGS 10
uintptr_t loader_call_pe_args(void *fn, const uintptr_t args[PE_CALL_MAX_ARGS]);
/* The return address of loader_call_pe_args's call of fn. */
extern char loader_call_pe_ret[];

/* fn(a, b, c): an entry point, DllMain, a TLS callback. */
static inline uintptr_t loader_call_pe(void *fn, uintptr_t a, uintptr_t b, uintptr_t c)
{
	const uintptr_t args[PE_CALL_MAX_ARGS] = { a, b, c };

	return loader_call_pe_args(fn, args);
}

/* ndrun is ending the program itself (an unimplemented function called,
 * an unhandled exception): the builtins' stop hooks write out the C
 * runtime's stream buffers, so what the program printed is not lost. */
void loader_stop_runtimes(void);

/* ExitProcess: DLL_PROCESS_DETACH in reverse order, then exit(code). */
void loader_exit_process(UINT code) __attribute__((noreturn));
/* The same without running any of the program's code (no DLL detach):
 * for an end decided in the fault handler, on its own stack. */
void loader_terminate_process(UINT code) __attribute__((noreturn));

/* The process: PEB, command line (as given to CreateProcess on Windows). */
PEB *loader_peb(void);
const WCHAR *loader_command_line_w(void);
const char *loader_command_line_a(void);

#endif
