#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <time.h>
#include <sys/syscall.h>

#include "core/debug.h"

uint64_t debug_mask;

/* Trace times count from here (the first debug_init), not the epoch:
 * short numbers that line up with the program's own run. */
static struct timespec debug_start;

static const char *const channel_names[DBCH_COUNT] = {
#define X(name) #name,
#include "core/debug_channels.h"
#undef X
};

/* spec: comma-separated "+name" / "-name" / "name"; "all" means every channel. */
void debug_init(const char *spec)
{
	char buf[256];
	char *save, *tok;

	if (!debug_start.tv_sec && !debug_start.tv_nsec)
		clock_gettime(CLOCK_MONOTONIC, &debug_start);
	if (!spec)
		return;
	snprintf(buf, sizeof(buf), "%s", spec);
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		int on = 1;
		uint64_t bits = 0;

		if (*tok == '+' || *tok == '-')
			on = *tok++ == '+';
		if (!strcmp(tok, "all"))
			bits = ~0ull;
		for (int i = 0; i < DBCH_COUNT && !bits; i++)
			if (!strcmp(tok, channel_names[i]))
				bits = 1ull << i;
		if (!bits) {
			ndrun_error("NDSHIM_DEBUG: unknown channel '%s'", tok);
			continue;
		}
		debug_mask = on ? debug_mask | bits : debug_mask & ~bits;
	}
}

const char *debug_channel_list(void)
{
	static char list[DBCH_COUNT * 16];
	size_t n = 0;

	for (int i = 0; i < DBCH_COUNT && n < sizeof(list); i++)
		n += (size_t)snprintf(list + n, sizeof(list) - n, "%s%s", i ? " " : "", channel_names[i]);
	return list;
}

int debug_format_prefix(char *buf, size_t size, uint64_t usec, unsigned long tid, enum debug_channel ch,
			const char *func)
{
	return snprintf(buf, size, "%llu.%06llu:%04lx:trace:%s:%s%s", (unsigned long long)(usec / 1000000),
			(unsigned long long)(usec % 1000000), tid, channel_names[ch], func ? func : "",
			func ? " " : "");
}

void debug_printf(enum debug_channel ch, const char *func, const char *fmt, ...)
{
	char line[1024];
	struct timespec now;
	uint64_t usec;
	int n;
	va_list ap;

	clock_gettime(CLOCK_MONOTONIC, &now);
	usec = (uint64_t)(now.tv_sec - debug_start.tv_sec) * 1000000 +
	       (uint64_t)((now.tv_nsec - debug_start.tv_nsec) / 1000);
	n = debug_format_prefix(line, sizeof(line), usec, (unsigned long)syscall(SYS_gettid), ch, func);
	va_start(ap, fmt);
	if (n >= 0 && (size_t)n < sizeof(line))
		vsnprintf(line + n, sizeof(line) - n, fmt, ap);
	va_end(ap);
	/* One write per line so lines from threads do not interleave. */
	(void)!write(2, line, strlen(line));
}

void ndrun_error(const char *fmt, ...)
{
	char line[1024];
	int n;
	va_list ap;

	n = snprintf(line, sizeof(line), "ndrun: ");
	va_start(ap, fmt);
	vsnprintf(line + n, sizeof(line) - n - 1, fmt, ap);
	va_end(ap);
	strcat(line, "\n");
	(void)!write(2, line, strlen(line));
}

const char *debugstr_w(const uint16_t *s)
{
	static __thread char bufs[4][256];
	static __thread unsigned int next;
	char *out = bufs[next++ % 4];
	size_t n = 0;

	if (!s)
		return "(null)";
	out[n++] = '"';
	for (; *s && n < sizeof(bufs[0]) - 8; s++) {
		uint16_t c = *s;
		if (c < 0x80) {
			out[n++] = (char)c;
		} else if (c < 0x800) {
			out[n++] = (char)(0xc0 | (c >> 6));
			out[n++] = (char)(0x80 | (c & 0x3f));
		} else {
			out[n++] = (char)(0xe0 | (c >> 12));
			out[n++] = (char)(0x80 | ((c >> 6) & 0x3f));
			out[n++] = (char)(0x80 | (c & 0x3f));
		}
	}
	out[n++] = '"';
	out[n] = 0;
	return out;
}
