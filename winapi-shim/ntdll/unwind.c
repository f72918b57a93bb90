/* The x64 unwind-code interpreter: RtlVirtualUnwind.
 *
 * A function's UNWIND_INFO lists, newest first, what its prologue did to
 * the stack; undoing the operations that have executed at ControlPc gives
 * the caller's registers.  Epilogues are not described by the codes, but
 * their shape is fixed by the ABI (optional add/lea to rsp, pops, then ret
 * or a jump out of the function), so an epilogue is recognised from the
 * instruction bytes and emulated instead. */
#include <dlfcn.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

#include "core/debug.h"
#include "loader.h"
#include "ntdll/ntdll_private.h"
#include "ntdll/seh_private.h"

enum {
	UWOP_PUSH_NONVOL = 0,
	UWOP_ALLOC_LARGE = 1,
	UWOP_ALLOC_SMALL = 2,
	UWOP_SET_FPREG = 3,
	UWOP_SAVE_NONVOL = 4,
	UWOP_SAVE_NONVOL_FAR = 5,
	UWOP_EPILOG = 6,     /* version 2: epilogue descriptors, not prologue work */
	UWOP_SPARE_CODE = 7,
	UWOP_SAVE_XMM128 = 8,
	UWOP_SAVE_XMM128_FAR = 9,
	UWOP_PUSH_MACHFRAME = 10,
};

struct unwind_info {
	BYTE version_flags; /* version:3, flags:5 */
	BYTE prolog_size;
	BYTE count;
	BYTE frame;         /* register:4, offset (scaled by 16):4 */
	WORD codes[];       /* low byte: code offset; high byte: op:4, info:4 */
};

#define CODE_OFFSET(c) ((c) & 0xff)
#define CODE_OP(c) (((c) >> 8) & 0xf)
#define CODE_INFO(c) ((c) >> 12)

static ULONG64 *int_reg(CONTEXT *ctx, unsigned int reg)
{
	return &(&ctx->Rax)[reg];
}

/* How many 16-bit slots a code occupies. */
static unsigned int code_slots(WORD c)
{
	switch (CODE_OP(c)) {
	case UWOP_ALLOC_LARGE:
		return CODE_INFO(c) ? 3 : 2;
	case UWOP_SAVE_NONVOL:
	case UWOP_SAVE_XMM128:
	case UWOP_EPILOG:
		return 2;
	case UWOP_SAVE_NONVOL_FAR:
	case UWOP_SAVE_XMM128_FAR:
	case UWOP_SPARE_CODE:
		return 3;
	default:
		return 1;
	}
}

static void set_int(CONTEXT *ctx, KNONVOLATILE_CONTEXT_POINTERS *ptrs, unsigned int reg, ULONG64 *slot)
{
	*int_reg(ctx, reg) = *slot;
	if (ptrs)
		ptrs->IntegerContext[reg] = slot;
}

static void set_xmm(CONTEXT *ctx, KNONVOLATILE_CONTEXT_POINTERS *ptrs, unsigned int reg, M128A *slot)
{
	memcpy(&(&ctx->Xmm0)[reg], slot, sizeof(M128A));
	if (ptrs)
		ptrs->FloatingContext[reg] = slot;
}

/* ---- epilogues ---- */

static int is_rex(BYTE b)
{
	return (b & 0xf0) == 0x40;
}

/* Length of the epilogue-ending instruction at p (ret, or a jump leaving
 * the function [begin, end)), 0 if p holds none. */
static int epilog_end(const BYTE *p, ULONG64 begin, ULONG64 end)
{
	ULONG64 here = (ULONG64)p, target;

	if (p[0] == 0xc3)
		return 1;
	if (p[0] == 0xf3 && p[1] == 0xc3)
		return 2;
	if (p[0] == 0xc2)
		return 3;
	if (p[0] == 0xe9) {
		target = here + 5 + (LONG)(p[1] | p[2] << 8 | p[3] << 16 | (DWORD)p[4] << 24);
		return target < begin || target >= end ? 5 : 0;
	}
	if (p[0] == 0xeb) {
		target = here + 2 + (signed char)p[1];
		return target < begin || target >= end ? 2 : 0;
	}
	/* jmp [rip+disp32]: a tail call through an import slot. */
	if (p[0] == 0xff && p[1] == 0x25)
		return 6;
	/* rex.w jmp r/m64: the indirect tail-call form the ABI allows. */
	if (is_rex(p[0]) && (p[0] & 8) && p[1] == 0xff && ((p[2] >> 3) & 7) == 4)
		return 3;
	return 0;
}

