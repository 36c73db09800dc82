// SPDX-License-Identifier: GPL-2.0
/*
 * mod_agg.c - reads tlat.ko's per-CPU aggregates (see mod_agg.h): one
 * pread() of the whole snapshot at each drain, checked against the layout
 * this tlat was built with.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "core/err.h"
#include "sources/mod_agg.h"
#include "stats/loglinear.h"
#include "../kernel/tlat_uapi.h"

_Static_assert(TLAT_AGG_BUCKETS == LOGLIN_BUCKETS, "tlat.ko buckets as tlat does");
_Static_assert(TLAT_AGG_SUB_BITS == LOGLIN_SUB_BITS, "tlat.ko buckets as tlat does");
_Static_assert(TLAT_AGG_NR_CTX == TLAT_NR_CTX, "one aggregate per context");

struct mod_agg {
	int fd;
	size_t len;	/* what a snapshot can hold: the header and one record a CPU id */
	void *buf;
};

int mod_agg_open(struct mod_agg **out, char *err)
{
	struct mod_agg *a = calloc(1, sizeof(*a));
	long nr = sysconf(_SC_NPROCESSORS_CONF);
	int ret;

	*out = NULL;
	if (!a) {
		tlat_err(err, "out of memory");
		return -ENOMEM;
	}
	/* room for the CPUs configured; read_snapshot() makes more if needed */
	a->len = sizeof(struct tlat_agg_header) +
		 (size_t)(nr > 0 ? nr : 1) * sizeof(struct tlat_agg_cpu);
	a->buf = malloc(a->len);
	a->fd = open(MOD_AGG_DEVICE, O_RDONLY | O_CLOEXEC);
	if (!a->buf || a->fd < 0) {
		ret = a->buf ? -errno : -ENOMEM;
		tlat_err(err, "cannot open %s: %s", MOD_AGG_DEVICE, strerror(-ret));
		mod_agg_close(a);
		return ret;
	}
	*out = a;
	return 0;
}

int mod_agg_resume(struct mod_agg *a, char *err)
{
	if (!ioctl(a->fd, TLAT_AGG_IOC_RESUME))
		return 0;
	tlat_err(err, "cannot resume tlat.ko's aggregates: %s", strerror(errno));
	return -errno;
}

static int parse_error(char *err, const char *what)
{
	tlat_err(err, "%s: %s: load the tlat.ko built with this tlat", MOD_AGG_DEVICE, what);
	return -EPROTO;
}

static int check_header(const struct tlat_agg_header *h, size_t len, char *err)
{
	if (len < sizeof(*h) || h->magic != TLAT_AGG_MAGIC)
		return parse_error(err, "not a snapshot of tlat's aggregates");
	if (h->version != TLAT_AGG_VERSION || h->header_size != sizeof(*h) ||
	    h->cpu_size != sizeof(struct tlat_agg_cpu) || h->nr_ctx != TLAT_AGG_NR_CTX ||
	    h->nr_buckets != TLAT_AGG_BUCKETS || h->sub_bits != TLAT_AGG_SUB_BITS ||
	    h->max_bits != TLAT_AGG_MAX_BITS)
		return parse_error(err, "another layout of the aggregates");
	if ((len - sizeof(*h)) / sizeof(struct tlat_agg_cpu) < h->nr_cpus)
		return parse_error(err, "a snapshot cut short");
	if (h->stopped > 1 || h->stop_pad ||
	    (h->stopped && (h->stop_cpu >= h->nr_cpus || h->stop_ctx >= TLAT_AGG_NR_CTX ||
			    !h->stops)))
		return parse_error(err, "a stop out of range");
	return 0;
}

/* a stop the sink has not had: its sample, which the aggregates hold */
static void parse_stop(const struct tlat_agg_header *h, struct tlat_sink *sink, u64 *stops)
{
	if (!h->stopped || h->stops == *stops)
		return;
	*stops = h->stops;
	sink->stopped_at(sink, &(struct tlat_sample){
		.ts_ns = h->stop_ts, .latency_ns = h->stop_lat, .seq = h->stop_seqnum,
		.cpu = (int)h->stop_cpu, .pid = h->stop_pid, .ctx = (enum tlat_ctx)h->stop_ctx,
	});
}

