// SPDX-License-Identifier: GPL-2.0
/*
 * simhca SMA: the subnet management agents of a device's HCA ports and of
 * its switch, so that a real SM (OpenSM, through ib_umad) can sweep the
 * fabric, assign LIDs, bring the ports up and program the switch.
 *
 * The fabric of device N: one CA (node GUID ...N0, ports 1..nports) whose
 * port P is cabled to port P of one switch (node and port 0 GUID ...N8;
 * ports 0..nports). The kernel's MAD layer posts every SMP on QP0 through
 * simhca_post_send(); with the internal SA (no process_mad) even the
 * hop-count-0 SMPs to the local port come here, with an external SM
 * (internal_sa=N) those are answered in simhca_process_mad(), which also
 * passes SMInfo up to the SM (see there). The SMA's work routes the rest:
 *
 * - directed route (class 0x81) with permissive DrSLID and DrDLID: the
 *   initial path is walked from the sending port, the return path filled
 *   in, and the node at the end (the CA or the switch) answers; the
 *   answer comes back on the sending port's QP0 with the D bit set and
 *   the hop pointer at 0, as ib_mad's SMI checks expect of a returning
 *   SMP. A CA does not forward, so a path through a CA port ends there.
 * - LID routed (class 0x01): to the sending port itself when the DLID is
 *   its own LID, else through the switch: its LID, or the port its linear
 *   forwarding table (LFT) gives; the answer goes back to the sender.
 * - A request a CA's SMA does not answer itself (SMInfo) is delivered to
 *   QP0 of the destination port, where the SM's agent may take it; an
 *   answer the host posts (GetResp, e.g. an SM's SMInfo or ib_mad's
 *   automatic UNSUPPORTED reply) is delivered to the port it is routed to
 *   (by the return path or the DLID).
 *
 * With an external SM (internal_sa=N) QP1 MADs come here too and are
 * LID routed to QP1 of the port their DLID leads to (sma_gsi()).
 *
 * The agents answer Get and Set of NodeInfo, NodeDescription, PortInfo
 * (with the port state machine INIT -> ARMED -> ACTIVE, Down going back to
 * INIT), P_KeyTable, GUIDInfo and, on the switch, SwitchInfo, LFT and MFT.
 * What the SM sets raises the ib_core events a real HCA driver raises
 * from it (mlx4's smp_snoop() is the model): LID_CHANGE, SM_CHANGE,
 * CLIENT_REREGISTER, PKEY_CHANGE, PORT_ACTIVE, PORT_ERR. An MFT Set is
 * mirrored at once into the table the simulated switch forwards
 * multicast by (sdev->mft).
 *
 * All SMA state is written under sdev->sma_lock, by simhca_sma_work(),
 * which runs on the device's ordered workqueue, or simhca_process_mad();
 * values the verbs read (port state, LID, SM LID) are written with
 * WRITE_ONCE(), the MFT mirror under sdev->lock.
 */
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <rdma/ib_mad.h>
#include <rdma/ib_smi.h>

#include "simhca.h"

#define SMA_NODE_CA	0
#define SMA_NODE_SW	1

#define SMA_STATUS_UNSUP	IB_MGMT_MAD_STATUS_UNSUPPORTED_METHOD_ATTRIB
#define SMA_STATUS_INVALID	IB_MGMT_MAD_STATUS_INVALID_ATTRIB_VALUE

/* PortInfo values the SMA reports (IBA 14.2.5.6) */
#define SMA_WIDTH_SUP		0x03	/* 1X, 4X */
#define SMA_WIDTH_ACTIVE	0x02	/* 4X */
#define SMA_SPEED_SUP		0x07	/* SDR, DDR, QDR */
#define SMA_SPEED_ACTIVE	0x04	/* QDR */
#define SMA_MTU_CAP		IB_MTU_4096
#define SMA_VL_CAP		1	/* VL0 only */
#define SMA_PHYS_LINK_UP	5
#define SMA_PHYS_POLLING	2
#define SMA_LINKDOWN_POLLING	2

struct sma_dest {
	int node;	/* SMA_NODE_* */
	u8 port;	/* the port the SMP entered the node by */
};

/* --- routing ----------------------------------------------------------- */

static bool sma_link_up(struct simhca_dev *sdev, u8 port)
{
	return port >= 1 && port <= sdev->nports &&
	       READ_ONCE(sdev->port[port - 1].state) != IB_PORT_DOWN;
}

/* Leave @d's node by @exit: the peer it reaches. */
static bool sma_hop(struct simhca_dev *sdev, struct sma_dest *d, u8 exit)
{
	if (!sma_link_up(sdev, exit))
		return false;
	d->node = d->node == SMA_NODE_CA ? SMA_NODE_SW : SMA_NODE_CA;
	d->port = exit;
	return true;
}

/*
 * Walk a directed route (IBA 14.2.2) from CA port @port, where it was
 * posted: a request (!@back) outbound, hop i leaving by initial_path[i]
 * and entering by return_path[i], which is filled in; an answer (@back)
 * along the return path, node i left by return_path[i], from the
 * answering node (hop_cnt) to the requester (node 0), which must be a CA
 * port. Only the switch forwards. Returns false if the SMP is lost.
 */
static bool sma_walk(struct simhca_dev *sdev, struct ib_smp *smp, u32 port,
		     bool back, struct sma_dest *d)
{
	u8 n = smp->hop_cnt, k, i;

	d->node = SMA_NODE_CA;
	d->port = port;
	if (n >= IB_SMP_MAX_PATH_HOPS)
		return false;
	if (!back && n && smp->initial_path[1] != port)
		return false;
	for (k = 1; k <= n; k++) {
		i = back ? n + 1 - k : k;
		if (k > 1 && d->node == SMA_NODE_CA)
			return false;
		if (!sma_hop(sdev, d, back ? smp->return_path[i] :
					     smp->initial_path[i]))
			return false;
		if (!back)
			smp->return_path[i] = d->port;
	}
	if (back)
		return d->node == SMA_NODE_CA;
	smp->hop_ptr = n;
	return true;
}

