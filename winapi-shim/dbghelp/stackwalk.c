/* StackWalk64 and StackWalkEx on x64: each call moves the frame one
 * caller up by the unwind data of the function the context is in
 * (RtlLookupFunctionEntry, RtlVirtualUnwind), or, in a leaf function
 * without unwind data, by popping the return address.  The context is
 * updated as it goes, as on Windows.  The caller's callbacks for reading
 * memory and finding tables are not used: the stack is the calling
 * process's own.  Another machine type is ERROR_INVALID_PARAMETER; a
 * walk of another process stops the program naming the case. */
#include <string.h>

#include "core/unimpl.h"
#include "dbghelp/dbghelp_private.h"

static BOOL walk(DWORD machine, HANDLE process, CONTEXT *ctx, STACKFRAME64 *frame)
{
	DWORD64 base = 0;
	RUNTIME_FUNCTION *fn;
	void *handler_data;
	DWORD64 establisher;

	if (machine != IMAGE_FILE_MACHINE_AMD64 || !ctx || !frame) {
		SetLastError(ERROR_INVALID_PARAMETER);
		return FALSE;
	}
	if (process != GetCurrentProcess() && GetProcessId(process) != GetCurrentProcessId())
		unimplemented_case("dbghelp.StackWalk64", "a stack of another process");

	/* The first call (the caller zeroed the frame's reserved words)
	 * reports the frame the context is in; later ones unwind. */
	if (!frame->Reserved[0]) {
		frame->Reserved[0] = 1;
		frame->AddrPC.Offset = ctx->Rip;
		frame->AddrPC.Mode = AddrModeFlat;
		frame->AddrStack.Offset = ctx->Rsp;
		frame->AddrStack.Mode = AddrModeFlat;
		frame->AddrFrame.Offset = ctx->Rbp;
		frame->AddrFrame.Mode = AddrModeFlat;
		frame->Virtual = TRUE;
		goto fill;
	}
	if (!ctx->Rip)
		return FALSE;
	fn = RtlLookupFunctionEntry(ctx->Rip, &base, NULL);
	if (fn) {
		RtlVirtualUnwind(UNW_FLAG_NHANDLER, base, ctx->Rip, fn, ctx, &handler_data, &establisher, NULL);
	} else {
		/* A leaf: the return address is on top of the stack. */
		ctx->Rip = *(DWORD64 *)ctx->Rsp;
		ctx->Rsp += 8;
	}
	if (!ctx->Rip)
		return FALSE;
	frame->AddrPC.Offset = ctx->Rip;
	frame->AddrStack.Offset = ctx->Rsp;
	frame->AddrFrame.Offset = ctx->Rbp;
fill:
	frame->AddrReturn.Offset = 0;
	fn = RtlLookupFunctionEntry(ctx->Rip, &base, NULL);
	frame->FuncTableEntry = fn;
	frame->Far = FALSE;
	memset(frame->Params, 0, sizeof(frame->Params));
	return TRUE;
}

BOOL WINAPI StackWalk64(DWORD machine, HANDLE process, HANDLE thread, LPSTACKFRAME64 frame, PVOID ctx,
			PREAD_PROCESS_MEMORY_ROUTINE64 read_memory, PFUNCTION_TABLE_ACCESS_ROUTINE64 table_access,
			PGET_MODULE_BASE_ROUTINE64 module_base, PTRANSLATE_ADDRESS_ROUTINE64 translate)
{
	return walk(machine, process, ctx, frame);
}

/* STACKFRAME_EX begins with STACKFRAME64's fields. */
BOOL WINAPI StackWalkEx(DWORD machine, HANDLE process, HANDLE thread, LPSTACKFRAME_EX frame, PVOID ctx,
			PREAD_PROCESS_MEMORY_ROUTINE64 read_memory, PFUNCTION_TABLE_ACCESS_ROUTINE64 table_access,
			PGET_MODULE_BASE_ROUTINE64 module_base, PTRANSLATE_ADDRESS_ROUTINE64 translate, DWORD flags)
{
	if (!frame || frame->StackFrameSize < sizeof(STACKFRAME64)) {
		SetLastError(ERROR_INVALID_PARAMETER);
		return FALSE;
	}
	if (flags)
		unimplemented_case("dbghelp.StackWalkEx", "flags %#lx", (unsigned long)flags);
	return walk(machine, process, ctx, (STACKFRAME64 *)frame);
}
