#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# How many holds users without CAP_NET_ADMIN get, all of them together
# and per user namespace: user_max_holds_total bounds the holds of every
# such user together; the owner of a user namespace (here uid 1000, whose
# namespace maps uids 0..999 to 100000..100999, as a rootless container's
# subordinate range does) is charged for the holds of every user in it,
# so its 1,000 users together get user_max_holds, not 1,000 times that.
# Root is never limited by them. A refusal says which limit, changes
# nothing, and a hold that ends makes room again.
# timeout: 180
. "$(dirname "$0")/../lib.sh"

mcg_require_module
mcg_require_mcctl

P=$MCG_DEV0/1
SYS=/sys/kernel/ib_mcgroups/$MCG_DEV0/1
PARAM=/sys/module/ib_mcgroups/parameters
TMP=/tmp/unpriv_limits.$$

holders_are() { [ "$(cat "$SYS/holders")" = "$1" ]; }
REFUSED_COUNTERS="groups holders joins leaves"

# as UID CMD...: exec CMD as UID without capabilities; in_ns UID CMD...:
# exec CMD as UID of uid 1000's user namespace. Both replace the shell they
# run in: call them in a subshell of their own, "$(...)" (refused does)
# or "... &", whose $! is then CMD's own process.
as() {
	local u=$1

	shift
	exec setpriv --reuid="$u" --regid="$u" --clear-groups --no-new-privs \
		--inh-caps=-all -- "$@"
}
in_ns() {
	local u=$1

	shift
	exec nsenter -t "$NS_PID" -U -S "$u" -G "$u" -- "$@"
}
# hold_as UID GROUP, hold_in_ns UID GROUP: a background bound hold of GROUP
# by UID (pid in $hold_pid; not in a subshell such as check's); held: the
# port has one holder more than before it
hold_with() {
	n_before=$(cat "$SYS/holders")
	"$1" "$2" mcctl hold "$P" "$3" -- sleep 600 >>$TMP 2>&1 &
	hold_pid=$!
	defer kill $hold_pid
}
hold_as() { hold_with as "$@"; }
hold_in_ns() { hold_with in_ns "$@"; }
held() { wait_for -t 10 holders_are $((n_before + 1)); }

ktap_plan 18
check "set up rxe0 <-> rxe1" mcg_setup_rxe || ktap_skip_all "no rxe devices"
check "load ib_mcgroups" mcg_load
defer mcg_unload

# --- user_max_holds_total ------------------------------------------------------
echo 3 >$PARAM/user_max_holds_total
hold_as 65534 239.9.2.1
check "uid 65534 holds 239.9.2.1" held
hold_as 65534 239.9.2.2
check "and 239.9.2.2" held
hold_as 65533 239.9.2.3
check "uid 65533 holds 239.9.2.3: 3 of user_max_holds_total=3" held
p3=$hold_pid
refused "another user's hold is refused: all users' total" \
	"user_max_holds_total" as 65532 timeout 10 mcctl hold "$P" 239.9.2.4 -- true
check "root is not limited by it" mcctl join "$P" 239.9.2.4 owner admin
check "root's hold ends" mcctl leave "$P" 239.9.2.4 owner admin
kill $p3
check "uid 65533's hold ends: room for one again" wait_for -t 10 holders_are 2
hold_as 65532 239.9.2.4
check "uid 65532 holds 239.9.2.4 now" held
echo 4096 >$PARAM/user_max_holds_total

# --- a user namespace's owner ----------------------------------------------------
echo 2 >$PARAM/user_max_holds
# (busybox unshare execs sleep in the new namespace: $! is its process)
as 1000 unshare -U sleep 600 &
NS_PID=$!
defer kill $NS_PID
sleep 0.5
check "root maps uids 0..999 of uid 1000's namespace to 100000..100999" sh -c \
	"echo '0 100000 1000' >/proc/$NS_PID/uid_map && echo '0 100000 1000' >/proc/$NS_PID/gid_map"
hold_in_ns 5 239.9.3.1
check "its uid 5 holds 239.9.3.1 (uid:100005, charged to uid 1000 too)" held
check_eq "the hold is uid:100005's" 1 \
	"$(mcctl -j show "$P" 239.9.3.1 | jq '[.holders[] | select(.owner == "uid:100005")] | length')"
hold_in_ns 6 239.9.3.2
check "its uid 6 holds 239.9.3.2: uid 1000 is charged 2 of user_max_holds=2" held
refused "its uid 7, a third user of the namespace, is refused" \
	"owner of the user namespace" in_ns 7 timeout 10 mcctl hold "$P" 239.9.3.3 -- true
refused "and so is uid 1000 itself, outside it" \
	"user_max_holds" as 1000 timeout 10 mcctl hold "$P" 239.9.3.3 -- true
hold_as 65531 239.9.3.3
check "a user outside the namespace is not charged for it: uid 65531 holds 239.9.3.3" held
ktap_diag "$(cat $TMP 2>/dev/null | tail -n 5)"
check "no kernel warning" sh -c "! dmesg | grep -q 'WARNING:'"
ktap_finish
