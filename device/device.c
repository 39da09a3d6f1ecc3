// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * device/device.c - the device, devres and device-tree model of
 * device/device.h, and the three genalloc functions built on it:
 * devm_gen_pool_create(), gen_pool_get() and of_gen_pool_get().
 *
 * A device's resources form a singly linked list, newest first, so that
 * walking it from the head is both the kernel's lookup order (newest match
 * wins) and its release order (reverse of addition).
 */
#include "device.h"

#include <limits.h>
#include <sched.h>
#include <stdalign.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../common/error.h"
#include "err.h"
#include "../modern/genalloc.h"

/*
 * States of a device, in devres_state.  Magic values rather than 0/1 so
 * that an all-zero device, which the first call initialises (the kernel's
 * bus would have), is told apart from both a live and a released one, and
 * garbage from all three.  BUSY: a first call is initialising it.  The
 * state is read and written with atomic built-ins (the member is a plain
 * unsigned int in the public structure), so threads that meet an all-zero
 * device at once agree on who initialises it.
 */
#define DEVRES_LIVE	0x4c495645u	/* "LIVE" */
#define DEVRES_DEAD	0x44454144u	/* "DEAD" */
#define DEVRES_BUSY	0x42555359u	/* "BUSY" */

/**
 * struct modern_devres - one managed resource: header and caller's data
 * @next:    the next older resource of the same device
 * @release: what gives the resource back
 * @dev:     the device owning the record, NULL until devres_add()
 * @data:    the caller's bytes, aligned for any type
 */
struct modern_devres {
	struct modern_devres *next;
	dr_release_t release;
	struct device *dev;
	alignas(max_align_t) unsigned char data[];
};

static struct modern_devres *devres_of(void *res)
{
	return (void *)((unsigned char *)res - offsetof(struct modern_devres, data));
}

/* Device and resource reports name no pool: the address is the object's. */
static void report_einval(const char *func, const void *obj, const char *msg)
{
	genalloc_report(GENALLOC_WARN, GENALLOC_EINVAL, func, NULL,
			(unsigned long)(uintptr_t)obj, 0, msg);
}

static void devres_setup(struct device *dev)
{
	dev->devres_head = NULL;
	pthread_mutex_init(&dev->devres_lock, NULL);
}

/* The device's state, initialising an all-zero device first. */
static unsigned int device_state(struct device *dev)
{
	unsigned int s = __atomic_load_n(&dev->devres_state, __ATOMIC_ACQUIRE);

	if (s == 0 && __atomic_compare_exchange_n(&dev->devres_state, &s, DEVRES_BUSY, false,
						  __ATOMIC_ACQUIRE, __ATOMIC_ACQUIRE)) {
		devres_setup(dev);
		__atomic_store_n(&dev->devres_state, DEVRES_LIVE, __ATOMIC_RELEASE);
		return DEVRES_LIVE;
	}
	while (s == DEVRES_BUSY) {
		sched_yield();
		s = __atomic_load_n(&dev->devres_state, __ATOMIC_ACQUIRE);
	}
	return s;
}

/*
 * A device may be used when it is live.  A released device is a legal,
 * empty device for lookups; only the callers that add decide to refuse it.
 */
static int device_usable(struct device *dev, const char *func)
{
	unsigned int s;

	if (!dev) {
		report_einval(func, NULL, "NULL device");
		return 0;
	}
	s = device_state(dev);
	if (s != DEVRES_LIVE && s != DEVRES_DEAD) {
		report_einval(func, dev, "device state is garbage (not all zero, not initialized)");
		return 0;
	}
	return 1;
}

static int device_accepts(struct device *dev, const char *func)
{
	if (!device_usable(dev, func))
		return 0;
	if (__atomic_load_n(&dev->devres_state, __ATOMIC_RELAXED) != DEVRES_LIVE) {
		report_einval(func, dev, "device already released");
		return 0;
	}
	return 1;
}

/* ------------------------------------------------------------ devices */

void modern_device_initialize(struct device *dev)
{
	if (!dev) {
		report_einval("device_initialize", NULL, "NULL device");
		return;
	}
	devres_setup(dev);
	__atomic_store_n(&dev->devres_state, DEVRES_LIVE, __ATOMIC_RELEASE);
}

