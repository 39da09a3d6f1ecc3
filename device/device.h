/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * device/device.h - a minimal model of the kernel's devices, managed
 * resources (devres) and device-tree nodes, enough for devm_gen_pool_create(),
 * gen_pool_get() and of_gen_pool_get() (declared in modern/genalloc.h) to
 * behave as they do in the kernel.
 *
 * It is a model, not a driver core.  What it keeps of the kernel:
 *   - a device owns a list of resources, each with a release function;
 *     releasing the device releases them newest first (LIFO), so a resource
 *     may rely on every resource added before it;
 *   - devres_alloc/devres_add/devres_find/devres_free/devres_release_all and
 *     devm_kzalloc with the kernel's signatures and semantics;
 *   - device-tree nodes with a name, a full name, a parent, properties
 *     (phandle lists and strings) and the device bound to the node, read
 *     through of_find_property, of_property_read_string, of_parse_phandle,
 *     of_get_parent, of_find_device_by_node and of_node_full_name.
 * What it leaves out, on purpose:
 *   - no buses, drivers, probing, sysfs or kobjects; no global device list:
 *     the caller builds devices and nodes and binds them (device_set_of_node);
 *   - no reference counting: of_node_get/of_node_put are no-ops and
 *     of_find_device_by_node takes no reference (nothing to put_device);
 *   - no devres groups, devres_remove/devres_release/devm_kfree;
 *   - gfp_t flags are accepted and ignored (there is only one kind of memory).
 *
 * Lifetime of a device:
 *
 *	struct device dev = { .name = "sram" };
 *	device_initialize(&dev);	// list and lock ready (optional, below)
 *	pool = devm_gen_pool_create(&dev, 5, -1, "sram-pool");
 *	...
 *	device_release(&dev);		// pool destroyed, device dead
 *
 * A kernel driver never initialises its device: the bus did.  So a device
 * whose private fields are all zero (static, or built with an initialiser
 * that names only public fields) is initialised on first use, by whichever
 * call comes first, even when several threads come at once.
 *
 * Errors: misuse is reported through the library's hook (common/error.h)
 * and the call returns its failure value without changing anything:
 *   - a NULL device, or one whose private fields hold garbage (neither all
 *     zero nor set by this model): WARN EINVAL; devres_add does not add,
 *     devres_find/devm_kzalloc return NULL, devres_release_all returns
 *     -ENODEV;
 *   - a device already released by device_release(): holds no resources;
 *     lookups return NULL silently, devres_release_all returns 0, and
 *     additions (devres_add, devm_kzalloc, devm_gen_pool_create) are refused
 *     with WARN EINVAL, where the kernel would leak them;
 *   - devres_alloc with a NULL release function: WARN EINVAL, NULL (the
 *     kernel would crash at release time);
 *   - devres_add of a resource already on a device: WARN EINVAL, unchanged;
 *   - devres_free of a resource still on a device: BUG EBUSY, not freed;
 *   - a pointer not from devres_alloc given to devres_add/devres_free is
 *     undefined behaviour, as with free().
 * These reports name no pool: their addr is the device's address (or the
 * resource's, for devres_free), their func the kernel name of the call.
 *
 * Thread safety: each device's resource list is guarded by the device's own
 * mutex, so devres_add, devres_find, devres_release_all, devm_kzalloc,
 * devm_gen_pool_create and gen_pool_get may run concurrently on one device;
 * devm_gen_pool_create's "name already taken" check and the addition happen
 * under one hold of the lock, so two threads can never both create the same
 * name.  Release functions run without the lock held (they may use the
 * device); match functions run with it held (they must not).
 * device_initialize and device_release must not run concurrently with any
 * other call on the same device: they begin and end its life.  A pool or
 * resource found by a lookup stays valid until the device releases it; as
 * in the kernel, nothing stops a release racing with its use.  Device-tree
 * nodes are read only; build them before sharing them.
 */
#ifndef GENALLOC_DEVICE_DEVICE_H
#define GENALLOC_DEVICE_DEVICE_H

#include <errno.h>
#include <pthread.h>
#include <stddef.h>

#include "../common/api.h"
#include "../common/version.h"

