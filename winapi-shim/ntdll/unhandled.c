/* What happens to an exception nobody handled: the top-level filter
 * (UnhandledExceptionFilter, which calls the program's own), then a
 * report on stderr and the end of the process with the exception code as
 * its exit code, as on Windows. */
#include <stdio.h>
#include <unistd.h>

#include "core/debug.h"
#include "loader.h"
#include "ntdll/ntdll_private.h"
#include "ntdll/seh_private.h"

#define MAX_TRACE_FRAMES 64
/* Below this, an address is a small integer, not memory: Windows never
 * maps the first 64 KiB. */
#define LOW_ADDRESS 0x10000

static const struct {
	DWORD code;
	const char *name;
} code_names[] = {
	{ EXCEPTION_ACCESS_VIOLATION, "EXCEPTION_ACCESS_VIOLATION" },
	{ EXCEPTION_ARRAY_BOUNDS_EXCEEDED, "EXCEPTION_ARRAY_BOUNDS_EXCEEDED" },
	{ EXCEPTION_BREAKPOINT, "EXCEPTION_BREAKPOINT" },
	{ EXCEPTION_DATATYPE_MISALIGNMENT, "EXCEPTION_DATATYPE_MISALIGNMENT" },
	{ EXCEPTION_FLT_DENORMAL_OPERAND, "EXCEPTION_FLT_DENORMAL_OPERAND" },
	{ EXCEPTION_FLT_DIVIDE_BY_ZERO, "EXCEPTION_FLT_DIVIDE_BY_ZERO" },
	{ EXCEPTION_FLT_INEXACT_RESULT, "EXCEPTION_FLT_INEXACT_RESULT" },
	{ EXCEPTION_FLT_INVALID_OPERATION, "EXCEPTION_FLT_INVALID_OPERATION" },
	{ EXCEPTION_FLT_OVERFLOW, "EXCEPTION_FLT_OVERFLOW" },
	{ EXCEPTION_FLT_STACK_CHECK, "EXCEPTION_FLT_STACK_CHECK" },
	{ EXCEPTION_FLT_UNDERFLOW, "EXCEPTION_FLT_UNDERFLOW" },
	{ EXCEPTION_ILLEGAL_INSTRUCTION, "EXCEPTION_ILLEGAL_INSTRUCTION" },
	{ EXCEPTION_IN_PAGE_ERROR, "EXCEPTION_IN_PAGE_ERROR" },
	{ EXCEPTION_INT_DIVIDE_BY_ZERO, "EXCEPTION_INT_DIVIDE_BY_ZERO" },
	{ EXCEPTION_INT_OVERFLOW, "EXCEPTION_INT_OVERFLOW" },
	{ EXCEPTION_INVALID_DISPOSITION, "EXCEPTION_INVALID_DISPOSITION" },
	{ EXCEPTION_NONCONTINUABLE_EXCEPTION, "EXCEPTION_NONCONTINUABLE_EXCEPTION" },
	{ EXCEPTION_PRIV_INSTRUCTION, "EXCEPTION_PRIV_INSTRUCTION" },
	{ EXCEPTION_SINGLE_STEP, "EXCEPTION_SINGLE_STEP" },
	{ EXCEPTION_STACK_OVERFLOW, "EXCEPTION_STACK_OVERFLOW" },
	{ STATUS_BAD_STACK, "STATUS_BAD_STACK" },
	{ STATUS_INVALID_UNWIND_TARGET, "STATUS_INVALID_UNWIND_TARGET" },
	{ 0x20474343, "GCC C++ exception" },
	{ 0xe06d7363, "MSVC C++ exception" },
};

static const char *code_name(DWORD code)
{
	for (size_t i = 0; i < sizeof(code_names) / sizeof(code_names[0]); i++)
		if (code_names[i].code == code)
			return code_names[i].name;
	return "application-defined";
}

