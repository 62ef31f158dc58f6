/* SPDX-License-Identifier: GPL-2.0 */
/* The KUnit suites of ib_mcgroups_kunit.ko defined outside logic_kunit.c. */
#ifndef _MCG_KUNIT_SUITES_H
#define _MCG_KUNIT_SUITES_H

#include <kunit/test.h>

extern struct kunit_suite mcg_pacing_suite;	/* pacer_kunit.c */

#endif /* _MCG_KUNIT_SUITES_H */