void modern_dev_printk(const char *level, const struct device *dev, const char *fmt, ...)
{
	char line[512];
	int n;
	va_list ap;

	n = snprintf(line, sizeof(line), "%s: %s: ",
		     dev ? (dev->name ? dev->name : "") : "(NULL device *)", level);
	va_start(ap, fmt);
	if (n >= 0 && (size_t)n < sizeof(line))
		vsnprintf(line + n, sizeof(line) - (size_t)n, fmt, ap);
	va_end(ap);
	/* One write, so that concurrent messages do not interleave; the
	 * kernel's log adds the newline a message lacks. */
	n = (int)strlen(line);
	fprintf(stderr, "%s%s", line, n && line[n - 1] == '\n' ? "" : "\n");
}

/*
 * Takes the whole list and sets the device's next state in one hold of the
 * lock; the release functions then run unlocked, so they may use the device.
 */
static int devres_release_list(struct device *dev, unsigned int next_state)
{
	struct modern_devres *dr;
	int released = 0;

	pthread_mutex_lock(&dev->devres_lock);
	dr = dev->devres_head;
	dev->devres_head = NULL;
	__atomic_store_n(&dev->devres_state, next_state, __ATOMIC_RELAXED);
	pthread_mutex_unlock(&dev->devres_lock);

	while (dr) {
		struct modern_devres *next = dr->next;

		dr->release(dev, dr->data);
		free(dr);
		dr = next;
		released++;
	}
	return released;
}

/* Dead before the releases run: what they would add could never be freed. */
void modern_device_release(struct device *dev)
{
	if (!dev || __atomic_load_n(&dev->devres_state, __ATOMIC_RELAXED) != DEVRES_LIVE)
		return;
	devres_release_list(dev, DEVRES_DEAD);
	pthread_mutex_destroy(&dev->devres_lock);
}

/* ------------------------------------------------------------ managed resources */

void *modern_devres_alloc(dr_release_t release, size_t size, gfp_t gfp)
{
	struct modern_devres *dr;

	(void)gfp;
	if (!release) {
		report_einval("devres_alloc", NULL, "NULL release function");
		return NULL;
	}
	if (size > SIZE_MAX - sizeof(*dr))
		return NULL;
	dr = calloc(1, sizeof(*dr) + size);
	if (!dr)
		return NULL;
	dr->release = release;
	return dr->data;
}

void modern_devres_free(void *res)
{
	struct modern_devres *dr;

	if (!res)
		return;
	dr = devres_of(res);
	if (dr->dev) {
		genalloc_report(GENALLOC_BUG, GENALLOC_EBUSY, "devres_free", NULL,
				(unsigned long)(uintptr_t)res, 0,
				"resource still owned by a device");
		return;
	}
	free(dr);
}

/* Adds under the lock held by the caller: the record is known to be free. */
static void devres_link(struct device *dev, struct modern_devres *dr)
{
	dr->dev = dev;
	dr->next = dev->devres_head;
	dev->devres_head = dr;
}

void modern_devres_add(struct device *dev, void *res)
{
	struct modern_devres *dr;

	if (!device_accepts(dev, "devres_add"))
		return;
	if (!res) {
		report_einval("devres_add", dev, "NULL resource");
		return;
	}
	dr = devres_of(res);
	pthread_mutex_lock(&dev->devres_lock);
	if (dr->dev) {
		pthread_mutex_unlock(&dev->devres_lock);
		report_einval("devres_add", dev, "resource already added");
		return;
	}
	devres_link(dev, dr);
	pthread_mutex_unlock(&dev->devres_lock);
}

/* The newest matching record; the caller holds the device's lock. */
static struct modern_devres *devres_lookup(struct device *dev, dr_release_t release,
					   dr_match_t match, void *match_data)
{
	struct modern_devres *dr;

	for (dr = dev->devres_head; dr; dr = dr->next) {
		if (dr->release != release)
			continue;
		if (!match || match(dev, dr->data, match_data))
			return dr;
	}
	return NULL;
}

void *modern_devres_find(struct device *dev, dr_release_t release,
			 dr_match_t match, void *match_data)
{
	struct modern_devres *dr;

	if (!device_usable(dev, "devres_find"))
		return NULL;
	if (__atomic_load_n(&dev->devres_state, __ATOMIC_RELAXED) != DEVRES_LIVE)
		return NULL;
	pthread_mutex_lock(&dev->devres_lock);
	dr = devres_lookup(dev, release, match, match_data);
	pthread_mutex_unlock(&dev->devres_lock);
	return dr ? dr->data : NULL;
}

