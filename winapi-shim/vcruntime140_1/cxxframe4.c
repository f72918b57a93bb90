/* __CxxFrameHandler4: the language handler MSVC (VS2019 and later) gives
 * x64 functions with C++ exception handling by default.
 *
 * It describes the same things as FH3's FuncInfo (an IP-to-state map,
 * an unwind map, try blocks and their catches), compressed: a FuncInfo4
 * is a header byte saying which fields follow, integers are stored in
 * 1-5 bytes (the low bits of the first byte give the length), states
 * +1 so that -1 encodes as 0, IPs as deltas from the function start,
 * and an unwind entry names its next state by a byte offset back to that
 * state's entry.  Unlike FH3, each catch funclet has a FuncInfo4 of its
 * own (the isCatch bit, with the frame slot where the funclet keeps its
 * parent's establisher frame) and its own IP-to-state map, and common
 * destructor calls need no funclet: an unwind entry may name the
 * destructor and the frame offset of its object (or of a pointer to it).
 *
 * The tables are decoded here, a piece at a time; what happens with
 * them (catching, running catch blocks, their continuations) is the
 * engine FH3 uses, in vcruntime140/cxxframe.c. */
#include <stdint.h>
#include <string.h>

#include "vcruntime140/vcruntime140_private.h"
#include "vcruntime140/cxxframe.h"
#include "vcruntime140_1/vcruntime140_1_private.h"
#include "ntdll/seh.h"
#include "core/debug.h"
#include "core/pecall.h"

/* FuncInfo4 header bits */
#define FI4_IS_CATCH 0x01
#define FI4_IS_SEPARATED 0x02
#define FI4_BBT 0x04
#define FI4_UNWIND_MAP 0x08
#define FI4_TRY_BLOCK_MAP 0x10
#define FI4_NOEXCEPT 0x40
#define FI4_RESERVED 0x80

/* HandlerType4 header bits */
#define HT4_ADJECTIVES 0x01
#define HT4_DISP_TYPE 0x02
#define HT4_DISP_CATCH_OBJ 0x04
#define HT4_CONT_IS_RVA 0x08
#define HT4_CONT_SHIFT 4
#define HT4_CONT_MASK 0x30

/* UnwindMapEntry4 types (low 2 bits of the first field) */
enum { UW4_NONE, UW4_DTOR_OBJ, UW4_DTOR_PTR, UW4_RVA };

struct fh4_func {
	unsigned char header;
	int32_t unwind_map, try_map, ip_map;
	ULONG64 start;      /* the code the IP map counts from */
	uint32_t frame;     /* catch funclets: parent frame slot */
};

/* A compressed unsigned integer: 1 to 5 bytes; the number of low 1 bits
 * of the first byte (0-3, or 4 for a plain 32-bit value after it) says
 * how many bytes follow it. */
