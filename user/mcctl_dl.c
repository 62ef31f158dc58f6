// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * mcctl: libibverbs and libibumad, loaded when first needed (mcctl_dl.h).
 */
#include <dlfcn.h>
#include <stddef.h>

#ifdef HAVE_VERBS
#include <infiniband/verbs.h>
#endif
#ifdef HAVE_UMAD
#include <infiniband/umad.h>
#endif

#include "mcctl_dl.h"

#if defined(HAVE_VERBS) || defined(HAVE_UMAD)
/*
 * Fill n function pointers at tbl from the symbols names[] of the library
 * soname; false (and the table cleared) if any is missing.
 */
static bool dl_load(const char *soname, const char *const *names, void **tbl,
		    size_t n)
{
	void *lib = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
	size_t i;

	if (!lib)
		return false;
	for (i = 0; i < n; i++) {
		tbl[i] = dlsym(lib, names[i]);
		if (!tbl[i]) {
			for (i = 0; i < n; i++)
				tbl[i] = NULL;
			dlclose(lib);
			return false;
		}
	}
	return true;	/* kept loaded until exit */
}
#endif

#ifdef HAVE_VERBS
struct mcctl_verbs mcctl_verbs;

bool mcctl_dl_verbs(void)
{
	static const char *const names[] = {
		"ibv_get_device_list", "ibv_free_device_list",
		"ibv_get_device_name", "ibv_open_device", "ibv_close_device",
		"ibv_query_port",
	};
	static int state;	/* 0 not tried, 1 loaded, -1 not available */

	_Static_assert(sizeof(mcctl_verbs) == sizeof(names) / sizeof(names[0]) * sizeof(void *),
		       "one name per function");
	if (!state)
		state = dl_load("libibverbs.so.1", names, (void **)&mcctl_verbs,
				sizeof(names) / sizeof(names[0])) ? 1 : -1;
	return state > 0;
}
#endif

#ifdef HAVE_UMAD
struct mcctl_umad mcctl_umad;

bool mcctl_dl_umad(void)
{
	static const char *const names[] = {
		"umad_init", "umad_get_port", "umad_release_port",
		"umad_open_port", "umad_close_port", "umad_register",
		"umad_unregister", "umad_send", "umad_recv", "umad_size",
		"umad_get_mad", "umad_set_addr", "umad_set_pkey", "umad_status",
	};
	static int state;

	_Static_assert(sizeof(mcctl_umad) == sizeof(names) / sizeof(names[0]) * sizeof(void *),
		       "one name per function");
	if (!state)
		state = dl_load("libibumad.so.3", names, (void **)&mcctl_umad,
				sizeof(names) / sizeof(names[0])) ? 1 : -1;
	return state > 0;
}
#endif
