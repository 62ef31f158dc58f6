# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# shellcheck shell=sh
#
# The KTAP helpers of the shell tests of user/, sourced after "cd user":
#   ok STATUS TEXT [REASON]  a result: pass if STATUS is 0, skipped with
#                            REASON if STATUS is "skip", failed otherwise
#   ktap_done                the script's exit status: 0 unless one failed
# n counts the results, fails the failed ones.
n=0
fails=0

ok() {
	n=$((n + 1))
	if [ "$1" = 0 ]; then
		echo "ok $n - $2"
	elif [ "$1" = skip ]; then
		echo "ok $n - $2 # SKIP $3"
	else
		echo "not ok $n - $2"
		fails=$((fails + 1))
	fi
}

ktap_done() {
	[ "$fails" -eq 0 ]
}
