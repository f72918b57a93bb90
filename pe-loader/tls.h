/* Static TLS of PE modules (the IMAGE_DIRECTORY_ENTRY_TLS directory):
 * each module with one gets an index, written to its AddressOfIndex, and
 * each thread a private copy of its template at
 * ThreadLocalStoragePointer[index] (gs:0x58).  Loader lock held. */
#ifndef NDSHIM_TLS_H
#define NDSHIM_TLS_H

#include <winternl.h>

struct module;

/* Assign an index and give every existing thread its copy.  0, or -1 with
 * a reason. */
int tls_module_init(struct module *m, char *err, size_t errlen);
void tls_module_fini(struct module *m);
/* -1 when the image's callback array cannot be read. */
int tls_call_callbacks(struct module *m, DWORD reason);

/* A new thread's TLS vector with a copy for every module; -1 when out of memory. */
int tls_thread_init(TEB *teb);
void tls_thread_fini(TEB *teb);

#endif
