/* Generate the malformed-PE corpus.
 *
 * Usage: gen OUTDIR
 *
 * Starts from valid images built by pe_builder (which must run: the
 * control cases), then writes one file per defect, named for it.  Each
 * case is one line of OUTDIR/cases:
 *
 *     NAME <TAB> FILE <TAB> EXIT-STATUS <TAB> WORD|WORD...
 *
 * FILE is what ndrun is given (relative to OUTDIR); the words must all
 * appear in ndrun's stderr (for the error cases: the one "ndrun: " line).
 * An exit status other than 126 marks a control case, which must run
 * cleanly with an empty stderr. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "pe_builder.h"

#define BAD 126

static const char *outdir;
static FILE *cases;
static struct pb_image img; /* the image being mutated */

static void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fprintf(stderr, "gen: ");
	vfprintf(stderr, fmt, ap);
	fprintf(stderr, "\n");
	va_end(ap);
	exit(1);
}

static void write_file(const char *file, const void *data, size_t size)
{
	char path[4096];

	snprintf(path, sizeof(path), "%s/%s", outdir, file);
	if (pb_write(data, size, path))
		die("%s: %s", path, strerror(errno));
}

/* One manifest line; mentions is a '|'-separated list (NULL: the file). */
static void add_case(const char *name, const char *file, int status, const char *mentions)
{
	fprintf(cases, "%s\t%s\t%d\t%s\n", name, file, status, mentions ? mentions : file);
}

static void build(const struct pb_spec *spec, struct pb_image *out)
{
	if (pb_build(spec, out))
		die("pe_builder failed");
}

/* The control program: TLS, a relocated pointer, exit code 42. */
static void fresh_exe(void)
{
	struct pb_spec spec = { .tls = 1, .exit_code = 42 };

	pb_free(&img);
	build(&spec, &img);
}

/* Write the current image as NAME.exe, an error case. */
static void bad_image(const char *name)
{
	char file[256];

	snprintf(file, sizeof(file), "%s.exe", name);
	write_file(file, img.data, img.size);
	add_case(name, file, BAD, NULL);
}

static void bad_bytes(const char *name, const void *data, size_t size)
{
	char file[256];

	snprintf(file, sizeof(file), "%s.exe", name);
	write_file(file, data, size);
	add_case(name, file, BAD, NULL);
}

static IMAGE_OPTIONAL_HEADER64 *opt(void)
{
	return &pb_nt(&img)->OptionalHeader;
}

static IMAGE_FILE_HEADER *fh(void)
{
	return &pb_nt(&img)->FileHeader;
}

/* For defects that the TLS directory's absolute addresses would mask. */
static void no_tls(void)
{
	memset(pb_dir(&img, IMAGE_DIRECTORY_ENTRY_TLS), 0, sizeof(IMAGE_DATA_DIRECTORY));
}

static IMAGE_IMPORT_DESCRIPTOR *import_desc(void)
{
	return pb_at(&img, img.import_desc_rva);
}

static void put64(uint32_t rva, uint64_t v) { memcpy(img.data + rva, &v, 8); }

/* ---- not PE files at all ------------------------------------------------ */

static void gen_not_pe(void)
{
	static const char text[] = "This is a text file, not a program.\nSecond line.\n";
	uint8_t random[4096];
	uint32_t x = 12345;
	char path[4096];

	bad_bytes("empty-file", "", 0);
	bad_bytes("text-file", text, sizeof(text) - 1);
	bad_bytes("one-byte", "M", 1);
	bad_bytes("mz-only", "MZ", 2);
	for (size_t i = 0; i < sizeof(random); i++) {
		x = x * 1103515245 + 12345;
		random[i] = (uint8_t)(x >> 16);
	}
	random[0] = 'X';
	bad_bytes("random-bytes", random, sizeof(random));
	/* Random bytes behind a valid MZ header and e_lfanew. */
	random[0] = 'M';
	random[1] = 'Z';
	random[0x3c] = 0x80;
	random[0x3d] = random[0x3e] = random[0x3f] = 0;
	bad_bytes("random-bytes-after-mz", random, sizeof(random));

	snprintf(path, sizeof(path), "%s/not-a-file.exe", outdir);
	if (mkdir(path, 0755) && errno != EEXIST)
		die("%s: %s", path, strerror(errno));
	add_case("not-a-file-directory", "not-a-file.exe", BAD, "not-a-file.exe|a folder");
	add_case("no-such-file", "no-such-file.exe", BAD, NULL);

	/* Files that are not files: a FIFO (an open would wait for a
	 * writer), a device, a socket.  Each gets the one-line refusal. */
	snprintf(path, sizeof(path), "%s/fifo.exe", outdir);
	unlink(path);
	if (mkfifo(path, 0644))
		die("%s: %s", path, strerror(errno));
	add_case("not-a-file-fifo", "fifo.exe", BAD, "fifo.exe|a FIFO");
	snprintf(path, sizeof(path), "%s/device.exe", outdir);
	unlink(path);
	if (symlink("/dev/zero", path)) /* named by its target */
		die("%s: %s", path, strerror(errno));
	add_case("not-a-file-device", "device.exe", BAD, "/dev/zero|a device");
	{
		struct sockaddr_un sun = { .sun_family = AF_UNIX };
		int sock = socket(AF_UNIX, SOCK_STREAM, 0);

		snprintf(path, sizeof(path), "%s/socket.exe", outdir);
		unlink(path);
		if (sock < 0 || strlen(path) >= sizeof(sun.sun_path))
			die("%s: no socket", path);
		memcpy(sun.sun_path, path, strlen(path) + 1);
		if (bind(sock, (struct sockaddr *)&sun, sizeof(sun)))
			die("%s: %s", path, strerror(errno));
		close(sock);
		add_case("not-a-file-socket", "socket.exe", BAD, "socket.exe|a socket");
	}
}

