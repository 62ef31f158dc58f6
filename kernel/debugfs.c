// SPDX-License-Identifier: GPL-2.0
/*
 * /sys/kernel/debug/ib_mcgroups/: the whole group and holder table, for
 * people. Not an ABI: scripts use netlink (mcctl -j) or sysfs.
 */
#include <linux/debugfs.h>
#include <linux/seq_file.h>
#include <linux/timekeeping.h>

#include "ib_mcgroups.h"

static struct dentry *mcg_debugfs;

static const char *const state_names[] = {
	[IB_MCG_STATE_JOINING]		= "joining",
	[IB_MCG_STATE_JOINED]		= "joined",
	[IB_MCG_STATE_DETACHED]		= "detached",
	[IB_MCG_STATE_RETRY_WAIT]	= "retry-wait",
	[IB_MCG_STATE_RELEASED]		= "released",
	[IB_MCG_STATE_LINGERING]	= "lingering",
};

static const char *state_name(u8 state)
{
	return state < ARRAY_SIZE(state_names) && state_names[state] ?
	       state_names[state] : "?";
}

static void show_group(struct seq_file *m, const struct mcg_group *g, u64 now)
{
	const struct mcg_holder *h;

	seq_printf(m, "%s/%u %pI6c state=%s link=%s join_state=0x%x holders=%u",
		   mcg_dev_name(g->port), g->port->port_num, g->mgid.raw,
		   state_name(mcg_group_state(g)), state_name(g->link),
		   g->join_state, g->nholders);
	if (g->error)
		seq_printf(m, " error=%d reason=%u", -g->error, g->reason);
	if (g->rec.valid)
		seq_printf(m, " mlid=0x%04x qkey=0x%08x pkey=0x%04x mtu=%u sgid_index=%u",
			   g->rec.mlid, g->rec.qkey, g->rec.pkey, g->rec.mtu,
			   g->rec.sgid_index);
	/* RTNL's; read without it, as a hint for people. */
	if (g->rec.valid && g->port->backend == &mcg_roce_backend)
		seq_printf(m, " ip_held=%d", mcg_roce_ip_held(g));
	seq_putc(m, '\n');
	list_for_each_entry(h, &g->holders, node)
		seq_printf(m, "\t%s join_state=0x%x%s age_ms=%llu\n", h->o->name,
			   h->join_state,
			   h->flags & IB_MCG_F_BOUND ? " bound" : "",
			   div_u64(now - h->since_ns, NSEC_PER_MSEC));
}

static int groups_show(struct seq_file *m, void *v)
{
	u64 now = ktime_get_boottime_ns();
	struct mcg_port *port;
	struct rb_node *n;

	mutex_lock(&mcg_lock);
	for (port = mcg_port_next(NULL); port; port = mcg_port_next(port)) {
		seq_printf(m, "# %s/%u backend=%s groups=%u holders=%u\n",
			   mcg_dev_name(port), port->port_num,
			   port->backend->name, port->ngroups,
			   port->nholders);
		for (n = rb_first(&port->groups); n; n = rb_next(n))
			show_group(m, rb_entry(n, struct mcg_group,
					       node), now);
	}
	mutex_unlock(&mcg_lock);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(groups);

/*
 * The pacer of each InfiniBand port (pacer.h): its window (in
 * 1/MCG_WIN_ONE requests) and whether it is still doubling, the base and
 * smoothed SA round trips, the cuts since the window last started and
 * the round trip that bounds it since, the requests unanswered; then
 * what holds its joins or its re-join wave (backend_ib.c).
 */
static int pacer_show(struct seq_file *m, void *v)
{
	struct mcg_port *port;
	struct mcg_ib_port *ib;

	mutex_lock(&mcg_lock);
	for (port = mcg_port_next(NULL); port; port = mcg_port_next(port)) {
		if (port->backend != &mcg_ib_backend)
			continue;
		ib = &port->ib;
		seq_printf(m, "%s/%u window=%u/%u start=%d base_us=%llu srtt_us=%llu cuts=%u bound_us=%llu joins=%u users=%u deletes=%u",
			   mcg_dev_name(port), port->port_num, ib->win.w,
			   MCG_WIN_ONE, ib->win.start,
			   div_u64(ib->win.base_ns, NSEC_PER_USEC),
			   div_u64(ib->srtt_ns, NSEC_PER_USEC),
			   ib->win.cuts,
			   div_u64(ib->win.bound_ns, NSEC_PER_USEC),
			   ib->inflight, ib->uinflight,
			   ib->leaves_inflight);
		seq_printf(m, " active=%d settling=%d wave=%d heard_ms=%lld unheard_ms=%llu wave_waits=%u\n",
			   ib->active, ib->settling, ib->wave,
			   ib->heard_ns ? (s64)div_u64(ktime_get_ns() -
						      ib->heard_ns,
						      NSEC_PER_MSEC) : -1LL,
			   div_u64(mcg_ib_unheard_left_ns(port),
				   NSEC_PER_MSEC), ib->wave_waits);
	}
	mutex_unlock(&mcg_lock);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(pacer);

/**
 * mcg_debugfs_init() - create ib_mcgroups/groups and pacer in debugfs
 *
 * groups lists every port's groups, pacer every InfiniBand port's pacer,
 * both read under mcg_lock. Failures are not reported: debugfs is
 * optional.
 *
 * Context: process context, may sleep; no lock held.
 */
void mcg_debugfs_init(void)
{
	mcg_debugfs = debugfs_create_dir("ib_mcgroups", NULL);
	debugfs_create_file("groups", 0400, mcg_debugfs, NULL, &groups_fops);
	debugfs_create_file("pacer", 0400, mcg_debugfs, NULL, &pacer_fops);
}

/**
 * mcg_debugfs_exit() - remove what mcg_debugfs_init() created
 *
 * Context: process context, may sleep; no lock held.
 */
void mcg_debugfs_exit(void)
{
	debugfs_remove_recursive(mcg_debugfs);
}
