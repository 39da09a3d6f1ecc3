// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * bench/tracer.c - libgenalloc-trace.so: record a program's heap requests
 * as a genalloc bench trace.
 *
 *   GENALLOC_TRACE=out.trace LD_PRELOAD=build/release/bench/libgenalloc-trace.so prog args
 *   gzip -9 out.trace
 *
 * Interposes malloc, calloc, realloc, free, posix_memalign, aligned_alloc
 * (and memalign, valloc, pvalloc, which glibc programs also call) and writes
 * "a ADDR SIZE" / "f ADDR" lines (see bench/workload.h).  A realloc is
 * written as the allocation of the new block followed by the free of the
 * old, the order in which both exist (a block resized in place as a free
 * then an allocation at the same address); realloc(NULL, n) is a malloc and
 * realloc(p, 0) a free.  Alignment is not recorded: genalloc has its own.
 *
 * "%p" in GENALLOC_TRACE is replaced by the process id.  Only the process
 * that loads the tracer first writes: the variable is removed from its
 * environment (so programs it executes are not traced) and a forked child
 * stops tracing.  Without GENALLOC_TRACE the tracer is inert.  Tracing a
 * shell (a wrapper script) warns on stderr, as does a run that recorded no
 * allocation.
 *
 * The tracer must not allocate through the functions it interposes: its
 * output buffer is static, and while dlsym() looks the real functions up,
 * requests are served from a small static arena that free() recognises.
 */
#include <dlfcn.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define API __attribute__((visibility("default")))

/* The interposed functions, declared here so -Wmissing-prototypes holds. */
API void *malloc(size_t size);
API void *calloc(size_t n, size_t size);
API void *realloc(void *p, size_t size);
API void free(void *p);
API int posix_memalign(void **out, size_t align, size_t size);
API void *aligned_alloc(size_t align, size_t size);
API void *memalign(size_t align, size_t size);
API void *valloc(size_t size);
API void *pvalloc(size_t size);

static void *(*real_malloc)(size_t);
static void *(*real_calloc)(size_t, size_t);
static void *(*real_realloc)(void *, size_t);
static void (*real_free)(void *);
static int (*real_posix_memalign)(void **, size_t, size_t);
static void *(*real_aligned_alloc)(size_t, size_t);
static void *(*real_memalign)(size_t, size_t);

/* What dlsym() may allocate before the real functions are known. */
static _Alignas(16) char boot_arena[64 * 1024];
static atomic_size_t boot_used;

static int trace_fd = -1;
static pid_t trace_pid;
static pthread_mutex_t trace_lock = PTHREAD_MUTEX_INITIALIZER;
static char trace_buf[1 << 16];
static size_t trace_len;
static _Thread_local int in_tracer;
static size_t trace_events;
static atomic_int resolving;

static int from_boot(const void *p)
{
	return (const char *)p >= boot_arena &&
	       (const char *)p < boot_arena + sizeof(boot_arena);
}

static void *boot_alloc(size_t size)
{
	size_t off = atomic_fetch_add(&boot_used, (size + 15) & ~(size_t)15);

	if (off + size > sizeof(boot_arena))
		return NULL;
	return boot_arena + off;
}

static void resolve(void)
{
	if (real_malloc || atomic_exchange(&resolving, 1))
		return;
	real_calloc = (void *(*)(size_t, size_t))dlsym(RTLD_NEXT, "calloc");
	real_realloc = (void *(*)(void *, size_t))dlsym(RTLD_NEXT, "realloc");
	real_free = (void (*)(void *))dlsym(RTLD_NEXT, "free");
	real_posix_memalign = (int (*)(void **, size_t, size_t))dlsym(RTLD_NEXT, "posix_memalign");
	real_aligned_alloc = (void *(*)(size_t, size_t))dlsym(RTLD_NEXT, "aligned_alloc");
	real_memalign = (void *(*)(size_t, size_t))dlsym(RTLD_NEXT, "memalign");
	real_malloc = (void *(*)(size_t))dlsym(RTLD_NEXT, "malloc");
}

static void flush_locked(void)
{
	size_t done = 0;

	while (done < trace_len) {
		ssize_t n = write(trace_fd, trace_buf + done, trace_len - done);

		if (n <= 0)
			break;
		done += (size_t)n;
	}
	trace_len = 0;
}

static char *put_hex(char *s, uint64_t v)
{
	char tmp[16];
	int n = 0;

	*s++ = '0';
	*s++ = 'x';
	do {
		tmp[n++] = "0123456789abcdef"[v & 15];
		v >>= 4;
	} while (v);
	while (n)
		*s++ = tmp[--n];
	return s;
}

