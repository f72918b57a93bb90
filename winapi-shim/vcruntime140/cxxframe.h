/* The MSVC x64 C++ exception-handling data (FH3 layout; every address
 * is an RVA of the image that holds it), as the compiler emits it. */
#ifndef NDSHIM_VCRUNTIME140_CXXFRAME_H
#define NDSHIM_VCRUNTIME140_CXXFRAME_H

struct cxx_func_info {
	unsigned int magic;          /* low 29 bits; the top 3 are flags */
	int max_state;
	int unwind_map;
	unsigned int try_count;
	int try_map;
	unsigned int ip_count;
	int ip_map;
	int unwind_help;
	int es_type_list;
	int eh_flags;
};

struct cxx_unwind_entry {
	int to_state;
	int action;
};

struct cxx_try_block {
	int try_low, try_high, catch_high;
	int catch_count;
	int handlers;
};

#define HT_IS_CONST 0x01
#define HT_IS_VOLATILE 0x02
#define HT_IS_REFERENCE 0x08
#define HT_IS_STD_DOTDOT 0x40

struct cxx_handler {
	unsigned int adjectives;
	int type;                    /* TypeDescriptor; 0 for catch(...) */
	int catch_object;            /* frame offset of the parameter, or 0 */
	int handler;                 /* the catch funclet */
	int frame_offset;            /* where the funclet keeps the parent frame */
};

struct cxx_ip_state {
	int ip;
	int state;
};

struct cxx_type_descriptor {
	const void *vtable;
	void *spare;
	char name[];
};

struct cxx_pmd {
	int mdisp, pdisp, vdisp;
};

#define CT_IS_SIMPLE_TYPE 0x01
#define CT_BY_REFERENCE_ONLY 0x02
#define CT_HAS_VIRTUAL_BASE 0x04

struct cxx_catchable_type {
	unsigned int properties;
	int type;
	struct cxx_pmd this_disp;
	int size;
	int copy_ctor;
};

struct cxx_catchable_array {
	int count;
	int types[];
};

#define TI_IS_CONST 0x01
#define TI_IS_VOLATILE 0x02

struct cxx_throw_info {
	unsigned int attributes;
	int destructor;
	int forward_compat;
	int catchable_types;
};

/* A catch as the engine both frame handlers share (cxxframe.c) sees it:
 * FH3's layout, which FH4's compressed tables are decoded into. */
struct cxx_catch {
	ULONG64 parent;              /* establisher frame of the function */
	int in_catch;                /* the frame is one of its catch funclets */
	int try_low, try_high, catch_high;
	struct cxx_handler handler;  /* frame_offset unused */
	ULONG64 cont[2];             /* FH4: continuation addresses, or 0 */
};

int cxx_is_cxx_exception(const EXCEPTION_RECORD *rec);
const struct cxx_catchable_type *cxx_match_type(const struct cxx_type_descriptor *want, unsigned int adjectives,
						const EXCEPTION_RECORD *rec);
void cxx_build_object(void *dest, unsigned int adjectives, const struct cxx_catchable_type *ct,
		      const EXCEPTION_RECORD *rec);
int cxx_object_in_use(const void *object);
int cxx_registered(const void *object);
void cxx_destroy_object(void *object, const struct cxx_throw_info *info, ULONG64 image);
int cxx_search_skips(ULONG64 establisher);
void cxx_try_catch(EXCEPTION_RECORD *rec, DISPATCHER_CONTEXT *disp, const struct cxx_catch *c);
int cxx_unwind_prepare(EXCEPTION_RECORD *rec, DISPATCHER_CONTEXT *disp, int in_catch, ULONG64 parent, int *to);
int cxx_current_catch(void **object, const void **info, ULONG64 *image);
void cxx_uncaught_enter(void);
void cxx_uncaught_leave(void);
EXCEPTION_DISPOSITION __cdecl vcrt___CxxFrameHandler3(EXCEPTION_RECORD *rec, void *frame, CONTEXT *ctx,
						      DISPATCHER_CONTEXT *disp);

#endif
