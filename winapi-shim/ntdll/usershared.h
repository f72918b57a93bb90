/* KUSER_SHARED_DATA: the read-only page at 0x7ffe0000 that Windows maps
 * into every process and that MSVC, Rust and Go runtimes read directly
 * (tick count, system time, version, processor features, cookie). */
#ifndef NDSHIM_USERSHARED_H
#define NDSHIM_USERSHARED_H

#include <stdint.h>

#define USER_SHARED_DATA_ADDR 0x7ffe0000ul

/* Map the page and start the thread that keeps its clocks current (every
 * 15.625 ms, Windows' default timer tick).  0, or -1 with a message on
 * stderr when the address is taken. */
int user_shared_init(void);

/* The per-boot cookie of EncodeSystemPointer (the page's Cookie). */
uint32_t user_shared_cookie(void);

#endif
