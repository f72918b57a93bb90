/* uintptr_t loader_call_pe_args(void *fn, const uintptr_t args[PE_CALL_MAX_ARGS])
 * (sysv): calls the PE function fn(args[0], ..., args[9]) (ms_abi: the
 * first four in rcx, rdx, r8, r9, the rest on the stack above the home
 * area) and gives the caller back every register the sysv ABI says a
 * call keeps, from this frame rather than trusting fn with them.  The
 * loader calls an image's TLS callbacks, DllMain and entry point this
 * way, and every builtin calls the program's callbacks this way
 * (core/pecall.h): a damaged image's code may return having clobbered
 * rbx or rbp (which ms_abi code must keep, so a compiler calling it
 * directly keeps nothing of its own there), or with rsp moved; ndrun
 * would then crash, where on Windows the program does.  fn's return
 * address, loader_call_pe_ret, is also how the fault handler knows that
 * a jump to a bad address from here is the program's (signal.c), and
 * where the walk of a builtin's fault stops (hostfault.c).  The
 * direction flag is cleared too, as the sysv ABI wants it on return.
 *
 * The frame (0x68 bytes below the six saved registers):
 *   0x00  fn's home area
 *   0x20  args[4..9], fn's stack arguments
 *   0x50  the previous frame of this thread's chain (nested calls)
 *   0x58  the frame's own address, which tells a live frame at rsp on
 *         return from one a longjmp abandoned (see loader_call_pe_ret) */
#define SLOT_PREV 0x50
#define SLOT_SELF 0x58
#define FRAME 0x68

	.section .tbss, "awT", @nobits
	.balign 8
loader_call_pe_rsp:
	.zero 8

	.text
	.globl	loader_call_pe_args
	.type	loader_call_pe_args, @function
loader_call_pe_args:
	.cfi_startproc
	pushq	%rbp
	.cfi_adjust_cfa_offset 8
	.cfi_rel_offset %rbp, 0
	pushq	%rbx
	.cfi_adjust_cfa_offset 8
	.cfi_rel_offset %rbx, 0
	pushq	%r12
	.cfi_adjust_cfa_offset 8
	.cfi_rel_offset %r12, 0
	pushq	%r13
	.cfi_adjust_cfa_offset 8
	.cfi_rel_offset %r13, 0
	pushq	%r14
	.cfi_adjust_cfa_offset 8
	.cfi_rel_offset %r14, 0
	pushq	%r15
	.cfi_adjust_cfa_offset 8
	.cfi_rel_offset %r15, 0
	/* Entered 8 off 16-byte alignment, six pushes keep it so: FRAME
	 * (8 off a multiple of 16) makes the call's rsp aligned. */
	subq	$FRAME, %rsp
	.cfi_adjust_cfa_offset FRAME
	/* This frame's rsp, in a thread variable (the previous value, for a
	 * nested call, in the frame): fn may come back with rsp moved too. */
	movq	%fs:loader_call_pe_rsp@tpoff, %rax
	movq	%rax, SLOT_PREV(%rsp)
	movq	%rsp, %fs:loader_call_pe_rsp@tpoff
	movq	%rsp, SLOT_SELF(%rsp)
	movq	%rdi, %rax
	movq	0x20(%rsi), %rcx
	movq	%rcx, 0x20(%rsp)
	movq	0x28(%rsi), %rcx
	movq	%rcx, 0x28(%rsp)
	movq	0x30(%rsi), %rcx
	movq	%rcx, 0x30(%rsp)
	movq	0x38(%rsi), %rcx
	movq	%rcx, 0x38(%rsp)
	movq	0x40(%rsi), %rcx
	movq	%rcx, 0x40(%rsp)
	movq	0x48(%rsi), %rcx
	movq	%rcx, 0x48(%rsp)
	movq	0x00(%rsi), %rcx
	movq	0x08(%rsi), %rdx
	movq	0x10(%rsi), %r8
	movq	0x18(%rsi), %r9
	call	*%rax
	/* fn's return address: a builtin a damaged image's entry jumps to
	 * straight away has no PE caller but this frame (hostfault.c) */
	.globl	loader_call_pe_ret
loader_call_pe_ret:
	cld
	/* fn returned as the ABI says: rsp is this frame, the innermost of
	 * the thread's chain.  Not so when a callback left a nested call of
	 * this stub by longjmp or an unwind (those frames' chain entries
	 * stay behind), or when a damaged fn moved rsp: the frame at rsp is
	 * this one when it names itself (read only within the page whose
	 * [rsp - 8] fn's ret has just read); failing that, the chain's
	 * innermost entry is.  Whatever fn left in the registers is
	 * replaced. */
	cmpq	%rsp, %fs:loader_call_pe_rsp@tpoff
	je	2f
	leaq	-8(%rsp), %rcx
	leaq	SLOT_SELF(%rsp), %rdx
	xorq	%rdx, %rcx
	shrq	$12, %rcx
	jnz	1f
	cmpq	%rsp, SLOT_SELF(%rsp)
	je	2f
1:	movq	%fs:loader_call_pe_rsp@tpoff, %rsp
2:	movq	SLOT_PREV(%rsp), %rcx
	movq	%rcx, %fs:loader_call_pe_rsp@tpoff
	addq	$FRAME, %rsp
	.cfi_adjust_cfa_offset -FRAME
	popq	%r15
	.cfi_adjust_cfa_offset -8
	popq	%r14
	.cfi_adjust_cfa_offset -8
	popq	%r13
	.cfi_adjust_cfa_offset -8
	popq	%r12
	.cfi_adjust_cfa_offset -8
	popq	%rbx
	.cfi_adjust_cfa_offset -8
	popq	%rbp
	.cfi_adjust_cfa_offset -8
	ret
	.cfi_endproc
	.size	loader_call_pe_args, . - loader_call_pe_args

	.section .note.GNU-stack, "", @progbits
