/* Prototypes of ntdll exports that the Wine headers do not declare,
 * and helpers shared by ntdll's files. */
#ifndef NDSHIM_NTDLL_PRIVATE_H
#define NDSHIM_NTDLL_PRIVATE_H

#include <windef.h>
#include <winbase.h>
#include <winternl.h>
#include <excpt.h>

/* exception handling (exception.c, vectored.c, cspecific.c, context.S) */
void WINAPI RtlRestoreContext(CONTEXT *ctx, EXCEPTION_RECORD *rec);
PVOID WINAPI RtlAddVectoredContinueHandler(ULONG first, PVECTORED_EXCEPTION_HANDLER func);
ULONG WINAPI RtlRemoveVectoredContinueHandler(PVOID handle);
EXCEPTION_DISPOSITION WINAPI __C_specific_handler(EXCEPTION_RECORD *rec, void *frame, CONTEXT *ctx,
						  DISPATCHER_CONTEXT *disp);

/* stack walks (stackwalk.c, entry stubs in context.S) */
USHORT WINAPI RtlCaptureStackBackTrace(ULONG skip, ULONG count, PVOID *frames, PULONG hash);
ULONG WINAPI RtlWalkFrameChain(PVOID *frames, ULONG count, ULONG flags);

/* status.c: a Win32 error as the NTSTATUS an Nt* function returns */
NTSTATUS ntstatus_from_win32(DWORD err);

/* ntversion.c (the Wine headers lack it) */
void WINAPI RtlGetNtVersionNumbers(ULONG *major, ULONG *minor, ULONG *build);

/* image headers (image.c) */
PVOID WINAPI RtlAddressInSectionTable(const IMAGE_NT_HEADERS *nt, HMODULE module, DWORD rva);

/* IPv4 text (ipv4.c): declared by ip2string.h */
#include <inaddr.h>
#include <in6addr.h>
#include <ip2string.h>

/* pointer encoding (rtlpointer.c) */
PVOID WINAPI RtlEncodeSystemPointer(PVOID ptr);
PVOID WINAPI RtlDecodeSystemPointer(PVOID ptr);

#endif
