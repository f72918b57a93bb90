/* The system message table for FormatMessage (kernel32/sysmsg.c). */
#ifndef NDSHIM_SYSMSG_H
#define NDSHIM_SYSMSG_H

#include <windef.h>

/* The English text of a system message, without its trailing "\r\n"
 * (FormatMessage adds it), or NULL when the table does not have it. */
const char *sysmsg_lookup(DWORD id);

#endif
