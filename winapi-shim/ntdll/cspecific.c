/* __C_specific_handler: the language handler of MSVC C's __try/__except
 * and __try/__finally.  Its handler data is a scope table: for each
 * guarded range (RVAs, innermost first), a filter (or 1, meaning
 * EXCEPTION_EXECUTE_HANDLER) and the __except block to jump to, or a
 * termination handler with no jump target for __finally. */
#include "core/debug.h"
#include "ntdll/ntdll_private.h"
#include "ntdll/seh_private.h"
#include "core/pecall.h"

struct scope_table {
	DWORD count;
	struct {
		DWORD begin;
		DWORD end;
		DWORD handler; /* filter, 1, or the __finally block */
		DWORD target;  /* the __except block; 0 for __finally */
	} scopes[];
};

typedef LONG(WINAPI *scope_filter)(EXCEPTION_POINTERS *ptrs, void *frame);
typedef void(WINAPI *scope_finally)(BOOLEAN abnormal, void *frame);

static int in_scope(DWORD rva, DWORD begin, DWORD end)
{
	return rva >= begin && rva < end;
}

EXCEPTION_DISPOSITION WINAPI __C_specific_handler(EXCEPTION_RECORD *rec, void *frame, CONTEXT *ctx,
						  DISPATCHER_CONTEXT *disp)
{
	const struct scope_table *table = disp->HandlerData;
	ULONG64 base = disp->ImageBase;
	DWORD pc = (DWORD)(disp->ControlPc - base);

	TRACE(seh, "code %#x flags %#x frame %p scope %u\n", (unsigned)rec->ExceptionCode,
	      (unsigned)rec->ExceptionFlags, frame, (unsigned)disp->ScopeIndex);

	if (!(rec->ExceptionFlags & (EH_UNWINDING | EH_EXIT_UNWIND))) {
		EXCEPTION_POINTERS ptrs = { rec, ctx };

		for (DWORD i = disp->ScopeIndex; i < table->count; i++) {
			LONG filter;

			if (!table->scopes[i].target || !in_scope(pc, table->scopes[i].begin, table->scopes[i].end))
				continue;
			if (table->scopes[i].handler == EXCEPTION_EXECUTE_HANDLER)
				filter = EXCEPTION_EXECUTE_HANDLER;
			else
				filter = (LONG)PE_CALL2(base + table->scopes[i].handler, &ptrs, frame);
			if (filter < 0)
				return ExceptionContinueExecution;
			if (filter > 0) {
				/* The __except block receives the code in eax.  This
				 * frame has no unwind table: start from the raise. */
				seh_unwind_from_handler(disp, frame, (void *)(base + table->scopes[i].target), rec,
							(void *)(ULONG_PTR)rec->ExceptionCode);
			}
		}
		return ExceptionContinueSearch;
	}

	{
		DWORD target = (DWORD)(disp->TargetIp - base);

		for (DWORD i = disp->ScopeIndex; i < table->count; i++) {
			if (!in_scope(pc, table->scopes[i].begin, table->scopes[i].end))
				continue;
			if ((rec->ExceptionFlags & EH_TARGET_UNWIND) &&
			    in_scope(target, table->scopes[i].begin, table->scopes[i].end))
				break; /* the target lies inside this scope: it is not left */
			if (table->scopes[i].target) {
				if ((rec->ExceptionFlags & EH_TARGET_UNWIND) && table->scopes[i].target == target)
					break; /* the __except block the unwind goes to */
				continue;
			}
			/* A collided unwind resumes after the handler that started it. */
			disp->ScopeIndex = i + 1;
			PE_CALL2(base + table->scopes[i].handler, TRUE, frame);
		}
	}
	return ExceptionContinueSearch;
}
