/* Finding, mapping, binding and releasing modules. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "apiset.h"
#include "core/debug.h"
#include "core/path.h"
#include "core/virtual.h"
#include "core/codepage.h"
#include "core/wstr.h"
#include "loader.h"
#include "module.h"
#include "pe_dirs.h"
#include "pe_map.h"
#include "ntdll/seh.h"
#include "relay.h"
#include "thunks.h"
#include "tls.h"

static pthread_mutex_t loader_mutex;
static pthread_once_t loader_mutex_once = PTHREAD_ONCE_INIT;
static struct list modules = LIST_INIT(modules);
static struct list init_order = LIST_INIT(init_order);
static char *exe_dir;

static void init_mutex(void)
{
	pthread_mutexattr_t attr;

	pthread_mutexattr_init(&attr);
	pthread_mutexattr_settype(&attr, PTHREAD_MUTEX_RECURSIVE);
	pthread_mutex_init(&loader_mutex, &attr);
	pthread_mutexattr_destroy(&attr);
}

void loader_lock(void)
{
	pthread_once(&loader_mutex_once, init_mutex);
	pthread_mutex_lock(&loader_mutex);
}

void loader_unlock(void)
{
	pthread_mutex_unlock(&loader_mutex);
}

static void set_error(struct load_error *err, DWORD code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void set_error(struct load_error *err, DWORD code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	va_end(ap);
	err->code = code;
}

static bool has_path(const char *name)
{
	return strchr(name, '/') || strchr(name, '\\') || (name[0] && name[1] == ':');
}

/* A DLL name or path as a Linux name, by the one path policy
 * (core/path.h); a bare name stays as it is.  NULL with *code set. */
static char *dll_name_to_unix(const char *name, DWORD *code)
{
	WCHAR *w;
	char *u;

	if (!has_path(name)) {
		/* a bare name is looked for along the search path */
		if (!(u = strdup(name)))
			*code = ERROR_NOT_ENOUGH_MEMORY;
		return u;
	}
	w = utf8_to_utf16_dup(name);

	if (!w) {
		*code = ERROR_NOT_ENOUGH_MEMORY;
		return NULL;
	}
	u = path_to_unix(w, code);
	free(w);
	return u;
}

static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');
	return s ? s + 1 : path;
}

char *dll_file_name(const char *name)
{
	const char *dot = strrchr(base_name(name), '.');
	char *f;

	if (!dot)
		return asprintf(&f, "%s.dll", name) < 0 ? NULL : f;
	f = strdup(name);
	if (f && !dot[1])
		f[strlen(f) - 1] = 0;
	return f;
}

/* dir/name, matching name case-insensitively as Windows file systems do.
 * Returns a malloc'ed path of a regular file, or NULL. */
static char *find_in_dir(const char *dir, const char *name)
{
	struct stat st;
	char *path = NULL;
	DIR *d;
	struct dirent *de;

	if (asprintf(&path, "%s/%s", dir, name) < 0)
		return NULL;
	if (!stat(path, &st) && S_ISREG(st.st_mode))
		return path;
	free(path);
	path = NULL;
	d = opendir(dir);
	if (!d)
		return NULL;
	while ((de = readdir(d))) {
		if (strcasecmp(de->d_name, name))
			continue;
		if (asprintf(&path, "%s/%s", dir, de->d_name) < 0) {
			path = NULL;
			break;
		}
		if (!stat(path, &st) && S_ISREG(st.st_mode))
			break;
		free(path);
		path = NULL;
	}
	closedir(d);
	return path;
}

/* NDSHIM_DLL_PATH's folders that do not exist, said once: a typo there
 * would otherwise only show as "X.dll not found". */
static void check_dll_path(const char *env)
{
	static bool checked;
	char *copy, *save, *dir;
	struct stat st;

	if (checked || !(copy = strdup(env)))
		return;
	checked = true;
	for (dir = strtok_r(copy, ":", &save); dir; dir = strtok_r(NULL, ":", &save))
		if (stat(dir, &st))
			ndrun_error("NDSHIM_DLL_PATH: %s: %s", dir, strerror(errno));
		else if (!S_ISDIR(st.st_mode))
			ndrun_error("NDSHIM_DLL_PATH: %s: not a folder", dir);
	free(copy);
}

/* Search order: the program's folder (when program_folder), then
 * NDSHIM_DLL_PATH (':'-separated). */
