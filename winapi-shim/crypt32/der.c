/* DER reading: crypt32/der.h. */
#include <stdio.h>
#include <string.h>

#include "crypt32/der.h"

bool der_next(struct der *in, BYTE *tag, struct der *contents, struct der *whole)
{
	size_t len, hdr = 2;

	if (in->len < 2 || (in->p[0] & 0x1f) == 0x1f)
		return false;
	len = in->p[1];
	if (len & 0x80) {
		size_t n = len & 0x7f;
		if (!n || n > 4 || in->len < 2 + n)
			return false;
		len = 0;
		for (size_t i = 0; i < n; i++)
			len = len << 8 | in->p[2 + i];
		hdr += n;
	}
	if (len > in->len - hdr)
		return false;
	*tag = in->p[0];
	if (contents) {
		contents->p = in->p + hdr;
		contents->len = len;
	}
	if (whole) {
		whole->p = in->p;
		whole->len = hdr + len;
	}
	in->p += hdr + len;
	in->len -= hdr + len;
	return true;
}

bool der_expect(struct der *in, BYTE tag, struct der *contents, struct der *whole)
{
	struct der save = *in;
	BYTE t;

	if (!der_next(in, &t, contents, whole))
		return false;
	if (t != tag) {
		*in = save;
		return false;
	}
	return true;
}

bool der_oid_string(const struct der *oid, char *buf, size_t size)
{
	size_t n = 0;
	uint64_t v = 0;
	bool first = true;

	if (!oid->len || size < 2)
		return false;
	for (size_t i = 0; i < oid->len; i++) {
		if (v >> 56)
			return false;
		v = v << 7 | (oid->p[i] & 0x7f);
		if (oid->p[i] & 0x80)
			continue;
		int w;
		if (first) {
			/* the first number carries two arcs: 40 * x + y */
			unsigned int x = v < 40 ? 0 : v < 80 ? 1 : 2;
			w = snprintf(buf + n, size - n, "%u.%llu", x, (unsigned long long)(v - 40 * x));
			first = false;
		} else {
			w = snprintf(buf + n, size - n, ".%llu", (unsigned long long)v);
		}
		if (w < 0 || (size_t)w >= size - n)
			return false;
		n += (size_t)w;
		v = 0;
	}
	return !first && !(oid->p[oid->len - 1] & 0x80);
}

static bool digits(const BYTE *p, int n, int *out)
{
	*out = 0;
	for (int i = 0; i < n; i++) {
		if (p[i] < '0' || p[i] > '9')
			return false;
		*out = *out * 10 + (p[i] - '0');
	}
	return true;
}

/* Days from 1601-01-01 to year-month-day (proleptic Gregorian). */
static int64_t days_since_1601(int year, int month, int day)
{
	static const int cum[12] = { 0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334 };
	int64_t y = year - 1601;
	int64_t d = y * 365 + y / 4 - y / 100 + y / 400 + cum[month - 1] + day - 1;
	bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;

	if (leap && month > 2)
		d++;
	return d;
}

bool der_time(BYTE tag, const struct der *c, uint64_t *filetime)
{
	int year, mon, day, hour, min, sec;
	const BYTE *p = c->p;

	if (tag == 0x17) {
		if (c->len != 13 || p[12] != 'Z' || !digits(p, 2, &year))
			return false;
		year += year < 50 ? 2000 : 1900;
		p += 2;
	} else if (tag == 0x18) {
		if (c->len != 15 || p[14] != 'Z' || !digits(p, 4, &year))
			return false;
		p += 4;
	} else {
		return false;
	}
	if (!digits(p, 2, &mon) || !digits(p + 2, 2, &day) || !digits(p + 4, 2, &hour) || !digits(p + 6, 2, &min) ||
	    !digits(p + 8, 2, &sec))
		return false;
	if (year < 1601 || mon < 1 || mon > 12 || day < 1 || day > 31 || hour > 23 || min > 59 || sec > 60)
		return false;
	*filetime = ((((uint64_t)days_since_1601(year, mon, day) * 24 + hour) * 60 + min) * 60 + sec) * 10000000ull;
	return true;
}
