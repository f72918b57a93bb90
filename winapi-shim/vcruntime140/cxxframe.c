/* __CxxFrameHandler3: the language handler of x64 functions that MSVC
 * (or clang in MSVC mode) compiles with C++ exception handling.
 *
 * The compiler describes each function with a FuncInfo (all addresses are
 * RVAs of the image): an IP-to-state map giving the "state" (which locals
 * are alive) at each instruction, an unwind map giving for each state the
 * funclet that destroys its newest local and the state that leaves, and
 * the try blocks with their catch handlers.  Catch blocks and destructors
 * are funclets called with the function's establisher frame in rdx.
 *
 * A catch runs as a STATUS_UNWIND_CONSOLIDATE unwind: the frames up to
 * the catching function are unwound (their destructors run), then
 * catch_callback runs the catch funclet on the current stack, where the
 * thrown object still lives, and returns where the function goes on.
 * While a catch funclet runs, its parent function is listed in
 * active_catches: walks reach that function through the funclet (whose
 * states lie in the catch range), so its own frame is skipped. */
#include <string.h>

#include "vcruntime140/vcruntime140_private.h"
#include "vcruntime140/cxxframe.h"
#include "ntdll/seh.h"
/* RtlUnwindEx for a handler implemented in ndrun */
#include "ntdll/seh_private.h"
#include "core/debug.h"
#include "core/pecall.h"

#define STATUS_UNWIND_CONSOLIDATE_CODE 0x80000029u

/* consolidation record parameters: CP_FRAME is the catching function's
 * establisher frame (the funclets' argument), CP_TARGET the frame the
 * unwind stops at: that function's, or that of the catch funclet that
 * holds the catching try block */
enum {
	CP_CALLBACK, CP_FRAME, CP_HANDLER, CP_STATE, CP_RECORD, CP_TARGET, CP_TRY_HIGH, CP_CATCH_HIGH,
	CP_CONT0, CP_CONT1,
	CP_COUNT
};

#define MAX_ACTIVE_CATCHES 64

struct active_catch {
	ULONG64 frame;          /* establisher frame of the catching function */
	ULONG64 target;         /* the frame the catch unwound to */
	int try_high, catch_high; /* the states of the block's try and catches */
	void *object;           /* the thrown object the block sees */
	const struct cxx_throw_info *info;
	ULONG64 image;          /* the image info's RVAs are relative to */
	int abandoned;          /* an unwind left the block */
};

static __thread struct active_catch active[MAX_ACTIVE_CATCHES];
static __thread int nactive;

static void *rva(ULONG64 base, int off)
{
	return off ? (void *)(base + off) : NULL;
}

int cxx_is_cxx_exception(const EXCEPTION_RECORD *rec)
{
	return rec->ExceptionCode == VCRT_CXX_EXCEPTION && rec->NumberParameters >= 4 &&
	       rec->ExceptionInformation[0] >= VCRT_CXX_MAGIC &&
	       rec->ExceptionInformation[0] <= VCRT_CXX_MAGIC + 2;
}

/* The innermost running catch block's exception, for `throw;`. */
int cxx_current_catch(void **object, const void **info, ULONG64 *image)
{
	for (int i = nactive - 1; i >= 0; i--) {
		if (active[i].abandoned)
			continue;
		*object = active[i].object;
		*info = active[i].info;
		*image = active[i].image;
		return 1;
	}
	return 0;
}

/* The catch whose unwind stopped at frame: a walk that reaches frame
 * came through that catch's funclet, which stood for it. */
static int find_target(ULONG64 frame)
{
	for (int i = nactive - 1; i >= 0; i--)
		if (active[i].target == frame)
			return i;
	return -1;
}

/* The frame an unwind to try block tb stops at, from the catch funclet
 * (of the function whose frame is parent) at funclet_frame: the funclet
 * whose catch states hold tb, or the function's own frame.  Running catch
 * blocks of one function nest, outer ones first in the list, and each
 * one's target is the frame of the funclet that holds it. */
