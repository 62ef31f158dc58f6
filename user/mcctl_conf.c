// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The configuration file for mcctl; see mcctl_conf.h.
 */
#include "mcctl_conf.h"

int conf_parse(FILE *fp, const char *path, struct conf *c)
{
	struct ibmcg__perr pe = { .where = "" };

	if (ibmcg__conf_parse(fp, path, c, &pe))
		return mcctl_perr(&pe);
	return 0;
}

int conf_load(const char *path, struct conf *c)
{
	struct ibmcg__perr pe = { .where = "" };

	if (ibmcg__conf_load(path, c, &pe))
		return mcctl_perr(&pe);
	return 0;
}
