// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * mcctl stats: the ports and their counters.
 */
#include <errno.h>

#include "mcctl.h"
#include "mcctl_args.h"

const struct cmd_usage stats_usage = {
	"mcctl stats [ DEV[/PORT] ]\n", 0, NULL,
};

int cmd_stats(int argc, char **argv)
{
	char dev[IBMCG_DEV_NAME_MAX];
	struct ibmcg_port **ports, *one[2] = { NULL, NULL };
	uint32_t port;
	size_t i, n = 1;
	struct ibmcg *h;
	int err;

	err = parse_filter(argc, argv, dev, &port);
	if (err)
		return err;
	h = mcctl_handle(&err);
	if (!h)
		return err;
	if (port) {
		ports = one;
		err = ibmcg_port_get(h, dev, port, &one[0]);
	} else {
		err = ibmcg_port_dump(h, dev[0] ? dev : NULL, &ports, &n);
	}
	if (err)
		return mcctl_kernel_err_hint(err, -ENOENT, "no such device or port");

	open_json_array(NULL);
	for (i = 0; i < n; i++)
		print_port(ports[i]);
	close_json_array();
	if (port)
		ibmcg_port_free(one[0]);
	else
		ibmcg_ports_free(ports);
	return mcctl_finish_output();
}
