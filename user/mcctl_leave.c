// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * mcctl leave: a hold on one group, or every hold of an owner; leave
 * GROUPNAME is mcctl_named.c's.
 */
#include <errno.h>
#include <string.h>

#include "mcctl.h"
#include "mcctl_args.h"

const struct cmd_usage leave_usage = {
	"mcctl leave DEV/PORT GROUP [ owner NAME ] [ state STATE ]\n"
	"mcctl leave GROUPNAME [ owner NAME ] [ state STATE ]\n"
	"mcctl leave owner NAME all [ DEV[/PORT] ]\n",
	W_GROUPNAME | W_GROUP | W_STATE | W_NAME, NULL,
};

/* leave owner NAME all [DEV[/PORT]]: one OWNER_RELEASE request. */
static int leave_owner_all(const struct leave_cmd *c)
{
	struct ibmcg_released **rel;
	uint32_t holds;
	size_t n;
	struct ibmcg *h;
	int err;

	h = mcctl_handle(&err);
	if (!h)
		return err;
	err = ibmcg_owner_release(h, c->owner, c->dev[0] ? c->dev : NULL,
				  c->port, &rel, &n, &holds);
	if (err == -EOPNOTSUPP)
		return mcctl_kernel_err_hint(err, -EOPNOTSUPP,
				       "the ib_mcgroups module is too old to release by owner");
	if (err)
		return mcctl_kernel_err_hint(err, -ENOENT, "no such device or port");
	print_owner_release(c->owner, holds, rel, n);
	ibmcg_released_free(rel);
	return mcctl_finish_output();
}

int cmd_leave(int argc, char **argv)
{
	struct ibmcg_group *g;
	struct leave_cmd c;
	struct ibmcg *h;
	int err;

	if (argc > 0 && !strchr(argv[0], '/') && !ibmcg__matches(argv[0], "owner"))
		return leave_named(argc, argv);
	err = parse_leave(argc, argv, &c);
	if (err)
		return err;
	if (c.all)
		return leave_owner_all(&c);

	h = mcctl_handle(&err);
	if (!h)
		return err;
	err = ibmcg_leave(h, c.dev, c.port, c.mgid, c.owner, c.join_state,
			  &g);
	if (err)
		return mcctl_kernel_err_hint(err, -ENOENT, "owner holds nothing matching on that group");
	print_group_detail(g);
	err = mcctl_finish_output();
	ibmcg_group_free(g);
	return err;
}
