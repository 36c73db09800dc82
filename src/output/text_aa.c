// SPDX-License-Identifier: GPL-2.0
/*
 * text_aa.c - the auto-analysis report in rtla's words and layout
 * (timerlat_aa.c, v7.1 format strings), because people and CI grep for
 * them: by default rtla's lines and no other. --aa-extras adds tlat's
 * after them: each interference summed per source, and the part of the
 * latency that none of the lines with a share explains (the shares then
 * add up to 100 %), which rtla leaves for the reader to work out.
 */
#include <string.h>

#include "output/text.h"
#include "output/text_aa.h"

#define AA_SPACES	"                                                                "
/* rtla tags the IRQ handler delay "(exit from idle)" above this */
#define AA_IDLE_DELAY_NS	10000

static double us(u64 ns)
{
	return ns / 1000.0;
}

static double pct(u64 part, u64 total)
{
	return total ? part * 100.0 / total : 0.0;
}

/* "truncate" stops at the first address with no symbol, as rtla does */
static void aa_render_stack(FILE *out, const struct aa_result *r, const struct aa_render_opts *o)
{
	if (!r->nr_frames)
		return;
	fprintf(out, "    Blocking thread stack trace\n");
	for (int i = 0; i < r->nr_frames; i++) {
		const char *sym = o->symbol ? o->symbol(o->symbol_ctx, r->frames[i]) : NULL;

		if (sym) {
			fprintf(out, " %.*s -> %s\n", 14, AA_SPACES, sym);
			continue;
		}
		if (o->stack_format == TLAT_STACK_TRUNCATE)
			break;
		if (o->stack_format == TLAT_STACK_FULL)
			fprintf(out, " %.*s -> 0x%llx\n", 14, AA_SPACES,
				(unsigned long long)r->frames[i]);
	}
}

/* rtla's class title, then one line per occurrence */
static void aa_render_part(FILE *out, const struct aa_part *p, const char *title, int pad,
			   int id_width, u64 total)
{
	if (!p->sum_ns)
		return;
	fprintf(out, "  %s %.*s %9.2f us (%.2f %%)\n", title, pad, AA_SPACES, us(p->sum_ns),
		pct(p->sum_ns, total));
	for (int i = 0; i < p->nr_occs; i++)
		fprintf(out, "  %24s:%-*lld %.*s %9.2f us\n", p->occs[i].name, id_width,
			p->occs[i].id, id_width == 3 ? 24 : 15, AA_SPACES, us(p->occs[i].ns));
	if (p->nr_other_occs)
		fprintf(out, "  %24s:%-*d %.*s %9.2f us\n", "others", id_width, p->nr_other_occs,
			id_width == 3 ? 24 : 15, AA_SPACES, us(p->other_occs_ns));
}

/* --aa-extras: a class summed per source, in rtla's line layout */
static void aa_render_sums(FILE *out, const struct aa_part *p, const char *title, int pad,
			   int id_width)
{
	if (!p->sum_ns)
		return;
	fprintf(out, "  %s per source: %.*s %9.2f us\n", title, pad, AA_SPACES, us(p->sum_ns));
	for (int i = 0; i < p->nr_lines; i++)
		fprintf(out, "  %24s:%-*lld %.*s %9.2f us\n", p->lines[i].name, id_width,
			p->lines[i].id, id_width == 3 ? 24 : 15, AA_SPACES, us(p->lines[i].ns));
	if (p->other_ns)
		fprintf(out, "  %24s:%-*s %.*s %9.2f us\n", "others", id_width, "",
			id_width == 3 ? 24 : 15, AA_SPACES, us(p->other_ns));
}

static void aa_render_extras(FILE *out, const struct aa_result *r)
{
	u64 total = r->total_ns;

	aa_render_sums(out, &r->parts[AA_NMI], "NMI interference", 24, 3);
	if (r->irq_stop)
		return;	/* rtla lists no more after an IRQ stop */
	aa_render_sums(out, &r->parts[AA_IRQ], "IRQ interference", 24, 3);
	aa_render_sums(out, &r->parts[AA_SOFTIRQ], "Softirq interference", 20, 3);
	aa_render_sums(out, &r->parts[AA_THREAD], "Thread interference", 21, 12);
	fprintf(out, "  Not in the lines with a share: %.*s %9.2f us (%.2f %%)\n", 22, AA_SPACES,
		r->unexplained_ns / 1000.0, total ? r->unexplained_ns * 100.0 / total : 0.0);
}

