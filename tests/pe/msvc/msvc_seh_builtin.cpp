/* __try/__except around a C runtime call the program hands a bad pointer
 * (MSVC's SEH, __C_specific_handler): strlen(NULL) and memcpy into
 * memory the program released fault inside ucrtbase; the program's
 * __except filter sees EXCEPTION_ACCESS_VIOLATION with the address, its
 * block runs, and the function goes on with its locals intact -- the
 * frame that called ucrtbase is unwound to and continued, as on Windows.
 * A __finally between the call and the handler runs during the unwind. */
#include "msvc_test.h"

extern "C" {
void *__stdcall VirtualAlloc(void *addr, size_t size, unsigned long type, unsigned long protect);
int __stdcall VirtualFree(void *addr, size_t size, unsigned long type);
}

struct EXCEPTION_RECORD_ {
	unsigned long code, flags;
	void *next, *address;
	unsigned long nparams;
	unsigned long long info[15];
};
struct EXCEPTION_POINTERS_ {
	EXCEPTION_RECORD_ *rec;
	void *ctx;
};
extern "C" void *_exception_info(void);
#define GetExceptionInformation() ((EXCEPTION_POINTERS_ *)_exception_info())

typedef size_t(__cdecl *strlen_fn)(const char *);
typedef void *(__cdecl *memcpy_fn)(void *, const void *, size_t);

/* A pointer in data: the image gets a base relocation, so it loads
 * where 0x140000000 is taken (the ASan build's shadow memory holds it). */
static const char *volatile four = "four";

static unsigned long seen_code;
static unsigned long long seen_kind, seen_addr;
static int finally_ran;

static int filter(EXCEPTION_POINTERS_ *p)
{
	seen_code = p->rec->code;
	seen_kind = p->rec->info[0];
	seen_addr = p->rec->info[1];
	return 1; /* EXCEPTION_EXECUTE_HANDLER */
}

__declspec(noinline) static size_t inner(strlen_fn fn, const char *s)
{
	size_t n = 0;

	__try {
		n = fn(s);
	} __finally {
		finally_ran++;
	}
	return n;
}

extern "C" void test_main(void)
{
	void *crt = GetModuleHandleA("ucrtbase.dll");
	strlen_fn p_strlen = (strlen_fn)GetProcAddress(crt, "strlen");
	memcpy_fn p_memcpy = (memcpy_fn)GetProcAddress(crt, "memcpy");
	volatile long before = 1234, handled = 0;
	char *gone;

	test_prog = "msvc_seh_builtin";
	ok(p_strlen && p_memcpy, "ucrtbase exports");
	__try {
		inner(p_strlen, (const char *)0);
		ok(0, "strlen(NULL) returned");
	} __except (filter(GetExceptionInformation())) {
		handled = 1;
	}
	ok_eq(1, handled);
	ok_eq(0xc0000005, seen_code);
	ok_eq(0, seen_kind);
	ok(seen_addr < 0x10000, "read address below 64 KiB");
	ok_eq(1, finally_ran);
	ok_eq(1234, before);

	gone = (char *)VirtualAlloc(0, 4096, 0x3000, 4);
	VirtualFree(gone, 0, 0x8000);
	handled = 0;
	__try {
		p_memcpy(gone + 16, "abcdefgh", 8);
	} __except (filter(GetExceptionInformation())) {
		handled = 1;
	}
	ok_eq(1, handled);
	ok_eq(1, seen_kind);
	ok(seen_addr >= (unsigned long long)gone && seen_addr < (unsigned long long)gone + 4096, "write address");
	ok_eq(4, p_strlen(four));
	exit(test_summary());
}
