/* Tool Help snapshots (tlhelp32.h): CreateToolhelp32Snapshot and the
 * Process32/Thread32/Module32 walks, from /proc.
 *
 *   processes  every /proc/PID: its id, parent (PPid), thread count and
 *     name; the current process is named by its program's file name
 *     ("app.exe"), others by their Linux name (/proc/PID/comm), which for
 *     another ndrun process is ndrun's own.
 *   threads    every /proc/PID/task/TID (a Linux tid is ndrun's Windows
 *     thread id), with its owner.
 *   modules    the current process's loaded modules (the loader's list);
 *     another process's modules are not visible from here:
 *     ERROR_ACCESS_DENIED, as for a process Windows protects.
 *
 * A snapshot is a handle (CloseHandle frees it) holding copies taken at
 * creation; First restarts a walk, Next goes on, and past the last entry
 * both fail with ERROR_NO_MORE_FILES.  An entry's dwSize smaller than the
 * structure is ERROR_BAD_LENGTH. */
#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/codepage.h"
#include "core/debug.h"
#include "core/handle.h"
#include "core/object.h"
#include "core/wstr.h"
#include "kernel32/kernel32_private.h"
#include "loader.h"

/* tlhelp32.h; the Wine headers lack it. */
#ifndef TH32CS_SNAPMODULE32
#define TH32CS_SNAPMODULE32 0x10
#endif

struct snapshot {
	struct object obj;
	PROCESSENTRY32W *procs;
	THREADENTRY32 *threads;
	MODULEENTRY32W *mods;
	unsigned int nr_procs, nr_threads, nr_mods;
	unsigned int proc_pos, thread_pos, mod_pos; /* the next entry Next returns */
};

static void snapshot_destroy(struct object *obj)
{
	struct snapshot *s = container_of(obj, struct snapshot, obj);

	free(s->procs);
	free(s->threads);
	free(s->mods);
	free(s);
}

static const struct object_ops snapshot_ops = {
	.type_name = "toolhelp snapshot",
	.destroy = snapshot_destroy,
};

static bool grow(void **array, unsigned int n, size_t item)
{
	void *p;

	if (n & (n - 1) && n > 16)
		return true; /* room left: capacities are powers of two from 32 */
	p = realloc(*array, (n < 16 ? 32 : 2 * n) * item);
	if (!p)
		return false;
	*array = p;
	return true;
}

/* "Name:\tvalue" fields of /proc/PID/status. */
static void read_status(unsigned long pid, DWORD *ppid, DWORD *threads)
{
	char path[64], line[256];
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%lu/status", pid);
	if (!(f = fopen(path, "re")))
		return;
	while (fgets(line, sizeof(line), f)) {
		unsigned long v;

		if (sscanf(line, "PPid: %lu", &v) == 1)
			*ppid = (DWORD)v;
		else if (sscanf(line, "Threads: %lu", &v) == 1)
			*threads = (DWORD)v;
	}
	fclose(f);
}

static void process_name(unsigned long pid, WCHAR *out, size_t len)
{
	char path[64], name[64] = "";
	WCHAR *w;
	FILE *f;

	if (pid == GetCurrentProcessId() && GetModuleFileNameW(NULL, out, (DWORD)len)) {
		WCHAR *base = out;

		for (WCHAR *c = out; *c; c++)
			if (*c == '\\')
				base = c + 1;
		memmove(out, base, (wstr_len(base) + 1) * sizeof(WCHAR));
		return;
	}
	snprintf(path, sizeof(path), "/proc/%lu/comm", pid);
	if ((f = fopen(path, "re"))) {
		if (fgets(name, sizeof(name), f))
			name[strcspn(name, "\n")] = 0;
		fclose(f);
	}
	w = utf8_to_utf16_dup(name);
	out[0] = 0;
	if (w && wstr_len(w) < len)
		memcpy(out, w, (wstr_len(w) + 1) * sizeof(WCHAR));
	free(w);
}

static bool is_number(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!isdigit((unsigned char)*s))
			return false;
	return true;
}

static bool add_threads(struct snapshot *s, unsigned long pid)
{
	char path[64];
	struct dirent *de;
	DIR *d;

	snprintf(path, sizeof(path), "/proc/%lu/task", pid);
	if (!(d = opendir(path)))
		return true; /* gone meanwhile */
	while ((de = readdir(d))) {
		THREADENTRY32 *t;

		if (!is_number(de->d_name))
			continue;
		if (!grow((void **)&s->threads, s->nr_threads, sizeof(*t))) {
			closedir(d);
			return false;
		}
		t = &s->threads[s->nr_threads++];
		memset(t, 0, sizeof(*t));
		t->dwSize = sizeof(*t);
		t->th32ThreadID = (DWORD)strtoul(de->d_name, NULL, 10);
		t->th32OwnerProcessID = (DWORD)pid;
		t->tpBasePri = THREAD_PRIORITY_NORMAL + 8;
	}
	closedir(d);
	return true;
}

