#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# Groups the module creates at OpenSM's SA (simhca internal_sa=N, OpenSM
# on port 1), as apply_ib and unpriv_ib_create do at simhca's SA:
#  - mcctl apply creates a declared all-ib group with its Q_Key and MTU,
#    as OpenSM's record of it shows; a second apply keeps it;
#  - a lingering pool group is joined again by another job without a
#    MAD on the fabric (the switch routes no QP1 MAD, where the first
#    join had it route some), and is deleted at
#    OpenSM when the linger time ends;
#  - in a user_create range uid 65534's hold creates its group at OpenSM
#    with the module's default parameters (Q_Key 0x01234567), and the
#    group is gone from OpenSM with the hold; outside the range the
#    user's join of a group OpenSM does not have is refused and creates
#    nothing, and a user still gives no parameters;
#  - the user's hold is the group's creator: after OpenSM is killed and
#    started again (an empty SA, a client reregister) it creates the
#    group again, and root may join it.
# MGIDs without the IPoIB signature: OpenSM creates those only with its
# broadcast group's Q_Key (opensm_sa).
# timeout: 300
. "$(dirname "$0")/../lib.sh"

mcg_require_simhca
for b in opensm saquery sa_mcm jq; do
	command -v $b >/dev/null || ktap_skip_all "$b not installed (make deps)"
done
PARAMS=/sys/module/ib_mcgroups/parameters
G1=0x0053494d48434101
MGMT=ff12:1234::1:1
POOL=ff12:1234::100
R=ff12:1234:5::/112
U=ff12:1234:5::5
T=$(mktemp -d /tmp/opensm_create.XXXXXX)
chmod 777 "$T"
defer rm -rf "$T"
CONF=$T/ib_mcgroups.conf
cat >"$CONF" <<CONF_EOF
group mgmt  all-ib    $MGMT create qkey 0x1b mtu 2048
pool  coll0 simhca0/1 $POOL create mtu 1024 linger 2s
CONF_EOF

mc() { mcctl -c "$CONF" "$@"; }
# OpenSM's record of group MGID (untrusted Get from port 2): "qkey mtu"
sa_group() {
	sa_mcm -d simhca0 -p 2 get mgid="$1" 2>/dev/null |
		sed -n 's/.* qkey=\([^ ]*\) mlid=[^ ]* mtu=\([^ ]*\) .*/\1 \2/p'
}
sa_has() { [ -n "$(sa_group "$1")" ]; }
sa_lacks() { [ -z "$(sa_group "$1")" ]; }
port1_in() { [ "$(mcg_sa_member_of 1 "$1")" = 0x1 ]; }
port1_not_in() { [ -z "$(mcg_sa_member_of 1 "$1")" ]; }
state_of() { mcctl -j show "$P" "$1" 2>/dev/null | jq -r .state; }
state_is() { [ "$(state_of "$1")" = "$2" ]; }

ktap_plan 26
modprobe ib_umad
mcg_unload_simhca
check "load simhca with 2 ports, internal_sa=N" \
	modprobe simhca nports=2 internal_sa=0 || ktap_skip_all "no simhca"
defer mcg_unload_simhca
mcg_opensm_start sm $G1
check "OpenSM brings both ports to ACTIVE, its SA answers" mcg_opensm_up || mcg_opensm_errors
check "load ib_mcgroups" mcg_load settle_ms=300 backoff_base_ms=200
echo $((10000 * ${TIMEOUT_SCALE:-1})) >$PARAMS/join_wait_ms

# --- mcctl apply -----------------------------------------------------------------
check_eq "apply joins mgmt on both IB ports" "2 0 0 0 0 0" \
	"$(apply_summary "$(mc -j apply)")" || mcg_opensm_errors
check_eq "OpenSM created it with the declared Q_Key and MTU (2048)" \
	"0x1b 0x84" "$(sa_group $MGMT)"
check_eq "a second apply keeps it" "0 0 0 2 0 0" "$(apply_summary "$(mc -j apply)")"

mads=$(mcg_sma gsi_routed)
check "job:7 joins coll0 by name" mc join coll0 owner job:7
check "OpenSM has port 1 in coll0" wait_for -t 10 port1_in $POOL
check "its join went through the switch (QP1 MADs routed)" \
	test "$(mcg_sma gsi_routed)" -gt "$mads"
check "job:7 leaves: coll0 lingers" \
	sh -c "mc() { mcctl -c $CONF \"\$@\"; }; mc leave coll0 owner job:7 &&
	       [ \"\$(mcctl -j show $P $POOL | jq -r .state)\" = lingering ]"
mads=$(mcg_sma gsi_routed)
check "job:8 joins coll0 within the linger time" mc join coll0 owner job:8
check_eq "without a MAD on the fabric" "$mads" "$(mcg_sma gsi_routed)"
check "job:8 leaves" mc leave coll0 owner job:8
check "after the linger time OpenSM has no member of coll0 from port 1" \
	wait_for -t 15 port1_not_in $POOL

# --- a user creates in a range root allowed ------------------------------------------
echo "$R" >$PARAMS/user_create
out=$(run_unpriv mcctl hold "$P" ff12:1234:6::5 -- true 2>&1)
check_eq "outside the range: a group OpenSM does not have is refused" 1 $?
ktap_diag "$out"
"${UNPRIV[@]}" mcctl hold "$P" $U -- sh -c \
	"mcctl -j show $P $U | jq -r '\"\(.state) \(.qkey)\"' >$T/state; sleep 2" &
hold=$!
check "inside: OpenSM has the group while uid 65534's hold lasts" \
	wait_for -t 10 sa_has $U
check_eq "created with the module's default Q_Key" 0x1234567 \
	"$(sa_group $U | cut -d' ' -f1)"
wait $hold
check_eq "the hold was joined" "joined $((0x01234567))" "$(cat $T/state)"
check "and the group is gone from OpenSM with the hold" wait_for -t 10 sa_lacks $U
out=$(run_unpriv mcctl hold "$P" ff12:1234:5::6 qkey 0x1234 -- true 2>&1)
check "a user still gives no parameters (EPERM)" \
	grep -q "cannot give a group its parameters" <<<"$out"
check "nothing of the refused ones at OpenSM" \
	sh -c "! sa_mcm -d simhca0 -p 2 gettable 2>/dev/null | grep -q 'ff12:1234:6::5\|ff12:1234:5::6'"

# --- the user's hold creates its group again at a new OpenSM --------------------------
"${UNPRIV[@]}" mcctl hold "$P" $U -- sleep 120 &
hold=$!
check "a long hold joined" wait_for -t 10 state_is $U joined
mcg_opensm_stop sm KILL
mcg_opensm_start sm $G1
check "OpenSM killed and started again: the hold creates $U there" \
	wait_for -t 120 sa_has $U || mcg_opensm_errors
check "and it is joined again" wait_for -t 30 state_is $U joined
check "root joins it by MGID" mcctl join "$P" $U owner admin
mcctl leave "$P" $U owner admin >/dev/null
kill $hold
wait $hold 2>/dev/null
check "the last hold gone: the group is gone from OpenSM" wait_for -t 10 sa_lacks $U
mcg_unload
mcg_opensm_stop sm
ktap_finish