/*
 * Where a LID-routed SMP from CA port @port to @dlid ends: the port
 * itself (its own LID), else the switch's port 0 (its LID, or an LFT
 * entry of 0) or the CA port the LFT names.
 */
static bool sma_route_lid(struct simhca_dev *sdev, u32 port, u16 dlid,
			  struct sma_dest *d)
{
	struct simhca_switch *sw = &sdev->swi;
	u16 own = READ_ONCE(sdev->port[port - 1].lid);
	u8 out;

	d->node = SMA_NODE_CA;
	d->port = port;
	if (!dlid || dlid >= SIMHCA_MLID_BASE)
		return false;
	if (own && (dlid >> sdev->port[port - 1].lmc) ==
		   (own >> sdev->port[port - 1].lmc))
		return true;
	if (!sma_hop(sdev, d, port))
		return false;
	if (sw->lid && dlid == sw->lid)
		return true;
	out = sw->lft[dlid];
	if (out == 0) {
		d->port = 0;
		return true;
	}
	return sma_hop(sdev, d, out);
}

/* The LID an SMP answered at @d comes from. */
static u16 sma_node_lid(struct simhca_dev *sdev, const struct sma_dest *d)
{
	if (d->node == SMA_NODE_SW)
		return sdev->swi.lid;
	return READ_ONCE(sdev->port[d->port - 1].lid);
}

/* Hand @mad to QP0 of CA port @port, as if it came from @slid. */
static void sma_to_qp0(struct simhca_dev *sdev, u32 port, u16 slid,
		       const void *mad)
{
	struct simhca_pkt *pkt;
	unsigned long flags;

	pkt = kzalloc(sizeof(*pkt), GFP_KERNEL);
	if (!pkt)
		return;
	pkt->port = port;
	pkt->slid = slid ? slid : be16_to_cpu(IB_LID_PERMISSIVE);
	memcpy(pkt->mad, mad, sizeof(pkt->mad));
	spin_lock_irqsave(&sdev->lock, flags);
	if (!sdev->dying)
		simhca_deliver_qp(sdev, pkt, 0);
	spin_unlock_irqrestore(&sdev->lock, flags);
	kfree(pkt);
}

/* --- the attributes ---------------------------------------------------- */

static void sma_node_info(struct simhca_dev *sdev, const struct sma_dest *d,
			  struct ib_smp *smp)
{
	struct ib_node_info *ni = (struct ib_node_info *)smp->data;

	memset(smp->data, 0, sizeof(smp->data));
	ni->base_version = 1;
	ni->class_version = 1;
	ni->device_id = cpu_to_be16(1);
	ni->revision = cpu_to_be32(1);
	ni->vendor_id[1] = 0x53;
	ni->vendor_id[2] = 0x48;
	ni->local_port_num = d->port;
	ni->num_ports = sdev->nports;
	if (d->node == SMA_NODE_SW) {
		ni->node_type = RDMA_NODE_IB_SWITCH;
		ni->sys_guid = simhca_switch_guid(sdev);
		ni->node_guid = ni->sys_guid;
		ni->port_guid = ni->sys_guid;
		ni->partition_cap = cpu_to_be16(1);
	} else {
		ni->node_type = RDMA_NODE_IB_CA;
		ni->sys_guid = sdev->ibdev.node_guid;
		ni->node_guid = sdev->ibdev.node_guid;
		ni->port_guid = simhca_port_guid(sdev, d->port);
		ni->partition_cap = cpu_to_be16(SIMHCA_PKEY_TBL_LEN);
	}
}

static void sma_node_desc(struct simhca_dev *sdev, const struct sma_dest *d,
			  struct ib_smp *smp)
{
	memset(smp->data, 0, sizeof(smp->data));
	if (d->node == SMA_NODE_SW)
		snprintf(smp->data, sizeof(smp->data),
			 "simhca%u simulated switch", sdev->index);
	else
		memcpy(smp->data, sdev->ibdev.node_desc,
		       min(sizeof(smp->data), sizeof(sdev->ibdev.node_desc)));
}

/* The port number @mod names in a PortInfo of @d's node, if valid. */
static bool sma_pi_port(struct simhca_dev *sdev, const struct sma_dest *d,
			u32 mod, u8 *num)
{
	if (d->node == SMA_NODE_SW) {
		if (mod > sdev->nports)
			return false;
		*num = mod;
		return true;
	}
	/* a CA: 0 is the port the SMP came in by */
	if (mod > sdev->nports)
		return false;
	*num = mod ? mod : d->port;
	return true;
}

/*
 * Fill @pi for port @num of @d's node from what the SMA keeps: the stored
 * image of the last Set with the fields the SMA owns put over it.
 * LocalPortNum is the port the SMP came in by (OpenSM explores every
 * switch port but that one).
 */