/* ---- truncation ----------------------------------------------------------- */

static void gen_truncated(void)
{
	static const struct {
		const char *name;
		size_t size;
	} cuts[] = {
		{ "truncated-in-dos-header", 0x20 },
		{ "truncated-at-e-lfanew", 0x3c },
		{ "truncated-in-e-lfanew", 0x3e },
		{ "truncated-after-dos-header", 0x40 },
		{ "truncated-at-pe-signature", PB_NT_OFF },
		{ "truncated-in-pe-signature", PB_NT_OFF + 2 },
		{ "truncated-in-file-header", PB_NT_OFF + 10 },
		{ "truncated-after-file-header", PB_NT_OFF + 24 },
		{ "truncated-in-optional-header-magic", PB_NT_OFF + 25 },
		{ "truncated-in-optional-header", PB_NT_OFF + 24 + 60 },
		{ "truncated-in-data-directories", PB_NT_OFF + 24 + 130 },
		{ "truncated-in-section-table", PB_SEC_OFF + 40 + 13 },
		{ "truncated-at-section-table-end", PB_SEC_OFF + 4 * 40 },
		{ "truncated-in-headers-padding", 0x800 },
		{ "truncated-at-text", PB_TEXT_RVA },
		{ "truncated-in-text", PB_TEXT_RVA + 0x10 },
		{ "truncated-in-rdata", PB_RDATA_RVA + 0x123 },
		{ "truncated-in-data", PB_DATA_RVA + 0x800 },
		{ "truncated-in-reloc", PB_RELOC_RVA + 4 },
		{ "truncated-one-byte-short", PB_IMAGE_SIZE - 1 },
	};

	fresh_exe();
	for (size_t i = 0; i < sizeof(cuts) / sizeof(cuts[0]); i++)
		bad_bytes(cuts[i].name, img.data, cuts[i].size);
}

/* ---- DOS and PE headers ------------------------------------------------- */

static void gen_headers(void)
{
	fresh_exe();
	img.data[1] = 'X';
	bad_image("bad-mz-signature");

	fresh_exe();
	img.data[PB_NT_OFF + 1] = 'X';
	bad_image("bad-pe-signature");

	fresh_exe();
	pb_nt(&img)->Signature = IMAGE_OS2_SIGNATURE; /* "NE" */
	bad_image("ne-signature");

	static const struct {
		const char *name;
		uint32_t lfanew;
	} lfanews[] = {
		{ "e-lfanew-beyond-file", PB_IMAGE_SIZE + 0x100 },
		{ "e-lfanew-at-file-end", PB_IMAGE_SIZE },
		{ "e-lfanew-near-file-end", PB_IMAGE_SIZE - 8 },
		{ "e-lfanew-negative", 0x80000000 },
		{ "e-lfanew-minus-4", 0xfffffffc },
		{ "e-lfanew-huge", 0x7ffffff0 },
		{ "e-lfanew-zero", 0 },
		{ "e-lfanew-inside-dos-header", 0x10 },
	};
	for (size_t i = 0; i < sizeof(lfanews) / sizeof(lfanews[0]); i++) {
		fresh_exe();
		pb_dos(&img)->e_lfanew = (LONG)lfanews[i].lfanew;
		bad_image(lfanews[i].name);
	}

	/* Valid headers, one byte off an aligned position. */
	fresh_exe();
	memmove(img.data + PB_NT_OFF + 1, img.data + PB_NT_OFF, 0x1000 - PB_NT_OFF - 1);
	pb_dos(&img)->e_lfanew = PB_NT_OFF + 1;
	bad_image("e-lfanew-misaligned");

	fresh_exe();
	fh()->Machine = IMAGE_FILE_MACHINE_I386;
	opt()->Magic = IMAGE_NT_OPTIONAL_HDR32_MAGIC;
	bad_image("machine-i386-pe32");
	fresh_exe();
	fh()->Machine = IMAGE_FILE_MACHINE_ARM64;
	bad_image("machine-arm64");
	fresh_exe();
	fh()->Machine = 0x1234;
	bad_image("machine-unknown");
	fresh_exe();
	fh()->Machine = 0;
	bad_image("machine-zero");

	fresh_exe();
	opt()->Magic = IMAGE_NT_OPTIONAL_HDR32_MAGIC;
	bad_image("magic-pe32-on-amd64");
	fresh_exe();
	opt()->Magic = IMAGE_ROM_OPTIONAL_HDR_MAGIC;
	bad_image("magic-rom");
	fresh_exe();
	opt()->Magic = 0x1234;
	bad_image("magic-unknown");

	fresh_exe();
	fh()->Characteristics &= ~IMAGE_FILE_EXECUTABLE_IMAGE;
	bad_image("not-executable-image");

	static const struct {
		const char *name;
		uint16_t size;
	} sohs[] = {
		{ "optional-header-size-zero", 0 },
		{ "optional-header-size-too-small", 0x60 },
		{ "optional-header-size-no-directories", 0x6f },
		{ "optional-header-size-beyond-file", 0xf000 },
		{ "optional-header-size-beyond-headers", 0x1000 },
		{ "optional-header-size-shifts-sections", sizeof(IMAGE_OPTIONAL_HEADER64) + 8 },
		{ "optional-header-size-odd", sizeof(IMAGE_OPTIONAL_HEADER64) + 1 },
	};
	for (size_t i = 0; i < sizeof(sohs) / sizeof(sohs[0]); i++) {
		fresh_exe();
		fh()->SizeOfOptionalHeader = sohs[i].size;
		bad_image(sohs[i].name);
	}

	fresh_exe();
	opt()->NumberOfRvaAndSizes = 17;
	bad_image("rva-and-sizes-17");
	fresh_exe();
	opt()->NumberOfRvaAndSizes = 0xffffffff;
	bad_image("rva-and-sizes-huge");
	fresh_exe();
	fh()->SizeOfOptionalHeader = sizeof(IMAGE_OPTIONAL_HEADER64) - 8;
	bad_image("rva-and-sizes-beyond-optional-header");
}

