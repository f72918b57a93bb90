/* Dynamic function tables without a fixed limit, as JIT runtimes use them
 * (one table per generated function).
 *
 * Windows rules checked (Microsoft's RtlAddFunctionTable,
 * RtlDeleteFunctionTable, RtlLookupFunctionEntry, RtlVirtualUnwind,
 * RtlAddGrowableFunctionTable, RtlGrowFunctionTable,
 * RtlDeleteGrowableFunctionTable and RtlInstallFunctionTableCallback docs,
 * and the x64 exception-handling ABI):
 *  - 5,000 generated functions, each calling the next, each registered
 *    with RtlAddFunctionTable as a table of its own: every registration
 *    succeeds; from the innermost, RtlLookupFunctionEntry and
 *    RtlVirtualUnwind walk up through all 5,000 frames back into the
 *    program;
 *  - an exception raised there is dispatched through all of them to the
 *    language handler of the outermost one, which sees its own
 *    establisher frame and may continue execution;
 *  - after RtlDeleteFunctionTable of each, nothing is found there and a
 *    second delete fails;
 *  - a growable table finds only the entries it has been grown to;
 *    after RtlDeleteGrowableFunctionTable, none;
 *  - a callback installed for a range answers lookups in it. */
#include "test.h"

#define NFUNCS 5000
#define SLOT 32 /* bytes of code per function (at most 26 used) */

typedef DWORD(WINAPI *add_growable_fn)(void **, RUNTIME_FUNCTION *, DWORD, DWORD, ULONG_PTR, ULONG_PTR);
typedef void(WINAPI *grow_fn)(void *, DWORD);
typedef void(WINAPI *delete_growable_fn)(void *);

static BYTE *region;          /* code, then unwind data */
static RUNTIME_FUNCTION *rfs; /* one per function, each its own table */
static volatile int walked, handler_calls, handler_frame_ok;
static volatile ULONG64 f0_frame;

static EXCEPTION_DISPOSITION __cdecl outer_handler(EXCEPTION_RECORD *rec, void *frame, CONTEXT *ctx,
						   DISPATCHER_CONTEXT *disp)
{
	(void)ctx;
	if (rec->ExceptionCode != 0xE0001234 || (rec->ExceptionFlags & EXCEPTION_UNWINDING))
		return ExceptionContinueSearch;
	handler_calls++;
	handler_frame_ok = (ULONG64)frame == f0_frame && disp->ControlPc >= (ULONG64)region &&
			   disp->ControlPc < (ULONG64)region + SLOT;
	return ExceptionContinueExecution;
}

/* Called by the innermost generated function. */
static void __attribute__((noinline)) deepest(void)
{
	CONTEXT ctx;
	int n = 0;

	RtlCaptureContext(&ctx);
	for (int step = 0; step < NFUNCS + 16; step++) {
		DWORD64 base = 0, frame = 0;
		void *data = NULL;
		RUNTIME_FUNCTION *rf = RtlLookupFunctionEntry(ctx.Rip, &base, NULL);

		if (!rf)
			break;
		if (ctx.Rip >= (DWORD64)region && ctx.Rip < (DWORD64)region + NFUNCS * SLOT) {
			n++;
			/* The outermost one's frame: rsp after its prologue. */
			if (ctx.Rip < (DWORD64)region + SLOT)
				f0_frame = ctx.Rsp;
		} else if (n) {
			break; /* back in the program */
		}
		RtlVirtualUnwind(UNW_FLAG_NHANDLER, base, ctx.Rip, rf, &ctx, &data, &frame, NULL);
	}
	walked = n;
	RaiseException(0xE0001234, 0, 0, NULL);
}

static void emit(BYTE **p, const void *bytes, size_t len)
{
	memcpy(*p, bytes, len);
	*p += len;
}

static void build_code(void)
{
	static const BYTE prolog[] = { 0x48, 0x83, 0xec, 0x28 }; /* sub rsp, 0x28 */
	static const BYTE epilog[] = { 0x48, 0x83, 0xc4, 0x28, 0xc3 }; /* add rsp, 0x28; ret */
	BYTE *info = region + NFUNCS * SLOT, *tramp;
	DWORD info_plain, info_handler, tramp_rva;
	ULONG64 target;

	/* A trampoline to the C handler (its RVA must be inside the
	 * region): mov rax, imm64; jmp rax. */
	tramp = info + 64;
	tramp_rva = (DWORD)(tramp - region);
	target = (ULONG64)outer_handler;
	tramp[0] = 0x48;
	tramp[1] = 0xb8;
	memcpy(tramp + 2, &target, 8);
	tramp[10] = 0xff;
	tramp[11] = 0xe0;

	/* UNWIND_INFO: version 1, prolog 4 bytes, one code: at offset 4,
	 * UWOP_ALLOC_SMALL of (4 + 1) * 8 = 0x28 bytes. */
	info_plain = (DWORD)(info - region);
	info[0] = 1;
	info[1] = 4;
	info[2] = 1;
	info[3] = 0;
	info[4] = 4;
	info[5] = 0x02 | (4 << 4);
	info_handler = info_plain + 16;
	info[16] = 1 | (UNW_FLAG_EHANDLER << 3);
	info[17] = 4;
	info[18] = 1;
	info[19] = 0;
	info[20] = 4;
	info[21] = 0x02 | (4 << 4);
	memcpy(info + 24, &tramp_rva, 4); /* after the (even) code slots */

	for (int i = 0; i < NFUNCS; i++) {
		BYTE *p = region + i * SLOT;

		emit(&p, prolog, sizeof(prolog));
		if (i < NFUNCS - 1) {
			INT32 rel = (INT32)((region + (i + 1) * SLOT) - (p + 5));

			*p++ = 0xe8; /* call rel32 */
			emit(&p, &rel, 4);
		} else {
			ULONG64 fn = (ULONG64)deepest;

			*p++ = 0x48; /* mov rax, imm64 */
			*p++ = 0xb8;
			emit(&p, &fn, 8);
			*p++ = 0xff; /* call rax */
			*p++ = 0xd0;
		}
		/* A return address right at "add rsp; ret" would be taken
		 * for an epilogue, whose frame handlers are skipped (as MSVC
		 * knows: it puts a nop after such a call). */
		*p++ = 0x90;
		emit(&p, epilog, sizeof(epilog));
		rfs[i].BeginAddress = (DWORD)(i * SLOT);
		rfs[i].EndAddress = (DWORD)(p - region);
		rfs[i].UnwindData = i ? info_plain : info_handler;
	}
	FlushInstructionCache(GetCurrentProcess(), region, NFUNCS * SLOT);
}