static void sma_pi_get(struct simhca_dev *sdev, const struct sma_dest *d,
		       u8 num, struct ib_port_info *pi)
{
	int node = d->node;
	struct simhca_switch *sw = &sdev->swi;
	u8 state, phys, smsl, lmc, to;
	u16 lid, sm_lid;
	u32 cap;

	if (node == SMA_NODE_SW) {
		struct simhca_port *p = num ? &sdev->port[num - 1] : NULL;

		*pi = sw->pi[num];
		state = sw->state[num];
		phys = SMA_PHYS_LINK_UP;
		if (p && READ_ONCE(p->state) == IB_PORT_DOWN) {
			state = IB_PORT_DOWN;
			phys = SMA_PHYS_POLLING;
		}
		/* port 0 holds the switch's LID, LMC and SM */
		lid = num ? 0 : sw->lid;
		sm_lid = num ? 0 : sw->sm_lid;
		lmc = num ? 0 : sw->lmc;
		smsl = pi->neighbormtu_mastersmsl & 0xf;
		to = pi->clientrereg_resv_subnetto & 0x1f;
		cap = 0;
	} else {
		struct simhca_port *p = &sdev->port[num - 1];

		*pi = p->pi;
		state = READ_ONCE(p->state);
		phys = state == IB_PORT_DOWN ? SMA_PHYS_POLLING :
		       SMA_PHYS_LINK_UP;
		lid = READ_ONCE(p->lid);
		sm_lid = simhca_internal_sa ? READ_ONCE(sdev->knobs.sm_lid) :
			 READ_ONCE(p->sm_lid);
		lmc = p->lmc;
		smsl = p->sm_sl;
		to = p->subnet_timeout;
		cap = READ_ONCE(p->cap_mask);
	}
	pi->gid_prefix = cpu_to_be64(SIMHCA_SUBNET_PREFIX);
	pi->lid = cpu_to_be16(lid);
	pi->sm_lid = cpu_to_be16(sm_lid);
	pi->cap_mask = cpu_to_be32(cap);
	pi->diag_code = 0;
	pi->local_port_num = d->port;
	pi->link_width_supported = SMA_WIDTH_SUP;
	pi->link_width_active = SMA_WIDTH_ACTIVE;
	if (!pi->link_width_enabled)
		pi->link_width_enabled = SMA_WIDTH_SUP;
	pi->linkspeed_portstate = SMA_SPEED_SUP << 4 | state;
	pi->portphysstate_linkdown = phys << 4 |
				     (pi->portphysstate_linkdown & 0xf);
	pi->mkeyprot_resv_lmc = (pi->mkeyprot_resv_lmc & 0xc0) | lmc;
	if (!(pi->linkspeedactive_enabled & 0xf))
		pi->linkspeedactive_enabled = SMA_SPEED_SUP;
	pi->linkspeedactive_enabled = SMA_SPEED_ACTIVE << 4 |
				      (pi->linkspeedactive_enabled & 0xf);
	pi->neighbormtu_mastersmsl = (pi->neighbormtu_mastersmsl & 0xf0) | smsl;
	pi->vlcap_inittype = SMA_VL_CAP << 4;
	pi->inittypereply_mtucap = SMA_MTU_CAP;
	pi->guid_cap = 1;
	pi->clientrereg_resv_subnetto = to;
	pi->resv_resptimevalue = 8;
}

/* The state a Set of PortState @req takes @cur to, or -1: invalid. */
static int sma_next_state(u8 cur, u8 req)
{
	switch (req) {
	case 0:			/* no change */
		return cur;
	case IB_PORT_DOWN:	/* the link retrains and comes back in INIT */
		return cur == IB_PORT_DOWN ? IB_PORT_DOWN : IB_PORT_INIT;
	case IB_PORT_ARMED:
		return cur == IB_PORT_INIT || cur == IB_PORT_ARMED ?
		       IB_PORT_ARMED : -1;
	case IB_PORT_ACTIVE:
		return cur == IB_PORT_ARMED || cur == IB_PORT_ACTIVE ?
		       IB_PORT_ACTIVE : -1;
	default:
		return -1;
	}
}

/* The writable PortInfo fields of @set go into the stored image @img. */
static void sma_pi_store(struct ib_port_info *img,
			 const struct ib_port_info *set)
{
	img->mkey = set->mkey;
	img->mkey_lease_period = set->mkey_lease_period;
	img->link_width_enabled = set->link_width_enabled;
	img->portphysstate_linkdown = set->portphysstate_linkdown & 0xf;
	img->mkeyprot_resv_lmc = set->mkeyprot_resv_lmc & 0xc0;
	img->linkspeedactive_enabled = set->linkspeedactive_enabled & 0xf;
	img->neighbormtu_mastersmsl = set->neighbormtu_mastersmsl;
	img->vl_high_limit = set->vl_high_limit;
	img->vlstallcnt_hoqlife = set->vlstallcnt_hoqlife;
	img->operationalvl_pei_peo_fpi_fpo = set->operationalvl_pei_peo_fpi_fpo;
	img->clientrereg_resv_subnetto = set->clientrereg_resv_subnetto & 0x1f;
	img->localphyerrors_overrunerrors = set->localphyerrors_overrunerrors;
}

/*
 * A PortInfo Set on CA port @p, after its checks: apply it and raise
 * the events a real HCA raises from it, in mlx4's order.
 */
static void sma_pi_set_ca(struct simhca_dev *sdev, struct simhca_port *p,
			  const struct ib_port_info *set, u8 next)
{
	u16 lid = be16_to_cpu(set->lid);
	u16 sm_lid = be16_to_cpu(set->sm_lid);
	u8 sm_sl = set->neighbormtu_mastersmsl & 0xf;
	u8 old = READ_ONCE(p->state);
	bool lid_change, sm_change;

	sma_pi_store(&p->pi, set);
	lid_change = lid != READ_ONCE(p->lid) ||
		     (set->mkeyprot_resv_lmc & 7) != p->lmc;
	sm_change = sm_lid != READ_ONCE(p->sm_lid) || sm_sl != p->sm_sl;
	WRITE_ONCE(p->lid, lid);
	WRITE_ONCE(p->lmc, set->mkeyprot_resv_lmc & 7);
	WRITE_ONCE(p->subnet_timeout, set->clientrereg_resv_subnetto & 0x1f);
	if (!simhca_internal_sa) {
		WRITE_ONCE(p->sm_lid, sm_lid);
		WRITE_ONCE(p->sm_sl, sm_sl);
	} else {
		sm_change = false;
	}
	WRITE_ONCE(p->state, next);
	if (old == IB_PORT_INIT && next == IB_PORT_ARMED)
		sdev->swi.st.ca_armed++;

	if (lid_change)
		simhca_dispatch(sdev, p->num, IB_EVENT_LID_CHANGE);
	if (sm_change)
		simhca_dispatch(sdev, p->num, IB_EVENT_SM_CHANGE);
	if (set->clientrereg_resv_subnetto & 0x80)
		simhca_dispatch(sdev, p->num, IB_EVENT_CLIENT_REREGISTER);
	if (next == IB_PORT_ACTIVE && old != IB_PORT_ACTIVE)
		simhca_dispatch(sdev, p->num, IB_EVENT_PORT_ACTIVE);
	else if (old == IB_PORT_ACTIVE && next != IB_PORT_ACTIVE)
		simhca_dispatch(sdev, p->num, IB_EVENT_PORT_ERR);
}