/* ---- layout: sections, alignment, sizes --------------------------------- */

static void gen_layout(void)
{
	fresh_exe();
	fh()->NumberOfSections = 97;
	bad_image("too-many-sections");
	fresh_exe();
	fh()->NumberOfSections = 0xffff;
	bad_image("too-many-sections-max");
	fresh_exe();
	fh()->NumberOfSections = 40; /* fits the headers, but garbage */
	bad_image("section-count-too-big");
	fresh_exe();
	fh()->NumberOfSections = 0;
	no_tls();
	bad_image("no-sections");

	fresh_exe();
	pb_section(&img, 0)->PointerToRawData = 0x100000;
	bad_image("section-raw-data-outside-file");
	fresh_exe();
	pb_section(&img, 3)->PointerToRawData = 0xfffff000;
	pb_section(&img, 3)->SizeOfRawData = 0x2000;
	bad_image("section-raw-data-offset-overflow");
	fresh_exe();
	pb_section(&img, 3)->PointerToRawData = PB_RELOC_RVA + 0x800;
	bad_image("section-raw-data-past-file-end");
	/* A raw data offset off FileAlignment and off 512, which Microsoft's
	 * PE format documentation rules out (a multiple of FileAlignment, at
	 * least 512 for page-aligned sections): Windows' loader reads the
	 * section from the 512-byte boundary below it, so the program runs
	 * as if the offset were aligned.  A control: it must exit 42. */
	fresh_exe();
	pb_section(&img, 0)->PointerToRawData += 0x100;
	write_file("control-section-raw-offset-unaligned.exe", img.data, img.size);
	add_case("control-section-raw-offset-unaligned", "control-section-raw-offset-unaligned.exe", 42, "");

	fresh_exe();
	pb_section(&img, 3)->VirtualAddress = 0x8000;
	bad_image("section-va-beyond-image");
	fresh_exe();
	pb_section(&img, 3)->Misc.VirtualSize = 0xfffff000;
	bad_image("section-size-overflow");
	fresh_exe();
	pb_section(&img, 3)->Misc.VirtualSize = 0x1001;
	bad_image("section-end-beyond-image");

	fresh_exe();
	pb_section(&img, 1)->VirtualAddress = PB_TEXT_RVA;
	bad_image("sections-overlap");
	fresh_exe();
	pb_section(&img, 1)->Misc.VirtualSize = 0x1800;
	bad_image("sections-overlap-by-size");
	fresh_exe();
	pb_section(&img, 0)->VirtualAddress = 0;
	bad_image("section-overlaps-headers");
	fresh_exe();
	pb_section(&img, 2)->VirtualAddress = PB_RELOC_RVA;
	pb_section(&img, 3)->VirtualAddress = PB_DATA_RVA;
	bad_image("sections-out-of-order");
	fresh_exe();
	pb_section(&img, 1)->VirtualAddress = PB_RDATA_RVA + 0x800;
	bad_image("section-misaligned");

	fresh_exe();
	opt()->SectionAlignment = 0x1800;
	bad_image("section-alignment-not-power-of-two");
	fresh_exe();
	opt()->SectionAlignment = 0;
	bad_image("section-alignment-zero");
	fresh_exe();
	opt()->FileAlignment = 0x300;
	bad_image("file-alignment-not-power-of-two");
	fresh_exe();
	opt()->FileAlignment = 0;
	bad_image("file-alignment-zero");
	fresh_exe();
	opt()->FileAlignment = 0x2000;
	bad_image("file-alignment-above-section-alignment");

	fresh_exe();
	opt()->SizeOfImage = 0;
	bad_image("size-of-image-zero");
	fresh_exe();
	opt()->SizeOfImage = 0xffffffff;
	bad_image("size-of-image-huge");
	fresh_exe();
	opt()->SizeOfImage = 0x80000000;
	bad_image("size-of-image-2g");
	fresh_exe();
	opt()->SizeOfImage = 0x3000;
	bad_image("size-of-image-too-small");

	fresh_exe();
	opt()->SizeOfHeaders = 0x100;
	bad_image("size-of-headers-below-section-table");
	fresh_exe();
	opt()->SizeOfHeaders = 0;
	bad_image("size-of-headers-zero");
	fresh_exe();
	opt()->SizeOfHeaders = 0x10000;
	bad_image("size-of-headers-beyond-image");
	fresh_exe();
	opt()->SizeOfHeaders = 0x2000;
	bad_image("size-of-headers-overlaps-sections");

	fresh_exe();
	opt()->AddressOfEntryPoint = 0x10000;
	bad_image("entry-point-outside-image");
	fresh_exe();
	opt()->AddressOfEntryPoint = 0xffffffff;
	bad_image("entry-point-huge");
	fresh_exe();
	opt()->AddressOfEntryPoint = PB_IMAGE_SIZE;
	bad_image("entry-point-at-image-end");
	fresh_exe();
	opt()->AddressOfEntryPoint = PB_DATA_RVA;
	bad_image("entry-point-in-data-section");
	fresh_exe();
	opt()->AddressOfEntryPoint = 0x10;
	bad_image("entry-point-in-headers");
	fresh_exe();
	opt()->AddressOfEntryPoint = 0;
	bad_image("exe-without-entry-point");

	fresh_exe();
	opt()->ImageBase += 0x1000;
	bad_image("image-base-not-64k-aligned");
	fresh_exe();
	opt()->ImageBase = 0;
	fh()->Characteristics |= IMAGE_FILE_RELOCS_STRIPPED;
	no_tls();
	bad_image("image-base-zero-relocs-stripped");
	fresh_exe();
	opt()->ImageBase = 0xffff800000000000ull;
	fh()->Characteristics |= IMAGE_FILE_RELOCS_STRIPPED;
	bad_image("image-base-kernel-relocs-stripped");
	fresh_exe();
	opt()->ImageBase = 0xffffffffffff0000ull;
	fh()->Characteristics |= IMAGE_FILE_RELOCS_STRIPPED;
	bad_image("image-base-wraps-relocs-stripped");
}