#ifdef __cplusplus
extern "C" {
#endif

struct device_node;
struct modern_devres;

/* ------------------------------------------------------------ devices */

/**
 * struct device - a device that owns managed resources
 * @name:   the device's name, for messages (may be NULL)
 * @parent: the parent device, or NULL (informational, as in the kernel)
 * @of_node: the device-tree node describing the device, or NULL
 *
 * The caller owns the structure (static, automatic or allocated) and sets
 * the public fields; the fields below them are private to device/device.c.
 */
struct device {
	const char *name;
	struct device *parent;
	struct device_node *of_node;

	/* private: */
	struct modern_devres *devres_head;	/* newest first */
	pthread_mutex_t devres_lock;
	unsigned int devres_state;
};

GENALLOC_API void modern_device_initialize(struct device *dev);
GENALLOC_API void modern_device_release(struct device *dev);

/**
 * device_initialize() - make a device ready to own resources
 * @dev: the device; its public fields are left as the caller set them
 *
 * Sets up the resource list and its lock.  A device released with
 * device_release() may be initialized again.  Initializing a device that
 * still holds resources forgets them (they leak): release it first.
 * A NULL @dev is reported (WARN EINVAL) and ignored.
 */
static inline void device_initialize(struct device *dev)
{
	modern_device_initialize(dev);
}

/**
 * device_release() - end a device's life, releasing all its resources
 * @dev: the device
 *
 * Runs devres_release_all() (newest resource first) and then retires the
 * lock.  The kernel does the same when the last reference to a device goes
 * (drivers/base/core.c device_release()).  The device counts as released
 * from the start: a release function may look it up (and finds nothing),
 * but what it tries to add is refused (WARN EINVAL), since nothing would
 * ever free it.  Idempotent: releasing a device that is already released, or
 * was never initialized, does nothing; a NULL @dev does nothing either.
 */
static inline void device_release(struct device *dev)
{
	modern_device_release(dev);
}

/** dev_name() - the device's name, or "" if it has none */
static inline const char *dev_name(const struct device *dev)
{
	return dev && dev->name ? dev->name : "";
}

/* The kernel's "any NUMA node" (also in modern/genalloc.h). */
#ifndef NUMA_NO_NODE
#define NUMA_NO_NODE (-1)
#endif

/**
 * dev_to_node() - the NUMA node of a device
 * @dev: the device (may be NULL)
 *
 * Return: NUMA_NO_NODE: the model has no NUMA placement, as a kernel built
 * without CONFIG_NUMA; genalloc ignores the node it is given anyway.
 */
static inline int dev_to_node(const struct device *dev)
{
	(void)dev;
	return NUMA_NO_NODE;
}

GENALLOC_API void modern_dev_printk(const char *level, const struct device *dev,
				    const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/*
 * dev_err(), dev_warn(), dev_notice(), dev_info(), dev_dbg() - a driver's
 * messages about @dev
 *
 * As the kernel's: printf-style, the device named first.  Each is one line
 * on stderr, "<device name>: <level>: <message>", written at once (NULL
 * @dev prints "(NULL device *)" as the kernel does).  dev_dbg() prints only
 * when DEBUG is defined where it is used, as in a kernel without dynamic
 * debug, and otherwise still checks its arguments.  Each is defined only if
 * the includer has not defined its own.  Not async-signal-safe (stdio).
 */
#ifndef dev_err
#define dev_err(dev, ...) modern_dev_printk("error", (dev), __VA_ARGS__)
#endif
#ifndef dev_warn
#define dev_warn(dev, ...) modern_dev_printk("warning", (dev), __VA_ARGS__)
#endif
#ifndef dev_notice
#define dev_notice(dev, ...) modern_dev_printk("notice", (dev), __VA_ARGS__)
#endif
#ifndef dev_info
#define dev_info(dev, ...) modern_dev_printk("info", (dev), __VA_ARGS__)
#endif
#ifndef dev_dbg
#ifdef DEBUG
#define dev_dbg(dev, ...) modern_dev_printk("debug", (dev), __VA_ARGS__)
#else
#define dev_dbg(dev, ...)                                                    \
	do {                                                                 \
		if (0)                                                       \
			modern_dev_printk("debug", (dev), __VA_ARGS__);      \
	} while (0)
#endif
#endif

/* ------------------------------------------------------------ managed resources */

/** typedef gfp_t - allocation flags; accepted and ignored */
typedef unsigned int gfp_t;
#ifndef GFP_KERNEL
#define GFP_KERNEL 0u
#endif

/** typedef dr_release_t - frees what a resource holds; called once */
typedef void (*dr_release_t)(struct device *dev, void *res);
/** typedef dr_match_t - non-zero if @res is the resource sought */
typedef int (*dr_match_t)(struct device *dev, void *res, void *match_data);

GENALLOC_API void *modern_devres_alloc(dr_release_t release, size_t size,
				       gfp_t gfp);
GENALLOC_API void modern_devres_free(void *res);
GENALLOC_API void modern_devres_add(struct device *dev, void *res);
GENALLOC_API void *modern_devres_find(struct device *dev, dr_release_t release,
				      dr_match_t match, void *match_data);
GENALLOC_API int modern_devres_release_all(struct device *dev);
GENALLOC_API void *modern_devm_kzalloc(struct device *dev, size_t size,
				       gfp_t gfp);

/**
 * devres_alloc() - allocate a resource record not yet owned by a device
 * @release: called with the device and the data when the resource goes
 * @size:    bytes of data the caller keeps in the record (0 allowed)
 * @gfp:     ignored
 *
 * The data is zeroed and aligned for any type.  Hand it to devres_add(), or
 * give it back with devres_free().
 *
 * Return: the data, or NULL if memory cannot be had (including a @size so
 * large that the record's size overflows: no report, as the kernel); a NULL
 * @release is reported (WARN EINVAL) and gives NULL.
 */
static inline void *devres_alloc(dr_release_t release, size_t size, gfp_t gfp)
{
	return modern_devres_alloc(release, size, gfp);
}

/**
 * devres_free() - free a resource record that was never added
 * @res: data from devres_alloc(), or NULL (ignored)
 *
 * The release function is not called.  A record that is on a device is
 * reported (BUG EBUSY: freeing it would leave the device pointing at freed
 * memory) and left alone, as the kernel's BUG_ON.
 */
static inline void devres_free(void *res)
{
	modern_devres_free(res);
}

/**
 * devres_add() - give a resource record to a device
 * @dev: the device
 * @res: data from devres_alloc()
 *
 * The device now owns the record: device_release() (or devres_release_all())
 * calls its release function and frees it, newest first.  Refused with WARN
 * EINVAL, the record staying the caller's: NULL @dev or @res, a garbage or
 * released device, a record already on a device.
 */
static inline void devres_add(struct device *dev, void *res)
{
	modern_devres_add(dev, res);
}

/**
 * devres_find() - find a device's resource
 * @dev:        the device
 * @release:    the release function the resource was allocated with
 * @match:      called on each candidate, newest first; NULL matches any
 * @match_data: passed to @match
 *
 * @match runs with the device's lock held and must not call devres
 * functions on @dev.
 *
 * Return: the newest matching resource's data, or NULL (also for a NULL
 * @release, which no resource has).  NULL or garbage @dev: WARN EINVAL.
 */
static inline void *devres_find(struct device *dev, dr_release_t release,
				dr_match_t match, void *match_data)
{
	return modern_devres_find(dev, release, match, match_data);
}

/**
 * devres_release_all() - release every resource a device owns
 * @dev: the device
 *
 * Calls the release functions newest first, without the lock held, and
 * frees the records.  The device stays alive and may gain new resources (the
 * kernel calls this when a driver detaches); resources that release
 * functions add meanwhile are kept for the next release.
 *
 * Return: the number of resources released; -ENODEV (WARN EINVAL) for a
 * NULL or garbage @dev; 0 for a released device.
 */
static inline int devres_release_all(struct device *dev)
{
	return modern_devres_release_all(dev);
}

/**
 * devm_kzalloc() - zeroed memory freed when the device releases it
 * @dev:  the device
 * @size: bytes
 * @gfp:  ignored
 *
 * Return: the memory, aligned for any type, or NULL: no memory (no report),
 * @size 0 (no report; the kernel returns ZERO_SIZE_PTR), or a NULL,
 * garbage or released @dev (WARN EINVAL).
 */
static inline void *devm_kzalloc(struct device *dev, size_t size, gfp_t gfp)
{
	return modern_devm_kzalloc(dev, size, gfp);
}

/* ------------------------------------------------------------ device tree */

/**
 * struct property - one property of a device-tree node
 * @name:        the property's name, e.g. "sram" or "label"
 * @string:      the value of a string property, or NULL
 * @phandles:    the value of a phandle-list property: @nr_phandles node
 *               pointers (a NULL entry is an empty phandle, <0> in a .dts),
 *               or NULL
 * @nr_phandles: entries in @phandles
 * @next:        the node's next property, or NULL
 *
 * Set either @string or @phandles.  The kernel keeps raw bytes; this model
 * keeps the two kinds genalloc reads, already decoded.
 */
struct property {
	const char *name;
	const char *string;
	struct device_node **phandles;
	int nr_phandles;
	struct property *next;
};

/**
 * struct device_node - a device-tree node, built by the caller
 * @name:       the node name without unit address, e.g. "sram"
 * @full_name:  the name with unit address, e.g. "sram@5c000000" (as the
 *              kernel's full_name: the last path component)
 * @parent:     the parent node, or NULL for the root
 * @properties: the first property, or NULL
 * @device:     the device bound to this node, or NULL; the model's stand-in
 *              for the platform bus (set it with device_set_of_node())
 */
struct device_node {
	const char *name;
	const char *full_name;
	struct device_node *parent;
	struct property *properties;
	struct device *device;
};

GENALLOC_API struct property *modern_of_find_property(const struct device_node *np,
						      const char *name, int *lenp);
GENALLOC_API int modern_of_property_read_string(const struct device_node *np,
						const char *propname,
						const char **out_string);
GENALLOC_API struct device_node *modern_of_parse_phandle(const struct device_node *np,
							 const char *phandle_name,
							 int index);

/**
 * device_set_of_node() - bind a device and a node to each other
 * @dev: the device (not NULL)
 * @np:  the node, or NULL to leave @dev unbound
 *
 * Model only: sets @dev->of_node and @np->device, which is what
 * of_find_device_by_node() reads.  Call it while building, before sharing.
 */
static inline void device_set_of_node(struct device *dev, struct device_node *np)
{
	dev->of_node = np;
	if (np)
		np->device = dev;
}

/**
 * of_find_property() - find a node's property by name
 * @np:   the node, or NULL
 * @name: the property's name, or NULL
 * @lenp: if not NULL and the property is found, receives the value's
 *        length in bytes as the kernel counts it: strlen + 1 for a string,
 *        4 per phandle; left untouched if not found (as the kernel)
 *
 * Return: the first property called @name, or NULL.
 */
static inline struct property *of_find_property(const struct device_node *np,
						const char *name, int *lenp)
{
	return modern_of_find_property(np, name, lenp);
}

/**
 * of_property_read_string() - read a string property
 * @np:         the node
 * @propname:   the property's name
 * @out_string: receives the string; untouched on failure
 *
 * Return: 0; -EINVAL if there is no such property (or @np, @propname or
 * @out_string is NULL); -EILSEQ if it is a phandle list; -ENODATA if it has
 * no value at all.  No report: absence is a normal answer.
 */
static inline int of_property_read_string(const struct device_node *np,
					  const char *propname,
					  const char **out_string)
{
	return modern_of_property_read_string(np, propname, out_string);
}

/**
 * of_parse_phandle() - the node an entry of a phandle list points to
 * @np:           the node holding the list
 * @phandle_name: the property's name
 * @index:        which entry, from 0
 *
 * Return: the node, or NULL: NULL @np or @phandle_name, no such property,
 * a string property, @index negative or past the end, an empty entry.
 * No report.  No reference is taken (of_node_put() is a no-op).
 */
static inline struct device_node *of_parse_phandle(const struct device_node *np,
						   const char *phandle_name,
						   int index)
{
	return modern_of_parse_phandle(np, phandle_name, index);
}

/** of_get_parent() - a node's parent, or NULL (also for a NULL node) */
static inline struct device_node *of_get_parent(const struct device_node *np)
{
	return np ? np->parent : NULL;
}

/**
 * of_find_device_by_node() - the device bound to a node, or NULL
 * @np: the node, or NULL
 *
 * The kernel returns a struct platform_device with a reference taken; the
 * model returns the struct device itself and takes nothing.
 */
static inline struct device *of_find_device_by_node(const struct device_node *np)
{
	return np ? np->device : NULL;
}

/**
 * of_node_full_name() - a node's full name, for messages and pool names
 * @np: the node
 *
 * Return: @np->full_name; @np->name if the caller gave no full name; ""
 * if neither; "<no-node>" for a NULL @np (as the kernel).
 */
static inline const char *of_node_full_name(const struct device_node *np)
{
	if (!np)
		return "<no-node>";
	if (np->full_name)
		return np->full_name;
	return np->name ? np->name : "";
}

/* ------------------------------------------------------------ managed pools */
/*
 * devm_gen_pool_create(), gen_pool_get() and of_gen_pool_get() are declared
 * in modern/genalloc.h (with the rest of the genalloc API, as in the kernel)
 * and implemented over this model in device/device.c.  Their behaviour:
 *
 * struct gen_pool *devm_gen_pool_create(dev, min_alloc_order, nid, name)
 *	Creates a pool with gen_pool_create(min_alloc_order, nid), records it
 *	as a resource of @dev whose release is gen_pool_destroy(), and gives
 *	it a copy of @name (NULL stays NULL; gen_pool_destroy() frees the
 *	copy).  Returns the pool, or an error pointer (device/err.h):
 *	  ERR_PTR(-EINVAL) if @dev already has a pool that gen_pool_get(@dev,
 *	    @name) finds, without a report, as in the kernel (two unnamed
 *	    pools count as duplicates too); the check and the addition are one
 *	    atomic step;
 *	  ERR_PTR(-EINVAL) for a NULL, garbage or released @dev (WARN EINVAL;
 *	    the kernel would crash or leak);
 *	  ERR_PTR(-ENOMEM) if gen_pool_create() fails, including for an order
 *	    out of range (which gen_pool_create() itself reports, WARN EINVAL):
 *	    the kernel knows only this one failure of the creation.
 *	When the device releases its resources the pool is destroyed; if it
 *	still has live allocations that is gen_pool_destroy()'s BUG EBUSY,
 *	and with a handler that returns, the pool survives and is the
 *	caller's to free (the device no longer knows it).
 *
 * struct gen_pool *gen_pool_get(dev, name)
 *	The newest pool of @dev made by devm_gen_pool_create() whose name
 *	matches: a NULL @name matches only a pool without a name, any other
 *	@name matches by strcmp().  NULL if none, or if @dev was released.
 *	NULL or garbage @dev: WARN EINVAL, NULL.
 *
 * struct gen_pool *of_gen_pool_get(np, propname, index)
 *	Follows the @index-th phandle of property @propname of @np to a node.
 *	If a device is bound to that node, returns that device's unnamed pool
 *	(gen_pool_get(dev, NULL)).  Otherwise the pool belongs to the device
 *	bound to the node's parent, and its name is the node's "label" string
 *	property, or failing that the node's full name (of_node_full_name()):
 *	this is how a driver of an SRAM with partitions names one pool per
 *	child node.  NULL, without a report, when @np or @propname is NULL,
 *	the phandle does not resolve (see of_parse_phandle()), no device is
 *	bound where one is looked for, or that device has no such pool.
 */

/** of_node_get() - no-op in this model (nodes are not reference counted) */
static inline struct device_node *of_node_get(struct device_node *np)
{
	return np;
}

/** of_node_put() - no-op in this model (nodes are not reference counted) */
static inline void of_node_put(struct device_node *np)
{
	(void)np;
}

#ifdef __cplusplus
}
#endif

#endif /* GENALLOC_DEVICE_DEVICE_H */
