/* fh4_boundary: a noexcept function described for __CxxFrameHandler4
 * (its FuncInfo4 has the NoExcept bit) with one local whose destructor
 * the unwind map names:
 *
 *	void fh4_boundary(int v) noexcept
 *	{
 *		Guard g;                 // state 0
 *		fh4_thrower(v);
 *	}
 *
 * An exception that would leave it ends the program in std::terminate
 * while it is searched for a handler, before anything is unwound. */
	.intel_syntax noprefix

	.text
	.globl fh4_boundary
	.p2align 4
	.def fh4_boundary; .scl 2; .type 32; .endef
fh4_boundary:
	.seh_proc fh4_boundary
	.seh_handler __CxxFrameHandler4, @unwind, @except
	push rbx
	.seh_pushreg rbx
	sub rsp, 48
	.seh_stackalloc 48
	.seh_endprologue
	mov ebx, ecx
	lea rcx, [rsp + 32]
	call fh4_guard_init
	nop
.Ls0:
	mov ecx, ebx
	call fh4_thrower
	nop
.Lsm1:
	lea rcx, [rsp + 32]
	call fh4_guard_dtor
	add rsp, 48
	pop rbx
	ret
.Lend:
	.seh_handlerdata
	.long .Lfi@IMGREL
	.text
	.seh_endproc

	.section .xdata,"dr"
/* FuncInfo4: NoExcept (0x40) and an unwind map (0x08) */
.Lfi:
	.byte 0x48
	.long .Luw@IMGREL
	.long .Lip@IMGREL
.Lip:
	.byte 3 << 1
	.byte 0, 0
	.byte (.Ls0 - fh4_boundary) << 1, 1 << 1
	.byte (.Lsm1 - .Ls0) << 1, 0
.Luw:
	.byte 1 << 1
	.byte ((1 << 2) | 1) << 1
	.long fh4_guard_dtor@IMGREL
	.byte 32 << 1
