// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * libibmcg internals: the configuration file and the plan of "mcctl
 * apply"; see ibmcg_conf.h and ib_mcgroups.conf(5).
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ibmcg_conf.h"

#define LINE_MAX_LEN	4096

/* Split buf in place into words; '#' starts a comment. */
static int split(char *buf, char ***tokens, int *n)
{
	char **t = NULL, **nt;
	int cnt = 0;
	char *p = buf;

	for (;;) {
		while (isspace((unsigned char)*p))
			p++;
		if (!*p || *p == '#')
			break;
		nt = realloc(t, (cnt + 2) * sizeof(*t));
		if (!nt) {
			free(t);
			return -ENOMEM;
		}
		t = nt;
		t[cnt++] = p;
		while (*p && !isspace((unsigned char)*p))
			p++;
		if (*p)
			*p++ = '\0';
	}
	if (t)
		t[cnt] = NULL;
	*tokens = t;
	*n = cnt;
	return 0;
}

/*
 * The words after "mcctl join NAME" or "mcctl leave NAME" and the help
 * word, which may be abbreviated: "mcctl leave o owner x" takes "o" for
 * owner, so a name that is one of them or an abbreviation of one is
 * refused.
 */
static const char *const keywords[] = {
	"owner", "state", "qkey", "linger", "bound", "create", "pkey", "mtu",
	"rate", "sl", "flow_label", "tclass", "hop_limit", "scope", "all",
	"help",
};

static int check_name(const char *s, struct ibmcg__perr *pe)
{
	size_t i, len = strlen(s);

	for (i = 0; i < sizeof(keywords) / sizeof(keywords[0]); i++)
		if (ibmcg__matches(s, keywords[i]))
			return ibmcg__perr_set(pe, "name '%s' is %s keyword '%s': mcctl join and leave would take it for the keyword",
					 s, strcmp(s, keywords[i]) ?
					 "an abbreviation of the" : "the",
					 keywords[i]);

	if (len > IBMCG__CONF_NAME_MAX)
		return ibmcg__perr_set(pe, "name '%s' is longer than %d characters", s,
				 IBMCG__CONF_NAME_MAX);
	if (!isalnum((unsigned char)s[0]))
		return ibmcg__perr_set(pe, "name '%s' must start with a letter or digit",
				 s);
	for (i = 0; i < len; i++)
		if (!isalnum((unsigned char)s[i]) && !strchr("_.:+-", s[i]))
			return ibmcg__perr_set(pe, "name '%s': only letters, digits and _ . : + - are allowed",
					 s);
	return 0;
}

static int parse_target_word(const char *s, struct conf_entry *e,
			     struct ibmcg__perr *pe)
{
	const char *why;

	if (!strcmp(s, "all")) {
		e->target = TARGET_ALL;
	} else if (!strcmp(s, "all-ib")) {
		e->target = TARGET_ALL_IB;
	} else if (!strcmp(s, "all-roce")) {
		e->target = TARGET_ALL_ROCE;
	} else {
		if (ibmcg_devport_parse(s, e->dev, &e->port, true, &why))
			return ibmcg__perr_set(pe, "invalid target '%s': %s; expected DEV/PORT, DEV, all, all-ib or all-roce",
					 s, why);
		e->target = e->port ? TARGET_PORT : TARGET_DEV;
	}
	return 0;
}

/* group|pool NAME TARGET GROUP [options], in e->tokens. */
static int parse_entry(struct conf *c, struct conf_entry *e,
		       struct ibmcg__perr *pe)
{
	struct join_cmd *j = &e->join;
	const char *why;
	size_t i;
	int err;

	e->kind = strcmp(e->tokens[0], "pool") ? CONF_GROUP : CONF_POOL;
	if (e->ntokens < 4)
		return ibmcg__perr_set(pe, "expected '%s NAME TARGET GROUP [ options ]'",
				 e->tokens[0]);
	err = check_name(e->tokens[1], pe);
	if (err)
		return err;
	for (i = 0; i < c->n; i++)
		if (!strcmp(c->entries[i].name, e->tokens[1]))
			return ibmcg__perr_set(pe, "'%s' is already declared on line %u",
					 e->tokens[1], c->entries[i].line);
	strcpy(e->name, e->tokens[1]);
	err = parse_target_word(e->tokens[2], e, pe);
	if (err)
		return err;
	if (ibmcg__is_sa_assigned(e->tokens[3]))
		return ibmcg__perr_set(pe, "an SA-assigned MGID (0) cannot be declared: every apply would create another group");
	if (ibmcg_mgid_parse(e->tokens[3], j->mgid, &why))
		return ibmcg__perr_set(pe, "invalid group '%s': %s", e->tokens[3], why);
	j->args.owner = "";
	err = ibmcg__parse_join_opts(e->ntokens - 4, e->tokens + 4, j, pe);
	if (err)
		return err;
	if (j->args.flags & IB_MCG_F_BOUND)
		return ibmcg__perr_set(pe, "'bound' ends a hold with the process that took it; declared holds outlive mcctl");
	if (e->kind == CONF_POOL && j->owner_set)
		return ibmcg__perr_set(pe, "a pool has no owner: jobs join it by name with their own ('mcctl join %s owner job:42')",
				 e->name);
	if (e->target == TARGET_ALL_IB && ibmcg__mgid_is_ipv4(j->mgid))
		return ibmcg__perr_set(pe, "an IPv4 group is a RoCE group: all-ib covers no RoCE port");
	if (e->target == TARGET_ALL_ROCE && ibmcg__ib_only_param(&j->args))
		return ibmcg__perr_set(pe, "%s is an InfiniBand create parameter: all-roce covers no InfiniBand port",
				 ibmcg__ib_only_param(&j->args));
	return 0;
}

