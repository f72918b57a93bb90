// The handler side of compat/msmpi_compat.h's __try/__except macros: see
// there for why.  One frame stack per thread; the vectored handler only
// acts while the thread has a frame pushed, so exceptions elsewhere reach
// the program's other handlers as before.
#include <windows.h>
#include <stdlib.h>

// The thread's innermost frame and the exception its __except is judging.
static thread_local ndshim_seh_frame *top;
static thread_local EXCEPTION_RECORD caught_record;
static thread_local CONTEXT caught_context;
static thread_local EXCEPTION_POINTERS caught = { &caught_record, &caught_context };
static volatile LONG handler_added;

ndshim_seh_frame::ndshim_seh_frame() : prev(nullptr), active(false) {}

// Leaving the __try or __except normally (or by return/goto/break) pops a
// frame still pushed.
ndshim_seh_frame::~ndshim_seh_frame()
{
	if (active) {
		top = prev;
		active = false;
	}
}

// Where the vectored handler resumes the thread: back into the function
// that pushed the frame, whose stack frame is still live below.
static void __attribute__((noreturn, used)) land(ndshim_seh_frame *f)
{
	longjmp(f->jb, 1);
}

static LONG WINAPI vectored(EXCEPTION_POINTERS *ep)
{
	ndshim_seh_frame *f = top;
	CONTEXT *c = ep->ContextRecord;

	if (!f)
		return EXCEPTION_CONTINUE_SEARCH;
	caught_record = *ep->ExceptionRecord;
	caught_record.ExceptionRecord = nullptr;
	caught_context = *c;
	top = f->prev;
	f->active = false;
	// Resume in land(f) on the faulting stack, below anything live, with
	// the alignment a call leaves (rsp + 8 a multiple of 16) and the
	// 32-byte home area the x64 ABI gives every callee.
	c->Rcx = (DWORD64)f;
	c->Rsp = ((c->Rsp - 512) & ~(DWORD64)15) - 32 - 8;
	c->Rip = (DWORD64)&land;
	return EXCEPTION_CONTINUE_EXECUTION;
}

void ndshim_seh_push(ndshim_seh_frame *f)
{
	if (!handler_added && !InterlockedExchange(&handler_added, 1))
		AddVectoredExceptionHandler(1, vectored);
	f->prev = top;
	f->active = true;
	top = f;
}

// After the jump back: the __except filter's verdict.  Execute the handler
// (1), or pass the exception on to the next frame out (0; -1, "continue
// where it was raised", is not possible once the stack has unwound, and
// no MS-MPI filter returns it for a raised exception).
bool ndshim_seh_filter(ndshim_seh_frame *f, long verdict)
{
	(void)f;
	if (verdict > 0)
		return true;
	RaiseException(caught_record.ExceptionCode, caught_record.ExceptionFlags,
		       caught_record.NumberParameters, caught_record.ExceptionInformation);
	abort(); // a raise with nothing to catch it does not return
}

DWORD ndshim_seh_code(void)
{
	return caught_record.ExceptionCode;
}

EXCEPTION_POINTERS *ndshim_seh_info(void)
{
	return &caught;
}
