// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * test/fuzz/replay_main.c - a harness without libFuzzer: feeds files to
 * LLVMFuzzerTestOneInput() once each.  Built with the ordinary compiler and
 * flags of the variant (release, asan, valgrind's debug build, ...), so the
 * committed corpus and every input that ever found a bug run in make check.
 *
 *   replay-NAME --check        every file of FUZZ_DIR/regressions/NAME and
 *                              FUZZ_DIR/corpus/NAME
 *   replay-NAME FILE|DIR...    just those (a crash artifact, say)
 *
 * A broken promise aborts the process, so the exit status is the verdict.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz.h"

#ifndef FUZZ_NAME
#error "build with -DFUZZ_NAME=\"legacy\" (or modern, compat)"
#endif
#ifndef FUZZ_DIR
#define FUZZ_DIR "test/fuzz"
#endif

#define REPLAY_MAX_INPUT (1 << 20)

static int replay_file(const char *path)
{
	static unsigned char buf[REPLAY_MAX_INPUT];
	FILE *f = fopen(path, "rb");
	size_t n;

	if (getenv("FUZZ_VERBOSE"))
		fprintf(stderr, "replaying %s\n", path);

	if (!f) {
		perror(path);
		return -1;
	}
	n = fread(buf, 1, sizeof(buf), f);
	fclose(f);
	LLVMFuzzerTestOneInput(buf, n);
	return 0;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Every regular file of @dir, in name order; a missing directory is empty. */
static int replay_dir(const char *dir, int *count)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char **names = NULL;
	size_t n = 0, cap = 0;
	int rc = 0;

	if (!d)
		return 0;
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		if (n == cap) {
			char **grown = realloc(names, (cap = cap ? 2 * cap : 64) * sizeof(*names));

			if (!grown)
				abort();
			names = grown;
		}
		names[n] = malloc(strlen(dir) + strlen(e->d_name) + 2);
		if (!names[n])
			abort();
		sprintf(names[n++], "%s/%s", dir, e->d_name);
	}
	closedir(d);
	qsort(names, n, sizeof(*names), by_name);
	for (size_t k = 0; k < n; k++) {
		if (replay_file(names[k]))
			rc = -1;
		else
			(*count)++;
		free(names[k]);
	}
	free(names);
	return rc;
}

static int replay_path(const char *path, int *count)
{
	struct stat st;

	if (stat(path, &st)) {
		perror(path);
		return -1;
	}
	if (S_ISDIR(st.st_mode))
		return replay_dir(path, count);
	(*count)++;
	return replay_file(path);
}

int main(int argc, char **argv)
{
	int count = 0, rc = 0;

	if (argc < 2 || !strcmp(argv[1], "--check")) {
		rc |= replay_dir(FUZZ_DIR "/regressions/" FUZZ_NAME, &count);
		rc |= replay_dir(FUZZ_DIR "/corpus/" FUZZ_NAME, &count);
	} else {
		for (int k = 1; k < argc; k++)
			rc |= replay_path(argv[k], &count);
	}
	printf("fuzz-%s: %d input(s) replayed%s\n", FUZZ_NAME, count, rc ? ", some unreadable" : "");
	return rc ? 1 : 0;
}
