/* SPDX-License-Identifier: ((GPL-2.0 WITH Linux-syscall-note) OR Linux-OpenIB) */
/*
 * ib_mcgroups: persistent, refcounted InfiniBand/RoCE multicast memberships.
 *
 * This header is the protocol. The generic netlink family is named
 * IB_MCG_GENL_NAME ("ib_mcgroups"), version IB_MCG_GENL_VERSION (the
 * family's version in CTRL_CMD_GETFAMILY). Version 2 sends results of any
 * size as dumps: OWNER_RELEASE with NLM_F_DUMP, and GROUP_GET's dump
 * filtered to one MGID; no reply has to fit in one message. Every
 * request is a genetlink message whose command is one of enum ib_mcg_cmd,
 * carrying top-level attributes from enum ib_mcg_attr. Every command has a
 * strict per-command policy: unknown attributes, wrong lengths and values out
 * of range are rejected with an extended ack (NLMSGERR_ATTR_MSG) naming the
 * problem, and a rejected request changes no state.
 *
 * A group is (device, port, MGID). A group has holders; a holder is
 * (owner, join state) where the owner is a free-form name of at most
 * IB_MCG_OWNER_MAX bytes ("job:42", "slurm", "admin") and the join state is
 * exactly one of IB_MCG_JOIN_*. A group's effective join state is the union
 * of its holders' join states, and the group is released when its last
 * holder leaves. A device is named by IB_MCG_A_DEV_NAME or IB_MCG_A_DEV_INDEX
 * (the rdma device index); if both are given they must name the same device.
 *
 * Who may do what. "Privileged" is CAP_NET_ADMIN in the initial user
 * namespace, of the socket's opener and of the sender (netlink_capable());
 * the family exists in the initial network namespace only (from another
 * one it cannot be resolved). A caller without it ("unprivileged") may:
 *   - JOIN with IB_MCG_F_BOUND only, for the owner "uid:N" alone, N its
 *     real uid (the request's credentials); IB_MCG_A_OWNER may then be
 *     left out, meaning the same. No IB_MCG_A_LINGER_MS, and no Q_Key
 *     with the high bit set (a controlled Q_Key). A Q_Key, create
 *     parameters or an all-zero MGID only for a group held (or left
 *     lingering) with them by a privileged caller: an unprivileged hold
 *     never gives a group its parameters (-EPERM). On InfiniBand its
 *     JOIN of a group nobody on the node holds is by MGID, of a group the
 *     SA has, except in the MGID ranges of the module parameter
 *     user_create: there the group is created with the default
 *     parameters (Q_Key IB_MCG_DEFAULT_QKEY, P_Key 0xffff, the SA's MTU
 *     and rate) and re-created by its users' holds. At most user_max_holds
 *     such holds per uid (module parameter, default 64; 0: none). Each
 *     socket of the uid has a hold of its own on a group: a join from
 *     another socket takes a new hold (another owner's gets -EBUSY).
 *   - LEAVE the holds of the socket the LEAVE is sent on, nothing else
 *     (-EPERM if it finds only another socket's or privileged holds).
 *   - GROUP_GET and PORT_GET: a group lists only the holds the caller
 *     took itself; IB_MCG_A_HOLDER_COUNT still counts every holder.
 * and nothing else: OWNER_RELEASE and listening to the events group need
 * CAP_NET_ADMIN. Every refusal is -EPERM with an extended ack (-ENOSPC
 * past user_max_holds) and changes nothing. Device names are at
 * most 63 bytes. A bound hold belongs to one socket, so processes sharing
 * an owner name (MPI ranks of one job) that want bound holds use distinct
 * owners ("job:42:rank3").
 *
 * IB_MCG_CMD_JOIN (do; unprivileged: bound holds of "uid:N", see above)
 *   Request:
 *     IB_MCG_A_DEV_NAME or IB_MCG_A_DEV_INDEX   required
 *     IB_MCG_A_PORT         u32     required, 1..number of ports
 *     IB_MCG_A_MGID         16 B    required, network byte order; must be a
 *                                    multicast GID (first byte 0xff) or, on
 *                                    RoCE, an IPv4-mapped group
 *                                    (::ffff:224.0.0.0/100), or, on
 *                                    InfiniBand, all zero: SA-assigned
 *     IB_MCG_A_OWNER        string  required (unprivileged: optional,
 *                                    "uid:N" only), 1..IB_MCG_OWNER_MAX bytes of
 *                                    printable ASCII without spaces
 *                                    (0x21..0x7e); a trailing NUL is
 *                                    allowed and not counted
 *     IB_MCG_A_JOIN_STATE   u8      optional, one IB_MCG_JOIN_* bit;
 *                                    default IB_MCG_JOIN_FULL
 *     IB_MCG_A_FLAGS        u32     optional, IB_MCG_F_* bits
 *     IB_MCG_A_QKEY         u32     optional, default IB_MCG_DEFAULT_QKEY
 *   InfiniBand only, the parameters of a group the join may create (the
 *   SA creates a group when the first full member joins it); giving any
 *   of them (or an all-zero MGID) makes the join a create, whose missing
 *   parameters take the defaults in brackets:
 *     IB_MCG_A_QKEY [IB_MCG_DEFAULT_QKEY], IB_MCG_A_PKEY u16 [0xffff],
 *     IB_MCG_A_SL u8 0..15 [0], IB_MCG_A_FLOW_LABEL u32 0..0xfffff [0],
 *     IB_MCG_A_TCLASS u8 [0], and, only if given: IB_MCG_A_MTU u8 enum
 *     ib_mtu 1..5 (exactly), IB_MCG_A_RATE u8 enum ib_rate 2..22
 *     (exactly), IB_MCG_A_HOP_LIMIT u8, IB_MCG_A_SCOPE u8 0..15 (the
 *     scope of an SA-assigned MGID). The SA needs Q_Key, P_Key, SL, flow
 *     label and traffic class to create a group, so a create sends them
 *     all. A P_Key whose low 15 bits are 0 is refused. On InfiniBand a
 *     JOIN that gives IB_MCG_A_QKEY is a create too.
 *   Without them the join names an existing group: MGID and join state
 *   only. An all-zero MGID asks the SA to assign one; the notification
 *   of the outcome carries it. The P_Key must be in the port's P_Key
 *   table.
 *   No request waits for the fabric (version 2; a version 1 kernel waited
 *   for the SA's answer, up to the module parameter join_wait_ms, in the
 *   JOIN): the reply describes the group at once, with the requester's
 *   hold and its IB_MCG_HOLDER_A_ID, in state JOINING while the SA has not
 *   answered, and the outcome follows as notifications of the group,
 *   which IB_MCG_A_GROUP_ID names: GROUP_STATE_NTF with state JOINED (and
 *   the record; an SA-assigned MGID), or RETRY_WAIT (the SA did not
 *   answer: the group is held and retried, as is any held group that
 *   loses its membership). A join state the SA rejects the first time it
 *   is asked for the group (or an SA-assigned MGID that fails) is refused
 *   and not held: the holds that asked for it are dropped, each with a
 *   HOLDER_DEL_NTF carrying its IB_MCG_HOLDER_A_ID, IB_MCG_A_REASON
 *   SA_REJECTED (TIMEOUT, ERROR for an SA-assigned MGID) and
 *   IB_MCG_A_ERROR; the group stays for its other holders (GROUP_STATE_NTF
 *   JOINED once what they hold is held) or is released if there are none
 *   (GROUP_DEL_NTF, state RELEASED). To wait for the outcome, subscribe to
 *   the events group before sending the JOIN, or, once the reply says
 *   JOINING, subscribe and then GROUP_GET the group (an outcome notified
 *   before the subscription shows there: the hold gone means refused, and
 *   the JOIN may be sent again, subscribed, to learn why); libibmcg's
 *   ibmcg_join() does the latter (the former for an SA-assigned MGID) and
 *   waits up to join_wait_ms (read from /sys/module/ib_mcgroups/parameters),
 *   failing with the refusal's error. A JOIN always has a reply on
 *   success: NLM_F_ACK is not needed.
 *   A re-join asks as the holders of that join state joined: with the
 *   group's last record if one of them gave create parameters (so a group
 *   the SA lost is created again), else by MGID and join state only
 *   (retried until the group exists again). A group that no holder here
 *   can create again (no full join state asked for with create
 *   parameters) is released, reason IB_MCG_REASON_GROUP_GONE, once the SA
 *   refused its re-joins rejoin_refusals times in a row (module
 *   parameter; 0 retries for ever). After CLIENT_REREGISTER, PORT_ERR,
 *   LID_CHANGE, a P_Key move or a new port GID (seen at a port event) a
 *   group's reason is IB_MCG_REASON_NET_RESET while it waits;
 *   PKEY_MISSING while its P_Key is not in the table.
 *     IB_MCG_A_LINGER_MS    u32     optional, 0..IB_MCG_LINGER_MAX_MS: how
 *                                    long the membership is kept after
 *                                    the last holder leaves; sets the
 *                                    group's linger time (default: module
 *                                    parameter linger_ms)
 *   A join of an (owner, join state) the group already has is idempotent and
 *   succeeds without change, provided IB_MCG_F_BOUND matches; re-joining a
 *   bound hold from another socket, or with a different BOUND flag, fails
 *   with -EBUSY. A join that gives a Q_Key other than an existing group's
 *   fails with -EINVAL; a join without IB_MCG_A_QKEY takes the group's.
 *   With IB_MCG_F_BOUND the hold is released automatically when the
 *   netlink socket that made the request is closed (including when its
 *   process exits or is killed); without it the hold lives until LEAVE.
 *   A join is refused with -ENOSPC when the port holds its budget of
 *   groups (IB_MCG_A_MAX_GROUPS in PORT_GET) or the owner holds
 *   max_owner_holds holds (module parameters; 0 = no limit).
 *   A join of a lingering group takes it back without any fabric change
 *   when the group still holds the requested join state; one that lost
 *   its membership while lingering is JOINING until it is joined again.
 *   Taken back with another join state, the old membership is kept until
 *   the new one is held (make before break). A group that still waits for
 *   its SA-assigned MGID never lingers: nobody could take it back.
 *   A LEAVE that drops the only join state the group was still waiting
 *   for leaves it JOINED.
 *     IB_MCG_A_REPLY_BRIEF  flag    optional: the brief reply below
 *   Reply: one IB_MCG_CMD_JOIN message in the group format below, whose
 *   IB_MCG_A_HOLDERS lists only the requester's hold (so the reply stays
 *   small however many holders the group has). On RoCE the member record
 *   is complete when the reply is sent (RoCE joins never wait).
 *   With IB_MCG_A_REPLY_BRIEF the reply (an IB_MCG_CMD_JOIN message too)
 *   carries only what tells whether and what to wait for:
 *   IB_MCG_A_GROUP_ID, IB_MCG_A_STATE and IB_MCG_A_HOLDERS with the
 *   requester's hold as an IB_MCG_A_HOLDER holding only its
 *   IB_MCG_HOLDER_A_ID; GROUP_GET gives the whole group. Kernels before
 *   it refuse the attribute (strict policy: "Unsupported attribute"); the
 *   family's CTRL_ATTR_MAXATTR tells whether it is known (it is if
 *   maxattr >= IB_MCG_A_REPLY_BRIEF). libibmcg's ibmcg_join() asks for it
 *   when its caller does not want the group (out == NULL).
 *
 * IB_MCG_CMD_LEAVE (do; unprivileged: its own socket's holds, "uid:N")
 *   Request: device, IB_MCG_A_PORT, IB_MCG_A_MGID, IB_MCG_A_OWNER as for
 *   JOIN, and optionally IB_MCG_A_JOIN_STATE. With a join state, that one
 *   hold of the owner is dropped; without, every hold of the owner on the
 *   group is dropped. -ENOENT if the owner holds nothing matching. An
 *   all-zero MGID names the port's groups still waiting for an SA-assigned
 *   MGID (InfiniBand): the owner's holds on all of them are dropped.
 *   Reply: one IB_MCG_CMD_LEAVE message in the group format, describing the
 *   group after the leave, with an empty IB_MCG_A_HOLDERS
 *   (IB_MCG_A_STATE is IB_MCG_STATE_RELEASED if that was its last holder,
 *   or IB_MCG_STATE_LINGERING if the group has a linger time).
 *
 * IB_MCG_CMD_OWNER_RELEASE (do, dump; CAP_NET_ADMIN)
 *   Drops every hold of one owner (a job's epilog), in one request.
 *   Request: IB_MCG_A_OWNER required; a device and IB_MCG_A_PORT optional,
 *   to limit the release to one device or port. An owner holding nothing
 *   is not an error. Groups are released by reference, so a group still
 *   waiting for an SA-assigned MGID is released too (reported with an
 *   all-zero MGID).
 *   Reply: IB_MCG_CMD_OWNER_RELEASE messages:
 *     IB_MCG_A_OWNER
 *     IB_MCG_A_HOLDER_COUNT u32     holds dropped (in total)
 *     IB_MCG_A_RELEASED     nest, a list of
 *       IB_MCG_A_GROUP      nest: IB_MCG_A_DEV_NAME, IB_MCG_A_DEV_INDEX,
 *                           IB_MCG_A_PORT, IB_MCG_A_MGID,
 *                           IB_MCG_A_JOIN_STATE (the owner's dropped join
 *                           states on that group), IB_MCG_A_STATE (the
 *                           group's state after)
 *   dump (NLM_F_DUMP; version 2): the release is complete before the first
 *   message is sent; the result follows in as many messages as it takes
 *   (each with the owner, the total and a part of the list; readers append
 *   the parts), paced by netlink's dump flow control, and NLMSG_DONE
 *   carries the outcome: 0 once anything was sent. A refused request
 *   (bad owner or device) ends with NLMSG_DONE carrying the error and the
 *   extended ack, and changes nothing.
 *   do (version 1): the result in one message. An owner whose groups do
 *   not fit in one (some 700, see MCG_DO_REPLY_MAX in the module) is
 *   refused with -EMSGSIZE and nothing is released.
 *
 * IB_MCG_CMD_REJOIN (do; CAP_NET_ADMIN; InfiniBand)
 *   Joins a held group's SA membership again, keeping its holders: for a
 *   membership the SA lost without the port being told (mcctl fabric
 *   reports it "lost"). Request: device, IB_MCG_A_PORT, IB_MCG_A_MGID as
 *   for GROUP_GET. -ENOENT if the port holds no such group, -EOPNOTSUPP
 *   on a port whose backend is not IB_MCG_BACKEND_IB_SA. The group's
 *   memberships are left (the SA Delete reaches the SA only if no other
 *   kernel user, e.g. IPoIB, holds the same MGID and join state on the
 *   port) and joined again at once, as a lost group: state RETRY_WAIT
 *   (LINGERING if lingering), reason IB_MCG_REASON_REJOIN, then JOINED by
 *   notification; it counts in IB_MCG_A_GROUP_REJOINS and makes a re-join
 *   wave. A group not fully joined (JOINING, RETRY_WAIT) is already being
 *   joined: the request changes nothing.
 *   Reply: one IB_MCG_CMD_REJOIN message in the group format, describing
 *   the group after the request, with an empty IB_MCG_A_HOLDERS.
 *
 * IB_MCG_CMD_GROUP_GET (do, dump; unprivileged: its own holds listed,
 * every hold counted)
 *   do:   device, IB_MCG_A_PORT, IB_MCG_A_MGID required. The reply lists
 *         as many holders as fit in one message (IB_MCG_A_HOLDER_COUNT
 *         says how many the group has); the dump of the one group lists
 *         them all.
 *   dump: optional filters: device (name or index), IB_MCG_A_PORT (only
 *         with a device), IB_MCG_A_MGID (version 2; only with device and
 *         port: that group alone, -ENOENT if there is no such group).
 *   Both: IB_MCG_A_LIST_BRIEF  flag  optional: each group as a listing
 *         shows it ("mcctl list"), in fewer bytes: no IB_MCG_A_GROUP_ID,
 *         the member record only on InfiniBand (the SA's choice; on RoCE
 *         it is built here from the port and the JOIN) and there without
 *         IB_MCG_A_PORT_GID and IB_MCG_A_SGID_INDEX, and holders without
 *         IB_MCG_HOLDER_A_AGE_MS and IB_MCG_HOLDER_A_ID. Everything else
 *         is as below. Kernels before it refuse the attribute ("Unsupported
 *         attribute"); it is known if the family's CTRL_ATTR_MAXATTR >=
 *         IB_MCG_A_LIST_BRIEF.
 *   Reply, one message per group ("group format"):
 *     IB_MCG_A_DEV_NAME     string
 *     IB_MCG_A_DEV_INDEX    u32
 *     IB_MCG_A_PORT         u32
 *     IB_MCG_A_MGID         16 B
 *     IB_MCG_A_GROUP_ID     u64     (version 2) names the group while the
 *                                    module is loaded, never reused; the
 *                                    same before and after the SA
 *                                    assigns an MGID
 *     IB_MCG_A_STATE        u8      enum ib_mcg_state
 *     IB_MCG_A_LINK_STATE   u8      (after 0.7.0) the membership's own
 *                                    state: JOINING, JOINED, RETRY_WAIT
 *                                    or DETACHED, the same as STATE
 *                                    while the group has holders; a
 *                                    LINGERING (or RELEASED) group's
 *                                    tells whether it is joined or
 *                                    being joined again
 *     IB_MCG_A_REASON       u8      enum ib_mcg_reason: why the group
 *                                    entered its current state (in a
 *                                    notification: why it was sent)
 *     IB_MCG_A_ERROR        u32     last error (positive errno), 0 if none
 *     IB_MCG_A_JOIN_STATE   u8      union of the holders' join states
 *     IB_MCG_A_BACKEND      u8      enum ib_mcg_backend
 *     Member record, what an application needs for ibv_attach_mcast() and
 *     its address handle (present once the group has been joined):
 *     IB_MCG_A_MLID         u16     (0 on RoCE, which has no MLIDs)
 *     IB_MCG_A_PREV_MLID    u16     IB, only once the SA gave the group
 *                                   another MLID on a re-join: the one
 *                                   it had before the last such change
 *     IB_MCG_A_QKEY         u32
 *     IB_MCG_A_PKEY         u16
 *     IB_MCG_A_MTU          u8      enum ib_mtu (1 = 256 .. 5 = 4096)
 *     IB_MCG_A_RATE         u8      enum ib_rate
 *     IB_MCG_A_SL           u8
 *     IB_MCG_A_FLOW_LABEL   u32
 *     IB_MCG_A_TCLASS       u8
 *     IB_MCG_A_HOP_LIMIT    u8
 *     IB_MCG_A_PORT_GID     16 B    the local port GID the record is for
 *     IB_MCG_A_SGID_INDEX   u32     its index in the port's GID table
 *     IB_MCG_A_LINGER_MS    u32     the group's linger time
 *     IB_MCG_A_LINGER_LEFT_MS u32   time left (IB_MCG_STATE_LINGERING)
 *     IB_MCG_A_HOLDER_COUNT u32     the group's number of holders
 *                                    (version 2)
 *     IB_MCG_A_HOLDERS      nest, a list of
 *       IB_MCG_A_HOLDER     nest:
 *         IB_MCG_HOLDER_A_OWNER       string
 *         IB_MCG_HOLDER_A_JOIN_STATE  u8
 *         IB_MCG_HOLDER_A_FLAGS       u32   IB_MCG_F_*
 *         IB_MCG_HOLDER_A_NL_PORTID   u32   the bound socket (BOUND only)
 *         IB_MCG_HOLDER_A_AGE_MS      u64   milliseconds since the hold
 *                                           was taken
 *         IB_MCG_HOLDER_A_ID          u64   (version 2) names the hold
 *                                           while the module is loaded,
 *                                           never reused
 *   In a dump, a group with more holders than fit in one message spans
 *   several consecutive messages with the same device, port and MGID,
 *   each with a part of the holder list; readers append them.
 *   A dump resumes by a stable cursor, (device index, port, MGID) and,
 *   inside a group, the last holder sent (holders are listed in the order
 *   they were taken), so changes during the dump never make it restart:
 *   every group that exists from its start to its end is listed exactly
 *   once, with every holder that exists throughout; groups and holders
 *   that come or go meanwhile may or may not be listed. A message that
 *   continues a group that changed since its first part carries
 *   NLM_F_DUMP_INTR: that group mixes two moments (repeat the dump if that
 *   matters). Version 1 set NLM_F_DUMP_INTR on any change of any group
 *   during the dump.
 *
 * IB_MCG_CMD_PORT_GET (do, dump; unprivileged)
 *   do:   device and IB_MCG_A_PORT required. dump: optional filters as for
 *         GROUP_GET.
 *   Reply, one message per port:
 *     IB_MCG_A_DEV_NAME, IB_MCG_A_DEV_INDEX, IB_MCG_A_PORT
 *     IB_MCG_A_LINK_LAYER             u8   enum ib_mcg_link_layer
 *     IB_MCG_A_PORT_STATE             u8   IB port state (1 DOWN .. 5
 *                                          ACTIVE_DEFER) as in sysfs, 0 if
 *                                          the port could not be queried
 *     IB_MCG_A_BACKEND                u8   enum ib_mcg_backend
 *     IB_MCG_A_NETDEV                 string, RoCE only, if resolved
 *     IB_MCG_A_IFINDEX                u32, RoCE only, if resolved
 *     IB_MCG_A_MAX_MCAST_GRP          u32  HCA limits (ib_device_attr)
 *     IB_MCG_A_MAX_MCAST_QP_ATTACH    u32
 *     IB_MCG_A_MAX_TOTAL_MCAST_QP_ATTACH u32
 *     IB_MCG_A_GROUPS                 u32  groups held on the port
 *     IB_MCG_A_HOLDER_COUNT           u32  holds on those groups
 *     IB_MCG_A_JOINS                  u64  holds taken (idempotent
 *                                          re-joins not counted)
 *     IB_MCG_A_LEAVES                 u64  holds dropped, for any reason
 *     IB_MCG_A_JOIN_ERRORS            u64  joins that failed in the
 *                                          backend
 *     IB_MCG_A_LINGER_HITS            u64  joins that took back a lingering
 *                                          group
 *     IB_MCG_A_LINGER_EXPIRED         u64  lingering groups released
 *     IB_MCG_A_MAX_GROUPS             u32  the port's group budget, 0 = none
 *     IB_MCG_A_MAX_OWNER_HOLDS        u32  holds one owner may have, 0 = no
 *                                          limit
 *   InfiniBand ports also:
 *     IB_MCG_A_LID, IB_MCG_A_SM_LID   u32  the port's LID and its SM's LID
 *     IB_MCG_A_SM_REREGISTERS         u64  CLIENT_REREGISTER events seen
 *     IB_MCG_A_REJOIN_WAVES           u64  completed re-join waves (all
 *                                          groups joined again after
 *                                          memberships were lost)
 *     IB_MCG_A_GROUP_REJOINS          u64  successful re-joins of groups
 *     IB_MCG_A_REJOIN_FAILURES        u64  failed join attempts of held
 *                                          groups (retried)
 *     IB_MCG_A_SA_TIMEOUTS            u64  joins the SA did not answer
 *     IB_MCG_A_LAST_SM_LID            u32  SM LID at the last reregister
 *     IB_MCG_A_LAST_REJOIN_WAVE_MS    u32  duration of the last wave, from
 *                                          the event until every group was
 *                                          joined again
 *     IB_MCG_A_REJOIN_PENDING         u32  groups waiting to be re-joined
 *     IB_MCG_A_MLID_CHANGES           u64  re-joins that got another MLID
 *                                          from the SA than the group had
 *
 * Notifications: multicast group IB_MCG_MCGRP_EVENTS ("events"). Only
 * CAP_NET_ADMIN may subscribe where the kernel can enforce it
 * (GENL_MCAST_CAP_NET_ADMIN: 6.7, 6.1.y); on other kernels anyone may, and
 * the holders in notifications carry no IB_MCG_HOLDER_A_OWNER and no
 * IB_MCG_HOLDER_A_NL_PORTID. Every change of a group is sent as one message
 * in the group format, with IB_MCG_A_REASON saying why. Group
 * notifications carry an empty IB_MCG_A_HOLDERS; holder notifications
 * carry exactly the holder concerned:
 *   IB_MCG_CMD_GROUP_NEW_NTF     a group was created
 *   IB_MCG_CMD_GROUP_DEL_NTF     a group was released (IB_MCG_A_STATE is
 *                                IB_MCG_STATE_RELEASED)
 *   IB_MCG_CMD_GROUP_STATE_NTF   the group's state changed (detached,
 *                                re-attached, failed, lingering, taken
 *                                back from lingering); on InfiniBand
 *                                also, with reason
 *                                IB_MCG_REASON_MLID_CHANGED, after the
 *                                JOINED of a re-join that the SA answered
 *                                with another MLID than the group had
 *                                (SA wipe, reregister, SM failover):
 *                                IB_MCG_A_MLID is the new one,
 *                                IB_MCG_A_PREV_MLID the old one.
 *                                Receivers attached to the old MLID and
 *                                senders' address handles made with it
 *                                no longer reach the group: detach,
 *                                attach the new one, make a new AH.
 *   IB_MCG_CMD_HOLDER_NEW_NTF    a holder was added
 *   IB_MCG_CMD_HOLDER_DEL_NTF    a holder left or was released
 * and, in the port format of PORT_GET, on InfiniBand ports:
 *   IB_MCG_CMD_REJOIN_WAVE_START_NTF  memberships were lost (reregister,
 *                                     port error, LID or P_Key change);
 *                                     re-joining starts
 *   IB_MCG_CMD_REJOIN_WAVE_END_NTF    every held group is joined again
 * Order: a JOIN that creates a group sends GROUP_NEW_NTF (no holders yet)
 * then HOLDER_NEW_NTF; a join that brings a detached group back sends
 * GROUP_STATE_NTF before HOLDER_NEW_NTF. Every departure of a holder sends
 * HOLDER_DEL_NTF (carrying the group's join state from before), and the
 * departure of the last one is followed by GROUP_DEL_NTF.
 */
