// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * mcctl join DEV/PORT GROUP [options]: one hold; join GROUPNAME is
 * mcctl_named.c's.
 */
#include <string.h>

#include "mcctl.h"
#include "mcctl_args.h"

const struct cmd_usage join_usage = {
	"mcctl join DEV/PORT { GROUP | 0 } [ owner NAME ] [ state STATE ]\n"
	"           [ qkey QKEY ] [ linger TIME ] [ bound ] [ create ]\n"
	"           [ pkey PKEY ] [ mtu MTU ] [ rate RATE ] [ sl SL ]\n"
	"           [ flow_label N ] [ tclass N ] [ hop_limit N ] [ scope N ]\n"
	"mcctl join GROUPNAME [ owner NAME ] [ state STATE ] [ bound ]\n",
	W_GROUPNAME | W_GROUP | W_STATE | W_NAME | W_TIME | W_CREATE, NULL,
};

int cmd_join(int argc, char **argv)
{
	struct ibmcg_group *g;
	struct join_cmd c;
	struct ibmcg *h;
	int err;

	/* A DEV/PORT has a slash, the name of a declared group none. */
	if (argc > 0 && !strchr(argv[0], '/'))
		return join_named(argc, argv);
	err = parse_join(argc, argv, &c);
	if (err)
		return err;
	if (c.args.flags & IB_MCG_F_BOUND)
		mcctl_bound_block();

	h = mcctl_handle(&err);
	if (!h)
		return err;
	err = ibmcg_join(h, c.dev, c.port, c.mgid, &c.args, &g);
	if (err)
		return mcctl_kernel_err(err, NULL);
	print_join_reply(g, c.sa_assigned);
	ibmcg_group_free(g);
	err = mcctl_finish_output();
	if (err || !(c.args.flags & IB_MCG_F_BOUND))
		return err;
	mcctl_bound_wait();
	return 0;
}
