/* Exception dispatch and unwinding: RtlRaiseException, RaiseException's
 * worker, the two-phase dispatch, RtlUnwindEx and RtlUnwind.
 *
 * x64 Windows keeps no handler chain in the TEB: handlers are found by
 * walking the stack with the images' unwind tables.  Phase 1 walks up
 * from the raising frame calling each frame's exception handler until
 * one continues execution or starts an unwind; phase 2 (RtlUnwindEx)
 * walks up again calling unwind handlers, then resumes in the target
 * frame.  ndrun's own C frames have no unwind tables, so every handler is
 * called through seh_call_handler, whose frame a later walk recognises:
 * crossing it means crossing an exception or unwind in progress, and the
 * walk continues from the context that one started in. */
#include <stddef.h>
#include <string.h>

#include "core/debug.h"
#include "loader.h"
#include "ntdll/ntdll_private.h"
#include "ntdll/seh_private.h"
#include "core/pecall.h"

#define MAX_FRAMES 100000

static int frame_ok(ULONG64 frame)
{
	TEB *teb = loader_current_teb();

	if (frame & 7)
		return 0;
	if (teb && teb->Tib.StackBase && teb->Tib.StackLimit)
		return frame >= (ULONG64)teb->Tib.StackLimit && frame <= (ULONG64)teb->Tib.StackBase;
	return 1;
}

static struct seh_nest *nest_at(const CONTEXT *ctx)
{
	if (ctx->Rip != (ULONG64)seh_call_handler_ret)
		return NULL;
	return *(struct seh_nest **)(ctx->Rsp + SEH_NEST_OFFSET);
}

/* A new exception about rec (raised in ctx), e.g. a handler's invalid
 * answer; dispatched from the same raising context. */
static void raise_status(NTSTATUS status, EXCEPTION_RECORD *rec, const CONTEXT *ctx)
	__attribute__((noreturn));
static void raise_status(NTSTATUS status, EXCEPTION_RECORD *rec, const CONTEXT *ctx)
{
	EXCEPTION_RECORD nrec = { 0 };
	CONTEXT nctx = *ctx;

	nrec.ExceptionCode = status;
	nrec.ExceptionFlags = EH_NONCONTINUABLE;
	nrec.ExceptionRecord = rec;
	nrec.ExceptionAddress = (void *)ctx->Rip;
	seh_dispatch(&nrec, &nctx);
	__builtin_unreachable();
}

/* Phase 1.  Returns 1 when a handler asked to continue execution. */
static int dispatch_frames(EXCEPTION_RECORD *rec, CONTEXT *ctx)
{
	CONTEXT raise_ctx = *ctx, cur = *ctx;
	UNWIND_HISTORY_TABLE history;
	struct seh_nest nest = { .kind = SEH_NEST_DISPATCH, .raise_ctx = &raise_ctx };
	DISPATCHER_CONTEXT *disp = &nest.disp;
	ULONG64 nested_frame = 0;

	memset(&history, 0, sizeof(history));
	for (int n = 0; n < MAX_FRAMES; n++) {
		struct seh_nest *outer = nest_at(&cur);
		ULONG64 pc, base, frame;
		RUNTIME_FUNCTION *rf;
		PEXCEPTION_ROUTINE handler;
		void *data;
		EXCEPTION_DISPOSITION res;

		if (outer) {
			/* Raised inside a handler: the frames between here and
			 * that handler's frame are nested in its dispatch. */
			if (outer->kind == SEH_NEST_DISPATCH) {
				rec->ExceptionFlags |= EH_NESTED_CALL;
				if (outer->disp.EstablisherFrame > nested_frame)
					nested_frame = outer->disp.EstablisherFrame;
			}
			cur = *outer->raise_ctx;
			continue;
		}
		if (seh_unwind_step(&cur, UNW_FLAG_EHANDLER, &pc, &base, &rf, &handler, &data, &frame) < 0)
			break;
		if (!frame_ok(frame)) {
			TRACE(seh, "bad establisher frame %#llx at pc %#llx\n", (unsigned long long)frame,
			      (unsigned long long)pc);
			rec->ExceptionFlags |= EH_STACK_INVALID;
			break;
		}
		if (!handler)
			continue;

		disp->ControlPc = pc;
		disp->ImageBase = base;
		disp->FunctionEntry = rf;
		disp->EstablisherFrame = frame;
		disp->TargetIp = 0;
		disp->ContextRecord = &cur;
		disp->LanguageHandler = handler;
		disp->HandlerData = data;
		disp->HistoryTable = &history;
		disp->ScopeIndex = 0;
		disp->Fill0 = 0;
		TRACE(seh, "code %#x: handler %p for frame %#llx (pc %#llx)\n", (unsigned)rec->ExceptionCode,
		      handler, (unsigned long long)frame, (unsigned long long)pc);
		res = seh_call_handler(rec, (void *)frame, ctx, disp, handler, &nest);
		if (nested_frame == frame) {
			rec->ExceptionFlags &= ~EH_NESTED_CALL;
			nested_frame = 0;
		}
		switch (res) {
		case ExceptionContinueExecution:
			if (rec->ExceptionFlags & EH_NONCONTINUABLE)
				raise_status(STATUS_NONCONTINUABLE_EXCEPTION, rec, &raise_ctx);
			return 1;
		case ExceptionContinueSearch:
			break;
		case ExceptionNestedException:
			rec->ExceptionFlags |= EH_NESTED_CALL;
			if (disp->EstablisherFrame > nested_frame)
				nested_frame = disp->EstablisherFrame;
			break;
		default:
			raise_status(STATUS_INVALID_DISPOSITION, rec, &raise_ctx);
		}
	}
	return 0;
}

