# SPDX-License-Identifier: GPL-2.0
#
# ib_mcgroups: kernel module (kernel/), mcctl and libibmcg (user/), tests
# (selftests/). Targets:
#
#   make            build the module against KDIR, mcctl, the test programs
#                   and examples/
#   make deps       install the Debian 12 packages everything needs (as root)
#   make deps-demo  only what make demo needs (one kernel, the build, qemu)
#   make check      static checks, host unit tests (mcctl, the build), the
#                   VM tests and the DKMS install VM test on every installed
#                   kernel, and a core set on the debug kernel (KASAN,
#                   lockdep, kmemleak; DEBUG_LANE=0 leaves it out); ends with
#                   one line "N passed, M failed[, K skipped]"
#   make check-debug  every VM test on the debug kernel (DEBUG_KERNEL=6.1 or 6.12)
#   make demo       boot the soft-RoCE VM and run the demo
#   make bench      one VM boot per benchmark scenario (selftests/bench/);
#                   prints each figure next to its anchor; not in check
#   make style      checkpatch --strict, W=1 and sparse on the module
#   make probe-report  the feature probes' results for KDIR (any kernel
#                   tree), one line per probe with what it selects
#   make install    mcctl, libibmcg and man pages (PREFIX, DESTDIR)
#   make install-slurm  the Slurm prolog and epilog (contrib/slurm) into
#                   LIBEXECDIR/ib_mcgroups, their defaults into
#                   /etc/default/ib_mcgroups-slurm (kept if it exists)
#   make deb        the Debian packages (debian/) in build/pkg/deb
#   make rpm        the RPM packages (ib_mcgroups.spec) in build/pkg/rpm
#
# Installing the module (see Documentation/admin-guide.rst, "Installing"):
#
#   make dkms-install    copy the module sources to /usr/src/ib_mcgroups-
#                        VERSION, then dkms add, build and install for KVER
#                        (DKMS_KVER); it lands in /lib/modules/KVER/updates/dkms
#   make dkms-uninstall  dkms remove (every kernel) and delete that copy
#   make dkms-tarball    build/ib_mcgroups-VERSION-source-only.dkms.tar.gz,
#                        for "dkms ldtarball" on another machine
#   make install-module  the module built here, via kbuild's modules_install,
#                        into /lib/modules/KVER/updates (INSTALL_MOD_PATH)
#   make -C kernel print-ofa     build with MLNX_OFED/DOCA-OFED or the
#                                kernel's ib_core, and the flags that uses
#   make -C kernel print-compat  the compile-time feature probe results
#
# The version is the one in VERSION.
#
# KVER selects the kernel the module is built for and the VM boots; by
# default the newest Debian kernel installed with headers.
KVER ?= $(shell selftests/vm/kver.sh)
KDIR ?= /lib/modules/$(KVER)/build
export KVER KDIR

# What "make demo" needs: the build (module for Debian 12's default 6.1
# kernel, mcctl, the demo's one test tool: no kernel source) and the VM.
# "make deps-demo" installs only these, so that a newcomer's first "make
# deps-demo demo" does not wait for the other kernels, the kernel sources,
# Slurm or Prometheus. Its busybox is the one initramfs-tools already
# brought.
DEMO_PACKAGES := build-essential pkg-config linux-image-amd64 \
	linux-headers-amd64 qemu-system-x86 busybox \
	kmod cpio xz-utils iproute2 util-linux rdma-core ibverbs-providers \
	ibverbs-utils libibverbs-dev libnl-3-dev libnl-genl-3-dev \
	libjson-c-dev librdmacm-dev libibumad-dev jq
DEB_PACKAGES := $(filter-out linux-image-amd64,$(DEMO_PACKAGES)) \
	linux-source-6.1 linux-source-6.12 sparse \
	perl infiniband-diags dkms opensm
