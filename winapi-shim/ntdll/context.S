/* Register-level pieces of exception handling, all ms_abi:
 * RtlCaptureContext, RtlRestoreContext, the handler-call frame the walkers
 * recognise, and the entry stubs (RaiseException, RtlRaiseException,
 * RtlUnwindEx, RtlUnwind) that record their caller's registers before any
 * C code can disturb the non-volatile ones.
 *
 * CONTEXT offsets (winnt.h, AMD64_CONTEXT) used below:
 *   ContextFlags 0x30  MxCsr 0x34  SegCs..SegSs 0x38..0x42  EFlags 0x44
 *   Dr0..Dr7 0x48..0x70  Rax 0x78 ... R15 0xf0 (in machine order)
 *   Rip 0xf8  FltSave 0x100 (FXSAVE image)  Xmm0 0x1a0 */
	.intel_syntax noprefix
	.text

#define CTX_FLAGS 0x30
#define CTX_MXCSR 0x34
#define CTX_EFLAGS 0x44
#define CTX_RAX 0x78
#define CTX_RCX 0x80
#define CTX_RDX 0x88
#define CTX_RBX 0x90
#define CTX_RSP 0x98
#define CTX_RBP 0xa0
#define CTX_RSI 0xa8
#define CTX_RDI 0xb0
#define CTX_R8 0xb8
#define CTX_R9 0xc0
#define CTX_R10 0xc8
#define CTX_R11 0xd0
#define CTX_R12 0xd8
#define CTX_R13 0xe0
#define CTX_R14 0xe8
#define CTX_R15 0xf0
#define CTX_RIP 0xf8
#define CTX_FLTSAVE 0x100
#define CTX_XMM0 0x1a0

/* CONTEXT_AMD64 | CONTROL | INTEGER | SEGMENTS | FLOATING_POINT */
#define CAPTURED_FLAGS 0x10000f
#define CONTEXT_FLOATING_POINT_BIT 0x8
#define STATUS_UNWIND_CONSOLIDATE 0x80000029

/* void RtlCaptureContext(CONTEXT *ctx): the caller's state as it will be
 * when this call returns. */
	.globl RtlCaptureContext
	.type RtlCaptureContext, @function
RtlCaptureContext:
	.cfi_startproc
	mov [rcx + CTX_RAX], rax
	mov [rcx + CTX_RCX], rcx
	mov [rcx + CTX_RDX], rdx
	mov [rcx + CTX_RBX], rbx
	lea rax, [rsp + 8]
	mov [rcx + CTX_RSP], rax
	mov [rcx + CTX_RBP], rbp
	mov [rcx + CTX_RSI], rsi
	mov [rcx + CTX_RDI], rdi
	mov [rcx + CTX_R8], r8
	mov [rcx + CTX_R9], r9
	mov [rcx + CTX_R10], r10
	mov [rcx + CTX_R11], r11
	mov [rcx + CTX_R12], r12
	mov [rcx + CTX_R13], r13
	mov [rcx + CTX_R14], r14
	mov [rcx + CTX_R15], r15
	mov rax, [rsp]
	mov [rcx + CTX_RIP], rax
	pushfq
	pop rax
	mov [rcx + CTX_EFLAGS], eax
	mov word ptr [rcx + 0x38], cs
	mov word ptr [rcx + 0x3a], ds
	mov word ptr [rcx + 0x3c], es
	mov word ptr [rcx + 0x3e], fs
	mov word ptr [rcx + 0x40], gs
	mov word ptr [rcx + 0x42], ss
	xor eax, eax
	mov [rcx + 0x48], rax
	mov [rcx + 0x50], rax
	mov [rcx + 0x58], rax
	mov [rcx + 0x60], rax
	mov [rcx + 0x68], rax
	mov [rcx + 0x70], rax
	stmxcsr [rcx + CTX_MXCSR]
	test cl, 15
	jnz 1f
	fxsave [rcx + CTX_FLTSAVE]
	jmp 2f