void seh_dispatch(EXCEPTION_RECORD *rec, CONTEXT *ctx)
{
	TRACE(seh, "code %#x flags %#x at %p\n", (unsigned)rec->ExceptionCode,
	      (unsigned)rec->ExceptionFlags, rec->ExceptionAddress);
	if (seh_call_vectored(SEH_VECTORED_EXCEPTION, rec, ctx) ||
	    dispatch_frames(rec, ctx)) {
		seh_call_vectored(SEH_VECTORED_CONTINUE, rec, ctx);
		RtlRestoreContext(ctx, NULL);
	}
	seh_unhandled(rec, ctx);
	RtlRestoreContext(ctx, NULL);
}

void __attribute__((ms_abi)) seh_rtl_raise_worker(ULONG_PTR *args, CONTEXT *ctx)
{
	EXCEPTION_RECORD *rec = (EXCEPTION_RECORD *)args[0];

	rec->ExceptionAddress = (void *)ctx->Rip;
	seh_dispatch(rec, ctx);
}

void __attribute__((ms_abi)) seh_raise_exception_worker(ULONG_PTR *args, CONTEXT *ctx)
{
	EXCEPTION_RECORD rec;
	DWORD n = (DWORD)args[2];
	const ULONG_PTR *params = (const ULONG_PTR *)args[3];

	memset(&rec, 0, sizeof(rec));
	rec.ExceptionCode = (DWORD)args[0];
	rec.ExceptionFlags = (DWORD)args[1] & EH_NONCONTINUABLE;
	rec.ExceptionRecord = NULL;
	rec.ExceptionAddress = (void *)ctx->Rip;
	if (!params)
		n = 0;
	if (n > EXCEPTION_MAXIMUM_PARAMETERS)
		n = EXCEPTION_MAXIMUM_PARAMETERS;
	rec.NumberParameters = n;
	if (n)
		memcpy(rec.ExceptionInformation, params, n * sizeof(ULONG_PTR));
	seh_dispatch(&rec, ctx);
}

static void unwind_failed(NTSTATUS status, const char *why, EXCEPTION_RECORD *rec, const CONTEXT *ctx)
	__attribute__((noreturn));
static void unwind_failed(NTSTATUS status, const char *why, EXCEPTION_RECORD *rec, const CONTEXT *ctx)
{
	EXCEPTION_RECORD nrec = { 0 };

	ndrun_error("unwind failed: %s", why);
	nrec.ExceptionCode = status;
	nrec.ExceptionFlags = EH_NONCONTINUABLE;
	nrec.ExceptionRecord = rec;
	nrec.ExceptionAddress = (void *)ctx->Rip;
	seh_report(&nrec, ctx);
	seh_terminate(status);
}

/* Phase 2: call the unwind handlers of every frame from the one that
 * called RtlUnwindEx (ctx) up to target_frame, then resume there at
 * target_ip with retval in rax. */
