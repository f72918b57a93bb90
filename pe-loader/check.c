/* ndrun --check: walk a program's import graph the way loading it would
 * (module_locate is the one search policy) without mapping or running
 * anything, and list what ndrun lacks.
 *
 * Images are laid out in anonymous memory (pe_copy_image, no base
 * needed, nothing executable) and walked with pe_dirs.c, the loader's own
 * walkers: what --check accepts, a load accepts.  Imports, delay-load imports and export forwarders are
 * followed; every DLL is read once. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "exit_codes.h"
#include "module.h"
#include "pe_dirs.h"
#include "pe_image.h"

/* Forwarder chains longer than this are treated as loops (the loader's
 * own limit). */
#define MAX_FORWARD_DEPTH 16

struct ck_dll {
	struct ck_dll *next;
	char *name;                        /* as the first importer spelled it */
	char *path;                        /* PE file, or NULL */
	const struct builtin_dll *builtin; /* or the builtin */
	char *importer;                    /* who first imported it */
	struct pe_image img;               /* PE: the file, parsed */
	void *map;
	size_t map_size;
	bool bad;                          /* PE that could not be read */
};

/* One missing import.  dll is the DLL that lacks it (for forwarders, the
 * end of the chain), or a DLL that was not found. */
struct ck_missing {
	char *dll;
	char *func;       /* name, or "#ordinal" */
	char *importer;
	char *via;        /* forwarded from, or NULL */
	bool delay;       /* only reachable through delay-load imports */
	bool dll_missing; /* the DLL itself is absent */
	bool fatal;       /* the program (or a DLL it loads) will not load */
};

struct ck_state {
	struct ck_dll *dlls;
	struct ck_missing *missing;
	unsigned int nr_missing, cap_missing;
	unsigned int nr_errors; /* unreadable images */
	bool oom;
	/* Checking exports nobody imported yet: a gap there stops no load. */
	bool exports_only;
	/* Why the program will not load: the first unreadable image (a
	 * load stops at the first), printed as the last line. */
	char reason[600];
	/* Why the last DLL name led nowhere, in module_locate's words. */
	char not_found[sizeof(((struct load_error *)0)->msg)];
};

static void oom(struct ck_state *st)
{
	if (!st->oom)
		fprintf(stderr, "ndrun: out of memory\n");
	st->oom = true;
}

/* An image a load would refuse: said on stderr as the loader says it,
 * counted, and the first one kept as the verdict's reason. */