static int parse_line(struct conf *c, char *line, unsigned int lineno,
		      struct ibmcg__perr *pe)
{
	struct conf_entry *e, *ne;
	char **tokens, *buf;
	const char *why;
	int n, err;

	buf = strdup(line);
	if (!buf || split(buf, &tokens, &n)) {
		free(buf);
		return ibmcg__perr_set(pe, "out of memory");
	}
	if (!n) {
		free(buf);
		return 0;
	}
	if (!strcmp(tokens[0], "owner")) {
		err = 0;
		if (n != 2)
			err = ibmcg__perr_set(pe, "expected 'owner NAME'");
		else if (c->owner[0])
			err = ibmcg__perr_set(pe, "a second owner line: the file has one owner (a group line may name its own)");
		else if (ibmcg_owner_check(tokens[1], &why))
			err = ibmcg__perr_set(pe, "invalid owner '%s': %s", tokens[1],
					why);
		else
			strcpy(c->owner, tokens[1]);
		free(tokens);
		free(buf);
		return err;
	}
	if (strcmp(tokens[0], "group") && strcmp(tokens[0], "pool")) {
		err = ibmcg__perr_set(pe, "unknown keyword '%s': expected owner, group or pool",
				tokens[0]);
		free(tokens);
		free(buf);
		return err;
	}
	ne = realloc(c->entries, (c->n + 1) * sizeof(*ne));
	if (!ne) {
		free(tokens);
		free(buf);
		return ibmcg__perr_set(pe, "out of memory");
	}
	c->entries = ne;
	e = &c->entries[c->n];
	memset(e, 0, sizeof(*e));
	e->line = lineno;
	e->buf = buf;
	e->tokens = tokens;
	e->ntokens = n;
	err = parse_entry(c, e, pe);
	if (err) {
		free(tokens);
		free(buf);
		return err;
	}
	c->n++;
	return 0;
}

int ibmcg__conf_parse(FILE *fp, const char *path, struct conf *c,
		      struct ibmcg__perr *pe)
{
	char line[LINE_MAX_LEN], *cont = NULL, *full;
	unsigned int lineno = 0, first = 0;
	size_t len;
	int err = 0;

	memset(c, 0, sizeof(*c));
	snprintf(c->path, sizeof(c->path), "%s", path);
	while (!err && fgets(line, sizeof(line), fp)) {
		lineno++;
		len = strlen(line);
		snprintf(pe->where, sizeof(pe->where), "%s:%u", path, lineno);
		if (len == sizeof(line) - 1 && line[len - 1] != '\n') {
			err = ibmcg__perr_set(pe, "line longer than %d characters",
					LINE_MAX_LEN - 2);
			break;
		}
		if (len && line[len - 1] == '\n')
			line[--len] = '\0';
		/* A backslash at the end continues the line. */
		full = line;
		if (cont) {
			if (asprintf(&full, "%s %s", cont, line) < 0) {
				err = ibmcg__perr_set(pe, "out of memory");
				break;
			}
			free(cont);
			cont = NULL;
		} else {
			first = lineno;
		}
		len = strlen(full);
		if (len && full[len - 1] == '\\') {
			full[len - 1] = '\0';
			cont = full == line ? strdup(line) : full;
			if (!cont)
				err = ibmcg__perr_set(pe, "out of memory");
			continue;
		}
		snprintf(pe->where, sizeof(pe->where), "%s:%u", path, first);
		err = parse_line(c, full, first, pe);
		if (full != line)
			free(full);
	}
	if (!err && cont) {
		snprintf(pe->where, sizeof(pe->where), "%s:%u", path, first);
		err = ibmcg__perr_set(pe, "the last line ends with a backslash");
	}
	free(cont);
	pe->where[0] = '\0';
	if (!err && ferror(fp))
		err = ibmcg__perr_set(pe, "%s: %s", path, strerror(errno));
	if (err) {
		ibmcg__conf_free(c);
		return err;
	}
	if (!c->owner[0])
		strcpy(c->owner, IBMCG__CONF_OWNER);
	return 0;
}