int modern_devres_release_all(struct device *dev)
{
	if (!device_usable(dev, "devres_release_all"))
		return -ENODEV;
	if (__atomic_load_n(&dev->devres_state, __ATOMIC_RELAXED) != DEVRES_LIVE)
		return 0;
	return devres_release_list(dev, DEVRES_LIVE);
}

/* devm_kzalloc's memory needs nothing but the free() of its record. */
static void devm_kzalloc_release(struct device *dev, void *res)
{
	(void)dev;
	(void)res;
}

void *modern_devm_kzalloc(struct device *dev, size_t size, gfp_t gfp)
{
	void *res;

	if (!device_accepts(dev, "devm_kzalloc"))
		return NULL;
	if (!size)
		return NULL;
	res = modern_devres_alloc(devm_kzalloc_release, size, gfp);
	if (res)
		modern_devres_add(dev, res);
	return res;
}

/* ------------------------------------------------------------ device tree */

/* A string list's bytes: @length if given, else the one string's. */
static int of_prop_string_bytes(const struct property *pp)
{
	return pp->length > 0 ? pp->length : (int)strlen(pp->string) + 1;
}

/*
 * The string after @cur in a string property (the first if @cur is NULL),
 * or NULL at the end; a list's last string need not end in a NUL inside
 * its length, and is then cut there, as the kernel does.
 */
static const char *of_prop_next_string(const struct property *pp, const char *cur)
{
	const char *end;

	if (!pp || !pp->string)
		return NULL;
	if (!cur)
		return pp->string;
	end = pp->string + of_prop_string_bytes(pp);
	cur += strnlen(cur, (size_t)(end - cur)) + 1;
	return cur < end ? cur : NULL;
}

struct property *modern_of_find_property(const struct device_node *np,
					 const char *name, int *lenp)
{
	struct property *pp = NULL;

	if (np && name) {
		for (pp = np->properties; pp; pp = pp->next)
			if (pp->name && !strcmp(pp->name, name))
				break;
	}
	/* As the kernel, @lenp is written only when the property is found. */
	if (lenp && pp) {
		if (pp->string)
			*lenp = of_prop_string_bytes(pp);
		else if (pp->cells)
			*lenp = pp->nr_cells * 4;
		else
			*lenp = pp->phandles ? pp->nr_phandles * 4 : 0;
	}
	return pp;
}

int modern_of_property_read_string(const struct device_node *np,
				   const char *propname, const char **out_string)
{
	const struct property *pp = modern_of_find_property(np, propname, NULL);

	if (!pp || !out_string)
		return -EINVAL;
	if (pp->string) {
		*out_string = pp->string;
		return 0;
	}
	return pp->phandles ? -EILSEQ : -ENODATA;
}

struct device_node *modern_of_parse_phandle(const struct device_node *np,
					    const char *phandle_name, int index)
{
	const struct property *pp;

	if (index < 0)
		return NULL;
	pp = modern_of_find_property(np, phandle_name, NULL);
	if (!pp || !pp->phandles || index >= pp->nr_phandles)
		return NULL;
	return pp->phandles[index];
}

void modern_of_node_add_child(struct device_node *parent, struct device_node *np)
{
	struct device_node **link;

	if (!parent || !np) {
		report_einval("of_node_add_child", parent ? (void *)np : (void *)parent,
			      "NULL node");
		return;
	}
	/* Linked twice, a node would become its own sibling and the children
	 * after it would be lost. */
	if (np->parent || np == parent) {
		report_einval("of_node_add_child", np, "node is already in a tree");
		return;
	}
	np->parent = parent;
	np->sibling = NULL;
	for (link = &parent->child; *link; link = &(*link)->sibling)
		;
	*link = np;
}

/* The tree that searches from NULL walk: set while building, then read. */
static struct device_node *of_root_node;

void modern_of_set_root(struct device_node *root)
{
	__atomic_store_n(&of_root_node, root, __ATOMIC_RELEASE);
}

struct device_node *modern_of_get_next_child(const struct device_node *node,
					     struct device_node *prev)
{
	if (!node)
		return NULL;
	return prev ? prev->sibling : node->child;
}