static u16 sma_port_info(struct simhca_dev *sdev, const struct sma_dest *d,
			 struct ib_smp *smp, bool set)
{
	struct ib_port_info *spi = (struct ib_port_info *)smp->data;
	struct simhca_switch *sw = &sdev->swi;
	u8 num, cur;
	int next;

	if (!sma_pi_port(sdev, d, be32_to_cpu(smp->attr_mod), &num))
		return SMA_STATUS_INVALID;
	if (set) {
		u16 lid = be16_to_cpu(spi->lid);
		bool lid_port = d->node == SMA_NODE_CA || num == 0;

		if (d->node == SMA_NODE_SW)
			cur = num && READ_ONCE(sdev->port[num - 1].state) ==
				     IB_PORT_DOWN ? IB_PORT_DOWN : sw->state[num];
		else
			cur = READ_ONCE(sdev->port[num - 1].state);
		next = sma_next_state(cur, spi->linkspeed_portstate & 0xf);
		if (next < 0 || (lid_port && lid >= SIMHCA_MLID_BASE)) {
			sw->st.bad_set++;
			sma_pi_get(sdev, d, num, spi);
			return SMA_STATUS_INVALID;
		}
		if (d->node == SMA_NODE_CA) {
			sma_pi_set_ca(sdev, &sdev->port[num - 1], spi, next);
		} else {
			sma_pi_store(&sw->pi[num], spi);
			if (num == 0) {
				sw->lid = lid;
				sw->sm_lid = be16_to_cpu(spi->sm_lid);
				sw->lmc = spi->mkeyprot_resv_lmc & 7;
			} else {
				sw->state[num] = next;
			}
		}
	}
	sma_pi_get(sdev, d, num, spi);
	return 0;
}

static u16 sma_pkey_table(struct simhca_dev *sdev, const struct sma_dest *d,
			  struct ib_smp *smp, bool set)
{
	u32 mod = be32_to_cpu(smp->attr_mod);
	__be16 *t = (__be16 *)smp->data;
	struct simhca_port *p;
	bool changed = false;
	int i;

	/* one block of 32 entries holds every P_Key a port has */
	if (mod & 0xffff)
		return SMA_STATUS_INVALID;
	if (d->node == SMA_NODE_SW) {
		/* no partition enforcement: the default P_Key only */
		if ((mod >> 16) > sdev->nports)
			return SMA_STATUS_INVALID;
		memset(smp->data, 0, sizeof(smp->data));
		t[0] = cpu_to_be16(0xffff);
		return 0;
	}
	p = &sdev->port[d->port - 1];
	for (i = 0; set && i < SIMHCA_PKEY_TBL_LEN; i++) {
		u16 k = be16_to_cpu(t[i]);

		if (READ_ONCE(p->pkeys[i]) != k) {
			WRITE_ONCE(p->pkeys[i], k);
			changed = true;
		}
	}
	memset(smp->data, 0, sizeof(smp->data));
	for (i = 0; i < SIMHCA_PKEY_TBL_LEN; i++)
		t[i] = cpu_to_be16(READ_ONCE(p->pkeys[i]));
	if (changed)
		simhca_dispatch(sdev, p->num, IB_EVENT_PKEY_CHANGE);
	return 0;
}

static u16 sma_guid_info(struct simhca_dev *sdev, const struct sma_dest *d,
			 struct ib_smp *smp)
{
	__be64 guid;

	if (be32_to_cpu(smp->attr_mod))
		return SMA_STATUS_INVALID;
	guid = d->node == SMA_NODE_SW ? simhca_switch_guid(sdev) :
	       simhca_port_guid(sdev, d->port);
	memset(smp->data, 0, sizeof(smp->data));
	memcpy(smp->data, &guid, sizeof(guid));
	return 0;
}

/* SwitchInfo, IBA 14.2.5.4, laid out as opensm's ib_switch_info_t */
struct sma_switch_info {
	__be16 lin_cap;
	__be16 rand_cap;
	__be16 mcast_cap;
	__be16 lin_top;
	u8 def_port;
	u8 def_mcast_pri_port;
	u8 def_mcast_not_port;
	u8 life_state;
	__be16 lids_per_port;
	__be16 enforce_cap;
	u8 flags;
	u8 resv;
	__be16 mcast_top;
} __packed;

static u16 sma_switch_info(struct simhca_dev *sdev, struct ib_smp *smp,
			   bool set)
{
	struct sma_switch_info *si = (struct sma_switch_info *)smp->data;
	struct simhca_switch *sw = &sdev->swi;

	if (set) {
		sw->lin_top = min_t(u16, be16_to_cpu(si->lin_top),
				    SIMHCA_LFT_CAP - 1);
		sw->def_mcast_pri = si->def_mcast_pri_port;
		sw->def_mcast_not = si->def_mcast_not_port;
		/* LifeTimeValue is set; PortStateChange is cleared by a 1 */
		sw->life_state = (si->life_state & 0xf8) |
				 (sw->life_state & ~si->life_state & 0x04);
		sw->mcast_top = be16_to_cpu(si->mcast_top);
	}
	memset(smp->data, 0, sizeof(smp->data));
	si->lin_cap = cpu_to_be16(SIMHCA_LFT_CAP);
	si->mcast_cap = cpu_to_be16(min_t(u32, READ_ONCE(sdev->knobs.mlid_capacity),
					  SIMHCA_MLID_NUM));
	si->lin_top = cpu_to_be16(sw->lin_top);
	si->def_mcast_pri_port = sw->def_mcast_pri;
	si->def_mcast_not_port = sw->def_mcast_not;
	si->life_state = sw->life_state;
	si->mcast_top = cpu_to_be16(sw->mcast_top);
	return 0;
}

static u16 sma_lft(struct simhca_dev *sdev, struct ib_smp *smp, bool set)
{
	u32 block = be32_to_cpu(smp->attr_mod);

	if (block >= SIMHCA_LFT_CAP / 64)
		return SMA_STATUS_INVALID;
	if (set)
		memcpy(&sdev->swi.lft[block * 64], smp->data, 64);
	memcpy(smp->data, &sdev->swi.lft[block * 64], 64);
	return 0;
}