int ibmcg__conf_load(const char *path, struct conf *c,
		     struct ibmcg__perr *pe)
{
	FILE *fp = fopen(path, "re");
	int err;

	memset(c, 0, sizeof(*c));
	if (!fp)
		return ibmcg__perr_set(pe, "cannot read %s: %s", path,
				       strerror(errno));
	err = ibmcg__conf_parse(fp, path, c, pe);
	fclose(fp);
	return err;
}

void ibmcg__conf_free(struct conf *c)
{
	size_t i;

	for (i = 0; i < c->n; i++) {
		free(c->entries[i].tokens);
		free(c->entries[i].buf);
	}
	free(c->entries);
	c->entries = NULL;
	c->n = 0;
}

const struct conf_entry *ibmcg__conf_find(const struct conf *c, const char *name)
{
	size_t i;

	for (i = 0; i < c->n; i++)
		if (!strcmp(c->entries[i].name, name))
			return &c->entries[i];
	return NULL;
}

const char *ibmcg__conf_entry_owner(const struct conf *c, const struct conf_entry *e)
{
	return e->join.owner_set ? e->join.args.owner : c->owner;
}

bool ibmcg__conf_names_device(const struct conf_entry *e)
{
	return e->target == TARGET_PORT || e->target == TARGET_DEV;
}

bool ibmcg__conf_covers(const struct conf_entry *e, const struct ibmcg_port *p)
{
	bool usable = p->backend != IB_MCG_BACKEND_NONE;

	/*
	 * A multi-port target leaves IPv4 groups to the RoCE ports, and
	 * groups with InfiniBand create parameters to the InfiniBand ones.
	 */
	if (e->target != TARGET_PORT && ibmcg__mgid_is_ipv4(e->join.mgid) &&
	    p->link_layer == IB_MCG_LINK_LAYER_INFINIBAND)
		return false;
	if (e->target != TARGET_PORT && ibmcg__ib_only_param(&e->join.args) &&
	    p->link_layer == IB_MCG_LINK_LAYER_ETHERNET)
		return false;
	switch (e->target) {
	case TARGET_PORT:
		return !strcmp(e->dev, p->dev_name) && e->port == p->port;
	case TARGET_DEV:
		return usable && !strcmp(e->dev, p->dev_name);
	case TARGET_ALL:
		return usable;
	case TARGET_ALL_IB:
		return usable &&
		       p->link_layer == IB_MCG_LINK_LAYER_INFINIBAND;
	case TARGET_ALL_ROCE:
		return usable && p->link_layer == IB_MCG_LINK_LAYER_ETHERNET;
	}
	return false;
}

static const struct ibmcg_group *find_group(struct ibmcg_group *const *groups,
					    size_t n, const char *dev,
					    uint32_t port, const uint8_t *mgid)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (groups[i]->port == port &&
		    !strcmp(groups[i]->dev_name, dev) &&
		    !memcmp(groups[i]->mgid, mgid, IBMCG_GID_LEN))
			return groups[i];
	return NULL;
}

static const struct ibmcg_holder *find_holder(const struct ibmcg_group *g,
					      const char *owner, uint8_t js)
{
	size_t i;

	for (i = 0; g && i < g->nholders; i++)
		if (ibmcg_group_holder(g, i)->join_state == js &&
		    !strcmp(ibmcg_group_holder(g, i)->owner, owner))
			return ibmcg_group_holder(g, i);
	return NULL;
}

static bool same_hold(const struct plan_action *a, const char *dev,
		      uint32_t port, const uint8_t *mgid, const char *owner,
		      uint8_t js)
{
	return a->op != PLAN_SKIP && a->op != PLAN_LEAVE && a->port == port &&
	       a->join_state == js && !strcmp(a->dev, dev) &&
	       !strcmp(a->owner, owner) &&
	       !memcmp(a->mgid, mgid, IBMCG_GID_LEN);
}

static bool declared(const struct plan_action *acts, size_t n,
		     const char *dev, uint32_t port, const uint8_t *mgid,
		     const char *owner, uint8_t js)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (same_hold(&acts[i], dev, port, mgid, owner, js))
			return true;
	return false;
}

static bool managed(const struct conf *c, const char *owner)
{
	size_t i;

	if (!strcmp(owner, c->owner))
		return true;
	for (i = 0; i < c->n; i++)
		if (c->entries[i].kind == CONF_GROUP &&
		    c->entries[i].join.owner_set &&
		    !strcmp(c->entries[i].join.args.owner, owner))
			return true;
	return false;
}