1:	/* Misaligned: FXSAVE would fault; keep the XMM registers at least. */
	movdqu [rcx + CTX_XMM0 + 0x00], xmm0
	movdqu [rcx + CTX_XMM0 + 0x10], xmm1
	movdqu [rcx + CTX_XMM0 + 0x20], xmm2
	movdqu [rcx + CTX_XMM0 + 0x30], xmm3
	movdqu [rcx + CTX_XMM0 + 0x40], xmm4
	movdqu [rcx + CTX_XMM0 + 0x50], xmm5
	movdqu [rcx + CTX_XMM0 + 0x60], xmm6
	movdqu [rcx + CTX_XMM0 + 0x70], xmm7
	movdqu [rcx + CTX_XMM0 + 0x80], xmm8
	movdqu [rcx + CTX_XMM0 + 0x90], xmm9
	movdqu [rcx + CTX_XMM0 + 0xa0], xmm10
	movdqu [rcx + CTX_XMM0 + 0xb0], xmm11
	movdqu [rcx + CTX_XMM0 + 0xc0], xmm12
	movdqu [rcx + CTX_XMM0 + 0xd0], xmm13
	movdqu [rcx + CTX_XMM0 + 0xe0], xmm14
	movdqu [rcx + CTX_XMM0 + 0xf0], xmm15
2:	mov dword ptr [rcx + CTX_FLAGS], CAPTURED_FLAGS
	mov rax, [rcx + CTX_RAX]
	ret
	.cfi_endproc
	.size RtlCaptureContext, . - RtlCaptureContext

/* void RtlRestoreContext(CONTEXT *ctx, EXCEPTION_RECORD *rec): continue
 * at ctx.  The new r11, rcx, flags and rip are staged just below the
 * target rsp (x64 code keeps nothing live below rsp), then popped. */
	.globl RtlRestoreContext
	.type RtlRestoreContext, @function
RtlRestoreContext:
	.cfi_startproc
	test rdx, rdx
	jz 1f
	cmp dword ptr [rdx], STATUS_UNWIND_CONSOLIDATE
	jne 1f
	push rcx
	push rdx
	sub rsp, 0x28
	call seh_consolidate
	add rsp, 0x28
	pop rdx
	pop rcx
1:
#ifdef __SANITIZE_ADDRESS__
	/* The frames between here and ctx's rsp are abandoned without
	 * returning: ASan must forget their redzones, or the next frames
	 * built on that stack look like overflows. */
	push rcx
	.cfi_adjust_cfa_offset 8
	push rdx
	.cfi_adjust_cfa_offset 8
	sub rsp, 8
	.cfi_adjust_cfa_offset 8
	call __asan_handle_no_return
	add rsp, 8
	.cfi_adjust_cfa_offset -8
	pop rdx
	.cfi_adjust_cfa_offset -8
	pop rcx
	.cfi_adjust_cfa_offset -8
#endif
	test dword ptr [rcx + CTX_FLAGS], CONTEXT_FLOATING_POINT_BIT
	jz 4f
	test cl, 15
	jnz 2f
	fxrstor [rcx + CTX_FLTSAVE]
	jmp 3f
2:	movdqu xmm0, [rcx + CTX_XMM0 + 0x00]
	movdqu xmm1, [rcx + CTX_XMM0 + 0x10]
	movdqu xmm2, [rcx + CTX_XMM0 + 0x20]
	movdqu xmm3, [rcx + CTX_XMM0 + 0x30]
	movdqu xmm4, [rcx + CTX_XMM0 + 0x40]
	movdqu xmm5, [rcx + CTX_XMM0 + 0x50]
	movdqu xmm6, [rcx + CTX_XMM0 + 0x60]
	movdqu xmm7, [rcx + CTX_XMM0 + 0x70]
	movdqu xmm8, [rcx + CTX_XMM0 + 0x80]
	movdqu xmm9, [rcx + CTX_XMM0 + 0x90]
	movdqu xmm10, [rcx + CTX_XMM0 + 0xa0]
	movdqu xmm11, [rcx + CTX_XMM0 + 0xb0]
	movdqu xmm12, [rcx + CTX_XMM0 + 0xc0]
	movdqu xmm13, [rcx + CTX_XMM0 + 0xd0]
	movdqu xmm14, [rcx + CTX_XMM0 + 0xe0]
	movdqu xmm15, [rcx + CTX_XMM0 + 0xf0]
