/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * device/device.h - a minimal model of the kernel's devices, managed
 * resources (devres) and device-tree nodes, enough for devm_gen_pool_create(),
 * gen_pool_get() and of_gen_pool_get() (at the end) to behave as they do in
 * the kernel.
 *
 * It is a model, not a driver core.  What it keeps of the kernel:
 *   - a device owns a list of resources, each with a release function;
 *     releasing the device releases them newest first (LIFO), so a resource
 *     may rely on every resource added before it;
 *   - devres_alloc/devres_add/devres_find/devres_free/devres_release_all and
 *     devm_kzalloc with the kernel's signatures and semantics;
 *   - platform devices (struct platform_device, its drvdata, resources and
 *     platform data) as the drivers of SRAM, QE/CPM MURAM and APEI's GHES
 *     use them;
 *   - device-tree nodes with a name, a full name, a parent, children,
 *     properties (strings and string lists, phandle lists, cells, empty
 *     booleans) and the device bound to the node, read through the
 *     kernel's of_* calls: of_find_property, of_property_read_string,
 *     of_property_read_bool, of_property_read_u32, of_parse_phandle,
 *     of_get_parent, child iteration, of_find_compatible_node,
 *     of_find_node_by_name, of_address_to_resource (with "ranges"),
 *     of_find_device_by_node and of_node_full_name.
 * What it leaves out, on purpose:
 *   - no drivers, probing, sysfs or kobjects; no global device list: the
 *     caller builds devices and nodes and binds them (device_set_of_node,
 *     platform_device_register); the one bus is the platform bus;
 *   - no reference counting: of_node_get/of_node_put/get_device/put_device
 *     are no-ops, and the look-ups take no reference;
 *   - no flattened tree to parse: nodes are C structures, properties are
 *     kept decoded (no of_get_property() of raw big-endian bytes);
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
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../common/api.h"
#include "../modern/genalloc.h"
#include "../common/version.h"

