#include <errno.h>
#include <stdint.h>
#include <sys/random.h>

#include "core/random.h"

void random_fill(void *buf, size_t len)
{
	uint8_t *p = buf;

	/* getrandom returns at most 32 MiB per call and may be interrupted
	 * by a signal on large requests: loop until everything is filled. */
	while (len) {
		ssize_t n = getrandom(p, len, 0);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			break; /* EFAULT: the caller's buffer is bad */
		}
		p += n;
		len -= (size_t)n;
	}
}
