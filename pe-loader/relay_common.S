/* relay_common: entered by jmp from a relay thunk with RAX = struct
 * relay_entry *, the caller's return address at (%rsp) and its ms_abi
 * arguments in place.  Logs the call, calls entry->func with the same
 * registers and RELAY_STACK_ARGS (16) stack arguments copied, logs the
 * return, and returns RAX and XMM0 to the caller.
 *
 * Frame (rbp-based, rsp 16-aligned at each call):
 *   -0x08 entry   -0x10 saved RAX   -0x30..-0x18 RCX RDX R8 R9
 *   -0x70..-0x40 XMM0..XMM3   rsp+0x00..0x20 home area, +0x20.. stack args
 * Only volatile registers (RAX, R10, R11) are used beyond the arguments;
 * the helpers are ms_abi, so RSI/RDI/XMM6-15 survive them. */
	.text
	.globl	relay_common
	.type	relay_common, @function
relay_common:
	.cfi_startproc
	pushq	%rbp
	.cfi_def_cfa_offset 16
	.cfi_offset %rbp, -16
	movq	%rsp, %rbp
	.cfi_def_cfa_register %rbp
	subq	$0x110, %rsp
	movq	%rax, -0x08(%rbp)
	movq	%rcx, -0x30(%rbp)
	movq	%rdx, -0x28(%rbp)
	movq	%r8, -0x20(%rbp)
	movq	%r9, -0x18(%rbp)
	movdqu	%xmm0, -0x70(%rbp)
	movdqu	%xmm1, -0x60(%rbp)
	movdqu	%xmm2, -0x50(%rbp)
	movdqu	%xmm3, -0x40(%rbp)

	movq	%rax, %rcx
	leaq	-0x30(%rbp), %rdx
	movq	8(%rbp), %r8
	call	relay_log_call

	/* The caller's stack arguments start above its home area. */
	xorl	%eax, %eax
1:	movq	0x30(%rbp,%rax,8), %r10
	movq	%r10, 0x20(%rsp,%rax,8)
	incl	%eax
	cmpl	$16, %eax
	jne	1b

	movq	-0x30(%rbp), %rcx
	movq	-0x28(%rbp), %rdx
	movq	-0x20(%rbp), %r8
	movq	-0x18(%rbp), %r9
	movdqu	-0x70(%rbp), %xmm0
	movdqu	-0x60(%rbp), %xmm1
	movdqu	-0x50(%rbp), %xmm2
	movdqu	-0x40(%rbp), %xmm3
	movq	-0x08(%rbp), %rax
	call	*(%rax)
	/* A builtin raising an access violation in its caller finds the
	 * caller's return address through here (ntdll/faultret.c). */
	.globl	relay_common_ret
relay_common_ret:
	movq	%rax, -0x10(%rbp)
	movdqu	%xmm0, -0x70(%rbp)
	movq	-0x08(%rbp), %rcx
	movq	%rax, %rdx
	movq	8(%rbp), %r8
	call	relay_log_ret
	movq	-0x10(%rbp), %rax
	movdqu	-0x70(%rbp), %xmm0
	leave
	.cfi_def_cfa %rsp, 8
	ret
	.cfi_endproc
	.size	relay_common, .-relay_common

	.section .note.GNU-stack,"",@progbits