/*
 * MulticastForwardingTable: 32 MLIDs a block (AttributeModifier bits
 * 0-8), 16 ports a position (bits 28-31): with at most 3 ports only
 * position 0 has any. A Set is mirrored into sdev->mft, the table the
 * switch forwards by (bit P-1 for port P; port 0, the switch, is not a
 * destination of datagrams).
 */
static u16 sma_mft(struct simhca_dev *sdev, struct ib_smp *smp, bool set)
{
	u32 mod = be32_to_cpu(smp->attr_mod);
	u32 block = mod & 0x1ff, pos = mod >> 28;
	__be16 *e = (__be16 *)smp->data;
	unsigned long flags;
	u32 first = block * 32, i;
	u8 *mft = NULL;

	if ((mod & 0x0ffffe00) || first >= SIMHCA_MLID_NUM)
		return SMA_STATUS_INVALID;
	if (pos) {
		memset(smp->data, 0, sizeof(smp->data));
		return 0;
	}
	if (set) {
		for (i = 0; i < 32 && first + i < SIMHCA_MLID_NUM; i++)
			sdev->swi.mft[first + i] = e[i];
		if (!READ_ONCE(sdev->mft))
			mft = kvzalloc(SIMHCA_MLID_NUM, GFP_KERNEL);
		spin_lock_irqsave(&sdev->lock, flags);
		if (!sdev->mft) {
			sdev->mft = mft;
			mft = NULL;
		}
		for (i = 0; sdev->mft && i < 32 && first + i < SIMHCA_MLID_NUM;
		     i++)
			sdev->mft[first + i] =
				(be16_to_cpu(e[i]) >> 1) & (BIT(sdev->nports) - 1);
		sdev->sw.mft_programs++;
		spin_unlock_irqrestore(&sdev->lock, flags);
		kvfree(mft);
	}
	memset(smp->data, 0, sizeof(smp->data));
	for (i = 0; i < 32 && first + i < SIMHCA_MLID_NUM; i++)
		e[i] = sdev->swi.mft[first + i];
	return 0;
}

/*
 * The agent at @d handles a Get or Set; returns the answer's status, or
 * -1 if a CA's SMA does not take it (it goes up to the port's QP0).
 */
static int sma_answer(struct simhca_dev *sdev, const struct sma_dest *d,
		      struct ib_smp *smp)
{
	bool set = smp->method == IB_MGMT_METHOD_SET;
	bool sw = d->node == SMA_NODE_SW;

	switch (smp->attr_id) {
	case IB_SMP_ATTR_NODE_INFO:
		if (set)
			return SMA_STATUS_UNSUP;
		sma_node_info(sdev, d, smp);
		return 0;
	case IB_SMP_ATTR_NODE_DESC:
		if (set)
			return SMA_STATUS_UNSUP;
		sma_node_desc(sdev, d, smp);
		return 0;
	case IB_SMP_ATTR_PORT_INFO:
		return sma_port_info(sdev, d, smp, set);
	case IB_SMP_ATTR_PKEY_TABLE:
		return sma_pkey_table(sdev, d, smp, set);
	case IB_SMP_ATTR_GUID_INFO:
		return sma_guid_info(sdev, d, smp);
	case IB_SMP_ATTR_SWITCH_INFO:
		return sw ? sma_switch_info(sdev, smp, set) : SMA_STATUS_UNSUP;
	case IB_SMP_ATTR_LINEAR_FORWARD_TABLE:
		return sw ? sma_lft(sdev, smp, set) : SMA_STATUS_UNSUP;
	case IB_SMP_ATTR_MCAST_FORWARD_TABLE:
		return sw ? sma_mft(sdev, smp, set) : SMA_STATUS_UNSUP;
	case IB_SMP_ATTR_SM_INFO:
		return sw ? SMA_STATUS_UNSUP : -1;
	default:
		return SMA_STATUS_UNSUP;
	}
}

/* --- traps ------------------------------------------------------------ */

/*
 * Trap 128 (IBA 14.2.5.1 Notice, 14.4.11): when the state of one of its
 * links changes, the switch sets SwitchInfo's PortStateChange and tells
 * the master SM at once, so that it sweeps now and not at its next light
 * sweep (OpenSM forces a heavy sweep on trap 128: osm_trap_rcv.c). The
 * Trap goes LID routed from the switch's LID to the SM LID the SM set in
 * the switch's port 0, and again every TrapTimer (4.096 us x
 * 2^SubnetTimeOut of port 0) until the SM answers with a TrapRepress of
 * its TID, at most SMA_TRAP_SENDS times. A change while one is pending
 * starts a new one (new TID, the Toggle flipped). Before the SM has given
 * the switch a LID and its own, or while its port cannot be reached,
 * nothing is sent: its sweeps find the change by PortStateChange.
 *
 * CA ports do not send traps: their CapabilityMask has no IsTrapSupported,
 * and OpenSM then sends the trap 144 of its own port's changes itself
 * (osm_send_trap144()).
 */
#define SMA_TRAP_SENDS		5
#define SMA_NOTICE_GENERIC	0x80
#define SMA_NOTICE_URGENT	1
#define SMA_PRODUCER_SWITCH	2
#define SMA_TRAP_LINK_STATE	128

/* The Notice attribute's first 12 bytes, with trap 128's details */
struct sma_notice {
	u8 generic_type;	/* IsGeneric, Type */
	u8 prod_type_msb;	/* ProducerType, 24 bits */
	__be16 prod_type_lsb;
	__be16 trap_num;
	__be16 issuer_lid;
	__be16 toggle_count;	/* Toggle, Count */
	__be16 sw_lid;		/* trap 128: the switch whose link changed */
} __packed;