/* If pc is in an epilogue, emulate the rest of it on ctx and return 1.
 * frame_reg is the function's frame register (0: none); only that
 * register may be the base of the epilogue's lea. */
static int unwind_epilog(const BYTE *pc, ULONG64 begin, ULONG64 end, unsigned int frame_reg,
			 CONTEXT *ctx, KNONVOLATILE_CONTEXT_POINTERS *ptrs)
{
	const BYTE *p = pc;
	ULONG64 rsp = ctx->Rsp;
	int have_lea = 0;
	unsigned int lea_reg = 0;
	LONG disp = 0;

	/* First pass: check the shape without touching ctx. */
	if (p[0] == 0x48 && p[1] == 0x83 && p[2] == 0xc4) { /* add rsp, imm8 */
		rsp += (signed char)p[3];
		p += 4;
	} else if (p[0] == 0x48 && p[1] == 0x81 && p[2] == 0xc4) { /* add rsp, imm32 */
		rsp += (LONG)(p[3] | p[4] << 8 | p[5] << 16 | (DWORD)p[6] << 24);
		p += 7;
	} else if ((p[0] & 0xfe) == 0x48 && p[1] == 0x8d && ((p[2] >> 3) & 7) == 4 &&
		   (p[2] & 7) != 4 && (p[2] >> 6) != 3 && (p[2] >> 6) != 0) {
		/* lea rsp, [reg + disp8/disp32] */
		lea_reg = (p[2] & 7) | (p[0] & 1) << 3;
		if ((p[2] >> 6) == 1) {
			disp = (signed char)p[3];
			p += 4;
		} else {
			disp = (LONG)(p[3] | p[4] << 8 | p[5] << 16 | (DWORD)p[6] << 24);
			p += 7;
		}
		if (!frame_reg || lea_reg != frame_reg)
			return 0;
		have_lea = 1;
	}
	for (;;) {
		if ((p[0] & 0xf8) == 0x58) {
			p += 1;
		} else if ((p[0] & 0xf0) == 0x40 && (p[1] & 0xf8) == 0x58) {
			p += 2;
		} else {
			break;
		}
	}
	if (!epilog_end(p, begin, end))
		return 0;

	/* Second pass: emulate. */
	p = pc;
	if (have_lea) {
		rsp = *int_reg(ctx, lea_reg) + disp;
		p += (p[2] >> 6) == 1 ? 4 : 7;
	} else if (p[0] == 0x48 && p[1] == 0x83) {
		p += 4;
	} else if (p[0] == 0x48 && p[1] == 0x81) {
		p += 7;
	} else {
		rsp = ctx->Rsp;
	}
	for (;;) {
		unsigned int reg;
		if ((p[0] & 0xf8) == 0x58) {
			reg = p[0] & 7;
			p += 1;
		} else if ((p[0] & 0xf0) == 0x40 && (p[1] & 0xf8) == 0x58) {
			reg = (p[1] & 7) | (p[0] & 1) << 3;
			p += 2;
		} else {
			break;
		}
		set_int(ctx, ptrs, reg, (ULONG64 *)rsp);
		rsp += 8;
	}
	ctx->Rip = *(ULONG64 *)rsp;
	ctx->Rsp = rsp + 8;
	return 1;
}

/* ---- prologue codes ---- */

static const struct unwind_info *get_info(ULONG64 base, const RUNTIME_FUNCTION *rf)
{
	return (const struct unwind_info *)(base + rf->UnwindData);
}

/* Undo the codes of info that have executed at offset `off` into the
 * function (all of them when off is ~0); frame is the establisher frame.
 * Returns 1 when a machine frame was popped (the return address is then
 * already in ctx). */
