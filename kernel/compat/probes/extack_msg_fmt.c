// SPDX-License-Identifier: GPL-2.0
/*
 * MCG_HAVE_EXTACK_MSG_FMT: NL_SET_ERR_MSG_FMT() formats an extack message
 * into the extack's own buffer, _msg_buf (6.2); before, a message is a
 * literal.
 */
#include <linux/build_bug.h>
#include <linux/netlink.h>

#ifndef NL_SET_ERR_MSG_FMT
#error "no NL_SET_ERR_MSG_FMT()"
#endif
static_assert(sizeof(((struct netlink_ext_ack *)0)->_msg_buf) > 1, "no _msg_buf");
