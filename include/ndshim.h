/* ndshim.dll: what ndrun offers the ND provider (nd2prov.dll) for its
 * overlapped requests.  Usable from mingw-w64 (PE side, import library
 * generated from winapi-shim/ndshim/ndshim.spec: $(NDSHIM_IMPLIB)) and from
 * host gcc with the Wine headers.
 *
 * Statuses are NTSTATUS values carried in HRESULTs, as the ND_* codes of
 * ndstatus.h are (ND_SUCCESS, ND_PENDING, ND_CANCELED, ...).
 *
 * The overlapped file is an ordinary handle: CreateIoCompletionPort
 * associates it, CloseHandle closes it, GetOverlappedResult and
 * CancelIoEx work on it.  It is created with
 * FILE_SKIP_COMPLETION_PORT_ON_SUCCESS | FILE_SKIP_SET_EVENT_ON_HANDLE.
 *
 * A request the provider cannot finish at once:
 *     NdshimBeginOverlapped(file, ov, owner)      -> Internal = ND_PENDING
 *     return ND_PENDING to the client
 *     ... later, on any thread:
 *     NdshimCompleteOverlapped(file, ov, status, bytes)
 * which sets InternalHigh/Internal, the event (hEvent & ~1) and queues a
 * packet to the file's port unless hEvent's low bit is set.  A request
 * finished at once goes through NdshimCompleteOverlappedSync (no packet
 * for a success: the file skips them; nothing but Internal for an error
 * or a warning).
 * NdshimCancelOverlapped(file, owner, ND_CANCELED) completes every
 * request still pending for that owner (the provider's object), in the
 * order they began, before it returns; requests still pending when the
 * file's last handle closes complete with STATUS_CANCELLED. */
#ifndef NDSHIM_PUBLIC_NDSHIM_H
#define NDSHIM_PUBLIC_NDSHIM_H

#ifdef __cplusplus
extern "C" {
#endif

/* S_OK, E_POINTER (out NULL) or E_OUTOFMEMORY. */
HRESULT WINAPI NdshimCreateOverlappedFile(HANDLE *out);

/* Registers ov as pending on file for owner: ND_SUCCESS,
 * ND_INVALID_HANDLE, ND_INVALID_PARAMETER (ov NULL) or ND_NO_MEMORY. */
HRESULT WINAPI NdshimBeginOverlapped(HANDLE file, OVERLAPPED *ov, ULONG_PTR owner);

/* Completes the pending request ov: ND_SUCCESS, or ND_INVALID_HANDLE, or
 * 0xC0000225 (STATUS_NOT_FOUND) when ov is not pending on file (already
 * completed or cancelled): nothing is touched then. */
HRESULT WINAPI NdshimCompleteOverlapped(HANDLE file, OVERLAPPED *ov, HRESULT status,
					ULONG_PTR bytes);

/* A request that finished before the provider returned (pending or not). */
HRESULT WINAPI NdshimCompleteOverlappedSync(HANDLE file, OVERLAPPED *ov, HRESULT status,
					    ULONG_PTR bytes);

/* Completes every pending request of owner with status, in issue order;
 * returns how many (0 for a handle that is not an overlapped file). */
ULONG WINAPI NdshimCancelOverlapped(HANDLE file, ULONG_PTR owner, HRESULT status);

/* Waits, without polling, until ov is no longer pending and returns its
 * status: for GetOverlappedResult(ov, TRUE) when ov has no event to wait
 * on (the overlapped file never signals itself). */
HRESULT WINAPI NdshimWaitOverlapped(OVERLAPPED *ov);

/* The provider's one call into its Linux side (nd2provider/unix_call.h):
 * runs call `code` of nd2prov_unix.so with its params struct and returns
 * its ND status.  The .so is loaded on the first call; when it cannot be,
 * every call returns the same failure (STATUS_DLL_NOT_FOUND, ...) and
 * ndrun says why once on stderr. */
HRESULT WINAPI NdshimUnixCall(ULONG code, void *params);

/* NDSHIM_DEBUG=+nd for the provider's COM methods: when the nd channel is
 * on, fills traced[0..count) with thunks around vtbl[0..count) that log
 * each call as "Call IFACE::METHOD(this,arg2,arg3,arg4) ret=CALLER" and
 * each return as "Ret  IFACE::METHOD() retval=RESULT ret=CALLER" (the
 * +relay format, on channel nd) and returns S_OK; the provider then gives
 * its objects the traced vtable.  S_FALSE when the channel is off
 * (traced untouched), E_OUTOFMEMORY. */
HRESULT WINAPI NdshimTraceVtbl(const char *iface, const char *const *methods, ULONG count,
			       const void *const *vtbl, void **traced);

#ifdef __cplusplus
}
#endif

#endif
