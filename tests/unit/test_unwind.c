/* The x64 unwind interpreter (RtlVirtualUnwind) and the function-table
 * registry, on unwind information and code bytes built by hand in a fake
 * image, with a fake stack: every unwind code, prologue offsets, chained
 * information, epilogue detection, handlers, and the lookups. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "ntdll/ntdll_private.h"
#include "ntdll/seh_private.h"

#define IMAGE_SIZE 0x10000
#define CODE_RVA 0x1000
#define INFO_RVA 0x3000
#define PDATA_RVA 0x5000

enum { RAX, RCX, RDX, RBX, RSP, RBP, RSI, RDI, R8, R9, R10, R11, R12, R13, R14, R15 };
enum {
	PUSH_NONVOL, ALLOC_LARGE, ALLOC_SMALL, SET_FPREG, SAVE_NONVOL, SAVE_NONVOL_FAR,
	EPILOG, SPARE, SAVE_XMM128, SAVE_XMM128_FAR, PUSH_MACHFRAME
};
#define UC(off, op, info) ((WORD)((off) | (op) << 8 | (info) << 12))

static BYTE *img;
static ULONG64 base;
static DWORD next_info;
static _Alignas(16) ULONG64 stack[16384];
static CONTEXT ctx;
static KNONVOLATILE_CONTEXT_POINTERS ptrs;

static int setup(void **state)
{
	img = aligned_alloc(4096, IMAGE_SIZE);
	memset(img, 0x90, IMAGE_SIZE); /* nops: never an epilogue */
	base = (ULONG64)img;
	next_info = INFO_RVA;
	memset(stack, 0, sizeof(stack));
	memset(&ctx, 0, sizeof(ctx));
	memset(&ptrs, 0, sizeof(ptrs));
	for (int i = 0; i < 512; i++)
		stack[i] = 0x5100 + i;
	return 0;
}

static int teardown(void **state)
{
	free(img);
	return 0;
}

/* Write an UNWIND_INFO; returns its RVA.  handler: RVA or 0; chain: the
 * parent's entry for chained information. */
static DWORD add_info(BYTE flags, BYTE prolog, BYTE frame_reg, BYTE frame_off, const WORD *codes,
		      unsigned int n, DWORD handler, const RUNTIME_FUNCTION *chain)
{
	DWORD rva = next_info;
	BYTE *p = img + rva;

	p[0] = 1 | flags << 3;
	p[1] = prolog;
	p[2] = (BYTE)n;
	p[3] = frame_reg | frame_off << 4;
	memcpy(p + 4, codes, n * sizeof(WORD));
	p += 4 + ((n + 1) & ~1u) * sizeof(WORD);
	if (chain) {
		memcpy(p, chain, sizeof(*chain));
		p += sizeof(*chain);
	} else if (handler) {
		memcpy(p, &handler, 4);
		memcpy(p + 4, "DATA", 4);
		p += 8;
	}
	next_info = ((DWORD)(p - img) + 7) & ~7u;
	return rva;
}

static void code(DWORD rva, const char *bytes, size_t len)
{
	memcpy(img + rva, bytes, len);
}

static PVOID unwind(RUNTIME_FUNCTION *rf, DWORD pc_off, DWORD type, ULONG64 *frame, void **data)
{
	void *d = NULL;
	ULONG64 f = 0;
	PVOID h = RtlVirtualUnwind(type, base, base + rf->BeginAddress + pc_off, rf, &ctx, &d, &f, &ptrs);
	if (frame)
		*frame = f;
	if (data)
		*data = d;
	return h;
}

/* push rbp; push rbx; sub rsp, 0x28 */
static RUNTIME_FUNCTION simple_function(BYTE flags, DWORD handler)
{
	static const WORD codes[] = { UC(6, ALLOC_SMALL, 4), UC(2, PUSH_NONVOL, RBX), UC(1, PUSH_NONVOL, RBP) };
	RUNTIME_FUNCTION rf = { CODE_RVA, CODE_RVA + 0x40, 0 };

	code(CODE_RVA, "\x55\x53\x48\x83\xec\x28", 6);
	rf.UnwindData = add_info(flags, 6, 0, 0, codes, 3, handler, NULL);
	return rf;
}