static ULONG64 try_target(ULONG64 parent, ULONG64 funclet_frame, int try_low)
{
	int idx[MAX_ACTIVE_CATCHES], k = 0;

	for (int i = 0; i < nactive; i++)
		if (active[i].frame == parent && !active[i].abandoned)
			idx[k++] = i;
	if (!k)
		return parent;
	for (int j = k - 1; j >= 0; j--) {
		const struct active_catch *a = &active[idx[j]];

		if (try_low > a->try_high && try_low <= a->catch_high)
			return j == k - 1 ? funclet_frame : active[idx[j + 1]].target;
	}
	return active[idx[0]].target;
}

static void remove_active(int i)
{
	memmove(&active[i], &active[i + 1], (size_t)(nactive - i - 1) * sizeof(active[0]));
	nactive--;
}

int cxx_object_in_use(const void *object)
{
	if (cxx_registered(object))
		return 1;
	for (int i = 0; i < nactive; i++)
		if (active[i].object == object && !active[i].abandoned)
			return 1;
	return 0;
}

void cxx_destroy_object(void *object, const struct cxx_throw_info *info, ULONG64 image)
{
	void (__attribute__((ms_abi)) *dtor)(void *);

	if (!object || !info || !info->destructor)
		return;
	dtor = rva(image, info->destructor);
	TRACE(seh, "destroying thrown object %p\n", object);
	PE_CALL1(dtor, object);
}

static int ip_state(const struct cxx_func_info *fi, ULONG64 base, ULONG64 pc)
{
	const struct cxx_ip_state *map = rva(base, fi->ip_map);
	int state = -1;

	for (unsigned int i = 0; i < fi->ip_count; i++) {
		if (base + (ULONG64)(unsigned int)map[i].ip > pc)
			break;
		state = map[i].state;
	}
	return state;
}

/* Whether the frame is a catch funclet of fi, and then its parent's
 * establisher frame. */
static int catch_funclet_parent(const struct cxx_func_info *fi, DISPATCHER_CONTEXT *disp, ULONG64 *parent)
{
	const struct cxx_try_block *tb = rva(disp->ImageBase, fi->try_map);
	ULONG64 begin = disp->ImageBase + disp->FunctionEntry->BeginAddress;

	for (unsigned int i = 0; i < fi->try_count; i++) {
		const struct cxx_handler *h = rva(disp->ImageBase, tb[i].handlers);

		for (int j = 0; j < tb[i].catch_count; j++) {
			if (disp->ImageBase + (ULONG64)(unsigned int)h[j].handler == begin) {
				*parent = *(ULONG64 *)(disp->EstablisherFrame + h[j].frame_offset);
				return 1;
			}
		}
	}
	return 0;
}

static void unwind_states(const struct cxx_func_info *fi, ULONG64 base, ULONG64 frame, int from, int to)
{
	const struct cxx_unwind_entry *map = rva(base, fi->unwind_map);
	int state = from;

	while (state > to) {
		if (state >= fi->max_state) {
			ndrun_error("__CxxFrameHandler3: state %d outside the unwind map (%d states)", state,
				    fi->max_state);
			vcrt___std_terminate();
		}
		if (map[state].action) {
			void (__attribute__((ms_abi)) *action)(void *, ULONG64) = rva(base, map[state].action);

			TRACE(seh, "unwind state %d: funclet %p frame %#llx\n", state, (void *)action,
			      (unsigned long long)frame);
			PE_CALL2(action, NULL, frame);
		}
		state = map[state].to_state;
	}
}

static void *adjust_this(void *object, const struct cxx_pmd *pmd)
{
	char *p = (char *)object + pmd->mdisp;

	if (pmd->pdisp >= 0) {
		const char *vbtable = *(const char **)((char *)object + pmd->pdisp);

		p += *(const int *)(vbtable + pmd->vdisp) + pmd->pdisp;
	}
	return p;
}

/* The catchable type of the thrown object that a catch of type want
 * (with HT_* adjectives) accepts, if any. */