# The newer kernel Debian 12 ships, and its PREEMPT_RT flavour: make check
# builds and tests on each (selftests/vm/kver.sh --all). Their headers are
# installed; their images are only unpacked into /var/cache/ib_mcgroups
# (VM_IMAGES), so that dpkg builds no initramfs for them and GRUB does not
# boot them. The headers depend on the images: a package of no files,
# ib-mcgroups-vm-kernels, stands in for them (unpack-debs.sh --stand-in).
# busybox-static, the tests' guest shell, is only unpacked too: installed
# it would replace busybox and rebuild the machine's initramfs.
DEB_PACKAGES += linux-headers-6.12-amd64 linux-headers-6.12-rt-amd64
VM_IMAGES := linux-image-6.12-amd64 linux-image-6.12-rt-amd64
# 6.1's image, the machine's own kernel on most Debian 12 machines, is
# unpacked there too where it is not installed (a fresh root): its headers
# do not depend on it, and installing it would build its initramfs twice
# (2.3 of the 5.2 minutes of make deps in a debootstrap'd root).
# shellcheck: style.sh checks every shell script of the tree with it;
# git: style.sh's file lists are git ls-files' (a machine that cloned the
# tree has it; a fresh Debian 12 root does not).
DEB_PACKAGES += shellcheck git
# python3-yaml: style.sh compares the YNL spec with the UAPI header and
# the policies (selftests/tools/spec_check.py); python3-jsonschema: the
# kernel's ynl-gen-c reads the spec (its check would be skipped without).
DEB_PACKAGES += python3-yaml python3-jsonschema
# make deb, make rpm and their host test (selftests/host/pkg_test.sh).
DEB_PACKAGES += debhelper dh-dkms dpkg-dev fakeroot lintian rpm
# promtool (in Debian's prometheus package): the host checks the metrics
# expositions, alert rules and their unit tests (mcctl metrics,
# contrib/prometheus/).
DEB_PACKAGES += prometheus
# gnuplot: the VM harness draws the re-join waves tests record as SVG
# (selftests/vm/plot-wave.sh).
DEB_PACKAGES += gnuplot-nox
# The tests of contrib/ against the real programs, in the VM: a one-node
# Slurm cluster (selftests/tests/slurm_cluster.sh) and node_exporter's
# textfile collector scraped by Prometheus (selftests/tests/prom_scrape.sh).
# The VM tests copy them in only when those tests run (# guest-files:).
DEB_PACKAGES += slurmctld slurmd slurm-client munge prometheus-node-exporter

# What building kernels needs (selftests/kernels/build-kernel.sh: the debug
# kernel from linux-source-6.12 above, the newest from sid's linux-source,
# which it fetches itself; Debian 11's 5.10 is fetched as packaged,
# selftests/kernels/distro.sh).
DEBUG_PACKAGES := bc bison flex libelf-dev libssl-dev

all: module user selftests examples

module:
	$(MAKE) -C kernel KDIR=$(KDIR)

user:
	$(MAKE) -C user

selftests: user
	$(MAKE) -C selftests

# Example applications of libibmcg (examples/README.md)
examples: user
	$(MAKE) -C examples

# "make deps check" (CI's command): once what it needs is installed, deps
# starts the build of the debug lane's kernel in the background (nice 10,
# log in build/kernel-early.log), where it overlaps the rest of the
# installation, mostly dpkg on one core; check's own build of it waits for
# that one (the kernel cache's lock) and finds it built. A fresh 2-core
# machine's whole run is shorter by about a third of the build (README).
# Not when check runs no debug lane (DEBUG_LANE=0, or one kernel: KVER or
# KDIR given).
DEBUG_KERNEL ?= 6.12
EARLY_KERNEL := $(if $(and $(filter check,$(MAKECMDGOALS)), \
	$(filter-out 0,$(or $(DEBUG_LANE),1)), \
	$(filter filefile,$(origin KVER)$(origin KDIR))),$(DEBUG_KERNEL))

deps:
	selftests/vm/unpack-debs.sh --stand-in $(VM_IMAGES)