static int apply_codes(const struct unwind_info *info, DWORD off, ULONG64 frame, CONTEXT *ctx,
		       KNONVOLATILE_CONTEXT_POINTERS *ptrs)
{
	unsigned int i = 0, n = info->count;
	int machframe = 0;

	while (i < n) {
		WORD c = info->codes[i];
		unsigned int slots = code_slots(c);
		unsigned int reg = CODE_INFO(c);
		DWORD arg;

		if (i + slots > n) {
			TRACE(seh, "truncated unwind code %u\n", i);
			break;
		}
		if (off != ~0u && CODE_OFFSET(c) > off) {
			/* Not executed yet at this point of the prologue. */
			i += slots;
			continue;
		}
		switch (CODE_OP(c)) {
		case UWOP_PUSH_NONVOL:
			set_int(ctx, ptrs, reg, (ULONG64 *)ctx->Rsp);
			ctx->Rsp += 8;
			break;
		case UWOP_ALLOC_LARGE:
			if (reg)
				arg = info->codes[i + 1] | (DWORD)info->codes[i + 2] << 16;
			else
				arg = info->codes[i + 1] * 8u;
			ctx->Rsp += arg;
			break;
		case UWOP_ALLOC_SMALL:
			ctx->Rsp += reg * 8u + 8;
			break;
		case UWOP_SET_FPREG:
			ctx->Rsp = *int_reg(ctx, info->frame & 0xf) - (info->frame >> 4) * 16u;
			break;
		case UWOP_SAVE_NONVOL:
			set_int(ctx, ptrs, reg, (ULONG64 *)(frame + info->codes[i + 1] * 8u));
			break;
		case UWOP_SAVE_NONVOL_FAR:
			arg = info->codes[i + 1] | (DWORD)info->codes[i + 2] << 16;
			set_int(ctx, ptrs, reg, (ULONG64 *)(frame + arg));
			break;
		case UWOP_SAVE_XMM128:
			set_xmm(ctx, ptrs, reg, (M128A *)(frame + info->codes[i + 1] * 16u));
			break;
		case UWOP_SAVE_XMM128_FAR:
			arg = info->codes[i + 1] | (DWORD)info->codes[i + 2] << 16;
			set_xmm(ctx, ptrs, reg, (M128A *)(frame + arg));
			break;
		case UWOP_PUSH_MACHFRAME: {
			/* The processor pushed SS, RSP, EFLAGS, CS, RIP, and with
			 * info 1 an error code below them. */
			ULONG64 *f = (ULONG64 *)(ctx->Rsp + (reg ? 8 : 0));
			ctx->Rip = f[0];
			ctx->Rsp = f[3];
			machframe = 1;
			break;
		}
		case UWOP_EPILOG:
		case UWOP_SPARE_CODE:
			break;
		default:
			TRACE(seh, "unknown unwind op %u\n", CODE_OP(c));
			break;
		}
		i += slots;
	}
	return machframe;
}

/* Has the prologue set the frame register at offset off? */
static int fpreg_set(const struct unwind_info *info, DWORD off)
{
	if (off >= info->prolog_size)
		return 1;
	for (unsigned int i = 0; i < info->count; i += code_slots(info->codes[i]))
		if (CODE_OP(info->codes[i]) == UWOP_SET_FPREG)
			return CODE_OFFSET(info->codes[i]) <= off;
	return 0;
}

static const RUNTIME_FUNCTION *chained_entry(const struct unwind_info *info)
{
	return (const RUNTIME_FUNCTION *)&info->codes[(info->count + 1) & ~1u];
}

PVOID WINAPI RtlVirtualUnwind(DWORD type, ULONG_PTR base, ULONG_PTR pc, RUNTIME_FUNCTION *rf,
			      CONTEXT *ctx, PVOID *data, ULONG_PTR *frame_out,
			      KNONVOLATILE_CONTEXT_POINTERS *ptrs)
{
	const struct unwind_info *info = get_info(base, rf);
	const struct unwind_info *last = info, *fi;
	DWORD off = (DWORD)(pc - base - rf->BeginAddress);
	unsigned int frame_reg = 0;
	ULONG64 frame = ctx->Rsp;
	int machframe = 0, in_prolog, depth;

	*data = NULL;
	if ((info->version_flags & 7) != 1 && (info->version_flags & 7) != 2) {
		TRACE(seh, "unwind info version %u at %p\n", info->version_flags & 7, info);
		/* Treat the function as a leaf: the best that can be done. */
		ctx->Rip = *(ULONG64 *)ctx->Rsp;
		ctx->Rsp += 8;
		*frame_out = frame;
		return NULL;
	}
	in_prolog = off < info->prolog_size;

	/* The establisher frame: the frame register (of this fragment or, for
	 * a chained fragment, of the function it continues) minus its offset
	 * once the prologue has set it, else rsp. */
	for (fi = info, depth = 0; fi && depth < 32; depth++) {
		if (fi->frame & 0xf) {
			frame_reg = fi->frame & 0xf;
			if (fi != info || fpreg_set(fi, off))
				frame = *int_reg(ctx, frame_reg) - (fi->frame >> 4) * 16u;
			break;
		}
		fi = (fi->version_flags >> 3) & UNW_FLAG_CHAININFO ? get_info(base, chained_entry(fi)) : NULL;
	}
	*frame_out = frame;

	if (!in_prolog && unwind_epilog((const BYTE *)pc, base + rf->BeginAddress, base + rf->EndAddress,
					frame_reg, ctx, ptrs))
		return NULL;

	machframe = apply_codes(info, in_prolog ? off : ~0u, frame, ctx, ptrs);
	/* Chained entries: the parent's prologue has fully executed. */
	for (depth = 0; (last->version_flags >> 3) & UNW_FLAG_CHAININFO && depth < 32 && !machframe; depth++) {
		last = get_info(base, chained_entry(last));
		machframe = apply_codes(last, ~0u, frame, ctx, ptrs);
	}
	if (!machframe) {
		ctx->Rip = *(ULONG64 *)ctx->Rsp;
		ctx->Rsp += 8;
	}

	if (in_prolog || !(((last->version_flags >> 3) & type & (UNW_FLAG_EHANDLER | UNW_FLAG_UHANDLER))))
		return NULL;
	{
		const DWORD *after = (const DWORD *)&last->codes[(last->count + 1) & ~1u];
		*data = (void *)(after + 1);
		return (PVOID)(base + after[0]);
	}
}