static bool walk_proc(struct snapshot *s, DWORD flags)
{
	struct dirent *de;
	DIR *d = opendir("/proc");

	if (!d)
		return false;
	while ((de = readdir(d))) {
		unsigned long pid;

		if (!is_number(de->d_name))
			continue;
		pid = strtoul(de->d_name, NULL, 10);
		if (flags & TH32CS_SNAPPROCESS) {
			PROCESSENTRY32W *p;

			if (!grow((void **)&s->procs, s->nr_procs, sizeof(*p)))
				goto oom;
			p = &s->procs[s->nr_procs++];
			memset(p, 0, sizeof(*p));
			p->dwSize = sizeof(*p);
			p->th32ProcessID = (DWORD)pid;
			p->pcPriClassBase = 8; /* NORMAL_PRIORITY_CLASS */
			read_status(pid, &p->th32ParentProcessID, &p->cntThreads);
			process_name(pid, p->szExeFile, MAX_PATH);
		}
		if ((flags & TH32CS_SNAPTHREAD) && !add_threads(s, pid))
			goto oom;
	}
	closedir(d);
	return true;
oom:
	closedir(d);
	return false;
}

static bool walk_modules(struct snapshot *s)
{
	HMODULE mods[1024];
	DWORD n = loader_enum_modules(mods, 1024);

	if (n > 1024)
		n = 1024;
	s->mods = calloc(n ? n : 1, sizeof(*s->mods));
	if (!s->mods)
		return false;
	for (DWORD i = 0; i < n; i++) {
		MODULEENTRY32W *m = &s->mods[s->nr_mods];
		const char *name;
		void *base, *entry;
		DWORD size;
		WCHAR *w;

		if (!loader_module_info(mods[i], &base, &size, &entry, &name))
			continue;
		m->dwSize = sizeof(*m);
		m->th32ModuleID = 1;
		m->th32ProcessID = GetCurrentProcessId();
		m->GlblcntUsage = m->ProccntUsage = 0xffff; /* Windows reports this for loaded modules */
		m->modBaseAddr = base;
		m->modBaseSize = size;
		m->hModule = mods[i];
		w = utf8_to_utf16_dup(name);
		if (w && wstr_len(w) < MAX_MODULE_NAME32 + 1)
			memcpy(m->szModule, w, (wstr_len(w) + 1) * sizeof(WCHAR));
		free(w);
		GetModuleFileNameW(mods[i], m->szExePath, MAX_PATH);
		s->nr_mods++;
	}
	return true;
}

HANDLE WINAPI CreateToolhelp32Snapshot(DWORD flags, DWORD pid)
{
	struct snapshot *s;
	HANDLE h;

	TRACE(process, "flags 0x%lx, pid %lu\n", (unsigned long)flags, (unsigned long)pid);
	if ((flags & (TH32CS_SNAPMODULE | TH32CS_SNAPMODULE32)) && pid && pid != GetCurrentProcessId()) {
		SetLastError(ERROR_ACCESS_DENIED);
		return INVALID_HANDLE_VALUE;
	}
	s = calloc(1, sizeof(*s));
	if (!s) {
		SetLastError(ERROR_NOT_ENOUGH_MEMORY);
		return INVALID_HANDLE_VALUE;
	}
	object_init(&s->obj, &snapshot_ops);
	if (((flags & (TH32CS_SNAPPROCESS | TH32CS_SNAPTHREAD)) && !walk_proc(s, flags)) ||
	    ((flags & (TH32CS_SNAPMODULE | TH32CS_SNAPMODULE32)) && !walk_modules(s))) {
		object_unref(&s->obj);
		SetLastError(ERROR_NOT_ENOUGH_MEMORY);
		return INVALID_HANDLE_VALUE;
	}
	h = handle_create(&s->obj, 0, (flags & TH32CS_INHERIT) ? HANDLE_FLAG_INHERIT : 0);
	object_unref(&s->obj);
	return h ? h : INVALID_HANDLE_VALUE;
}

/* Entry pos of one of the snapshot's lists into out (dwSize checked),
 * advancing the walk.  size: the caller's structure size. */
