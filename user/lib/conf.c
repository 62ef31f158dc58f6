// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * libibmcg: /etc/ib_mcgroups.conf for applications. The parser
 * (conf_parse.c, with the join options of parse.c) is the library's, and
 * mcctl uses it, so that a name means the same to an application as to
 * "mcctl join NAME"; here it is wrapped in the public objects of ibmcg.h,
 * and its message goes to the caller's buffer.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ibmcg_priv.h"
#include "ibmcg_conf.h"

struct ibmcg_conf {
	struct conf c;
	struct ibmcg_conf_group *groups;	/* one per entry */
};

static void set_err(char *err, size_t errlen, const char *path, int e)
{
	if (err && errlen)
		snprintf(err, errlen, "cannot read %s: %s", path, strerror(e));
}

int ibmcg_conf_open(const char *path, struct ibmcg_conf **conf, char *err,
		    size_t errlen)
{
	struct ibmcg__perr *pe;
	struct ibmcg_conf *cf;
	FILE *fp;
	size_t i;
	int ret, e;

	if (err && errlen)
		err[0] = '\0';
	if (!conf)
		return -EINVAL;
	*conf = NULL;
	if (!path)
		path = IBMCG_CONF_PATH;
	cf = calloc(1, sizeof(*cf));
	pe = calloc(1, sizeof(*pe));
	if (!cf || !pe) {
		free(cf);
		free(pe);
		return -ENOMEM;
	}
	fp = fopen(path, "re");
	if (!fp) {
		e = errno;
		set_err(err, errlen, path, e);
		free(cf);
		free(pe);
		return -e;
	}
	ret = ibmcg__conf_parse(fp, path, &cf->c, pe);
	fclose(fp);
	if (ret) {
		if (err && errlen)
			snprintf(err, errlen, "%s",
				 pe->msg[0] ? pe->msg : "invalid");
		free(cf);
		free(pe);
		return -EINVAL;
	}
	free(pe);
	cf->groups = calloc(cf->c.n ? cf->c.n : 1, sizeof(*cf->groups));
	if (!cf->groups) {
		ibmcg__conf_free(&cf->c);
		free(cf);
		return -ENOMEM;
	}
	for (i = 0; i < cf->c.n; i++) {
		const struct conf_entry *en = &cf->c.entries[i];
		struct ibmcg_conf_group *g = &cf->groups[i];

		g->name = en->name;
		g->pool = en->kind == CONF_POOL;
		g->target = en->tokens[2];
		if (en->target == TARGET_PORT || en->target == TARGET_DEV)
			memcpy(g->dev, en->dev, sizeof(g->dev));
		g->port = en->target == TARGET_PORT ? en->port : 0;
		memcpy(g->mgid, en->join.mgid, sizeof(g->mgid));
		g->owner = en->join.owner_set ? en->join.args.owner : NULL;
		g->line = en->line;
		g->entry = en;
	}
	*conf = cf;
	return 0;
}

void ibmcg_conf_close(struct ibmcg_conf *conf)
{
	if (!conf)
		return;
	ibmcg__conf_free(&conf->c);
	free(conf->groups);
	free(conf);
}

const char *ibmcg_conf_owner(const struct ibmcg_conf *conf)
{
	return conf ? conf->c.owner : NULL;
}

const struct ibmcg_conf_group *
ibmcg_conf_group_at(const struct ibmcg_conf *conf, size_t i)
{
	return conf && i < conf->c.n ? &conf->groups[i] : NULL;
}

const struct ibmcg_conf_group *ibmcg_conf_group(const struct ibmcg_conf *conf,
						const char *name)
{
	size_t i;

	for (i = 0; conf && name && i < conf->c.n; i++)
		if (!strcmp(conf->groups[i].name, name))
			return &conf->groups[i];
	return NULL;
}

bool ibmcg_conf_covers(const struct ibmcg_conf_group *cg,
		       const struct ibmcg_port *p)
{
	return cg && p && ibmcg__conf_covers(cg->entry, p);
}

int ibmcg_conf_join_args(const struct ibmcg_conf_group *cg,
			 struct ibmcg_join_args *args)
{
	struct ibmcg_join_args a;
	size_t size;

	if (!cg || !args)
		return -EINVAL;
	size = args->size;
	if (size < offsetof(struct ibmcg_join_args, owner) + sizeof(a.owner))
		return -EINVAL;
	a = cg->entry->join.args;
	a.owner = cg->owner;
	a.size = size;
	memcpy(args, &a, size < sizeof(a) ? size : sizeof(a));
	return 0;
}
