/* pe_parse on valid and broken images, pe_check_range, and
 * pe_apply_relocations on hand-made relocation blocks. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "pe_builder.h"
#include "pe_dirs.h"
#include "pe_image.h"
#include "pe_map.h"

static struct pb_image img;

static void fresh(int dll)
{
	struct pb_spec spec = { .dll = dll, .tls = !dll, .exit_code = 3, .nr_exports = dll };

	spec.exports[0] = (struct pb_export){ "Value", NULL, 1 };
	pb_free(&img);
	assert_int_equal(pb_build(&spec, &img), 0);
}

/* pe_parse over an exact-size heap copy, so that any read past the end
 * is an error under ASan and valgrind.  Returns pe_parse's result. */
static int parse(const void *data, size_t size, struct pe_image *out, char *err, size_t errlen)
{
	void *copy = malloc(size ? size : 1);
	int ret;

	assert_non_null(copy);
	memcpy(copy, data, size);
	err[0] = 0;
	ret = pe_parse(copy, size, out, err, errlen);
	free(copy);
	return ret;
}

static IMAGE_OPTIONAL_HEADER64 *opt(void)
{
	return &pb_nt(&img)->OptionalHeader;
}

static void test_valid_exe(void **state)
{
	struct pe_image pe;
	char err[256];

	fresh(0);
	assert_int_equal(pe_parse(img.data, img.size, &pe, err, sizeof(err)), 0);
	assert_int_equal(pe.image_base, PB_EXE_BASE);
	assert_int_equal(pe.size_of_image, PB_IMAGE_SIZE);
	assert_int_equal(pe.size_of_headers, 0x1000);
	assert_int_equal(pe.section_alignment, 0x1000);
	assert_int_equal(pe.entry_rva, PB_TEXT_RVA);
	assert_int_equal(pe.nr_sections, PB_NR_SECTIONS);
	assert_false(pe.is_dll);
	assert_true(pe.relocatable);
	assert_ptr_equal(pe.nt, img.data + PB_NT_OFF);
	assert_memory_equal(pe.sections[1].Name, ".rdata", 6);
	assert_non_null(pe_directory(&pe, IMAGE_DIRECTORY_ENTRY_IMPORT));
	assert_non_null(pe_directory(&pe, IMAGE_DIRECTORY_ENTRY_TLS));
	assert_null(pe_directory(&pe, IMAGE_DIRECTORY_ENTRY_EXPORT));
	assert_null(pe_directory(&pe, 40));
}

/* lld places the import directory at any 2-byte boundary inside .rdata;
 * Windows loads it, so must pe_parse and the import walk. */
static void test_import_dir_unaligned(void **state)
{
	IMAGE_DATA_DIRECTORY *dir;
	const pe_import_desc *desc;
	const char *dll;
	struct pe_image pe;
	char err[256];

	fresh(0);
	dir = &opt()->DataDirectory[IMAGE_DIRECTORY_ENTRY_IMPORT];
	/* the descriptors and the null one after them move up by 2 bytes */
	memmove(img.data + PB_RDATA_RVA + 2, img.data + PB_RDATA_RVA, 3 * sizeof(IMAGE_IMPORT_DESCRIPTOR));
	dir->VirtualAddress += 2;
	assert_int_equal(pe_parse(img.data, img.size, &pe, err, sizeof(err)), 0);
	assert_int_equal(pe_import_descriptor(img.data, img.size, pe_directory(&pe, IMAGE_DIRECTORY_ENTRY_IMPORT), 0,
					      &desc, &dll),
			 PE_WALK_ENTRY);
	assert_ptr_equal(desc, img.data + PB_RDATA_RVA + 2);
	assert_non_null(dll);
}