#ifndef _UAPI_IB_MCGROUPS_H
#define _UAPI_IB_MCGROUPS_H

#define IB_MCG_GENL_NAME	"ib_mcgroups"
#define IB_MCG_GENL_VERSION	2
#define IB_MCG_MCGRP_EVENTS	"events"

/* Longest owner name, in bytes, not counting the terminating NUL. */
#define IB_MCG_OWNER_MAX	64
/* Q_Key used when JOIN gives none: the one rdma_cm uses for UDP port space. */
#define IB_MCG_DEFAULT_QKEY	0x01234567
/* Longest linger time a JOIN may ask for: one day. */
#define IB_MCG_LINGER_MAX_MS	86400000

/* JoinState bits of the IBA MCMemberRecord (IBA 15.2.5.17). */
enum ib_mcg_join_state {
	IB_MCG_JOIN_FULL		= 1 << 0,
	IB_MCG_JOIN_NON_MEMBER		= 1 << 1,
	IB_MCG_JOIN_SENDONLY_NON_MEMBER	= 1 << 2,
	IB_MCG_JOIN_SENDONLY_FULL	= 1 << 3,
	IB_MCG_JOIN_ALL			= 0xf,
};

enum ib_mcg_flags {
	/* Release the hold when the requesting netlink socket closes. */
	IB_MCG_F_BOUND			= 1 << 0,
	__IB_MCG_F_ALL			= IB_MCG_F_BOUND,
};