ifneq ($(EARLY_KERNEL),)
	DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
		build-essential xz-utils linux-source-$(DEBUG_KERNEL) $(DEBUG_PACKAGES)
	mkdir -p build && KFLAVOUR=debug DEBUG_KERNEL=$(DEBUG_KERNEL) KBUILD_NICE=10 \
		setsid selftests/kernels/build-kernel.sh >build/kernel-early.log 2>&1 </dev/null &
endif
	DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends $(DEB_PACKAGES) $(DEBUG_PACKAGES)
	selftests/vm/unpack-debs.sh linux-image-amd64 $(VM_IMAGES) busybox-static

.PHONY: deps-demo
deps-demo:
	DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends $(DEMO_PACKAGES)

# check and style cover every installed kernel unless KVER (or KDIR) was
# given: "make KVER=6.1.0-57-amd64 check" runs on that kernel only.
ifeq ($(origin KVER)$(origin KDIR),filefile)
ALL_KERNELS := env -u KVER -u KDIR
endif

# user/ warnings are errors in check (WERROR=1), not in a plain build.
check: export WERROR = 1
check: all
	$(ALL_KERNELS) selftests/check.sh

deps-debug:
	DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends $(DEBUG_PACKAGES)

check-debug: user
	selftests/debug/check-debug.sh

# Builds only what the demo runs (run.sh --demo builds its tools).
demo: module user
	selftests/vm/run.sh --demo

bench: all
	selftests/bench/run.sh

style:
	$(ALL_KERNELS) selftests/style.sh

probe-report:
	kernel/compat/report.sh $(KDIR)

install:
	$(MAKE) -C user install

PREFIX ?= /usr/local
LIBEXECDIR ?= $(PREFIX)/libexec
SYSCONFDIR ?= /etc
SLURM_SCRIPTS := contrib/slurm/ib_mcgroups-prolog contrib/slurm/ib_mcgroups-epilog
install-slurm:
	install -d $(DESTDIR)$(LIBEXECDIR)/ib_mcgroups $(DESTDIR)$(SYSCONFDIR)/default
	install -m 0755 $(SLURM_SCRIPTS) $(DESTDIR)$(LIBEXECDIR)/ib_mcgroups/
	[ -e $(DESTDIR)$(SYSCONFDIR)/default/ib_mcgroups-slurm ] || \
		install -m 0644 contrib/slurm/ib_mcgroups-slurm.default \
			$(DESTDIR)$(SYSCONFDIR)/default/ib_mcgroups-slurm

# Packages, built from a copy of the tree under /tmp (contrib/pkg/build.sh).
deb:
	contrib/pkg/build.sh deb build/pkg/deb

rpm:
	contrib/pkg/build.sh rpm build/pkg/rpm