static void test_valid_dll(void **state)
{
	struct pe_image pe;
	char err[256];

	fresh(1);
	assert_int_equal(pe_parse(img.data, img.size, &pe, err, sizeof(err)), 0);
	assert_true(pe.is_dll);
	assert_int_equal(pe.image_base, PB_DLL_BASE);
	assert_non_null(pe_directory(&pe, IMAGE_DIRECTORY_ENTRY_EXPORT));

	/* A DLL needs no entry point. */
	opt()->AddressOfEntryPoint = 0;
	assert_int_equal(pe_parse(img.data, img.size, &pe, err, sizeof(err)), 0);
	assert_int_equal(pe.entry_rva, 0);

	/* Relocations stripped: parsed, but not relocatable. */
	pb_nt(&img)->FileHeader.Characteristics |= IMAGE_FILE_RELOCS_STRIPPED;
	assert_int_equal(pe_parse(img.data, img.size, &pe, err, sizeof(err)), 0);
	assert_false(pe.relocatable);
}

/* Each defect, and a piece of the message it must produce. */
struct broken {
	const char *what;
	void (*mutate)(void);
	const char *expect;
};

static void m_bad_mz(void) { img.data[0] = 'N'; }
static void m_lfanew_out(void) { pb_dos(&img)->e_lfanew = PB_IMAGE_SIZE; }
static void m_lfanew_negative(void) { pb_dos(&img)->e_lfanew = -8; }
static void m_lfanew_misaligned(void) { pb_dos(&img)->e_lfanew = PB_NT_OFF + 4; }
static void m_bad_sig(void) { pb_nt(&img)->Signature = 0x00014550; /* "PE\1\0" */ }
static void m_i386(void) { pb_nt(&img)->FileHeader.Machine = IMAGE_FILE_MACHINE_I386; }
static void m_arm64(void) { pb_nt(&img)->FileHeader.Machine = IMAGE_FILE_MACHINE_ARM64; }
static void m_machine_unknown(void) { pb_nt(&img)->FileHeader.Machine = 0x1234; }
static void m_object(void) { pb_nt(&img)->FileHeader.Characteristics &= ~IMAGE_FILE_EXECUTABLE_IMAGE; }
static void m_soh_small(void) { pb_nt(&img)->FileHeader.SizeOfOptionalHeader = 0x40; }
static void m_soh_odd(void) { pb_nt(&img)->FileHeader.SizeOfOptionalHeader += 2; }
static void m_pe32(void) { opt()->Magic = IMAGE_NT_OPTIONAL_HDR32_MAGIC; }
static void m_magic(void) { opt()->Magic = 0x1234; }
static void m_rva_sizes(void) { opt()->NumberOfRvaAndSizes = 17; }
static void m_sections(void) { pb_nt(&img)->FileHeader.NumberOfSections = 200; }
static void m_sec_align(void) { opt()->SectionAlignment = 0x1800; }
static void m_file_align(void) { opt()->FileAlignment = 0x2000; }
static void m_image_size(void) { opt()->SizeOfImage = 0; }
static void m_image_huge(void) { opt()->SizeOfImage = 0x90000000; }
static void m_headers(void) { opt()->SizeOfHeaders = 0x100; }
static void m_base(void) { opt()->ImageBase = 0x140008000ull; }
static void m_entry_out(void) { opt()->AddressOfEntryPoint = PB_IMAGE_SIZE; }
static void m_entry_data(void) { opt()->AddressOfEntryPoint = PB_DATA_RVA + 8; }
static void m_no_entry(void) { opt()->AddressOfEntryPoint = 0; }
static void m_sec_misaligned(void) { pb_section(&img, 2)->VirtualAddress += 0x10; }
static void m_sec_overlap(void) { pb_section(&img, 2)->VirtualAddress = PB_RDATA_RVA; }
static void m_sec_past(void) { pb_section(&img, 3)->Misc.VirtualSize = 0x2000; }
static void m_sec_raw(void) { pb_section(&img, 1)->PointerToRawData = 0x7fff0000; }
static void m_dir_out(void) { pb_dir(&img, IMAGE_DIRECTORY_ENTRY_IMPORT)->Size = 0xfffffff0; }
static void m_dir_misaligned(void) { pb_dir(&img, IMAGE_DIRECTORY_ENTRY_TLS)->VirtualAddress += 4; }

