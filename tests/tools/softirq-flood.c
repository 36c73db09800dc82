// SPDX-License-Identifier: GPL-2.0
/*
 * softirq-flood - NET_RX softirq interference on one CPU, for tlat's
 * auto-analysis tests: pinned to one CPU at SCHED_OTHER, it sends UDP
 * datagrams as fast as it can to a receiving UDP socket of its own on
 * 127.0.0.1 and drains that socket (non-blocking) in the same loop, so that
 * the receive buffer does not stay full.
 *
 * On loopback a sent packet is queued on the sending CPU's backlog and the
 * NET_RX softirq that delivers it runs on that same CPU, in the sender's
 * context when the send re-enables bottom halves (or in that CPU's
 * ksoftirqd), which is the point: the softirqs land on -c CPU and nowhere
 * else, unless RPS is set up on lo.
 *
 * A plain small datagram costs its softirq about 1 us, too short to stand
 * out of a virtual machine's noise, so by default the softirqs are made long:
 *
 * - each send is one UDP GSO super-packet (UDP_SEGMENT) of SIZE bytes that
 *   the receive side splits into SIZE/SEG datagrams inside the softirq. The
 *   kernel takes at most 128 segments (64 on older kernels), so the default
 *   is 128 of 508 bytes: 38-60 us a softirq on a 6.18 guest. If the kernel
 *   refuses that many, it says so on stderr and sends 64. -g 0 sends plain
 *   datagrams of SIZE bytes.
 * - the receiving socket has a classic BPF filter of INSNS instructions,
 *   which runs in the softirq for each of those datagrams: the default, the
 *   most there can be (4095), made softirqs of 180-550 us (median 210) on
 *   that guest. -f 0 attaches none.
 * - -b BATCH sends BATCH packets per sendmmsg() call between drains
 *   (default 8, which about doubles the softirq rate of 1); -n SOCKS spreads
 *   the sends over several socket pairs.
 *
 * "-s 16 -g 0 -b 1 -f 0" is the plain flood of small datagrams.
 *
 * Usage: softirq-flood [-c CPU] [-d SECONDS] [-s SIZE] [-g SEG] [-n SOCKS]
 *                      [-b BATCH] [-f INSNS]
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE	/* CPU_SET, sched_setaffinity, sendmmsg */
#endif
#include <limits.h>
#include <linux/filter.h>
#include <netinet/in.h>
#include <netinet/udp.h>
#include <sys/socket.h>

#define TOOL_NAME	"softirq-flood"
#define TOOL_USAGE	"softirq-flood [-c CPU] [-d SECONDS] [-s SIZE] [-g SEG] [-n SOCKS] " \
			"[-b BATCH] [-f INSNS]"
#include "tool_common.h"

#ifndef UDP_SEGMENT
#define UDP_SEGMENT	103
#endif

#define MAX_SOCKS	64
#define MAX_BATCH	64
#define MAX_SIZE	65507	/* the largest UDP payload over IPv4 */
#define OLD_MAX_SEGS	64	/* UDP_MAX_SEGMENTS of older kernels */
#define RECV_BATCH	64

static void die(const char *what)
{
	fprintf(stderr, "softirq-flood: %s: %s\n", what, strerror(errno));
	exit(1);
}

/*
 * A classic BPF socket filter of n ALU instructions that accepts everything.
 * It runs in the softirq for each datagram received, segment by segment, so
 * it makes each NET_RX softirq longer at will (about 0.3 ns an instruction
 * a datagram with the JIT). Packet loads would cost more per instruction but
 * convert to a dozen eBPF instructions each, and the kernel charges the
 * converted program to net.core.optmem_max (128 KiB on 6.18, 20 KiB on older
 * kernels): if it does not fit, halve it until it does, and say so.
 * Returns the length used.
 */
static int attach_filter(int rx, int n)
{
	static struct sock_filter code[BPF_MAXINSNS];
	struct sock_fprog prog = { .filter = code };
	int i, want = n;

	for (i = 0; i < n; i++)
		code[i] = (struct sock_filter)BPF_STMT(BPF_ALU | BPF_ADD | BPF_K, 1);
	for (;;) {
		code[n] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, 0xffffffff);
		prog.len = n + 1;
		if (!setsockopt(rx, SOL_SOCKET, SO_ATTACH_FILTER, &prog, sizeof(prog)))
			break;
		if (errno != ENOMEM || n == 1)
			die("setsockopt SO_ATTACH_FILTER");
		n /= 2;
	}
	if (n != want)
		fprintf(stderr, "softirq-flood: a socket filter of %d instructions does not fit in net.core.optmem_max, using %d\n",
			want, n);
	return n;
}

