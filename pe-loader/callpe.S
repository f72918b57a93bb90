/* uintptr_t loader_call_pe(void *fn, uintptr_t a, uintptr_t b, uintptr_t c)
 * (sysv): calls the PE function fn(a, b, c) (ms_abi) for the loader --
 * an image's TLS callbacks, DllMain and entry point -- and gives the
 * caller back every register the sysv ABI says a call keeps, from this
 * frame rather than trusting fn with them.  A damaged image's code may
 * return having clobbered rbx or rbp (which ms_abi code must keep, so a
 * compiler calling it directly keeps nothing of its own there), or with
 * rsp moved; ndrun's loader would then crash, where on Windows the
 * program does.  The
 * direction flag is cleared too, as the sysv ABI wants it on return. */
	.section .tbss, "awT", @nobits
	.balign 8
loader_call_pe_rsp:
	.zero 8

	.text
	.globl	loader_call_pe
	.type	loader_call_pe, @function
loader_call_pe:
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
	/* Entered 8 off 16-byte alignment, six pushes keep it so: the home
	 * area and 8 more make the call's rsp aligned. */
	subq	$0x28, %rsp
	.cfi_adjust_cfa_offset 0x28
	/* This frame's rsp, in a thread variable (the previous value, for a
	 * nested call, in the frame): fn may come back with rsp moved too. */
	movq	%fs:loader_call_pe_rsp@tpoff, %rax
	movq	%rax, 0x20(%rsp)
	movq	%rsp, %fs:loader_call_pe_rsp@tpoff
	movq	%rdi, %rax
	movq	%rcx, %r8
	movq	%rsi, %rcx
	call	*%rax
	/* fn's return address: a builtin a damaged image's entry jumps to
	 * straight away has no PE caller but this frame (hostfault.c) */
	.globl	loader_call_pe_ret
loader_call_pe_ret:
	cld
	/* The frame is found from the thread variable; whatever fn left in
	 * the registers is replaced. */
	movq	%fs:loader_call_pe_rsp@tpoff, %rsp
	movq	0x20(%rsp), %rcx
	movq	%rcx, %fs:loader_call_pe_rsp@tpoff
	addq	$0x28, %rsp
	.cfi_adjust_cfa_offset -0x28
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
	.size	loader_call_pe, . - loader_call_pe

	.section .note.GNU-stack, "", @progbits