static uint32_t read_uint(const unsigned char **pp)
{
	const unsigned char *p = *pp;
	uint32_t v;

	if (!(p[0] & 1)) {
		v = p[0] >> 1;
		*pp += 1;
	} else if (!(p[0] & 2)) {
		v = ((uint32_t)p[0] | (uint32_t)p[1] << 8) >> 2;
		*pp += 2;
	} else if (!(p[0] & 4)) {
		v = ((uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16) >> 3;
		*pp += 3;
	} else if (!(p[0] & 8)) {
		v = ((uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24) >> 4;
		*pp += 4;
	} else {
		v = (uint32_t)p[1] | (uint32_t)p[2] << 8 | (uint32_t)p[3] << 16 | (uint32_t)p[4] << 24;
		*pp += 5;
	}
	return v;
}

static int32_t read_int(const unsigned char **pp)
{
	int32_t v;

	memcpy(&v, *pp, sizeof(v));
	*pp += sizeof(v);
	return v;
}

static const unsigned char *at(ULONG64 base, int32_t rva)
{
	return (const unsigned char *)(base + (ULONG64)(int64_t)rva);
}

static void __attribute__((noreturn)) corrupt(const char *what)
{
	ndrun_error("__CxxFrameHandler4: %s", what);
	vcrt___std_terminate();
}

static void decode_func(const DISPATCHER_CONTEXT *disp, struct fh4_func *fi)
{
	ULONG64 base = disp->ImageBase;
	const unsigned char *p = at(base, *(const int32_t *)disp->HandlerData);
	uint32_t begin = disp->FunctionEntry->BeginAddress;

	memset(fi, 0, sizeof(*fi));
	fi->header = *p++;
	if (fi->header & FI4_RESERVED)
		corrupt("FuncInfo4 header with the reserved bit set");
	if (fi->header & FI4_BBT)
		read_uint(&p);
	if (fi->header & FI4_UNWIND_MAP)
		fi->unwind_map = read_int(&p);
	if (fi->header & FI4_TRY_BLOCK_MAP)
		fi->try_map = read_int(&p);
	fi->start = base + begin;
	if (fi->header & FI4_IS_SEPARATED) {
		/* one IP map per contiguous piece of the function: the one
		 * whose start is this piece's; none means no states here */
		const unsigned char *seg = at(base, read_int(&p));
		uint32_t n = read_uint(&seg);

		for (uint32_t i = 0; i < n; i++) {
			int32_t start = read_int(&seg), map = read_int(&seg);

			if ((uint32_t)start == begin) {
				fi->ip_map = map;
				break;
			}
		}
	} else {
		fi->ip_map = read_int(&p);
	}
	if (fi->header & FI4_IS_CATCH)
		fi->frame = read_uint(&p);
}

static int ip_state(ULONG64 base, const struct fh4_func *fi, ULONG64 pc)
{
	const unsigned char *p;
	ULONG64 ip = fi->start;
	uint32_t n;
	int state = -1;

	if (!fi->ip_map)
		return -1;
	p = at(base, fi->ip_map);
	n = read_uint(&p);
	for (uint32_t i = 0; i < n; i++) {
		int s;

		ip += read_uint(&p);
		s = (int)read_uint(&p) - 1;
		if (ip > pc)
			break;
		state = s;
	}
	return state;
}

/* The parent function's establisher frame, and whether the frame is one
 * of its catch funclets. */
static int frame_parent(const DISPATCHER_CONTEXT *disp, const struct fh4_func *fi, ULONG64 *parent)
{
	if (fi->header & FI4_IS_CATCH) {
		*parent = *(const ULONG64 *)(disp->EstablisherFrame + fi->frame);
		return 1;
	}
	*parent = disp->EstablisherFrame;
	return 0;
}

struct uw4 {
	int type;
	uint32_t next;      /* bytes back to the next state's entry */
	int32_t action;
	uint32_t object;
};

static const unsigned char *read_uw(const unsigned char *p, struct uw4 *e)
{
	uint32_t v = read_uint(&p);

	e->type = (int)(v & 3);
	e->next = v >> 2;
	e->action = 0;
	e->object = 0;
	if (e->type == UW4_DTOR_OBJ || e->type == UW4_DTOR_PTR) {
		e->action = read_int(&p);
		e->object = read_uint(&p);
	} else if (e->type == UW4_RVA) {
		e->action = read_int(&p);
	}
	return p;
}

static void run_action(ULONG64 base, ULONG64 frame, const struct uw4 *e, int state)
{
	void (__attribute__((ms_abi)) *dtor)(void *, ULONG64);
	void *object;

	if (e->type == UW4_NONE)
		return;
	dtor = (void *)at(base, e->action);
	switch (e->type) {
	case UW4_DTOR_OBJ:
		object = (void *)(frame + e->object);
		break;
	case UW4_DTOR_PTR:
		object = *(void **)(frame + e->object);
		break;
	default:
		/* a funclet that finds its object from the frame */
		object = NULL;
		break;
	}
	TRACE(seh, "FH4 unwind state %d: %p(%p) frame %#llx\n", state, (void *)dtor, object,
	      (unsigned long long)frame);
	PE_CALL2(dtor, object, frame);
}

/* Runs the unwind actions from state `from` down to (not including)
 * state `to`.  Entries are in state order; each names the next state's
 * entry by a byte offset back from its own start, before the first
 * entry for state -1. */
static void unwind_states(ULONG64 base, const struct fh4_func *fi, ULONG64 frame, int from, int to)
{
	const unsigned char *p, *start;
	ptrdiff_t cur = -1, stop = -1;
	struct uw4 e;
	uint32_t n;

	if (from <= to)
		return;
	if (!fi->unwind_map)
		corrupt("a state to unwind and no unwind map");
	p = at(base, fi->unwind_map);
	n = read_uint(&p);
	start = p;
	if ((uint32_t)from >= n) {
		ndrun_error("__CxxFrameHandler4: state %d outside the unwind map (%u states)", from, n);
		vcrt___std_terminate();
	}
	for (int i = 0; i <= from; i++) {
		if (i == from)
			cur = p - start;
		if (i == to)
			stop = p - start;
		p = read_uw(p, &e);
	}
	while (cur >= 0 && cur > stop) {
		read_uw(start + cur, &e);
		run_action(base, frame, &e, from);
		if (!e.next)
			corrupt("an unwind map entry that leads to itself");
		cur -= (ptrdiff_t)e.next;
		from--;
	}
}

static EXCEPTION_DISPOSITION unwind_frame(EXCEPTION_RECORD *rec, DISPATCHER_CONTEXT *disp,
					  const struct fh4_func *fi)
{
	ULONG64 parent;
	int in_catch = frame_parent(disp, fi, &parent), to;

	if (cxx_unwind_prepare(rec, disp, in_catch, parent, &to)) {
		/* the frame's destructors run with the exception uncaught */
		cxx_uncaught_enter();
		unwind_states(disp->ImageBase, fi, parent, ip_state(disp->ImageBase, fi, disp->ControlPc), to);
		cxx_uncaught_leave();
	}
	return ExceptionContinueSearch;
}

/* One HandlerType4 into FH3's layout; continuation addresses are RVAs or
 * offsets from the start of the code the frame runs in. */
static const unsigned char *read_handler(const unsigned char *p, ULONG64 base, const struct fh4_func *fi,
					 struct cxx_catch *c)
{
	unsigned char h = *p++;
	unsigned int ncont = (h & HT4_CONT_MASK) >> HT4_CONT_SHIFT;

	memset(&c->handler, 0, sizeof(c->handler));
	c->cont[0] = c->cont[1] = 0;
	if (h & HT4_ADJECTIVES)
		c->handler.adjectives = read_uint(&p);
	if (h & HT4_DISP_TYPE)
		c->handler.type = read_int(&p);
	if (h & HT4_DISP_CATCH_OBJ)
		c->handler.catch_object = (int)read_uint(&p);
	c->handler.handler = read_int(&p);
	if (ncont > 2)
		corrupt("HandlerType4 with the reserved continuation count");
	for (unsigned int i = 0; i < ncont; i++) {
		if (h & HT4_CONT_IS_RVA)
			c->cont[i] = base + (ULONG64)(int64_t)read_int(&p);
		else
			c->cont[i] = fi->start + read_uint(&p);
	}
	return p;
}

static EXCEPTION_DISPOSITION search_frame(EXCEPTION_RECORD *rec, DISPATCHER_CONTEXT *disp,
					  const struct fh4_func *fi)
{
	ULONG64 base = disp->ImageBase;
	const unsigned char *p;
	struct cxx_catch c;
	uint32_t ntry;
	int state;

	if (!cxx_is_cxx_exception(rec) || cxx_search_skips(disp->EstablisherFrame))
		return ExceptionContinueSearch;
	memset(&c, 0, sizeof(c));
	c.in_catch = frame_parent(disp, fi, &c.parent);
	state = ip_state(base, fi, disp->ControlPc);
	if (fi->try_map) {
		p = at(base, fi->try_map);
		ntry = read_uint(&p);
		for (uint32_t i = 0; i < ntry; i++) {
			const unsigned char *h;
			uint32_t nh;

			c.try_low = (int)read_uint(&p);
			c.try_high = (int)read_uint(&p);
			c.catch_high = (int)read_uint(&p);
			h = at(base, read_int(&p));
			if (state < c.try_low || state > c.try_high)
				continue;
			nh = read_uint(&h);
			for (uint32_t j = 0; j < nh; j++) {
				h = read_handler(h, base, fi, &c);
				cxx_try_catch(rec, disp, &c);
			}
		}
	}
	/* nothing here catches it: it may not leave a noexcept function */
	if (fi->header & FI4_NOEXCEPT) {
		ndrun_error("__CxxFrameHandler4: C++ exception leaves a noexcept function");
		vcrt___std_terminate();
	}
	return ExceptionContinueSearch;
}

EXCEPTION_DISPOSITION __cdecl vcrt___CxxFrameHandler4(EXCEPTION_RECORD *rec, void *frame, CONTEXT *ctx,
						      DISPATCHER_CONTEXT *disp)
{
	struct fh4_func fi;

	(void)frame;
	(void)ctx;
	decode_func(disp, &fi);
	if (rec->ExceptionFlags & (EH_UNWINDING | EH_EXIT_UNWIND))
		return unwind_frame(rec, disp, &fi);
	return search_frame(rec, disp, &fi);
}
