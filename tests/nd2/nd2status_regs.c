/* The registers a Microsoft x64 caller keeps across Send, Receive and
 * GetResults.  nd2prov.dll calls the unix side's fast entries, System V
 * functions, straight from these methods (nd2provider/unix_call.h): the
 * methods, not ndrun, must now save rbx, rbp, rdi, rsi, r12-r15 and
 * xmm6-xmm15 around code (libibverbs, rxe, glibc's memcpy) that may use
 * any of them.  regcall loads every callee-saved register with a pattern,
 * makes the call and reads them back.  The inline Sends copy 200 bytes:
 * glibc's memcpy moves 129..256 bytes through eight vector registers
 * (xmm0-xmm7 or ymm0-ymm7), so xmm6 and xmm7 are clobbered under the call
 * unless the method saved them. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "nd2status.h"

struct regcall {
	void *fn;		/* a Microsoft x64 function of up to five arguments */
	uint64_t a[5];
	uint64_t ret;
	uint64_t gp_in[8];	/* rbx, rbp, rsi, rdi, r12, r13, r14, r15 */
	uint64_t gp_out[8];
	uint8_t xmm_in[10][16];	/* xmm6-xmm15 */
	uint8_t xmm_out[10][16];
};
_Static_assert(offsetof(struct regcall, a) == 8 && offsetof(struct regcall, ret) == 48 &&
	       offsetof(struct regcall, gp_in) == 56 && offsetof(struct regcall, gp_out) == 120 &&
	       offsetof(struct regcall, xmm_in) == 184 && offsetof(struct regcall, xmm_out) == 344,
	       "regcall's offsets are regcall_asm's");

void regcall_asm(struct regcall *rc);

/* Its own callee-saved registers are saved and restored around all this;
 * rc stays at 40(%rsp) across the call, the fifth argument at 32(%rsp)
 * above the callee's 32-byte shadow space, rsp 16-aligned at the call. */
__asm__(".text\n"
	".globl regcall_asm\n"
	"regcall_asm:\n"
	"	push %rbx\n	push %rbp\n	push %rsi\n	push %rdi\n"
	"	push %r12\n	push %r13\n	push %r14\n	push %r15\n"
	"	sub $0xf8, %rsp\n"
	"	movdqu %xmm6, 48(%rsp)\n	movdqu %xmm7, 64(%rsp)\n"
	"	movdqu %xmm8, 80(%rsp)\n	movdqu %xmm9, 96(%rsp)\n"
	"	movdqu %xmm10, 112(%rsp)\n	movdqu %xmm11, 128(%rsp)\n"
	"	movdqu %xmm12, 144(%rsp)\n	movdqu %xmm13, 160(%rsp)\n"
	"	movdqu %xmm14, 176(%rsp)\n	movdqu %xmm15, 192(%rsp)\n"
	"	mov %rcx, 40(%rsp)\n"
	"	mov 40(%rcx), %rax\n	mov %rax, 32(%rsp)\n"
	"	movdqu 184(%rcx), %xmm6\n	movdqu 200(%rcx), %xmm7\n"
	"	movdqu 216(%rcx), %xmm8\n	movdqu 232(%rcx), %xmm9\n"
	"	movdqu 248(%rcx), %xmm10\n	movdqu 264(%rcx), %xmm11\n"
	"	movdqu 280(%rcx), %xmm12\n	movdqu 296(%rcx), %xmm13\n"
	"	movdqu 312(%rcx), %xmm14\n	movdqu 328(%rcx), %xmm15\n"
	"	mov 56(%rcx), %rbx\n	mov 64(%rcx), %rbp\n	mov 72(%rcx), %rsi\n	mov 80(%rcx), %rdi\n"
	"	mov 88(%rcx), %r12\n	mov 96(%rcx), %r13\n	mov 104(%rcx), %r14\n	mov 112(%rcx), %r15\n"
	"	mov 16(%rcx), %rdx\n	mov 24(%rcx), %r8\n	mov 32(%rcx), %r9\n"
	"	mov (%rcx), %rax\n	mov 8(%rcx), %rcx\n"
	"	call *%rax\n"
	"	mov 40(%rsp), %rcx\n"
	"	mov %rax, 48(%rcx)\n"
	"	mov %rbx, 120(%rcx)\n	mov %rbp, 128(%rcx)\n	mov %rsi, 136(%rcx)\n	mov %rdi, 144(%rcx)\n"
	"	mov %r12, 152(%rcx)\n	mov %r13, 160(%rcx)\n	mov %r14, 168(%rcx)\n	mov %r15, 176(%rcx)\n"
	"	movdqu %xmm6, 344(%rcx)\n	movdqu %xmm7, 360(%rcx)\n"
	"	movdqu %xmm8, 376(%rcx)\n	movdqu %xmm9, 392(%rcx)\n"
	"	movdqu %xmm10, 408(%rcx)\n	movdqu %xmm11, 424(%rcx)\n"
	"	movdqu %xmm12, 440(%rcx)\n	movdqu %xmm13, 456(%rcx)\n"
	"	movdqu %xmm14, 472(%rcx)\n	movdqu %xmm15, 488(%rcx)\n"
	"	movdqu 48(%rsp), %xmm6\n	movdqu 64(%rsp), %xmm7\n"
	"	movdqu 80(%rsp), %xmm8\n	movdqu 96(%rsp), %xmm9\n"
	"	movdqu 112(%rsp), %xmm10\n	movdqu 128(%rsp), %xmm11\n"
	"	movdqu 144(%rsp), %xmm12\n	movdqu 160(%rsp), %xmm13\n"
	"	movdqu 176(%rsp), %xmm14\n	movdqu 192(%rsp), %xmm15\n"
	"	add $0xf8, %rsp\n"
	"	pop %r15\n	pop %r14\n	pop %r13\n	pop %r12\n"
	"	pop %rdi\n	pop %rsi\n	pop %rbp\n	pop %rbx\n"
	"	ret\n");