static char *put_dec(char *s, uint64_t v)
{
	char tmp[20];
	int n = 0;

	do {
		tmp[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	while (n)
		*s++ = tmp[--n];
	return s;
}

/* One event; snprintf is avoided because it may allocate. */
static void emit(char op, const void *p, size_t size)
{
	char line[64], *s = line;

	if (trace_fd < 0 || !p || in_tracer || getpid() != trace_pid)
		return;
	*s++ = op;
	*s++ = ' ';
	s = put_hex(s, (uintptr_t)p);
	if (op == 'a') {
		*s++ = ' ';
		s = put_dec(s, size);
	}
	*s++ = '\n';
	in_tracer = 1;
	pthread_mutex_lock(&trace_lock);
	if (trace_len + (size_t)(s - line) > sizeof(trace_buf))
		flush_locked();
	memcpy(trace_buf + trace_len, line, (size_t)(s - line));
	trace_len += (size_t)(s - line);
	trace_events++;
	pthread_mutex_unlock(&trace_lock);
	in_tracer = 0;
}

/* A message on stderr, without stdio (which may allocate). */
static void say(const char *a, const char *b, const char *c)
{
	const char *part[3] = { a, b, c };
	int i;

	for (i = 0; i < 3; i++)
		if (part[i] && write(2, part[i], strlen(part[i])) < 0)
			return;
}

/*
 * A shell rarely calls malloc (bash has its own) and the programs it runs
 * are not traced: tracing a wrapper script records next to nothing.
 */
static void warn_if_shell(void)
{
	static const char *const shells[] = { "sh", "bash", "dash", "zsh", "ksh", "mksh",
					      "busybox", NULL };
	char exe[4096];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	const char *base;
	int i;

	if (n <= 0)
		return;
	exe[n] = 0;
	base = strrchr(exe, '/');
	base = base ? base + 1 : exe;
	for (i = 0; shells[i]; i++)
		if (!strcmp(base, shells[i]))
			say("libgenalloc-trace: warning: tracing the shell ", exe,
			    " (a wrapper script?): the programs it runs are not traced; "
			    "preload the tracer into the program itself\n");
}

static void stop_in_child(void)
{
	trace_fd = -1;
}

__attribute__((constructor)) static void tracer_start(void)
{
	const char *spec = getenv("GENALLOC_TRACE");
	char path[4096], *d = path, *end = path + sizeof(path) - 24;
	static const char header[] = "# genalloc bench trace, recorded by libgenalloc-trace.so\n";

	resolve();
	if (!spec || !*spec)
		return;
	for (; *spec && d < end; spec++) {
		if (spec[0] == '%' && spec[1] == 'p') {
			d = put_dec(d, (uint64_t)getpid());
			spec++;
		} else {
			*d++ = *spec;
		}
	}
	*d = 0;
	unsetenv("GENALLOC_TRACE");
	trace_fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (trace_fd < 0)
		return;
	trace_pid = getpid();
	pthread_atfork(NULL, NULL, stop_in_child);
	warn_if_shell();
	if (write(trace_fd, header, sizeof(header) - 1) < 0)
		trace_fd = -1;
}

__attribute__((destructor)) static void tracer_stop(void)
{
	if (trace_fd < 0 || getpid() != trace_pid)
		return;
	pthread_mutex_lock(&trace_lock);
	flush_locked();
	close(trace_fd);
	trace_fd = -1;
	pthread_mutex_unlock(&trace_lock);
	if (!trace_events)
		say("libgenalloc-trace: warning: no allocation recorded; the trace holds its "
		    "header only", "\n", NULL);
}

void *malloc(size_t size)
{
	void *p;

	resolve();
	if (!real_malloc)
		return boot_alloc(size);
	p = real_malloc(size);
	emit('a', p, size);
	return p;
}

void *calloc(size_t n, size_t size)
{
	void *p;

	resolve();
	if (!real_calloc || !real_malloc) {
		/* dlsym's own calloc: the static arena is already zero. */
		if (size && n > SIZE_MAX / size)
			return NULL;
		return boot_alloc(n * size);
	}
	p = real_calloc(n, size);
	emit('a', p, n * size);
	return p;
}

void *realloc(void *old, size_t size)
{
	void *p;

	resolve();
	if (old && from_boot(old)) {
		size_t room = (size_t)(boot_arena + sizeof(boot_arena) - (char *)old);

		p = malloc(size);
		if (p)
			memcpy(p, old, size < room ? size : room);
		return p;
	}
	if (!real_realloc)
		return NULL;
	p = real_realloc(old, size);
	if (!old) {
		emit('a', p, size);
	} else if (!size) {
		emit('f', old, 0);
	} else if (p == old) {
		/* Resized in place: the old block ends where the new begins. */
		emit('f', old, 0);
		emit('a', p, size);
	} else if (p) {
		emit('a', p, size);
		emit('f', old, 0);
	}
	return p;
}

void free(void *p)
{
	if (!p || from_boot(p))
		return;
	resolve();
	emit('f', p, 0);
	if (real_free)
		real_free(p);
}

int posix_memalign(void **out, size_t align, size_t size)
{
	int rc;

	resolve();
	if (!real_posix_memalign)
		return 12;	/* ENOMEM */
	rc = real_posix_memalign(out, align, size);
	if (!rc)
		emit('a', *out, size);
	return rc;
}

void *aligned_alloc(size_t align, size_t size)
{
	void *p;

	resolve();
	if (!real_aligned_alloc)
		return NULL;
	p = real_aligned_alloc(align, size);
	emit('a', p, size);
	return p;
}

void *memalign(size_t align, size_t size)
{
	void *p;

	resolve();
	if (!real_memalign)
		return NULL;
	p = real_memalign(align, size);
	emit('a', p, size);
	return p;
}

void *valloc(size_t size)
{
	return memalign((size_t)sysconf(_SC_PAGESIZE), size);
}

void *pvalloc(size_t size)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);

	return memalign(page, (size + page - 1) & ~(page - 1));
}