# --- DKMS and module installation -------------------------------------------
# The module sources DKMS needs, as they sit in the repository, with the
# licence texts their SPDX lines name; dkms-source copies them to
# $(DKMS_SRC) with the version written into dkms.conf.
PKG_NAME := ib_mcgroups
PKG_VERSION := $(shell cat VERSION)
DKMS ?= dkms
DKMS_SOURCE_TREE ?= /usr/src
DKMS_SRC := $(DESTDIR)$(DKMS_SOURCE_TREE)/$(PKG_NAME)-$(PKG_VERSION)
# Extra dkms options, e.g. "--dkmstree DIR --installtree DIR" for a private
# tree (selftests/dkms/dkms-vm.sh); DKMS_KVER: the kernel to install for.
DKMS_ARGS ?=
DKMS_KVER ?= $(KVER)
DKMS_SRCTREE_ARG := $(if $(filter-out /usr/src,$(DKMS_SOURCE_TREE)),--sourcetree $(DKMS_SOURCE_TREE))
DKMS_TARBALL := build/$(PKG_NAME)-$(PKG_VERSION)-source-only.dkms.tar.gz
DKMS_FILES = dkms.conf VERSION include/uapi/ib_mcgroups.h \
	COPYING $(wildcard LICENSES/*/*) \
	kernel/Makefile kernel/Kbuild kernel/ofa.mk kernel/compat/probe.sh \
	$(wildcard kernel/compat/probes/*.c) \
	$(filter-out kernel/%.mod.c,$(wildcard kernel/*.c)) \
	$(filter-out kernel/version.h kernel/compat_autoconf.h,$(wildcard kernel/*.h))

# dkms-source [DKMS_SRC=dir]: the DKMS source tree of this version
dkms-source:
	rm -rf $(DKMS_SRC)
	mkdir -p $(DKMS_SRC)
	cp --parents $(DKMS_FILES) $(DKMS_SRC)/
	sed -i 's|^PACKAGE_VERSION=.*|PACKAGE_VERSION="$(PKG_VERSION)"|' $(DKMS_SRC)/dkms.conf

# Replaces an installed copy of the same version.
dkms-install: dkms-source
	if $(DKMS) status $(DKMS_ARGS) $(DKMS_SRCTREE_ARG) -m $(PKG_NAME) -v $(PKG_VERSION) 2>/dev/null | grep -q .; then \
		$(DKMS) remove $(DKMS_ARGS) $(DKMS_SRCTREE_ARG) -m $(PKG_NAME) -v $(PKG_VERSION) --all; fi
	$(DKMS) add $(DKMS_ARGS) $(DKMS_SRCTREE_ARG) -m $(PKG_NAME) -v $(PKG_VERSION)
	$(DKMS) build $(DKMS_ARGS) $(DKMS_SRCTREE_ARG) -m $(PKG_NAME) -v $(PKG_VERSION) -k $(DKMS_KVER)
	$(DKMS) install $(DKMS_ARGS) $(DKMS_SRCTREE_ARG) -m $(PKG_NAME) -v $(PKG_VERSION) -k $(DKMS_KVER)

dkms-uninstall:
	if $(DKMS) status $(DKMS_ARGS) $(DKMS_SRCTREE_ARG) -m $(PKG_NAME) -v $(PKG_VERSION) 2>/dev/null | grep -q .; then \
		$(DKMS) remove $(DKMS_ARGS) $(DKMS_SRCTREE_ARG) -m $(PKG_NAME) -v $(PKG_VERSION) --all; fi
	rm -rf $(DKMS_SRC)

# A source-only tarball in the layout of "dkms mktarball --source-only"
# (dkms_source_tree/), for "dkms ldtarball FILE". Built in a directory of
# its own and renamed into place, so runs at the same time (make check's
# DKMS tests) never see each other's half-written tarball.
dkms-tarball:
	@mkdir -p build
	t=$$(mktemp -d build/dkms-tarball.XXXXXX) && \
	$(MAKE) --no-print-directory dkms-source DESTDIR= DKMS_SRC=$$t/dkms_source_tree && \
	tar -C $$t -czf $$t/tarball.tar.gz --owner=0 --group=0 dkms_source_tree && \
	mv -f $$t/tarball.tar.gz $(DKMS_TARBALL); rc=$$?; rm -rf $$t; exit $$rc
	@echo "$(DKMS_TARBALL)"

# install-module: the module built against KDIR, by kbuild's modules_install,
# into /lib/modules/KVER/updates (INSTALL_MOD_PATH or DESTDIR: a root dir).
install-module: module
	$(MAKE) -C kernel KDIR=$(KDIR) INSTALL_MOD_DIR=updates \
		$(if $(INSTALL_MOD_PATH)$(DESTDIR),INSTALL_MOD_PATH=$(or $(INSTALL_MOD_PATH),$(DESTDIR))) \
		modules_install

.PHONY: dkms-source dkms-install dkms-uninstall dkms-tarball install-module

clean:
	$(MAKE) -C kernel clean KDIR=$(KDIR)
	$(MAKE) -C user clean
	$(MAKE) -C examples clean
	rm -rf build

.PHONY: all module user selftests examples deps check demo bench style probe-report install \
	clean deps-debug check-debug install-slurm deb rpm
