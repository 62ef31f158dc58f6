// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * mcctl -V; see mcctl_version.h.
 */
#include <stdlib.h>
#include <string.h>

#include "mcctl.h"
#include "mcctl_version.h"

int print_version(FILE *out, FILE *err, const char *modver, int proto)
{
	fprintf(out, "mcctl %s (ib_mcgroups protocol %d)\n", VERSION,
		IB_MCG_GENL_VERSION);
	if (!modver) {
		fprintf(out, "module ib_mcgroups not loaded\n");
		return 0;
	}
	if (proto <= 0) {
		fprintf(out, "module ib_mcgroups %s (protocol unknown)\n",
			modver);
		return 0;
	}
	fprintf(out, "module ib_mcgroups %s (protocol %d)\n", modver, proto);
	if (proto == IB_MCG_GENL_VERSION)
		return 0;
	fprintf(err,
		"mcctl: warning: the module speaks protocol %d, mcctl %d: %s\n",
		proto, IB_MCG_GENL_VERSION, proto < IB_MCG_GENL_VERSION ?
		"it works with the older module, with its limits (see \"Netlink interface\" in the admin guide); update the module" :
		"the module is newer than mcctl; update mcctl and libibmcg");
	return 1;
}

/*
 * The module's version from sysfs, and only then its protocol over
 * netlink: looking the family up would load the module if it is not.
 */
int cmd_version(void)
{
	char buf[64] = "";
	struct ibmcg *h;
	int proto = 0;
	FILE *fp;

	fp = fopen(MCCTL_MODULE_VERSION_PATH, "r");
	if (fp) {
		if (!fgets(buf, sizeof(buf), fp))
			buf[0] = '\0';
		buf[strcspn(buf, "\n")] = '\0';
		fclose(fp);
	}
	if (fp) {
		h = ibmcg_alloc();
		if (h && !ibmcg_connect_flags(h, IBMCG_CONNECT_NOLOAD))
			proto = ibmcg_protocol_version(h);
		ibmcg_close(h);
	}
	print_version(stdout, stderr, fp ? buf : NULL, proto);
	if (fflush(stdout)) {
		perror("mcctl: cannot write output");
		return EXIT_FAILURE;
	}
	return 0;
}