/* ---- data directories and imports ---------------------------------------- */

static void gen_imports(void)
{
	fresh_exe();
	pb_dir(&img, IMAGE_DIRECTORY_ENTRY_IMPORT)->VirtualAddress = 0x10000;
	bad_image("import-directory-outside-image");
	fresh_exe();
	pb_dir(&img, IMAGE_DIRECTORY_ENTRY_IMPORT)->VirtualAddress = 0xfffffff0;
	pb_dir(&img, IMAGE_DIRECTORY_ENTRY_IMPORT)->Size = 0x20;
	bad_image("import-directory-wraps");
	fresh_exe();
	pb_dir(&img, IMAGE_DIRECTORY_ENTRY_EXPORT)->VirtualAddress = PB_IMAGE_SIZE - 0x10;
	pb_dir(&img, IMAGE_DIRECTORY_ENTRY_EXPORT)->Size = 0x28;
	bad_image("export-directory-outside-image");
	fresh_exe();
	pb_dir(&img, IMAGE_DIRECTORY_ENTRY_BASERELOC)->Size = 0x10000;
	bad_image("reloc-directory-outside-image");
	fresh_exe();
	pb_dir(&img, IMAGE_DIRECTORY_ENTRY_TLS)->VirtualAddress = 0x7fff0000;
	bad_image("tls-directory-outside-image");
	fresh_exe();
	/* an unaligned import directory is accepted (as Windows does); this
	 * one starts 2 bytes into the real descriptors, which it misreads */
	pb_dir(&img, IMAGE_DIRECTORY_ENTRY_IMPORT)->VirtualAddress = PB_RDATA_RVA + 2;
	bad_image("import-directory-shifted");

	/* Descriptors up to the end of the image, none of them zero. */
	fresh_exe();
	for (uint32_t rva = PB_TAIL_RVA; rva + sizeof(IMAGE_IMPORT_DESCRIPTOR) <= PB_IMAGE_SIZE;
	     rva += sizeof(IMAGE_IMPORT_DESCRIPTOR))
		memcpy(img.data + rva, import_desc(), sizeof(IMAGE_IMPORT_DESCRIPTOR));
	memset(img.data + PB_IMAGE_SIZE - 0x10, 0x41, 0x10);
	pb_dir(&img, IMAGE_DIRECTORY_ENTRY_IMPORT)->VirtualAddress = PB_TAIL_RVA;
	bad_image("import-directory-unterminated");

	fresh_exe();
	import_desc()->Name = 0x100000;
	bad_image("import-dll-name-outside-image");
	fresh_exe();
	memset(img.data + PB_TAIL_RVA, 'a', PB_IMAGE_SIZE - PB_TAIL_RVA);
	import_desc()->Name = PB_TAIL_RVA;
	bad_image("import-dll-name-unterminated");
	fresh_exe();
	import_desc()->Name = PB_SCRATCH_RVA; /* zeros */
	bad_image("import-dll-name-empty");

	fresh_exe();
	import_desc()->OriginalFirstThunk = 0x100000;
	bad_image("import-lookup-table-outside-image");
	fresh_exe();
	import_desc()->FirstThunk = 0x100000;
	bad_image("import-address-table-outside-image");
	fresh_exe();
	import_desc()->OriginalFirstThunk = 0xfffffff8;
	bad_image("import-lookup-table-wraps");
	fresh_exe();
	import_desc()->OriginalFirstThunk = PB_IMAGE_SIZE - 8;
	import_desc()->FirstThunk = PB_IMAGE_SIZE - 16;
	memcpy(img.data + PB_IMAGE_SIZE - 8, img.data + img.ilt_rva[0], 8);
	bad_image("import-thunks-unterminated");

	fresh_exe();
	put64(img.ilt_rva[0], 0x100000);
	bad_image("import-name-outside-image");
	fresh_exe();
	put64(img.ilt_rva[0], PB_IMAGE_SIZE - 2);
	bad_image("import-name-at-image-end");
	fresh_exe();
	memset(img.data + PB_TAIL_RVA, 'a', PB_IMAGE_SIZE - PB_TAIL_RVA);
	put64(img.ilt_rva[0], PB_TAIL_RVA);
	bad_image("import-name-unterminated");
	fresh_exe();
	put64(img.ilt_rva[0], 0x7ffffffe);
	bad_image("import-name-rva-huge");
}