static char *search_dll(const char *name, bool program_folder)
{
	const char *env = getenv("NDSHIM_DLL_PATH");
	char *found = NULL;

	if (program_folder && exe_dir && (found = find_in_dir(exe_dir, name)))
		return found;
	if (env && *env) {
		char *copy = strdup(env), *save, *dir;

		check_dll_path(env);
		for (dir = copy ? strtok_r(copy, ":", &save) : NULL; dir && !found; dir = strtok_r(NULL, ":", &save))
			found = find_in_dir(dir, name);
		free(copy);
	}
	return found;
}

/* ---- native or builtin ------------------------------------------------------ */

static const char *const known_dlls[] = {
#define KNOWNDLL(name) name,
#include "knowndlls.list"
#undef KNOWNDLL
};

static int cmp_known(const void *key, const void *elem)
{
	return strcasecmp(key, *(const char *const *)elem);
}

bool module_is_known_dll(const char *file_name)
{
	return bsearch(file_name, known_dlls, sizeof(known_dlls) / sizeof(known_dlls[0]), sizeof(known_dlls[0]),
		       cmp_known) != NULL;
}

/* The order NDSHIM_DLL_OVERRIDES gives file_name ("x.dll"), as
 * WINEDLLOVERRIDES: "name[,name...]=mode;..." with mode n (native only),
 * b (builtin only), n,b or b,n; names with or without ".dll", any case.
 * DLL_ORDER_DEFAULT when it names no such DLL.  A malformed entry is
 * said once and ignored. */
enum dll_order module_dll_override(const char *file_name)
{
	static bool warned;
	const char *env = getenv("NDSHIM_DLL_OVERRIDES");
	enum dll_order order = DLL_ORDER_DEFAULT;
	char *copy, *save, *entry;

	if (!env || !*env || !(copy = strdup(env)))
		return DLL_ORDER_DEFAULT;
	for (entry = strtok_r(copy, ";", &save); entry; entry = strtok_r(NULL, ";", &save)) {
		char *eq = strchr(entry, '='), *names, *nsave, *name;
		enum dll_order mode;

		if (eq)
			*eq = 0;
		if (!eq || !*entry)
			mode = DLL_ORDER_DEFAULT;
		else if (!strcmp(eq + 1, "n"))
			mode = DLL_ORDER_NATIVE;
		else if (!strcmp(eq + 1, "b"))
			mode = DLL_ORDER_BUILTIN;
		else if (!strcmp(eq + 1, "n,b"))
			mode = DLL_ORDER_NATIVE_BUILTIN;
		else if (!strcmp(eq + 1, "b,n"))
			mode = DLL_ORDER_BUILTIN_NATIVE;
		else
			mode = DLL_ORDER_DEFAULT;
		if (mode == DLL_ORDER_DEFAULT) {
			if (!warned)
				ndrun_error("NDSHIM_DLL_OVERRIDES: '%s%s%s' is not NAME=n, b, n,b or b,n (ignored)",
					    entry, eq ? "=" : "", eq ? eq + 1 : "");
			warned = true;
			continue;
		}
		for (names = entry; (name = strtok_r(names, ",", &nsave)); names = NULL) {
			char *f = dll_file_name(name);

			if (f && !strcasecmp(f, file_name))
				order = mode; /* the last entry naming it wins */
			free(f);
		}
	}
	free(copy);
	return order;
}

struct module *module_find_by_name(const char *name)
{
	struct list *cur;

	LIST_FOR_EACH(cur, &modules) {
		struct module *m = LIST_ENTRY(cur, struct module, entry);
		if (!strcasecmp(m->name, name))
			return m;
	}
	return NULL;
}

struct module *module_from_base(const void *base)
{
	struct list *cur;

	LIST_FOR_EACH(cur, &modules) {
		struct module *m = LIST_ENTRY(cur, struct module, entry);
		if (m->base == base)
			return m;
	}
	return NULL;
}

struct module *module_from_address(const void *addr)
{
	struct list *cur;

	LIST_FOR_EACH(cur, &modules) {
		struct module *m = LIST_ENTRY(cur, struct module, entry);
		if ((const uint8_t *)addr >= m->base && (const uint8_t *)addr < m->base + m->size)
			return m;
	}
	return NULL;
}

unsigned int module_list_bases(HMODULE *out, unsigned int max)
{
	struct module *exe = module_exe();
	unsigned int n = 0;
	struct list *cur;

	if (exe && n++ < max)
		out[0] = (HMODULE)exe->base;
	LIST_FOR_EACH(cur, &modules) {
		struct module *m = LIST_ENTRY(cur, struct module, entry);

		if (m->is_exe)
			continue;
		if (n < max)
			out[n] = (HMODULE)m->base;
		n++;
	}
	return n;
}

