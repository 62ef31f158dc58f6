// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * mcctl list: the groups, filtered.
 */
#include <errno.h>

#include "mcctl.h"
#include "mcctl_args.h"

const struct cmd_usage list_usage = {
	"mcctl list [ DEV[/PORT] ] [ owner NAME ] [ state GROUPSTATE ]\n",
	W_NAME | W_GROUPSTATE, NULL,
};

int cmd_list(int argc, char **argv)
{
	struct ibmcg_group **groups;
	struct list_cmd c;
	size_t i, n;
	struct ibmcg *h;
	int err;

	err = parse_list(argc, argv, &c);
	if (err)
		return err;
	h = mcctl_handle(&err);
	if (!h)
		return err;
	err = ibmcg_group_list(h, c.dev[0] ? c.dev : NULL, c.port, &groups, &n);
	if (err)
		return mcctl_kernel_err_hint(err, -ENOENT, "no such device or port");
	mcctl_note_inconsistent(h);

	open_json_array(NULL);
	for (i = 0; i < n; i++)
		if (list_match(&c, groups[i]))
			print_group_line(groups[i]);
	close_json_array();
	ibmcg_groups_free(groups);
	return mcctl_finish_output();
}
