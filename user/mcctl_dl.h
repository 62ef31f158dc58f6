/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * mcctl loads libibverbs and libibumad only when a command needs them
 * (diag: the active MTU of an InfiniBand port, the SA check), with
 * dlopen(): linked in, they and their dependencies (libnl-route) cost
 * every mcctl command its startup, most of a short command's time.
 *
 * Include after <infiniband/verbs.h> or <infiniband/umad.h>: the calls
 * of those libraries then go through the tables below, which
 * mcctl_dl_verbs() and mcctl_dl_umad() fill (false: the library is not
 * installed, as if mcctl had been built without it).
 */
#ifndef MCCTL_DL_H
#define MCCTL_DL_H

#include <stdbool.h>

#define MCCTL_DL_FN(name)	__typeof__(&name) name

#if defined(HAVE_VERBS) && defined(INFINIBAND_VERBS_H)
/*
 * verbs.h makes ibv_query_port() an inline wrapper that falls back to the
 * exported function, which fills the older, shorter struct (active_mtu
 * included): call that one, on a zeroed struct ibv_port_attr.
 */
#undef ibv_query_port
struct mcctl_verbs {
	MCCTL_DL_FN(ibv_get_device_list);
	MCCTL_DL_FN(ibv_free_device_list);
	MCCTL_DL_FN(ibv_get_device_name);
	MCCTL_DL_FN(ibv_open_device);
	MCCTL_DL_FN(ibv_close_device);
	int (*ibv_query_port)(struct ibv_context *ctx, uint8_t port,
			      struct ibv_port_attr *attr);
};
extern struct mcctl_verbs mcctl_verbs;
bool mcctl_dl_verbs(void);
#define ibv_get_device_list	mcctl_verbs.ibv_get_device_list
#define ibv_free_device_list	mcctl_verbs.ibv_free_device_list
#define ibv_get_device_name	mcctl_verbs.ibv_get_device_name
#define ibv_open_device		mcctl_verbs.ibv_open_device
#define ibv_close_device	mcctl_verbs.ibv_close_device
#define ibv_query_port		mcctl_verbs.ibv_query_port
#endif

#if defined(HAVE_UMAD) && defined(_UMAD_H)
struct mcctl_umad {
	MCCTL_DL_FN(umad_init);
	MCCTL_DL_FN(umad_get_port);
	MCCTL_DL_FN(umad_release_port);
	MCCTL_DL_FN(umad_open_port);
	MCCTL_DL_FN(umad_close_port);
	MCCTL_DL_FN(umad_register);
	MCCTL_DL_FN(umad_unregister);
	MCCTL_DL_FN(umad_send);
	MCCTL_DL_FN(umad_recv);
	MCCTL_DL_FN(umad_size);
	MCCTL_DL_FN(umad_get_mad);
	MCCTL_DL_FN(umad_set_addr);
	MCCTL_DL_FN(umad_set_pkey);
	MCCTL_DL_FN(umad_status);
};
extern struct mcctl_umad mcctl_umad;
bool mcctl_dl_umad(void);
#define umad_init		mcctl_umad.umad_init
#define umad_get_port		mcctl_umad.umad_get_port
#define umad_release_port	mcctl_umad.umad_release_port
#define umad_open_port		mcctl_umad.umad_open_port
#define umad_close_port		mcctl_umad.umad_close_port
#define umad_register		mcctl_umad.umad_register
#define umad_unregister		mcctl_umad.umad_unregister
#define umad_send		mcctl_umad.umad_send
#define umad_recv		mcctl_umad.umad_recv
#define umad_size		mcctl_umad.umad_size
#define umad_get_mad		mcctl_umad.umad_get_mad
#define umad_set_addr		mcctl_umad.umad_set_addr
#define umad_set_pkey		mcctl_umad.umad_set_pkey
#define umad_status		mcctl_umad.umad_status
#endif

#endif /* MCCTL_DL_H */
