#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# The bash completion of mcctl, sourced into this bash with a made-up
# /sys/class/infiniband (mlx5_0 with ports 1 and 2, rxe0 with port 1) and
# configuration file: what it offers at each point of a command line.
cd "$(dirname "$0")/.." || exit 1
D=$(mktemp -d /tmp/mcctl-compl.XXXXXX)
trap 'rm -rf "$D"' EXIT
# shellcheck source=tests/ktap.sh
. tests/ktap.sh

mkdir -p "$D/conf.d" "$D/sys/class/infiniband/mlx5_0/ports/1" \
	"$D/sys/class/infiniband/mlx5_0/ports/2" \
	"$D/sys/class/infiniband/rxe0/ports/1"
cat >"$D/conf" <<'CONF'
owner node
group mgmt all-ib ff12:401b:ffff::1:1 create \
      qkey 0x1b
pool  coll0 all 239.1.1.1
pool  rack:a all 239.1.1.2
CONF
export _MCCTL_SYSFS=$D/sys
# shellcheck source=/dev/null
. completion/mcctl.bash

# expect "WORDS OFFERED" LINE: complete LINE (the last word is being
# typed; a trailing space starts a new one), compare the sorted offers.
expect() {
	local want=$1 line=$2 got

	COMP_LINE=$line
	COMP_POINT=${#line}
	_mcctl
	got=$(printf '%s\n' "${COMPREPLY[@]}" | sort | xargs)
	# shellcheck disable=SC2086  # a list of words
	want=$(printf '%s\n' $want | sort | xargs)
	[ "$got" = "$want" ]
	ok $? "'$line'"
	if [ "$got" != "$want" ]; then
		echo "#   want: $want"
		echo "#   got:  $got"
	fi
}

echo "TAP version 13"
echo "1..31"
expect "list leave join apply show stats monitor metrics diag fabric help hold" "mcctl "
expect "-j --json -p --pretty -c --config -V --version -h --help -batch -force" "mcctl -"
expect "list leave" "mcctl l"
expect "mlx5_0/1 mlx5_0/2 rxe0/1 help" "mcctl -j -c $D/none join "
expect "mgmt coll0 rack:a mlx5_0/1 mlx5_0/2 rxe0/1 help" "mcctl -c $D/conf join "
expect "mgmt coll0 rack:a mlx5_0/1 mlx5_0/2 rxe0/1 help owner" "mcctl --config $D/conf leave "
expect "a" "mcctl -c $D/conf join rack:"
expect "state scope sl" "mcctl join mlx5_0/1 239.1.1.1 s"
expect "full nonmember sendonly sendonly-full" "mcctl join mlx5_0/1 239.1.1.1 state "
expect "state qkey linger bound create pkey mtu rate sl flow_label tclass hop_limit scope" \
	"mcctl join mlx5_0/1 239.1.1.1 owner job:1 "
expect "owner state bound" "mcctl -c $D/conf join coll0 "
expect "all" "mcctl leave owner job:42 "
expect "mlx5_0 rxe0 mlx5_0/1 mlx5_0/2 rxe0/1" "mcctl leave owner job:42 all "
expect "mlx5_0 rxe0 mlx5_0/1 mlx5_0/2 rxe0/1 help" "mcctl stats "
expect "--dry-run --check" "mcctl apply --"
expect "join" "mcctl help j"
expect "mlx5_0/1 mlx5_0/2 rxe0/1" "mcctl diag 239.1.1.1 "
expect "--textfile help" "mcctl metrics "
expect "mlx5_0 rxe0 mlx5_0/1 mlx5_0/2 rxe0/1 owner state help" "mcctl list "
expect "joining joined retry-wait detached lingering" "mcctl list rxe0 owner job:1 state "
expect "state" "mcctl list rxe0 owner job:1 "
expect "-t --timestamp help" "mcctl monitor "
expect "$D/conf.d" "mcctl metrics --textfile $D/conf."
expect "--reconcile -j smkey mlx5_0/1 mlx5_0/2 rxe0/1 help" "mcctl fabric "
expect "-j smkey" "mcctl f mlx5_0/1 --reconcile "
expect "" "mcctl fabric smkey "
expect "mgmt coll0 rack:a mlx5_0/1 mlx5_0/2 rxe0/1 help" "mcctl -c $D/conf hold "
expect "owner state --" "mcctl -c $D/conf hold coll0 "
expect "state qkey linger create pkey mtu rate sl flow_label tclass hop_limit scope --" \
	"mcctl hold mlx5_0/1 239.1.1.1 owner job:1 "
# A command (functions are commands too) right after "--".
_mcctl_hold_test_cmd() { :; }
expect "_mcctl_hold_test_cmd" "mcctl hold coll0 -- _mcctl_hold_test_c"
expect "$D/conf $D/conf.d" "mcctl hold coll0 -- mcctl $D/con"
ktap_done
