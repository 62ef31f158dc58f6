// SPDX-License-Identifier: GPL-2.0
/*
 * MCG_HAVE_KOBJECT_CONST_KTYPE: kobject_init_and_add() takes a const
 * struct kobj_type (6.2; Debian 12's 6.1.y has it too; before, not
 * const), so the port directories' kobj_type can be read-only.
 */
#include <linux/build_bug.h>
#include <linux/kobject.h>

static_assert(__builtin_types_compatible_p(typeof(kobject_init_and_add),
					   int (struct kobject *, const struct kobj_type *,
						struct kobject *, const char *, ...)),
	      "kobject_init_and_add() takes a non-const kobj_type");