/* ---- imports of PE DLLs -------------------------------------------------- */

/* NAME.exe importing func (or ordinal) from dll and calling it. */
static void exe_importing(const char *name, const char *dll, const char *func, uint16_t ordinal, int status,
			  const char *mentions)
{
	struct pb_spec spec = { .call_import = 1, .nr_imports = 1 };
	char file[256];

	spec.imports[0] = (struct pb_import){ dll, func, ordinal };
	pb_free(&img);
	build(&spec, &img);
	snprintf(file, sizeof(file), "%s.exe", name);
	write_file(file, img.data, img.size);
	add_case(name, file, status, mentions);
}

/* A DLL file exporting Value (ordinal 1, returns value) and Other
 * (ordinal 2), at base (0: the usual DLL base). */
static void value_dll(const char *file, uint64_t base, uint32_t value, void (*mutate)(struct pb_image *))
{
	struct pb_spec spec = { .dll = 1, .image_base = base, .nr_exports = 2 };
	struct pb_image dll;

	spec.exports[0] = (struct pb_export){ "Other", NULL, 7 };
	spec.exports[1] = (struct pb_export){ "Value", NULL, value };
	spec.export_name = file;
	build(&spec, &dll);
	if (mutate)
		mutate(&dll);
	write_file(file, dll.data, dll.size);
	pb_free(&dll);
}

/* DLL-side defects: NAME.dll (mutated) imported by NAME.exe. */
static void bad_dll(const char *name, uint64_t base, void (*mutate)(struct pb_image *), const char *extra)
{
	char dll[256], mentions[512];

	snprintf(dll, sizeof(dll), "%s.dll", name);
	snprintf(mentions, sizeof(mentions), "%s%s%s", dll, extra ? "|" : "", extra ? extra : "");
	value_dll(dll, base, 5, mutate);
	exe_importing(name, dll, "Value", 0, BAD, mentions);
}

static void reloc_block_size_small(struct pb_image *d) { memcpy(d->data + PB_RELOC_RVA + 4, "\4\0\0\0", 4); }
static void reloc_block_size_odd(struct pb_image *d) { memcpy(d->data + PB_RELOC_RVA + 4, "\13\0\0\0", 4); }
static void reloc_block_size_huge(struct pb_image *d) { memcpy(d->data + PB_RELOC_RVA + 4, "\0\0\1\0", 4); }
static void reloc_block_size_zero(struct pb_image *d) { memset(d->data + PB_RELOC_RVA + 4, 0, 4); }
static void reloc_unknown_type(struct pb_image *d) { d->data[PB_RELOC_RVA + 9] = (uint8_t)(d->data[PB_RELOC_RVA + 9] | 0xf0); }
static void reloc_type_high(struct pb_image *d) { d->data[PB_RELOC_RVA + 9] = (uint8_t)((d->data[PB_RELOC_RVA + 9] & 0x0f) | 0x10); }
static void reloc_target_outside(struct pb_image *d) { memcpy(d->data + PB_RELOC_RVA, "\0\0\1\0", 4); }
static void reloc_target_page_huge(struct pb_image *d) { memcpy(d->data + PB_RELOC_RVA, "\0\xf0\xff\xff", 4); }

static void reloc_target_straddles_end(struct pb_image *d)
{
	uint32_t page = PB_RELOC_RVA;
	uint16_t e = IMAGE_REL_BASED_DIR64 << 12 | 0xffc;

	memcpy(d->data + PB_RELOC_RVA, &page, 4);
	memcpy(d->data + PB_RELOC_RVA + 8, &e, 2);
}

static void reloc_block_misaligned(struct pb_image *d)
{
	/* A 10-byte block (one entry, no padding) puts the next block at 2 mod 4. */
	uint8_t blk[] = { 0x00, 0x30, 0, 0, 10, 0, 0, 0, 0x08, 0xa1, /* next: */ 0x00, 0x30, 0, 0, 12, 0, 0, 0, 0, 0, 0, 0 };

	memcpy(d->data + PB_RELOC_RVA, blk, sizeof(blk));
	pb_dir(d, IMAGE_DIRECTORY_ENTRY_BASERELOC)->Size = sizeof(blk);
}

/* One more relocation block, for the header page: a DIR64 over e_lfanew
 * (0x3c, the high half of the quadword at 0x38).  Relocating rewrites it;
 * the loader must keep reading the headers where it validated them. */