static void test_push_and_alloc_small(void **state)
{
	RUNTIME_FUNCTION rf = simple_function(0, 0);
	ULONG64 frame;

	ctx.Rsp = (ULONG64)&stack[16];
	ctx.Rip = base + CODE_RVA + 0x10;
	assert_null(unwind(&rf, 0x10, UNW_FLAG_EHANDLER, &frame, NULL));
	assert_int_equal(frame, (ULONG64)&stack[16]);
	assert_int_equal(ctx.Rbx, stack[21]);
	assert_int_equal(ctx.Rbp, stack[22]);
	assert_int_equal(ctx.Rip, stack[23]);
	assert_int_equal(ctx.Rsp, (ULONG64)&stack[24]);
	assert_ptr_equal(ptrs.Rbx, &stack[21]);
	assert_ptr_equal(ptrs.Rbp, &stack[22]);
}

static void test_prologue_offsets(void **state)
{
	RUNTIME_FUNCTION rf = simple_function(0, 0);

	/* After push rbp; push rbx: the allocation has not happened. */
	ctx.Rsp = (ULONG64)&stack[21];
	ctx.Rbx = 0xbb;
	unwind(&rf, 2, 0, NULL, NULL);
	assert_int_equal(ctx.Rbx, stack[21]);
	assert_int_equal(ctx.Rbp, stack[22]);
	assert_int_equal(ctx.Rip, stack[23]);
	assert_int_equal(ctx.Rsp, (ULONG64)&stack[24]);

	/* After push rbp only. */
	ctx.Rsp = (ULONG64)&stack[22];
	ctx.Rbx = 0xbb;
	unwind(&rf, 1, 0, NULL, NULL);
	assert_int_equal(ctx.Rbx, 0xbb);
	assert_int_equal(ctx.Rbp, stack[22]);
	assert_int_equal(ctx.Rip, stack[23]);

	/* At the entry point: a bare return address. */
	ctx.Rsp = (ULONG64)&stack[23];
	ctx.Rbp = 0xbeef;
	unwind(&rf, 0, 0, NULL, NULL);
	assert_int_equal(ctx.Rbp, 0xbeef);
	assert_int_equal(ctx.Rip, stack[23]);
	assert_int_equal(ctx.Rsp, (ULONG64)&stack[24]);
}

static void test_alloc_large(void **state)
{
	static const WORD small_form[] = { UC(7, ALLOC_LARGE, 0), 0x200 };      /* 0x1000 bytes */
	static const WORD large_form[] = { UC(7, ALLOC_LARGE, 1), 0x8008, 0 }; /* 0x8008 bytes */
	RUNTIME_FUNCTION rf = { CODE_RVA, CODE_RVA + 0x40, 0 };

	rf.UnwindData = add_info(0, 7, 0, 0, small_form, 2, 0, NULL);
	ctx.Rsp = (ULONG64)&stack[0];
	unwind(&rf, 0x10, 0, NULL, NULL);
	assert_int_equal(ctx.Rip, stack[0x200]);
	assert_int_equal(ctx.Rsp, (ULONG64)&stack[0x201]);

	rf.UnwindData = add_info(0, 7, 0, 0, large_form, 3, 0, NULL);
	ctx.Rsp = (ULONG64)&stack[0];
	stack[0x1001] = 0x4242;
	unwind(&rf, 0x10, 0, NULL, NULL);
	assert_int_equal(ctx.Rip, 0x4242);
	assert_int_equal(ctx.Rsp, (ULONG64)&stack[0x1002]);
}

