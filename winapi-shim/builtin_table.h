/* Expands one DLL's .spec into its export table.  A DLL's exports.c is:
 *
 *     #include "kernel32_private.h"    (prototypes of every export)
 *     #define BUILTIN_NAME kernel32
 *     #define BUILTIN_SPEC "kernel32/kernel32.spec"
 *     #include "builtin_table.h"
 *
 * which defines `const struct builtin_dll builtin_kernel32`.  Define
 * BUILTIN_DETACH as a function name to be called at process exit, and
 * BUILTIN_STOP as one to be called when ndrun stops the program, and
 * BUILTIN_ALSO as the builtin_dll whose exports answer for names this
 * one lacks. */
#include "builtin.h"

#define EXPORT(name) { #name, (const void *)&name, 0 },
#define EXPORT_AS(name, sym) { #name, (const void *)&sym, 0 },
#define EXPORT_ORD(name, ord) { #name, (const void *)&name, ord },
#define EXPORT_ORD_AS(name, ord, sym) { #name, (const void *)&sym, ord },

#define BUILTIN_CAT_(a, b) a##b
#define BUILTIN_CAT(a, b) BUILTIN_CAT_(a, b)
#define BUILTIN_STR_(a) #a
#define BUILTIN_STR(a) BUILTIN_STR_(a)

static const struct builtin_export BUILTIN_CAT(BUILTIN_NAME, _exports)[] = {
#include BUILTIN_SPEC
};

#ifdef BUILTIN_ALSO
extern const struct builtin_dll BUILTIN_ALSO;
#endif
extern const struct builtin_dll BUILTIN_CAT(builtin_, BUILTIN_NAME);
const struct builtin_dll BUILTIN_CAT(builtin_, BUILTIN_NAME) = {
	BUILTIN_STR(BUILTIN_NAME) ".dll",
	BUILTIN_CAT(BUILTIN_NAME, _exports),
	sizeof(BUILTIN_CAT(BUILTIN_NAME, _exports)) / sizeof(struct builtin_export),
#ifdef BUILTIN_DETACH
	BUILTIN_DETACH,
#else
	NULL,
#endif
#ifdef BUILTIN_STOP
	BUILTIN_STOP,
#else
	NULL,
#endif
#ifdef BUILTIN_ALSO
	&BUILTIN_ALSO,
#else
	NULL,
#endif
};

#undef EXPORT
#undef EXPORT_AS
#undef EXPORT_ORD
#undef EXPORT_ORD_AS
