/* ndrun --check: walk a program's import graph the way loading it would
 * (module_locate is the one search policy) without mapping or running
 * anything, and list what ndrun lacks.
 *
 * Images are read as files: an RVA is translated through the section
 * table, so a DLL that could not be mapped at its base still gets
 * checked.  Imports, delay-load imports and export forwarders are
 * followed; every DLL is read once. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "pe_dirs.h"
#include "exit_codes.h"
#include "module.h"
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
};

static void oom(struct ck_state *st)
{
	if (!st->oom)
		fprintf(stderr, "ndrun: out of memory\n");
	st->oom = true;
}

/* A pointer to [rva, rva+len) of a PE file, through its sections; NULL
 * when the range is not backed by file data. */
static const void *rva_ptr(const struct pe_image *img, uint32_t rva, uint32_t len)
{
	if ((uint64_t)rva + len <= img->size_of_headers && (uint64_t)rva + len <= img->size)
		return img->data + rva;
	for (unsigned int i = 0; i < img->nr_sections; i++) {
		const IMAGE_SECTION_HEADER *s = &img->sections[i];
		uint32_t raw = s->SizeOfRawData < s->Misc.VirtualSize || !s->Misc.VirtualSize ? s->SizeOfRawData
											   : s->Misc.VirtualSize;

		if (rva < s->VirtualAddress || (uint64_t)rva + len > (uint64_t)s->VirtualAddress + raw)
			continue;
		if ((uint64_t)s->PointerToRawData + (rva - s->VirtualAddress) + len > img->size)
			return NULL;
		return img->data + s->PointerToRawData + (rva - s->VirtualAddress);
	}
	return NULL;
}