/* push rbp; sub rsp, 0x40; lea rbp, [rsp + 0x20] */
static RUNTIME_FUNCTION fpreg_function(void)
{
	static const WORD codes[] = { UC(10, SET_FPREG, 0), UC(5, ALLOC_SMALL, 7), UC(1, PUSH_NONVOL, RBP) };
	RUNTIME_FUNCTION rf = { CODE_RVA, CODE_RVA + 0x40, 0 };

	code(CODE_RVA, "\x55\x48\x83\xec\x40\x48\x8d\x6c\x24\x20", 10);
	rf.UnwindData = add_info(0, 10, RBP, 2, codes, 3, 0, NULL);
	return rf;
}

static void test_set_fpreg(void **state)
{
	RUNTIME_FUNCTION rf = fpreg_function();
	ULONG64 frame;

	/* In the body, with rsp moved further down (alloca). */
	ctx.Rsp = (ULONG64)&stack[100];
	ctx.Rbp = (ULONG64)&stack[200] + 0x20;
	unwind(&rf, 0x20, 0, &frame, NULL);
	assert_int_equal(frame, (ULONG64)&stack[200]);
	assert_int_equal(ctx.Rbp, stack[208]);
	assert_int_equal(ctx.Rip, stack[209]);
	assert_int_equal(ctx.Rsp, (ULONG64)&stack[210]);

	/* In the prologue before the lea: rbp is still the caller's. */
	ctx.Rsp = (ULONG64)&stack[200];
	ctx.Rbp = 0x1234;
	unwind(&rf, 5, 0, &frame, NULL);
	assert_int_equal(frame, (ULONG64)&stack[200]);
	assert_int_equal(ctx.Rbp, stack[208]);
	assert_int_equal(ctx.Rip, stack[209]);
}

static void test_save_nonvol(void **state)
{
	/* sub rsp, 0x180; mov [rsp+0x30], rsi; mov [rsp+0x100], rdi (far form) */
	static const WORD codes[] = {
		UC(20, SAVE_NONVOL_FAR, RDI), 0x100, 0, UC(12, SAVE_NONVOL, RSI), 6, UC(7, ALLOC_LARGE, 0), 0x30,
	};
	RUNTIME_FUNCTION rf = { CODE_RVA, CODE_RVA + 0x40, 0 };

	rf.UnwindData = add_info(0, 20, 0, 0, codes, 7, 0, NULL);
	ctx.Rsp = (ULONG64)&stack[16];
	unwind(&rf, 0x30, 0, NULL, NULL);
	assert_int_equal(ctx.Rsi, stack[16 + 6]);
	assert_int_equal(ctx.Rdi, stack[16 + 0x20]);
	assert_ptr_equal(ptrs.Rsi, &stack[16 + 6]);
	assert_ptr_equal(ptrs.Rdi, &stack[16 + 0x20]);
	assert_int_equal(ctx.Rip, stack[16 + 0x30]);
	assert_int_equal(ctx.Rsp, (ULONG64)&stack[16 + 0x31]);

	/* Between the two saves: rdi's has not happened yet. */
	teardown(state);
	setup(state);
	rf.UnwindData = add_info(0, 20, 0, 0, codes, 7, 0, NULL);
	ctx.Rsp = (ULONG64)&stack[16];
	ctx.Rdi = 0xd1;
	unwind(&rf, 12, 0, NULL, NULL);
	assert_int_equal(ctx.Rsi, stack[16 + 6]);
	assert_int_equal(ctx.Rdi, 0xd1);
}

static void test_save_xmm128(void **state)
{
	/* sub rsp, 0x60; movaps [rsp+0x20], xmm6; movaps [rsp+0x40], xmm7 (far form) */
	static const WORD codes[] = {
		UC(20, SAVE_XMM128_FAR, 7), 0x40, 0, UC(14, SAVE_XMM128, 6), 2, UC(4, ALLOC_SMALL, 11),
	};
	RUNTIME_FUNCTION rf = { CODE_RVA, CODE_RVA + 0x40, 0 };

	rf.UnwindData = add_info(0, 20, 0, 0, codes, 6, 0, NULL);
	ctx.Rsp = (ULONG64)&stack[16];
	unwind(&rf, 0x30, 0, NULL, NULL);
	assert_int_equal(ctx.Xmm6.Low, stack[16 + 4]);
	assert_int_equal(ctx.Xmm6.High, stack[16 + 5]);
	assert_int_equal(ctx.Xmm7.Low, stack[16 + 8]);
	assert_int_equal(ctx.Xmm7.High, stack[16 + 9]);
	assert_ptr_equal(ptrs.Xmm6, &stack[16 + 4]);
	assert_ptr_equal(ptrs.Xmm7, &stack[16 + 8]);
	assert_int_equal(ctx.Rip, stack[16 + 12]);
	assert_int_equal(ctx.Rsp, (ULONG64)&stack[16 + 13]);
}

