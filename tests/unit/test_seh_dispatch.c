/* Exception dispatch end to end, without a PE loader: the "PE code" is a
 * block of assembly in this program with hand-written unwind information
 * registered through RtlAddFunctionTable.  Covers RaiseException, frame
 * handlers catching through RtlUnwindEx (from phase 1, with non-volatile
 * registers restored at the landing pad), continuing, non-continuable
 * exceptions, vectored exception and continue handlers, hardware faults
 * (write fault, divide by zero, int3) resumed or caught,
 * __C_specific_handler's __except and __finally scopes, the top-level
 * filter, and the unhandled-exception report and exit code. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "ntdll/ntdll_private.h"
#include "ntdll/seh_private.h"

EXCEPTION_DISPOSITION WINAPI test_handler_c(EXCEPTION_RECORD *rec, void *frame, CONTEXT *ctx,
					    DISPATCHER_CONTEXT *disp);
void WINAPI test_finally_c(BOOLEAN abnormal, void *frame);

/* Unwind codes: UC(offset, op, info); ops 0 push, 2 alloc small. */
__asm__(
	".intel_syntax noprefix\n"
	".text\n"
	".p2align 4\n"
	".globl pe_block_start, pe_catcher, pe_catcher_landing, pe_raise, pe_fault, pe_div, pe_int3\n"
	".globl pe_try_finally, pe_try_except, pe_pdata, pe_pdata_end\n"
	".hidden pe_block_start, pe_catcher, pe_catcher_landing, pe_raise, pe_fault, pe_div, pe_int3\n"
	".hidden pe_try_finally, pe_try_except, pe_pdata, pe_pdata_end\n"
	"pe_block_start:\n"

	/* ULONG64 pe_catcher(fn, a, b): rbx/rbp = sentinels, return fn(a, b);
	 * its landing pad returns rax + 0x1000 if the sentinels survived. */
	"pe_catcher:\n"
	"  push rbp\n"
	"  push rbx\n"
	"  sub rsp, 0x28\n"
	"  mov rbx, 0x5eed0001\n"
	"  mov rbp, 0x5eed0002\n"
	"  mov rax, rcx\n"
	"  mov rcx, rdx\n"
	"  mov rdx, r8\n"
	"  call rax\n"
	"  nop\n" /* a return address on an epilogue would read as one */
	"pe_catcher_after:\n"
	"  add rsp, 0x28\n"
	"  pop rbx\n"
	"  pop rbp\n"
	"  ret\n"
	"pe_catcher_landing:\n"
	"  cmp rbx, 0x5eed0001\n"
	"  jne 1f\n"
	"  cmp rbp, 0x5eed0002\n"
	"  jne 1f\n"
	"  add rax, 0x1000\n"
	"  jmp pe_catcher_after\n"
	"1: mov rax, -1\n"
	"  jmp pe_catcher_after\n"
	"pe_catcher_end:\n"

	/* ULONG64 pe_raise(code, flags): RaiseException(code, flags, 0, 0); 7 */
	"pe_raise:\n"
	"  push rbx\n"
	"  sub rsp, 0x20\n"
	"  mov rbx, 0xbad\n"
	"  xor r8d, r8d\n"
	"  xor r9d, r9d\n"
	"  call RaiseException\n"
	"  mov eax, 7\n"
	"  add rsp, 0x20\n"
	"  pop rbx\n"
	"  ret\n"
	"pe_raise_end:\n"

	/* ULONG64 pe_fault(int *p): *p = 1 (a 6-byte instruction); 5 */
	"pe_fault:\n"
	"  sub rsp, 0x28\n"
	"  mov dword ptr [rcx], 1\n"
	"  mov eax, 5\n"
	"  add rsp, 0x28\n"
	"  ret\n"
	"pe_fault_end:\n"

	/* ULONG64 pe_div(int x): 100 / x */
	"pe_div:\n"
	"  sub rsp, 0x28\n"
	"  mov eax, 100\n"
	"  cdq\n"
	"  idiv ecx\n"
	"  add rsp, 0x28\n"
	"  ret\n"
	"pe_div_end:\n"

	/* ULONG64 pe_int3(void): int3; 9 */
	"pe_int3:\n"
	"  sub rsp, 0x28\n"
	"  int3\n"
	"  mov eax, 9\n"
	"  add rsp, 0x28\n"
	"  ret\n"
	"pe_int3_end:\n"

	/* The frame handler: test_handler_c decides; 100 means "unwind with
	 * unwind_args", done from here so the unwind starts in PE code. */
	"pe_handler:\n"
	"  sub rsp, 0x38\n"
	"  call test_handler_c\n"
	"  cmp eax, 100\n"
	"  jne 1f\n"
	"  mov rcx, [rip + unwind_args]\n"
	"  mov rdx, [rip + unwind_args + 8]\n"
	"  mov r8, [rip + unwind_args + 16]\n"
	"  mov r9, [rip + unwind_args + 24]\n"
	"  mov rax, [rip + unwind_args + 32]\n"
	"  mov [rsp + 0x20], rax\n"
	"  mov rax, [rip + unwind_args + 40]\n"
	"  mov [rsp + 0x28], rax\n"
	"  call RtlUnwindEx\n"
	"  ud2\n"
	"1: add rsp, 0x38\n"
	"  ret\n"
	"pe_handler_end:\n"

	/* __try { fn(a, b); } __finally { test_finally_c(); } */
	"pe_try_finally:\n"
	"  sub rsp, 0x28\n"
	"  mov rax, rcx\n"
	"  mov rcx, rdx\n"
	"  mov rdx, r8\n"
	"fin_begin:\n"
	"  call rax\n"
	"  nop\n"
	"fin_end:\n"
	"  add rsp, 0x28\n"
	"  ret\n"
	"pe_try_finally_end:\n"

	/* __try { return fn(a, b); } __except (1) { return code + 0x2000; } */
	"pe_try_except:\n"
	"  sub rsp, 0x28\n"
	"  mov rax, rcx\n"
	"  mov rcx, rdx\n"
	"  mov rdx, r8\n"
	"exc_begin:\n"
	"  call rax\n"
	"  nop\n"
	"exc_end:\n"
	"  add rsp, 0x28\n"
	"  ret\n"
	"exc_target:\n"
	"  add eax, 0x2000\n"
	"  add rsp, 0x28\n"
	"  ret\n"
	"pe_try_except_end:\n"

	"cspec_thunk: jmp __C_specific_handler\n"
	"finally_thunk: jmp test_finally_c\n"

	".p2align 2\n"
	"info_catcher:\n"
	"  .byte 0x19, 6, 3, 0\n" /* version 1, EHANDLER|UHANDLER */
	"  .short 0x4206, 0x3002, 0x5001, 0\n"
	"  .long pe_handler - pe_block_start, 0\n"
	"info_raise:\n"
	"  .byte 1, 5, 2, 0\n"
	"  .short 0x3205, 0x3001\n"
	"info_alloc28:\n"
	"  .byte 1, 4, 1, 0\n"
	"  .short 0x4204, 0\n"
	"info_handler:\n"
	"  .byte 1, 4, 1, 0\n"
	"  .short 0x6204, 0\n"
	"info_finally:\n"
	"  .byte 0x19, 4, 1, 0\n"
	"  .short 0x4204, 0\n"
	"  .long cspec_thunk - pe_block_start\n"
	"  .long 1, fin_begin - pe_block_start, fin_end - pe_block_start, finally_thunk - pe_block_start, 0\n"
	"info_except:\n"
	"  .byte 0x19, 4, 1, 0\n"
	"  .short 0x4204, 0\n"
	"  .long cspec_thunk - pe_block_start\n"
	"  .long 1, exc_begin - pe_block_start, exc_end - pe_block_start, 1, exc_target - pe_block_start\n"

	"pe_pdata:\n"
	"  .long pe_catcher - pe_block_start, pe_catcher_end - pe_block_start, info_catcher - pe_block_start\n"
	"  .long pe_raise - pe_block_start, pe_raise_end - pe_block_start, info_raise - pe_block_start\n"
	"  .long pe_fault - pe_block_start, pe_fault_end - pe_block_start, info_alloc28 - pe_block_start\n"
	"  .long pe_div - pe_block_start, pe_div_end - pe_block_start, info_alloc28 - pe_block_start\n"
	"  .long pe_int3 - pe_block_start, pe_int3_end - pe_block_start, info_alloc28 - pe_block_start\n"
	"  .long pe_handler - pe_block_start, pe_handler_end - pe_block_start, info_handler - pe_block_start\n"
	"  .long pe_try_finally - pe_block_start, pe_try_finally_end - pe_block_start, info_finally - pe_block_start\n"
	"  .long pe_try_except - pe_block_start, pe_try_except_end - pe_block_start, info_except - pe_block_start\n"
	"pe_pdata_end:\n"
	".att_syntax prefix\n");