bool modern_of_device_is_available(const struct device_node *np)
{
	const struct property *pp = modern_of_find_property(np, "status", NULL);

	if (!np)
		return false;
	if (!pp)
		return true;
	return pp->string && (!strcmp(pp->string, "okay") || !strcmp(pp->string, "ok"));
}

struct device_node *modern_of_get_next_available_child(const struct device_node *node,
						       struct device_node *prev)
{
	struct device_node *np = modern_of_get_next_child(node, prev);

	while (np && !modern_of_device_is_available(np))
		np = np->sibling;
	return np;
}

/* The node after @np in the kernel's order: depth first, parents first. */
static struct device_node *of_next_in_tree(const struct device_node *np)
{
	if (np->child)
		return np->child;
	for (; np; np = np->parent)
		if (np->sibling)
			return np->sibling;
	return NULL;
}

static struct device_node *of_search_start(struct device_node *from)
{
	return from ? of_next_in_tree(from) : __atomic_load_n(&of_root_node, __ATOMIC_ACQUIRE);
}

/* ASCII case-insensitive equality: the kernel compares "compatible" so. */
static int of_compat_eq(const char *a, const char *b)
{
	for (; *a && *b; a++, b++) {
		int ca = *a >= 'A' && *a <= 'Z' ? *a - 'A' + 'a' : *a;
		int cb = *b >= 'A' && *b <= 'Z' ? *b - 'A' + 'a' : *b;

		if (ca != cb)
			return 0;
	}
	return *a == *b;
}

/*
 * The kernel's score: a "compatible" match counts most, earlier strings
 * more, and a "device_type" match a little; 0 when something asked for is
 * missing, or when nothing is asked.
 */
static int of_match_score(const struct device_node *np, const char *compat, const char *type)
{
	int score = 0;

	if (compat && compat[0]) {
		const struct property *pp = modern_of_find_property(np, "compatible", NULL);
		const char *cp = NULL;
		int index = 0;

		while ((cp = of_prop_next_string(pp, cp)) != NULL) {
			if (of_compat_eq(cp, compat)) {
				score = INT_MAX / 2 - (index << 2);
				break;
			}
			index++;
		}
		if (!score)
			return 0;
	}
	if (type && type[0]) {
		const char *t;

		if (modern_of_property_read_string(np, "device_type", &t) || strcmp(t, type))
			return 0;
		score += 2;
	}
	return score;
}

int modern_of_device_is_compatible(const struct device_node *np, const char *compat)
{
	if (!np || !compat || !compat[0])
		return 0;
	return of_match_score(np, compat, NULL);
}

struct device_node *modern_of_find_compatible_node(struct device_node *from, const char *type,
						   const char *compat)
{
	struct device_node *np;

	for (np = of_search_start(from); np; np = of_next_in_tree(np))
		if (of_match_score(np, compat, type))
			break;
	return np;
}

struct device_node *modern_of_find_node_by_name(struct device_node *from, const char *name)
{
	struct device_node *np;

	if (!name)
		return NULL;
	for (np = of_search_start(from); np; np = of_next_in_tree(np))
		if (np->name && !strcmp(np->name, name))
			break;
	return np;
}

int modern_of_property_read_u32(const struct device_node *np, const char *propname,
				uint32_t *out_value)
{
	const struct property *pp = modern_of_find_property(np, propname, NULL);

	if (!pp || !out_value)
		return -EINVAL;
	if (pp->cells && pp->nr_cells > 0) {
		*out_value = pp->cells[0];
		return 0;
	}
	return pp->string || pp->phandles ? -EOVERFLOW : -ENODATA;
}

/* The kernel's counts when no node says: one cell each. */
#define OF_DEFAULT_CELLS 1
#define OF_MAX_CELLS 4

/*
 * The cell count @which ("#address-cells", "#size-cells") that governs the
 * "reg" of @np's children: @np's own, or its nearest ancestor's.
 */
static int of_bus_cells(const struct device_node *bus, const char *which)
{
	uint32_t v;

	for (; bus; bus = bus->parent)
		if (!modern_of_property_read_u32(bus, which, &v))
			return v > INT_MAX ? -1 : (int)v;
	return OF_DEFAULT_CELLS;
}