struct module *module_exe(void)
{
	struct list *cur;

	LIST_FOR_EACH(cur, &modules) {
		struct module *m = LIST_ENTRY(cur, struct module, entry);
		if (m->is_exe)
			return m;
	}
	return NULL;
}

/* A builtin DLL gets a small read-only image holding just an MZ and a PE
 * header, so its HMODULE points at something that looks like a module to
 * code that peeks at headers. */
static struct module *load_builtin(const struct builtin_dll *b, struct load_error *err)
{
	struct module *m = calloc(1, sizeof(*m));
	uint8_t *page = mmap(NULL, 0x10000, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	IMAGE_DOS_HEADER *dos;
	IMAGE_NT_HEADERS64 *nt;
	char *path;

	if (!m || page == MAP_FAILED) {
		free(m);
		if (page != MAP_FAILED)
			munmap(page, 0x10000);
		set_error(err, ERROR_NOT_ENOUGH_MEMORY, "out of memory loading %s", b->name);
		return NULL;
	}
	dos = (IMAGE_DOS_HEADER *)page;
	dos->e_magic = IMAGE_DOS_SIGNATURE;
	dos->e_lfanew = 0x40;
	nt = (IMAGE_NT_HEADERS64 *)(page + 0x40);
	nt->Signature = IMAGE_NT_SIGNATURE;
	nt->FileHeader.Machine = IMAGE_FILE_MACHINE_AMD64;
	nt->FileHeader.SizeOfOptionalHeader = sizeof(IMAGE_OPTIONAL_HEADER64);
	nt->FileHeader.Characteristics = IMAGE_FILE_EXECUTABLE_IMAGE | IMAGE_FILE_LARGE_ADDRESS_AWARE | IMAGE_FILE_DLL;
	nt->OptionalHeader.Magic = IMAGE_NT_OPTIONAL_HDR64_MAGIC;
	nt->OptionalHeader.ImageBase = (uintptr_t)page;
	nt->OptionalHeader.SectionAlignment = 0x1000;
	nt->OptionalHeader.FileAlignment = 0x200;
	nt->OptionalHeader.SizeOfImage = 0x1000;
	nt->OptionalHeader.SizeOfHeaders = 0x1000;
	nt->OptionalHeader.Subsystem = IMAGE_SUBSYSTEM_WINDOWS_CUI;
	nt->OptionalHeader.NumberOfRvaAndSizes = IMAGE_NUMBEROF_DIRECTORY_ENTRIES;
	mprotect(page, 0x10000, PROT_READ);

	m->name = strdup(b->name);
	m->base = page;
	m->size = 0x1000;
	m->builtin = b;
	m->refcount = 1;
	m->tls_index = -1;
	m->attached = true; /* builtins have no DllMain */
	if (asprintf(&path, "C:\\windows\\system32\\%s", b->name) >= 0) {
		m->dos_path = utf8_to_utf16_dup(path);
		free(path);
	}
	list_add_tail(&modules, &m->entry);
	list_add_tail(&init_order, &m->init_entry);
	m->in_init_list = true;
	TRACE(loader, "builtin %s at %p\n", b->name, (void *)page);
	return m;
}

static void free_module(struct module *m)
{
	list_remove(&m->entry);
	if (m->in_init_list)
		list_remove(&m->init_entry);
	if (m->base) {
		if (m->builtin)
			munmap(m->base, 0x10000);
		else {
			seh_unregister_image(m->base);
			virtual_unregister_image(m->base);
			pe_unmap_image(m->base, m->size);
		}
	}
	free(m->deps);
	free(m->name);
	free(m->path);
	free(m->dos_path);
	free(m);
}

/* Releasing a module that is being torn down because its load failed:
 * no DllMain ran, so none is called. */
static void release_unattached(struct module *m);

static bool add_dep(struct module *m, struct module *dep)
{
	struct module **d = realloc(m->deps, (m->nr_deps + 1) * sizeof(*d));

	if (!d)
		return false;
	d[m->nr_deps++] = dep;
	m->deps = d;
	return true;
}

static bool has_dep(const struct module *m, const struct module *dep)
{
	for (unsigned int i = 0; i < m->nr_deps; i++)
		if (m->deps[i] == dep)
			return true;
	return false;
}

static void *find_pe_export(struct module *m, const char *name, unsigned int ordinal, unsigned int depth,
			    struct load_error *err);

/* "OTHER.func" or "OTHER.#12": load OTHER(.dll) and look the name up there. */
/* A builtin's export as PE code gets it: the function itself, or its
 * +relay thunk when that channel is on (decided here, once per binding). */
static void *builtin_export(struct module *m, const char *name, unsigned int ordinal)
{
	const void *addr = name ? builtin_lookup_name(m->builtin, name) : builtin_lookup_ordinal(m->builtin, ordinal);

	if (addr && !name) {
		for (unsigned int i = 0; i < m->builtin->count; i++)
			if (m->builtin->exports[i].ordinal == ordinal)
				name = m->builtin->exports[i].name;
	}
	return (void *)relay_wrap(m->builtin->name, name, ordinal, addr);
}

static void *resolve_forwarder(struct module *from, const char *fwd, unsigned int depth, struct load_error *err)
{
	const char *dot = strrchr(fwd, '.');
	char dll[256];
	struct module *target;
	void *addr;

	if (!dot || dot == fwd || (size_t)(dot - fwd) >= sizeof(dll) - 5 || depth > 16) {
		set_error(err, ERROR_PROC_NOT_FOUND, "%s: bad export forwarder '%s'", from->name, fwd);
		return NULL;
	}
	snprintf(dll, sizeof(dll), "%.*s.dll", (int)(dot - fwd), fwd);
	target = module_load(dll, from->name, err);
	if (!target)
		return NULL;
	/* The forwarding module keeps the target loaded, with one reference
	 * however often its forwarders are looked up (and none on itself,
	 * which would pin it for good). */
	if (target == from || has_dep(from, target)) {
		module_release(target);
	} else if (!add_dep(from, target)) {
		module_release(target);
		set_error(err, ERROR_NOT_ENOUGH_MEMORY, "out of memory");
		return NULL;
	}
	if (dot[1] == '#')
		addr = target->builtin ? builtin_export(target, NULL, (unsigned)atoi(dot + 2))
				       : find_pe_export(target, NULL, (unsigned)atoi(dot + 2), depth + 1, err);
	else
		addr = target->builtin ? builtin_export(target, dot + 1, 0)
				       : find_pe_export(target, dot + 1, 0, depth + 1, err);
	if (!addr && target->builtin)
		set_error(err, ERROR_PROC_NOT_FOUND, "%s has no export %s (forwarded from %s)", target->name, dot + 1,
			  from->name);
	return addr;
}

static void *find_pe_export(struct module *m, const char *name, unsigned int ordinal, unsigned int depth,
			    struct load_error *err)
{
	const IMAGE_DATA_DIRECTORY *dir = pe_directory(&m->img, IMAGE_DIRECTORY_ENTRY_EXPORT);
	const char *fwd = NULL;
	uint32_t rva = 0;