static void test_push_machframe(void **state)
{
	static const WORD plain[] = { UC(0, PUSH_MACHFRAME, 0) };
	static const WORD with_error[] = { UC(2, PUSH_NONVOL, RBP), UC(0, PUSH_MACHFRAME, 1) };
	RUNTIME_FUNCTION rf = { CODE_RVA, CODE_RVA + 0x40, 0 };

	/* [rip][cs][eflags][rsp][ss] */
	rf.UnwindData = add_info(0, 0, 0, 0, plain, 1, 0, NULL);
	ctx.Rsp = (ULONG64)&stack[16];
	stack[19] = (ULONG64)&stack[300];
	unwind(&rf, 0x10, 0, NULL, NULL);
	assert_int_equal(ctx.Rip, stack[16]);
	assert_int_equal(ctx.Rsp, (ULONG64)&stack[300]);

	/* rbp pushed below [error][rip][cs][eflags][rsp][ss] */
	teardown(state);
	setup(state);
	rf.UnwindData = add_info(0, 2, 0, 0, with_error, 2, 0, NULL);
	ctx.Rsp = (ULONG64)&stack[16];
	stack[21] = (ULONG64)&stack[310];
	unwind(&rf, 0x10, 0, NULL, NULL);
	assert_int_equal(ctx.Rbp, stack[16]);
	assert_int_equal(ctx.Rip, stack[18]);
	assert_int_equal(ctx.Rsp, (ULONG64)&stack[310]);
}

static void test_chained_info(void **state)
{
	static const WORD parent_codes[] = { UC(5, ALLOC_SMALL, 3), UC(1, PUSH_NONVOL, RBP) };
	static const WORD child_codes[] = { UC(2, PUSH_NONVOL, R12) };
	RUNTIME_FUNCTION parent = { CODE_RVA, CODE_RVA + 0x40, 0 };
	RUNTIME_FUNCTION child = { CODE_RVA + 0x40, CODE_RVA + 0x80, 0 };
	void *data;

	parent.UnwindData = add_info(UNW_FLAG_EHANDLER, 5, 0, 0, parent_codes, 2, 0x2000, NULL);
	child.UnwindData = add_info(UNW_FLAG_CHAININFO, 2, 0, 0, child_codes, 1, 0, &parent);

	/* [r12][0x20 of locals][rbp][ret] */
	ctx.Rsp = (ULONG64)&stack[16];
	assert_ptr_equal(unwind(&child, 0x10, UNW_FLAG_EHANDLER, NULL, &data), (void *)(base + 0x2000));
	assert_memory_equal(data, "DATA", 4);
	assert_int_equal(ctx.R12, stack[16]);
	assert_int_equal(ctx.Rbp, stack[21]);
	assert_int_equal(ctx.Rip, stack[22]);
	assert_int_equal(ctx.Rsp, (ULONG64)&stack[23]);

	/* In the fragment's own prologue: only the parent's work is done. */
	teardown(state);
	setup(state);
	parent.UnwindData = add_info(UNW_FLAG_EHANDLER, 5, 0, 0, parent_codes, 2, 0x2000, NULL);
	child.UnwindData = add_info(UNW_FLAG_CHAININFO, 2, 0, 0, child_codes, 1, 0, &parent);
	ctx.Rsp = (ULONG64)&stack[17];
	ctx.R12 = 0x12;
	unwind(&child, 0, UNW_FLAG_EHANDLER, NULL, NULL);
	assert_int_equal(ctx.R12, 0x12);
	assert_int_equal(ctx.Rbp, stack[21]);
	assert_int_equal(ctx.Rip, stack[22]);
}