static void sma_trap_work(struct work_struct *work)
{
	struct simhca_switch *sw = container_of(to_delayed_work(work),
						struct simhca_switch,
						trap_work);
	struct simhca_dev *sdev = container_of(sw, struct simhca_dev, swi);
	struct sma_notice *ntc;
	struct ib_smp smp = {};
	unsigned long flags;
	u8 out = 0xff, to;

	mutex_lock(&sdev->sma_lock);
	if (!sw->trap_pending)
		goto out;
	if (sw->trap_sends >= SMA_TRAP_SENDS) {
		sw->trap_pending = false;
		sw->st.trap_unrepressed++;
		goto out;
	}
	if (sw->lid && sw->sm_lid && sw->sm_lid < SIMHCA_MLID_BASE)
		out = sw->lft[sw->sm_lid];
	if (out < 1 || out > sdev->nports || !sma_link_up(sdev, out)) {
		sw->trap_pending = false;
		sw->st.trap_no_sm++;
		goto out;
	}
	smp.base_version = IB_MGMT_BASE_VERSION;
	smp.mgmt_class = IB_MGMT_CLASS_SUBN_LID_ROUTED;
	smp.class_version = 1;
	smp.method = IB_MGMT_METHOD_TRAP;
	smp.tid = cpu_to_be64(sw->trap_tid);
	smp.attr_id = IB_SMP_ATTR_NOTICE;
	ntc = (struct sma_notice *)smp.data;
	ntc->generic_type = SMA_NOTICE_GENERIC | SMA_NOTICE_URGENT;
	ntc->prod_type_lsb = cpu_to_be16(SMA_PRODUCER_SWITCH);
	ntc->trap_num = cpu_to_be16(SMA_TRAP_LINK_STATE);
	ntc->issuer_lid = cpu_to_be16(sw->lid);
	ntc->toggle_count = cpu_to_be16(sw->trap_seq & 1 ? 0x8000 : 0);
	ntc->sw_lid = cpu_to_be16(sw->lid);
	sma_to_qp0(sdev, out, sw->lid, &smp);
	sw->trap_sends++;
	sw->st.trap_sent++;
	to = min(sw->pi[0].clientrereg_resv_subnetto & 0x1f, 20);
	spin_lock_irqsave(&sdev->lock, flags);
	if (!sdev->dying)
		queue_delayed_work(sdev->wq, &sw->trap_work,
				   max(nsecs_to_jiffies(4096ULL << to), 1UL));
	spin_unlock_irqrestore(&sdev->lock, flags);
out:
	mutex_unlock(&sdev->sma_lock);
}

/* A TrapRepress the SM sent the switch: the pending trap is answered. */
static void sma_trap_repress(struct simhca_dev *sdev, const struct ib_smp *smp)
{
	struct simhca_switch *sw = &sdev->swi;

	if (smp->attr_id != IB_SMP_ATTR_NOTICE || !sw->trap_pending ||
	    be64_to_cpu(smp->tid) != sw->trap_tid) {
		sw->st.dropped++;
		return;
	}
	sw->trap_pending = false;
	sw->st.trap_repressed++;
}

/**
 * simhca_sma_link_changed() - a link of the switch changed its state
 * @sdev: the device
 *
 * Called after SwitchInfo's PortStateChange was set (debugfs "state" with
 * an external SM): the switch sends a new trap 128.
 *
 * Context: process; takes sdev->sma_lock.
 */
void simhca_sma_link_changed(struct simhca_dev *sdev)
{
	struct simhca_switch *sw = &sdev->swi;
	unsigned long flags;

	mutex_lock(&sdev->sma_lock);
	sw->trap_seq++;
	sw->trap_tid = (u64)sdev->index << 32 | sw->trap_seq;
	sw->trap_sends = 0;
	sw->trap_pending = true;
	spin_lock_irqsave(&sdev->lock, flags);
	if (!sdev->dying)
		mod_delayed_work(sdev->wq, &sw->trap_work, 0);
	spin_unlock_irqrestore(&sdev->lock, flags);
	mutex_unlock(&sdev->sma_lock);
}

/* --- the SMA's work ---------------------------------------------------- */

static bool sma_is_response(const struct ib_smp *smp)
{
	return smp->method & IB_MGMT_METHOD_RESP;
}

static void sma_handle(struct simhca_dev *sdev, struct simhca_pkt *pkt)
{
	struct ib_smp *smp = (struct ib_smp *)pkt->mad;
	struct simhca_sma_stats *st = &sdev->swi.st;
	bool dr = smp->mgmt_class == IB_MGMT_CLASS_SUBN_DIRECTED_ROUTE;
	struct sma_dest d;
	int status;
	u16 slid;

	st->rx++;
	if (smp->base_version != IB_MGMT_BASE_VERSION ||
	    smp->class_version != 1 ||
	    (!dr && smp->mgmt_class != IB_MGMT_CLASS_SUBN_LID_ROUTED))
		goto drop;
	/* the LID-routed parts of a directed route are not modelled */
	if (dr && (smp->dr_slid != IB_LID_PERMISSIVE ||
		   smp->dr_dlid != IB_LID_PERMISSIVE))
		goto drop;

	if (sma_is_response(smp) || smp->method == IB_MGMT_METHOD_TRAP ||
	    smp->method == IB_MGMT_METHOD_TRAP_REPRESS) {
		/* an answer, a trap or its repress a host port sends */
		if (dr ? !sma_walk(sdev, smp, pkt->port, true, &d) :
			 !sma_route_lid(sdev, pkt->port, pkt->dlid, &d))
			goto drop;
		if (d.node == SMA_NODE_SW && !dr &&
		    smp->method == IB_MGMT_METHOD_TRAP_REPRESS) {
			sma_trap_repress(sdev, smp);
			return;
		}
		if (d.node != SMA_NODE_CA)
			goto drop;
		if (dr)
			smp->hop_ptr = 0;
		st->to_host++;
		sma_to_qp0(sdev, d.port,
			   READ_ONCE(sdev->port[pkt->port - 1].lid), smp);
		return;
	}
	if (smp->method != IB_MGMT_METHOD_GET &&
	    smp->method != IB_MGMT_METHOD_SET)
		goto drop;
	if (dr ? !sma_walk(sdev, smp, pkt->port, false, &d) :
		 !sma_route_lid(sdev, pkt->port, pkt->dlid, &d))
		goto drop;

	status = sma_answer(sdev, &d, smp);
	if (status < 0) {
		/* to the port's QP0: the SM's agent there, or ib_mad's reply */
		if (dr)
			smp->hop_ptr = smp->hop_cnt + 1;
		st->to_host++;
		sma_to_qp0(sdev, d.port,
			   READ_ONCE(sdev->port[pkt->port - 1].lid), smp);
		return;
	}
	slid = sma_node_lid(sdev, &d);
	smp->method = IB_MGMT_METHOD_GET_RESP;
	smp->status = cpu_to_be16(status);
	if (dr) {
		smp->status |= IB_SMP_DIRECTION;
		smp->hop_ptr = 0;
	}
	st->answered++;
	sma_to_qp0(sdev, pkt->port, slid, smp);
	return;
drop:
	st->dropped++;
}