static RUNTIME_FUNCTION callback_entry;

static PRUNTIME_FUNCTION CALLBACK table_callback(DWORD64 pc, void *context)
{
	(void)pc;
	return context;
}

int main(void)
{
	HMODULE ntdll = GetModuleHandleA("ntdll.dll");
	add_growable_fn add_growable = (add_growable_fn)(void *)GetProcAddress(ntdll, "RtlAddGrowableFunctionTable");
	grow_fn grow = (grow_fn)(void *)GetProcAddress(ntdll, "RtlGrowFunctionTable");
	delete_growable_fn delete_growable =
		(delete_growable_fn)(void *)GetProcAddress(ntdll, "RtlDeleteGrowableFunctionTable");
	DWORD64 base = 0;
	int added = 0, deleted = 0, found = 0;
	void *growable = NULL;
	DWORD status;

	region = VirtualAlloc(NULL, NFUNCS * SLOT + 4096, MEM_COMMIT | MEM_RESERVE, PAGE_EXECUTE_READWRITE);
	rfs = calloc(NFUNCS, sizeof(*rfs));
	ok(region && rfs, "allocation\n");
	if (!region || !rfs)
		return test_summary();
	build_code();

	for (int i = 0; i < NFUNCS; i++)
		added += RtlAddFunctionTable(&rfs[i], 1, (DWORD64)region) != 0;
	ok(added == NFUNCS, "%d of %d tables added\n", added, NFUNCS);
	for (int i = 0; i < NFUNCS; i++)
		found += RtlLookupFunctionEntry((DWORD64)region + i * SLOT + 5, &base, NULL) == &rfs[i];
	ok(found == NFUNCS, "%d of %d functions found\n", found, NFUNCS);
	ok(base == (DWORD64)region, "base %#llx\n", (unsigned long long)base);

	((void (*)(void))region)();
	ok(walked == NFUNCS, "unwound through %d generated frames, expected %d\n", walked, NFUNCS);
	ok(handler_calls == 1, "outermost handler called %d times\n", handler_calls);
	ok(handler_frame_ok, "handler's establisher frame or control pc wrong\n");

	for (int i = 0; i < NFUNCS; i++)
		deleted += RtlDeleteFunctionTable(&rfs[i]) != 0;
	ok(deleted == NFUNCS, "%d of %d tables deleted\n", deleted, NFUNCS);
	ok(!RtlLookupFunctionEntry((DWORD64)region + 5, &base, NULL), "found after delete\n");
	ok(!RtlDeleteFunctionTable(&rfs[0]), "second delete succeeded\n");

	/* Growable: the same entries, shown as the table grows. */
	ok(add_growable && grow && delete_growable, "growable table functions missing\n");
	if (add_growable && grow && delete_growable) {
		status = add_growable(&growable, rfs, 0, NFUNCS, (ULONG_PTR)region, (ULONG_PTR)region + NFUNCS * SLOT);
		ok(status == 0 && growable, "RtlAddGrowableFunctionTable: %#lx\n", (unsigned long)status);
		ok(!RtlLookupFunctionEntry((DWORD64)region + 5, &base, NULL), "found in an empty growable table\n");
		grow(growable, 10);
		ok(RtlLookupFunctionEntry((DWORD64)region + 9 * SLOT + 5, &base, NULL) == &rfs[9],
		   "entry 9 after growing to 10\n");
		ok(!RtlLookupFunctionEntry((DWORD64)region + 10 * SLOT + 5, &base, NULL), "entry 10 before growing\n");
		grow(growable, NFUNCS);
		ok(RtlLookupFunctionEntry((DWORD64)region + (NFUNCS - 1) * SLOT + 5, &base, NULL) == &rfs[NFUNCS - 1],
		   "last entry after growing\n");
		delete_growable(growable);
		ok(!RtlLookupFunctionEntry((DWORD64)region + 5, &base, NULL), "found after deleting the growable table\n");
	}

	/* A callback for part of the region. */
	callback_entry = rfs[3];
	ok(RtlInstallFunctionTableCallback((DWORD64)region | 3, (DWORD64)region, NFUNCS * SLOT, table_callback,
					   &callback_entry, NULL),
	   "RtlInstallFunctionTableCallback\n");
	ok(RtlLookupFunctionEntry((DWORD64)region + 3 * SLOT + 5, &base, NULL) == &callback_entry,
	   "callback's entry not returned\n");
	ok(RtlDeleteFunctionTable((RUNTIME_FUNCTION *)((DWORD64)region | 3)), "delete the callback\n");
	return test_summary();
}
