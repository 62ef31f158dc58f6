// SPDX-License-Identifier: GPL-2.0
/*
 * simhca debugfs: /sys/kernel/debug/simhca/<dev>/ holds one file per knob,
 * in the style of netdevsim.
 *
 *   sm_lid              SM LID the ports report; MADs to it reach the SA
 *   sm_change           write: raise SM_CHANGE on every port
 *   client_reregister   write: new master (wipe if reregister_wipe, start
 *                       the first sweep), raise CLIENT_REREGISTER (in a
 *                       fabric: device 0's SA, every device's ports)
 *   reregister_wipe     client_reregister wipes the SA database (default Y)
 *   first_sweep_ms      the SA ignores requests this long after a reregister
 *   drop_next           drop the next N requests (MADs: a resend of a
 *                       dropped request is the next one)
 *   drop_queries        lose the next N queries: the first MAD of each and
 *                       every resend with its TID, so each query times out
 *                       however often the host's MAD layer resends it
 *   fail_next           answer the next N requests with fail_status
 *   fail_status         MAD status for fail_next (default 0x0100)
 *   delay_ms            delay every answer
 *   rate_limit          requests per second the SA handles, the others
 *                       dropped (0: no limit)
 *   serve_rate          the SA as one server that answers one request
 *                       after the other, this many a second (0: at once):
 *                       an answer waits for those before it and nothing
 *                       is dropped, as OpenSM's SA queue (a request is
 *                       handled when it comes, its answer sent when the
 *                       server gets to it; stats: serve_wait_max_us)
 *   serve_busy_ms       with serve_rate: a request that would wait longer
 *                       than this for the server is answered BUSY (MAD
 *                       status 0x0001) at once and not queued, as an SM
 *                       whose request queue is bounded (0: never; stats:
 *                       busy); ib_sa reports it as any refusal, -EINVAL
 *   mlid_capacity       number of MLIDs from 0xC000 (also the switch's
 *                       MulticastFDBCap in its SwitchInfoRecord)
 *   mlid_shift          0 (default): a create gets the MLID it asks for
 *                       if free, else the lowest free one; N: the MLID
 *                       asked for is ignored and a create gets the lowest
 *                       free one from 0xC000 + N (wrapping), as an SM
 *                       that moved its MLID range or lost track of them
 *                       (the MLIDs of groups re-created after a wipe
 *                       change)
 *   neighbor_mtu        0 (default): the ports' MTU is 4096; else an IB
 *                       MTU enum (1 256 ... 5 4096): the MTU the SM sees
 *                       on the ports' links, as OpenSM's NeighborMTU: a
 *                       create naming no MTU (or "largest available")
 *                       gets it, and a group with a larger MTU is
 *                       neither created nor joined
 *   switch_info         the SA has the switch's SwitchInfoRecord (default
 *                       Y); N: its GetTable has no records, as in a fabric
 *                       without switches, where nobody tells the MLID
 *                       capacity
 *   refuse_join         JoinState bits: a join (MCMember Set) asking for
 *                       any of them is refused with ERR_REQ_INVALID
 *   sa_key              SM_Key of trusted requests (default 1); a request
 *                       with another non-zero key goes unanswered, as
 *                       OpenSM's (stats: drop_bad_smkey)
 *   subnet_prefix       the subnet prefix of every port GID (all devices);
 *                       a write changes it and raises GID_CHANGE (which
 *                       6.1's ib_core turns into a GID cache update and
 *                       passes to no client on an IB port)
 *   mft_delay_ms        the SM programs the switch's MFT this long after a
 *                       membership change (default 0)
 *   mft_program         write: program the MFT now (and wait for it)
 *   mft                 read: "mlid=0xC000 ports=1,2" per forwarding MLID
 *   ah_delay_ms         a sleepable create_ah for the SM's LID (ib_sa's
 *                       update_sm_ah() after a port event) sleeps this
 *                       long first: until it returns, ib_sa has no SM
 *                       address handle and every SA query fails with
 *                       -EAGAIN (default 0)
 *   ah_fail_next        fail the next N create_ah for the SM's LID (-EIO):
 *                       ib_sa then has no SM address handle until the next
 *                       port event
 *   event_delay_ms      simhca's event handler, called after ib_sa's and
 *                       before those of clients loaded later
 *                       (ib_mcgroups), sleeps this long first: multicast.c
 *                       reports the lost groups of a reregister before
 *                       such a client hears of the event (default 0)
 *   ud                  the UD test helper (ud.c): write commands, read
 *                       per port "port N qpn Q received R bad B"
 *   sa_db               read: groups and members
 *   stats               read: counters (SA, events, switch); write: reset.
 *                       max_per_100ms: the most SA requests the host
 *                       sent (posted) in any 100 ms, and
 *                       max_per_100ms_end_ms when that 100 ms ended
 *                       (since the reset); mcm_max_per_100ms and
 *                       mcm_max_per_100ms_end_ms the same of
 *                       MCMemberRecord requests alone (not ib_sa's
 *                       ClassPortInfo queries, for one);
 *   arrivals            read: "MS ALL MCM", the SA requests the host
 *                       sent in each 10 ms since the stats' reset (up
 *                       to 120 s), all and MCMemberRecords, to the last
 *                       10 ms that had one
 *                       max_answers_pending: the most SA answers queued
 *                       to the host at once (with delay_ms, the requests
 *                       the host had unanswered at once, a request the
 *                       host sent again counted twice);
 *                       max_requests_pending: the same, but a request
 *                       counted once however often the host sent it
 *                       (ib_mad resends a request whose answer is late,
 *                       with the same TID: the SA answers it again, and
 *                       counts that in answers_resent); a request is
 *                       known by its TID among the last 1024 answered;
 *                       answers_rq_empty: answers dropped because the
 *                       port's QP1 had no receive buffer posted (the
 *                       host's MAD receive queue overflowed)
 *                       sm_ah_creates, sm_ah_fails: create_ah calls for
 *                       the SM's LID, and those ah_fail_next failed
 *   sma                 read: the SMA's view (sma.c): the switch, each
 *                       port's state, LID, SM LID, CapabilityMask, and
 *                       the SMP and trap counters
 *   port<N>/state       "up" or "down" (PORT_ACTIVE / PORT_ERR);
 *                       "up-silent", "down-silent": the same without the
 *                       event, as if a consumer had missed it. With
 *                       internal_sa=N the link goes down and comes back
 *                       in INIT ("init"; "armed" as the SM moves it on),
 *                       PORT_ERR if it was ACTIVE, and the switch flags
 *                       PortStateChange for the SM and sends it a
 *                       trap 128 (sma.c)
 *   port<N>/lid         port LID (LID_CHANGE)
 *   port<N>/pkeys       read: "index pkey" lines; write "index pkey"
 *                       (PKEY_CHANGE; with ipoib_bcast=Y the SA first
 *                       creates the P_Key's IPoIB broadcast group)
 */
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/seq_file.h>
#include <linux/uaccess.h>

