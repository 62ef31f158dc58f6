/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * Minimal KTAP producer for the host unit tests: a table of cases, each
 * one "ok N - name" line; failed expectations print "# file:line" first.
 */
#ifndef MCCTL_KTAP_H
#define MCCTL_KTAP_H

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

struct ktap_case {
	const char *name;
	void (*fn)(void);
};

static bool ktap_case_ok;
static const char *ktap_case_skip;

/* Mark the running case skipped; return from it after calling this. */
static inline void ktap_skip(const char *why)
{
	ktap_case_skip = why;
}

#define KTAP_CASE(f)	{ #f, f }

#define EXPECT(cond)							\
	do {								\
		if (!(cond)) {						\
			ktap_case_ok = false;				\
			printf("# %s:%d: expected %s\n", __FILE__,	\
			       __LINE__, #cond);			\
		}							\
	} while (0)

/* A diagnostic string on one "#" line: newlines and quotes escaped. */
static inline void ktap_print_str(const char *label, const char *s)
{
	printf("#   %s: ", label);
	if (!s) {
		printf("(null)\n");
		return;
	}
	putchar('"');
	for (; *s; s++) {
		if (*s == '\n')
			printf("\\n");
		else if (*s == '"' || *s == '\\')
			printf("\\%c", *s);
		else
			putchar(*s);
	}
	printf("\"\n");
}

#define EXPECT_STR(got, want)						\
	do {								\
		const char *g_ = (got), *w_ = (want);			\
		if (!g_ || strcmp(g_, w_)) {				\
			ktap_case_ok = false;				\
			printf("# %s:%d: %s\n", __FILE__, __LINE__, #got); \
			ktap_print_str("got ", g_);			\
			ktap_print_str("want", w_);			\
		}							\
	} while (0)

static inline int ktap_run(const struct ktap_case *cases, size_t n)
{
	size_t i, failed = 0;

	printf("TAP version 13\n1..%zu\n", n);
	for (i = 0; i < n; i++) {
		ktap_case_ok = true;
		ktap_case_skip = NULL;
		fflush(stdout);
		cases[i].fn();
		if (!ktap_case_ok)
			failed++;
		printf("%sok %zu - %s", ktap_case_ok ? "" : "not ", i + 1,
		       cases[i].name);
		if (ktap_case_skip && ktap_case_ok)
			printf(" # SKIP %s", ktap_case_skip);
		putchar('\n');
	}
	fflush(stdout);
	return failed ? 1 : 0;
}

#define KTAP_MAIN(cases)						\
	int main(void)							\
	{								\
		return ktap_run(cases, sizeof(cases) / sizeof(cases[0])); \
	}

#endif /* MCCTL_KTAP_H */
