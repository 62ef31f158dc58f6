// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * mcctl -batch FILE; see mcctl_batch.h.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mcctl_args.h"
#include "mcctl_batch.h"

/* The characters that separate words on a line. */
static int is_sep(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

int mcctl_batch_split(char *line, char **argv, int max, const char **err)
{
	char *s = line, *d;
	int argc = 0;

	for (;;) {
		while (is_sep(*s))
			s++;
		if (!*s || *s == '#')
			return argc;
		if (argc == max) {
			*err = "too many words on the line";
			return -1;
		}
		/* The word is copied down over its quotes, in place. */
		d = s;
		argv[argc++] = d;
		while (*s && !is_sep(*s)) {
			char q = *s;

			if (q != '"' && q != '\'') {
				*d++ = *s++;
				continue;
			}
			s++;
			while (*s && *s != q)
				*d++ = *s++;
			if (!*s) {
				*err = "unterminated quote";
				return -1;
			}
			s++;
		}
		if (*s)
			s++;
		*d = '\0';
	}
}

int mcctl_batch(FILE *fp, const char *name, bool force,
		int (*run)(int argc, char **argv))
{
	char *argv[MCCTL_BATCH_MAX_ARGS + 1];
	char where[512];
	char *line = NULL;
	unsigned long lineno = 0;
	size_t cap = 0;
	int argc, ret, status = 0;
	const char *err;

	while (getline(&line, &cap, fp) >= 0) {
		lineno++;
		snprintf(where, sizeof(where), "%s:%lu: ", name, lineno);
		argc = mcctl_batch_split(line, argv, MCCTL_BATCH_MAX_ARGS,
					 &err);
		if (!argc)
			continue;
		if (argc < 0) {
			fprintf(stderr, "%s%s\n", where, err);
			ret = EXIT_USAGE;
		} else {
			argv[argc] = NULL;
			mcctl_err_where = where;
			ret = run(argc, argv);
			mcctl_err_where = "";
			fflush(stdout);
			if (ret)
				fprintf(stderr, "%scommand failed\n", where);
		}
		if (ret && !status)
			status = ret;
		if (ret && !force)
			break;
	}
	if (ferror(fp)) {
		fprintf(stderr, "mcctl: %s: read error\n", name);
		if (!status)
			status = EXIT_FAILURE;
	}
	free(line);
	return status;
}