/*
 * A MAD posted on QP1 with an external SM (internal_sa=N): LID routed
 * like any datagram, from an ACTIVE port to QP1 of the ACTIVE CA port its
 * DLID leads to, e.g. the port where OpenSM's SA listens and back. RMPP
 * segments pass one by one; ib_mad at both ends does the RMPP.
 */
static void sma_gsi(struct simhca_dev *sdev, struct simhca_pkt *pkt)
{
	struct simhca_sma_stats *st = &sdev->swi.st;
	unsigned long flags;
	struct sma_dest d;

	if (READ_ONCE(sdev->port[pkt->port - 1].state) != IB_PORT_ACTIVE ||
	    !sma_route_lid(sdev, pkt->port, pkt->dlid, &d) ||
	    d.node != SMA_NODE_CA) {
		st->gsi_dropped++;
		return;
	}
	pkt->port = d.port;
	spin_lock_irqsave(&sdev->lock, flags);
	if (!sdev->dying)
		simhca_deliver_qp(sdev, pkt, 1);
	spin_unlock_irqrestore(&sdev->lock, flags);
	st->gsi_routed++;
}

void simhca_sma_work(struct work_struct *work)
{
	struct simhca_dev *sdev = container_of(work, struct simhca_dev,
					       sma_work);
	struct simhca_pkt *pkt, *tmp;
	unsigned long flags;
	LIST_HEAD(todo);

	spin_lock_irqsave(&sdev->lock, flags);
	list_splice_init(&sdev->to_sma, &todo);
	spin_unlock_irqrestore(&sdev->lock, flags);

	mutex_lock(&sdev->sma_lock);
	list_for_each_entry_safe(pkt, tmp, &todo, list) {
		if (pkt->qpn == 1)
			sma_gsi(sdev, pkt);
		else
			sma_handle(sdev, pkt);
		kfree(pkt);
	}
	mutex_unlock(&sdev->sma_lock);
}

/*
 * process_mad, with an external SM only (internal_sa=N). ib_mad's SMI
 * (smi_check_local_smp(), smi_check_local_returning_smp()) gives a driver
 * that has one the directed-route SMPs that end at its port: those a
 * local agent sends with hop count 0 (instead of posting them) and those
 * that arrive at the end of their path. Without one, ib_mad discards
 * every directed-route request that reaches a CA port, and an SM could
 * never poll another SM's SMInfo by directed route (failover, handover).
 * Every MAD received is offered here too.
 *
 * A Get or Set of the port's SMA attributes (a local SMP: the work
 * answers all others before they reach a host) is answered here, as a
 * real HCA's firmware does. SMInfo, answers and every other class pass
 * (IB_MAD_RESULT_SUCCESS) to the agents: the SM's on this port, or
 * ib_mad's automatic UNSUPPORTED reply (mlx4 passes SMInfo the same
 * way). ib_mad calls it from process context; it sleeps on sma_lock.
 */
static int simhca_process_mad(struct ib_device *ibdev, int mad_flags,
			      simhca_verbs_port_t port_num,
			      const struct ib_wc *in_wc,
			      const struct ib_grh *in_grh,
			      const struct ib_mad *in, struct ib_mad *out,
			      size_t *out_mad_size, u16 *out_mad_pkey_index)
{
	struct simhca_dev *sdev = to_sdev(ibdev);
	struct sma_dest d = { .node = SMA_NODE_CA, .port = port_num };
	const struct ib_mad_hdr *hdr = &in->mad_hdr;
	struct ib_smp *smp = (struct ib_smp *)out;
	bool dr = hdr->mgmt_class == IB_MGMT_CLASS_SUBN_DIRECTED_ROUTE;
	int status;

	if ((!dr && hdr->mgmt_class != IB_MGMT_CLASS_SUBN_LID_ROUTED) ||
	    hdr->base_version != IB_MGMT_BASE_VERSION ||
	    hdr->class_version != 1 ||
	    (hdr->method != IB_MGMT_METHOD_GET &&
	     hdr->method != IB_MGMT_METHOD_SET) ||
	    hdr->attr_id == IB_SMP_ATTR_SM_INFO ||
	    port_num < 1 || port_num > sdev->nports ||
	    *out_mad_size < sizeof(*smp))
		return IB_MAD_RESULT_SUCCESS;

	memcpy(smp, in, sizeof(*smp));
	mutex_lock(&sdev->sma_lock);
	status = sma_answer(sdev, &d, smp);
	if (status >= 0)
		sdev->swi.st.local++;
	mutex_unlock(&sdev->sma_lock);
	if (status < 0)
		return IB_MAD_RESULT_SUCCESS;
	smp->method = IB_MGMT_METHOD_GET_RESP;
	smp->status = cpu_to_be16(status);
	if (dr) {
		smp->status |= IB_SMP_DIRECTION;
		smp->hop_ptr = 0;
	}
	*out_mad_size = sizeof(*smp);
	return IB_MAD_RESULT_SUCCESS | IB_MAD_RESULT_REPLY;
}

const struct ib_device_ops simhca_sma_ops = {
	.process_mad = simhca_process_mad,
};

/*
 * From post_send on QP0, or QP1 with an external SM (any context): queue
 * a copy for the SMA's work.
 */