const struct cxx_catchable_type *cxx_match_type(const struct cxx_type_descriptor *want, unsigned int adjectives,
						const EXCEPTION_RECORD *rec)
{
	const struct cxx_throw_info *ti = (const void *)rec->ExceptionInformation[2];
	ULONG64 tbase = rec->ExceptionInformation[3];
	const struct cxx_catchable_array *arr;

	if (!ti || !want)
		return NULL;
	if ((ti->attributes & TI_IS_CONST) && !(adjectives & HT_IS_CONST))
		return NULL;
	if ((ti->attributes & TI_IS_VOLATILE) && !(adjectives & HT_IS_VOLATILE))
		return NULL;
	arr = rva(tbase, ti->catchable_types);
	for (int i = 0; i < arr->count; i++) {
		const struct cxx_catchable_type *ct = rva(tbase, arr->types[i]);
		const struct cxx_type_descriptor *have = rva(tbase, ct->type);

		if (have != want && strcmp(have->name, want->name))
			continue;
		if ((ct->properties & CT_BY_REFERENCE_ONLY) && !(adjectives & HT_IS_REFERENCE))
			continue;
		return ct;
	}
	return NULL;
}

static const struct cxx_catchable_type *match(const struct cxx_handler *h, ULONG64 base,
					      const EXCEPTION_RECORD *rec)
{
	return cxx_match_type(rva(base, h->type), h->adjectives, rec);
}

static int is_catch_all(const struct cxx_handler *h, ULONG64 base)
{
	const struct cxx_type_descriptor *t = rva(base, h->type);

	return (h->adjectives & HT_IS_STD_DOTDOT) || !t || !t->name[0];
}

/* Initialises a catch parameter at dest (caught with HT_* adjectives as
 * catchable type ct) from the thrown object. */
void cxx_build_object(void *dest, unsigned int adjectives, const struct cxx_catchable_type *ct,
		      const EXCEPTION_RECORD *rec)
{
	void *object = (void *)rec->ExceptionInformation[1];
	ULONG64 tbase = rec->ExceptionInformation[3];

	if (adjectives & HT_IS_REFERENCE) {
		*(void **)dest = adjust_this(object, &ct->this_disp);
	} else if (ct->properties & CT_IS_SIMPLE_TYPE) {
		memcpy(dest, object, (size_t)ct->size);
		/* a pointer to a class caught as a pointer to a base */
		if (ct->size == sizeof(void *) && *(void **)dest)
			*(void **)dest = adjust_this(*(void **)dest, &ct->this_disp);
	} else if (ct->copy_ctor) {
		void *src = adjust_this(object, &ct->this_disp);

		if (ct->properties & CT_HAS_VIRTUAL_BASE) {
			void (__attribute__((ms_abi)) *copy)(void *, void *, int) = rva(tbase, ct->copy_ctor);

			PE_CALL3(copy, dest, src, 1);
		} else {
			void (__attribute__((ms_abi)) *copy)(void *, void *) = rva(tbase, ct->copy_ctor);

			PE_CALL2(copy, dest, src);
		}
	} else {
		memcpy(dest, adjust_this(object, &ct->this_disp), (size_t)ct->size);
	}
}

static void build_catch_object(const struct cxx_handler *h, const struct cxx_catchable_type *ct,
			       ULONG64 frame, const EXCEPTION_RECORD *rec)
{
	if (h->catch_object && ct)
		cxx_build_object((void *)(frame + h->catch_object), h->adjectives, ct, rec);
}

static void *__attribute__((ms_abi)) catch_callback(EXCEPTION_RECORD *rec)
{
	const EXCEPTION_RECORD *cxx = (const EXCEPTION_RECORD *)rec->ExceptionInformation[CP_RECORD];
	ULONG64 frame = rec->ExceptionInformation[CP_FRAME];
	struct active_catch *a;
	ULONG64 cont;
	int i;

	if (nactive >= MAX_ACTIVE_CATCHES) {
		ndrun_error("__CxxFrameHandler3: more than %d nested catch blocks", MAX_ACTIVE_CATCHES);
		vcrt___std_terminate();
	}
	a = &active[nactive++];
	a->frame = frame;
	a->target = rec->ExceptionInformation[CP_TARGET];
	a->try_high = (int)rec->ExceptionInformation[CP_TRY_HIGH];
	a->catch_high = (int)rec->ExceptionInformation[CP_CATCH_HIGH];
	a->object = (void *)cxx->ExceptionInformation[1];
	a->info = (const void *)cxx->ExceptionInformation[2];
	a->image = cxx->ExceptionInformation[3];
	a->abandoned = 0;
	TRACE(seh, "catch block %p for frame %#llx\n", (void *)rec->ExceptionInformation[CP_HANDLER],
	      (unsigned long long)frame);
	cont = seh_call_catch_block((void *)rec->ExceptionInformation[CP_HANDLER], frame);
	/* an FH4 funclet may return an index into its handler's
	 * continuation addresses instead of an address */
	if (cont < 2 && rec->ExceptionInformation[CP_CONT0 + cont])
		cont = rec->ExceptionInformation[CP_CONT0 + cont];
	for (i = nactive - 1; i >= 0 && active[i].frame != frame; i--)
		;
	if (i >= 0) {
		struct active_catch done = active[i];

		remove_active(i);
		if (!cxx_object_in_use(done.object))
			cxx_destroy_object(done.object, done.info, done.image);
	}
	return (void *)cont;
}