static void test_epilogue_add_pop_ret(void **state)
{
	RUNTIME_FUNCTION rf = simple_function(UNW_FLAG_EHANDLER, 0x2000);

	/* add rsp, 0x28; pop rbx; pop rbp; ret */
	code(CODE_RVA + 0x20, "\x48\x83\xc4\x28\x5b\x5d\xc3", 7);

	/* In the body the handler is reported... */
	ctx.Rsp = (ULONG64)&stack[16];
	assert_non_null(unwind(&rf, 0x10, UNW_FLAG_EHANDLER, NULL, NULL));

	/* ...at the add, not (an epilogue). */
	ctx.Rsp = (ULONG64)&stack[16];
	assert_null(unwind(&rf, 0x20, UNW_FLAG_EHANDLER, NULL, NULL));
	assert_int_equal(ctx.Rbx, stack[21]);
	assert_int_equal(ctx.Rbp, stack[22]);
	assert_int_equal(ctx.Rip, stack[23]);

	/* At pop rbp: rbx is already the caller's. */
	ctx.Rsp = (ULONG64)&stack[22];
	ctx.Rbx = 0xbb;
	assert_null(unwind(&rf, 0x25, UNW_FLAG_EHANDLER, NULL, NULL));
	assert_int_equal(ctx.Rbx, 0xbb);
	assert_int_equal(ctx.Rbp, stack[22]);
	assert_int_equal(ctx.Rip, stack[23]);
	assert_int_equal(ctx.Rsp, (ULONG64)&stack[24]);

	/* At the ret. */
	ctx.Rsp = (ULONG64)&stack[23];
	ctx.Rbp = 0xbb;
	assert_null(unwind(&rf, 0x26, UNW_FLAG_EHANDLER, NULL, NULL));
	assert_int_equal(ctx.Rbp, 0xbb);
	assert_int_equal(ctx.Rip, stack[23]);
}

static void test_epilogue_lea_rex_pop(void **state)
{
	static const WORD codes[] = {
		UC(12, SET_FPREG, 0), UC(7, ALLOC_SMALL, 7), UC(3, PUSH_NONVOL, R12), UC(1, PUSH_NONVOL, RBP),
	};
	RUNTIME_FUNCTION rf = { CODE_RVA, CODE_RVA + 0x40, 0 };

	/* lea rsp, [rbp + 0x20]; pop r12; pop rbp; ret */
	code(CODE_RVA + 0x20, "\x48\x8d\x65\x20\x41\x5c\x5d\xc3", 8);
	rf.UnwindData = add_info(0, 12, RBP, 2, codes, 4, 0, NULL);
	ctx.Rsp = (ULONG64)&stack[100];
	ctx.Rbp = (ULONG64)&stack[200] + 0x20;
	unwind(&rf, 0x20, 0, NULL, NULL);
	assert_int_equal(ctx.R12, stack[208]);
	assert_int_equal(ctx.Rbp, stack[209]);
	assert_int_equal(ctx.Rip, stack[210]);
	assert_int_equal(ctx.Rsp, (ULONG64)&stack[211]);
}

static void test_epilogue_tail_jumps(void **state)
{
	RUNTIME_FUNCTION rf = simple_function(0, 0);

	/* pop rbx; pop rbp; jmp rel32 out of the function: a tail call. */
	code(CODE_RVA + 0x20, "\x5b\x5d\xe9\x00\x10\x00\x00", 7);
	ctx.Rsp = (ULONG64)&stack[21];
	unwind(&rf, 0x20, 0, NULL, NULL);
	assert_int_equal(ctx.Rbx, stack[21]);
	assert_int_equal(ctx.Rip, stack[23]);

	/* pop rbp; rex.w jmp [rax] */
	code(CODE_RVA + 0x30, "\x5d\x48\xff\x20", 4);
	ctx.Rsp = (ULONG64)&stack[22];
	unwind(&rf, 0x30, 0, NULL, NULL);
	assert_int_equal(ctx.Rbp, stack[22]);
	assert_int_equal(ctx.Rip, stack[23]);

	/* pop rbx; pop rbp; jmp back into the function: not an epilogue,
	 * so the body's codes apply (rsp taken as after the prologue). */
	teardown(state);
	setup(state);
	rf = simple_function(0, 0);
	code(CODE_RVA + 0x20, "\x5b\x5d\xeb\xe0", 4);
	ctx.Rsp = (ULONG64)&stack[21];
	unwind(&rf, 0x20, 0, NULL, NULL);
	assert_int_equal(ctx.Rbx, stack[26]);
	assert_int_equal(ctx.Rip, stack[28]);
}

