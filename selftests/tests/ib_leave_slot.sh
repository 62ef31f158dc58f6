#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# A paced leave that waits for an in-flight slot gets one when the joins
# holding the slots are let go of while still unanswered: their slots
# pass to leaves (backend_ib.c, memb_leave_paced()), whose end no answer
# reports, so the pacer must look for it. If it does not, the waiting
# leave's Delete is never sent and the SA keeps a member nobody holds
# until other work wakes the port's pacer (seen after ib_user_pace's
# churn on 6.12: one member more at the SA for two minutes).
# timeout: 120
. "$(dirname "$0")/../lib.sh"

mcg_require_simhca
G0=ff12:401b:ffff::a000

members_of() { grep -c "^member mgid=$1 " $D/sa_db; }
member_gone() { [ "$(members_of "$1")" = 0 ]; }
member_there() { [ "$(members_of "$1")" = 1 ]; }

ktap_plan 8
modprobe ib_umad
check "load simhca" modprobe simhca || ktap_skip_all "no simhca"
# rejoin_inflight=2: two unanswered requests fill the port's slots, joins'
# and leaves' alike; join_wait_ms=0: a JOIN is answered before the SA
check "load ib_mcgroups (rejoin_inflight=2, join_wait_ms=0)" \
	mcg_load rejoin_rate=1000 rejoin_inflight=2 settle_ms=0 join_wait_ms=0
defer mcg_unload_simhca

check "hold $G0" mcg_bulk join simhca0 1 1 job:a 0xa000
check "it is a member at the SA" wait_for -t 10 member_there $G0
# The SA loses the next two joins and every resend of them: they stay
# unanswered until multicast.c gives up (10 tries of 300 ms).
echo 2 >$D/drop_queries
check "two joins the SA does not answer fill the slots" \
	mcg_bulk join simhca0 1 2 job:b 0xb000
check "$G0 let go of: its Delete waits for a slot" \
	mcg_bulk leave simhca0 1 1 job:a 0xa000
check "the two joins let go of while unanswered" \
	mcg_bulk leave simhca0 1 2 job:b 0xb000
# Their slots are free once multicast.c has dropped their groups (after
# its time-out, ~3 s) or after LEAVE_INFLIGHT_NS (3.5 s).
check "$G0's Delete reaches the SA once their slots are free" \
	wait_for -t 15 member_gone $G0
echo 0 >$D/drop_queries
ktap_finish
