#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# A paced leave that waits for an in-flight slot gets one when the joins
# holding the slots are let go of while still unanswered: their slots
# pass to leaves (backend_ib.c, memb_leave_paced()), whose end no answer
# reports, so the pacer must look for it. If it does not, the waiting
# leave's Delete is never sent and the SA keeps a member nobody holds
# until other work wakes the port's pacer (seen after ib_user_pace's
# churn on 6.12: one member more at the SA for two minutes).
# And a Delete keeps its slot until it is answered, even when its group
# is held again meanwhile: a join of that group still waiting for a slot
# in the pacer does not end it (seen on 6.1 in CI: ib_user_pace's churn
# had 10 requests unanswered at the SA, rejoin_inflight 8).
# timeout: 120
. "$(dirname "$0")/../lib.sh"

mcg_require_simhca
G0=ff12:401b:ffff::a000

members_of() { grep -c "^member mgid=$1 " $D/sa_db; }
member_gone() { [ "$(members_of "$1")" = 0 ]; }
member_there() { [ "$(members_of "$1")" = 1 ]; }

ktap_plan 16
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

# --- a Delete's slot, while its group waits to be joined again -----------
# Answers 2 s late (ib_mad resends every 300 ms; the SA counts a request
# once by its TID): two Deletes fill the slots; D's join, then A's, wait.
# A's Delete ends only with its answer: D's Set must not go before, or
# the SA has three of the port's requests.
GA=ff12:401b:ffff::c000
GD=ff12:401b:ffff::d000
check "hold A and B" mcg_bulk join simhca0 1 2 job:c 0xc000
GB=ff12:401b:ffff::c001
a_and_b() { member_there $GA && member_there $GB; }
check "both members at the SA" wait_for -t 10 a_and_b
echo 2000 >$D/delay_ms
echo 1 >$D/stats
check "A and B let go of: two Deletes, 2 s to their answers" \
	mcg_bulk leave simhca0 1 2 job:c 0xc000
check "D joined: it waits for a slot" \
	mcg_bulk join simhca0 1 1 job:d 0xd000
check "A joined again: it waits behind D" mcg_bulk join simhca0 1 1 job:c2 0xc000
a_and_d() { member_there $GA && member_there $GD; }
check "A and D are members at the SA" wait_for -t 20 a_and_d
check "B's member is gone" member_gone $GB
pending=$(awk '$1 == "max_requests_pending" {print $2}' $D/stats)
ktap_diag "requests unanswered at the SA at most: $pending"
check "never more than rejoin_inflight (2) requests unanswered" test "$pending" -le 2
echo 0 >$D/delay_ms
ktap_finish
