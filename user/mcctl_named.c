// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * "mcctl join NAME" and "mcctl leave NAME" (and "mcctl hold NAME"): a
 * group the configuration file declares (a pool's, typically), on every
 * port it is declared on.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mcctl.h"
#include "mcctl_conf.h"

/* The declared group NAME, with its configuration loaded into *c. */
static int find_named(const char *name, struct conf *c,
		      const struct conf_entry **e)
{
	int ret;

	/* "join rxe0 239.1.1.1" is more likely a missing port than a name. */
	if (access(mcctl_config, R_OK)) {
		memset(c, 0, sizeof(*c));
		return usage_err("mcctl: '%s' is not a DEV/PORT, and no group of that name can be looked up: cannot read %s: %s",
				 name, mcctl_config, strerror(errno));
	}
	ret = conf_load(mcctl_config, c);
	if (ret)
		return ret;
	*e = ibmcg__conf_find(c, name);
	if (!*e) {
		ret = usage_err("mcctl: no group named '%s' in %s (a DEV/PORT needs a slash)",
				name, mcctl_config);
		ibmcg__conf_free(c);
	}
	return ret;
}

static int no_port(const struct conf_entry *e)
{
	fprintf(stderr, "mcctl: group '%s' (line %u) covers no port of this node\n",
		e->name, e->line);
	return EXIT_FAILURE;
}

static bool holds(struct ibmcg *h, const struct ibmcg_port *p,
		  const uint8_t *mgid, const char *owner, uint8_t js)
{
	const struct ibmcg_holder *ho;
	struct ibmcg_group *g;
	bool found = false;
	size_t i;

	if (ibmcg_group_get(h, p->dev_name, p->port, mgid, &g))
		return false;
	for (i = 0; (ho = ibmcg_group_holder(g, i)); i++)
		if (ho->join_state == js && !strcmp(ho->owner, owner))
			found = true;
	ibmcg_group_free(g);
	return found;
}

/*
 * join NAME [options]: the declared group on every port it covers, with
 * its declared options; the command line's (owner, say) come on top. All
 * or nothing: if one port fails, the holds this command took are dropped.
 */
int join_named(int argc, char **argv)
{
	return join_named_then(argc, argv, NULL, NULL, NULL);
}

/*
 * join_named(), or with @then (mcctl hold): bound holds, owned by @owner
 * unless the options name one (an empty @owner: none sent, the kernel
 * names the caller's own), without the declared linger time, nothing
 * printed, and then(@arg) runs while they are held; its return is ours. The caller
 * blocked the signals it waits for.
 */
int join_named_then(int argc, char **argv, const char *owner,
		    int (*then)(void *arg), void *arg)
{
	struct ibmcg_port **ports = NULL;
	struct ibmcg_group **out = NULL;
	const struct conf_entry *e;
	size_t i, k, nports = 0, nout = 0;
	bool *taken = NULL;
	struct join_cmd j;
	struct ibmcg *h;
	struct conf c;
	uint8_t js;
	int ret, err = 0;

	ret = find_named(argv[0], &c, &e);
	if (ret)
		return ret;
	j = e->join;
	j.args.owner = !owner ? "default" : *owner ? owner : NULL;
	j.owner_set = false;
	/*
	 * hold: a group's linger time is the administrator's to set (join
	 * NAME, apply); a user without CAP_NET_ADMIN may give none at all.
	 * A linger given on the command line still counts.
	 */
	if (then)
		j.args.set_linger = false;
	ret = parse_join_opts(argc - 1, argv + 1, &j);
	if (ret)
		goto out;
	js = j.args.join_state ? j.args.join_state : IB_MCG_JOIN_FULL;
	if (then)
		j.args.flags |= IB_MCG_F_BOUND;
	else if (j.args.flags & IB_MCG_F_BOUND)
		mcctl_bound_block();
	h = mcctl_handle(&ret);
	if (!h)
		goto out;
	err = ibmcg_port_dump(h, NULL, &ports, &nports);
	if (err) {
		ret = mcctl_kernel_err(err, NULL);
		goto out;
	}
	out = calloc(nports ? nports : 1, sizeof(*out));
	taken = calloc(nports ? nports : 1, sizeof(*taken));
	if (!out || !taken) {
		ret = mcctl_kernel_err(-ENOMEM, NULL);
		goto out;
	}
	for (i = 0; i < nports; i++) {
		if (!ibmcg__conf_covers(e, ports[i]))
			continue;
		taken[i] = !holds(h, ports[i], j.mgid, j.args.owner, js);
		err = ibmcg_join(h, ports[i]->dev_name, ports[i]->port, j.mgid,
				 &j.args, &out[nout]);
		if (err) {
			taken[i] = false;
			break;
		}
		nout++;
	}
	if (err) {
		ret = mcctl_kernel_err(err, NULL);
		fprintf(stderr, "mcctl: failed on %s/%u", ports[i]->dev_name,
			ports[i]->port);
		for (k = 0; k < i; k++)
			if (taken[k])
				ibmcg_leave(h, ports[k]->dev_name,
					    ports[k]->port, j.mgid,
					    j.args.owner, js, NULL);
		fprintf(stderr, "%s\n", nout ?
			"; the holds this command took on other ports are dropped" : "");
		goto out;
	}
	if (!nout) {
		ret = no_port(e);
		goto out;
	}
	if (then) {
		ret = then(arg);
		goto out;
	}
	open_json_array(NULL);
	for (i = 0; i < nout; i++)
		print_group_detail(out[i]);
	close_json_array();
	ret = mcctl_finish_output();
	if (!ret && (j.args.flags & IB_MCG_F_BOUND))
		mcctl_bound_wait();
out:
	for (i = 0; out && i < nout; i++)
		ibmcg_group_free(out[i]);
	free(out);
	free(taken);
	ibmcg_ports_free(ports);
	ibmcg__conf_free(&c);
	return ret;
}

/* leave NAME [owner O] [state S]: on every port the group covers. */
int leave_named(int argc, char **argv)
{
	struct ibmcg_port **ports = NULL;
	const char *owner = "default";
	const struct conf_entry *e;
	size_t i, nports = 0, left = 0;
	struct ibmcg_group *g;
	uint8_t js = 0;
	struct ibmcg *h;
	struct conf c;
	int ret, err;

	ret = find_named(argv[0], &c, &e);
	if (ret)
		return ret;
	ret = parse_holder_opts(argc - 1, argv + 1, &owner, &js);
	if (ret)
		goto out;
	h = mcctl_handle(&ret);
	if (!h)
		goto out;
	err = ibmcg_port_dump(h, NULL, &ports, &nports);
	if (err) {
		ret = mcctl_kernel_err(err, NULL);
		goto out;
	}
	open_json_array(NULL);
	for (i = 0; i < nports; i++) {
		if (!ibmcg__conf_covers(e, ports[i]))
			continue;
		err = ibmcg_leave(h, ports[i]->dev_name, ports[i]->port,
				  e->join.mgid, owner, js, &g);
		if (err == -ENOENT)
			continue;
		if (err) {
			fprintf(stderr, "mcctl: %s/%u: %s\n", ports[i]->dev_name,
				ports[i]->port, ibmcg_strerror(h, err));
			ret = EXIT_FAILURE;
			continue;
		}
		print_group_detail(g);
		ibmcg_group_free(g);
		left++;
	}
	close_json_array();
	err = mcctl_finish_output();
	if (!ret)
		ret = err;
	if (!ret && !left) {
		fprintf(stderr, "mcctl: owner '%s' holds nothing matching on group '%s'\n",
			owner, e->name);
		ret = EXIT_FAILURE;
	}
out:
	ibmcg_ports_free(ports);
	ibmcg__conf_free(&c);
	return ret;
}
