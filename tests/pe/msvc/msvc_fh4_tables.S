/* fh4_run: a function whose C++ exception handling is described for
 * __CxxFrameHandler4 (vcruntime140_1.dll), with FH4 tables encoded by
 * hand (clang 14 emits only FH3).  What it stands for, in C++:
 *
 *	int fh4_run(int mode)
 *	{
 *		Guard g('G');                        // state 0
 *		int result = 0;
 *		try {                                // state 1
 *			Guard *pp = &p; Guard p('P');        // state 2 (destroyed through pp)
 *			try {                        // state 3 (an unwind funclet, u)
 *				fh4_throw(mode);
 *			} catch (int e) {            // state 4; continues at cont_a
 *				fh4_caught_int(e);   // or cont_b, by the index it returns
 *			} catch (Widget &w) {        // state 4
 *				fh4_rethrowing(&w); throw;
 *			}
 *		} catch (Widget &w) {                // state 5; returns cont_outer itself
 *			fh4_caught_widget(&w);
 *		} catch (...) {                      // state 5; cont_outer2, an RVA
 *			fh4_caught_all();
 *		}
 *		return result;                       // cont_* set result first
 *	}
 *
 * Compressed integers use the lengths 1 to 4 of the encoding somewhere
 * (not 5, a full 32-bit value: MSVC writes it only for values of 2^28
 * and more, and Wine 8 does not decode it).
 * The frame (rsp after the prologue, the establisher frame):
 * 32 g, 40 p, 48 pp, 56 e, 64 w (a reference: the pointer), 72 result. */
	.intel_syntax noprefix

/* compressed unsigned integers of each length: 1 byte holds 7 bits,
 * 2 bytes 14, 3 bytes 21, 4 bytes 28 */
	.macro cu1 v
	.byte ((\v) << 1)
	.endm
	.macro cu2 v
	.short (((\v) << 2) | 1)
	.endm
	.macro cu3 v
	.byte ((((\v) << 3) | 3) & 0xff), (((\v) >> 5) & 0xff), (((\v) >> 13) & 0xff)
	.endm
	.macro cu4 v
	.long (((\v) << 4) | 7)
	.endm

	.text
	.globl fh4_run
	.p2align 4
	.def fh4_run; .scl 2; .type 32; .endef
fh4_run:
	.seh_proc fh4_run
	.seh_handler __CxxFrameHandler4, @unwind, @except
	push rbx
	.seh_pushreg rbx
	sub rsp, 80
	.seh_stackalloc 80
	.seh_endprologue
	mov ebx, ecx
	mov dword ptr [rsp + 72], 0
	lea rcx, [rsp + 32]
	mov edx, 'G'
	call fh4_guard_init
	nop
.Ls0:
	nop
.Ls1:
	lea rcx, [rsp + 40]
	mov edx, 'P'
	call fh4_guard_init
	nop
	lea rax, [rsp + 40]
	mov qword ptr [rsp + 48], rax
.Ls2:
	nop
.Ls3:
	mov ecx, ebx
	call fh4_throw
	nop
.Ls2b:
.Linner_done:
	nop
.Ls1b:
	lea rcx, [rsp + 40]
	call fh4_guard_dtor
	nop
.Ls0b:
.Louter_done:
	nop
.Lsm1:
	lea rcx, [rsp + 32]
	call fh4_guard_dtor
	mov eax, dword ptr [rsp + 72]
	add rsp, 80
	pop rbx
	ret
.Lcont_a:
	mov dword ptr [rsp + 72], 10
	jmp .Linner_done
.Lcont_b:
	mov dword ptr [rsp + 72], 11
	jmp .Linner_done
.Lcont_outer:
	mov dword ptr [rsp + 72], 20
	jmp .Louter_done
.Lcont_outer2:
	mov dword ptr [rsp + 72], 30
	jmp .Louter_done
.Lend:
	.seh_handlerdata
	.long .Lfi_run@IMGREL
	.text
	.seh_endproc

/* The catch funclets: rdx is fh4_run's establisher frame, kept at
 * funclet frame + 56 (the FuncInfo4's dispFrame). */
	.macro funclet_prologue
	mov qword ptr [rsp + 16], rdx
	sub rsp, 40
	.seh_stackalloc 40
	.seh_endprologue
	.endm

/* catch (int e): returns continuation index 1 for e == 7, else 0 */
	.def fh4_catch_int; .scl 3; .type 32; .endef
fh4_catch_int:
	.seh_proc fh4_catch_int
	.seh_handler __CxxFrameHandler4, @unwind, @except
	funclet_prologue
	mov ecx, dword ptr [rdx + 56]
	call fh4_caught_int
	nop
	mov rdx, qword ptr [rsp + 56]
	xor eax, eax
	cmp dword ptr [rdx + 56], 7
	sete al
	add rsp, 40
	ret
	.seh_handlerdata
	.long .Lfi_catch4@IMGREL
	.text
	.seh_endproc

/* catch (Widget &w) in the inner try: throw; */
	.def fh4_catch_rethrow; .scl 3; .type 32; .endef
fh4_catch_rethrow:
	.seh_proc fh4_catch_rethrow
	.seh_handler __CxxFrameHandler4, @unwind, @except
	funclet_prologue
	mov rcx, qword ptr [rdx + 64]
	call fh4_rethrowing
	xor ecx, ecx
	xor edx, edx
	call _CxxThrowException
	int3
	.seh_handlerdata
	.long .Lfi_catch4@IMGREL
	.text
	.seh_endproc

/* catch (Widget &w) in the outer try: returns where to go on */
	.def fh4_catch_widget; .scl 3; .type 32; .endef
