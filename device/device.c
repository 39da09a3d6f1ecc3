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
			*lenp = (int)strlen(pp->string) + 1;
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
	dev = of_find_device_by_node(np_pool);
	if (!dev) {
		/* A partition of a bigger device: its parent made named pools. */
		dev = of_find_device_by_node(of_get_parent(np_pool));
		if (of_property_read_string(np_pool, "label", &name))
			name = of_node_full_name(np_pool);
	}
	of_node_put(np_pool);
	return dev ? modern_gen_pool_get(dev, name) : NULL;
}