static void reloc_rewrites_headers(struct pb_image *d)
{
	IMAGE_DATA_DIRECTORY *dir = pb_dir(d, IMAGE_DIRECTORY_ENTRY_BASERELOC);
	uint8_t blk[12] = { 0, 0, 0, 0, 12, 0, 0, 0, 0x38, IMAGE_REL_BASED_DIR64 << 4, 0, 0 };
	uint32_t at = (dir->VirtualAddress + dir->Size + 3) & ~3u;

	memcpy(d->data + at, blk, sizeof(blk));
	dir->Size = at + sizeof(blk) - dir->VirtualAddress;
}

static void strip_relocs(struct pb_image *d)
{
	pb_nt(d)->FileHeader.Characteristics |= IMAGE_FILE_RELOCS_STRIPPED;
	memset(pb_dir(d, IMAGE_DIRECTORY_ENTRY_BASERELOC), 0, sizeof(IMAGE_DATA_DIRECTORY));
}

static IMAGE_EXPORT_DIRECTORY *export_dir(struct pb_image *d)
{
	return pb_at(d, PB_EXPORT_RVA);
}

static void exports_funcs_outside(struct pb_image *d) { export_dir(d)->AddressOfFunctions = 0x100000; }
static void exports_names_outside(struct pb_image *d) { export_dir(d)->AddressOfNames = 0x100000; }
static void exports_ords_outside(struct pb_image *d) { export_dir(d)->AddressOfNameOrdinals = 0xfffffffe; }
static void exports_count_overflow(struct pb_image *d) { export_dir(d)->NumberOfFunctions = 0x40000001; }
static void exports_names_overflow(struct pb_image *d) { export_dir(d)->NumberOfNames = 0x80000001; }
static void exports_func_outside(struct pb_image *d) { memcpy(d->data + d->export_funcs_rva + 4, "\0\0\1\0", 4); }
static void exports_name_outside(struct pb_image *d) { memcpy(d->data + d->export_names_rva + 4, "\0\0\1\0", 4); }
static void exports_ordinal_bad(struct pb_image *d) { memcpy(d->data + d->export_ords_rva + 2, "\xff\x01", 2); }
static void exports_dir_tiny(struct pb_image *d) { pb_dir(d, IMAGE_DIRECTORY_ENTRY_EXPORT)->Size = 8; }
/* The export directory and its function table at odd addresses in the
 * scratch space, as real images have them (Windows and Wine load those;
 * a control, not a defect). */
static void exports_odd(struct pb_image *d)
{
	IMAGE_EXPORT_DIRECTORY ed;
	uint32_t dir = PB_SCRATCH_RVA + 0x11, funcs = PB_SCRATCH_RVA + 0x81;

	memcpy(&ed, export_dir(d), sizeof(ed));
	memcpy(d->data + funcs, d->data + ed.AddressOfFunctions, ed.NumberOfFunctions * 4);
	ed.AddressOfFunctions = funcs;
	memcpy(d->data + dir, &ed, sizeof(ed));
	pb_dir(d, IMAGE_DIRECTORY_ENTRY_EXPORT)->VirtualAddress = dir;
	pb_dir(d, IMAGE_DIRECTORY_ENTRY_EXPORT)->Size = sizeof(ed);
}

static void exports_forwarder_unterminated(struct pb_image *d)
{
	uint32_t rva = PB_TAIL_RVA;

	memset(d->data + PB_TAIL_RVA, 'a', PB_IMAGE_SIZE - PB_TAIL_RVA);
	memcpy(d->data + d->export_funcs_rva + 4, &rva, 4);
	pb_dir(d, IMAGE_DIRECTORY_ENTRY_EXPORT)->Size = PB_IMAGE_SIZE - PB_EXPORT_RVA;
}