void aa_render_result(FILE *out, const struct aa_result *r, const struct aa_render_opts *o)
{
	u64 total = r->total_ns;

	fprintf(out, "## CPU %d hit stop tracing, analyzing it ##\n", r->cpu);
	if (!r->complete)
		fprintf(out, "  (events were lost around this activation: the analysis is partial)\n");
	if (r->prev_irq_ns)
		fprintf(out, "  Previous IRQ interference: %.*s up to  %9.2f us\n", 16, AA_SPACES,
			us(r->prev_irq_ns));
	fprintf(out, "  IRQ handler delay: %.*s %16s  %9.2f us (%.2f %%)\n", 16, AA_SPACES,
		r->exit_from_idle && r->irq_delay_ns > AA_IDLE_DELAY_NS ? "(exit from idle)" : "",
		us(r->irq_delay_ns), pct(r->irq_delay_ns, total));
	fprintf(out, "  IRQ latency: %.*s %9.2f us\n", 40, AA_SPACES, us(r->irq_latency_ns));
	if (r->irq_stop) {
		fprintf(out, "  Blocking thread:\n");
		fprintf(out, " %.*s %24s:%-9d\n", 6, AA_SPACES, r->blocking_comm, r->blocking_pid);
	} else {
		fprintf(out, "  Timerlat IRQ duration: %.*s %9.2f us (%.2f %%)\n", 30, AA_SPACES,
			us(r->timer_irq_ns), pct(r->timer_irq_ns, total));
		fprintf(out, "  Blocking thread: %.*s %9.2f us (%.2f %%)\n", 36, AA_SPACES,
			us(r->blocking_ns), pct(r->blocking_ns, total));
		fprintf(out, " %.*s %24s:%-9d %.*s %9.2f us\n", 6, AA_SPACES, r->blocking_comm,
			r->blocking_pid, 12, AA_SPACES, us(r->blocking_ns));
	}
	aa_render_stack(out, r, o);
	if (r->parts[AA_NMI].sum_ns)
		fprintf(out, "  NMI interference %.*s %9.2f us (%.2f %%)\n", 36, AA_SPACES,
			us(r->parts[AA_NMI].sum_ns), pct(r->parts[AA_NMI].sum_ns, total));
	if (!r->irq_stop) {
		aa_render_part(out, &r->parts[AA_IRQ], "IRQ interference", 36, 3, total);
		aa_render_part(out, &r->parts[AA_SOFTIRQ], "Softirq interference", 32, 3, total);
		aa_render_part(out, &r->parts[AA_THREAD], "Thread interference", 33, 12, total);
	}
	if (o->extras)
		aa_render_extras(out, r);
	fprintf(out, "------------------------------------------------------------------------\n");
	fprintf(out, "  %s latency: %.*s %9.2f us (100%%)\n", r->irq_stop ? "   IRQ" : "Thread", 37,
		AA_SPACES, us(total));
}

void aa_render_idle_exit(FILE *out, u64 latency_ns, int cpu)
{
	fprintf(out, "\nMax timerlat IRQ latency from idle: %.2f us in cpu %d\n", us(latency_ns), cpu);
}

void aa_render_tasks_header(FILE *out)
{
	fprintf(out, "\nPrinting CPU tasks:\n");
}

void aa_render_task(FILE *out, int cpu, const struct aa_task *task, const struct aa_render_opts *o)
{
	const char *work = NULL, *func = NULL;

	fprintf(out, "    [%.3d] %24s:%d", cpu, task->comm, task->pid);
	if (task->work_func) {
		if (o->symbol) {
			work = o->symbol(o->symbol_ctx, task->work);
			func = o->symbol(o->symbol_ctx, task->work_func);
		}
		/* a work item is data, seldom a symbol: rtla's "<...>" then */
		fprintf(out, " kworker:%s:", work ?: "<...>");
		if (func)
			fprintf(out, "%s", func);
		else
			fprintf(out, "0x%llx", (unsigned long long)task->work_func);
	}
	fputc('\n', out);
}

void text_aa(FILE *out, const struct tlat_report *r)
{
	const struct tlat_report_aa *aa = r->aa;
	struct aa_render_opts opts = {
		.stack_format = r->params->out.stack_format,
		.extras = r->params->out.aa_extras,
		/* without symbols, --stack-format decides what the addresses show */
		.symbol = aa->symbol,
		.symbol_ctx = aa->symbol_ctx,
	};

	for (int i = 0; i < aa->nr_results; i++)
		aa_render_result(out, &aa->results[i], &opts);
	if (aa->idle_exit)
		aa_render_idle_exit(out, aa->idle_exit_ns, aa->idle_exit_cpu);
	if (!r->params->dump_tasks)
		return;
	aa_render_tasks_header(out);
	for (int i = 0; i < aa->nr_tasks; i++)
		aa_render_task(out, aa->tasks[i].cpu, &aa->tasks[i].task, &opts);
}