void simhca_sma_post(struct simhca_dev *sdev, u32 port, u32 qpn,
		     const struct ib_ud_wr *ud)
{
	struct simhca_ah *ah = container_of(ud->ah, struct simhca_ah, ibah);
	struct simhca_pkt *pkt;
	unsigned long flags;
	u32 off = 0;
	int i;

	pkt = kzalloc(sizeof(*pkt), GFP_ATOMIC);
	if (!pkt)
		return;
	for (i = 0; i < ud->wr.num_sge; i++) {
		u32 len = ud->wr.sg_list[i].length;

		if (off + len > sizeof(pkt->mad))
			len = sizeof(pkt->mad) - off;
		memcpy(pkt->mad + off,
		       (void *)(uintptr_t)ud->wr.sg_list[i].addr, len);
		off += len;
	}
	pkt->port = port;
	pkt->qpn = qpn;
	pkt->dlid = rdma_ah_get_dlid(&ah->attr);
	pkt->slid = READ_ONCE(sdev->port[port - 1].lid);
	pkt->pkey_index = ud->pkey_index;
	spin_lock_irqsave(&sdev->lock, flags);
	if (!sdev->dying) {
		list_add_tail(&pkt->list, &sdev->to_sma);
		queue_work(sdev->wq, &sdev->sma_work);
		pkt = NULL;
	}
	spin_unlock_irqrestore(&sdev->lock, flags);
	kfree(pkt);
}

/*
 * ib_modify_port(): the CapabilityMask bits (IsSM from ib_umad's issmN,
 * IsCM from ib_cm); the Q_Key violation counter reset and shutdown are
 * accepted and do nothing.
 */
int simhca_modify_port(struct ib_device *ibdev, simhca_verbs_port_t port_num,
		       int mask, struct ib_port_modify *props)
{
	struct simhca_port *p = &to_sdev(ibdev)->port[port_num - 1];
	u32 cap, old;

	do {
		old = READ_ONCE(p->cap_mask);
		cap = (old | props->set_port_cap_mask) &
		      ~props->clr_port_cap_mask;
	} while (cmpxchg(&p->cap_mask, old, cap) != old);
	return 0;
}

/* debugfs "sma": the switch, the ports as the SMA reports them, counters */
void simhca_sma_show(struct simhca_dev *sdev, struct seq_file *m)
{
	struct simhca_switch *sw = &sdev->swi;
	u32 i;

	seq_printf(m, "internal_sa %s\n", simhca_internal_sa ? "Y" : "N");
	seq_printf(m, "switch guid 0x%016llx lid %u sm_lid %u lin_top %u\n",
		   be64_to_cpu(simhca_switch_guid(sdev)), sw->lid, sw->sm_lid,
		   sw->lin_top);
	for (i = 1; i <= sdev->nports; i++)
		seq_printf(m, "switch port %u state %u\n", i, sw->state[i]);
	for (i = 0; i < sdev->nports; i++) {
		struct simhca_port *p = &sdev->port[i];

		seq_printf(m, "port %u state %u lid %u sm_lid %u cap_mask 0x%08x\n",
			   i + 1, READ_ONCE(p->state), READ_ONCE(p->lid),
			   READ_ONCE(p->sm_lid), READ_ONCE(p->cap_mask));
	}
	seq_printf(m, "smp_rx %llu\nsmp_answered %llu\nsmp_to_host %llu\n",
		   sw->st.rx, sw->st.answered, sw->st.to_host);
	seq_printf(m, "smp_local %llu\n", sw->st.local);
	seq_printf(m, "smp_dropped %llu\nsmp_bad_set %llu\n", sw->st.dropped,
		   sw->st.bad_set);
	seq_printf(m, "ca_armed %llu\n", sw->st.ca_armed);
	seq_printf(m, "gsi_routed %llu\ngsi_dropped %llu\n", sw->st.gsi_routed,
		   sw->st.gsi_dropped);
	seq_printf(m, "trap_sent %llu\ntrap_repressed %llu\n",
		   sw->st.trap_sent, sw->st.trap_repressed);
	seq_printf(m, "trap_unrepressed %llu\ntrap_no_sm %llu\n",
		   sw->st.trap_unrepressed, sw->st.trap_no_sm);
}

int simhca_sma_init(struct simhca_dev *sdev)
{
	struct simhca_switch *sw = &sdev->swi;
	u32 i;

	INIT_LIST_HEAD(&sdev->to_sma);
	INIT_WORK(&sdev->sma_work, simhca_sma_work);
	INIT_DELAYED_WORK(&sw->trap_work, sma_trap_work);
	mutex_init(&sdev->sma_lock);
	sw->lft = kvmalloc(SIMHCA_LFT_CAP, GFP_KERNEL);
	sw->mft = kvcalloc(SIMHCA_MLID_NUM, sizeof(*sw->mft), GFP_KERNEL);
	if (!sw->lft || !sw->mft) {
		simhca_sma_fini(sdev);
		return -ENOMEM;
	}
	memset(sw->lft, 0xff, SIMHCA_LFT_CAP);
	sw->def_mcast_pri = 0xff;
	sw->def_mcast_not = 0xff;
	for (i = 0; i <= sdev->nports; i++) {
		/* port 0 is the switch itself; the links come up in INIT */
		sw->state[i] = i && !simhca_internal_sa ? IB_PORT_INIT :
			       IB_PORT_ACTIVE;
		sw->pi[i].portphysstate_linkdown = SMA_LINKDOWN_POLLING;
		sw->pi[i].neighbormtu_mastersmsl = SMA_MTU_CAP << 4;
		sw->pi[i].operationalvl_pei_peo_fpi_fpo = SMA_VL_CAP << 4;
	}
	for (i = 0; i < sdev->nports; i++) {
		struct simhca_port *p = &sdev->port[i];

		p->pi.portphysstate_linkdown = SMA_LINKDOWN_POLLING;
		p->pi.neighbormtu_mastersmsl = SMA_MTU_CAP << 4;
		p->pi.operationalvl_pei_peo_fpi_fpo = SMA_VL_CAP << 4;
		p->subnet_timeout = 18;
	}
	return 0;
}

void simhca_sma_fini(struct simhca_dev *sdev)
{
	struct simhca_pkt *pkt, *tmp;

	list_for_each_entry_safe(pkt, tmp, &sdev->to_sma, list)
		kfree(pkt);
	INIT_LIST_HEAD(&sdev->to_sma);
	kvfree(sdev->swi.lft);
	kvfree(sdev->swi.mft);
	sdev->swi.lft = NULL;
	sdev->swi.mft = NULL;
}
