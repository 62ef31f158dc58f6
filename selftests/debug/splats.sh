#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# splats.sh <dmesg: print every kernel report in it in full (KASAN, lockdep,
# BUG:, WARNING:, refcount_t:, Oops, general protection fault, UBSAN),
# each up to its end marker or 200 lines, separated by a blank line.
# Exits 0 when it found none.
tr -d '\r' | awk '
	function start(l) {
		return l ~ /(BUG|WARNING):|Oops|general protection fault|refcount_t:|UBSAN:|kernel BUG|KASAN:|DEBUG_LOCKS_WARN_ON/
	}
	in_rep {
		print
		n++
		if ($0 ~ /---\[ end trace|^(\[[ 0-9.]*\] )?====================+$/ || n >= 200) {
			in_rep = 0
			print ""
		}
		next
	}
	start($0) {
		in_rep = 1; n = 1; found++
		print
	}
	END { exit 0 }'
