/* The current process as an object, for the GetCurrentProcess()
 * pseudo-handle: waitable (never signaled while we run) and duplicable. */
#include "core/handle.h"
#include "core/process.h"

static bool process_signaled(struct object *obj, unsigned int tid)
{
	return false;
}

static bool process_satisfied(struct object *obj, unsigned int tid)
{
	return false;
}

const struct object_ops process_ops = {
	.type_name = "process",
	.signaled = process_signaled,
	.satisfied = process_satisfied,
};

static struct object the_process = {
	.ops = &process_ops,
	.refcount = 1, /* never destroyed */
	.waiters = LIST_INIT(the_process.waiters),
};

struct object *process_current(void)
{
	return object_ref(&the_process);
}