void seh_report(const EXCEPTION_RECORD *rec, const CONTEXT *ctx)
{
	char where[128], detail[96] = "";
	CONTEXT walk = *ctx;

	/* The program's own output first, as it would have come. */
	loader_stop_runtimes();
	seh_describe_pc((ULONG64)rec->ExceptionAddress, where, sizeof(where));
	if ((rec->ExceptionCode == EXCEPTION_ACCESS_VIOLATION || rec->ExceptionCode == EXCEPTION_IN_PAGE_ERROR) &&
	    rec->NumberParameters >= 2) {
		ULONG_PTR kind = rec->ExceptionInformation[0];
		snprintf(detail, sizeof(detail), ": %s access to 0x%016llx",
			 kind == EXCEPTION_WRITE_FAULT ? "write" : kind == EXCEPTION_EXECUTE_FAULT ? "execute" : "read",
			 (unsigned long long)rec->ExceptionInformation[1]);
	}
	fprintf(stderr, "ndrun: unhandled exception 0x%08x (%s) at %p (%s)%s\n", (unsigned)rec->ExceptionCode,
		code_name(rec->ExceptionCode), rec->ExceptionAddress, where, detail);
	seh_builtin_fault_note((ULONG64)rec->ExceptionAddress);
	/* A call through a NULL (or small) pointer: often one a failed
	 * GetProcAddress returned. */
	if ((ULONG64)rec->ExceptionAddress < LOW_ADDRESS ||
	    (rec->ExceptionCode == EXCEPTION_ACCESS_VIOLATION && rec->NumberParameters >= 2 &&
	     rec->ExceptionInformation[0] == EXCEPTION_EXECUTE_FAULT && rec->ExceptionInformation[1] < LOW_ADDRESS))
		loader_note_failed_lookups();
	for (int i = 0; i < MAX_TRACE_FRAMES; i++) {
		ULONG64 pc, base, frame;
		RUNTIME_FUNCTION *rf;
		PEXCEPTION_ROUTINE handler;
		void *data;
		ULONG64 rsp = walk.Rsp;
		char sym[160];

		/* Frame 0 may be outside any image (a NULL call). */
		if (!seh_pc_in_pe(walk.Rip) && (i || seh_pc_is_host(walk.Rip)))
			break;
		seh_describe_pc(walk.Rip, where, sizeof(where));
		/* A return address lies past its call, maybe past the end of
		 * the function: the caller's symbol is the one before it. */
		if (seh_symbol_for_pc(walk.Rip, i != 0, sym, sizeof(sym)))
			fprintf(stderr, "ndrun:   #%-2d 0x%016llx %s (%s)\n", i, (unsigned long long)walk.Rip, where, sym);
		else
			fprintf(stderr, "ndrun:   #%-2d 0x%016llx %s\n", i, (unsigned long long)walk.Rip, where);
		if (seh_unwind_step(&walk, 0, &pc, &base, &rf, &handler, &data, &frame) < 0)
			break;
		if (walk.Rsp <= rsp)
			break;
	}
	fflush(stderr);
}

static void say_status(DWORD code)
{
	loader_stop_runtimes();
	/* The shell sees only the low byte of the status (0xc0000005 is 5,
	 * 0xc0000094 is 148, which looks like a signal): the whole of it
	 * here. */
	fprintf(stderr, "ndrun: the program ended with status 0x%08x (%s); its exit status is %u\n", (unsigned)code,
		code_name(code), (unsigned)(code & 0xff));
	fflush(stderr);
}

void seh_terminate(DWORD code)
{
	say_status(code);
	loader_exit_process(code);
}

void seh_terminate_now(DWORD code)
{
	say_status(code);
	loader_terminate_process(code);
}

void seh_unhandled(EXCEPTION_RECORD *rec, CONTEXT *ctx)
{
	EXCEPTION_POINTERS ptrs = { rec, ctx };
	LONG ret = UnhandledExceptionFilter(&ptrs);

	if (ret == EXCEPTION_CONTINUE_EXECUTION && !(rec->ExceptionFlags & EH_NONCONTINUABLE))
		return;
	seh_terminate(rec->ExceptionCode);
}