static void gen_dlls(void)
{
	char dll[64];

	/* Controls: a DLL at the exe's own base (so it is relocated), a
	 * forwarder chain into another PE DLL and a builtin. */
	value_dll("control-dll-relocated.dll", PB_EXE_BASE, 43, NULL);
	exe_importing("control-dll-relocated", "control-dll-relocated.dll", "Value", 0, 43, "");
	value_dll("control-reloc-rewrites-headers.dll", PB_EXE_BASE, 48, reloc_rewrites_headers);
	exe_importing("control-reloc-rewrites-headers", "control-reloc-rewrites-headers.dll", "Value", 0, 48, "");
	value_dll("control-import-by-ordinal.dll", 0, 44, NULL);
	exe_importing("control-import-by-ordinal", "control-import-by-ordinal.dll", NULL, 2, 44, "");
	value_dll("Control-Case-Insensitive.DLL", 0, 46, NULL);
	exe_importing("control-case-insensitive", "CONTROL-case-INSENSITIVE.dll", "Value", 0, 46, "");
	{
		struct pb_spec a = { .dll = 1, .nr_exports = 2 };
		struct pb_image d;

		a.exports[0] = (struct pb_export){ "GetLastErr", "KERNEL32.GetLastError", 0 };
		a.exports[1] = (struct pb_export){ "Value", "control-forwarder-b.#2", 0 };
		build(&a, &d);
		write_file("control-forwarder-a.dll", d.data, d.size);
		pb_free(&d);
		value_dll("control-forwarder-b.dll", 0x190000000ull, 45, NULL);
		exe_importing("control-forwarder", "control-forwarder-a.dll", "Value", 0, 45, "");
	}

	exe_importing("missing-dll", "no-such-library.dll", "Foo", 0, BAD, "no-such-library.dll|missing-dll.exe");
	value_dll("import-name-missing-from-dll.dll", 0, 5, NULL);
	exe_importing("import-name-missing-from-dll", "import-name-missing-from-dll.dll", "NotThere", 0, BAD,
		      "NotThere|import-name-missing-from-dll.dll|import-name-missing-from-dll.exe");
	value_dll("import-ordinal-missing-from-dll.dll", 0, 5, NULL);
	exe_importing("import-ordinal-missing-from-dll", "import-ordinal-missing-from-dll.dll", NULL, 77, BAD,
		      "77|import-ordinal-missing-from-dll.dll|import-ordinal-missing-from-dll.exe");

	/* Relocation defects: the DLL wants the exe's base, so it must move. */
	bad_dll("reloc-block-size-too-small", PB_EXE_BASE, reloc_block_size_small, NULL);
	bad_dll("reloc-block-size-zero", PB_EXE_BASE, reloc_block_size_zero, NULL);
	bad_dll("reloc-block-size-odd", PB_EXE_BASE, reloc_block_size_odd, NULL);
	bad_dll("reloc-block-size-beyond-directory", PB_EXE_BASE, reloc_block_size_huge, NULL);
	bad_dll("reloc-block-misaligned", PB_EXE_BASE, reloc_block_misaligned, NULL);
	bad_dll("reloc-unknown-type", PB_EXE_BASE, reloc_unknown_type, NULL);
	bad_dll("reloc-type-high", PB_EXE_BASE, reloc_type_high, NULL);
	bad_dll("reloc-target-outside-image", PB_EXE_BASE, reloc_target_outside, NULL);
	bad_dll("reloc-target-page-huge", PB_EXE_BASE, reloc_target_page_huge, NULL);
	bad_dll("reloc-target-straddles-image-end", PB_EXE_BASE, reloc_target_straddles_end, NULL);
	bad_dll("dll-base-taken-no-relocs", PB_EXE_BASE, strip_relocs, NULL);

	/* Export directory defects. */
	bad_dll("exports-functions-outside-image", 0, exports_funcs_outside, NULL);
	bad_dll("exports-names-outside-image", 0, exports_names_outside, NULL);
	bad_dll("exports-ordinals-outside-image", 0, exports_ords_outside, NULL);
	bad_dll("exports-function-count-overflow", 0, exports_count_overflow, NULL);
	bad_dll("exports-name-count-overflow", 0, exports_names_overflow, NULL);
	bad_dll("exports-function-outside-image", 0, exports_func_outside, NULL);
	bad_dll("exports-name-outside-image", 0, exports_name_outside, NULL);
	bad_dll("exports-ordinal-beyond-functions", 0, exports_ordinal_bad, NULL);
	bad_dll("exports-directory-too-small", 0, exports_dir_tiny, NULL);
	value_dll("control-exports-odd.dll", 0, 49, exports_odd);
	exe_importing("control-exports-odd", "control-exports-odd.dll", "Value", 0, 49, "");
	/* Go's linker leaves import lookup tables 2-aligned: Windows loads
	 * those, so the control's is copied to an address that is 2 mod 8. */
	{
		struct pb_spec spec = { .call_import = 1, .nr_imports = 1 };
		IMAGE_IMPORT_DESCRIPTOR *desc;
		uint32_t ilt = PB_SCRATCH_RVA + 0x102;

		value_dll("control-import-lookup-2-aligned.dll", 0, 50, NULL);
		spec.imports[0] = (struct pb_import){ "control-import-lookup-2-aligned.dll", "Value", 0 };
		pb_free(&img);
		build(&spec, &img);
		desc = pb_at(&img, img.import_desc_rva);
		memcpy(img.data + ilt, img.data + img.ilt_rva[0], 16); /* the entry and the terminator */
		desc->OriginalFirstThunk = ilt;
		write_file("control-import-lookup-2-aligned.exe", img.data, img.size);
		add_case("control-import-lookup-2-aligned", "control-import-lookup-2-aligned.exe", 50, "");
	}
	bad_dll("exports-forwarder-unterminated", 0, exports_forwarder_unterminated, NULL);

	/* Forwarders that go nowhere. */
	{
		struct pb_spec a = { .dll = 1, .nr_exports = 1 };
		struct pb_image d;

		a.exports[0] = (struct pb_export){ "Value", "forwarder-loop-b.Value", 0 };
		build(&a, &d);
		write_file("forwarder-loop-a.dll", d.data, d.size);
		pb_free(&d);
		a.exports[0].forward = "forwarder-loop-a.Value";
		a.image_base = 0x190000000ull;
		build(&a, &d);
		a.image_base = 0;
		write_file("forwarder-loop-b.dll", d.data, d.size);
		pb_free(&d);
		exe_importing("forwarder-loop", "forwarder-loop-a.dll", "Value", 0, BAD,
			      "forwarder-loop-|forwarder-loop.exe");
		a.exports[0].forward = "forwarder-self.Value";
		build(&a, &d);
		write_file("forwarder-self.dll", d.data, d.size);
		pb_free(&d);
		exe_importing("forwarder-self", "forwarder-self.dll", "Value", 0, BAD, "forwarder-self");

		a.exports[0].forward = "forwarder-target-missing.Value";
		build(&a, &d);
		write_file("forwarder-to-missing-dll.dll", d.data, d.size);
		pb_free(&d);
		exe_importing("forwarder-to-missing-dll", "forwarder-to-missing-dll.dll", "Value", 0, BAD,
			      "forwarder-target-missing.dll|forwarder-to-missing-dll.dll");

		a.exports[0].forward = "NoDotInThisForwarder";
		build(&a, &d);
		write_file("forwarder-without-dot.dll", d.data, d.size);
		pb_free(&d);
		exe_importing("forwarder-without-dot", "forwarder-without-dot.dll", "Value", 0, BAD,
			      "forwarder-without-dot.dll");

		a.exports[0].forward = "kernel32.NoSuchKernelFunction";
		build(&a, &d);
		write_file("forwarder-to-missing-builtin.dll", d.data, d.size);
		pb_free(&d);
		exe_importing("forwarder-to-missing-builtin", "forwarder-to-missing-builtin.dll", "Value", 0, BAD,
			      "NoSuchKernelFunction|forwarder-to-missing-builtin.dll");
	}

	/* DllMain says no. */
	{
		struct pb_spec a = { .dll = 1, .dllmain_fails = 1, .nr_exports = 1 };
		struct pb_image d;

		a.exports[0] = (struct pb_export){ "Value", NULL, 5 };
		build(&a, &d);
		write_file("dllmain-fails.dll", d.data, d.size);
		pb_free(&d);
		exe_importing("dllmain-fails", "dllmain-fails.dll", "Value", 0, BAD, "dllmain-fails.dll");
	}

	/* A DLL given as the program. */
	snprintf(dll, sizeof(dll), "dll-as-program.dll");
	value_dll(dll, 0, 5, NULL);
	add_case("dll-as-program", dll, BAD, "dll-as-program.dll|not a program");
}