	switch (pe_find_export(m->base, m->size, dir, name, ordinal, &rva, &fwd)) {
	case PE_EXPORT_FOUND:
		return m->base + rva;
	case PE_EXPORT_FORWARDER:
		TRACE(imports, "%s.%s forwarded to %s\n", m->name, name ? name : "#", fwd);
		return resolve_forwarder(m, fwd, depth, err);
	case PE_EXPORT_CORRUPT:
		set_error(err, ERROR_BAD_EXE_FORMAT, "%s: corrupt export directory", m->name);
		return NULL;
	case PE_EXPORT_OUTSIDE:
		set_error(err, ERROR_BAD_EXE_FORMAT, "%s: export outside the image", m->name);
		return NULL;
	case PE_EXPORT_BAD_FORWARDER:
		set_error(err, ERROR_BAD_EXE_FORMAT, "%s: corrupt export forwarder", m->name);
		return NULL;
	case PE_EXPORT_MISSING:
		break;
	}
	if (name)
		set_error(err, ERROR_PROC_NOT_FOUND, "%s has no export named %s", m->name, name);
	else
		set_error(err, ERROR_PROC_NOT_FOUND, "%s has no export with ordinal %u", m->name, ordinal);
	return NULL;
}

void *module_find_export(struct module *m, const char *name, unsigned int ordinal, struct load_error *err)
{
	void *addr;

	if (m->builtin) {
		addr = builtin_export(m, name, ordinal);
		if (!addr)
			set_error(err, ERROR_PROC_NOT_FOUND, "%s has no export %s", m->name, name ? name : "(ordinal)");
		return addr;
	}
	return find_pe_export(m, name, ordinal, 0, err);
}

/* Bind one import descriptor's thunks against dep. */
static bool bind_thunks(struct module *m, const pe_import_desc *desc, const char *dllname,
			struct module *dep, struct load_error *err)
{
	for (uint32_t i = 0;; i++) {
		const char *fname;
		unsigned int ord;
		uint32_t iat;
		void *addr;
		char ordname[16];

		switch (pe_import_thunk(m->base, m->size, desc, i, &iat, &fname, &ord)) {
		case PE_WALK_ENTRY:
			break;
		case PE_WALK_END:
			return true;
		case PE_WALK_MISALIGNED:
			set_error(err, ERROR_BAD_EXE_FORMAT, "%s: import table of %s is misaligned", m->name, dllname);
			return false;
		case PE_WALK_OUTSIDE:
			set_error(err, ERROR_BAD_EXE_FORMAT, "%s: import table of %s runs outside the image", m->name, dllname);
			return false;
		case PE_WALK_BAD_NAME:
			set_error(err, ERROR_BAD_EXE_FORMAT, "%s: corrupt import name for %s", m->name, dllname);
			return false;
		}
		addr = module_find_export(dep, fname, ord, err);
		if (!addr) {
			if (!dep->builtin)
				return false; /* a PE DLL really lacks it: Windows refuses too */
			snprintf(ordname, sizeof(ordname), "#%u", ord);
			addr = thunk_create(dllname, fname ? fname : ordname);
			if (!addr) {
				set_error(err, ERROR_NOT_ENOUGH_MEMORY, "out of memory");
				return false;
			}
		}
		TRACE(imports, "%s: %s.%s -> %p\n", m->name, dllname, fname ? fname : "(ordinal)", addr);
		*(uint64_t *)(m->base + iat) = (uintptr_t)addr;
	}
}

static bool bind_imports(struct module *m, struct load_error *err)
{
	const IMAGE_DATA_DIRECTORY *dir = pe_directory(&m->img, IMAGE_DIRECTORY_ENTRY_IMPORT);

	if (!dir)
		return true;
	for (uint32_t i = 0;; i++) {
		const pe_import_desc *desc;
		const char *dllname;
		struct module *dep;

		switch (pe_import_descriptor(m->base, m->size, dir, i, &desc, &dllname)) {
		case PE_WALK_ENTRY:
			break;
		case PE_WALK_END:
			return true;
		case PE_WALK_OUTSIDE:
		case PE_WALK_MISALIGNED:
			set_error(err, ERROR_BAD_EXE_FORMAT, "%s: import directory is not terminated", m->name);
			return false;
		case PE_WALK_BAD_NAME:
			set_error(err, ERROR_BAD_EXE_FORMAT, "%s: corrupt import directory (bad DLL name)", m->name);
			return false;
		}
		dep = module_load(dllname, m->name, err);
		if (!dep)
			return false;
		if (!add_dep(m, dep)) {
			module_release(dep);
			set_error(err, ERROR_NOT_ENOUGH_MEMORY, "out of memory");
			return false;
		}
		if (!bind_thunks(m, desc, dllname, dep, err)) {
			if (err->code == ERROR_PROC_NOT_FOUND) {
				char detail[sizeof(err->msg)];
				snprintf(detail, sizeof(detail), "%s", err->msg);
				set_error(err, ERROR_PROC_NOT_FOUND, "%s (imported by %s)", detail, m->name);
			}
			return false;
		}
	}
}

/* Map a PE file and bind it.  The module is on the module list (so import
 * cycles find it) before its imports are loaded. */
static struct module *load_pe(const char *path, bool as_exe, struct load_error *err)
{
	char msg[300];
	struct stat st;
	struct module *m;
	void *file;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		set_error(err, errno == ENOENT ? ERROR_FILE_NOT_FOUND : ERROR_ACCESS_DENIED, "%s: %s", path, strerror(errno));
		return NULL;
	}
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		close(fd);
		set_error(err, ERROR_BAD_EXE_FORMAT, "%s: not a regular file", path);
		return NULL;
	}
	if (!st.st_size) {
		close(fd);
		set_error(err, ERROR_BAD_EXE_FORMAT, "%s: not a PE file (empty)", path);
		return NULL;
	}
	file = mmap(NULL, st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (file == MAP_FAILED) {
		set_error(err, ERROR_BAD_EXE_FORMAT, "%s: %s", path, strerror(errno));
		return NULL;
	}
	m = calloc(1, sizeof(*m));
	if (!m) {
		munmap(file, st.st_size);
		set_error(err, ERROR_NOT_ENOUGH_MEMORY, "out of memory");
		return NULL;
	}
	m->tls_index = -1;
	m->refcount = 1;
	m->is_exe = as_exe;
	list_init(&m->init_entry);
	if (pe_parse(file, st.st_size, &m->img, msg, sizeof(msg))) {
		set_error(err, ERROR_BAD_EXE_FORMAT, "%s: %s", path, msg);
		goto fail_file;
	}
	if (as_exe && m->img.is_dll) {
		set_error(err, ERROR_BAD_EXE_FORMAT, "%s: is a DLL, not a program", path);
		goto fail_file;
	}
	m->base = pe_map_image(&m->img, msg, sizeof(msg));
	munmap(file, st.st_size);
	if (!m->base) {
		set_error(err, ERROR_BAD_EXE_FORMAT, "%s: %s", path, msg);
		free(m);
		return NULL;
	}
	m->size = m->img.size_of_image;
	m->path = strdup(path);
	m->name = strdup(base_name(path));
	m->dos_path = path_from_unix(path);
	list_add_tail(&modules, &m->entry);
	TRACE(loader, "%s at %p-%p\n", path, (void *)m->base, (void *)(m->base + m->size));
	seh_register_image(m->base, m->size, m->name ? m->name : path);

	if (!m->path || !m->name || !m->dos_path) {
		set_error(err, ERROR_NOT_ENOUGH_MEMORY, "out of memory");
		goto fail;
	}
	if (!bind_imports(m, err))
		goto fail;
	if (tls_module_init(m, msg, sizeof(msg))) {
		set_error(err, ERROR_BAD_EXE_FORMAT, "%s: %s", path, msg);
		goto fail;
	}
	if (pe_protect_image(m->base, &m->img, msg, sizeof(msg))) {
		set_error(err, ERROR_BAD_EXE_FORMAT, "%s: %s", path, msg);
		goto fail;
	}
	thunk_seal();
	virtual_register_image(m->base, m->size);
	/* Dependencies joined the init order when their own binding finished,
	 * so this is a post-order: each module after everything it imports. */
	list_add_tail(&init_order, &m->init_entry);
	m->in_init_list = true;
	return m;

fail_file:
	munmap(file, st.st_size);
	free(m);
	return NULL;
fail:
	release_unattached(m);
	return NULL;
}

