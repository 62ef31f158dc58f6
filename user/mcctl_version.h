/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * mcctl -V: mcctl's version (the one in the top-level VERSION file) and
 * protocol, and those of the loaded ib_mcgroups module.
 */
#ifndef MCCTL_VERSION_H
#define MCCTL_VERSION_H

#include <stdio.h>

/* Where the module's MODULE_VERSION() is, while it is loaded. */
#define MCCTL_MODULE_VERSION_PATH	"/sys/module/ib_mcgroups/version"

/*
 * Print the version lines to @out, a warning to @err if the module speaks
 * another protocol than mcctl. @modver: the module's version, NULL if it
 * is not loaded; @proto: its protocol version, <= 0 if unknown. Returns 1
 * on a protocol mismatch, else 0.
 */
int print_version(FILE *out, FILE *err, const char *modver, int proto);

/* mcctl -V: reads the module's version and asks it for its protocol. */
int cmd_version(void);

#endif /* MCCTL_VERSION_H */