/* @n cells as one number; past two, the low 64 bits (of_read_number). */
static uint64_t of_cells_number(const uint32_t *c, int n)
{
	uint64_t v = 0;

	while (n--)
		v = v << 32 | *c++;
	return v;
}

static int of_counts_ok(int na, int ns)
{
	return na > 0 && na <= OF_MAX_CELLS && ns > 0 && ns <= OF_MAX_CELLS;
}

/*
 * Moves @addr from the address space of @bus's children into that of
 * @bus's parent, through @bus's "ranges"; -EINVAL if it cannot.  @na and
 * @ns count the child side's cells, @pna the parent side's.
 */
static int of_translate_through(const struct device_node *bus, int na, int ns, int pna,
				uint64_t *addr)
{
	const struct property *ranges = modern_of_find_property(bus, "ranges", NULL);
	int one = na + pna + ns;

	if (!ranges)
		return -EINVAL;
	if (!ranges->cells || !ranges->nr_cells)
		return ranges->string || ranges->phandles ? -EINVAL : 0;
	for (int i = 0; i + one <= ranges->nr_cells; i += one) {
		const uint32_t *e = ranges->cells + i;
		uint64_t child = of_cells_number(e, na);
		uint64_t parent = of_cells_number(e + na, pna);
		uint64_t size = of_cells_number(e + na + pna, ns);

		if (*addr >= child && *addr - child < size) {
			*addr = parent + (*addr - child);
			return 0;
		}
	}
	return -EINVAL;
}

int modern_of_address_to_resource(struct device_node *np, int index, struct resource *r)
{
	const struct property *reg, *names;
	const struct device_node *bus;
	const char *name = NULL;
	uint64_t addr, size;
	int na, ns;

	if (!np || !r || !np->parent || index < 0)
		return -EINVAL;
	bus = np->parent;
	na = of_bus_cells(bus, "#address-cells");
	ns = of_bus_cells(bus, "#size-cells");
	if (!of_counts_ok(na, ns))
		return -EINVAL;
	reg = modern_of_find_property(np, "reg", NULL);
	if (!reg || !reg->cells || index >= reg->nr_cells / (na + ns))
		return -EINVAL;
	addr = of_cells_number(reg->cells + (size_t)index * (size_t)(na + ns), na);
	size = of_cells_number(reg->cells + (size_t)index * (size_t)(na + ns) + na, ns);
	/* Up the tree: each bus that has a parent maps its children's
	 * addresses into its parent's; the root's children's are the CPU's. */
	for (; bus->parent; bus = bus->parent) {
		int pna = of_bus_cells(bus->parent, "#address-cells");
		int pns = of_bus_cells(bus->parent, "#size-cells");

		if (!of_counts_ok(pna, pns) || of_translate_through(bus, na, ns, pna, &addr))
			return -EINVAL;
		na = pna;
		ns = pns;
	}
	names = modern_of_find_property(np, "reg-names", NULL);
	for (const char *cp = NULL; (cp = of_prop_next_string(names, cp)) != NULL; index--)
		if (!index) {
			name = cp;
			break;
		}
	memset(r, 0, sizeof(*r));
	r->start = addr;
	r->end = addr + size - 1;
	r->flags = IORESOURCE_MEM;
	r->name = name ? name : of_node_full_name(np);
	return 0;
}

/* ------------------------------------------------------------ platform devices */

const struct bus_type modern_platform_bus_type = { .name = "platform" };

int modern_platform_device_register(struct platform_device *pdev)
{
	struct device *dev;
	struct device_node *np;

	if (!pdev) {
		report_einval("platform_device_register", NULL, "NULL platform device");
		return -EINVAL;
	}
	dev = &pdev->dev;
	np = dev->of_node;
	if (np && np->device && np->device != dev) {
		report_einval("platform_device_register", pdev,
			      "device-tree node already bound to another device");
		return -EBUSY;
	}
	if (!dev->name)
		dev->name = pdev->name;
	dev->bus = &platform_bus_type;
	if (device_state(dev) != DEVRES_LIVE)
		modern_device_initialize(dev);
	if (np)
		np->device = dev;
	return 0;
}

void modern_platform_device_unregister(struct platform_device *pdev)
{
	if (!pdev)
		return;
	modern_device_release(&pdev->dev);
	if (pdev->dev.of_node && pdev->dev.of_node->device == &pdev->dev)
		pdev->dev.of_node->device = NULL;
}