static void release_unattached(struct module *m)
{
	if (--m->refcount > 0)
		return;
	for (unsigned int i = 0; i < m->nr_deps; i++)
		module_release(m->deps[i]);
	tls_module_fini(m);
	free_module(m);
}

/* "NAME not found (imported by IMPORTER)". */
static void set_not_found(struct load_error *err, const char *name, const char *importer)
{
	set_error(err, ERROR_MOD_NOT_FOUND, "%s not found%s%s%s", name, importer ? " (imported by " : "",
		  importer ? importer : "", importer ? ")" : "");
}

/* The file name a DLL name stands for, by the path policy and Windows'
 * ".dll" rule.  NULL with *err set. */
static char *search_name(const char *name, const char *importer, struct load_error *err)
{
	char *unix_name, *fname;
	DWORD code;

	unix_name = dll_name_to_unix(name, &code);
	if (!unix_name) {
		if (code == ERROR_NOT_ENOUGH_MEMORY)
			set_error(err, code, "out of memory");
		else
			set_not_found(err, name, importer);
		return NULL;
	}
	fname = dll_file_name(unix_name);
	free(unix_name);
	if (!fname)
		set_error(err, ERROR_NOT_ENOUGH_MEMORY, "out of memory");
	return fname;
}

/* A bare DLL name ("x.dll"), native or builtin as Windows and the user
 * decide.  By default a DLL on Windows' KnownDLLs list that ndrun has
 * as a builtin is always the builtin (Windows never takes a known DLL
 * from the program's folder); a known DLL without a builtin is looked
 * for on NDSHIM_DLL_PATH alone (the stand-in for the system folder);
 * any other DLL is looked for in the program's folder, then
 * NDSHIM_DLL_PATH, then among the builtins.  NDSHIM_DLL_OVERRIDES
 * changes that per DLL (n: the file only, searched in both places; b:
 * the builtin only; n,b / b,n: both, in that order). */
