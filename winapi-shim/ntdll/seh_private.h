/* What ntdll's exception files share: the function-table registry, the
 * unwinder's walk helpers, the dispatcher and the assembly stubs. */
#ifndef NDSHIM_SEH_PRIVATE_H
#define NDSHIM_SEH_PRIVATE_H

#include <stddef.h>
#include <stdint.h>

#include <windef.h>
#include <winbase.h>
#include <winternl.h>
#include <excpt.h>

#include "ntdll/seh.h"

/* NTSTATUS values the exception code needs (ntstatus.h clashes with
 * winnt.h's subset, so they are spelled out here). */
#ifndef STATUS_SUCCESS
#define STATUS_SUCCESS ((NTSTATUS)0x00000000)
#endif
#ifndef STATUS_UNWIND
#define STATUS_UNWIND ((NTSTATUS)0xC0000027)
#endif
#ifndef STATUS_BAD_STACK
#define STATUS_BAD_STACK ((NTSTATUS)0xC0000028)
#endif
#ifndef STATUS_INVALID_UNWIND_TARGET
#define STATUS_INVALID_UNWIND_TARGET ((NTSTATUS)0xC0000029)
#endif
#ifndef STATUS_NOT_IMPLEMENTED
#define STATUS_NOT_IMPLEMENTED ((NTSTATUS)0xC0000002)
#endif
#ifndef STATUS_INVALID_PARAMETER
#define STATUS_INVALID_PARAMETER ((NTSTATUS)0xC000000D)
#endif
#ifndef STATUS_END_OF_FILE
#define STATUS_END_OF_FILE ((NTSTATUS)0xC0000011)
#endif

/* ---- functable.c ---- */

/* Non-zero when pc lies in a registered image or function table: code
 * whose faults become Windows exceptions.  Lock-free, so the fault
 * handler may ask. */
int seh_pc_in_pe(ULONG64 pc);

/* "name+0xoffset" for pc in a registered image, else "0x..." alone. */
void seh_describe_pc(ULONG64 pc, char *buf, size_t len);

/* The registered image holding pc: its base, size and file ("" when
 * not known); 0 when pc is in none. */
int seh_image_of_pc(ULONG64 pc, ULONG64 *base, DWORD *size, char *path, size_t pathlen);

/* ---- symbols.c ---- */

/* "symbol+0xoffset" for pc in a registered image, from the image's
 * exports and its file's COFF symbol table: 0 when none lies below pc
 * in the same image.  is_return: pc is a return address (the call
 * before it is what counts). */
int seh_symbol_for_pc(ULONG64 pc, int is_return, char *buf, size_t len);

/* ---- unwind.c ---- */

/* One step up the stack from ctx, for a frame whose function is known or
 * a leaf (inside a registered image, or code outside any image such as
 * NULL or a page the program allocated).  Returns 0 with *ctx the caller's
 * context, handler/data/frame filled when a handler of type htype (a
 * UNW_FLAG_* value, 0 for none) covers the frame; -1 when pc is a frame of
 * ndrun itself (or the end of the stack). */
int seh_unwind_step(CONTEXT *ctx, DWORD htype, ULONG64 *control_pc, ULONG64 *image_base,
		    RUNTIME_FUNCTION **entry, PEXCEPTION_ROUTINE *handler, void **data,
		    ULONG64 *frame);

/* Non-zero when pc lies in one of ndrun's own (ELF) objects. */
int seh_pc_is_host(ULONG64 pc);

/* Reads the 8-byte-aligned quadword at addr without faulting: 1 when it
 * was readable.  Async-signal-safe. */
int seh_peek(ULONG64 addr, ULONG64 *val);

/* ---- context.S ---- */

/* Calls handler(rec, frame, ctx, disp) from a frame the walkers
 * recognise by its return address, seh_call_handler_ret; the frame keeps
 * `nest` at [rsp + SEH_NEST_OFFSET] of the context unwound to it. */
struct seh_nest;
EXCEPTION_DISPOSITION __attribute__((ms_abi))
seh_call_handler(EXCEPTION_RECORD *rec, void *frame, CONTEXT *ctx, DISPATCHER_CONTEXT *disp,
		 PEXCEPTION_ROUTINE handler, struct seh_nest *nest);
