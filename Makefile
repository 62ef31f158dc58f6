# SPDX-License-Identifier: GPL-2.0
#
# ib_mcgroups: kernel module (kernel/), mcctl and libibmcg (user/), tests
# (selftests/). Targets:
#
#   make            build the module against KDIR, mcctl and the test programs
#   make deps       install the Debian 12 packages everything needs (as root)
#   make check      static checks, host unit tests and the VM tests; ends
#                   with one line "N passed, M failed[, K skipped]"
#   make demo       boot the soft-RoCE VM and run the demo
#   make style      checkpatch --strict, W=1 and sparse on the module
#   make install    mcctl, libibmcg and man pages (PREFIX, DESTDIR)
#
# KVER selects the kernel the module is built for and the VM boots; by
# default the newest Debian kernel installed with headers.
KVER ?= $(shell selftests/vm/kver.sh)
KDIR ?= /lib/modules/$(KVER)/build
export KVER KDIR

DEB_PACKAGES := build-essential pkg-config linux-image-amd64 \
	linux-headers-amd64 linux-source-6.1 qemu-system-x86 busybox-static \
	kmod cpio xz-utils iproute2 util-linux rdma-core ibverbs-providers \
	ibverbs-utils libibverbs-dev libnl-3-dev libnl-genl-3-dev \
	libjson-c-dev sparse perl jq infiniband-diags libibumad-dev
# shellcheck: style.sh checks the scripts of contrib/.
DEB_PACKAGES += shellcheck

# What check-debug needs on top of DEB_PACKAGES (not in CI's list).
DEBUG_PACKAGES := bc bison flex libelf-dev libssl-dev

all: module user selftests

module:
	$(MAKE) -C kernel KDIR=$(KDIR)

user:
	$(MAKE) -C user

selftests: user
	$(MAKE) -C selftests

deps:
	DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends $(DEB_PACKAGES)

check: all
	selftests/check.sh

deps-debug:
	DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends $(DEBUG_PACKAGES)

check-debug: user
	selftests/debug/check-debug.sh

demo: all
	selftests/vm/run.sh --demo

style:
	selftests/style.sh

install:
	$(MAKE) -C user install

clean:
	$(MAKE) -C kernel clean KDIR=$(KDIR)
	$(MAKE) -C user clean
	rm -rf build

.PHONY: all module user selftests deps check demo style install clean \
	deps-debug check-debug
