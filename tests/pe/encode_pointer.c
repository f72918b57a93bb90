/* EncodePointer/DecodePointer and the system-pointer pair, which MSVC's
 * C runtime uses for every function pointer it keeps (atexit tables,
 * handlers): decoding gives the pointer back, encoding hides it, the
 * same pointer always encodes the same way in one process, and ntdll's
 * Rtl* forms are the same functions. */
#include <windows.h>

#include "test.h"

typedef PVOID(WINAPI *ptr_fn)(PVOID);

int main(void)
{
	HMODULE ntdll = GetModuleHandleA("ntdll.dll");
	ptr_fn rtl_encode = (ptr_fn)(void *)GetProcAddress(ntdll, "RtlEncodePointer");
	ptr_fn rtl_decode = (ptr_fn)(void *)GetProcAddress(ntdll, "RtlDecodePointer");
	void *values[] = { NULL, (void *)main, (void *)&values, (void *)(ULONG_PTR)1, (void *)~(ULONG_PTR)0 };
	int hidden = 0;

	for (unsigned int i = 0; i < sizeof(values) / sizeof(values[0]); i++) {
		void *p = values[i];
		void *e = EncodePointer(p);

		ok(DecodePointer(e) == p, "%p: decoded %p\n", p, DecodePointer(e));
		ok(EncodePointer(p) == e, "%p: encodes differently twice\n", p);
		hidden += e != p;
		ok(DecodeSystemPointer(EncodeSystemPointer(p)) == p, "%p: system pointer round trip\n", p);
		if (rtl_encode && rtl_decode) {
			ok(rtl_encode(p) == e, "%p: RtlEncodePointer differs\n", p);
			ok(rtl_decode(e) == p, "%p: RtlDecodePointer differs\n", p);
		}
	}
	ok(rtl_encode && rtl_decode, "ntdll lacks RtlEncodePointer/RtlDecodePointer\n");
	/* A secret cookie: at most a freak value stays as it was. */
	ok(hidden >= 4, "only %d of 5 pointers changed by encoding\n", hidden);
	return test_summary();
}