/* The C++ exception an unwind is for (a consolidation carries it). */
static const EXCEPTION_RECORD *unwinding_cxx(const EXCEPTION_RECORD *rec)
{
	if (rec->ExceptionCode == STATUS_UNWIND_CONSOLIDATE_CODE && rec->NumberParameters >= CP_COUNT &&
	    rec->ExceptionInformation[CP_CALLBACK] == (ULONG_PTR)catch_callback)
		return (const EXCEPTION_RECORD *)rec->ExceptionInformation[CP_RECORD];
	return rec;
}

/* The shared half of unwinding a frame of a function whose establisher
 * frame is parent (in_catch: the frame is one of its catch funclets):
 * 0 when the frame has nothing to undo, else 1 with *to the state the
 * unwind stops at. */
int cxx_unwind_prepare(EXCEPTION_RECORD *rec, DISPATCHER_CONTEXT *disp, int in_catch, ULONG64 parent, int *to)
{
	ULONG64 frame = disp->EstablisherFrame;
	int i;

	*to = -1;
	i = find_target(frame);
	if (i >= 0) {
		/* reached through a catch funclet, whose frame did the work */
		remove_active(i);
		return 0;
	}
	if (in_catch && !(rec->ExceptionFlags & EH_TARGET_UNWIND)) {
		/* the catch block is left: its object dies unless rethrown */
		const EXCEPTION_RECORD *cxx = unwinding_cxx(rec);
		void *current = cxx_is_cxx_exception(cxx) ? (void *)cxx->ExceptionInformation[1] : NULL;

		for (i = nactive - 1; i >= 0; i--) {
			if (active[i].frame != parent || active[i].abandoned)
				continue;
			active[i].abandoned = 1;
			if (active[i].object != current && !cxx_object_in_use(active[i].object))
				cxx_destroy_object(active[i].object, active[i].info, active[i].image);
			break;
		}
	}
	/* an unwind to a catch of this function stops at its try block */
	if (rec->ExceptionCode == STATUS_UNWIND_CONSOLIDATE_CODE && rec->NumberParameters >= CP_COUNT &&
	    rec->ExceptionInformation[CP_CALLBACK] == (ULONG_PTR)catch_callback &&
	    rec->ExceptionInformation[CP_FRAME] == parent)
		*to = (int)rec->ExceptionInformation[CP_STATE];
	return 1;
}

static EXCEPTION_DISPOSITION unwind_frame(EXCEPTION_RECORD *rec, DISPATCHER_CONTEXT *disp,
					  const struct cxx_func_info *fi)
{
	ULONG64 base = disp->ImageBase, parent;
	int in_catch = catch_funclet_parent(fi, disp, &parent), to;

	if (!in_catch)
		parent = disp->EstablisherFrame;
	if (cxx_unwind_prepare(rec, disp, in_catch, parent, &to)) {
		/* the frame's destructors run with the exception uncaught */
		cxx_uncaught_enter();
		unwind_states(fi, base, parent, ip_state(fi, base, disp->ControlPc), to);
		cxx_uncaught_leave();
	}
	return ExceptionContinueSearch;
}

/* Whether a search skips the frame at establisher: a catch funclet
 * stood for it while its catch block runs. */
int cxx_search_skips(ULONG64 establisher)
{
	int i = find_target(establisher);

	return i >= 0 && !active[i].abandoned;
}

/* Offers the exception to one catch of a try block; when the catch takes
 * it, unwinds to it and does not return. */
