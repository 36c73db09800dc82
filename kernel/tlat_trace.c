// SPDX-License-Identifier: GPL-2.0
/*
 * tlat - trace event instantiation and output helpers.
 */
#include <linux/trace_seq.h>

#define CREATE_TRACE_POINTS
#include "tlat_trace.h"

/**
 * tlat_trace_print_ips - render the stack of a tlat_stack event as text
 * @p:		the output sequence of the event being printed
 * @ips:	return addresses
 * @nr:		number of entries in @ips
 *
 * Called by TP_printk() when the trace is read, one " => symbol" line per
 * entry, the way the kernel prints its own stack entries.
 *
 * Return: the start of the text in @p.
 */
const char *tlat_trace_print_ips(struct trace_seq *p, const unsigned long *ips,
				 unsigned int nr)
{
	const char *ret = trace_seq_buffer_ptr(p);
	unsigned int i;

	for (i = 0; i < nr; i++)
		trace_seq_printf(p, "\n => %pS", (void *)ips[i]);
	trace_seq_putc(p, 0);
	return ret;
}
