/* Prototypes of kernel32 exports that the Wine headers do not declare,
 * and helpers shared by kernel32's files. */
#ifndef NDSHIM_KERNEL32_PRIVATE_H
#define NDSHIM_KERNEL32_PRIVATE_H

#include <stdbool.h>
#include <stdint.h>
#include <windef.h>
#include <winbase.h>
#include <winternl.h>

#include <winnls.h>
#include <wincon.h>
#include <tlhelp32.h>

/* Exports the Wine headers leave out (processthreadsapi.c, fibersapi.c,
 * errhandlingapi.c, wer.c). */
void WINAPI GetCurrentThreadStackLimits(PULONG_PTR low, PULONG_PTR high);
BOOL WINAPI IsThreadAFiber(void);
void WINAPI RaiseFailFastException(PEXCEPTION_RECORD rec, PCONTEXT ctx, DWORD flags);
HRESULT WINAPI WerGetFlags(HANDLE process, PDWORD flags);
HRESULT WINAPI WerSetFlags(DWORD flags);
USHORT WINAPI RtlCaptureStackBackTrace(ULONG skip, ULONG count, PVOID *frames, PULONG hash);

/* interlockedapi.c */
PSLIST_ENTRY WINAPI InterlockedPushListSListEx(PSLIST_HEADER head, PSLIST_ENTRY first,
					       PSLIST_ENTRY last, ULONG count);

/* strresult.c: the string-into-caller's-buffer size protocol; the A form
 * converts to the ANSI code page (0 and ERROR_NOT_ENOUGH_MEMORY when it
 * cannot allocate). */
DWORD string_result_w(const WCHAR *s, WCHAR *buf, DWORD size);
DWORD string_result_a(const WCHAR *s, char *buf, DWORD size);
/* The same into code page cp (cp_file() for file names). */
DWORD string_result_cp(UINT cp, const WCHAR *s, char *buf, DWORD size);

/* stdrelay.c: for a named pipe end with write access, the write end of
 * a Linux pipe whose data a relay thread copies into it (the caller
 * closes the fd once the child has it); -1 for anything else. */
int stdrelay_start(HANDLE h);

/* procthreadattr.c: what CreateProcess honours of an attribute list
 * (handle list, job list; either may be absent).  FALSE with
 * ERROR_NOT_SUPPORTED when the list holds anything else. */
BOOL proc_attr_list_get(LPPROC_THREAD_ATTRIBUTE_LIST list, const HANDLE **handles, size_t *n_handles,
			const HANDLE **jobs, size_t *n_jobs);

/* fileapi.c: helpers its neighbours (findfile.c) share.  path_error:
 * the Win32 error for errno on unix_path (ENOENT is
 * ERROR_PATH_NOT_FOUND when a folder on the way is missing); a_to_w: an
 * A-function's string in UTF-16 (malloc'ed; NULL with the last error). */
struct stat;
struct timespec;
DWORD file_attributes_from_stat(const struct stat *st);
void filetime_from_timespec(FILETIME *ft, const struct timespec *ts);
DWORD path_error(const char *unix_path, int err);
WCHAR *a_to_w(const char *s);

/* winenv.c: the Windows variables added to the environment block at
 * start-up, through the block's own unlocked accessors; the Linux values
 * back in a Linux child's "NAME=value" array (in place). */
struct winenv_ops {
	WCHAR *(*get)(const WCHAR *name); /* malloc'd, NULL when not set */
	bool (*put)(const WCHAR *name, const WCHAR *value);
};
void winenv_build(const struct winenv_ops *ops);
void winenv_for_linux(char **envp);

/* dirinfo.c: GetFileInformationByHandleEx's folder-listing classes
 * (FileIdBothDirectoryInfo, FileFullDirectoryInfo and their Restart
 * forms), on NtQueryDirectoryFile. */
bool dir_info_class(FILE_INFO_BY_HANDLE_CLASS cls);
BOOL dir_info(HANDLE h, FILE_INFO_BY_HANDLE_CLASS cls, void *buf, DWORD size);