static void bad(struct ck_state *st, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void bad(struct ck_state *st, const char *fmt, ...)
{
	char msg[sizeof(st->reason)];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	fprintf(stderr, "ndrun: %s\n", msg);
	if (!st->nr_errors++)
		memcpy(st->reason, msg, sizeof(msg));
}

/* A missing import that stops the load: the first is the verdict's reason,
 * in the loader's words. */
static void fatal_reason(struct ck_state *st, const char *dll, const char *func, const char *importer,
			 bool dll_missing)
{
	if (st->reason[0])
		return;
	if (dll_missing && st->not_found[0])
		snprintf(st->reason, sizeof(st->reason), "%s", st->not_found);
	else if (dll_missing)
		snprintf(st->reason, sizeof(st->reason), "%s not found (imported by %s)", dll, importer);
	else
		snprintf(st->reason, sizeof(st->reason), "%s has no export %s%s (imported by %s)", dll,
			 func[0] == '#' ? "with ordinal " : "named ", func + (func[0] == '#'), importer);
}

static void add_missing(struct ck_state *st, const char *dll, const char *func, const char *importer,
			const char *via, bool delay, bool dll_missing, bool fatal)
{
	struct ck_missing *m;

	fatal = fatal && !st->exports_only;
	for (unsigned int i = 0; i < st->nr_missing; i++) {
		m = &st->missing[i];
		if (strcasecmp(m->dll, dll) || strcmp(m->func, func))
			continue;
		/* The same import reached again: it counts once, as a load-time
		 * import if any importer has it so. */
		if (!delay && m->delay) {
			m->delay = false;
			m->fatal = fatal;
			if (fatal)
				fatal_reason(st, dll, func, importer, dll_missing);
		}
		return;
	}
	if (st->nr_missing == st->cap_missing) {
		unsigned int cap = st->cap_missing ? 2 * st->cap_missing : 64;
		struct ck_missing *n = realloc(st->missing, cap * sizeof(*n));

		if (!n) {
			oom(st);
			return;
		}
		st->missing = n;
		st->cap_missing = cap;
	}
	if (fatal)
		fatal_reason(st, dll, func, importer, dll_missing);
	m = &st->missing[st->nr_missing];
	*m = (struct ck_missing){ strdup(dll), strdup(func), strdup(importer), via ? strdup(via) : NULL,
				  delay, dll_missing, fatal };
	if (!m->dll || !m->func || !m->importer || (via && !m->via)) {
		free(m->dll);
		free(m->func);
		free(m->importer);
		free(m->via);
		oom(st);
		return;
	}
	st->nr_missing++;
}

/* Read d's file and lay it out as loading would (pe_copy_image), so the
 * walkers the loader binds with (pe_dirs.c) read the same bytes here and
 * --check cannot accept what a load would refuse. */
static int read_image(struct ck_state *st, struct ck_dll *d)
{
	char msg[300];
	struct stat sb;
	void *file;
	/* O_NONBLOCK: a FIFO must not hang the open. */
	int fd = open(d->path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);

	if (fd < 0) {
		bad(st, "%s: %s", d->path, errno == ENXIO ? "a socket, not a PE file" : strerror(errno));
		return -1;
	}
	if (fstat(fd, &sb) || !S_ISREG(sb.st_mode)) {
		bad(st, "%s: not a regular file (%s)", d->path, module_file_kind(sb.st_mode));
		close(fd);
		return -1;
	}
	if (!sb.st_size) {
		bad(st, "%s: not a PE file", d->path);
		close(fd);
		return -1;
	}
	file = mmap(NULL, sb.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (file == MAP_FAILED) {
		bad(st, "%s: %s", d->path, strerror(errno));
		return -1;
	}
	if (pe_parse(file, sb.st_size, &d->img, msg, sizeof(msg))) {
		bad(st, "%s: %s", d->path, msg);
		munmap(file, sb.st_size);
		return -1;
	}
	/* Anonymous memory is zero-filled and only touched where sections
	 * land, so a large SizeOfImage costs nothing. */
	d->map = mmap(NULL, d->img.size_of_image, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
		      -1, 0);
	if (d->map == MAP_FAILED) {
		d->map = NULL;
		bad(st, "%s: %s", d->path, strerror(errno));
		munmap(file, sb.st_size);
		return -1;
	}
	d->map_size = d->img.size_of_image;
	pe_copy_image(&d->img, d->map);
	pe_use_image(&d->img, d->map);
	munmap(file, sb.st_size);
	return 0;
}

static void check_image(struct ck_state *st, struct ck_dll *d, bool root);

/* The DLL a name leads to from importer, read and checked the first time
 * it is reached; NULL when nothing provides it. */
static struct ck_dll *resolve_dll(struct ck_state *st, const char *name, const char *importer)
{
	struct load_error err = { "", 0 };
	struct dll_location loc;
	struct ck_dll *d;
	const char *shown;

	if (module_locate(name, importer, &loc, &err)) {
		if (err.code == ERROR_NOT_ENOUGH_MEMORY)
			oom(st);
		memcpy(st->not_found, err.msg, sizeof(st->not_found));
		return NULL;
	}
	/* Builtins by their own name, PE DLLs by their file's. */
	shown = loc.builtin ? loc.builtin->name : strrchr(loc.path, '/') + 1;
	/* API-set names keep their own row in the listing. */
	if (loc.apiset)
		shown = name;
	for (d = st->dlls; d; d = d->next) {
		if ((loc.builtin && d->builtin == loc.builtin && !strcasecmp(d->name, shown)) ||
		    (loc.path && d->path && !strcmp(loc.path, d->path))) {
			dll_location_free(&loc);
			return d;
		}
	}
	d = calloc(1, sizeof(*d));
	if (!d || !(d->name = strdup(shown)) || !(d->importer = strdup(importer))) {
		if (d)
			free(d->name);
		free(d);
		dll_location_free(&loc);
		oom(st);
		return NULL;
	}
	d->builtin = loc.builtin;
	d->path = loc.path;
	loc.path = NULL;
	dll_location_free(&loc);
	d->next = st->dlls;
	st->dlls = d;
	/* On the list before its own imports are followed: cycles end here. */
	if (d->path)
		check_image(st, d, false);
	return d;
}

/* Whether d provides name/ordinal, following forwarders; what is missing
 * is recorded.  importer/delay describe the import being checked. */
static void check_import(struct ck_state *st, struct ck_dll *d, const char *name, unsigned int ordinal,
			 const char *importer, const char *via, bool delay, unsigned int depth)
{
	char ordname[16], fwd_dll[256];
	const char *fwd = NULL, *dot, *func = name;
	struct ck_dll *target;
	uint32_t rva;

	if (!name) {
		snprintf(ordname, sizeof(ordname), "#%u", ordinal);
		func = ordname;
	}
	if (d->builtin) {
		if (!(name ? builtin_lookup_name(d->builtin, name) : builtin_lookup_ordinal(d->builtin, ordinal)))
			add_missing(st, d->builtin->name, func, importer, via, delay, false, false);
		return;
	}
	if (d->bad)
		return; /* reported when it was read */
	switch (pe_find_export(d->img.data, d->img.size, pe_directory(&d->img, IMAGE_DIRECTORY_ENTRY_EXPORT), name,
			       ordinal, &rva, &fwd)) {
	case PE_EXPORT_FOUND:
		return;
	case PE_EXPORT_FORWARDER:
		break;
	case PE_EXPORT_MISSING:
		/* A PE DLL without the export: Windows refuses the load. */
		add_missing(st, d->name, func, importer, via, delay, false, !delay);
		return;
	case PE_EXPORT_CORRUPT:
	case PE_EXPORT_OUTSIDE:
	case PE_EXPORT_BAD_FORWARDER:
		/* The load fails on the image itself, not on a gap of ndrun's. */
		bad(st, "%s: corrupt export directory (%s)", d->path, func);
		return;
	}
	dot = strrchr(fwd, '.');
	if (!dot || dot == fwd || (size_t)(dot - fwd) >= sizeof(fwd_dll) - 5 || depth >= MAX_FORWARD_DEPTH) {
		add_missing(st, d->name, func, importer, via, delay, false, !delay);
		return;
	}
	snprintf(fwd_dll, sizeof(fwd_dll), "%.*s.dll", (int)(dot - fwd), fwd);
	target = resolve_dll(st, fwd_dll, d->name);
	if (!target) {
		add_missing(st, fwd_dll, dot + 1, importer, d->name, delay, true, !delay);
		return;
	}
	if (dot[1] == '#')
		check_import(st, target, NULL, (unsigned int)strtoul(dot + 2, NULL, 10), importer, d->name, delay,
			     depth + 1);
	else
		check_import(st, target, dot + 1, 0, importer, d->name, delay, depth + 1);
}

/* One import descriptor's thunks.  A delay-load descriptor comes as an
 * import descriptor made of its name and address tables: the entries
 * have the same format. */
static void check_thunks(struct ck_state *st, struct ck_dll *from, const char *dllname,
			 const pe_import_desc *desc, bool delay)
{
	struct ck_dll *dep = resolve_dll(st, dllname, from->name);

	for (uint32_t i = 0;; i++) {
		const char *fname;
		unsigned int ord;
		uint32_t iat;
		char ordname[16];

		switch (pe_import_thunk(from->img.data, from->img.size, desc, i, &iat, &fname, &ord)) {
		case PE_WALK_ENTRY:
			break;
		case PE_WALK_END:
			return;
		case PE_WALK_OUTSIDE:
			bad(st, "%s: import table of %s runs outside the image", from->path, dllname);
			return;
		case PE_WALK_BAD_NAME:
			bad(st, "%s: corrupt import name for %s", from->path, dllname);
			return;
		}
		if (dep) {
			check_import(st, dep, fname, ord, from->name, NULL, delay, 0);
			continue;
		}
		snprintf(ordname, sizeof(ordname), "#%u", ord);
		add_missing(st, dllname, fname ? fname : ordname, from->name, NULL, delay, true, !delay);
	}
}

static void check_imports(struct ck_state *st, struct ck_dll *d)
{
	const IMAGE_DATA_DIRECTORY *dir = pe_directory(&d->img, IMAGE_DIRECTORY_ENTRY_IMPORT);

	for (uint32_t i = 0; dir; i++) {
		const pe_import_desc *desc;
		const char *name;

		switch (pe_import_descriptor(d->img.data, d->img.size, dir, i, &desc, &name)) {
		case PE_WALK_ENTRY:
			break;
		case PE_WALK_END:
			return;
		case PE_WALK_OUTSIDE:
			bad(st, "%s: import directory is not terminated", d->path);
			return;
		case PE_WALK_BAD_NAME:
			bad(st, "%s: corrupt import directory (bad DLL name)", d->path);
			return;
		}
		check_thunks(st, d, name, desc, false);
	}
}

/* Delay-load descriptors (IMAGE_DIRECTORY_ENTRY_DELAY_IMPORT): the
 * program's own helper resolves them with LoadLibrary/GetProcAddress at
 * the first call, through the same search. */
static void check_delay_imports(struct ck_state *st, struct ck_dll *d)
{
	const IMAGE_DATA_DIRECTORY *dir = pe_directory(&d->img, IMAGE_DIRECTORY_ENTRY_DELAY_IMPORT);
	const uint8_t *base = d->img.data;
	uint32_t size = d->img.size;

	if (!dir)
		return;
	for (uint64_t rva = dir->VirtualAddress;; rva += sizeof(IMAGE_DELAYLOAD_DESCRIPTOR)) {
		const IMAGE_DELAYLOAD_DESCRIPTOR *desc;
		pe_import_desc tables = { 0 };
		const char *name;

		if (rva > size || size - rva < sizeof(*desc)) {
			bad(st, "%s: delay-load directory is not terminated", d->path);
			return;
		}
		desc = (const void *)(base + rva);
		if (!desc->DllNameRVA)
			return;
		/* Bit 0 clear: VC6-era descriptors holding addresses, not RVAs. */
		if (!(desc->Attributes.AllAttributes & 1) || !(name = pe_image_string(base, size, desc->DllNameRVA)) ||
		    !*name) {
			bad(st, "%s: corrupt delay-load descriptor", d->path);
			return;
		}
		tables.OriginalFirstThunk = desc->ImportNameTableRVA;
		tables.FirstThunk = desc->ImportAddressTableRVA;
		tables.Name = desc->DllNameRVA;
		check_thunks(st, d, name, &tables, true);
	}
}

/* A DLL named on the command line: every forwarder it exports must lead
 * somewhere, whoever imports it later. */
static void check_forwarders(struct ck_state *st, struct ck_dll *d)
{
	const IMAGE_DATA_DIRECTORY *dir = pe_directory(&d->img, IMAGE_DIRECTORY_ENTRY_EXPORT);
	IMAGE_EXPORT_DIRECTORY edc, *ed = &edc;
	uint32_t size = d->img.size;

	/* pe_parse put the directory inside the image; its function table is
	 * checked here.  A corrupt one is reported when something imports.
	 * Neither needs alignment, as for the loader (pe_dirs.c). */
	if (!dir || dir->Size < sizeof(*ed))
		return;
	memcpy(ed, d->img.data + dir->VirtualAddress, sizeof(*ed));
	if (ed->NumberOfFunctions > 0x10000 || ed->AddressOfFunctions > size ||
	    size - ed->AddressOfFunctions < ed->NumberOfFunctions * 4u)
		return;
	st->exports_only = true;
	for (uint32_t i = 0; i < ed->NumberOfFunctions; i++) {
		uint32_t func;

		memcpy(&func, d->img.data + ed->AddressOfFunctions + 4 * (uint64_t)i, sizeof(func));
		if (func >= dir->VirtualAddress && func - dir->VirtualAddress < dir->Size)
			check_import(st, d, NULL, ed->Base + i, d->name, NULL, false, 0);
	}
	st->exports_only = false;
}

static void check_image(struct ck_state *st, struct ck_dll *d, bool root)
{
	if (read_image(st, d)) {
		d->bad = true;
		return;
	}
	check_imports(st, d);
	check_delay_imports(st, d);
	if (root && d->img.is_dll)
		check_forwarders(st, d);
}

static int cmp_missing(const void *a, const void *b)
{
	const struct ck_missing *x = a, *y = b;
	int c;

	if (x->delay != y->delay)
		return x->delay - y->delay;
	c = strcasecmp(x->dll, y->dll);
	return c ? c : strcmp(x->func, y->func);
}

/* What a group's header says about the DLL. */
static const char *group_kind(const struct ck_state *st, const struct ck_missing *m)
{
	if (m->dll_missing)
		return "DLL not found";
	for (const struct ck_dll *d = st->dlls; d; d = d->next) {
		if (d->builtin && !strcasecmp(d->builtin->name, m->dll))
			return d->builtin->stand_in ? "system DLL ndrun lacks, calls trap" : "builtin, calls trap";
	}
	return m->delay ? "PE DLL" : "PE DLL, load fails";
}

static void report(struct ck_state *st)
{
	unsigned int i = 0, nr_delay = 0;

	if (st->nr_missing)
		qsort(st->missing, st->nr_missing, sizeof(*st->missing), cmp_missing);
	while (i < st->nr_missing) {
		const struct ck_missing *first = &st->missing[i];
		unsigned int j = i;

		while (j < st->nr_missing && st->missing[j].delay == first->delay &&
		       !strcasecmp(st->missing[j].dll, first->dll))
			j++;
		if (first->delay && (i == 0 || !st->missing[i - 1].delay))
			printf("delay-load imports (resolved at the first call):\n");
		printf("%s%s (%s, imported by %s): %u missing\n", first->delay ? "  " : "", first->dll,
		       group_kind(st, first), first->importer, j - i);
		for (; i < j; i++) {
			const struct ck_missing *m = &st->missing[i];

			printf("%s  %s", m->delay ? "  " : "", m->func);
			if (m->via)
				printf(" (forwarded from %s)", m->via);
			if (strcmp(m->importer, first->importer))
				printf(" (imported by %s)", m->importer);
			printf("\n");
			nr_delay += m->delay;
		}
	}
	if (nr_delay)
		printf("%u missing (%u of them delay-loaded)\n", st->nr_missing, nr_delay);
	else
		printf("%u missing\n", st->nr_missing);
}

static void list_dlls(const struct ck_state *st)
{
	const struct ck_dll *d;
	unsigned int n = 0;

	for (d = st->dlls; d; d = d->next)
		n++;
	/* Load order is the reverse of the list. */
	for (unsigned int k = n; k-- > 0;) {
		unsigned int idx = 0;

		for (d = st->dlls; d && idx < k; d = d->next)
			idx++;
		if (d->builtin && strcasecmp(d->name, d->builtin->name))
			printf("  %-32s builtin %s (API set)\n", d->name, d->builtin->name);
		else if (d->builtin && d->builtin->stand_in)
			printf("  %-32s system DLL ndrun lacks (stand-in without exports)\n", d->name);
		else if (d->builtin)
			printf("  %-32s builtin\n", d->name);
		else
			printf("  %-32s %s%s\n", d->name, d->path, d->bad ? " (unreadable)" : "");
	}
}

int check_main(int nfiles, char **files)
{
	struct ck_state st = { 0 };
	char real[PATH_MAX];
	bool fatal = false;
	int rc;

	if (!realpath(files[0], real)) {
		fprintf(stderr, "ndrun: %s: %s\n", files[0], strerror(errno));
		printf("will not load: %s: %s\n", files[0], strerror(errno));
		return NDRUN_EXIT_BAD_IMAGE;
	}
	module_set_program(real);
	for (int i = 0; i < nfiles; i++) {
		struct load_error err = { "", 0 };
		struct dll_location loc;
		struct ck_dll *d;

		if (!realpath(files[i], real)) {
			bad(&st, "%s: %s", files[i], strerror(errno));
			continue;
		}
		/* A path names the file: the same rule as LoadLibrary's. */
		if (module_locate(real, NULL, &loc, &err)) {
			bad(&st, "%s", err.msg);
			continue;
		}
		dll_location_free(&loc);
		for (d = st.dlls; d && !(d->path && !strcmp(d->path, real)); d = d->next)
			;
		if (d) {
			/* Reached through another root's imports: only its
			 * exports are left to check. */
			printf("%s\n", d->path);
			if (!d->bad && d->img.is_dll)
				check_forwarders(&st, d);
			continue;
		}
		d = calloc(1, sizeof(*d));
		if (!d || !(d->path = strdup(real))) {
			free(d);
			oom(&st);
			break;
		}
		d->name = strdup(strrchr(real, '/') + 1);
		d->importer = strdup("the command line");
		if (!d->name || !d->importer) {
			oom(&st);
			break;
		}
		d->next = st.dlls;
		st.dlls = d;
		printf("%s\n", d->path);
		check_image(&st, d, true);
	}
	if (!st.oom) {
		printf("resolved DLLs:\n");
		list_dlls(&st);
		report(&st);
	}
	for (unsigned int i = 0; i < st.nr_missing; i++)
		fatal |= st.missing[i].fatal;
	if (st.oom || st.nr_errors || fatal)
		rc = NDRUN_EXIT_BAD_IMAGE;
	else
		rc = st.nr_missing ? NDRUN_EXIT_CHECK_MISSING : 0;
	/* The verdict a run would reach, last, with its reason. */
	if (rc == NDRUN_EXIT_BAD_IMAGE)
		printf("will not load: %s\n", st.oom ? "out of memory" : st.reason);

	for (unsigned int i = 0; i < st.nr_missing; i++) {
		free(st.missing[i].dll);
		free(st.missing[i].func);
		free(st.missing[i].importer);
		free(st.missing[i].via);
	}
	free(st.missing);
	while (st.dlls) {
		struct ck_dll *d = st.dlls;

		st.dlls = d->next;
		if (d->map)
			munmap(d->map, d->map_size);
		free(d->name);
		free(d->path);
		free(d->importer);
		free(d);
	}
	return rc;
}
