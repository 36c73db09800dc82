// SPDX-License-Identifier: GPL-2.0
/*
 * tp_bpf.c - loads the tracepoint source's BPF programs through their
 * bpftool skeleton, CO-RE against the running kernel's BTF (see tp_bpf.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "core/err.h"
#include "sources/tracepoints/tp_bpf.h"

#ifdef HAVE_BPF

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "tp_bpf.skel.h"

struct tp_bpf {
	struct tp_bpf_skel *skel;
	struct tp_bpf_slot *slots;
	size_t map_len;
};

/* libbpf's own messages would repeat the one line tlat prints */
static int tp_bpf_quiet(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	(void)level;
	(void)fmt;
	(void)ap;
	return 0;
}

static int tp_bpf_fill(struct tp_bpf *b, const pid_t *tids, int nr)
{
	int fd = bpf_map__fd(b->skel->maps.tids);

	for (int i = 0; i < nr; i++) {
		__u32 tid = tids[i], slot = i;

		if (tid && bpf_map_update_elem(fd, &tid, &slot, BPF_ANY))
			return -errno;
	}
	return 0;
}

int tp_bpf_open(struct tp_bpf **out, const pid_t *tids, int nr, char *err)
{
	long page = sysconf(_SC_PAGESIZE);
	struct tp_bpf *b = calloc(1, sizeof(*b));
	const char *step;
	int ret;

	*out = NULL;
	if (!b) {
		tlat_err(err, "out of memory");
		return -ENOMEM;
	}
	libbpf_set_print(tp_bpf_quiet);
	step = "open";
	b->skel = tp_bpf_skel__open();
	if (!b->skel) {
		ret = -errno;
		goto fail;
	}
	bpf_map__set_max_entries(b->skel->maps.tids, nr);
	bpf_map__set_max_entries(b->skel->maps.slots, nr);
	step = "load";
	ret = tp_bpf_skel__load(b->skel);
	if (ret)
		goto fail;
	step = "map the slots of";
	b->map_len = (nr * sizeof(*b->slots) + page - 1) / page * page;
	b->slots = mmap(NULL, b->map_len, PROT_READ | PROT_WRITE, MAP_SHARED,
			bpf_map__fd(b->skel->maps.slots), 0);
	if (b->slots == MAP_FAILED) {
		b->slots = NULL;
		ret = -errno;
		goto fail;
	}
	step = "fill";
	ret = tp_bpf_fill(b, tids, nr);
	if (ret)
		goto fail;
	step = "attach";
	ret = tp_bpf_skel__attach(b->skel);
	if (ret)
		goto fail;
	*out = b;
	return 0;
fail:
	ret = ret < 0 ? ret : -EIO;
	tlat_err(err, "cannot %s the BPF collector: %s", step, strerror(-ret));
	tp_bpf_close(b);
	return ret;
}

struct tp_bpf_slot *tp_bpf_slot(struct tp_bpf *b, int slot)
{
	return &b->slots[slot];
}

void tp_bpf_close(struct tp_bpf *b)
{
	if (!b)
		return;
	if (b->slots)
		munmap(b->slots, b->map_len);
	tp_bpf_skel__destroy(b->skel);
	free(b);
}

#else /* !HAVE_BPF */

int tp_bpf_open(struct tp_bpf **out, const pid_t *tids, int nr, char *err)
{
	(void)tids;
	(void)nr;
	*out = NULL;
	tlat_err(err, "this tlat was built without BPF (no clang, bpftool or libbpf)");
	return -EOPNOTSUPP;
}

struct tp_bpf_slot *tp_bpf_slot(struct tp_bpf *b, int slot)
{
	(void)b;
	(void)slot;
	return NULL;
}

void tp_bpf_close(struct tp_bpf *b)
{
	(void)b;
}

#endif
