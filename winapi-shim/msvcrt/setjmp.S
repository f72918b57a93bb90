/* _setjmp/longjmp on msvcrt's x64 _JUMP_BUFFER:
 *   0 Frame  8 Rbx  16 Rsp  24 Rbp  32 Rsi  40 Rdi  48 R12 .. 72 R15
 *   80 Rip  88 MxCsr(4)  92 FpCsr(2)  94 Spare(2)  96 Xmm6 .. 240 Xmm15
 * Both are ms_abi (rcx, rdx).  longjmp restores the registers directly:
 * it does not unwind SEH frames or run termination handlers in between
 * (msvcrt does when Frame is set), which C code does not notice. */
	.text

	.globl	crt__setjmp
	.type	crt__setjmp, @function
crt__setjmp:
	movq	%rdx, 0(%rcx)
	movq	%rbx, 8(%rcx)
	leaq	8(%rsp), %rax
	movq	%rax, 16(%rcx)
	movq	%rbp, 24(%rcx)
	movq	%rsi, 32(%rcx)
	movq	%rdi, 40(%rcx)
	movq	%r12, 48(%rcx)
	movq	%r13, 56(%rcx)
	movq	%r14, 64(%rcx)
	movq	%r15, 72(%rcx)
	movq	(%rsp), %rax
	movq	%rax, 80(%rcx)
	stmxcsr	88(%rcx)
	fnstcw	92(%rcx)
	movw	$0, 94(%rcx)
	movdqu	%xmm6, 96(%rcx)
	movdqu	%xmm7, 112(%rcx)
	movdqu	%xmm8, 128(%rcx)
	movdqu	%xmm9, 144(%rcx)
	movdqu	%xmm10, 160(%rcx)
	movdqu	%xmm11, 176(%rcx)
	movdqu	%xmm12, 192(%rcx)
	movdqu	%xmm13, 208(%rcx)
	movdqu	%xmm14, 224(%rcx)
	movdqu	%xmm15, 240(%rcx)
	xorl	%eax, %eax
	ret
	.size	crt__setjmp, .-crt__setjmp

	.globl	crt_longjmp
	.type	crt_longjmp, @function
crt_longjmp:
	movl	%edx, %eax
	testl	%eax, %eax
	jnz	1f
	movl	$1, %eax
1:
	movq	8(%rcx), %rbx
	movq	24(%rcx), %rbp
	movq	32(%rcx), %rsi
	movq	40(%rcx), %rdi
	movq	48(%rcx), %r12
	movq	56(%rcx), %r13
	movq	64(%rcx), %r14
	movq	72(%rcx), %r15
	ldmxcsr	88(%rcx)
	fnclex
	fldcw	92(%rcx)
	movdqu	96(%rcx), %xmm6
	movdqu	112(%rcx), %xmm7
	movdqu	128(%rcx), %xmm8
	movdqu	144(%rcx), %xmm9
	movdqu	160(%rcx), %xmm10
	movdqu	176(%rcx), %xmm11
	movdqu	192(%rcx), %xmm12
	movdqu	208(%rcx), %xmm13
	movdqu	224(%rcx), %xmm14
	movdqu	240(%rcx), %xmm15
	movq	16(%rcx), %rsp
	jmpq	*80(%rcx)
	.size	crt_longjmp, .-crt_longjmp

	.section .note.GNU-stack,"",@progbits
