// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * mcctl show DEV/PORT GROUP: one group in detail.
 */
#include <errno.h>

#include "mcctl.h"
#include "mcctl_args.h"

const struct cmd_usage show_usage = {
	"mcctl show DEV/PORT GROUP\n", W_GROUP, NULL,
};

int cmd_show(int argc, char **argv)
{
	char dev[IBMCG_DEV_NAME_MAX];
	struct ibmcg_group *g;
	uint8_t mgid[IBMCG_GID_LEN];
	uint32_t port;
	struct ibmcg *h;
	int err;

	err = parse_target(&argc, &argv, dev, &port, mgid);
	if (err)
		return err;
	if (argc > 0)
		return unknown_param(*argv);

	h = mcctl_handle(&err);
	if (!h)
		return err;
	err = ibmcg_group_get(h, dev, port, mgid, &g);
	if (err)
		return mcctl_kernel_err_hint(err, -ENOENT, "no such group");
	mcctl_note_inconsistent(h);
	print_group_detail(g);
	err = mcctl_finish_output();
	ibmcg_group_free(g);
	return err;
}
