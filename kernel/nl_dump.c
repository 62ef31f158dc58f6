// SPDX-License-Identifier: GPL-2.0
/*
 * ib_mcgroups netlink: the dump cursor that GROUP_GET and PORT_GET share
 * (struct mcg_dump_ctx in nl.h): a dump's request attributes, its
 * filters resolved on the first round, and which ports a round skips.
 */
#include <linux/netlink.h>
#include <net/genetlink.h>
#include <net/netlink.h>

#include "ib_mcgroups.h"
#include "nl.h"

/**
 * nl_dump_init() - resolve a dump's filters on its first round
 * @cb: the dump
 *
 * Resolves a dump's filters on its first round, under mcg_lock. This is
 * not done in .start because 6.1 gives .start no extack to explain a
 * refusal; the first .dumpit has one.
 *
 * Context: under mcg_lock.
 * Return: 0, or a negative errno with the dump's extack set.
 */
int nl_dump_init(struct netlink_callback *cb)
{
	struct nlattr **tb = nl_dump_attrs(cb);
	struct mcg_dump_ctx *ctx = nl_dump_ctx(cb);
	struct mcg_device *dev;
	struct mcg_port *port;
	int err;

	if (ctx->started)
		return 0;
	ctx->started = 1;
	/* The first round runs in the sender's context. */
	ctx->admin = netlink_capable(cb->skb, CAP_NET_ADMIN);
	ctx->brief = !!tb[IB_MCG_A_LIST_BRIEF];
	err = nl_get_filter(tb, &dev, &port, cb->extack);
	if (err)
		return err;
	if (dev) {
		ctx->has_filter_dev = 1;
		ctx->filter_dev = dev->ibdev->index;
	}
	if (port) {
		ctx->has_filter_port = 1;
		ctx->filter_port = port->port_num;
	}
	return 0;
}

/**
 * nl_dump_skip_port() - does this round of a dump skip a port?
 * @ctx: the dump's cursor and filters
 * @port: the port
 *
 * Context: under mcg_lock.
 * Return: true if @port is filtered out, hidden, or before the cursor.
 */
bool nl_dump_skip_port(const struct mcg_dump_ctx *ctx,
		       const struct mcg_port *port)
{
	u32 index = port->dev->ibdev->index;

	if (!mcg_device_visible(port->dev))
		return true;
	if (ctx->has_filter_dev && index != ctx->filter_dev)
		return true;
	if (ctx->has_filter_port && port->port_num != ctx->filter_port)
		return true;
	if (index != ctx->dev_index)
		return index < ctx->dev_index;
	return port->port_num < ctx->port;
}