/* target_ip for an unwind that resumes the target frame where it is
 * (its pc as the unwind reaches it) */
#define UNWIND_KEEP_IP (~0ULL)

static void unwind_to(ULONG64 target_frame, ULONG64 target_ip, EXCEPTION_RECORD *rec, ULONG64 retval,
		      UNWIND_HISTORY_TABLE *history, const CONTEXT *ctx) __attribute__((noreturn));
static void unwind_to(ULONG64 target_frame, ULONG64 target_ip, EXCEPTION_RECORD *rec, ULONG64 retval,
		      UNWIND_HISTORY_TABLE *history, const CONTEXT *ctx)
{
	EXCEPTION_RECORD local_rec;
	CONTEXT raise_ctx = *ctx, cur = *ctx, prev;
	struct seh_nest nest = { .kind = SEH_NEST_UNWIND, .raise_ctx = &raise_ctx };
	DISPATCHER_CONTEXT *disp = &nest.disp;
	DWORD flags = EH_UNWINDING | (target_frame ? 0 : EH_EXIT_UNWIND);

	if (!rec) {
		memset(&local_rec, 0, sizeof(local_rec));
		local_rec.ExceptionCode = STATUS_UNWIND;
		local_rec.ExceptionAddress = (void *)ctx->Rip;
		rec = &local_rec;
	}
	TRACE(seh, "code %#x to frame %#llx ip %#llx\n", (unsigned)rec->ExceptionCode,
	      (unsigned long long)target_frame, (unsigned long long)target_ip);

	for (int n = 0;; n++) {
		struct seh_nest *outer = nest_at(&cur);
		ULONG64 pc, base, frame;
		RUNTIME_FUNCTION *rf;
		PEXCEPTION_ROUTINE handler;
		void *data;
		DWORD scope = 0;

		if (n >= MAX_FRAMES)
			unwind_failed(STATUS_BAD_STACK, "too many frames", rec, &raise_ctx);
		if (outer && outer->kind != SEH_NEST_UNWIND) {
			/* Unwinding out of an exception handler (or a catch
			 * block): on through the frames that raised the
			 * exception (or that the catch block belongs to). */
			cur = *outer->raise_ctx;
			continue;
		}
		if (outer) {
			/* A collided unwind: this one started inside an unwind
			 * handler, so it takes over the older unwind at the frame
			 * whose handler is running, and that handler is called
			 * again, told so. */
			DISPATCHER_CONTEXT *od = &outer->disp;
			ULONG64 f;
			void *d;

			cur = *od->ContextRecord;
			prev = cur;
			pc = od->ControlPc;
			base = od->ImageBase;
			rf = od->FunctionEntry;
			handler = od->LanguageHandler;
			data = od->HandlerData;
			frame = od->EstablisherFrame;
			scope = od->ScopeIndex;
			RtlVirtualUnwind(UNW_FLAG_NHANDLER, base, pc, rf, &prev, &d, &f, NULL);
			flags |= EH_COLLIDED_UNWIND;
		} else {
			prev = cur;
			if (seh_unwind_step(&prev, UNW_FLAG_UHANDLER, &pc, &base, &rf, &handler, &data,
					    &frame) < 0) {
				if (!target_frame)
					seh_terminate(rec->ExceptionCode);
				unwind_failed(STATUS_INVALID_UNWIND_TARGET, "target frame not on the stack",
					      rec, &raise_ctx);
			}
		}
		if (!frame_ok(frame))
			unwind_failed(STATUS_BAD_STACK, "bad establisher frame", rec, &raise_ctx);
		if (target_frame && frame > target_frame)
			unwind_failed(STATUS_INVALID_UNWIND_TARGET, "passed the target frame", rec, &raise_ctx);

		if (handler) {
			EXCEPTION_DISPOSITION res;

			if (frame == target_frame)
				flags |= EH_TARGET_UNWIND;
			rec->ExceptionFlags = flags;
			disp->ControlPc = pc;
			disp->ImageBase = base;
			disp->FunctionEntry = rf;
			disp->EstablisherFrame = frame;
			disp->TargetIp = target_ip;
			disp->ContextRecord = &cur;
			disp->LanguageHandler = handler;
			disp->HandlerData = data;
			disp->HistoryTable = history;
			disp->ScopeIndex = scope;
			disp->Fill0 = 0;
			TRACE(seh, "unwind handler %p for frame %#llx flags %#x\n", handler,
			      (unsigned long long)frame, (unsigned)flags);
			res = seh_call_handler(rec, (void *)frame, &cur, disp, handler, &nest);
			flags &= ~(EH_COLLIDED_UNWIND | EH_TARGET_UNWIND);
			if (res != ExceptionContinueSearch)
				unwind_failed(STATUS_INVALID_DISPOSITION, "unwind handler did not continue the search",
					      rec, &raise_ctx);
		}
		if (frame == target_frame)
			break;
		cur = prev;
	}
	cur.Rax = retval;
	if (target_ip != UNWIND_KEEP_IP)
		cur.Rip = target_ip;
	RtlRestoreContext(&cur, rec);
	__builtin_unreachable();
}

