/* NtQueryInformationProcess: the classes runtimes ask for.  libuv looks
 * it up at start (and fails without it); Rust, Go and .NET runtimes ask
 * whether a debugger is attached (ProcessDebugPort) and for the basic
 * information (the PEB, the parent's id).  Other classes fail with
 * STATUS_INVALID_INFO_CLASS after a trace line, never with made-up data. */
#include <string.h>
#include <stdbool.h>
#include <unistd.h>

#define WIN32_NO_STATUS
#include "core/debug.h"
#include "loader.h"
#include "ntdll/ntdll_private.h"
#undef WIN32_NO_STATUS
#include <ntstatus.h>

/* The classes' numbers (winternl.h's PROCESSINFOCLASS names few). */
enum {
	CLASS_BASIC = 0,        /* PROCESS_BASIC_INFORMATION */
	CLASS_DEBUG_PORT = 7,   /* DWORD_PTR: nonzero under a debugger */
	CLASS_WOW64 = 26,       /* ULONG_PTR: nonzero for a 32-bit process */
	CLASS_DEBUG_FLAGS = 31, /* ULONG: 1 when not being debugged */
};

/* Copies len bytes of value when the caller's buffer is exactly that
 * size (Windows wants the exact size for fixed-size classes). */
static NTSTATUS put(void *buf, ULONG size, ULONG *ret_len, const void *value, ULONG len)
{
	if (ret_len)
		*ret_len = len;
	if (size != len)
		return STATUS_INFO_LENGTH_MISMATCH;
	memcpy(buf, value, len);
	return STATUS_SUCCESS;
}

NTSTATUS WINAPI NtQueryInformationProcess(HANDLE process, PROCESSINFOCLASS cls, void *buf, ULONG size,
					  ULONG *ret_len)
{
	DWORD pid = GetProcessId(process);
	bool self = pid == GetCurrentProcessId();

	TRACE(process, "(%p, %d, %p, %lu)\n", process, (int)cls, buf, (unsigned long)size);
	if (!pid)
		return STATUS_INVALID_HANDLE;
	switch ((int)cls) {
	case CLASS_BASIC: {
		PROCESS_BASIC_INFORMATION pbi;

		DWORD_PTR mask = 0, sys_mask;
		DWORD code;

		/* The Wine headers name the fields as Microsoft's winternl.h
		 * does: Reserved1 is ExitStatus, Reserved2 the affinity mask
		 * and base priority, Reserved3 InheritedFromUniqueProcessId. */
		memset(&pbi, 0, sizeof(pbi));
		if (self) {
			pbi.PebBaseAddress = loader_peb();
			pbi.Reserved3 = (PVOID)(ULONG_PTR)getppid();
		}
		/* Another process's PEB is not in this address space: NULL, as
		 * the field is only of use with ReadProcessMemory there. */
		pbi.Reserved1 = (PVOID)(ULONG_PTR)STATUS_PENDING;
		if (GetExitCodeProcess(process, &code))
			pbi.Reserved1 = (PVOID)(ULONG_PTR)code;
		if (GetProcessAffinityMask(process, &mask, &sys_mask))
			pbi.Reserved2[0] = (PVOID)mask;
		pbi.Reserved2[1] = (PVOID)(ULONG_PTR)8; /* NORMAL_PRIORITY_CLASS's base priority */
		pbi.UniqueProcessId = pid;
		return put(buf, size, ret_len, &pbi, sizeof(pbi));
	}
	case CLASS_DEBUG_PORT: {
		DWORD_PTR port = 0; /* ndrun runs no Windows debugger */
		return put(buf, size, ret_len, &port, sizeof(port));
	}
	case CLASS_WOW64: {
		ULONG_PTR wow64 = 0; /* every process ndrun runs is 64-bit */
		return put(buf, size, ret_len, &wow64, sizeof(wow64));
	}
	case CLASS_DEBUG_FLAGS: {
		ULONG flags = 1; /* NoDebugInherit: not being debugged */
		return put(buf, size, ret_len, &flags, sizeof(flags));
	}
	}
	TRACE(process, "class %d not supported\n", (int)cls);
	return STATUS_INVALID_INFO_CLASS;
}