static void test_handler_types(void **state)
{
	RUNTIME_FUNCTION rf = simple_function(UNW_FLAG_EHANDLER, 0x2000);
	void *data;

	ctx.Rsp = (ULONG64)&stack[16];
	assert_ptr_equal(unwind(&rf, 0x10, UNW_FLAG_EHANDLER, NULL, &data), (void *)(base + 0x2000));
	assert_memory_equal(data, "DATA", 4);
	ctx.Rsp = (ULONG64)&stack[16];
	assert_null(unwind(&rf, 0x10, UNW_FLAG_UHANDLER, NULL, NULL));
	/* Not while the prologue runs: the frame does not exist yet. */
	ctx.Rsp = (ULONG64)&stack[21];
	assert_null(unwind(&rf, 2, UNW_FLAG_EHANDLER, NULL, NULL));
}

static PRUNTIME_FUNCTION CALLBACK table_callback(DWORD_PTR pc, PVOID context)
{
	return pc - base == 0x8010 ? context : NULL;
}

static void test_dynamic_tables(void **state)
{
	RUNTIME_FUNCTION *table = (RUNTIME_FUNCTION *)(img + PDATA_RVA);
	static RUNTIME_FUNCTION cb_entry = { 0x8000, 0x8040, INFO_RVA };
	DWORD_PTR found_base = 0;

	table[0] = (RUNTIME_FUNCTION){ 0x1000, 0x1040, INFO_RVA };
	table[1] = (RUNTIME_FUNCTION){ 0x1040, 0x1080, INFO_RVA };
	table[2] = (RUNTIME_FUNCTION){ 0x1100, 0x1180, INFO_RVA };
	assert_true(RtlAddFunctionTable(table, 3, base));
	assert_ptr_equal(RtlLookupFunctionEntry(base + 0x1040, &found_base, NULL), &table[1]);
	assert_int_equal(found_base, base);
	assert_ptr_equal(RtlLookupFunctionEntry(base + 0x117f, &found_base, NULL), &table[2]);
	assert_null(RtlLookupFunctionEntry(base + 0x1090, &found_base, NULL));
	assert_true(seh_pc_in_pe(base + 0x1090));
	assert_false(seh_pc_in_pe(base + 0x1180));
	assert_true(RtlDeleteFunctionTable(table));
	assert_false(RtlDeleteFunctionTable(table));
	assert_null(RtlLookupFunctionEntry(base + 0x1040, &found_base, NULL));

	assert_false(RtlInstallFunctionTableCallback(base, base + 0x8000, 0x100, table_callback, &cb_entry, NULL));
	assert_true(RtlInstallFunctionTableCallback(base | 3, base + 0x8000, 0x100, table_callback, &cb_entry, NULL));
	assert_ptr_equal(RtlLookupFunctionEntry(base + 0x8010, &found_base, NULL), &cb_entry);
	assert_int_equal(found_base, base + 0x8000);
	assert_null(RtlLookupFunctionEntry(base + 0x8020, &found_base, NULL));
	assert_true(RtlDeleteFunctionTable((RUNTIME_FUNCTION *)(base | 3)));
	assert_false(seh_pc_in_pe(base + 0x8010));
}