void __attribute__((ms_abi)) seh_unwind_ex_worker(ULONG_PTR *args, CONTEXT *ctx)
{
	unwind_to(args[0], args[1], (EXCEPTION_RECORD *)args[2], args[3],
		  (UNWIND_HISTORY_TABLE *)args[5], ctx);
}

void seh_unwind_from_handler(DISPATCHER_CONTEXT *disp, void *target_frame, void *target_ip,
			     EXCEPTION_RECORD *rec, void *retval)
{
	struct seh_nest *nest = (struct seh_nest *)((char *)disp - offsetof(struct seh_nest, disp));

	unwind_to((ULONG64)target_frame, target_ip ? (ULONG64)target_ip : UNWIND_KEEP_IP, rec, (ULONG64)retval,
		  disp->HistoryTable,
		  nest->raise_ctx);
}

void __attribute__((ms_abi)) seh_unwind_worker(ULONG_PTR *args, CONTEXT *ctx)
{
	unwind_to(args[0], args[1], (EXCEPTION_RECORD *)args[2], args[3], NULL, ctx);
}

/* The context a consolidating unwind resumes in, while its callback
 * runs (catch blocks started by the callback are walked through to it). */
static __thread CONTEXT *consolidate_ctx;

/* RtlRestoreContext with a STATUS_UNWIND_CONSOLIDATE record: the callback
 * in ExceptionInformation[0] runs on the current stack (the frames being
 * unwound stay intact: a C++ catch block reads the thrown object there)
 * and returns where execution continues in ctx. */
void __attribute__((ms_abi)) seh_consolidate(CONTEXT *ctx, EXCEPTION_RECORD *rec)
{
	void *(__attribute__((ms_abi)) *callback)(EXCEPTION_RECORD *);
	CONTEXT *outer = consolidate_ctx;

	if (rec->NumberParameters < 1 || !rec->ExceptionInformation[0]) {
		ndrun_error("RtlRestoreContext: STATUS_UNWIND_CONSOLIDATE without a callback");
		seh_terminate((DWORD)STATUS_INVALID_PARAMETER);
	}
	callback = (void *)rec->ExceptionInformation[0];
	consolidate_ctx = ctx;
	ctx->Rip = (ULONG64)PE_CALL1(callback, rec);
	consolidate_ctx = outer;
	TRACE(seh, "consolidated unwind continues at %#llx\n", (unsigned long long)ctx->Rip);
}

/* seh_call_handler, seen as returning the funclet's full 64-bit rax */
void *__attribute__((ms_abi)) seh_call_funclet(EXCEPTION_RECORD *rec, void *frame, CONTEXT *ctx,
					       DISPATCHER_CONTEXT *disp, void *funclet, struct seh_nest *nest)
	__asm__("seh_call_handler");

unsigned long long seh_call_catch_block(void *funclet, unsigned long long frame)
{
	struct seh_nest nest = { .kind = SEH_NEST_CATCH, .raise_ctx = consolidate_ctx };

	if (!consolidate_ctx) {
		ndrun_error("a catch block called outside a consolidating unwind");
		seh_terminate((DWORD)STATUS_INVALID_PARAMETER);
	}
	/* seh_call_handler's frame makes walks from inside the block go on
	 * in the consolidation's target context. */
	return (unsigned long long)seh_call_funclet(NULL, (void *)frame, NULL, NULL, funclet, &nest);
}

NTSTATUS WINAPI NtContinue(CONTEXT *ctx, BOOLEAN alertable)
{
	RtlRestoreContext(ctx, NULL);
	__builtin_unreachable();
}
