/* pdh: a query with "\Processor(_Total)\% Processor Time" (a value after
 * two samples, none after one), one processor's, and "\Memory\Available
 * Bytes"; the object list; unknown objects, instances and counters, bad
 * handles, removing counters and closing. */
#include <windows.h>
#include <pdh.h>
#include <pdhmsg.h>

#include "test.h"

int main(void)
{
	PDH_HQUERY q = NULL;
	PDH_HCOUNTER cpu = NULL, mem = NULL, cpu_last = NULL, bad = (PDH_HCOUNTER)1;
	WCHAR path[128], *objs;
	SYSTEM_INFO si;
	DWORD size;
	BOOL found;
	PDH_FMT_COUNTERVALUE v;
	MEMORYSTATUSEX ms;
	PDH_STATUS st;
	DWORD type;

	ok(PdhOpenQueryW(NULL, 0, &q) == ERROR_SUCCESS && q, "PdhOpenQueryW\n");
	st = PdhAddEnglishCounterW(q, L"\\Processor(_Total)\\% Processor Time", 0, &cpu);
	ok(st == ERROR_SUCCESS && cpu, "processor time: %#lx\n", st);
	/* Windows has this counter; Wine's pdh does not. */
	st = PdhAddCounterA(q, "\\Memory\\Available Bytes", 0, &mem);
	ok_todo_wine(st == ERROR_SUCCESS && mem, "available bytes: %#lx\n", st);
	st = PdhAddEnglishCounterW(q, L"\\No Such Object\\Thing", 0, &bad);
	/* The docs: an object the system lacks is PDH_CSTATUS_NO_OBJECT;
	 * Wine answers PDH_CSTATUS_NO_COUNTER for any unknown path. */
	ok_todo_wine(st == (PDH_STATUS)PDH_CSTATUS_NO_OBJECT && !bad, "unknown object: %#lx\n", st);
	st = PdhAddEnglishCounterW(q, L"\\Memory\\No Such Counter", 0, &bad);
	ok(st == (PDH_STATUS)PDH_CSTATUS_NO_COUNTER, "unknown counter: %#lx\n", st);
	st = PdhAddEnglishCounterW(NULL, L"\\Memory\\Available Bytes", 0, &bad);
	ok(st == (PDH_STATUS)PDH_INVALID_HANDLE, "no query: %#lx\n", st);

	/* Each processor is an instance of its own; one past the last is not
	 * (PDH_CSTATUS_NO_INSTANCE).  Wine's pdh has no per-processor
	 * instances and answers PDH_CSTATUS_NO_COUNTER for both. */
	GetSystemInfo(&si);
	wsprintfW(path, L"\\Processor(%lu)\\%% Processor Time", si.dwNumberOfProcessors - 1);
	st = PdhAddEnglishCounterW(q, path, 0, &cpu_last);
	ok_todo_wine(st == ERROR_SUCCESS && cpu_last, "%ls: %#lx\n", path, st);
	wsprintfW(path, L"\\Processor(%lu)\\%% Processor Time", si.dwNumberOfProcessors);
	bad = (PDH_HCOUNTER)1;
	st = PdhAddEnglishCounterW(q, path, 0, &bad);
	ok_todo_wine(st == (PDH_STATUS)PDH_CSTATUS_NO_INSTANCE, "%ls: %#lx\n", path, st);

	/* The objects, with the size protocol.  Wine 8's PdhEnumObjectsW is
	 * a stub that aborts the program: not checked there. */
	if (test_on_wine()) {
		printf("pdh_query: PdhEnumObjectsW not checked under Wine (its stub aborts)\n");
	} else {
		size = 0;
		st = PdhEnumObjectsW(NULL, NULL, NULL, &size, PERF_DETAIL_WIZARD, TRUE);
		ok(st == (PDH_STATUS)PDH_MORE_DATA && size > 0, "PdhEnumObjectsW size: %#lx %lu\n", st, size);
		objs = calloc(size, sizeof(WCHAR));
		st = PdhEnumObjectsW(NULL, NULL, objs, &size, PERF_DETAIL_WIZARD, FALSE);
		ok(st == ERROR_SUCCESS, "PdhEnumObjectsW: %#lx\n", st);
		found = FALSE;
		for (WCHAR *o = objs; st == ERROR_SUCCESS && *o; o += lstrlenW(o) + 1)
			found |= !lstrcmpiW(o, L"Processor");
		ok(found, "no Processor object\n");
		free(objs);
	}

	ok(PdhCollectQueryData(q) == ERROR_SUCCESS, "first sample\n");
	if (cpu) {
		st = PdhGetFormattedCounterValue(cpu, PDH_FMT_DOUBLE, &type, &v);
		/* A rate needs two samples (the docs of PdhCollectQueryData);
		 * Wine answers 0 after one. */
		ok_todo_wine(st == (PDH_STATUS)PDH_INVALID_DATA && v.CStatus == PDH_CSTATUS_INVALID_DATA,
			     "a rate after one sample: %#lx %#lx\n", st, v.CStatus);
	}
	if (mem) {
		st = PdhGetFormattedCounterValue(mem, PDH_FMT_LARGE, &type, &v);
		ms.dwLength = sizeof(ms);
		GlobalMemoryStatusEx(&ms);
		ok(st == ERROR_SUCCESS && v.CStatus == PDH_CSTATUS_VALID_DATA && v.largeValue > 0 &&
			   (ULONGLONG)v.largeValue <= ms.ullTotalPhys,
		   "available bytes %#lx %lld of %llu\n", st, v.largeValue, ms.ullTotalPhys);
	}
	/* Some work between the samples, then the second one. */
	Sleep(100);
	ok(PdhCollectQueryData(q) == ERROR_SUCCESS, "second sample\n");
	if (cpu) {
		st = PdhGetFormattedCounterValue(cpu, PDH_FMT_DOUBLE, &type, &v);
		ok(st == ERROR_SUCCESS && v.CStatus == PDH_CSTATUS_VALID_DATA, "processor time: %#lx\n", st);
		ok(v.doubleValue >= 0.0 && v.doubleValue <= 100.0, "processor time %g%%\n", v.doubleValue);
	}
	if (cpu_last) {
		st = PdhGetFormattedCounterValue(cpu_last, PDH_FMT_LONG, &type, &v);
		ok(st == ERROR_SUCCESS && v.longValue >= 0 && v.longValue <= 100, "last processor: %#lx %ld\n", st,
		   v.longValue);
	}
	ok(PdhGetFormattedCounterValue((PDH_HCOUNTER)q, PDH_FMT_DOUBLE, &type, &v) == (PDH_STATUS)PDH_INVALID_HANDLE,
	   "a query is not a counter\n");
	if (mem)
		ok(PdhRemoveCounter(mem) == ERROR_SUCCESS, "PdhRemoveCounter\n");
	ok(PdhCloseQuery(q) == ERROR_SUCCESS, "PdhCloseQuery\n");
	return test_summary();
}