static const struct broken broken[] = {
	{ "bad MZ", m_bad_mz, "no MZ header" },
	{ "e_lfanew past the end", m_lfanew_out, "PE header offset 0x5000 outside the file" },
	{ "e_lfanew negative", m_lfanew_negative, "outside the file" },
	{ "e_lfanew misaligned", m_lfanew_misaligned, "not 8-byte aligned" },
	{ "bad PE signature", m_bad_sig, "without a PE signature" },
	{ "i386", m_i386, "i386" },
	{ "ARM64", m_arm64, "ARM64" },
	{ "unknown machine", m_machine_unknown, "unknown type 0x1234" },
	{ "object file", m_object, "not an executable image" },
	{ "optional header too small", m_soh_small, "truncated optional header" },
	{ "optional header size odd", m_soh_odd, "SizeOfOptionalHeader" },
	{ "PE32", m_pe32, "PE32" },
	{ "unknown magic", m_magic, "magic 0x1234" },
	{ "17 data directories", m_rva_sizes, "17 data directories" },
	{ "200 sections", m_sections, "too many sections (200)" },
	{ "SectionAlignment", m_sec_align, "SectionAlignment 0x1800" },
	{ "FileAlignment > SectionAlignment", m_file_align, "FileAlignment 0x2000" },
	{ "SizeOfImage 0", m_image_size, "SizeOfImage 0x0" },
	{ "SizeOfImage huge", m_image_huge, "SizeOfImage 0x90000000" },
	{ "SizeOfHeaders", m_headers, "SizeOfHeaders 0x100" },
	{ "ImageBase", m_base, "not 64 KiB aligned" },
	{ "entry outside", m_entry_out, "entry point 0x5000 lies outside" },
	{ "entry in data", m_entry_data, "not in an executable section" },
	{ "no entry", m_no_entry, "without an entry point" },
	{ "section misaligned", m_sec_misaligned, "section 2 (.data) is not aligned" },
	{ "sections overlap", m_sec_overlap, "section 2 (.data) overlaps" },
	{ "section past SizeOfImage", m_sec_past, "section 3 (.reloc) extends past SizeOfImage" },
	{ "section outside the file", m_sec_raw, "section 1 (.rdata) lies outside the file" },
	{ "directory outside", m_dir_out, "data directory 1" },
	{ "directory misaligned", m_dir_misaligned, "data directory 9 (0x2c04) is misaligned" },
};

static void test_broken_headers(void **state)
{
	struct pe_image pe;
	char err[256];

	for (size_t i = 0; i < sizeof(broken) / sizeof(broken[0]); i++) {
		fresh(0);
		broken[i].mutate();
		if (parse(img.data, img.size, &pe, err, sizeof(err)) != -1)
			fail_msg("%s: accepted", broken[i].what);
		if (!strstr(err, broken[i].expect))
			fail_msg("%s: got \"%s\", expected \"%s\"", broken[i].what, err, broken[i].expect);
	}
}

/* Every cut of the file fails cleanly (the last section's data is all
 * needed), and nothing is read past the cut. */
static void test_truncated_everywhere(void **state)
{
	struct pe_image pe;
	char err[256];

	fresh(0);
	for (size_t n = 0; n < img.size; n += n < 0x1100 ? 1 : 0x3f) {
		if (parse(img.data, n, &pe, err, sizeof(err)) != -1)
			fail_msg("truncated to 0x%zx bytes: accepted", n);
		assert_true(err[0] != 0);
	}
	assert_int_equal(parse(img.data, img.size, &pe, err, sizeof(err)), 0);
}

/* Random corruption of the headers: accepted or refused with a message,
 * never a stray read (ASan/valgrind watch the exact-size copy). */