/* DOS and NT headers whose exception directory is [rva, rva+size). */
static void fake_headers(DWORD rva, DWORD size)
{
	IMAGE_DOS_HEADER *dos = (IMAGE_DOS_HEADER *)img;
	IMAGE_NT_HEADERS64 *nt = (IMAGE_NT_HEADERS64 *)(img + 0x80);

	memset(img, 0, 0x400);
	dos->e_magic = IMAGE_DOS_SIGNATURE;
	dos->e_lfanew = 0x80;
	nt->Signature = IMAGE_NT_SIGNATURE;
	nt->OptionalHeader.Magic = IMAGE_NT_OPTIONAL_HDR64_MAGIC;
	nt->OptionalHeader.NumberOfRvaAndSizes = IMAGE_NUMBEROF_DIRECTORY_ENTRIES;
	nt->OptionalHeader.DataDirectory[IMAGE_DIRECTORY_ENTRY_EXCEPTION].VirtualAddress = rva;
	nt->OptionalHeader.DataDirectory[IMAGE_DIRECTORY_ENTRY_EXCEPTION].Size = size;
}

static void test_image_registry(void **state)
{
	RUNTIME_FUNCTION *table = (RUNTIME_FUNCTION *)(img + PDATA_RVA);
	DWORD_PTR found_base = 0;
	char where[64];

	table[0] = (RUNTIME_FUNCTION){ 0x1000, 0x1040, INFO_RVA };
	table[1] = (RUNTIME_FUNCTION){ 0x1040, 0x1080, PDATA_RVA | 1 }; /* shares table[0]'s */
	table[2] = (RUNTIME_FUNCTION){ 0x1100, 0x1180, IMAGE_SIZE - 2 }; /* unwind info out of range */
	fake_headers(PDATA_RVA, 3 * sizeof(RUNTIME_FUNCTION));
	seh_register_image(img, IMAGE_SIZE, "/some/dir/prog.exe");
	assert_ptr_equal(RtlLookupFunctionEntry(base + 0x1010, &found_base, NULL), &table[0]);
	assert_int_equal(found_base, base);
	assert_ptr_equal(RtlLookupFunctionEntry(base + 0x1050, &found_base, NULL), &table[0]);
	assert_null(RtlLookupFunctionEntry(base + 0x1110, &found_base, NULL));
	assert_true(seh_pc_in_pe(base + 0x1110));
	seh_describe_pc(base + 0x1234, where, sizeof(where));
	assert_string_equal(where, "prog.exe+0x1234");
	seh_unregister_image(img);
	assert_false(seh_pc_in_pe(base + 0x1010));
	assert_null(RtlLookupFunctionEntry(base + 0x1010, &found_base, NULL));

	/* A directory that overflows the image is ignored, not followed. */
	fake_headers(IMAGE_SIZE - 12, 24);
	seh_register_image(img, IMAGE_SIZE, "bad.dll");
	assert_true(seh_pc_in_pe(base + 0x1010));
	assert_null(RtlLookupFunctionEntry(base + 0x1010, &found_base, NULL));
	seh_unregister_image(img);
}

static void test_capture_restore_roundtrip(void **state)
{
	static volatile int resumed;
	CONTEXT c;

	resumed = 0;
	RtlCaptureContext(&c);
	assert_int_equal(c.ContextFlags & CONTEXT_FULL, CONTEXT_FULL);
	if (!resumed) {
		resumed = 1;
		RtlRestoreContext(&c, NULL);
		fail_msg("RtlRestoreContext returned");
	}
	assert_int_equal(resumed, 1);
}

#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_push_and_alloc_small),
		T(test_prologue_offsets),
		T(test_alloc_large),
		T(test_set_fpreg),
		T(test_save_nonvol),
		T(test_save_xmm128),
		T(test_push_machframe),
		T(test_chained_info),
		T(test_epilogue_add_pop_ret),
		T(test_epilogue_lea_rex_pop),
		T(test_epilogue_tail_jumps),
		T(test_handler_types),
		T(test_dynamic_tables),
		T(test_image_registry),
		T(test_capture_restore_roundtrip),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