#include "simhca.h"

static struct dentry *simhca_ddir;

u64 simhca_subnet_prefix = SIMHCA_SUBNET_PREFIX_DEFAULT;

static int read_user_line(const char __user *ubuf, size_t count,
			  char *buf, size_t size)
{
	if (count >= size)
		return -EINVAL;
	if (copy_from_user(buf, ubuf, count))
		return -EFAULT;
	buf[count] = '\0';
	return 0;
}

static void dispatch_all(struct simhca_dev *sdev, enum ib_event_type type)
{
	u32 i;

	for (i = 0; i < sdev->nports; i++)
		if (READ_ONCE(sdev->port[i].state) == IB_PORT_ACTIVE)
			simhca_dispatch(sdev, i + 1, type);
}

static ssize_t sm_change_write(struct file *file, const char __user *ubuf,
			       size_t count, loff_t *ppos)
{
	struct simhca_dev *sdev = file->private_data;

	dispatch_all(sdev, IB_EVENT_SM_CHANGE);
	return count;
}

static const struct file_operations sm_change_fops = {
	.open = simple_open,
	.write = sm_change_write,
	.llseek = noop_llseek,
	.owner = THIS_MODULE,
};

static ssize_t rereg_write(struct file *file, const char __user *ubuf,
			   size_t count, loff_t *ppos)
{
	simhca_fabric_reregister(file->private_data);
	return count;
}