static int locate_bare(const char *fname, const char *importer, struct dll_location *loc, struct load_error *err)
{
	const struct builtin_dll *b = builtin_find(fname);
	enum dll_order order = module_dll_override(fname);
	bool known = module_is_known_dll(fname), overridden = order != DLL_ORDER_DEFAULT;
	/* The program's folder, unless the DLL is a known one left as it is. */
	bool app_folder = overridden || !known;

	if (!overridden)
		order = known && b ? DLL_ORDER_BUILTIN : DLL_ORDER_NATIVE_BUILTIN;
	if (order == DLL_ORDER_NATIVE || order == DLL_ORDER_NATIVE_BUILTIN)
		loc->path = search_dll(fname, app_folder);
	if (!loc->path && order != DLL_ORDER_NATIVE)
		loc->builtin = b;
	if (!loc->path && !loc->builtin && order == DLL_ORDER_BUILTIN_NATIVE)
		loc->path = search_dll(fname, app_folder);
	if (!loc->path && !loc->builtin) {
		if (overridden)
			set_error(err, ERROR_MOD_NOT_FOUND, "%s not found%s%s%s (NDSHIM_DLL_OVERRIDES: %s only)", fname,
				  importer ? " (imported by " : "", importer ? importer : "", importer ? ")" : "",
				  order == DLL_ORDER_NATIVE ? "native" : "builtin");
		else
			set_not_found(err, fname, importer);
		dll_location_free(loc);
		return -1;
	}
	TRACE(loader, "%s -> %s (%s%s)\n", fname, loc->path ? loc->path : "builtin",
	      overridden ? "NDSHIM_DLL_OVERRIDES" : known ? "known DLL" : "search order",
	      known && !overridden && loc->path ? ", NDSHIM_DLL_PATH only" : "");
	return 0;
}

