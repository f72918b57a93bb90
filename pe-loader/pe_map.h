/* Placing a validated PE image in memory. */
#ifndef NDSHIM_PE_MAP_H
#define NDSHIM_PE_MAP_H

#include "pe_image.h"

/* Map img at its preferred base if free, else anywhere 64 KiB aligned
 * (relocating it; an image without relocations that cannot have its
 * base fails).  The image stays writable until pe_protect_image, so the
 * loader can bind imports; img is updated to read the mapped headers, so
 * the file can go.  Returns the base, or NULL with a reason in err. */
void *pe_map_image(struct pe_image *img, char *err, size_t errlen);

/* Give each section its own protection: no page is both writable and
 * executable unless a section asks for it.  0 or -1 (reason in err). */
int pe_protect_image(uint8_t *base, const struct pe_image *img, char *err, size_t errlen);
void pe_unmap_image(void *base, uint32_t size_of_image);

#endif
