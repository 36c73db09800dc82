/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mod_load.h - loading tlat.ko for the module source where it is not
 * loaded, and unloading it after: modprobe (DKMS, make install), or the
 * tlat.ko built in the source tree next to the tlat binary.
 */
#ifndef TLAT_SOURCES_MOD_LOAD_H
#define TLAT_SOURCES_MOD_LOAD_H

#include <stdbool.h>

/**
 * mod_loaded - whether tlat.ko is loaded
 *
 * Returns true if its tlat:tlat_sample event is known to tracefs.
 */
bool mod_loaded(void);
/**
 * mod_loadable - whether mod_load() would find tlat.ko
 *
 * Returns true if modprobe knows it or the source tree has it built.
 */
bool mod_loadable(void);
/**
 * mod_load - load tlat.ko
 *
 * Signals tlat holds back stay held in modprobe: it runs to its end.
 *
 * Returns 0, or -errno (-ENOENT: nowhere to load it from).
 */
int mod_load(void);
/**
 * mod_unload - unload tlat.ko, without waiting for its users
 */
void mod_unload(void);

#endif
