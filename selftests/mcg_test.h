/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * Helpers shared by the C selftests: the test environment (rxe0/rxe1 and
 * the module, made by lib.sh) and the per-port sysfs counters.
 */
#ifndef MCG_TEST_H
#define MCG_TEST_H

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

/* rxe0 <-> rxe1 and ib_mcgroups loaded; 0 on success. */
static inline int mcg_env_setup(void)
{
	const char *dir = getenv("SELFTESTS_DIR");
	char cmd[512];

	if (!access("/sys/kernel/ib_mcgroups/rxe0/1/groups", R_OK))
		return 0;
	snprintf(cmd, sizeof(cmd),
		 "bash -c '. %s/lib.sh && mcg_setup_rxe && mcg_load' >&2",
		 dir ? dir : ".");
	return system(cmd);
}

/* /sys/kernel/ib_mcgroups/DEV/1/NAME, or -1. */
static inline long mcg_sysfs_counter(const char *dev, const char *name)
{
	char path[256];
	long v = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/sys/kernel/ib_mcgroups/%s/1/%s", dev,
		 name);
	f = fopen(path, "r");
	if (!f)
		return -1;
	if (fscanf(f, "%ld", &v) != 1)
		v = -1;
	fclose(f);
	return v;
}

#endif /* MCG_TEST_H */
