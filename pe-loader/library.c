/* The loader's side of LoadLibrary, GetModuleHandle, GetProcAddress and
 * friends: name handling, reference counts, last-error codes. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/debug.h"
#include "core/codepage.h"
#include "core/wstr.h"
#include "apiset.h"
#include "loader.h"
#include "module.h"

#define LOAD_FLAGS_UNSUPPORTED (DONT_RESOLVE_DLL_REFERENCES | LOAD_LIBRARY_AS_DATAFILE | \
				LOAD_LIBRARY_AS_IMAGE_RESOURCE | LOAD_LIBRARY_AS_DATAFILE_EXCLUSIVE)

HMODULE loader_load_library(const WCHAR *name, DWORD flags)
{
	struct load_error err = { "", 0 };
	struct module *m;
	char *a;

	if (flags & LOAD_FLAGS_UNSUPPORTED) {
		TRACE(loader, "%s: flags 0x%lx (data-file/no-resolve loads) not supported\n",
		      debugstr_w(name), (unsigned long)flags);
		SetLastError(ERROR_NOT_SUPPORTED);
		return NULL;
	}
	a = utf16_to_utf8_dup(name);
	if (!a) {
		SetLastError(ERROR_NOT_ENOUGH_MEMORY);
		return NULL;
	}
	loader_lock();
	m = module_load(a, NULL, &err);
	if (m && !module_attach_pending(false, &err)) {
		module_release(m);
		m = NULL;
	}
	loader_unlock();
	TRACE(loader, "%s -> %p%s%s\n", a, m ? (void *)m->base : NULL, m ? "" : ": ", m ? "" : err.msg);
	free(a);
	if (!m) {
		SetLastError(err.code ? err.code : ERROR_MOD_NOT_FOUND);
		return NULL;
	}
	return (HMODULE)m->base;
}

BOOL loader_free_library(HMODULE module)
{
	struct module *m;

	loader_lock();
	m = module_from_base(module);
	if (m)
		module_release(m);
	loader_unlock();
	if (!m)
		SetLastError(ERROR_MOD_NOT_FOUND);
	return m != NULL;
}

/* A module by name ("kernel32", "KERNEL32.DLL", a path); builtins count as
 * always loaded, like the system DLLs of a Windows process.  Loader lock held. */
static struct module *find_named(const WCHAR *name)
{
	struct load_error err;
	struct module *m = NULL;
	char *a = utf16_to_utf8_dup(name), *base, *full;

	if (!a)
		return NULL;
	base = a;
	for (char *c = a; *c; c++)
		if (*c == '\\' || *c == '/')
			base = c + 1;
	if (base == a && apiset_is_name(base)) {
		/* An API set's host is a builtin, always loaded; the reference
		 * is the process's, as for builtins below. */
		m = apiset_resolve(base) ? module_load(base, NULL, &err) : NULL;
		free(a);
		return m;
	}
	full = dll_file_name(base);
	if (!full) {
		free(a);
		return NULL;
	}
	base = full;
	m = module_find_by_name(base);
	if (!m && builtin_find(base)) {
		m = module_load(base, NULL, &err);
		/* Builtins are never unloaded; the reference is the process's. */
	}
	free(full);
	free(a);
	return m;
}

HMODULE loader_get_module_handle(const WCHAR *name)
{
	struct module *m;

	loader_lock();
	m = name ? find_named(name) : module_exe();
	loader_unlock();
	if (!m) {
		SetLastError(ERROR_MOD_NOT_FOUND);
		return NULL;
	}
	return (HMODULE)m->base;
}

HMODULE loader_get_module_handle_ex(DWORD flags, const WCHAR *name)
{
	struct module *m;

	loader_lock();
	if (flags & GET_MODULE_HANDLE_EX_FLAG_FROM_ADDRESS)
		m = module_from_address(name);
	else
		m = name ? find_named(name) : module_exe();
	if (m && !(flags & GET_MODULE_HANDLE_EX_FLAG_UNCHANGED_REFCOUNT)) {
		/* Pinned modules keep one reference nobody can drop. */
		m->refcount += (flags & GET_MODULE_HANDLE_EX_FLAG_PIN) ? 1 << 20 : 1;
	}
	loader_unlock();
	if (!m) {
		SetLastError(ERROR_MOD_NOT_FOUND);
		return NULL;
	}
	return (HMODULE)m->base;
}

