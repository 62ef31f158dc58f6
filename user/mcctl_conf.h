/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * The configuration file for mcctl: libibmcg's parser (ibmcg_conf.h),
 * its usage errors printed as "mcctl: PATH:LINE: why".
 */
#ifndef MCCTL_CONF_H
#define MCCTL_CONF_H

#include "ibmcg_conf.h"
#include "mcctl_args.h"

/* Parse a configuration; on error print why and return EXIT_USAGE. */
int conf_parse(FILE *fp, const char *path, struct conf *c);
/* The same for the file at path; a missing file is an error too. */
int conf_load(const char *path, struct conf *c);

#endif /* MCCTL_CONF_H */