static void test_random_header_corruption(void **state)
{
	struct pe_image pe;
	char err[256];
	uint32_t x = 2024;

	for (int round = 0; round < 3000; round++) {
		fresh(round & 1);
		for (int k = 0; k < 1 + round % 4; k++) {
			x = x * 1664525 + 1013904223;
			img.data[(x >> 8) % 0x220] = (uint8_t)(x >> 24);
		}
		if (parse(img.data, img.size, &pe, err, sizeof(err)))
			assert_true(err[0] != 0);
	}
}

static void test_check_range(void **state)
{
	assert_int_equal(pe_check_range(0x1000, 0, 0x1000), 0);
	assert_int_equal(pe_check_range(0x1000, 0xfff, 1), 0);
	assert_int_equal(pe_check_range(0x1000, 0x1000, 0), 0);
	assert_int_equal(pe_check_range(0x1000, 0xfff, 2), -1);
	assert_int_equal(pe_check_range(0x1000, 0x1001, 0), -1);
	assert_int_equal(pe_check_range(0x1000, 0, 0x1001), -1);
	/* rva + size wraps 32 bits */
	assert_int_equal(pe_check_range(0x1000, 0xffffffff, 2), -1);
	assert_int_equal(pe_check_range(0x1000, 2, 0xffffffff), -1);
	assert_int_equal(pe_check_range(0xffffffff, 0xffffffff, 0xffffffff), -1);
	assert_int_equal(pe_check_range(0xffffffff, 0x80000000, 0x7fffffff), 0);
	assert_int_equal(pe_check_range(0, 0, 0), 0);
	assert_int_equal(pe_check_range(0, 0, 1), -1);
}

/* ---- relocations ---------------------------------------------------------- */

#define RIMG 0x3000
#define RDIR 0x2000

static uint8_t *rbuf;

static void reloc_image(const struct pb_reloc *relocs, unsigned int n, IMAGE_DATA_DIRECTORY *dir)
{
	uint64_t v64 = 0x140001000ull;
	uint32_t v32 = 0x40001000u;

	free(rbuf);
	rbuf = calloc(1, RIMG);
	assert_non_null(rbuf);
	memcpy(rbuf + 0x1000, &v64, 8);
	memcpy(rbuf + 0x1010, &v32, 4);
	memcpy(rbuf + 0x1021, &v64, 8); /* misaligned: an imm64 in code */
	memcpy(rbuf + 0x1030, &v64, 8); /* ABSOLUTE entry: left alone */
	dir->VirtualAddress = RDIR;
	dir->Size = pb_make_relocs(rbuf + RDIR, RIMG - RDIR, relocs, n);
	assert_true(dir->Size > 0);
}

static uint64_t get64(uint32_t rva)
{
	uint64_t v;
	memcpy(&v, rbuf + rva, 8);
	return v;
}

static uint32_t get32(uint32_t rva)
{
	uint32_t v;
	memcpy(&v, rbuf + rva, 4);
	return v;
}

static const struct pb_reloc good_relocs[] = {
	{ 0x1000, IMAGE_REL_BASED_DIR64 },
	{ 0x1010, IMAGE_REL_BASED_HIGHLOW },
	{ 0x1021, IMAGE_REL_BASED_DIR64 },
	{ 0x1030, IMAGE_REL_BASED_ABSOLUTE },
};