extern const char seh_call_handler_ret[];
#define SEH_NEST_OFFSET 0x20

/* ---- exception.c ---- */

/* An exception or unwind in progress on this thread, reached from the
 * seh_call_handler frame when a later walk crosses it. */
struct seh_nest {
	DISPATCHER_CONTEXT disp;   /* the frame whose handler is running */
	enum { SEH_NEST_DISPATCH, SEH_NEST_UNWIND, SEH_NEST_CATCH } kind;
	/* where the exception was raised / RtlUnwindEx called; for a catch
	 * block, the context a consolidating unwind resumes in */
	CONTEXT *raise_ctx;
};

/* Two-phase dispatch of rec raised in ctx; returns only when the
 * exception was continued, never for a fault (see signal.c). */
void seh_dispatch(EXCEPTION_RECORD *rec, CONTEXT *ctx);

/* RtlUnwindEx for a handler implemented in ndrun (no unwind tables of
 * its own): the unwind starts where the exception being dispatched to
 * disp (a DISPATCHER_CONTEXT from seh_dispatch) was raised.  A NULL
 * target_ip resumes the target frame at its own pc (a C++ catch found
 * from a catch funclet unwinds to the parent function's frame). */
void seh_unwind_from_handler(DISPATCHER_CONTEXT *disp, void *target_frame, void *target_ip,
			     EXCEPTION_RECORD *rec, void *retval) __attribute__((noreturn));

/* Entry points of the assembly stubs, which capture their caller's
 * context first.  args points at the stub's arguments in order (the
 * caller's home area and stack arguments). */
void __attribute__((ms_abi)) seh_raise_exception_worker(ULONG_PTR *args, CONTEXT *ctx);
void __attribute__((ms_abi)) seh_rtl_raise_worker(ULONG_PTR *args, CONTEXT *ctx);
void __attribute__((ms_abi)) seh_unwind_ex_worker(ULONG_PTR *args, CONTEXT *ctx);
void __attribute__((ms_abi)) seh_unwind_worker(ULONG_PTR *args, CONTEXT *ctx);

/* RtlRestoreContext's answer to a consolidation request. */
void __attribute__((ms_abi)) seh_consolidate(CONTEXT *ctx, EXCEPTION_RECORD *rec);

/* ---- vectored.c ---- */

enum seh_vectored_list { SEH_VECTORED_EXCEPTION, SEH_VECTORED_CONTINUE };

/* Call the list's handlers in order; returns 1 when one answered
 * EXCEPTION_CONTINUE_EXECUTION (the rest are then skipped). */
int seh_call_vectored(enum seh_vectored_list which, EXCEPTION_RECORD *rec, CONTEXT *ctx);

/* ---- hostfault.c ---- */

/* From the fault handler, for a fault in host code: ctx holds the
 * faulting state; when the host frames lead back to a PE caller (a
 * builtin that faulted on what the program passed), ctx becomes that
 * caller's state just after its call and 1 is returned; 0 otherwise. */
int seh_builtin_fault_caller(CONTEXT *ctx);
/* From the fault handler first: a fault during that walk returns into
 * it (does not return then). */
void seh_builtin_walk_fault(void);
/* For the crash report: when the exception at pc is the last builtin
 * fault of this thread, a line naming the builtin. */
void seh_builtin_fault_note(ULONG64 pc);

/* ---- unhandled.c ---- */

/* The last resort: the top-level filter, then the report and the exit.
 * Returns only when a filter asked to continue execution. */
void seh_unhandled(EXCEPTION_RECORD *rec, CONTEXT *ctx);
/* Print the crash report for rec/ctx to stderr. */
void seh_report(const EXCEPTION_RECORD *rec, const CONTEXT *ctx);
/* Terminate the process with code, as Windows does for a fatal exception. */
void seh_terminate(DWORD code) __attribute__((noreturn));
/* The same from the fault handler, on its signal stack: none of the
 * program's code runs (no DLL detach), as no stack is left for it. */
void seh_terminate_now(DWORD code) __attribute__((noreturn));

#endif