/* ---- TLS ------------------------------------------------------------------- */

static IMAGE_TLS_DIRECTORY64 *tls(void)
{
	return pb_at(&img, PB_TLS_RVA);
}

static void gen_tls(void)
{
	uint64_t base = PB_EXE_BASE;

	fresh_exe();
	tls()->StartAddressOfRawData = 0x1000;
	bad_image("tls-data-outside-image");
	fresh_exe();
	tls()->EndAddressOfRawData = base + PB_IMAGE_SIZE + 0x1000;
	bad_image("tls-data-end-outside-image");
	fresh_exe();
	tls()->EndAddressOfRawData = tls()->StartAddressOfRawData - 1;
	bad_image("tls-data-end-before-start");
	fresh_exe();
	tls()->AddressOfIndex = base + PB_IMAGE_SIZE - 2;
	bad_image("tls-index-outside-image");
	fresh_exe();
	tls()->AddressOfIndex = 0;
	bad_image("tls-index-null");
	fresh_exe();
	tls()->AddressOfCallBacks = 0xdeadbeef000ull;
	bad_image("tls-callbacks-outside-image");
	fresh_exe();
	put64(PB_TLS_RVA + 0x40, 0x1234);
	bad_image("tls-callback-outside-image");
	fresh_exe();
	tls()->AddressOfCallBacks = base + PB_IMAGE_SIZE - 8;
	put64(PB_IMAGE_SIZE - 8, base + PB_TEXT_RVA);
	bad_image("tls-callbacks-unterminated");
	fresh_exe();
	tls()->SizeOfZeroFill = 0xffffffff;
	bad_image("tls-zero-fill-huge");
	fresh_exe();
	pb_dir(&img, IMAGE_DIRECTORY_ENTRY_TLS)->Size = 8;
	bad_image("tls-directory-too-small");
	fresh_exe();
	pb_dir(&img, IMAGE_DIRECTORY_ENTRY_TLS)->VirtualAddress = PB_TLS_RVA + 4;
	bad_image("tls-directory-misaligned");
}

int main(int argc, char **argv)
{
	char path[4096];
	struct pb_spec spec = { .tls = 1, .exit_code = 42 };

	if (argc != 2) {
		fprintf(stderr, "usage: gen OUTDIR\n");
		return 2;
	}
	outdir = argv[1];
	if (mkdir(outdir, 0755) && errno != EEXIST)
		die("%s: %s", outdir, strerror(errno));
	snprintf(path, sizeof(path), "%s/cases", outdir);
	cases = fopen(path, "w");
	if (!cases)
		die("%s: %s", path, strerror(errno));

	build(&spec, &img);
	write_file("control-minimal.exe", img.data, img.size);
	add_case("control-minimal", "control-minimal.exe", 42, "");
	/* ImageBase 0 is legal for a relocatable image: it must move. */
	pb_free(&img);
	spec.base_zero = 1;
	build(&spec, &img);
	write_file("control-image-base-zero.exe", img.data, img.size);
	add_case("control-image-base-zero", "control-image-base-zero.exe", 42, "");

	gen_not_pe();
	gen_truncated();
	gen_headers();
	gen_layout();
	gen_imports();
	gen_dlls();
	gen_tls();
	pb_free(&img);
	if (fclose(cases))
		die("%s: %s", path, strerror(errno));
	return 0;
}