/* processtopologyapi.c (the Wine headers lack them) */
WORD WINAPI GetActiveProcessorGroupCount(void);
WORD WINAPI GetMaximumProcessorGroupCount(void);
BOOL WINAPI GetThreadIdealProcessorEx(HANDLE h, PPROCESSOR_NUMBER ideal);
BOOL WINAPI SetThreadIdealProcessorEx(HANDLE h, PPROCESSOR_NUMBER ideal, PPROCESSOR_NUMBER prev);

/* affinity.c, systemtopologyapi.c (the Wine headers lack them) */
BOOL WINAPI GetThreadGroupAffinity(HANDLE h, GROUP_AFFINITY *affinity);
BOOL WINAPI SetThreadGroupAffinity(HANDLE h, const GROUP_AFFINITY *affinity, GROUP_AFFINITY *prev);
BOOL WINAPI GetProcessGroupAffinity(HANDLE process, PUSHORT count, PUSHORT groups);
BOOL WINAPI GetNumaHighestNodeNumber(PULONG highest);
BOOL WINAPI GetNumaNodeProcessorMask(UCHAR node, PULONGLONG mask);

/* processthreadsapi.c (the Wine headers lack it) */
BOOL WINAPI SetThreadStackGuarantee(PULONG size);

/* timerqueue.c (Windows 8; the Wine headers lack it) */
BOOL WINAPI SetThreadpoolTimerEx(PTP_TIMER tp, PFILETIME due, DWORD period, DWORD window);

/* memoryapi.c */
SIZE_T WINAPI GetLargePageMinimum(void);

/* fileapi.c: FILE_ATTRIBUTE_* of a stat result; a Linux time as a
 * FILETIME; the Win32 error for a failed open/stat of unix_path (ENOENT
 * splits into file and path not found). */
struct stat;
struct timespec;
DWORD file_attributes_from_stat(const struct stat *st);
void filetime_from_timespec(FILETIME *ft, const struct timespec *ts);
DWORD path_error(const char *unix_path, int err);

/* processthreadsapi.c */
BOOL WINAPI SetThreadStackGuarantee(PULONG size);

/* consolebuffer.c: the ANSI SGR sequence for a console text attribute
 * into buf; its length. */
size_t console_sgr(WORD attr, char *buf, size_t size);
/* The attribute SetConsoleTextAttribute set last (what text written
 * next is drawn with). */
WORD console_attributes(void);

/* psapi.c: the K32* names are the implementations (psapi.dll exports
 * them under its own names). */
#include <psapi.h>

/* cputimes.c */
BOOL WINAPI GetSystemTimes(LPFILETIME idle, LPFILETIME kernel, LPFILETIME user);

struct object;

/* filemapping.c, for DuplicateHandle into another process: a mapping's
 * fd (still its), segment file name (NULL: none), size and protection;
 * and a mapping made of such (fd and path now its). */
bool mapping_export(struct object *obj, int *fd, const char **path, uint64_t *size, DWORD *protect);
struct object *mapping_import(int fd, char *path, uint64_t size, DWORD protect);

/* processhandle.c: the process object for pid (this one, a child of
 * ours, or any other through a pidfd), referenced; NULL with the last
 * error (ERROR_INVALID_PARAMETER: no such process). */
struct object *process_open_pid(int pid);

struct spawn_inherit;
/* duphandle.c: obj as an inherited handle (STARTUP_KIND_SYNC or
 * _MAPPING) with a descriptor of the child's own in si->fd, for
 * CreateProcess; false when obj has nothing to inherit. */
bool duphandle_inherit_segment(struct object *obj, struct spawn_inherit *si);

/* duphandle.c: DuplicateHandle where a process handle names another
 * process than this one. */
BOOL duphandle_cross_process(HANDLE src_process, HANDLE src, HANDLE dst_process, HANDLE *dst,
			     DWORD access, BOOL inherit, DWORD options);

#include "ntdll/ntdll_private.h"

#endif