static void test_relocations_applied(void **state)
{
	IMAGE_DATA_DIRECTORY dir;
	char err[256] = "";

	reloc_image(good_relocs, 4, &dir);
	assert_int_equal(pe_apply_relocations(rbuf, RIMG, &dir, 0x7f0000000000ll, err, sizeof(err)), 0);
	assert_int_equal(get64(0x1000), 0x7f0140001000ull);
	assert_int_equal(get32(0x1010), 0x40001000u); /* the low 32 bits of the delta are 0 */
	assert_int_equal(get64(0x1021), 0x7f0140001000ull);
	assert_int_equal(get64(0x1030), 0x140001000ull);

	reloc_image(good_relocs, 4, &dir);
	assert_int_equal(pe_apply_relocations(rbuf, RIMG, &dir, -0x10000, err, sizeof(err)), 0);
	assert_int_equal(get64(0x1000), 0x13fff1000ull);
	assert_int_equal(get32(0x1010), 0x3fff1000u);
	assert_int_equal(get64(0x1021), 0x13fff1000ull);

	/* An empty directory is no work. */
	dir.Size = 0;
	assert_int_equal(pe_apply_relocations(rbuf, RIMG, &dir, 0x10000, err, sizeof(err)), 0);
	assert_int_equal(get64(0x1000), 0x13fff1000ull);
}

static void set_block_size(uint32_t size)
{
	memcpy(rbuf + RDIR + 4, &size, 4);
}

static void expect_reloc_error(const IMAGE_DATA_DIRECTORY *dir, const char *expect)
{
	char err[256] = "";

	assert_int_equal(pe_apply_relocations(rbuf, RIMG, dir, 0x10000, err, sizeof(err)), -1);
	if (!strstr(err, expect))
		fail_msg("got \"%s\", expected \"%s\"", err, expect);
}

static void test_relocations_broken(void **state)
{
	static const struct pb_reloc unknown[] = { { 0x1000, 7 } };
	static const struct pb_reloc high[] = { { 0x1000, IMAGE_REL_BASED_HIGH } };
	static const struct pb_reloc outside[] = { { RIMG - 4, IMAGE_REL_BASED_DIR64 } };
	static const struct pb_reloc outside32[] = { { RIMG - 2, IMAGE_REL_BASED_HIGHLOW } };
	IMAGE_DATA_DIRECTORY dir;

	reloc_image(good_relocs, 4, &dir);
	set_block_size(4);
	expect_reloc_error(&dir, "corrupt base relocation block at 0x2000");
	set_block_size(0);
	expect_reloc_error(&dir, "corrupt base relocation block");
	set_block_size(14); /* even, but not a multiple of 4 */
	expect_reloc_error(&dir, "corrupt base relocation block");
	set_block_size(dir.Size + 4);
	expect_reloc_error(&dir, "corrupt base relocation block");

	reloc_image(unknown, 1, &dir);
	expect_reloc_error(&dir, "unsupported base relocation type 7 at 0x1000");
	reloc_image(high, 1, &dir);
	expect_reloc_error(&dir, "unsupported base relocation type 1");
	reloc_image(outside, 1, &dir);
	expect_reloc_error(&dir, "base relocation at 0x2ffc lies outside the image");
	reloc_image(outside32, 1, &dir);
	expect_reloc_error(&dir, "base relocation at 0x2ffe lies outside the image");

	/* A block whose page is far outside the image. */
	reloc_image(good_relocs, 1, &dir);
	memcpy(rbuf + RDIR, "\0\0\0\x80", 4);
	expect_reloc_error(&dir, "lies outside the image");

	/* A second block cut short by the directory size. */
	reloc_image(good_relocs, 4, &dir);
	dir.Size += 10;
	memcpy(rbuf + RDIR + dir.Size - 10, "\0\x10\0\0\x10\0\0\0", 8);
	expect_reloc_error(&dir, "corrupt base relocation block");
}

static int teardown(void **state)
{
	pb_free(&img);
	free(rbuf);
	rbuf = NULL;
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_valid_exe),
		cmocka_unit_test(test_valid_dll),
		cmocka_unit_test(test_import_dir_unaligned),
		cmocka_unit_test(test_broken_headers),
		cmocka_unit_test(test_truncated_everywhere),
		cmocka_unit_test(test_random_header_corruption),
		cmocka_unit_test(test_check_range),
		cmocka_unit_test(test_relocations_applied),
		cmocka_unit_test(test_relocations_broken),
	};
	return cmocka_run_group_tests(tests, NULL, teardown);
}