static const struct file_operations rereg_fops = {
	.open = simple_open,
	.write = rereg_write,
	.llseek = noop_llseek,
	.owner = THIS_MODULE,
};

static ssize_t prefix_read(struct file *file, char __user *ubuf,
			   size_t count, loff_t *ppos)
{
	char buf[24];
	int len;

	len = scnprintf(buf, sizeof(buf), "0x%016llx\n", SIMHCA_SUBNET_PREFIX);
	return simple_read_from_buffer(ubuf, count, ppos, buf, len);
}

/* A new subnet prefix: every port's GID changes, as after an SM's change. */
static ssize_t prefix_write(struct file *file, const char __user *ubuf,
			    size_t count, loff_t *ppos)
{
	struct simhca_dev *sdev = file->private_data;
	u64 prefix;
	int ret;

	ret = kstrtou64_from_user(ubuf, count, 0, &prefix);
	if (ret)
		return ret;
	if (xchg(&simhca_subnet_prefix, prefix) != prefix)
		dispatch_all(sdev, IB_EVENT_GID_CHANGE);
	return count;
}

static const struct file_operations prefix_fops = {
	.open = simple_open,
	.read = prefix_read,
	.write = prefix_write,
	.llseek = default_llseek,
	.owner = THIS_MODULE,
};

