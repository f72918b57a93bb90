/* Queries and counters (pdh.h): a query holds counters; each
 * PdhCollectQueryData samples them all; PdhGetFormattedCounterValue
 * gives a counter's value from its last sample (a rate counter such as
 * processor time needs two).  Processor instances are "_Total" and each
 * processor's number.  Counter paths name an object, an optional
 * instance and a counter, compared without case, with or without a
 * leading "\\machine" naming this machine; paths of counters not listed
 * in counters.c fail with PDH_CSTATUS_NO_OBJECT or PDH_CSTATUS_NO_COUNTER
 * (the object exists but not that counter).  Localised names are the
 * English ones.  Log files as data sources are not implemented and stop
 * the program naming the case (core/unimpl.h). */
#include <stdlib.h>
#include <string.h>

#include "core/topology.h"
#include "core/unimpl.h"
#include "core/wstr.h"
#include "pdh/pdh_private.h"

/* Counter types of Microsoft's winperf.h (the Wine headers lack them):
 * "% Processor Time" is an inverse 100 ns timer, "Available Bytes" a
 * large raw count. */
#define PERF_100NSEC_TIMER_INV 0x21510500
#define PERF_COUNTER_LARGE_RAWCOUNT 0x00010100

#define QUERY_MAGIC 0x51484450u	  /* "PDHQ" */
#define COUNTER_MAGIC 0x43484450u /* "PDHC" */

struct pdh_counter;

struct pdh_query {
	DWORD magic;
	DWORD_PTR user;
	struct pdh_counter *counters;
	CRITICAL_SECTION lock;
};

struct pdh_counter {
	DWORD magic;
	struct pdh_query *query;
	struct pdh_counter *next;
	enum pdh_counter_kind kind;
	int cpu; /* PDH_KIND_CPU: the processor's Linux number, -1 for all */
	DWORD_PTR user;
	struct pdh_sample prev, cur;
	unsigned int samples;
};

static struct pdh_query *get_query(PDH_HQUERY h)
{
	struct pdh_query *q = h;

	return q && q->magic == QUERY_MAGIC ? q : NULL;
}

static struct pdh_counter *get_counter(PDH_HCOUNTER h)
{
	struct pdh_counter *c = h;

	return c && c->magic == COUNTER_MAGIC ? c : NULL;
}

PDH_STATUS WINAPI PdhOpenQueryW(LPCWSTR source, DWORD_PTR user, PDH_HQUERY *out)
{
	struct pdh_query *q;

	if (!out)
		return PDH_INVALID_ARGUMENT;
	if (source)
		unimplemented_case("pdh.PdhOpenQueryW", "a log file as data source");
	q = calloc(1, sizeof(*q));
	if (!q)
		return PDH_MEMORY_ALLOCATION_FAILURE;
	q->magic = QUERY_MAGIC;
	q->user = user;
	InitializeCriticalSection(&q->lock);
	*out = q;
	return ERROR_SUCCESS;
}

PDH_STATUS WINAPI PdhOpenQueryA(LPCSTR source, DWORD_PTR user, PDH_HQUERY *out)
{
	if (source)
		unimplemented_case("pdh.PdhOpenQueryA", "a log file as data source");
	return PdhOpenQueryW(NULL, user, out);
}

/* ASCII without case, for the known names. */
static BOOL name_is(const WCHAR *s, size_t len, const char *name)
{
	size_t i;

	for (i = 0; i < len && name[i]; i++) {
		WCHAR a = s[i] >= 'A' && s[i] <= 'Z' ? s[i] + 32 : s[i];
		char b = name[i] >= 'A' && name[i] <= 'Z' ? name[i] + 32 : name[i];
		if (a != (WCHAR)(unsigned char)b)
			return FALSE;
	}
	return i == len && !name[i];
}

