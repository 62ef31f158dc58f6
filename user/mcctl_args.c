// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * mcctl command line parsing; see mcctl_args.h.
 */
#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mcctl_args.h"

const char *usage_cmd;
const char *mcctl_err_where = "";

int usage_err(const char *fmt, ...)
{
	char *msg = NULL;
	va_list ap;
	int len;

	va_start(ap, fmt);
	len = vasprintf(&msg, fmt, ap);
	va_end(ap);
	if (len < 0) {
		fprintf(stderr, "%smcctl: usage error\n", mcctl_err_where);
		return EXIT_USAGE;
	}
	fprintf(stderr, "%s%s\n", mcctl_err_where, msg);
	free(msg);
	return EXIT_USAGE;
}

int mcctl_perr(const struct ibmcg__perr *pe)
{
	if (pe->unknown)
		return usage_err("mcctl: %s; try \"mcctl %s%shelp\"", pe->msg,
				 usage_cmd ? usage_cmd : "",
				 usage_cmd ? " " : "");
	return usage_err("mcctl: %s", pe->msg);
}

int unknown_param(const char *arg)
{
	return usage_err("mcctl: unknown parameter '%s'; try \"mcctl %s%shelp\"",
			 arg, usage_cmd ? usage_cmd : "", usage_cmd ? " " : "");
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
		return unknown_param(argv[1]);
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

/* The keywords of list, for refusing one given twice. */
enum keyword {
	KW_OWNER, KW_STATE,
};

/*
 * Records keyword @kw (spelled out as @name) in *seen; a usage error if it
 * was given before: "owner a owner b" would otherwise quietly act for b.
 */
static int once(unsigned int *seen, enum keyword kw, const char *name)
{
	if (*seen & (1u << kw))
		return usage_err("mcctl: '%s' given twice: each keyword may be given once",
				 name);
	*seen |= 1u << kw;
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

/* The group states list can filter on: those a dump shows. */
static const uint8_t list_states[] = {
	IB_MCG_STATE_JOINING, IB_MCG_STATE_JOINED, IB_MCG_STATE_RETRY_WAIT,
	IB_MCG_STATE_DETACHED, IB_MCG_STATE_LINGERING,
};

static int parse_group_state(const char *s, uint8_t *state)
{
	size_t i;

	for (i = 0; i < sizeof(list_states); i++) {
		if (!strcmp(s, ibmcg_state_name(list_states[i]))) {
			*state = list_states[i];
			return 0;
		}
	}
	return usage_err("mcctl: invalid group state '%s': expected joining, joined, retry-wait, detached or lingering",
			 s);
}

int parse_list(int argc, char **argv, struct list_cmd *c)
{
	unsigned int seen = 0;
	bool have_dev = false;
	int err;

	memset(c, 0, sizeof(*c));
	for (; argc > 0; argc--, argv++) {
		if (ibmcg__matches(*argv, "owner")) {
			err = once(&seen, KW_OWNER, "owner");
			if (!err)
				err = next_arg(&argc, &argv);
			if (!err)
				err = parse_owner(*argv, &c->owner);
		} else if (ibmcg__matches(*argv, "state")) {
			err = once(&seen, KW_STATE, "state");
			if (!err)
				err = next_arg(&argc, &argv);
			if (!err)
				err = parse_group_state(*argv, &c->state);
		} else if (!have_dev) {
			have_dev = true;
			err = parse_devport(*argv, c->dev, &c->port, true);
		} else {
			err = unknown_param(*argv);
		}
		if (err)
			return err;
	}
	return 0;
}

bool list_match(const struct list_cmd *c, const struct ibmcg_group *g)
{
	size_t i;

	if (c->state && g->state != c->state)
		return false;
	if (!c->owner)
		return true;
	for (i = 0; i < g->nholders; i++)
		if (!strcmp(ibmcg_group_holder(g, i)->owner, c->owner))
			return true;
	return false;
}

/*
 * DEV/PORT GROUP or a name, as parse_target(), where GROUP may also be 0
 * (an SA-assigned MGID: *@mgid stays zero, *@sa, if given, is set).
 */
static int parse_target_or_sa(int *argc, char ***argv, char *dev,
			      uint32_t *port, uint8_t *mgid, bool *sa)
{
	int err;

	if (*argc < 2 || !ibmcg__is_sa_assigned((*argv)[1]))
		return parse_target(argc, argv, dev, port, mgid);
	err = parse_devport((*argv)[0], dev, port, false);
	if (err)
		return err;
	if (sa)
		*sa = true;
	*argc -= 2;
	*argv += 2;
	return 0;
}

int parse_join(int argc, char **argv, struct join_cmd *c)
{
	int err;

	memset(c, 0, sizeof(*c));
	c->args.owner = "default";
	err = parse_target_or_sa(&argc, &argv, c->dev, &c->port, c->mgid,
				 &c->sa_assigned);
	if (err)
		return err;
	return parse_join_opts(argc, argv, c);
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
	if (argc < 2 || !ibmcg__matches(argv[1], "all"))
		return usage_err("mcctl: expected 'leave owner NAME all [ DEV[/PORT] ]' to drop every hold of '%s'",
				 argv[0]);
	c->all = true;
	if (argc > 3)
		return unknown_param(argv[3]);
	return argc == 3 ? parse_devport(argv[2], c->dev, &c->port, true) : 0;
}

int parse_leave(int argc, char **argv, struct leave_cmd *c)
{
	int err;

	memset(c, 0, sizeof(*c));
	c->owner = "default";
	/* A DEV/PORT always has a slash; the keyword never does. */
	if (argc > 0 && !strchr(argv[0], '/') && ibmcg__matches(argv[0], "owner"))
		return parse_leave_owner(argc - 1, argv + 1, c);

	/* Group 0: the groups whose SA-assigned MGID is still pending. */
	err = parse_target_or_sa(&argc, &argv, c->dev, &c->port, c->mgid, NULL);
	if (err)
		return err;
	return parse_holder_opts(argc, argv, &c->owner, &c->join_state);
}


int parse_join_opts(int argc, char **argv, struct join_cmd *c)
{
	struct ibmcg__perr pe = { .where = "" };

	if (ibmcg__parse_join_opts(argc, argv, c, &pe))
		return mcctl_perr(&pe);
	return 0;
}

int parse_holder_opts(int argc, char **argv, const char **owner, uint8_t *js)
{
	struct ibmcg__perr pe = { .where = "" };

	if (ibmcg__parse_holder_opts(argc, argv, owner, js, &pe))
		return mcctl_perr(&pe);
	return 0;
}