3:	ldmxcsr [rcx + CTX_MXCSR]
4:	mov r11, [rcx + CTX_RSP]
	sub r11, 32
	mov rax, [rcx + CTX_R11]
	mov [r11], rax
	mov rax, [rcx + CTX_RCX]
	mov [r11 + 8], rax
	mov eax, [rcx + CTX_EFLAGS]
	mov [r11 + 16], rax
	mov rax, [rcx + CTX_RIP]
	mov [r11 + 24], rax
	mov rax, [rcx + CTX_RAX]
	mov rdx, [rcx + CTX_RDX]
	mov rbx, [rcx + CTX_RBX]
	mov rbp, [rcx + CTX_RBP]
	mov rsi, [rcx + CTX_RSI]
	mov rdi, [rcx + CTX_RDI]
	mov r8, [rcx + CTX_R8]
	mov r9, [rcx + CTX_R9]
	mov r10, [rcx + CTX_R10]
	mov r12, [rcx + CTX_R12]
	mov r13, [rcx + CTX_R13]
	mov r14, [rcx + CTX_R14]
	mov r15, [rcx + CTX_R15]
	/* Nothing is read from ctx past this point: it may lie below the new
	 * rsp, where a signal frame could overwrite it. */
	mov rsp, r11
	pop r11
	pop rcx
	popfq
	ret
	.cfi_endproc
	.size RtlRestoreContext, . - RtlRestoreContext

/* EXCEPTION_DISPOSITION seh_call_handler(rec, frame, ctx, disp, handler,
 * nest): the frame keeps nest at [rsp + 0x20] while the handler runs. */
	.globl seh_call_handler
	.globl seh_call_handler_ret
	.type seh_call_handler, @function
seh_call_handler:
	.cfi_startproc
	sub rsp, 0x38
	.cfi_adjust_cfa_offset 0x38
	mov rax, [rsp + 0x38 + 0x30]
	mov [rsp + 0x20], rax
	call qword ptr [rsp + 0x38 + 0x28]
seh_call_handler_ret:
	add rsp, 0x38
	.cfi_adjust_cfa_offset -0x38
	ret
	.cfi_endproc
	.size seh_call_handler, . - seh_call_handler

/* An entry stub: spill the register arguments to the caller's home area
 * (so all arguments form one array), capture the caller's context as it
 * is at the call, and hand both to worker(args, ctx).  The CONTEXT sits
 * well below the caller's rsp, out of RtlRestoreContext's staging area. */
#define STUB_FRAME 0x538
	.macro CAPTURE_STUB name, worker
	.globl \name
	.type \name, @function
\name:
	.cfi_startproc
	mov [rsp + 8], rcx
	mov [rsp + 16], rdx
	mov [rsp + 24], r8
	mov [rsp + 32], r9
	sub rsp, STUB_FRAME
	.cfi_adjust_cfa_offset STUB_FRAME
	lea rcx, [rsp + 0x20]
	call RtlCaptureContext
	mov rax, [rsp + STUB_FRAME]
	mov [rsp + 0x20 + CTX_RIP], rax
	lea rax, [rsp + STUB_FRAME + 8]
	mov [rsp + 0x20 + CTX_RSP], rax
	mov rax, [rsp + STUB_FRAME + 8]
	mov [rsp + 0x20 + CTX_RCX], rax
	lea rcx, [rsp + STUB_FRAME + 8]
	lea rdx, [rsp + 0x20]
	call \worker
	add rsp, STUB_FRAME
	.cfi_adjust_cfa_offset -STUB_FRAME
	ret
	.cfi_endproc
	.size \name, . - \name
	.endm

	CAPTURE_STUB seh_raise_av_stub, seh_raise_av_worker

/* Where a builtin that called SEH_RAISE_AV_ON_RETURN returns to, with the
 * caller's registers and rsp as after the call: the real return address
 * goes back on the stack, as if the caller had just called the stub. */
	.globl seh_av_trampoline
	.type seh_av_trampoline, @function
seh_av_trampoline:
	.cfi_startproc
	sub rsp, 0x30
	.cfi_adjust_cfa_offset 0x30
	call seh_av_pending_return
	add rsp, 0x28
	.cfi_adjust_cfa_offset -0x28
	mov [rsp], rax
	jmp seh_raise_av_stub
	.cfi_endproc
	.size seh_av_trampoline, . - seh_av_trampoline

	CAPTURE_STUB RaiseException, seh_raise_exception_worker
	/* stack walks from the caller's frame (stackwalk.c) */
	CAPTURE_STUB RtlCaptureStackBackTrace, seh_backtrace_worker
	CAPTURE_STUB RtlWalkFrameChain, seh_walk_frame_chain_worker
	CAPTURE_STUB RtlRaiseException, seh_rtl_raise_worker
	CAPTURE_STUB RtlUnwindEx, seh_unwind_ex_worker
	CAPTURE_STUB RtlUnwind, seh_unwind_worker
	/* vcruntime's throw: dispatched from its PE caller's frame */
	CAPTURE_STUB vcrt__CxxThrowException, vcrt_cxx_throw_worker

	.section .note.GNU-stack, "", @progbits
