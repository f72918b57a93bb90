/* Finding the version resource in a PE file as it lies on disk: the
 * resource directory (data directory 2) is found through the section
 * that holds it, then RT_VERSION's first name and first language (a
 * file has one version resource, id VS_VERSION_INFO, in whatever
 * language it was built in).  Every offset is checked against the file:
 * the input is any file a program names. */
#include <string.h>

#include "version/version_private.h"

#define RT_VERSION_ID 16

static uint32_t get32(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return v;
}

static uint16_t get16(const uint8_t *p)
{
	uint16_t v;

	memcpy(&v, p, 2);
	return v;
}

struct image {
	const uint8_t *file;
	size_t size;
	const uint8_t *sections;
	unsigned int nsections;
};

/* The file offset of rva (len bytes), or (size_t)-1. */
static size_t rva_to_offset(const struct image *img, uint32_t rva, uint32_t len)
{
	for (unsigned int i = 0; i < img->nsections; i++) {
		const uint8_t *s = img->sections + i * 40;
		uint32_t va = get32(s + 12), raw_size = get32(s + 16), raw = get32(s + 20);
		if (rva >= va && (uint64_t)rva - va + len <= raw_size) {
			uint64_t off = (uint64_t)raw + (rva - va);
			if (off + len <= img->size)
				return (size_t)off;
		}
	}
	return (size_t)-1;
}

/* The entry of a resource directory (at dir, inside the resource data
 * of rsrc_size bytes) with the given id, or its first entry when id is
 * 0; the entry's offset field, or (uint32_t)-1. */
static uint32_t dir_entry(const uint8_t *rsrc, size_t rsrc_size, uint32_t dir, unsigned int id)
{
	unsigned int named, ids;

	if ((uint64_t)dir + 16 > rsrc_size)
		return (uint32_t)-1;
	named = get16(rsrc + dir + 12);
	ids = get16(rsrc + dir + 14);
	if ((uint64_t)dir + 16 + (uint64_t)(named + ids) * 8 > rsrc_size)
		return (uint32_t)-1;
	for (unsigned int i = 0; i < named + ids; i++) {
		const uint8_t *e = rsrc + dir + 16 + i * 8;
		uint32_t name = get32(e);
		if (!id || (!(name & 0x80000000u) && name == id))
			return get32(e + 4);
	}
	return (uint32_t)-1;
}

DWORD version_find_resource(const uint8_t *file, size_t size, size_t *off, size_t *len)
{
	struct image img = { file, size, NULL, 0 };
	uint32_t pe, opt_size, rva, dsize, e;
	size_t rsrc_off, data_off;
	const uint8_t *opt, *rsrc;
	unsigned int ndirs;

	if (size < 64 || file[0] != 'M' || file[1] != 'Z')
		return ERROR_BAD_FORMAT;
	pe = get32(file + 60);
	if ((uint64_t)pe + 24 > size || memcmp(file + pe, "PE\0\0", 4))
		return ERROR_BAD_FORMAT;
	img.nsections = get16(file + pe + 6);
	opt_size = get16(file + pe + 20);
	opt = file + pe + 24;
	if ((uint64_t)pe + 24 + opt_size + (uint64_t)img.nsections * 40 > size)
		return ERROR_BAD_FORMAT;
	img.sections = opt + opt_size;
	/* PE32 (0x10b) and PE32+ (0x20b) keep the data directories at
	 * different offsets. */
	if (opt_size >= 2 && get16(opt) == 0x20b && opt_size >= 112 + 3 * 8) {
		ndirs = get32(opt + 108);
		opt += 112;
	} else if (opt_size >= 2 && get16(opt) == 0x10b && opt_size >= 96 + 3 * 8) {
		ndirs = get32(opt + 92);
		opt += 96;
	} else {
		return ERROR_BAD_FORMAT;
	}
	if (ndirs < 3)
		return ERROR_RESOURCE_TYPE_NOT_FOUND;
	rva = get32(opt + 16);
	dsize = get32(opt + 20);
	if (!rva || !dsize)
		return ERROR_RESOURCE_TYPE_NOT_FOUND;
	rsrc_off = rva_to_offset(&img, rva, dsize);
	if (rsrc_off == (size_t)-1)
		return ERROR_BAD_FORMAT;
	rsrc = file + rsrc_off;

	/* type -> name -> language -> data entry; subdirectories have the
	 * high bit set, the data entry does not. */
	e = dir_entry(rsrc, dsize, 0, RT_VERSION_ID);
	if (e == (uint32_t)-1 || !(e & 0x80000000u))
		return ERROR_RESOURCE_TYPE_NOT_FOUND;
	e = dir_entry(rsrc, dsize, e & 0x7fffffffu, 0);
	if (e == (uint32_t)-1 || !(e & 0x80000000u))
		return ERROR_RESOURCE_DATA_NOT_FOUND;
	e = dir_entry(rsrc, dsize, e & 0x7fffffffu, 0);
	if (e == (uint32_t)-1 || (e & 0x80000000u) || (uint64_t)e + 16 > dsize)
		return ERROR_RESOURCE_DATA_NOT_FOUND;
	data_off = rva_to_offset(&img, get32(rsrc + e), get32(rsrc + e + 4));
	if (data_off == (size_t)-1)
		return ERROR_RESOURCE_DATA_NOT_FOUND;
	*off = data_off;
	*len = get32(rsrc + e + 4);
	return 0;
}