int mod_agg_parse(const void *buf, size_t len, const struct tlat_cpuset *cpus, int nr_ctx,
		  struct tlat_sink *sink, u64 *total, u64 *stops, char *err)
{
	const struct tlat_agg_header *h = buf;
	const struct tlat_agg_cpu *rec;
	int ret = check_header(h, len, err);

	*total = 0;
	if (ret)
		return ret;
	rec = (const struct tlat_agg_cpu *)((const char *)buf + sizeof(*h));
	/* all checked before the sink sees any */
	for (u32 i = 0; i < h->nr_cpus; i++)
		if (rec[i].cpu != i)
			return parse_error(err, "CPU records out of order");
	for (u32 i = 0; i < h->nr_cpus; i++, rec++) {
		if (!cpuset_has(cpus, (int)i))
			continue;
		for (int ctx = 0; ctx < nr_ctx && ctx < TLAT_NR_CTX; ctx++) {
			const struct tlat_agg_ctx *c = &rec->ctx[ctx];
			struct tlat_stat stat = {
				.count = c->count, .cur = c->cur, .min = c->min,
				.max = c->max, .sum = c->sum,
			};

			/* buckets only where there is something: a CPU's come at its first */
			sink->aggregate(sink, (int)i, ctx, &stat,
					c->count ? (const u64 *)c->buckets : NULL);
			*total += c->count;
		}
	}
	parse_stop(h, sink, stops);
	return 0;
}

/* a snapshot whole: one more read, into more room, if the kernel has more CPU ids */
static ssize_t read_snapshot(struct mod_agg *a, char *err)
{
	const struct tlat_agg_header *h;
	ssize_t n;
	size_t need;
	void *buf;

	for (;;) {
		n = pread(a->fd, a->buf, a->len, 0);
		if (n < 0) {
			tlat_err(err, "cannot read %s: %s", MOD_AGG_DEVICE, strerror(errno));
			return -errno;
		}
		h = a->buf;
		if ((size_t)n < sizeof(*h) || h->cpu_size != sizeof(struct tlat_agg_cpu))
			return n;
		need = sizeof(*h) + (size_t)h->nr_cpus * h->cpu_size;
		if (need <= a->len)
			return n;
		buf = realloc(a->buf, need);
		if (!buf) {
			tlat_err(err, "out of memory");
			return -ENOMEM;
		}
		a->buf = buf;
		a->len = need;
	}
}

int mod_agg_reset(struct mod_agg *a, bool warm_up, u64 *reset_ns, char *err)
{
	ssize_t n;
	int ret;

	if (ioctl(a->fd, warm_up ? TLAT_AGG_IOC_RESET_GATED : TLAT_AGG_IOC_RESET)) {
		tlat_err(err, "cannot reset tlat.ko's aggregates: %s", strerror(errno));
		return -errno;
	}
	if (!reset_ns)
		return 0;
	n = read_snapshot(a, err);
	if (n < 0)
		return (int)n;
	ret = check_header(a->buf, (size_t)n, err);
	if (!ret)
		*reset_ns = ((const struct tlat_agg_header *)a->buf)->reset_ts;
	return ret;
}

int mod_agg_drain(struct mod_agg *a, const struct tlat_cpuset *cpus, int nr_ctx,
		  struct tlat_sink *sink, u64 *total, u64 *stops, char *err)
{
	ssize_t n = read_snapshot(a, err);

	if (n < 0)
		return (int)n;
	return mod_agg_parse(a->buf, (size_t)n, cpus, nr_ctx, sink, total, stops, err);
}

int mod_agg_check(struct mod_agg *a, char *err)
{
	ssize_t n = read_snapshot(a, err);

	if (n < 0)
		return (int)n;
	return check_header(a->buf, (size_t)n, err);
}

void mod_agg_close(struct mod_agg *a)
{
	if (!a)
		return;
	if (a->fd >= 0)
		close(a->fd);
	free(a->buf);
	free(a);
}