int module_locate(const char *name, const char *importer, struct dll_location *loc, struct load_error *err)
{
	char *fname;

	memset(loc, 0, sizeof(*loc));
	/* An API-set name binds to its host, always the builtin: on Windows
	 * the hosts are system DLLs, so a same-named DLL beside the program
	 * does not stand in for them. */
	if (!has_path(name) && apiset_is_name(name)) {
		const char *host = apiset_resolve(name);

		loc->builtin = host ? builtin_find(host) : NULL;
		if (!loc->builtin) {
			set_error(err, ERROR_MOD_NOT_FOUND, "%s not found: ndrun implements no API set of that name%s%s%s",
				  name, importer ? " (imported by " : "", importer ? importer : "", importer ? ")" : "");
			return -1;
		}
		TRACE(loader, "API set %s -> %s\n", name, loc->builtin->name);
		loc->apiset = true;
		loc->file_name = strdup(loc->builtin->name);
		if (!loc->file_name) {
			set_error(err, ERROR_NOT_ENOUGH_MEMORY, "out of memory");
			return -1;
		}
		return 0;
	}
	fname = search_name(name, importer, err);
	if (!fname)
		return -1;
	if (has_path(name)) {
		char real[PATH_MAX];

		loc->path = realpath(fname, real) ? strdup(real) : NULL;
		free(fname);
		if (!loc->path) {
			set_not_found(err, name, importer);
			return -1;
		}
		return 0;
	}
	loc->file_name = fname;
	return locate_bare(fname, importer, loc, err);
}

void dll_location_free(struct dll_location *loc)
{
	free(loc->path);
	free(loc->file_name);
	memset(loc, 0, sizeof(*loc));
}

/* An already loaded module that name (as given to module_load) names. */
static struct module *find_loaded(const char *name, const struct dll_location *loc)
{
	struct list *cur;
	struct module *m;

	if (!loc->file_name) {
		LIST_FOR_EACH(cur, &modules) {
			m = LIST_ENTRY(cur, struct module, entry);
			if (m->path && !strcmp(m->path, loc->path))
				return m;
		}
		return NULL;
	}
	m = module_find_by_name(loc->file_name);
	if (loc->apiset)
		return m && m->builtin == loc->builtin ? m : NULL;
	/* Already loaded under another file name case? */
	if (!m && loc->path)
		m = module_find_by_name(base_name(loc->path));
	return m;
}

struct module *module_load(const char *name, const char *importer, struct load_error *err)
{
	struct dll_location loc;
	struct module *m;

	/* A module loaded by file name stays the answer even if the search
	 * would now find another file (as on Windows). */
	if (!has_path(name) && !apiset_is_name(name)) {
		char *fname = search_name(name, importer, err);

		if (!fname)
			return NULL;
		m = module_find_by_name(fname);
		free(fname);
		if (m) {
			m->refcount++;
			return m;
		}
	}
	if (module_locate(name, importer, &loc, err))
		return NULL;
	m = find_loaded(name, &loc);
	if (m) {
		m->refcount++;
	} else if (loc.builtin) {
		m = load_builtin(loc.builtin, err);
	} else {
		m = load_pe(loc.path, false, err);
		if (m && !m->img.is_dll) {
			/* LoadLibrary of an .exe maps it but runs nothing. */
			m->attached = true;
		}
	}
	dll_location_free(&loc);
	return m;
}

