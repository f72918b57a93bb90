/* The current process object (see process.c). */
#ifndef NDSHIM_PROCESS_H
#define NDSHIM_PROCESS_H

#include "core/object.h"

extern const struct object_ops process_ops;

/* The process object with a new reference. */
struct object *process_current(void);

#endif