/* Append an action on the hold (dev, port, mgid, owner, js). */
static struct plan_action *add_action(struct plan_action **acts, size_t *n,
				      size_t *cap, enum plan_op op,
				      const char *dev, uint32_t port,
				      const uint8_t *mgid, const char *owner,
				      uint8_t js)
{
	struct plan_action *a;

	if (*n == *cap) {
		size_t ncap = *cap ? 2 * *cap : 16;

		a = realloc(*acts, ncap * sizeof(*a));
		if (!a)
			return NULL;
		*acts = a;
		*cap = ncap;
	}
	a = &(*acts)[(*n)++];
	memset(a, 0, sizeof(*a));
	a->op = op;
	snprintf(a->dev, sizeof(a->dev), "%s", dev);
	a->port = port;
	memcpy(a->mgid, mgid, IBMCG_GID_LEN);
	snprintf(a->owner, sizeof(a->owner), "%s", owner);
	a->join_state = js;
	return a;
}

static int plan_entry(const struct conf *c, const struct conf_entry *e,
		      struct ibmcg_port *const *ports, size_t nports,
		      struct ibmcg_group *const *groups, size_t ngroups,
		      struct plan_action **acts, size_t *n, size_t *cap)
{
	const char *owner = ibmcg__conf_entry_owner(c, e);
	const struct ibmcg_join_args *ja = &e->join.args;
	uint8_t js = ja->join_state ? ja->join_state : IB_MCG_JOIN_FULL;
	const struct ibmcg_group *g;
	struct plan_action *a;
	size_t i, covered = 0;

	for (i = 0; i < nports; i++) {
		const struct ibmcg_port *p = ports[i];

		if (!ibmcg__conf_covers(e, p))
			continue;
		covered++;
		/* The first line that declares a hold plans it. */
		if (declared(*acts, *n, p->dev_name, p->port, e->join.mgid,
			     owner, js))
			continue;
		g = find_group(groups, ngroups, p->dev_name, p->port,
			       e->join.mgid);
		if (g && g->state == IB_MCG_STATE_LINGERING)
			g = NULL;
		a = add_action(acts, n, cap, PLAN_JOIN, p->dev_name, p->port,
			       e->join.mgid, owner, js);
		if (!a)
			return -ENOMEM;
		if (find_holder(g, owner, js)) {
			a->op = PLAN_KEEP;
			if (ja->set_linger && g->linger_ms != ja->linger_ms) {
				a->op = PLAN_UPDATE;
				a->linger_was = g->linger_ms;
			}
		}
		a->entry = e;
		a->args = *ja;
		a->args.join_state = js;
	}
	if (!covered && ibmcg__conf_names_device(e)) {
		a = add_action(acts, n, cap, PLAN_SKIP, e->dev, e->port,
			       e->join.mgid, owner, js);
		if (!a)
			return -ENOMEM;
		a->entry = e;
	}
	return 0;
}

const char *ibmcg__plan_op_name(enum plan_op op)
{
	static const char *const names[] = {
		[PLAN_KEEP]	= "keep",
		[PLAN_JOIN]	= "join",
		[PLAN_UPDATE]	= "update",
		[PLAN_LEAVE]	= "leave",
		[PLAN_SKIP]	= "skip",
	};

	return names[op];
}

int ibmcg__conf_plan(const struct conf *c, struct ibmcg_port *const *ports,
	      size_t nports, struct ibmcg_group *const *groups,
	      size_t ngroups, struct plan_action **out, size_t *n)
{
	struct plan_action *acts = NULL, *a;
	size_t i, j, cap = 0, ndecl;
	int err;

	*n = 0;
	for (i = 0; i < c->n; i++) {
		if (c->entries[i].kind != CONF_GROUP)
			continue;
		err = plan_entry(c, &c->entries[i], ports, nports, groups,
				 ngroups, &acts, n, &cap);
		if (err)
			goto fail;
	}
	ndecl = *n;
	for (i = 0; i < ngroups; i++) {
		const struct ibmcg_group *g = groups[i];

		for (j = 0; j < g->nholders; j++) {
			const struct ibmcg_holder *ho = ibmcg_group_holder(g, j);

			if (!managed(c, ho->owner) ||
			    declared(acts, ndecl, g->dev_name, g->port,
				     g->mgid, ho->owner, ho->join_state))
				continue;
			a = add_action(&acts, n, &cap, PLAN_LEAVE, g->dev_name,
				       g->port, g->mgid, ho->owner,
				       ho->join_state);
			if (!a) {
				err = -ENOMEM;
				goto fail;
			}
		}
	}
	/* args.owner may only point into the array once it stops moving. */
	for (i = 0; i < *n; i++)
		acts[i].args.owner = acts[i].owner;
	*out = acts;
	return 0;

fail:
	free(acts);
	*n = 0;
	return err;
}