void module_set_program(const char *exe_path)
{
	const char *env = getenv("NDSHIM_DLL_PATH");

	if (env && *env)
		check_dll_path(env);
	free(exe_dir);
	exe_dir = strdup(exe_path);
	if (exe_dir)
		*strrchr(exe_dir, '/') = 0;
	if (exe_dir && !*exe_dir)
		strcpy(exe_dir, "/");
}

struct module *module_load_exe(const char *path, struct load_error *err)
{
	char real[PATH_MAX];
	struct module *m;

	if (!realpath(path, real)) {
		set_error(err, ERROR_FILE_NOT_FOUND, "%s: %s", path, strerror(errno));
		return NULL;
	}
	module_set_program(real);
	m = load_pe(real, true, err);
	return m;
}

typedef BOOL(WINAPI *dll_entry_fn)(HINSTANCE, DWORD, void *);

/* TLS callbacks first, then DllMain, for every reason (as Windows does). */
static BOOL call_init(struct module *m, DWORD reason, void *reserved)
{
	BOOL ret = TRUE;

	tls_call_callbacks(m, reason);
	if (!m->is_exe && !m->builtin && m->img.entry_rva) {
		dll_entry_fn entry = (dll_entry_fn)(void *)(m->base + m->img.entry_rva);
		TRACE(loader, "%s: DllMain(%lu)\n", m->name, (unsigned long)reason);
		ret = entry((HINSTANCE)m->base, reason, reserved);
		TRACE(loader, "%s: DllMain(%lu) returned %d\n", m->name, (unsigned long)reason, ret);
	}
	return ret;
}

bool module_attach_pending(bool static_load, struct load_error *err)
{
	struct list *cur;

restart:
	LIST_FOR_EACH(cur, &init_order) {
		struct module *m = LIST_ENTRY(cur, struct module, init_entry);
		if (m->attached)
			continue;
		m->attached = true;
		if (!call_init(m, DLL_PROCESS_ATTACH, static_load ? (void *)1 : NULL)) {
			set_error(err, ERROR_DLL_INIT_FAILED, "%s: initialization failed (DllMain returned FALSE)", m->name);
			call_init(m, DLL_PROCESS_DETACH, NULL);
			return false;
		}
		/* A DllMain may have loaded more modules: the list changed. */
		goto restart;
	}
	return true;
}

void module_release(struct module *m)
{
	if (m->builtin || --m->refcount > 0)
		return;
	TRACE(loader, "unloading %s\n", m->name);
	if (m->attached && m->img.is_dll) {
		call_init(m, DLL_PROCESS_DETACH, NULL);
		m->attached = false;
	}
	for (unsigned int i = 0; i < m->nr_deps; i++)
		module_release(m->deps[i]);
	tls_module_fini(m);
	free_module(m);
}

void module_notify_threads(DWORD reason)
{
	struct list *cur;

	if (reason == DLL_THREAD_ATTACH) {
		LIST_FOR_EACH(cur, &init_order) {
			struct module *m = LIST_ENTRY(cur, struct module, init_entry);
			if (m->attached && !m->builtin && !m->no_thread_calls)
				call_init(m, reason, NULL);
		}
	} else {
		for (cur = init_order.prev; cur != &init_order; cur = cur->prev) {
			struct module *m = LIST_ENTRY(cur, struct module, init_entry);
			if (m->attached && !m->builtin && !m->no_thread_calls)
				call_init(m, reason, NULL);
		}
	}
}

void loader_stop_runtimes(void)
{
	for (unsigned int i = 0; i < builtin_dll_count; i++)
		if (builtin_dlls[i]->stop)
			builtin_dlls[i]->stop();
}

void module_process_detach(void)
{
	struct list *cur;

	/* Reverse init order; lpReserved non-NULL: the process is ending. */
	for (cur = init_order.prev; cur != &init_order; cur = cur->prev) {
		struct module *m = LIST_ENTRY(cur, struct module, init_entry);
		if (!m->attached || m->builtin)
			continue;
		m->attached = false;
		call_init(m, DLL_PROCESS_DETACH, (void *)1);
	}
	for (unsigned int i = 0; i < builtin_dll_count; i++)
		if (builtin_dlls[i]->process_detach)
			builtin_dlls[i]->process_detach();
}