fh4_catch_widget:
	.seh_proc fh4_catch_widget
	.seh_handler __CxxFrameHandler4, @unwind, @except
	funclet_prologue
	mov rcx, qword ptr [rdx + 64]
	call fh4_caught_widget
	nop
	lea rax, [rip + .Lcont_outer]
	add rsp, 40
	ret
	.seh_handlerdata
	.long .Lfi_catch5@IMGREL
	.text
	.seh_endproc

/* catch (...) in the outer try: continuation index 0 */
	.def fh4_catch_all; .scl 3; .type 32; .endef
fh4_catch_all:
	.seh_proc fh4_catch_all
	.seh_handler __CxxFrameHandler4, @unwind, @except
	funclet_prologue
	call fh4_caught_all
	nop
	xor eax, eax
	add rsp, 40
	ret
	.seh_handlerdata
	.long .Lfi_catch5@IMGREL
	.text
	.seh_endproc

/* the unwind funclet of state 3: reports the frame it was given */
	.def fh4_unwind3; .scl 3; .type 32; .endef
fh4_unwind3:
	.seh_proc fh4_unwind3
	sub rsp, 40
	.seh_stackalloc 40
	.seh_endprologue
	mov rcx, rdx
	call fh4_unwound
	nop
	add rsp, 40
	ret
	.seh_endproc

	.section .xdata,"dr"
	.p2align 2
/* FuncInfo4: header (unwind map, try block map), their RVAs, the IP map */
.Lfi_run:
	.byte 0x18
	.long .Luw@IMGREL
	.long .Ltry@IMGREL
	.long .Lip_run@IMGREL
/* the catch funclets': isCatch too, their own IP maps, dispFrame 56 */
.Lfi_catch4:
	.byte 0x19
	.long .Luw@IMGREL
	.long .Ltry@IMGREL
	.long .Lip_catch4@IMGREL
	cu1 56
.Lfi_catch5:
	.byte 0x19
	.long .Luw@IMGREL
	.long .Ltry@IMGREL
	.long .Lip_catch5@IMGREL
	cu2 56

/* IP map: (delta from the previous entry, state + 1) */
.Lip_run:
	cu1 12
	cu2 0
	cu1 0
	cu2 (.Ls0 - fh4_run)
	cu1 1
	cu2 (.Ls1 - .Ls0)
	cu1 2
	cu2 (.Ls2 - .Ls1)
	cu1 3
	cu2 (.Ls3 - .Ls2)
	cu1 4
	cu2 (.Ls2b - .Ls3)
	cu1 3
	cu2 (.Ls1b - .Ls2b)
	cu1 2
	cu2 (.Ls0b - .Ls1b)
	cu1 1
	cu2 (.Lsm1 - .Ls0b)
	cu3 0
	cu2 (.Lcont_a - .Lsm1)
	cu4 3
	cu2 (.Lcont_outer - .Lcont_a)
	cu4 1
	cu2 (.Lend - .Lcont_outer)
	cu1 0
.Lip_catch4:
	cu1 1
	cu1 0
	cu1 5
.Lip_catch5:
	cu2 1
	cu3 0
	cu1 6

/* Unwind map: per state, (bytes back to the next state's entry << 2 |
 * type), then the action's RVA and the object's frame offset.  Types:
 * 1 destructor of the object at the offset, 2 of the object the
 * pointer at the offset points to, 3 a funclet, 0 nothing. */
.Luw:
	cu3 6
.Luw0:
	cu2 ((1 << 2) | 1)
	.long fh4_guard_dtor@IMGREL
	cu1 32
.Luw1:
	cu2 (((.Luw1 - .Luw0) << 2) | 0)
.Luw2:
	cu2 (((.Luw2 - .Luw1) << 2) | 2)
	.long fh4_guard_dtor@IMGREL
	cu1 48
.Luw3:
	cu2 (((.Luw3 - .Luw2) << 2) | 3)
	.long fh4_unwind3@IMGREL
.Luw4:
	cu2 (((.Luw4 - .Luw2) << 2) | 0)
.Luw5:
	cu2 (((.Luw5 - .Luw0) << 2) | 0)

/* Try blocks, inner first: try low, try high, catch high, handlers */
.Ltry:
	cu4 2
	cu1 3
	cu3 3
	cu2 4
	.long .Lh_inner@IMGREL
	cu2 1
	cu1 4
	cu1 5
	.long .Lh_outer@IMGREL

/* HandlerType4: header (1 adjectives, 2 type, 4 catch object, 8
 * continuations are RVAs, 0x30 how many), then those fields, the
 * funclet's RVA and the continuations */
.Lh_inner:
	cu1 2
	.byte 0x26                      /* catch (int e): type, object, two */
	.long "??_R0H@8"@IMGREL
	cu1 56
	.long fh4_catch_int@IMGREL
	cu2 (.Lcont_a - fh4_run)
	cu2 (.Lcont_b - fh4_run)
	.byte 0x07                      /* catch (Widget &w) */
	cu1 0x08
	.long "??_R0?AUWidget@@@8"@IMGREL
	cu1 64
	.long fh4_catch_rethrow@IMGREL
.Lh_outer:
	cu1 2
	.byte 0x07                      /* catch (Widget &w) */
	cu2 0x08
	.long "??_R0?AUWidget@@@8"@IMGREL
	cu2 64
	.long fh4_catch_widget@IMGREL
	.byte 0x19                      /* catch (...): one RVA */
	cu1 0x40
	.long fh4_catch_all@IMGREL
	.long .Lcont_outer2@IMGREL
