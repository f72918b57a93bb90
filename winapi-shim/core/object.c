#include "core/object.h"
#include "core/debug.h"

void object_init(struct object *obj, const struct object_ops *ops)
{
	obj->ops = ops;
	atomic_init(&obj->refcount, 1);
	atomic_init(&obj->handle_count, 0);
	list_init(&obj->waiters);
}

struct object *object_ref(struct object *obj)
{
	atomic_fetch_add_explicit(&obj->refcount, 1, memory_order_relaxed);
	return obj;
}

void object_unref(struct object *obj)
{
	/* acq_rel: every write made through other references happens
	 * before destroy runs. */
	if (atomic_fetch_sub_explicit(&obj->refcount, 1, memory_order_acq_rel) == 1) {
		TRACE(handle, "destroying %s %p\n", obj->ops->type_name, (void *)obj);
		if (obj->ops->destroy)
			obj->ops->destroy(obj);
	}
}