static int sa_db_show(struct seq_file *s, void *unused)
{
	simhca_sa_dump(s->private, s);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(sa_db);

static int arrivals_show(struct seq_file *s, void *unused)
{
	simhca_sa_arrivals_show(s->private, s);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(arrivals);

static int sma_show(struct seq_file *s, void *unused)
{
	simhca_sma_show(s->private, s);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(sma);

static int stats_show(struct seq_file *s, void *unused)
{
	simhca_sa_stats(s->private, s);
	simhca_switch_stats(s->private, s);
	return 0;
}

static int stats_open(struct inode *inode, struct file *file)
{
	return single_open(file, stats_show, inode->i_private);
}

static ssize_t stats_write(struct file *file, const char __user *ubuf,
			   size_t count, loff_t *ppos)
{
	struct seq_file *s = file->private_data;

	simhca_sa_stats_reset(s->private);
	simhca_switch_stats_reset(s->private);
	return count;
}

static const struct file_operations stats_fops = {
	.open = stats_open,
	.read = seq_read,
	.write = stats_write,
	.llseek = seq_lseek,
	.release = single_release,
	.owner = THIS_MODULE,
};

static int mft_show(struct seq_file *s, void *unused)
{
	simhca_mft_dump(s->private, s);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(mft);

static ssize_t mft_program_write(struct file *file, const char __user *ubuf,
				 size_t count, loff_t *ppos)
{
	struct simhca_dev *sdev = file->private_data;

	mod_delayed_work(sdev->wq, &sdev->mft_work, 0);
	flush_delayed_work(&sdev->mft_work);
	return count;
}

static const struct file_operations mft_program_fops = {
	.open = simple_open,
	.write = mft_program_write,
	.llseek = noop_llseek,
	.owner = THIS_MODULE,
};

static ssize_t state_read(struct file *file, char __user *ubuf, size_t count,
			  loff_t *ppos)
{
	struct simhca_port *p = file->private_data;
	enum ib_port_state state = READ_ONCE(p->state);
	const char *s = state == IB_PORT_ACTIVE ? "up\n" :
			state == IB_PORT_INIT ? "init\n" :
			state == IB_PORT_ARMED ? "armed\n" : "down\n";

	return simple_read_from_buffer(ubuf, count, ppos, s, strlen(s));
}

/*
 * With an external SM the link, not the port state, goes down and up: it
 * comes back in INIT at both ends, the switch flags PortStateChange and
 * sends the SM a trap 128 (sma.c), and the SM's sweep brings the port to
 * ACTIVE again.
 */
static ssize_t external_state_write(struct simhca_port *p,
				    enum ib_port_state state, bool silent,
				    size_t count)
{
	struct simhca_switch *sw = &p->sdev->swi;
	enum ib_port_state old;

	if (state == IB_PORT_ACTIVE)
		state = IB_PORT_INIT;
	old = xchg(&p->state, state);
	if (old == state)
		return count;
	WRITE_ONCE(sw->state[p->num], IB_PORT_INIT);
	WRITE_ONCE(sw->life_state, READ_ONCE(sw->life_state) | 0x04);
	if (old == IB_PORT_ACTIVE && !silent)
		simhca_dispatch(p->sdev, p->num, IB_EVENT_PORT_ERR);
	simhca_sma_link_changed(p->sdev);
	return count;
}

static ssize_t state_write(struct file *file, const char __user *ubuf,
			   size_t count, loff_t *ppos)
{
	struct simhca_port *p = file->private_data;
	enum ib_port_state state;
	bool silent;
	char buf[16];
	int ret;

	ret = read_user_line(ubuf, count, buf, sizeof(buf));
	if (ret)
		return ret;
	silent = sysfs_streq(buf, "up-silent") ||
		 sysfs_streq(buf, "down-silent");
	if (sysfs_streq(buf, "up") || sysfs_streq(buf, "1") ||
	    sysfs_streq(buf, "up-silent"))
		state = IB_PORT_ACTIVE;
	else if (sysfs_streq(buf, "down") || sysfs_streq(buf, "0") ||
		 sysfs_streq(buf, "down-silent"))
		state = IB_PORT_DOWN;
	else
		return -EINVAL;
	if (!simhca_internal_sa)
		return external_state_write(p, state, silent, count);
	if (xchg(&p->state, state) != state && !silent)
		simhca_dispatch(p->sdev, p->num, state == IB_PORT_ACTIVE ?
				IB_EVENT_PORT_ACTIVE : IB_EVENT_PORT_ERR);
	return count;
}

static const struct file_operations state_fops = {
	.open = simple_open,
	.read = state_read,
	.write = state_write,
	.llseek = default_llseek,
	.owner = THIS_MODULE,
};

static ssize_t lid_read(struct file *file, char __user *ubuf, size_t count,
			loff_t *ppos)
{
	struct simhca_port *p = file->private_data;
	char buf[16];
	int len;

	len = scnprintf(buf, sizeof(buf), "%u\n", READ_ONCE(p->lid));
	return simple_read_from_buffer(ubuf, count, ppos, buf, len);
}

static ssize_t lid_write(struct file *file, const char __user *ubuf,
			 size_t count, loff_t *ppos)
{
	struct simhca_port *p = file->private_data;
	u16 lid;
	int ret;

	ret = kstrtou16_from_user(ubuf, count, 0, &lid);
	if (ret)
		return ret;
	if (!lid || lid >= SIMHCA_MLID_BASE)
		return -EINVAL;
	if (xchg(&p->lid, lid) != lid)
		simhca_dispatch(p->sdev, p->num, IB_EVENT_LID_CHANGE);
	return count;
}

static const struct file_operations lid_fops = {
	.open = simple_open,
	.read = lid_read,
	.write = lid_write,
	.llseek = default_llseek,
	.owner = THIS_MODULE,
};

static int pkeys_show(struct seq_file *s, void *unused)
{
	struct simhca_port *p = s->private;
	int i;

	for (i = 0; i < SIMHCA_PKEY_TBL_LEN; i++) {
		u16 k = READ_ONCE(p->pkeys[i]);

		if (k)
			seq_printf(s, "%d 0x%04x\n", i, k);
	}
	return 0;
}

static int pkeys_open(struct inode *inode, struct file *file)
{
	return single_open(file, pkeys_show, inode->i_private);
}

static ssize_t pkeys_write(struct file *file, const char __user *ubuf,
			   size_t count, loff_t *ppos)
{
	struct simhca_port *p = ((struct seq_file *)file->private_data)->private;
	unsigned int idx, pkey;
	char buf[32];
	int ret;

	ret = read_user_line(ubuf, count, buf, sizeof(buf));
	if (ret)
		return ret;
	if (sscanf(buf, "%u %i", &idx, &pkey) != 2 ||
	    idx >= SIMHCA_PKEY_TBL_LEN || pkey > 0xffff) {
		pr_err("simhca: pkeys: write \"INDEX PKEY\", INDEX < %d\n",
		       SIMHCA_PKEY_TBL_LEN);
		return -EINVAL;
	}
	WRITE_ONCE(p->pkeys[idx], pkey);
	/* the SM's partition groups before the port hears of the P_Key */
	simhca_sa_pkeys_changed(p->sdev);
	simhca_dispatch(p->sdev, p->num, IB_EVENT_PKEY_CHANGE);
	return count;
}

static const struct file_operations pkeys_fops = {
	.open = pkeys_open,
	.read = seq_read,
	.write = pkeys_write,
	.llseek = seq_lseek,
	.release = single_release,
	.owner = THIS_MODULE,
};

void simhca_debugfs_add(struct simhca_dev *sdev)
{
	struct simhca_knobs *k = &sdev->knobs;
	struct dentry *d;
	char name[16];
	u32 i;

	d = debugfs_create_dir(dev_name(&sdev->ibdev.dev), simhca_ddir);
	sdev->ddir = d;
	debugfs_create_u16("sm_lid", 0600, d, &k->sm_lid);
	debugfs_create_file("sm_change", 0200, d, sdev, &sm_change_fops);
	debugfs_create_file("client_reregister", 0200, d, sdev, &rereg_fops);
	debugfs_create_bool("reregister_wipe", 0600, d, &k->reregister_wipe);
	debugfs_create_u32("first_sweep_ms", 0600, d, &k->first_sweep_ms);
	debugfs_create_u32("drop_next", 0600, d, &k->drop_next);
	debugfs_create_u32("drop_queries", 0600, d, &k->drop_queries);
	debugfs_create_u32("fail_next", 0600, d, &k->fail_next);
	debugfs_create_x32("fail_status", 0600, d, &k->fail_status);
	debugfs_create_u32("delay_ms", 0600, d, &k->delay_ms);
	debugfs_create_u32("rate_limit", 0600, d, &k->rate_limit);
	debugfs_create_u32("serve_rate", 0600, d, &k->serve_rate);
	debugfs_create_u32("serve_busy_ms", 0600, d, &k->serve_busy_ms);
	debugfs_create_u32("mlid_capacity", 0600, d, &k->mlid_capacity);
	debugfs_create_u32("mlid_shift", 0600, d, &k->mlid_shift);
	debugfs_create_u32("neighbor_mtu", 0600, d, &k->neighbor_mtu);
	debugfs_create_bool("switch_info", 0600, d, &k->switch_info);
	debugfs_create_x32("refuse_join", 0600, d, &k->refuse_join);
	debugfs_create_x64("sa_key", 0600, d, &k->sa_key);
	debugfs_create_file("subnet_prefix", 0600, d, sdev, &prefix_fops);
	debugfs_create_u32("mft_delay_ms", 0600, d, &k->mft_delay_ms);
	debugfs_create_file("mft_program", 0200, d, sdev, &mft_program_fops);
	debugfs_create_file("mft", 0400, d, sdev, &mft_fops);
	debugfs_create_u32("ah_delay_ms", 0600, d, &k->ah_delay_ms);
	debugfs_create_u32("ah_fail_next", 0600, d, &k->ah_fail_next);
	debugfs_create_u32("event_delay_ms", 0600, d, &k->event_delay_ms);
	debugfs_create_file("ud", 0600, d, sdev, &simhca_udh_fops);
	debugfs_create_file("sa_db", 0400, d, sdev, &sa_db_fops);
	debugfs_create_file("sma", 0400, d, sdev, &sma_fops);
	debugfs_create_file("stats", 0600, d, sdev, &stats_fops);
	debugfs_create_file("arrivals", 0400, d, sdev, &arrivals_fops);
	for (i = 0; i < sdev->nports; i++) {
		struct dentry *pd;

		snprintf(name, sizeof(name), "port%u", i + 1);
		pd = debugfs_create_dir(name, d);
		debugfs_create_file("state", 0600, pd, &sdev->port[i],
				    &state_fops);
		debugfs_create_file("lid", 0600, pd, &sdev->port[i], &lid_fops);
		debugfs_create_file("pkeys", 0600, pd, &sdev->port[i],
				    &pkeys_fops);
	}
}

void simhca_debugfs_del(struct simhca_dev *sdev)
{
	debugfs_remove_recursive(sdev->ddir);
	sdev->ddir = NULL;
}

void simhca_debugfs_init(void)
{
	simhca_ddir = debugfs_create_dir("simhca", NULL);
}

void simhca_debugfs_fini(void)
{
	debugfs_remove_recursive(simhca_ddir);
}