/* "[\\machine]\object[(instance)]\counter" -> the counter kind. */
static PDH_STATUS parse_path(const WCHAR *path, enum pdh_counter_kind *kind, int *cpu)
{
	const WCHAR *obj, *obj_end, *inst = NULL, *inst_end = NULL, *ctr;
	WCHAR host[256];
	DWORD hlen = 256;

	if (!path || !*path)
		return PDH_CSTATUS_BAD_COUNTERNAME;
	if (path[0] == '\\' && path[1] == '\\') {
		const WCHAR *m = path + 2, *e = m;
		while (*e && *e != '\\')
			e++;
		if (!GetComputerNameW(host, &hlen))
			hlen = 0;
		if (!(name_is(m, e - m, ".") || ((size_t)(e - m) == hlen && !wstr_nicmp(m, host, hlen))))
			return PDH_CSTATUS_NO_MACHINE;
		path = e;
	}
	if (path[0] != '\\')
		return PDH_CSTATUS_BAD_COUNTERNAME;
	obj = path + 1;
	for (obj_end = obj; *obj_end && *obj_end != '\\' && *obj_end != '('; obj_end++)
		;
	if (*obj_end == '(') {
		inst = obj_end + 1;
		for (inst_end = inst; *inst_end && *inst_end != ')'; inst_end++)
			;
		if (*inst_end != ')' || inst_end[1] != '\\')
			return PDH_CSTATUS_BAD_COUNTERNAME;
		ctr = inst_end + 2;
	} else if (*obj_end == '\\') {
		ctr = obj_end + 1;
	} else {
		return PDH_CSTATUS_BAD_COUNTERNAME;
	}
	if (name_is(obj, obj_end - obj, "Processor")) {
		if (!inst)
			return PDH_CSTATUS_NO_INSTANCE;
		if (name_is(inst, inst_end - inst, "_Total")) {
			*cpu = -1;
		} else {
			/* a processor's number, within GetSystemInfo's count */
			SYSTEM_INFO si;
			long n = 0;
			const WCHAR *d;
			GetSystemInfo(&si);
			for (d = inst; d < inst_end && *d >= '0' && *d <= '9' && n < 100000; d++)
				n = n * 10 + (*d - '0');
			if (d != inst_end || d == inst || n >= (long)si.dwNumberOfProcessors)
				return PDH_CSTATUS_NO_INSTANCE;
			*cpu = (int)n;
		}
		if (!name_is(ctr, wstr_len(ctr), "% Processor Time"))
			return PDH_CSTATUS_NO_COUNTER;
		*kind = PDH_KIND_CPU;
		return ERROR_SUCCESS;
	}
	if (name_is(obj, obj_end - obj, "Memory")) {
		if (inst)
			return PDH_CSTATUS_NO_INSTANCE;
		if (!name_is(ctr, wstr_len(ctr), "Available Bytes"))
			return PDH_CSTATUS_NO_COUNTER;
		*kind = PDH_KIND_MEM_AVAILABLE;
		return ERROR_SUCCESS;
	}
	return PDH_CSTATUS_NO_OBJECT;
}

PDH_STATUS WINAPI PdhAddEnglishCounterW(PDH_HQUERY hq, LPCWSTR path, DWORD_PTR user, PDH_HCOUNTER *out)
{
	struct pdh_query *q = get_query(hq);
	struct pdh_counter *c;
	enum pdh_counter_kind kind;
	int cpu = -1;
	PDH_STATUS st;

	if (!out)
		return PDH_INVALID_ARGUMENT;
	*out = NULL;
	if (!q)
		return PDH_INVALID_HANDLE;
	if (!path)
		return PDH_INVALID_ARGUMENT;
	st = parse_path(path, &kind, &cpu);
	if (st)
		return st;
	c = calloc(1, sizeof(*c));
	if (!c)
		return PDH_MEMORY_ALLOCATION_FAILURE;
	c->magic = COUNTER_MAGIC;
	c->query = q;
	c->kind = kind;
	c->cpu = cpu < 0 ? -1 : topology_get()->cpus[cpu].linux_id;
	c->user = user;
	EnterCriticalSection(&q->lock);
	c->next = q->counters;
	q->counters = c;
	LeaveCriticalSection(&q->lock);
	*out = c;
	return ERROR_SUCCESS;
}

PDH_STATUS WINAPI PdhAddCounterW(PDH_HQUERY hq, LPCWSTR path, DWORD_PTR user, PDH_HCOUNTER *out)
{
	return PdhAddEnglishCounterW(hq, path, user, out);
}

static PDH_STATUS add_a(PDH_HQUERY hq, LPCSTR path, DWORD_PTR user, PDH_HCOUNTER *out)
{
	WCHAR w[1024];

	if (!path)
		return PdhAddEnglishCounterW(hq, NULL, user, out);
	if (!MultiByteToWideChar(CP_ACP, 0, path, -1, w, 1024))
		return PDH_CSTATUS_BAD_COUNTERNAME;
	return PdhAddEnglishCounterW(hq, w, user, out);
}

PDH_STATUS WINAPI PdhAddEnglishCounterA(PDH_HQUERY hq, LPCSTR path, DWORD_PTR user, PDH_HCOUNTER *out)
{
	return add_a(hq, path, user, out);
}

PDH_STATUS WINAPI PdhAddCounterA(PDH_HQUERY hq, LPCSTR path, DWORD_PTR user, PDH_HCOUNTER *out)
{
	return add_a(hq, path, user, out);
}

/* PDH_NO_DATA when the query has no counters. */
PDH_STATUS WINAPI PdhCollectQueryData(PDH_HQUERY hq)
{
	struct pdh_query *q = get_query(hq);
	PDH_STATUS st;

	if (!q)
		return PDH_INVALID_HANDLE;
	EnterCriticalSection(&q->lock);
	st = q->counters ? ERROR_SUCCESS : PDH_NO_DATA;
	for (struct pdh_counter *c = q->counters; c; c = c->next) {
		c->prev = c->cur;
		pdh_read_sample("", c->kind, c->cpu, &c->cur);
		if (c->cur.valid)
			c->samples++;
	}
	LeaveCriticalSection(&q->lock);
	return st;
}