enum ib_mcg_state {
	IB_MCG_STATE_JOINING		= 1,	/* backend request in flight */
	IB_MCG_STATE_JOINED		= 2,	/* membership held */
	IB_MCG_STATE_DETACHED		= 3,	/* held by us, but the port has
						 * no usable link (RoCE netdev
						 * gone, or its IPv4/IPv6
						 * state, e.g. MTU below 68 or
						 * 1280); re-attached when it
						 * returns
						 */
	IB_MCG_STATE_RETRY_WAIT		= 4,	/* last attempt failed; will
						 * retry (see REASON/ERROR)
						 */
	IB_MCG_STATE_RELEASED		= 5,	/* last holder gone */
	IB_MCG_STATE_LINGERING		= 6,	/* no holders, membership kept
						 * for the group's linger time
						 */
};

enum ib_mcg_reason {
	IB_MCG_REASON_NONE		= 0,
	IB_MCG_REASON_JOIN		= 1,	/* requested by JOIN */
	IB_MCG_REASON_LEAVE		= 2,	/* requested by LEAVE */
	IB_MCG_REASON_SOCKET_CLOSED	= 3,	/* bound socket closed */
	IB_MCG_REASON_DEVICE_REMOVED	= 4,	/* rdma device unregistered */
	IB_MCG_REASON_NETDEV_DOWN	= 5,	/* RoCE netdev unregistered, or
						 * its IP state gone
						 */
	IB_MCG_REASON_NETDEV_UP		= 6,	/* RoCE netdev (or its IP
						 * state) back: re-attached
						 */
	IB_MCG_REASON_UNLOAD		= 7,	/* module unloaded */
	IB_MCG_REASON_TIMEOUT		= 8,	/* SA did not answer */
	IB_MCG_REASON_SA_REJECTED	= 9,	/* SA answered with an error */
	IB_MCG_REASON_PORT_DOWN		= 10,	/* IB: lost, the port left
						 * ACTIVE; or (JOINING) the
						 * join waits for it to be
						 * ACTIVE again
						 */
	IB_MCG_REASON_PKEY_MISSING	= 11,	/* P_Key not in port table */
	IB_MCG_REASON_NET_RESET		= 12,	/* SM reregister, LID change,
						 * P_Key move, new port GID
						 */
	IB_MCG_REASON_ERROR		= 13,	/* other local error (ERROR) */
	IB_MCG_REASON_LINGER_EXPIRED	= 14,	/* linger time ran out */
	IB_MCG_REASON_OWNER_RELEASE	= 15,	/* OWNER_RELEASE request */
	IB_MCG_REASON_GROUP_GONE	= 16,	/* IB: the SA lost the group, and
						 * its re-joins from here were
						 * refused rejoin_refusals times
						 * (nobody here can create it)
						 */
	IB_MCG_REASON_MGID_LOST		= 17,	/* IB: the SA lost a group whose
						 * (link-local A01B) MGID it had
						 * assigned, and refused its
						 * re-joins rejoin_refusals times;
						 * it creates no group for such
						 * an MGID on request: JOIN MGID
						 * 0 again for a new one
						 */
	IB_MCG_REASON_REJOIN		= 18,	/* IB: requested by REJOIN */
	IB_MCG_REASON_MLID_CHANGED	= 19,	/* IB: a re-join got another
						 * MLID from the SA than the
						 * group had (IB_MCG_A_MLID,
						 * was IB_MCG_A_PREV_MLID)
						 */
};

