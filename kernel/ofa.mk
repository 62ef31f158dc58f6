# SPDX-License-Identifier: GPL-2.0
#
# MLNX_OFED / DOCA-OFED: with OFA_DIR set (kernel/Makefile finds it), the
# module and its feature probes are compiled against OFED's RDMA headers
# instead of the kernel's: its compat-2.6.h is force-included (after
# kconfig.h, which it needs) and its include directories go in front of the
# kernel's, the way MLNX_OFED's own external modules are built. Its
# Module.symvers is passed as KBUILD_EXTRA_SYMBOLS by kernel/Makefile.
# Included by Kbuild and by the probes' generated Kbuild (compat/probe.sh).
ifneq ($(OFA_DIR),)
OFA_INCLUDE := -include $(srctree)/include/linux/kconfig.h \
	       -include $(OFA_DIR)/include/linux/compat-2.6.h \
	       -I$(OFA_DIR)/include -I$(OFA_DIR)/include/uapi
LINUXINCLUDE := $(OFA_INCLUDE) $(LINUXINCLUDE)
endif