struct unwind_call {
	DWORD htype;
	ULONG64 base, pc;
	RUNTIME_FUNCTION *rf;
	CONTEXT *ctx;
	void **data;
	ULONG64 *frame;
	PEXCEPTION_ROUTINE handler;
};

static void probed_unwind(void *arg)
{
	struct unwind_call *u = arg;

	u->handler = RtlVirtualUnwind(u->htype, u->base, u->pc, u->rf, u->ctx, u->data, u->frame, NULL);
}

/* The thread's own stack is; elsewhere (a stack the program made, or
 * garbage), ask the kernel. */
static int stack_readable(ULONG64 rsp)
{
	TEB *teb = loader_current_teb();
	ULONG64 val;

	if (teb && rsp >= (ULONG64)teb->Tib.StackLimit && rsp < (ULONG64)teb->Tib.StackBase)
		return 1;
	return seh_peek(rsp & ~7ull, &val);
}

int seh_unwind_step(CONTEXT *ctx, DWORD htype, ULONG64 *control_pc, ULONG64 *image_base,
		    RUNTIME_FUNCTION **entry, PEXCEPTION_ROUTINE *handler, void **data,
		    ULONG64 *frame)
{
	ULONG64 pc = ctx->Rip, base = 0;
	RUNTIME_FUNCTION *rf = RtlLookupFunctionEntry(pc, &base, NULL);

	*control_pc = pc;
	*image_base = base;
	*entry = rf;
	*handler = NULL;
	*data = NULL;
	*frame = ctx->Rsp;
	/* A damaged program's rsp may point anywhere: the walk ends rather
	 * than faulting in ndrun (Windows stops at a frame outside the
	 * stack too). */
	if (!stack_readable(ctx->Rsp))
		return -1;
	if (rf) {
		struct unwind_call u = { htype, base, pc, rf, ctx, data, frame, NULL };

		/* Unwind data or code bytes in pages a damaged image made
		 * unreadable end the walk. */
		if (!seh_run_probed(probed_unwind, &u))
			return -1;
		*handler = u.handler;
		return 0;
	}
	if (!seh_pc_in_pe(pc)) {
		ULONG64 ret;

		/* Not an image's code: a frame of ndrun itself ends the walk.
		 * Anything else is where the program jumped (NULL, a
		 * non-executable page, code it generated without unwind
		 * data): treated as a leaf, as Windows does, when the stack
		 * really holds a return address. */
		if (seh_pc_is_host(pc) || !seh_peek(ctx->Rsp, &ret))
			return -1;
		ctx->Rip = ret;
		ctx->Rsp += 8;
		return 0;
	}
	/* A leaf function: nothing but the return address on the stack. */
	ctx->Rip = *(ULONG64 *)ctx->Rsp;
	ctx->Rsp += 8;
	return 0;
}

int seh_pc_is_host(ULONG64 pc)
{
	Dl_info info;

	/* All of ndrun's code is in ELF objects the dynamic linker knows. */
	return pc && dladdr((void *)pc, &info) != 0;
}

int seh_peek(ULONG64 addr, ULONG64 *val)
{
	struct iovec local = { val, sizeof(*val) }, remote = { (void *)addr, sizeof(*val) };

	/* The kernel copies, so an unmapped address is an error here rather
	 * than a fault (the fault handler asks too). */
	return !(addr & 7) && process_vm_readv(getpid(), &local, 1, &remote, 1, 0) == sizeof(*val);
}