static const char *const gp_names[8] = { "rbx", "rbp", "rsi", "rdi", "r12", "r13", "r14", "r15" };

/* fn(a0..a4) with every callee-saved register set; "" when all came back,
 * else the names of those that did not. */
static const char *call_keeping(void *fn, uint64_t a0, uint64_t a1, uint64_t a2, uint64_t a3, uint64_t a4,
				uint64_t *ret)
{
	static char lost[160];
	struct regcall rc = { .fn = fn, .a = { a0, a1, a2, a3, a4 } };
	size_t at = 0;
	int i, j;

	for (i = 0; i < 8; i++)
		rc.gp_in[i] = 0x5a5a000000000000ull | (uint64_t)(i + 1) << 32 | 0x1234u;
	for (i = 0; i < 10; i++)
		for (j = 0; j < 16; j++)
			rc.xmm_in[i][j] = (uint8_t)(0xa0 + i * 16 + j);
	regcall_asm(&rc);
	*ret = rc.ret;
	lost[0] = 0;
	for (i = 0; i < 8; i++)
		if (rc.gp_out[i] != rc.gp_in[i])
			at += snprintf(lost + at, sizeof(lost) - at, " %s", gp_names[i]);
	for (i = 0; i < 10; i++)
		if (memcmp(rc.xmm_out[i], rc.xmm_in[i], 16))
			at += snprintf(lost + at, sizeof(lost) - at, " xmm%d", i + 6);
	return lost;
}

/* The harness's own check: a System V function that clobbers xmm6 and
 * rsi, called as if it kept them, must be caught. */
static void __attribute__((sysv_abi, noinline)) clobber(void)
{
	__asm__ volatile("pxor %%xmm6, %%xmm6\n\txor %%esi, %%esi" ::: "xmm6", "rsi");
}