extern const char pe_block_start[], pe_catcher_landing[], pe_pdata[], pe_pdata_end[];
typedef ULONG64 WINAPI pe_fn(ULONG64, ULONG64, ULONG64);
extern pe_fn pe_catcher, pe_raise, pe_fault, pe_div, pe_int3, pe_try_finally, pe_try_except;

ULONG64 unwind_args[6];

static enum { H_SEARCH, H_CATCH, H_CONTINUE, H_CONTINUE_THEN_CATCH } handler_mode;
static int phase1_calls, phase2_calls, finally_calls;
static DWORD phase1_codes[4], phase2_flags[4];

EXCEPTION_DISPOSITION WINAPI test_handler_c(EXCEPTION_RECORD *rec, void *frame, CONTEXT *ctx,
					    DISPATCHER_CONTEXT *disp)
{
	if (rec->ExceptionFlags & EH_UNWINDING) {
		if (phase2_calls < 4)
			phase2_flags[phase2_calls] = rec->ExceptionFlags;
		phase2_calls++;
		return ExceptionContinueSearch;
	}
	if (phase1_calls < 4)
		phase1_codes[phase1_calls] = rec->ExceptionCode;
	phase1_calls++;
	switch (handler_mode) {
	case H_CONTINUE:
		return ExceptionContinueExecution;
	case H_CONTINUE_THEN_CATCH:
		if (phase1_calls == 1)
			return ExceptionContinueExecution;
		/* fall through */
	case H_CATCH:
		unwind_args[0] = (ULONG64)frame;
		unwind_args[1] = (ULONG64)pe_catcher_landing;
		unwind_args[2] = (ULONG64)rec;
		unwind_args[3] = 42;
		unwind_args[4] = (ULONG64)ctx;
		unwind_args[5] = (ULONG64)disp->HistoryTable;
		return 100;
	default:
		return ExceptionContinueSearch;
	}
}