/* A NUL-terminated string at rva, or NULL. */
static const char *rva_string(const struct pe_image *img, uint32_t rva)
{
	const char *s = rva_ptr(img, rva, 1);
	const char *end;

	if (!s)
		return NULL;
	end = (const char *)img->data + img->size;
	if (!memchr(s, 0, end - s))
		return NULL;
	/* The string must stay inside its section's data too. */
	return rva_ptr(img, rva, (uint32_t)strlen(s) + 1) ? s : NULL;
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

static int read_image(struct ck_dll *d)
{
	char msg[300];
	struct stat sb;
	int fd = open(d->path, O_RDONLY | O_CLOEXEC);

	if (fd < 0) {
		fprintf(stderr, "ndrun: %s: %s\n", d->path, strerror(errno));
		return -1;
	}
	if (fstat(fd, &sb) || !S_ISREG(sb.st_mode) || !sb.st_size) {
		fprintf(stderr, "ndrun: %s: not a PE file\n", d->path);
		close(fd);
		return -1;
	}
	d->map = mmap(NULL, sb.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (d->map == MAP_FAILED) {
		d->map = NULL;
		fprintf(stderr, "ndrun: %s: %s\n", d->path, strerror(errno));
		return -1;
	}
	d->map_size = sb.st_size;
	if (pe_parse(d->map, d->map_size, &d->img, msg, sizeof(msg))) {
		fprintf(stderr, "ndrun: %s: %s\n", d->path, msg);
		return -1;
	}
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

/* Export `name` (or `ordinal`) of a PE DLL: its RVA, with *forward set
 * when it is a forwarder string.  0 when absent. */
static uint32_t pe_export(const struct ck_dll *d, const char *name, unsigned int ordinal, const char **forward)
{
	const IMAGE_DATA_DIRECTORY *dir = pe_directory(&d->img, IMAGE_DIRECTORY_ENTRY_EXPORT);
	const IMAGE_EXPORT_DIRECTORY *ed;
	const DWORD *funcs, *names;
	const WORD *ords;
	uint32_t idx = UINT32_MAX, rva;

	*forward = NULL;
	if (!dir || dir->Size < sizeof(*ed) || !(ed = rva_ptr(&d->img, dir->VirtualAddress, sizeof(*ed))))
		return 0;
	if (ed->NumberOfFunctions > 0x10000 || ed->NumberOfNames > 0x10000)
		return 0;
	funcs = rva_ptr(&d->img, ed->AddressOfFunctions, ed->NumberOfFunctions * 4u);
	names = rva_ptr(&d->img, ed->AddressOfNames, ed->NumberOfNames * 4u);
	ords = rva_ptr(&d->img, ed->AddressOfNameOrdinals, ed->NumberOfNames * 2u);
	if (!funcs || (ed->NumberOfNames && (!names || !ords)))
		return 0;
	if (name) {
		/* The loader's rule: a binary search of the sorted name table. */
		uint32_t lo = 0, hi = ed->NumberOfNames;

		while (lo < hi) {
			uint32_t mid = lo + (hi - lo) / 2;
			const char *n = rva_string(&d->img, names[mid]);
			int c;

			if (!n)
				break;
			c = strcmp(name, n);
			if (!c) {
				idx = ords[mid];
				break;
			}
			if (c < 0)
				hi = mid;
			else
				lo = mid + 1;
		}
	} else {
		idx = ordinal - ed->Base;
	}
	if (idx >= ed->NumberOfFunctions || !(rva = funcs[idx]))
		return 0;
	if (rva >= dir->VirtualAddress && rva < dir->VirtualAddress + dir->Size)
		*forward = rva_string(&d->img, rva);
	return rva;
}

/* Whether d provides name/ordinal, following forwarders; what is missing
 * is recorded.  importer/delay describe the import being checked. */
static void check_import(struct ck_state *st, struct ck_dll *d, const char *name, unsigned int ordinal,
			 const char *importer, const char *via, bool delay, unsigned int depth)
{
	char ordname[16], fwd_dll[256];
	const char *fwd, *dot, *func = name;
	struct ck_dll *target;

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
	if (!pe_export(d, name, ordinal, &fwd)) {
		/* A PE DLL without the export: Windows refuses the load. */
		add_missing(st, d->name, func, importer, via, delay, false, !delay);
		return;
	}
	if (!fwd)
		return;
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

/* One import lookup table (of a descriptor or a delay descriptor). */
static void check_thunks(struct ck_state *st, struct ck_dll *from, const char *dllname, uint32_t lookup_rva,
			 bool delay)
{
	struct ck_dll *dep = resolve_dll(st, dllname, from->name);

	for (uint32_t i = 0;; i++) {
		const uint64_t *entry = rva_ptr(&from->img, lookup_rva + i * 8, 8);
		const char *fname = NULL;
		unsigned int ord = 0;
		char ordname[16];

		if (!entry) {
			fprintf(stderr, "ndrun: %s: import table of %s runs outside the image\n", from->path, dllname);
			st->nr_errors++;
			return;
		}
		if (!*entry)
			return;
		if (IMAGE_SNAP_BY_ORDINAL64(*entry)) {
			ord = IMAGE_ORDINAL64(*entry);
		} else if (!(fname = rva_string(&from->img, (uint32_t)(*entry & 0x7fffffff) + 2)) || !*fname) {
			fprintf(stderr, "ndrun: %s: corrupt import name for %s\n", from->path, dllname);
			st->nr_errors++;
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

	for (uint32_t off = 0; dir; off += sizeof(IMAGE_IMPORT_DESCRIPTOR)) {
		const pe_import_desc *desc = rva_ptr(&d->img, dir->VirtualAddress + off, sizeof(*desc));
		const char *name;

		if (!desc) {
			fprintf(stderr, "ndrun: %s: import directory is not terminated\n", d->path);
			st->nr_errors++;
			return;
		}
		if (!desc->Name && !desc->FirstThunk)
			return;
		name = rva_string(&d->img, desc->Name);
		if (!name || !*name) {
			fprintf(stderr, "ndrun: %s: corrupt import directory (bad DLL name)\n", d->path);
			st->nr_errors++;
			return;
		}
		check_thunks(st, d, name, desc->OriginalFirstThunk ? desc->OriginalFirstThunk : desc->FirstThunk, false);
	}
}

/* Delay-load descriptors (IMAGE_DIRECTORY_ENTRY_DELAY_IMPORT): the
 * program's own helper resolves them with LoadLibrary/GetProcAddress at
 * the first call, through the same search. */
static void check_delay_imports(struct ck_state *st, struct ck_dll *d)
{
	const IMAGE_DATA_DIRECTORY *dir = pe_directory(&d->img, IMAGE_DIRECTORY_ENTRY_DELAY_IMPORT);

	for (uint32_t off = 0; dir; off += sizeof(IMAGE_DELAYLOAD_DESCRIPTOR)) {
		const IMAGE_DELAYLOAD_DESCRIPTOR *desc = rva_ptr(&d->img, dir->VirtualAddress + off, sizeof(*desc));
		const char *name;

		if (!desc) {
			fprintf(stderr, "ndrun: %s: delay-load directory is not terminated\n", d->path);
			st->nr_errors++;
			return;
		}
		if (!desc->DllNameRVA)
			return;
		/* Bit 0 clear: VC6-era descriptors holding addresses, not RVAs. */
		if (!(desc->Attributes.AllAttributes & 1) || !(name = rva_string(&d->img, desc->DllNameRVA)) || !*name) {
			fprintf(stderr, "ndrun: %s: corrupt delay-load descriptor\n", d->path);
			st->nr_errors++;
			return;
		}
		check_thunks(st, d, name, desc->ImportNameTableRVA, true);
	}
}

/* A DLL named on the command line: every forwarder it exports must lead
 * somewhere, whoever imports it later. */
static void check_forwarders(struct ck_state *st, struct ck_dll *d)
{
	const IMAGE_DATA_DIRECTORY *dir = pe_directory(&d->img, IMAGE_DIRECTORY_ENTRY_EXPORT);
	const IMAGE_EXPORT_DIRECTORY *ed;
	const DWORD *funcs;

	if (!dir || dir->Size < sizeof(*ed) || !(ed = rva_ptr(&d->img, dir->VirtualAddress, sizeof(*ed))) ||
	    ed->NumberOfFunctions > 0x10000 ||
	    !(funcs = rva_ptr(&d->img, ed->AddressOfFunctions, ed->NumberOfFunctions * 4u)))
		return;
	st->exports_only = true;
	for (uint32_t i = 0; i < ed->NumberOfFunctions; i++)
		if (funcs[i] >= dir->VirtualAddress && funcs[i] < dir->VirtualAddress + dir->Size)
			check_import(st, d, NULL, ed->Base + i, d->name, NULL, false, 0);
	st->exports_only = false;
}

static void check_image(struct ck_state *st, struct ck_dll *d, bool root)
{
	if (read_image(d)) {
		d->bad = true;
		st->nr_errors++;
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
			return "builtin, calls trap";
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
		return NDRUN_EXIT_BAD_IMAGE;
	}
	module_set_program(real);
	for (int i = 0; i < nfiles; i++) {
		struct load_error err = { "", 0 };
		struct dll_location loc;
		struct ck_dll *d;

		if (!realpath(files[i], real)) {
			fprintf(stderr, "ndrun: %s: %s\n", files[i], strerror(errno));
			st.nr_errors++;
			continue;
		}
		/* A path names the file: the same rule as LoadLibrary's. */
		if (module_locate(real, NULL, &loc, &err)) {
			fprintf(stderr, "ndrun: %s\n", err.msg);
			st.nr_errors++;
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