void fast_call_registers(void)
{
	IND2CompletionQueue *qa_cq, *qb_cq;
	IND2QueuePair *qa, *qb;
	struct conn cn;
	ND2_SGE send = { buf + 32768, 200, lkey }, recv = { buf + 40960, 4096, lkey };
	ND2_RESULT r[4];
	const char *lost;
	uint64_t ret;
	int i, sent, recvd, polls;

	lost = call_keeping((void *)clobber, 0, 0, 0, 0, 0, &ret);
	check(strstr(lost, "xmm6") && strstr(lost, "rsi"),
	      "registers: the check sees a clobbered xmm6 and rsi (lost:%s)", lost);

	if (info.MaxInlineDataSize < send.BufferLength) {
		note("MaxInlineDataSize %lu: the Sends below are not inline", info.MaxInlineDataSize);
	}
	if (ad->lpVtbl->CreateCompletionQueue(ad, &IID_IND2CompletionQueue, file, 64, 0, 0, (void **)&qa_cq) ||
	    ad->lpVtbl->CreateCompletionQueue(ad, &IID_IND2CompletionQueue, file, 64, 0, 0, (void **)&qb_cq))
		die("two CQs");
	qa = make_qp(qa_cq, (void *)0xD1, 8, 8, 1,
		     info.MaxInlineDataSize < send.BufferLength ? 0 : send.BufferLength);
	qb = make_qp(qb_cq, (void *)0xD2, 8, 8, 1, 0);
	connect_pair(&cn, PORT + 50, qa, qb);
	memset(buf + 32768, 'r', send.BufferLength);

	for (i = 0; i < 4; i++) {
		lost = call_keeping((void *)qb->lpVtbl->Receive, (uintptr_t)qb, 0x300 + i, (uintptr_t)&recv, 1, 0, &ret);
		check(!*lost && (HRESULT)ret == ND_SUCCESS,
		      "registers: QueuePair::Receive keeps the callee-saved ones (%#lx, lost:%s)", (long)ret, lost);
	}
	for (i = 0; i < 4; i++) {
		ULONG flags = info.MaxInlineDataSize < send.BufferLength ? 0 : ND_OP_FLAG_INLINE;

		lost = call_keeping((void *)qa->lpVtbl->Send, (uintptr_t)qa, 0x400 + i, (uintptr_t)&send, 1, flags,
				    &ret);
		check(!*lost && (HRESULT)ret == ND_SUCCESS,
		      "registers: QueuePair::Send (%s, %lu bytes) keeps the callee-saved ones (%#lx, lost:%s)",
		      flags ? "inline" : "not inline", send.BufferLength, (long)ret, lost);
	}
	/* The results, each GetResults a call through regcall too (empty
	 * ones included, which is most of them). */
	sent = recvd = 0;
	for (polls = 0; polls < 2000000 && (sent < 4 || recvd < 4); polls++) {
		IND2CompletionQueue *q = (polls & 1) ? qb_cq : qa_cq;

		lost = call_keeping((void *)q->lpVtbl->GetResults, (uintptr_t)q, (uintptr_t)r, 4, 0, 0, &ret);
		if (*lost) {
			check(0, "registers: CompletionQueue::GetResults keeps the callee-saved ones (lost:%s)", lost);
			break;
		}
		for (i = 0; i < (int)(ULONG)ret; i++) {
			if (r[i].Status != ND_SUCCESS)
				check(0, "registers: result %#lx of request %p", r[i].Status, r[i].RequestContext);
			if (r[i].RequestType == Nd2RequestTypeSend)
				sent++;
			else if (r[i].RequestType == Nd2RequestTypeReceive && r[i].BytesTransferred == send.BufferLength)
				recvd++;
		}
		if ((polls & 1023) == 1023)
			Sleep(1);
	}
	check(sent == 4 && recvd == 4,
	      "registers: CompletionQueue::GetResults keeps the callee-saved ones over %d calls, and returns the "
	      "4 Sends and 4 Receives of %lu bytes (%d, %d)", polls, send.BufferLength, sent, recvd);

	close_pair(&cn);
	drain(qa_cq, 200, NULL);
	drain(qb_cq, 200, NULL);
	qa->lpVtbl->Release(qa);
	qb->lpVtbl->Release(qb);
	qa_cq->lpVtbl->Release(qa_cq);
	qb_cq->lpVtbl->Release(qb_cq);
}