#ifdef __cplusplus
extern "C" {
#endif

struct bus_type;
struct device_node;
struct modern_devres;

/* ------------------------------------------------------------ devices */

/**
 * struct device - a device that owns managed resources
 * @name:          the device's name, for messages (may be NULL)
 * @parent:        the parent device, or NULL (informational, as in the kernel)
 * @of_node:       the device-tree node describing the device, or NULL
 * @bus:           the bus the device sits on: &platform_bus_type once
 *                 platform_device_register() has run, else NULL
 * @platform_data: what the code that created the device hands its driver
 *                 (the kernel's board files, ACPI's GHES table entries);
 *                 the model never reads it
 * @driver_data:   the bound driver's own state (dev_set_drvdata()); the
 *                 model never reads it
 *
 * The caller owns the structure (static, automatic or allocated) and sets
 * the public fields; the fields below them are private to device/device.c.
 */
struct device {
	const char *name;
	struct device *parent;
	struct device_node *of_node;
	const struct bus_type *bus;
	void *platform_data;
	void *driver_data;

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

/** dev_get_drvdata() - the driver's state set by dev_set_drvdata() */
static inline void *dev_get_drvdata(const struct device *dev)
{
	return dev->driver_data;
}

/** dev_set_drvdata() - keep the driver's state in the device */
static inline void dev_set_drvdata(struct device *dev, void *data)
{
	dev->driver_data = data;
}

/** dev_get_platdata() - the device's platform data, or NULL */
static inline void *dev_get_platdata(const struct device *dev)
{
	return dev->platform_data;
}

/*
 * get_device(), put_device() - no-ops: the model counts no references, so
 * the put_device() a driver owes after of_find_device_by_node() does
 * nothing.  get_device() returns its argument, as the kernel's.
 */
static inline struct device *get_device(struct device *dev)
{
	return dev;
}

static inline void put_device(struct device *dev)
{
	(void)dev;
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

/* ------------------------------------------------------------ platform devices */

/*
 * container_of() - the structure that embeds @ptr as its @member, as the
 * kernel's (defined only if the includer has not defined its own)
 */
#ifndef container_of
#define container_of(ptr, type, member)                                      \
	((type *)(void *)((char *)(ptr) - offsetof(type, member)))
#endif

/** typedef resource_size_t - a bus address or size (the kernel's phys_addr_t) */
typedef unsigned long long resource_size_t;

/* The kind of a resource, in its flags (the kernel's values). */
#define IORESOURCE_TYPE_BITS	0x00001f00UL
#define IORESOURCE_IO		0x00000100UL
#define IORESOURCE_MEM		0x00000200UL

/**
 * struct resource - a range of bus addresses, as the kernel's <linux/ioport.h>
 * @start: the first address
 * @end:   the last address (inclusive: @start - 1 for an empty range)
 * @name:  who owns it, for messages
 * @flags: its kind: IORESOURCE_MEM or IORESOURCE_IO
 * @desc:  kept for the kernel's layout; the model leaves it 0
 */
struct resource {
	resource_size_t start;
	resource_size_t end;
	const char *name;
	unsigned long flags;
	unsigned long desc;
};

/** resource_size() - the bytes a resource spans */
static inline resource_size_t resource_size(const struct resource *res)
{
	return res->end - res->start + 1;
}

/** resource_type() - the kind bits of a resource's flags */
static inline unsigned long resource_type(const struct resource *res)
{
	return res->flags & IORESOURCE_TYPE_BITS;
}

/**
 * struct bus_type - a bus, known by its address; the model has one,
 * platform_bus_type
 * @name: "platform"
 */
struct bus_type {
	const char *name;
};

GENALLOC_API extern const struct bus_type modern_platform_bus_type;
#define platform_bus_type modern_platform_bus_type

/** dev_is_platform() - whether @dev was registered as a platform device */
#define dev_is_platform(dev) ((dev)->bus == &platform_bus_type)

/**
 * struct platform_device - a device on the platform bus, as the kernel's
 * <linux/platform_device.h>: SoC blocks (SRAM, QE/CPM MURAM) and firmware
 * devices (APEI's GHES) that drivers find through their device-tree node
 * @name:          the device's name, e.g. "mmio-sram"
 * @id:            its instance number, or -1 (PLATFORM_DEVID_NONE)
 * @dev:           the device itself (its @of_node, @platform_data, ...)
 * @num_resources: entries in @resource
 * @resource:      its address ranges, read by platform_get_resource()
 *
 * The caller owns the structure and fills the fields, as a board file
 * does, then calls platform_device_register().
 */
struct platform_device {
	const char *name;
	int id;
	struct device dev;
	unsigned int num_resources;
	struct resource *resource;
};

#define PLATFORM_DEVID_NONE (-1)

/** to_platform_device() - the platform device that embeds @dev */
#define to_platform_device(x) container_of((x), struct platform_device, dev)

/** platform_get_drvdata() - the driver's state, dev_get_drvdata() of @pdev->dev */
static inline void *platform_get_drvdata(const struct platform_device *pdev)
{
	return dev_get_drvdata(&pdev->dev);
}

/** platform_set_drvdata() - keep the driver's state in @pdev->dev */
static inline void platform_set_drvdata(struct platform_device *pdev, void *data)
{
	dev_set_drvdata(&pdev->dev, data);
}

/**
 * platform_get_resource() - a platform device's @num-th resource of a kind
 * @dev:  the platform device
 * @type: IORESOURCE_MEM or IORESOURCE_IO
 * @num:  which of that kind, from 0
 *
 * Return: the resource, or NULL if @dev has fewer of that kind.
 */
static inline struct resource *platform_get_resource(struct platform_device *dev,
						     unsigned int type, unsigned int num)
{
	for (unsigned int i = 0; i < dev->num_resources; i++) {
		struct resource *r = &dev->resource[i];

		if (resource_type(r) == type && num-- == 0)
			return r;
	}
	return NULL;
}

GENALLOC_API int modern_platform_device_register(struct platform_device *pdev);
GENALLOC_API void modern_platform_device_unregister(struct platform_device *pdev);

/**
 * platform_device_register() - put a platform device on the bus
 * @pdev: the device, its fields filled
 *
 * Sets @pdev->dev.bus to &platform_bus_type, names the device @pdev->name
 * if it has no name, makes it ready to own resources (a device that was
 * released becomes live again; one already live keeps what it owns) and,
 * if @pdev->dev.of_node is set, binds the node to the device, so that
 * of_find_device_by_node() finds it.  There are no drivers to probe.
 *
 * Return: 0; -EINVAL (WARN EINVAL) for a NULL @pdev; -EBUSY (WARN EINVAL),
 * changing nothing, if the node is already bound to another device.
 */
static inline int platform_device_register(struct platform_device *pdev)
{
	return modern_platform_device_register(pdev);
}

/**
 * platform_device_unregister() - take a platform device off the bus
 * @pdev: the device, or NULL (ignored)
 *
 * Releases the device (device_release(): its pools and other managed
 * resources go, newest first) and unbinds its node.
 */
static inline void platform_device_unregister(struct platform_device *pdev)
{
	modern_platform_device_unregister(pdev);
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
 * @length:      for a string list (compatible = "a", "b"): the bytes of
 *               @string, every string's NUL counted ("a\0b" has length 4,
 *               sizeof the C literal); 0 for a single string
 * @cells:       the value of a cell property (reg, ranges, #address-cells):
 *               @nr_cells 32-bit cells in host order, as the .dts writes
 *               them between < and >, or NULL
 * @nr_cells:    entries in @cells
 *
 * Set one of @string, @phandles or @cells; none for a property that is
 * there without a value ("pool;", "export;").  The kernel keeps raw
 * big-endian bytes; this model keeps the kinds its readers need, decoded.
 */
struct property {
	const char *name;
	const char *string;
	struct device_node **phandles;
	int nr_phandles;
	struct property *next;
	int length;
	const uint32_t *cells;
	int nr_cells;
};

/**
 * struct device_node - a device-tree node, built by the caller
 * @name:       the node name without unit address, e.g. "sram"
 * @full_name:  the name with unit address, e.g. "sram@5c000000" (as the
 *              kernel's full_name: the last path component)
 * @parent:     the parent node, or NULL for the root
 * @properties: the first property, or NULL
 * @device:     the device bound to this node, or NULL; the model's stand-in
 *              for the platform bus (set it with device_set_of_node() or
 *              platform_device_register())
 * @child:      the first child, or NULL
 * @sibling:    the parent's next child, or NULL
 *
 * Lookups that go up read @parent; those that go down or across (child
 * iteration, of_find_compatible_node()) read @child and @sibling.  Set both
 * with of_node_add_child(), or set all three by hand, consistently.
 */
struct device_node {
	const char *name;
	const char *full_name;
	struct device_node *parent;
	struct property *properties;
	struct device *device;
	struct device_node *child;
	struct device_node *sibling;
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
 * of_find_device_by_node() - the platform device bound to a node
 * @np: the node, or NULL
 *
 * As the kernel's (declared in its <linux/of_platform.h>), only platform
 * devices are found: a device bound with device_set_of_node() but never
 * registered with platform_device_register() is not on the platform bus.
 * The kernel takes a reference the caller drops with put_device(); the
 * model counts none, so put_device() is a no-op.
 *
 * Return: the platform device, or NULL: NULL @np, no device bound, or the
 * bound device is not a platform device.
 */
static inline struct platform_device *of_find_device_by_node(const struct device_node *np)
{
	if (!np || !np->device || !dev_is_platform(np->device))
		return NULL;
	return to_platform_device(np->device);
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

GENALLOC_API void modern_of_node_add_child(struct device_node *parent,
					   struct device_node *np);
GENALLOC_API void modern_of_set_root(struct device_node *root);
GENALLOC_API struct device_node *modern_of_get_next_child(const struct device_node *node,
							  struct device_node *prev);
GENALLOC_API struct device_node *modern_of_get_next_available_child(const struct device_node *node,
								    struct device_node *prev);
GENALLOC_API struct device_node *modern_of_find_compatible_node(struct device_node *from,
								const char *type,
								const char *compat);
GENALLOC_API struct device_node *modern_of_find_node_by_name(struct device_node *from,
							     const char *name);
GENALLOC_API int modern_of_device_is_compatible(const struct device_node *np,
						const char *compat);
GENALLOC_API bool modern_of_device_is_available(const struct device_node *np);
GENALLOC_API int modern_of_property_read_u32(const struct device_node *np,
					     const char *propname, uint32_t *out_value);
GENALLOC_API int modern_of_address_to_resource(struct device_node *np, int index,
					       struct resource *r);

/**
 * of_node_add_child() - make @np the last child of @parent
 * @parent: the parent (not NULL)
 * @np:     the new child (not NULL), in no tree yet
 *
 * Model only, for building a tree: sets @np->parent and appends @np to
 * @parent's children, so that they iterate in the order added, as the
 * nodes of a .dts.  Call it while building, before sharing.  A NULL
 * argument, a node that already has a parent, or a node added under
 * itself is reported (WARN EINVAL) and changes nothing.
 */
static inline void of_node_add_child(struct device_node *parent, struct device_node *np)
{
	modern_of_node_add_child(parent, np);
}

/**
 * of_set_root() - the tree that searches starting from NULL walk
 * @root: the root node ("/"), or NULL for none
 *
 * Model only: the kernel's tree is the one firmware handed it; here the
 * caller says which it built.  of_find_compatible_node(NULL, ...) and
 * of_find_node_by_name(NULL, ...) search from @root; with no root set they
 * find nothing.  A search that starts from a node walks that node's own
 * tree, whatever the root.  Call it while building, before sharing.
 */
static inline void of_set_root(struct device_node *root)
{
	modern_of_set_root(root);
}

/**
 * of_get_next_child() - iterate over a node's children
 * @node: the parent, or NULL
 * @prev: the child returned last time, or NULL to start
 *
 * Return: the child after @prev (the first if @prev is NULL), or NULL at
 * the end or for a NULL @node.  The kernel takes a reference on the child
 * and drops @prev's; the model counts none.
 */
static inline struct device_node *of_get_next_child(const struct device_node *node,
						    struct device_node *prev)
{
	return modern_of_get_next_child(node, prev);
}

/**
 * of_get_next_available_child() - as of_get_next_child(), skipping
 * children that of_device_is_available() calls disabled
 */
static inline struct device_node *of_get_next_available_child(const struct device_node *node,
							      struct device_node *prev)
{
	return modern_of_get_next_available_child(node, prev);
}

/* Every child of @parent in turn, as the kernel's macros. */
#define for_each_child_of_node(parent, child)                                 \
	for (child = of_get_next_child(parent, NULL); child != NULL;          \
	     child = of_get_next_child(parent, child))
#define for_each_available_child_of_node(parent, child)                       \
	for (child = of_get_next_available_child(parent, NULL); child != NULL; \
	     child = of_get_next_available_child(parent, child))

/** of_get_child_count() - how many children @np has (0 for NULL) */
static inline int of_get_child_count(const struct device_node *np)
{
	struct device_node *child;
	int n = 0;

	for_each_child_of_node(np, child)
		n++;
	return n;
}

/** of_get_available_child_count() - how many of them are available */
static inline int of_get_available_child_count(const struct device_node *np)
{
	struct device_node *child;
	int n = 0;

	for_each_available_child_of_node(np, child)
		n++;
	return n;
}

/**
 * of_find_compatible_node() - the next node compatible with a string
 * @from:   the node to search after (it is not itself a candidate), or
 *          NULL to search the whole tree set by of_set_root()
 * @type:   the "device_type" the node must have, or NULL for any
 * @compat: a string the node's "compatible" list must hold (compared
 *          ignoring case, as the kernel), or NULL or "" for any
 *
 * Nodes are searched in the kernel's order: depth first, each node before
 * its children, children in order.  With neither @type nor @compat given,
 * nothing matches (as the kernel).  Status is not looked at.  The kernel
 * drops a reference to @from and takes one on the result; the model counts
 * none.
 *
 * Return: the node, or NULL if none follows.
 */
static inline struct device_node *of_find_compatible_node(struct device_node *from,
							  const char *type,
							  const char *compat)
{
	return modern_of_find_compatible_node(from, type, compat);
}

/* Every node compatible with @compat, in the kernel's order. */
#define for_each_compatible_node(dn, type, compat)                            \
	for (dn = of_find_compatible_node(NULL, type, compat); dn;            \
	     dn = of_find_compatible_node(dn, type, compat))

/**
 * of_find_node_by_name() - the next node called @name
 * @from: as of_find_compatible_node()'s
 * @name: the node name without unit address ("data-only"), or NULL
 *
 * Return: the node, or NULL if none follows or @name is NULL.
 */
static inline struct device_node *of_find_node_by_name(struct device_node *from,
						       const char *name)
{
	return modern_of_find_node_by_name(from, name);
}

/**
 * of_device_is_compatible() - whether a node's "compatible" list holds
 * @compat (ignoring case)
 *
 * Return: 0 if not (also for a NULL argument or an empty @compat);
 * otherwise a positive score, higher for a string earlier in the list, as
 * the kernel's.
 */
static inline int of_device_is_compatible(const struct device_node *np, const char *compat)
{
	return modern_of_device_is_compatible(np, compat);
}

/**
 * of_device_is_available() - whether a node is enabled: it has no
 * "status", or its status is "okay" or "ok"; false for a NULL node
 */
static inline bool of_device_is_available(const struct device_node *np)
{
	return modern_of_device_is_available(np);
}

/**
 * of_property_read_bool() - whether a node has a property (a boolean
 * property is true by being there: "pool;"); false for a NULL argument
 */
static inline bool of_property_read_bool(const struct device_node *np, const char *propname)
{
	return of_find_property(np, propname, NULL) != NULL;
}

/** of_property_present() - whether a node has a property, of any kind */
static inline bool of_property_present(const struct device_node *np, const char *propname)
{
	return of_find_property(np, propname, NULL) != NULL;
}

/**
 * of_property_read_u32() - read the first cell of a cell property
 * @np:        the node
 * @propname:  the property's name
 * @out_value: receives the cell; untouched on failure
 *
 * Return: 0; -EINVAL if there is no such property (or an argument is
 * NULL); -ENODATA if it has no value; -EOVERFLOW if its value is not
 * cells (a string or phandles: the kernel reads raw bytes, the model
 * refuses rather than guess).
 */
static inline int of_property_read_u32(const struct device_node *np, const char *propname,
				       uint32_t *out_value)
{
	return modern_of_property_read_u32(np, propname, out_value);
}

/**
 * of_address_to_resource() - an entry of a node's "reg", as a CPU address
 * @np:    the node
 * @index: which (address, size) pair of "reg", from 0
 * @r:     receives the range; untouched on failure
 *
 * As the kernel's (declared in its <linux/of_address.h>): the entry is
 * #address-cells then #size-cells cells, both read from the parent (or the
 * nearest ancestor that has them; 1 and 1 if none does).  The address is
 * translated up the tree: through each ancestor bus's "ranges" (an entry
 * (child address, parent address, size) whose child range holds it; an
 * empty "ranges" maps 1:1) until the root.  Counts past two cells keep the
 * low 64 bits.  @r gets start, end = start + size - 1, IORESOURCE_MEM, and
 * as name the @index-th "reg-names" string, or the node's full name.
 *
 * Return: 0, or -EINVAL: NULL @np or @r, a node without parent, no "reg"
 * or too few entries, @index negative, #address-cells not 1 to 4 or
 * #size-cells 0 or more than 4, an ancestor bus without "ranges", or an
 * address no "ranges" entry covers (the kernel's OF_BAD_ADDR).  No report.
 */
static inline int of_address_to_resource(struct device_node *np, int index, struct resource *r)
{
	return modern_of_address_to_resource(np, index, r);
}

/* ------------------------------------------------------------ managed pools */
/*
 * The kernel declares these three in <linux/genalloc.h>, which here
 * includes this header for them; they are built on the model above
 * (device/device.c).
 */

GENALLOC_API struct gen_pool *modern_devm_gen_pool_create(struct device *dev,
							  int min_alloc_order, int nid,
							  const char *name);
GENALLOC_API struct gen_pool *modern_devm_gen_pool_create_mode(struct device *dev,
							       int min_alloc_order, int nid,
							       const char *name,
							       bool lockless);
GENALLOC_API struct gen_pool *modern_gen_pool_get(struct device *dev, const char *name);
GENALLOC_API struct gen_pool *modern_of_gen_pool_get(struct device_node *np,
						     const char *propname, int index);

/**
 * devm_gen_pool_create() - create a pool bound to a device's lifetime
 * @dev:             the device
 * @min_alloc_order: as for gen_pool_create()
 * @nid:             ignored
 * @name:            the pool's name, for gen_pool_get(); may be NULL
 *
 * Creates a pool with gen_pool_create(@min_alloc_order, @nid), in the mode
 * gen_pool_create() gives where this header is included, records it as a
 * resource of @dev whose release is gen_pool_destroy(), and gives it a copy
 * of @name (NULL stays NULL; gen_pool_destroy() frees the copy).  When the
 * device releases its resources the pool is destroyed; if it still has
 * live allocations that is gen_pool_destroy()'s BUG EBUSY, and with a
 * handler that returns, the pool survives and is the caller's to free (the
 * device no longer knows it).
 *
 * Return: the pool, or an error pointer (device/err.h):
 * ERR_PTR(-EINVAL) if @dev already has a pool that gen_pool_get(@dev,
 * @name) finds, without a report, as in the kernel (two unnamed pools count
 * as duplicates too; the check and the addition are one atomic step);
 * ERR_PTR(-EINVAL) for a NULL, garbage or released @dev (WARN EINVAL; the
 * kernel would crash or leak); ERR_PTR(-ENOMEM) if gen_pool_create() fails,
 * including for an order out of range (which gen_pool_create() itself
 * reports, WARN EINVAL): the kernel knows only this one failure of the
 * creation.
 */
static inline struct gen_pool *devm_gen_pool_create(struct device *dev,
						    int min_alloc_order, int nid,
						    const char *name)
{
	return modern_devm_gen_pool_create_mode(dev, min_alloc_order, nid, name,
						GENALLOC_DEFAULT_LOCKLESS);
}

/**
 * gen_pool_get() - find a device's pool by name
 * @dev:  the device
 * @name: the name given to devm_gen_pool_create(), or NULL
 *
 * Return: the newest pool of @dev made by devm_gen_pool_create() whose name
 * matches: a NULL @name matches only a pool without a name, any other
 * @name matches by strcmp().  NULL if none, or if @dev was released.  NULL
 * or garbage @dev: WARN EINVAL, NULL.
 */
static inline struct gen_pool *gen_pool_get(struct device *dev, const char *name)
{
	return modern_gen_pool_get(dev, name);
}

/**
 * of_gen_pool_get() - find the pool a device-tree property points to
 * @np:       the node
 * @propname: the phandle property
 * @index:    which phandle in the property
 *
 * Follows the @index-th phandle of property @propname of @np to a node.  If
 * a device is bound to that node, the pool is that device's unnamed pool
 * (gen_pool_get(dev, NULL)).  Otherwise the pool belongs to the device bound
 * to the node's parent, and its name is the node's "label" string property,
 * or failing that the node's full name (of_node_full_name()): this is how a
 * driver of an SRAM with partitions names one pool per child node.
 *
 * Return: the pool; NULL, without a report, when @np or @propname is NULL,
 * the phandle does not resolve (see of_parse_phandle()), no device is bound
 * where one is looked for, or that device has no such pool.
 */
static inline struct gen_pool *of_gen_pool_get(struct device_node *np,
					       const char *propname, int index)
{
	return modern_of_gen_pool_get(np, propname, index);
}

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
