// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * mcctl command line parsing; see mcctl_args.h.
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mcctl_args.h"

int usage_err(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return EXIT_USAGE;
}

bool matches(const char *arg, const char *word)
{
	size_t len = strlen(arg);

	return len && !strncmp(arg, word, len);
}

int parse_u32(const char *s, uint32_t *v)
{
	unsigned long long x;
	int base = 10;
	char *end;

	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		s += 2;
	}
	if (!isxdigit((unsigned char)*s))
		return -EINVAL;
	errno = 0;
	x = strtoull(s, &end, base);
	if (errno || *end || x > UINT32_MAX)
		return -EINVAL;
	*v = x;
	return 0;
}

int parse_linger(const char *s, uint32_t *ms, const char **why)
{
	static const struct {
		const char *unit;
		unsigned int ms;
	} units[] = {
		{ "", 1 }, { "ms", 1 }, { "s", 1000 }, { "m", 60000 },
	};
	unsigned long long v;
	unsigned int i;
	char *end;

	/* Digits first: strtoull would take "-1", "+1" and " 1". */
	if (*s < '0' || *s > '9')
		goto malformed;
	errno = 0;
	v = strtoull(s, &end, 10);
	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (!strcmp(end, units[i].unit))
			break;
	if (i == sizeof(units) / sizeof(units[0]))
		goto malformed;
	if (errno || v > IB_MCG_LINGER_MAX_MS / units[i].ms) {
		*why = "longer than one day (86400000 ms)";
		return -EINVAL;
	}
	*ms = v * units[i].ms;
	return 0;

malformed:
	*why = "expected whole milliseconds, or a whole number with unit ms, s or m (500ms, 30s, 2m)";
	return -EINVAL;
}

int parse_devport(const char *s, char *dev, uint32_t *port,
		  bool port_optional)
{
	const char *why;

	if (ibmcg_devport_parse(s, dev, port, port_optional, &why))
		return usage_err("mcctl: invalid %s '%s': %s",
				 port_optional ? "DEV[/PORT]" : "DEV/PORT",
				 s, why);
	return 0;
}

int parse_target(int *argc, char ***argv, char *dev, uint32_t *port,
		 uint8_t *mgid)
{
	const char *why;
	int err;

	if (*argc < 2)
		return usage_err("mcctl: expected DEV/PORT GROUP");
	err = parse_devport((*argv)[0], dev, port, false);
	if (err)
		return err;
	if (ibmcg_mgid_parse((*argv)[1], mgid, &why))
		return usage_err("mcctl: invalid group '%s': %s", (*argv)[1],
				 why);
	*argc -= 2;
	*argv += 2;
	return 0;
}

int parse_filter(int argc, char **argv, char *dev, uint32_t *port)
{
	dev[0] = '\0';
	*port = 0;
	if (argc > 1)
		return usage_err("Unknown parameter '%s'.", argv[1]);
	return argc ? parse_devport(argv[0], dev, port, true) : 0;
}

/* Step to the value of keyword (*argv)[0]; a usage error if none. */
static int next_arg(int *argc, char ***argv)
{
	const char *key = **argv;

	if (*argc < 2)
		return usage_err("mcctl: missing value for '%s'", key);
	(*argc)--;
	(*argv)++;
	return 0;
}

static int parse_owner(const char *s, const char **owner)
{
	const char *why;

	if (ibmcg_owner_check(s, &why))
		return usage_err("mcctl: invalid owner '%s': %s", s, why);
	*owner = s;
	return 0;
}

/* owner NAME and state STATE, shared by join and leave. */
static int parse_holder_arg(int *argcp, char ***argvp, const char **owner,
			    uint8_t *js, bool *used)
{
	const char *why;
	int err;

	*used = true;
	if (matches(**argvp, "owner")) {
		err = next_arg(argcp, argvp);
		if (err)
			return err;
		return parse_owner(**argvp, owner);
	} else if (matches(**argvp, "state")) {
		err = next_arg(argcp, argvp);
		if (err)
			return err;
		if (ibmcg_join_state_parse(**argvp, js, &why))
			return usage_err("mcctl: invalid state '%s': %s",
					 **argvp, why);
	} else {
		*used = false;
	}
	return 0;
}

int parse_join(int argc, char **argv, struct join_cmd *c)
{
	struct ibmcg_join_args *args = &c->args;
	const char *why;
	bool used;
	int err;

	memset(c, 0, sizeof(*c));
	args->owner = "default";
	err = parse_target(&argc, &argv, c->dev, &c->port, c->mgid);
	if (err)
		return err;
	for (; argc > 0; argc--, argv++) {
		err = parse_holder_arg(&argc, &argv, &args->owner,
				       &args->join_state, &used);
		if (err)
			return err;
		if (used)
			continue;
		if (matches(*argv, "qkey")) {
			err = next_arg(&argc, &argv);
			if (err)
				return err;
			if (parse_u32(*argv, &args->qkey))
				return usage_err("mcctl: invalid qkey '%s'",
						 *argv);
			args->set_qkey = true;
		} else if (matches(*argv, "linger")) {
			err = next_arg(&argc, &argv);
			if (err)
				return err;
			if (parse_linger(*argv, &args->linger_ms, &why))
				return usage_err("mcctl: invalid linger '%s': %s",
						 *argv, why);
			args->set_linger = true;
		} else if (matches(*argv, "bound")) {
			args->flags |= IB_MCG_F_BOUND;
		} else {
			return usage_err("Unknown parameter '%s'.", *argv);
		}
	}
	return 0;
}

/* owner NAME all [DEV[/PORT]], after "owner". */
static int parse_leave_owner(int argc, char **argv, struct leave_cmd *c)
{
	int err;

	if (argc < 1)
		return usage_err("mcctl: missing value for 'owner'");
	err = parse_owner(argv[0], &c->owner);
	if (err)
		return err;
	if (argc < 2 || !matches(argv[1], "all"))
		return usage_err("mcctl: expected 'leave owner NAME all [ DEV[/PORT] ]' to drop every hold of '%s'",
				 argv[0]);
	c->all = true;
	if (argc > 3)
		return usage_err("Unknown parameter '%s'.", argv[3]);
	return argc == 3 ? parse_devport(argv[2], c->dev, &c->port, true) : 0;
}

int parse_leave(int argc, char **argv, struct leave_cmd *c)
{
	bool used;
	int err;

	memset(c, 0, sizeof(*c));
	c->owner = "default";
	/* A DEV/PORT always has a slash; the keyword never does. */
	if (argc > 0 && !strchr(argv[0], '/') && matches(argv[0], "owner"))
		return parse_leave_owner(argc - 1, argv + 1, c);

	err = parse_target(&argc, &argv, c->dev, &c->port, c->mgid);
	if (err)
		return err;
	for (; argc > 0; argc--, argv++) {
		err = parse_holder_arg(&argc, &argv, &c->owner,
				       &c->join_state, &used);
		if (err)
			return err;
		if (!used)
			return usage_err("Unknown parameter '%s'.", *argv);
	}
	return 0;
}