/* The last GetProcAddress look-ups that found nothing.  A program that
 * calls what it got back faults at a low address; the crash report then
 * names these (loader_note_failed_lookups). */
#define FAILED_LOOKUPS 4
static struct {
	char dll[48];
	char func[96];
} failed[FAILED_LOOKUPS];
static unsigned int failed_count;

/* Caller holds the loader lock. */
static void remember_failed_lookup(const struct module *m, const char *name)
{
	unsigned int slot = failed_count % FAILED_LOOKUPS;
	uintptr_t ord = (uintptr_t)name;
	const char *dll = m ? m->name : "(no such module)";
	size_t len = strlen(dll);

	/* "ntdll", as a program names it. */
	if (len > 4 && !strcasecmp(dll + len - 4, ".dll"))
		len -= 4;
	snprintf(failed[slot].dll, sizeof(failed[slot].dll), "%.*s", (int)len, dll);
	if (ord >> 16)
		snprintf(failed[slot].func, sizeof(failed[slot].func), "%s", name);
	else
		snprintf(failed[slot].func, sizeof(failed[slot].func), "#%u", (unsigned int)ord);
	failed_count++;
	TRACE(module, "GetProcAddress(%s, %s) returns NULL\n", failed[slot].dll, failed[slot].func);
}

void loader_note_failed_lookups(void)
{
	/* Read without the lock: the faulting thread may hold it. */
	unsigned int n = failed_count;

	for (unsigned int i = 0; i < 3 && i < n && i < FAILED_LOOKUPS; i++) {
		unsigned int slot = (n - 1 - i) % FAILED_LOOKUPS;

		fprintf(stderr, "ndrun: note: GetProcAddress(%s, %s) returned NULL %s\n", failed[slot].dll,
			failed[slot].func, i ? "before that" : "just before");
	}
}

void *loader_get_proc_address(HMODULE module, const char *name)
{
	struct load_error err = { "", 0 };
	struct module *m;
	void *addr = NULL;
	uintptr_t ord = (uintptr_t)name;

	loader_lock();
	m = module ? module_from_base(module) : module_exe();
	if (m) {
		if (ord >> 16)
			addr = module_find_export(m, name, 0, &err);
		else
			addr = module_find_export(m, NULL, (unsigned int)ord, &err);
	}
	if (!addr)
		remember_failed_lookup(m, name);
	loader_unlock();
	if (!m) {
		SetLastError(ERROR_MOD_NOT_FOUND);
		return NULL;
	}
	if (!addr) {
		TRACE(loader, "%s\n", err.msg);
		SetLastError(ERROR_PROC_NOT_FOUND);
	}
	return addr;
}

DWORD loader_get_module_file_name(HMODULE module, WCHAR *buf, DWORD size)
{
	struct module *m;
	size_t len;

	loader_lock();
	m = module ? module_from_base(module) : module_exe();
	if (!m || !m->dos_path) {
		loader_unlock();
		SetLastError(ERROR_MOD_NOT_FOUND);
		return 0;
	}
	len = wstr_len(m->dos_path);
	if (len >= size) {
		if (size) {
			memcpy(buf, m->dos_path, (size - 1) * sizeof(WCHAR));
			buf[size - 1] = 0;
		}
		loader_unlock();
		SetLastError(ERROR_INSUFFICIENT_BUFFER);
		return size;
	}
	memcpy(buf, m->dos_path, (len + 1) * sizeof(WCHAR));
	loader_unlock();
	return (DWORD)len;
}

BOOL loader_disable_thread_calls(HMODULE module)
{
	struct module *m;

	loader_lock();
	m = module_from_base(module);
	if (m)
		m->no_thread_calls = true;
	loader_unlock();
	if (!m)
		SetLastError(ERROR_INVALID_HANDLE);
	return m != NULL;
}

DWORD loader_enum_modules(HMODULE *out, DWORD max)
{
	DWORD n;

	loader_lock();
	n = module_list_bases(out, max);
	loader_unlock();
	return n;
}

BOOL loader_module_info(HMODULE module, void **base, DWORD *size, void **entry, const char **name)
{
	struct module *m;

	loader_lock();
	m = module ? module_from_base(module) : module_exe();
	if (m) {
		*base = m->base;
		*size = m->size;
		*entry = m->img.entry_rva ? m->base + m->img.entry_rva : NULL;
		*name = m->name;
	}
	loader_unlock();
	if (!m)
		SetLastError(ERROR_INVALID_HANDLE);
	return m != NULL;
}
