/* RtlCaptureStackBackTrace and RtlWalkFrameChain: the return addresses up
 * the caller's stack, found with the unwinder (.pdata of the images and
 * the dynamic function tables), as on x64 Windows.  The entry stubs
 * (context.S) capture the caller's context first; the walk stops at the
 * first frame that is not the program's (ndrun's thread start, say). */
#include <string.h>

#include "core/debug.h"
#include "ntdll/ntdll_private.h"
#include "ntdll/seh_private.h"

/* Fills up to count return addresses after skipping skip; the number
 * filled.  Frame 0 is the caller of the entry point. */
static ULONG walk(CONTEXT *ctx, ULONG skip, ULONG count, void **frames, ULONG_PTR *sum)
{
	ULONG n = 0;

	*sum = 0;
	for (ULONG i = 0; n < count; i++) {
		ULONG64 pc, base, frame, rsp = ctx->Rsp;
		RUNTIME_FUNCTION *rf;
		PEXCEPTION_ROUTINE handler;
		void *data;

		if (!seh_pc_in_pe(ctx->Rip))
			break;
		if (i >= skip) {
			frames[n++] = (void *)ctx->Rip;
			*sum += ctx->Rip;
		}
		if (seh_unwind_step(ctx, 0, &pc, &base, &rf, &handler, &data, &frame) < 0 || ctx->Rsp <= rsp)
			break;
	}
	return n;
}

/* args: FramesToSkip, FramesToCapture, BackTrace, BackTraceHash. */
USHORT __attribute__((ms_abi)) seh_backtrace_worker(ULONG_PTR *args, CONTEXT *ctx);
USHORT __attribute__((ms_abi)) seh_backtrace_worker(ULONG_PTR *args, CONTEXT *ctx)
{
	ULONG skip = (ULONG)args[0], count = (ULONG)args[1], *hash = (ULONG *)args[3];
	void **frames = (void **)args[2];
	ULONG_PTR sum;
	ULONG n;

	if (!frames || !count)
		return 0;
	/* The count is a USHORT. */
	if (count > 0xffff)
		count = 0xffff;
	n = walk(ctx, skip, count, frames, &sum);
	/* Windows' hash: the captured addresses added up. */
	if (hash)
		*hash = (ULONG)sum;
	TRACE(seh, "skip %u count %u: %u frames\n", skip, count, n);
	return (USHORT)n;
}

/* args: Callers, Count, Flags (0: user-mode frames, all there are). */
ULONG __attribute__((ms_abi)) seh_walk_frame_chain_worker(ULONG_PTR *args, CONTEXT *ctx);
ULONG __attribute__((ms_abi)) seh_walk_frame_chain_worker(ULONG_PTR *args, CONTEXT *ctx)
{
	void **frames = (void **)args[0];
	ULONG count = (ULONG)args[1], flags = (ULONG)args[2];
	ULONG_PTR sum;

	/* Bits above the skip count (flags >> 8) ask for kernel frames,
	 * which a user process has none of. */
	if (!frames || !count || (flags & 0xff))
		return 0;
	return walk(ctx, flags >> 8, count, frames, &sum);
}
