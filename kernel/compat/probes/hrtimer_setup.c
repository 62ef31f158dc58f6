// SPDX-License-Identifier: GPL-2.0
/*
 * MCG_HAVE_HRTIMER_SETUP: hrtimer_setup() initialises a timer with its
 * function (6.13; hrtimer_init(), which leaves the function to be set,
 * is gone since).
 */
#include <linux/build_bug.h>
#include <linux/hrtimer.h>

static_assert(__builtin_types_compatible_p(typeof(hrtimer_setup),
					   void (struct hrtimer *,
						 enum hrtimer_restart (*)(struct hrtimer *),
						 clockid_t, enum hrtimer_mode)),
	      "no hrtimer_setup(timer, function, clock, mode)");