/* ------------------------------------------------------------ managed pools */

/* The resource of a devm pool holds just the pool pointer. */
static void devm_gen_pool_release(struct device *dev, void *res)
{
	(void)dev;
	gen_pool_destroy(*(struct gen_pool **)res);
}

/* A NULL name matches only a pool without a name, as in the kernel. */
static int devm_gen_pool_match(struct device *dev, void *res, void *data)
{
	const struct gen_pool *pool = *(struct gen_pool **)res;
	const char *name = data;

	(void)dev;
	if (!name || !pool->name)
		return !name && !pool->name;
	return !strcmp(pool->name, name);
}

static struct gen_pool *devm_gen_pool_lookup(struct device *dev, const char *name)
{
	struct modern_devres *dr = devres_lookup(dev, devm_gen_pool_release,
						 devm_gen_pool_match, (void *)name);

	return dr ? *(struct gen_pool **)(void *)dr->data : NULL;
}

struct gen_pool *modern_gen_pool_get(struct device *dev, const char *name)
{
	struct gen_pool *pool;

	if (!device_usable(dev, "gen_pool_get"))
		return NULL;
	if (__atomic_load_n(&dev->devres_state, __ATOMIC_RELAXED) != DEVRES_LIVE)
		return NULL;
	pthread_mutex_lock(&dev->devres_lock);
	pool = devm_gen_pool_lookup(dev, name);
	pthread_mutex_unlock(&dev->devres_lock);
	return pool;
}

/*
 * Links the record unless the name was taken meanwhile: the test and the
 * addition share one hold of the lock, which the kernel's version lacks.
 */
static int devm_gen_pool_publish(struct device *dev, struct modern_devres *dr,
				 const char *name)
{
	int taken;

	pthread_mutex_lock(&dev->devres_lock);
	taken = devm_gen_pool_lookup(dev, name) != NULL;
	if (!taken)
		devres_link(dev, dr);
	pthread_mutex_unlock(&dev->devres_lock);
	return taken ? -EINVAL : 0;
}


struct gen_pool *modern_devm_gen_pool_create(struct device *dev, int min_alloc_order,
					     int nid, const char *name)
{
	return modern_devm_gen_pool_create_mode(dev, min_alloc_order, nid, name, false);
}

struct gen_pool *modern_devm_gen_pool_create_mode(struct device *dev, int min_alloc_order,
						  int nid, const char *name, bool lockless)
{
	struct gen_pool **slot, *pool;
	char *pool_name = NULL;

	if (!device_accepts(dev, "devm_gen_pool_create"))
		return ERR_PTR(-EINVAL);
	/* Refuse a duplicate before creating anything, silently, as the
	 * kernel does. */
	if (modern_gen_pool_get(dev, name))
		return ERR_PTR(-EINVAL);
	if (name && !(pool_name = strdup(name)))
		return ERR_PTR(-ENOMEM);
	slot = modern_devres_alloc(devm_gen_pool_release, sizeof(*slot), GFP_KERNEL);
	pool = slot ? modern_gen_pool_create_mode(min_alloc_order, nid, lockless) : NULL;
	if (!pool) {
		modern_devres_free(slot);
		free(pool_name);
		return ERR_PTR(-ENOMEM);
	}
	pool->name = pool_name;
	*slot = pool;
	if (devm_gen_pool_publish(dev, devres_of(slot), name)) {
		modern_devres_free(slot);
		gen_pool_destroy(pool);
		return ERR_PTR(-EINVAL);
	}
	return pool;
}

struct gen_pool *modern_of_gen_pool_get(struct device_node *np, const char *propname,
					int index)
{
	struct device_node *np_pool = of_parse_phandle(np, propname, index);
	struct device *dev;
	const char *name = NULL;

	if (!np_pool)
		return NULL;
	/* Any bound device, platform or not: the model's callers bind plain
	 * devices too, and the pools are the device's either way. */
	dev = np_pool->device;
	if (!dev) {
		/* A partition of a bigger device: its parent made named pools. */
		dev = np_pool->parent ? np_pool->parent->device : NULL;
		if (of_property_read_string(np_pool, "label", &name))
			name = of_node_full_name(np_pool);
	}
	of_node_put(np_pool);
	return dev ? modern_gen_pool_get(dev, name) : NULL;
}
