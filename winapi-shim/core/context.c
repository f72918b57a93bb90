#include <stdint.h>
#include <string.h>

#include "core/context.h"

/* Windows' AMD64 CONTEXT_* values carry CONTEXT_AMD64: a part is asked
 * for when all of its bits are there. */
static int wants(DWORD flags, DWORD part)
{
	return (flags & part) == part;
}

/* The EFLAGS bits user code may set: CF PF AF ZF SF TF DF OF, AC, ID. */
#define USER_EFLAGS 0x00240dd5u

/* Linux's signal frame: the FXSAVE image is followed by an XSAVE header
 * when sw_reserved carries this magic; its XSTATE_BV says which
 * components XRSTOR takes from the frame rather than resetting. */
#define FP_XSTATE_MAGIC1 0x46505853u
#define XSTATE_FP_SSE 0x3ull

void context_from_ucontext(const ucontext_t *uc, CONTEXT *ctx, DWORD flags)
{
	const greg_t *g = uc->uc_mcontext.gregs;

	if (wants(flags, CONTEXT_CONTROL)) {
		ctx->Rip = g[REG_RIP];
		ctx->Rsp = g[REG_RSP];
		ctx->EFlags = (DWORD)g[REG_EFL];
		/* The selectors 64-bit Windows code sees. */
		ctx->SegCs = 0x33;
		ctx->SegSs = 0x2b;
	}
	if (wants(flags, CONTEXT_INTEGER)) {
		ctx->Rax = g[REG_RAX];
		ctx->Rcx = g[REG_RCX];
		ctx->Rdx = g[REG_RDX];
		ctx->Rbx = g[REG_RBX];
		ctx->Rbp = g[REG_RBP];
		ctx->Rsi = g[REG_RSI];
		ctx->Rdi = g[REG_RDI];
		ctx->R8 = g[REG_R8];
		ctx->R9 = g[REG_R9];
		ctx->R10 = g[REG_R10];
		ctx->R11 = g[REG_R11];
		ctx->R12 = g[REG_R12];
		ctx->R13 = g[REG_R13];
		ctx->R14 = g[REG_R14];
		ctx->R15 = g[REG_R15];
	}
	if (wants(flags, CONTEXT_SEGMENTS)) {
		ctx->SegDs = ctx->SegEs = ctx->SegGs = 0x2b;
		ctx->SegFs = 0x53;
	}
	if (wants(flags, CONTEXT_FLOATING_POINT) && uc->uc_mcontext.fpregs) {
		_Static_assert(sizeof(*uc->uc_mcontext.fpregs) == sizeof(ctx->FltSave), "FXSAVE image");
		memcpy(&ctx->FltSave, uc->uc_mcontext.fpregs, sizeof(ctx->FltSave));
		ctx->MxCsr = uc->uc_mcontext.fpregs->mxcsr;
	}
	if (wants(flags, CONTEXT_DEBUG_REGISTERS)) {
		/* ndrun sets no hardware breakpoints. */
		ctx->Dr0 = ctx->Dr1 = ctx->Dr2 = ctx->Dr3 = ctx->Dr6 = ctx->Dr7 = 0;
	}
}

void context_to_ucontext(const CONTEXT *ctx, ucontext_t *uc)
{
	greg_t *g = uc->uc_mcontext.gregs;
	DWORD flags = ctx->ContextFlags;

	if (wants(flags, CONTEXT_CONTROL)) {
		g[REG_RIP] = ctx->Rip;
		g[REG_RSP] = ctx->Rsp;
		g[REG_EFL] = (g[REG_EFL] & ~(greg_t)USER_EFLAGS) | (ctx->EFlags & USER_EFLAGS);
	}
	if (wants(flags, CONTEXT_INTEGER)) {
		g[REG_RAX] = ctx->Rax;
		g[REG_RCX] = ctx->Rcx;
		g[REG_RDX] = ctx->Rdx;
		g[REG_RBX] = ctx->Rbx;
		g[REG_RBP] = ctx->Rbp;
		g[REG_RSI] = ctx->Rsi;
		g[REG_RDI] = ctx->Rdi;
		g[REG_R8] = ctx->R8;
		g[REG_R9] = ctx->R9;
		g[REG_R10] = ctx->R10;
		g[REG_R11] = ctx->R11;
		g[REG_R12] = ctx->R12;
		g[REG_R13] = ctx->R13;
		g[REG_R14] = ctx->R14;
		g[REG_R15] = ctx->R15;
	}
	if (wants(flags, CONTEXT_FLOATING_POINT) && uc->uc_mcontext.fpregs) {
		struct _libc_fpstate *fp = uc->uc_mcontext.fpregs;
		uint32_t mask = fp->mxcr_mask ? fp->mxcr_mask : 0xffbf;
		uint32_t *sw = (uint32_t *)((char *)fp + 464);

		/* The image without its last 48 bytes (sw_reserved: Linux's). */
		memcpy(fp, &ctx->FltSave, 464);
		fp->mxcr_mask = mask;
		fp->mxcsr = ctx->MxCsr & mask;
		if (sw[0] == FP_XSTATE_MAGIC1)
			*(uint64_t *)((char *)fp + 512) |= XSTATE_FP_SSE;
	}
}

void context_copy_parts(CONTEXT *dst, const CONTEXT *src, DWORD flags)
{
	if (wants(flags, CONTEXT_CONTROL)) {
		dst->Rip = src->Rip;
		dst->Rsp = src->Rsp;
		dst->EFlags = src->EFlags;
		dst->SegCs = src->SegCs;
		dst->SegSs = src->SegSs;
	}
	if (wants(flags, CONTEXT_INTEGER)) {
		/* Rax..R15 are contiguous in CONTEXT, Rsp among them. */
		DWORD64 rsp = dst->Rsp;

		memcpy(&dst->Rax, &src->Rax, (size_t)((char *)(&src->R15 + 1) - (char *)&src->Rax));
		dst->Rsp = wants(flags, CONTEXT_CONTROL) ? src->Rsp : rsp;
	}
	if (wants(flags, CONTEXT_SEGMENTS)) {
		dst->SegDs = src->SegDs;
		dst->SegEs = src->SegEs;
		dst->SegFs = src->SegFs;
		dst->SegGs = src->SegGs;
	}
	if (wants(flags, CONTEXT_FLOATING_POINT)) {
		dst->FltSave = src->FltSave;
		dst->MxCsr = src->MxCsr;
	}
	if (wants(flags, CONTEXT_DEBUG_REGISTERS)) {
		dst->Dr0 = src->Dr0;
		dst->Dr1 = src->Dr1;
		dst->Dr2 = src->Dr2;
		dst->Dr3 = src->Dr3;
		dst->Dr6 = src->Dr6;
		dst->Dr7 = src->Dr7;
	}
}