void WINAPI test_finally_c(BOOLEAN abnormal, void *frame)
{
	if (abnormal)
		finally_calls++;
}

static int setup(void **state)
{
	handler_mode = H_SEARCH;
	phase1_calls = phase2_calls = finally_calls = 0;
	memset(phase1_codes, 0, sizeof(phase1_codes));
	memset(phase2_flags, 0, sizeof(phase2_flags));
	return 0;
}

static void test_catch_restores_registers(void **state)
{
	handler_mode = H_CATCH;
	assert_int_equal(pe_catcher((ULONG64)pe_raise, 0xe0000001, 0), 42 + 0x1000);
	assert_int_equal(phase1_calls, 1);
	assert_int_equal(phase1_codes[0], 0xe0000001);
	assert_int_equal(phase2_calls, 1);
	assert_int_equal(phase2_flags[0], EH_UNWINDING | EH_TARGET_UNWIND);
}

static void test_continue_execution(void **state)
{
	handler_mode = H_CONTINUE;
	assert_int_equal(pe_catcher((ULONG64)pe_raise, 0xe0000002, 0), 7);
	assert_int_equal(phase1_calls, 1);
	assert_int_equal(phase2_calls, 0);
}

static void test_noncontinuable(void **state)
{
	handler_mode = H_CONTINUE_THEN_CATCH;
	assert_int_equal(pe_catcher((ULONG64)pe_raise, 0xe0000003, EXCEPTION_NONCONTINUABLE), 42 + 0x1000);
	assert_int_equal(phase1_calls, 2);
	assert_int_equal(phase1_codes[0], 0xe0000003);
	assert_int_equal(phase1_codes[1], EXCEPTION_NONCONTINUABLE_EXCEPTION);
}