void cxx_try_catch(EXCEPTION_RECORD *rec, DISPATCHER_CONTEXT *disp, const struct cxx_catch *c)
{
	const struct cxx_catchable_type *ct = NULL;
	ULONG64 base = disp->ImageBase;
	EXCEPTION_RECORD crec;

	if (!is_catch_all(&c->handler, base) && !(ct = match(&c->handler, base, rec)))
		return;
	TRACE(seh, "C++ exception %p caught in frame %#llx, try block states %d-%d\n",
	      (void *)rec->ExceptionInformation[1], (unsigned long long)c->parent, c->try_low, c->try_high);
	build_catch_object(&c->handler, ct, c->parent, rec);
	memset(&crec, 0, sizeof(crec));
	crec.ExceptionCode = STATUS_UNWIND_CONSOLIDATE_CODE;
	crec.ExceptionFlags = EXCEPTION_NONCONTINUABLE;
	crec.NumberParameters = CP_COUNT;
	crec.ExceptionInformation[CP_CALLBACK] = (ULONG_PTR)catch_callback;
	crec.ExceptionInformation[CP_FRAME] = c->parent;
	crec.ExceptionInformation[CP_HANDLER] = base + (ULONG64)(unsigned int)c->handler.handler;
	crec.ExceptionInformation[CP_STATE] = (ULONG_PTR)(LONG_PTR)c->try_low;
	crec.ExceptionInformation[CP_RECORD] = (ULONG_PTR)rec;
	crec.ExceptionInformation[CP_TARGET] =
		c->in_catch ? try_target(c->parent, disp->EstablisherFrame, c->try_low) : c->parent;
	crec.ExceptionInformation[CP_TRY_HIGH] = (ULONG_PTR)(LONG_PTR)c->try_high;
	crec.ExceptionInformation[CP_CATCH_HIGH] = (ULONG_PTR)(LONG_PTR)c->catch_high;
	crec.ExceptionInformation[CP_CONT0] = c->cont[0];
	crec.ExceptionInformation[CP_CONT1] = c->cont[1];
	/* the walks from inside the catch block go on in the target frame's
	 * context: its own pc, not this frame's when the two differ */
	seh_unwind_from_handler(disp, (void *)crec.ExceptionInformation[CP_TARGET], NULL, &crec, NULL);
}

static EXCEPTION_DISPOSITION search_frame(EXCEPTION_RECORD *rec, DISPATCHER_CONTEXT *disp,
					  const struct cxx_func_info *fi)
{
	ULONG64 base = disp->ImageBase;
	const struct cxx_try_block *tb = rva(base, fi->try_map);
	struct cxx_catch c;
	int state;

	if (!cxx_is_cxx_exception(rec) || cxx_search_skips(disp->EstablisherFrame))
		return ExceptionContinueSearch;
	memset(&c, 0, sizeof(c));
	c.in_catch = catch_funclet_parent(fi, disp, &c.parent);
	if (!c.in_catch)
		c.parent = disp->EstablisherFrame;
	state = ip_state(fi, base, disp->ControlPc);
	for (unsigned int i = 0; i < fi->try_count; i++) {
		const struct cxx_handler *h = rva(base, tb[i].handlers);

		if (state < tb[i].try_low || state > tb[i].try_high)
			continue;
		c.try_low = tb[i].try_low;
		c.try_high = tb[i].try_high;
		c.catch_high = tb[i].catch_high;
		for (int j = 0; j < tb[i].catch_count; j++) {
			c.handler = h[j];
			cxx_try_catch(rec, disp, &c);
		}
	}
	return ExceptionContinueSearch;
}

EXCEPTION_DISPOSITION __cdecl vcrt___CxxFrameHandler3(EXCEPTION_RECORD *rec, void *frame, CONTEXT *ctx,
						      DISPATCHER_CONTEXT *disp)
{
	const struct cxx_func_info *fi = rva(disp->ImageBase, *(const int *)disp->HandlerData);
	unsigned int magic = fi->magic & 0x1fffffff;

	(void)frame;
	if (magic < VCRT_CXX_MAGIC || magic > VCRT_CXX_MAGIC + 2) {
		ndrun_error("__CxxFrameHandler3: bad FuncInfo magic %#x", magic);
		vcrt___std_terminate();
	}
	if (rec->ExceptionFlags & (EH_UNWINDING | EH_EXIT_UNWIND))
		return unwind_frame(rec, disp, fi);
	(void)ctx;
	return search_frame(rec, disp, fi);
}
