/* Diagnostics: per-channel tracing chosen by NDSHIM_DEBUG, like WINEDEBUG.
 *
 *   TRACE(loader, "mapped %s at %p\n", name, base);
 *
 * writes one line to stderr:
 *
 *   SECONDS.MICROS:TID:trace:CHANNEL:FUNCTION message
 *
 * SECONDS.MICROS since debug_init (CLOCK_MONOTONIC), TID the Linux thread
 * id in hex, at least 4 digits (GetCurrentThreadId's value); FUNCTION and
 * its space are left out when func is NULL (the relay channel's lines).
 *
 * A disabled channel costs one predictable branch on a global mask; nothing
 * is formatted.  Errors that the user must see go through ndrun_error(). */
#ifndef NDSHIM_DEBUG_H
#define NDSHIM_DEBUG_H

#include <stddef.h>
#include <stdint.h>

enum debug_channel {
#define X(name) DBCH_##name,
#include "core/debug_channels.h"
#undef X
	DBCH_COUNT
};
_Static_assert(DBCH_COUNT <= 64, "debug mask is 64 bits");

extern uint64_t debug_mask;

void debug_init(const char *spec);
/* Every channel's name, space-separated, from debug_channels.h (for
 * ndrun --help, so that the list cannot drift from the channels). */
const char *debug_channel_list(void);
void debug_printf(enum debug_channel ch, const char *func, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* The line's prefix, up to the message: for the format's unit test. */
int debug_format_prefix(char *buf, size_t size, uint64_t usec, unsigned long tid, enum debug_channel ch,
			const char *func);

#define TRACE_ON(ch) __builtin_expect(debug_mask & (1ull << DBCH_##ch), 0)
#define TRACE(ch, ...)                                                        \
	do {                                                                  \
		if (TRACE_ON(ch))                                             \
			debug_printf(DBCH_##ch, __func__, __VA_ARGS__);       \
	} while (0)

/* A one-line message to stderr prefixed "ndrun: ". */
void ndrun_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Render a 16-bit string for a trace line (UTF-8, truncated, rotating
 * buffers: valid until a few more calls on the same thread). */
const char *debugstr_w(const uint16_t *s);

#endif