static int veh_calls, vch_calls;
static LONG veh_answer;
static EXCEPTION_RECORD veh_rec;
static CONTEXT veh_ctx;

static LONG CALLBACK veh(EXCEPTION_POINTERS *ptrs)
{
	veh_calls++;
	veh_rec = *ptrs->ExceptionRecord;
	veh_ctx = *ptrs->ContextRecord;
	return veh_answer;
}

static LONG CALLBACK vch(EXCEPTION_POINTERS *ptrs)
{
	vch_calls++;
	return EXCEPTION_CONTINUE_SEARCH;
}

static void test_vectored_handlers(void **state)
{
	void *h = RtlAddVectoredExceptionHandler(1, veh);
	void *c = RtlAddVectoredContinueHandler(0, vch);

	/* One that resumes: frame handlers are not asked. */
	veh_calls = vch_calls = 0;
	veh_answer = EXCEPTION_CONTINUE_EXECUTION;
	handler_mode = H_CATCH;
	assert_int_equal(pe_catcher((ULONG64)pe_raise, 0xe0000004, 0), 7);
	assert_int_equal(veh_calls, 1);
	assert_int_equal(vch_calls, 1);
	assert_int_equal(veh_rec.ExceptionCode, 0xe0000004);
	assert_int_equal(phase1_calls, 0);

	/* One that only looks: the frame handler catches. */
	veh_answer = EXCEPTION_CONTINUE_SEARCH;
	assert_int_equal(pe_catcher((ULONG64)pe_raise, 0xe0000005, 0), 42 + 0x1000);
	assert_int_equal(veh_calls, 2);
	assert_int_equal(vch_calls, 1);
	assert_int_equal(phase1_calls, 1);

	assert_int_equal(RtlRemoveVectoredExceptionHandler(h), 1);
	assert_int_equal(RtlRemoveVectoredExceptionHandler(h), 0);
	assert_int_equal(RtlRemoveVectoredContinueHandler(c), 1);
}

static LONG CALLBACK fix_fault(EXCEPTION_POINTERS *ptrs)
{
	EXCEPTION_RECORD *rec = ptrs->ExceptionRecord;

	veh_calls++;
	veh_rec = *rec;
	if (rec->ExceptionCode == EXCEPTION_ACCESS_VIOLATION) {
		ptrs->ContextRecord->Rip += 6; /* skip the store */
		return EXCEPTION_CONTINUE_EXECUTION;
	}
	if (rec->ExceptionCode == EXCEPTION_BREAKPOINT) {
		if (*(BYTE *)ptrs->ContextRecord->Rip != 0xcc || (ULONG64)rec->ExceptionAddress != ptrs->ContextRecord->Rip)
			return EXCEPTION_CONTINUE_SEARCH;
		ptrs->ContextRecord->Rip++;
		return EXCEPTION_CONTINUE_EXECUTION;
	}
	return EXCEPTION_CONTINUE_SEARCH;
}

static void test_access_violation_resumed(void **state)
{
	void *h = RtlAddVectoredExceptionHandler(1, fix_fault);

	seh_init(); /* cmocka installs its own fault handlers around each test */
	veh_calls = 0;
	assert_int_equal(pe_fault(0x10, 0, 0), 5);
	assert_int_equal(veh_calls, 1);
	assert_int_equal(veh_rec.ExceptionCode, EXCEPTION_ACCESS_VIOLATION);
	assert_int_equal(veh_rec.NumberParameters, 2);
	assert_int_equal(veh_rec.ExceptionInformation[0], EXCEPTION_WRITE_FAULT);
	assert_int_equal(veh_rec.ExceptionInformation[1], 0x10);

	/* And a breakpoint, stepped over. */
	assert_int_equal(pe_int3(0, 0, 0), 9);
	assert_int_equal(veh_rec.ExceptionCode, EXCEPTION_BREAKPOINT);
	RtlRemoveVectoredExceptionHandler(h);
}