/* a receiving socket on 127.0.0.1, and a sending socket connected to it */
static void socket_pair(int *rx, int *tx, int seg, int *filter)
{
	struct sockaddr_in addr = {
		.sin_family = AF_INET,
		.sin_addr.s_addr = htonl(INADDR_LOOPBACK),
	};
	socklen_t len = sizeof(addr);

	*rx = socket(AF_INET, SOCK_DGRAM | SOCK_NONBLOCK, 0);
	*tx = socket(AF_INET, SOCK_DGRAM | SOCK_NONBLOCK, 0);
	if (*rx < 0 || *tx < 0)
		die("socket");
	if (bind(*rx, (struct sockaddr *)&addr, sizeof(addr)) ||
	    getsockname(*rx, (struct sockaddr *)&addr, &len))
		die("bind 127.0.0.1");
	if (connect(*tx, (struct sockaddr *)&addr, sizeof(addr)))
		die("connect 127.0.0.1");
	if (*filter)
		*filter = attach_filter(*rx, *filter);
	if (seg && setsockopt(*tx, IPPROTO_UDP, UDP_SEGMENT, &seg, sizeof(seg)))
		die("setsockopt UDP_SEGMENT");
}

/* read whatever has arrived, without waiting; the data is thrown away */
static void drain(int rx, char *buf, size_t size)
{
	struct mmsghdr msgs[RECV_BATCH];
	struct iovec iov = { .iov_base = buf, .iov_len = size };
	int i;

	memset(msgs, 0, sizeof(msgs));
	for (i = 0; i < RECV_BATCH; i++) {
		msgs[i].msg_hdr.msg_iov = &iov;
		msgs[i].msg_hdr.msg_iovlen = 1;
	}
	while (recvmmsg(rx, msgs, RECV_BATCH, MSG_DONTWAIT, NULL) == RECV_BATCH)
		;
}

int main(int argc, char **argv)
{
	long cpu = 1, duration = 0, size = 128 * 508, seg = 508, nsocks = 1, batch = 8;
	long insns = BPF_MAXINSNS - 1;
	const struct tool_num nums[] = {
		{ 'c', &cpu, 0, CPU_SETSIZE - 1 },
		{ 'd', &duration, 0, INT_MAX },
		{ 's', &size, 1, MAX_SIZE },
		{ 'g', &seg, 0, MAX_SIZE },
		{ 'n', &nsocks, 1, MAX_SOCKS },
		{ 'b', &batch, 1, MAX_BATCH },
		{ 'f', &insns, 0, BPF_MAXINSNS - 1 },
		{ 0 },
	};
	static char sbuf[MAX_SIZE], rbuf[MAX_SIZE];
	int rx[MAX_SOCKS], tx[MAX_SOCKS];
	struct mmsghdr msgs[MAX_BATCH];
	long long deadline = 0;
	struct iovec iov;
	int filter, i, j;

	if (tool_getopt(argc, argv, "c:d:s:g:n:b:f:h", nums) != -1)
		usage();
	filter = insns;
	catch_stop_signals();
	pin_to_cpu(cpu);

	for (i = 0; i < nsocks; i++)
		socket_pair(&rx[i], &tx[i], seg, &filter);

	iov.iov_base = sbuf;
	iov.iov_len = size;
	memset(msgs, 0, sizeof(msgs));
	for (i = 0; i < batch; i++) {
		msgs[i].msg_hdr.msg_iov = &iov;
		msgs[i].msg_hdr.msg_iovlen = 1;
	}

	if (duration)
		deadline = now_ns() + duration * NSEC_PER_SEC;

	while (!stop) {
		for (i = 0; i < nsocks; i++) {
			if (batch > 1)
				j = sendmmsg(tx[i], msgs, batch, 0);
			else
				j = send(tx[i], sbuf, size, 0);
			if (j >= 0)
				continue;
			/* a full buffer: the drain below makes room again */
			if (errno == EAGAIN || errno == ENOBUFS || errno == EINTR ||
			    errno == ECONNREFUSED)
				continue;
			/* too many GSO segments for this kernel: send fewer */
			if (errno == EINVAL && seg && size > OLD_MAX_SEGS * seg) {
				size = OLD_MAX_SEGS * seg;
				iov.iov_len = size;
				fprintf(stderr, "softirq-flood: the kernel refuses that many UDP GSO segments, sending %d of %ld bytes\n",
					OLD_MAX_SEGS, seg);
				continue;
			}
			die("send");
		}
		for (i = 0; i < nsocks; i++)
			drain(rx[i], rbuf, sizeof(rbuf));

		if (deadline && now_ns() >= deadline)
			break;
	}
	return 0;
}