enum ib_mcg_backend {
	IB_MCG_BACKEND_NONE		= 0,	/* port cannot hold groups */
	IB_MCG_BACKEND_IB_SA		= 1,	/* InfiniBand: SA MCMemberRecord */
	IB_MCG_BACKEND_ROCE		= 2,	/* RoCE: local record + IGMP/MLD */
};

enum ib_mcg_link_layer {
	IB_MCG_LINK_LAYER_UNSPEC	= 0,
	IB_MCG_LINK_LAYER_INFINIBAND	= 1,
	IB_MCG_LINK_LAYER_ETHERNET	= 2,
};

enum ib_mcg_cmd {
	IB_MCG_CMD_UNSPEC,
	IB_MCG_CMD_JOIN,
	IB_MCG_CMD_LEAVE,
	IB_MCG_CMD_GROUP_GET,
	IB_MCG_CMD_PORT_GET,
	IB_MCG_CMD_GROUP_NEW_NTF,
	IB_MCG_CMD_GROUP_DEL_NTF,
	IB_MCG_CMD_GROUP_STATE_NTF,
	IB_MCG_CMD_HOLDER_NEW_NTF,
	IB_MCG_CMD_HOLDER_DEL_NTF,
	IB_MCG_CMD_OWNER_RELEASE,
	IB_MCG_CMD_REJOIN_WAVE_START_NTF,
	IB_MCG_CMD_REJOIN_WAVE_END_NTF,
	IB_MCG_CMD_REJOIN,
	__IB_MCG_CMD_MAX
};