PDH_STATUS WINAPI PdhGetFormattedCounterValue(PDH_HCOUNTER hc, DWORD format, LPDWORD type, PPDH_FMT_COUNTERVALUE value)
{
	struct pdh_counter *c = get_counter(hc);
	double v;

	if (!c)
		return PDH_INVALID_HANDLE;
	if (!value)
		return PDH_INVALID_ARGUMENT;
	memset(value, 0, sizeof(*value));
	EnterCriticalSection(&c->query->lock);
	if (c->kind == PDH_KIND_CPU) {
		if (c->samples < 2 || !c->prev.valid || c->cur.total <= c->prev.total) {
			LeaveCriticalSection(&c->query->lock);
			value->CStatus = PDH_CSTATUS_INVALID_DATA;
			return PDH_INVALID_DATA;
		}
		v = 100.0 * (double)(c->cur.busy - c->prev.busy) / (double)(c->cur.total - c->prev.total);
		if (type)
			*type = PERF_100NSEC_TIMER_INV;
	} else {
		if (!c->samples) {
			LeaveCriticalSection(&c->query->lock);
			value->CStatus = PDH_CSTATUS_INVALID_DATA;
			return PDH_INVALID_DATA;
		}
		v = (double)c->cur.value;
		if (type)
			*type = PERF_COUNTER_LARGE_RAWCOUNT;
	}
	LeaveCriticalSection(&c->query->lock);
	value->CStatus = PDH_CSTATUS_VALID_DATA;
	if (format & PDH_FMT_DOUBLE)
		value->doubleValue = v;
	else if (format & PDH_FMT_LARGE)
		value->largeValue = (LONGLONG)(v + 0.5);
	else if (format & PDH_FMT_LONG)
		value->longValue = v > 2147483647.0 ? 2147483647 : (LONG)(v + 0.5);
	else
		return PDH_INVALID_ARGUMENT;
	return ERROR_SUCCESS;
}

PDH_STATUS WINAPI PdhRemoveCounter(PDH_HCOUNTER hc)
{
	struct pdh_counter *c = get_counter(hc);
	struct pdh_query *q;

	if (!c)
		return PDH_INVALID_HANDLE;
	q = c->query;
	EnterCriticalSection(&q->lock);
	for (struct pdh_counter **p = &q->counters; *p; p = &(*p)->next)
		if (*p == c) {
			*p = c->next;
			break;
		}
	LeaveCriticalSection(&q->lock);
	c->magic = 0;
	free(c);
	return ERROR_SUCCESS;
}

PDH_STATUS WINAPI PdhCloseQuery(PDH_HQUERY hq)
{
	struct pdh_query *q = get_query(hq);

	if (!q)
		return PDH_INVALID_HANDLE;
	while (q->counters)
		PdhRemoveCounter(q->counters);
	DeleteCriticalSection(&q->lock);
	q->magic = 0;
	free(q);
	return ERROR_SUCCESS;
}

/* The performance objects this pdh has, as a list of strings ending with
 * an empty one; PDH_MORE_DATA and the size (in characters) when the
 * buffer is missing or too small.  refresh changes nothing: the list is
 * fixed. */
static const char objects[] = "Memory\0Processor\0";

static PDH_STATUS enum_objects(const void *source, const void *machine, void *list, LPDWORD size, BOOL wide)
{
	DWORD need = sizeof(objects); /* both NULs at the end */

	if (source)
		unimplemented_case(wide ? "pdh.PdhEnumObjectsW" : "pdh.PdhEnumObjectsA", "a log file as data source");
	if (!size)
		return PDH_INVALID_ARGUMENT;
	if (!list || *size < need) {
		*size = need;
		return PDH_MORE_DATA;
	}
	for (DWORD i = 0; i < need; i++) {
		if (wide)
			((WCHAR *)list)[i] = (unsigned char)objects[i];
		else
			((char *)list)[i] = objects[i];
	}
	*size = need;
	return ERROR_SUCCESS;
}

PDH_STATUS WINAPI PdhEnumObjectsW(LPCWSTR source, LPCWSTR machine, PZZWSTR list, LPDWORD size, DWORD detail,
				  BOOL refresh)
{
	return enum_objects(source, machine, list, size, TRUE);
}

PDH_STATUS WINAPI PdhEnumObjectsA(LPCSTR source, LPCSTR machine, PZZSTR list, LPDWORD size, DWORD detail,
				  BOOL refresh)
{
	return enum_objects(source, machine, list, size, FALSE);
}
