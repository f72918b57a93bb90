/* ndrdma: the data pattern every transfer is checked against, and its
 * complement, which the targets hold before a transfer lands. */
#include "ndrdma/ndrdma.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the pattern ------------------------------------------------------------------- */

/* Byte o of an area seeded s is byte o % 8 of a word that depends on s and
 * on o / 8: a transfer that lands at the wrong place, or stale data, does
 * not match.  One multiply per 8 bytes: TCG fills 32 MiB in a blink. */
static UINT64 SeedMix(UINT64 s)
{
	s ^= s >> 33;
	s *= 0xFF51AFD7ED558CCDull;
	s ^= s >> 33;
	s *= 0xC4CEB9FE1A85EC53ull;
	return s ^ (s >> 33);
}

static UINT64 PatternWord(UINT64 mixed, SIZE_T word)
{
	return ((UINT64)word + 1) * 0x9E3779B97F4A7C15ull ^ mixed;
}

UINT8 PatternByte(UINT64 seed, SIZE_T offset)
{
	return (UINT8)(PatternWord(SeedMix(seed), offset / 8) >> (8 * (offset % 8)));
}

/* p[0..len) = the pattern from offset start on (inverted: its complement,
 * which differs from it in every byte). */
static void PatternWrite(char *p, UINT64 seed, SIZE_T start, SIZE_T len, UINT64 invert)
{
	UINT64 mixed = SeedMix(seed);
	SIZE_T i = 0;

	for (; i < len && (start + i) % 8; i++)
		p[i] = (char)((PatternWord(mixed, (start + i) / 8) ^ invert) >> (8 * ((start + i) % 8)));
	for (; i + 8 <= len; i += 8) {
		UINT64 w = PatternWord(mixed, (start + i) / 8) ^ invert;

		memcpy(p + i, &w, 8);
	}
	for (; i < len; i++)
		p[i] = (char)((PatternWord(mixed, (start + i) / 8) ^ invert) >> (8 * ((start + i) % 8)));
}

void PatternFill(char *p, UINT64 seed, SIZE_T start, SIZE_T len)
{
	PatternWrite(p, seed, start, len, 0);
}

void PatternPoison(char *p, UINT64 seed, SIZE_T start, SIZE_T len)
{
	PatternWrite(p, seed, start, len, ~0ull);
}

/* TRUE when p[0..len) is the pattern; else the first bad offset. */
bool PatternCheck(const char *p, UINT64 seed, SIZE_T start, SIZE_T len, SIZE_T *bad)
{
	UINT64 mixed = SeedMix(seed);
	SIZE_T i = 0;

	for (; i < len && (start + i) % 8; i++) {
		if ((UINT8)p[i] != (UINT8)(PatternWord(mixed, (start + i) / 8) >> (8 * ((start + i) % 8))))
			goto mismatch;
	}
	for (; i + 8 <= len; i += 8) {
		UINT64 w;

		memcpy(&w, p + i, 8);
		if (w != PatternWord(mixed, (start + i) / 8))
			break;
	}
	for (; i < len; i++) {
		if ((UINT8)p[i] != (UINT8)(PatternWord(mixed, (start + i) / 8) >> (8 * ((start + i) % 8))))
			goto mismatch;
	}
	return true;
mismatch:
	*bad = i;
	return false;
}
