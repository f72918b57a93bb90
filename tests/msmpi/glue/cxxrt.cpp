// The little of a C++ runtime MS-MPI needs (it is built without exceptions
// and RTTI, as with MSVC's /EHs- here): new and delete on the C heap, and
// the pure-virtual-call handler.  Linking libstdc++ instead would import
// its whole runtime into msmpi.dll.
#include <stdlib.h>
#include <stdio.h>

void *operator new(size_t n)
{
	void *p = malloc(n ? n : 1);
	if (!p) {
		fputs("msmpi: out of memory in operator new\n", stderr);
		abort();
	}
	return p;
}
void *operator new[](size_t n) { return operator new(n); }
void operator delete(void *p) noexcept { free(p); }
void operator delete[](void *p) noexcept { free(p); }
void operator delete(void *p, size_t) noexcept { free(p); }
void operator delete[](void *p, size_t) noexcept { free(p); }

extern "C" void __cxa_pure_virtual(void)
{
	fputs("msmpi: pure virtual function called\n", stderr);
	abort();
}