#define IB_MCG_CMD_MAX (__IB_MCG_CMD_MAX - 1)

enum ib_mcg_attr {
	IB_MCG_A_UNSPEC,
	IB_MCG_A_PAD,
	IB_MCG_A_DEV_NAME,
	IB_MCG_A_DEV_INDEX,
	IB_MCG_A_PORT,
	IB_MCG_A_MGID,
	IB_MCG_A_OWNER,
	IB_MCG_A_JOIN_STATE,
	IB_MCG_A_FLAGS,
	IB_MCG_A_STATE,
	IB_MCG_A_REASON,
	IB_MCG_A_ERROR,
	IB_MCG_A_BACKEND,
	IB_MCG_A_MLID,
	IB_MCG_A_QKEY,
	IB_MCG_A_PKEY,
	IB_MCG_A_MTU,
	IB_MCG_A_RATE,
	IB_MCG_A_SL,
	IB_MCG_A_FLOW_LABEL,
	IB_MCG_A_TCLASS,
	IB_MCG_A_HOP_LIMIT,
	IB_MCG_A_PORT_GID,
	IB_MCG_A_SGID_INDEX,
	IB_MCG_A_HOLDERS,
	IB_MCG_A_HOLDER,
	IB_MCG_A_LINK_LAYER,
	IB_MCG_A_PORT_STATE,
	IB_MCG_A_NETDEV,
	IB_MCG_A_IFINDEX,
	IB_MCG_A_MAX_MCAST_GRP,
	IB_MCG_A_MAX_MCAST_QP_ATTACH,
	IB_MCG_A_MAX_TOTAL_MCAST_QP_ATTACH,
	IB_MCG_A_GROUPS,
	IB_MCG_A_HOLDER_COUNT,
	IB_MCG_A_JOINS,
	IB_MCG_A_LEAVES,
	IB_MCG_A_JOIN_ERRORS,
	IB_MCG_A_LINGER_MS,
	IB_MCG_A_LINGER_LEFT_MS,
	IB_MCG_A_LINGER_HITS,
	IB_MCG_A_LINGER_EXPIRED,
	IB_MCG_A_MAX_GROUPS,
	IB_MCG_A_MAX_OWNER_HOLDS,
	IB_MCG_A_RELEASED,
	IB_MCG_A_GROUP,
	IB_MCG_A_SCOPE,
	IB_MCG_A_LID,
	IB_MCG_A_SM_LID,
	IB_MCG_A_SM_REREGISTERS,
	IB_MCG_A_REJOIN_WAVES,
	IB_MCG_A_GROUP_REJOINS,
	IB_MCG_A_REJOIN_FAILURES,
	IB_MCG_A_SA_TIMEOUTS,
	IB_MCG_A_LAST_SM_LID,
	IB_MCG_A_LAST_REJOIN_WAVE_MS,
	IB_MCG_A_REJOIN_PENDING,
	IB_MCG_A_GROUP_ID,
	IB_MCG_A_REPLY_BRIEF,
	IB_MCG_A_LIST_BRIEF,
	IB_MCG_A_PREV_MLID,
	IB_MCG_A_MLID_CHANGES,
	IB_MCG_A_LINK_STATE,
	__IB_MCG_A_MAX
};

#define IB_MCG_A_MAX (__IB_MCG_A_MAX - 1)

enum ib_mcg_holder_attr {
	IB_MCG_HOLDER_A_UNSPEC,
	IB_MCG_HOLDER_A_PAD,
	IB_MCG_HOLDER_A_OWNER,
	IB_MCG_HOLDER_A_JOIN_STATE,
	IB_MCG_HOLDER_A_FLAGS,
	IB_MCG_HOLDER_A_NL_PORTID,
	IB_MCG_HOLDER_A_AGE_MS,
	IB_MCG_HOLDER_A_ID,
	__IB_MCG_HOLDER_A_MAX
};

#define IB_MCG_HOLDER_A_MAX (__IB_MCG_HOLDER_A_MAX - 1)

#endif /* _UAPI_IB_MCGROUPS_H */