static void test_divide_by_zero_caught(void **state)
{
	seh_init();
	handler_mode = H_CATCH;
	assert_int_equal(pe_catcher((ULONG64)pe_div, 4, 0), 25);
	assert_int_equal(pe_catcher((ULONG64)pe_div, 0, 0), 42 + 0x1000);
	assert_int_equal(phase1_codes[0], EXCEPTION_INT_DIVIDE_BY_ZERO);
}

static void test_c_specific_handler(void **state)
{
	seh_init();
	/* __except(1) around a raise: the block gets the code. */
	assert_int_equal(pe_try_except((ULONG64)pe_raise, 0xe0000010, 0), 0xe0000010 + 0x2000);
	assert_int_equal(pe_try_except((ULONG64)pe_div, 0, 0), (ULONG64)(DWORD)(EXCEPTION_INT_DIVIDE_BY_ZERO + 0x2000));

	/* __finally runs (abnormally) during the unwind to an outer catch. */
	handler_mode = H_CATCH;
	assert_int_equal(pe_catcher((ULONG64)pe_try_finally, (ULONG64)pe_raise, 0xe0000011), 42 + 0x1000);
	assert_int_equal(finally_calls, 1);
	assert_int_equal(phase2_calls, 1);
}

static LONG CALLBACK top_filter(EXCEPTION_POINTERS *ptrs)
{
	veh_calls++;
	return ptrs->ExceptionRecord->ExceptionCode == 0x20474343 ? EXCEPTION_CONTINUE_EXECUTION
								  : EXCEPTION_CONTINUE_SEARCH;
}

static void test_top_level_filter_continues(void **state)
{
	/* What mingw's startup code does for an uncaught C++ throw: the
	 * filter resumes, RaiseException returns, std::terminate follows. */
	veh_calls = 0;
	assert_null(SetUnhandledExceptionFilter(top_filter));
	assert_int_equal(pe_raise(0x20474343, 0, 0), 7);
	assert_int_equal(veh_calls, 1);
	assert_ptr_equal(SetUnhandledExceptionFilter(NULL), top_filter);
}

static void test_unhandled_report_and_exit_code(void **state)
{
	int fds[2], status;
	char out[4096] = "";
	ssize_t n, total = 0;
	pid_t pid;

	assert_int_equal(pipe(fds), 0);
	pid = fork();
	if (!pid) {
		seh_init();
		dup2(fds[1], 2);
		pe_fault(0x20, 0, 0);
		_exit(99);
	}
	close(fds[1]);
	while ((n = read(fds[0], out + total, sizeof(out) - 1 - total)) > 0)
		total += n;
	close(fds[0]);
	waitpid(pid, &status, 0);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), EXCEPTION_ACCESS_VIOLATION & 0xff);
	assert_non_null(strstr(out, "unhandled exception 0xc0000005 (EXCEPTION_ACCESS_VIOLATION)"));
	assert_non_null(strstr(out, "write access to 0x0000000000000020"));
	assert_non_null(strstr(out, "#0 "));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_catch_restores_registers, setup),
		cmocka_unit_test_setup(test_continue_execution, setup),
		cmocka_unit_test_setup(test_noncontinuable, setup),
		cmocka_unit_test_setup(test_vectored_handlers, setup),
		cmocka_unit_test_setup(test_access_violation_resumed, setup),
		cmocka_unit_test_setup(test_divide_by_zero_caught, setup),
		cmocka_unit_test_setup(test_c_specific_handler, setup),
		cmocka_unit_test_setup(test_top_level_filter_continues, setup),
		cmocka_unit_test_setup(test_unhandled_report_and_exit_code, setup),
	};

	seh_init();
	if (!RtlAddFunctionTable((RUNTIME_FUNCTION *)pe_pdata,
				 (DWORD)((pe_pdata_end - pe_pdata) / sizeof(RUNTIME_FUNCTION)),
				 (DWORD64)pe_block_start)) {
		fprintf(stderr, "cannot register the test code\n");
		return 1;
	}
	return cmocka_run_group_tests(tests, NULL, NULL);
}