static BOOL next_entry(HANDLE h, int list, bool first, void *out, DWORD want)
{
	struct snapshot *s = (struct snapshot *)handle_get(h, &snapshot_ops);
	unsigned int *pos, count;
	const void *item;
	size_t item_size;
	BOOL ret = TRUE;

	if (!s)
		return FALSE;
	s = container_of((struct object *)s, struct snapshot, obj);
	if (!out || *(const DWORD *)out < want) {
		object_unref(&s->obj);
		SetLastError(ERROR_BAD_LENGTH);
		return FALSE;
	}
	switch (list) {
	case 0: pos = &s->proc_pos; count = s->nr_procs; item = s->procs; item_size = sizeof(*s->procs); break;
	case 1: pos = &s->thread_pos; count = s->nr_threads; item = s->threads; item_size = sizeof(*s->threads); break;
	default: pos = &s->mod_pos; count = s->nr_mods; item = s->mods; item_size = sizeof(*s->mods); break;
	}
	if (first)
		*pos = 0;
	if (*pos >= count) {
		SetLastError(ERROR_NO_MORE_FILES);
		ret = FALSE;
	} else {
		memcpy(out, (const char *)item + item_size * (*pos)++, item_size);
	}
	object_unref(&s->obj);
	return ret;
}

BOOL WINAPI Process32FirstW(HANDLE h, LPPROCESSENTRY32W e) { return next_entry(h, 0, true, e, sizeof(*e)); }
BOOL WINAPI Process32NextW(HANDLE h, LPPROCESSENTRY32W e) { return next_entry(h, 0, false, e, sizeof(*e)); }
BOOL WINAPI Thread32First(HANDLE h, LPTHREADENTRY32 e) { return next_entry(h, 1, true, e, sizeof(*e)); }
BOOL WINAPI Thread32Next(HANDLE h, LPTHREADENTRY32 e) { return next_entry(h, 1, false, e, sizeof(*e)); }
BOOL WINAPI Module32FirstW(HANDLE h, LPMODULEENTRY32W e) { return next_entry(h, 2, true, e, sizeof(*e)); }
BOOL WINAPI Module32NextW(HANDLE h, LPMODULEENTRY32W e) { return next_entry(h, 2, false, e, sizeof(*e)); }

/* The A forms: the W entry with its names in the ANSI code page. */
static BOOL process_a(HANDLE h, LPPROCESSENTRY32 e, bool first)
{
	PROCESSENTRY32W w;

	if (!e || e->dwSize < sizeof(*e)) {
		SetLastError(ERROR_BAD_LENGTH);
		return FALSE;
	}
	w.dwSize = sizeof(w);
	if (!next_entry(h, 0, first, &w, sizeof(w)))
		return FALSE;
	memcpy(e, &w, offsetof(PROCESSENTRY32, szExeFile));
	e->dwSize = sizeof(*e);
	if (utf16_to_cp(cp_ansi(), 0, w.szExeFile, wstr_len(w.szExeFile) + 1, e->szExeFile, MAX_PATH, '?', NULL) < 0)
		e->szExeFile[0] = 0;
	return TRUE;
}

static BOOL module_a(HANDLE h, LPMODULEENTRY32 e, bool first)
{
	MODULEENTRY32W w;

	if (!e || e->dwSize < sizeof(*e)) {
		SetLastError(ERROR_BAD_LENGTH);
		return FALSE;
	}
	w.dwSize = sizeof(w);
	if (!next_entry(h, 2, first, &w, sizeof(w)))
		return FALSE;
	memcpy(e, &w, offsetof(MODULEENTRY32, szModule));
	e->dwSize = sizeof(*e);
	if (utf16_to_cp(cp_ansi(), 0, w.szModule, wstr_len(w.szModule) + 1, e->szModule, MAX_MODULE_NAME32 + 1, '?',
			NULL) < 0)
		e->szModule[0] = 0;
	if (utf16_to_cp(cp_ansi(), 0, w.szExePath, wstr_len(w.szExePath) + 1, e->szExePath, MAX_PATH, '?', NULL) < 0)
		e->szExePath[0] = 0;
	return TRUE;
}

BOOL WINAPI Process32First(HANDLE h, LPPROCESSENTRY32 e) { return process_a(h, e, true); }
BOOL WINAPI Process32Next(HANDLE h, LPPROCESSENTRY32 e) { return process_a(h, e, false); }
BOOL WINAPI Module32First(HANDLE h, LPMODULEENTRY32 e) { return module_a(h, e, true); }
BOOL WINAPI Module32Next(HANDLE h, LPMODULEENTRY32 e) { return module_a(h, e, false); }
