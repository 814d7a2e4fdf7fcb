// SPDX-License-Identifier: GPL-2.0
/*
 * csum-bench - csum_partial and ip_fast_csum of every checksum variant
 * that builds for this machine, side by side in one run.
 *
 * Each figure is the median of REPS runs; a run times a batch of calls on
 * one warm buffer with rdtsc (TSC ticks) and CLOCK_MONOTONIC (ns).  The
 * variants take turns inside every run, so that a change of clock speed
 * hits them all alike.  Ratios are against mainline's generic lib/checksum.c.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "variants.h"

DECLARE(mainline);
DECLARE(new);
DECLARE(x86);
DECLARE(arm64);
DECLARE(loongarch);
DECLARE(riscv);

static struct variant {
	const char *name;
	csum_fn csum;
	ipcsum_fn ip;
} all[] = {
	{ "mainline-generic", mainline_csum_partial, mainline_ip_fast_csum },
	{ "new-generic", new_csum_partial, new_ip_fast_csum },
	{ "x86-64", x86_csum_partial, x86_ip_fast_csum },
	{ "arm64-C", arm64_csum_partial, arm64_ip_fast_csum },
	{ "loongarch-C", loongarch_csum_partial, loongarch_ip_fast_csum },
	{ "riscv-C", riscv_csum_partial, riscv_ip_fast_csum },
};

#define MAXV	(sizeof(all) / sizeof(all[0]))
#define MAXREPS	101

static struct variant *v[MAXV];
static unsigned int nv;
static int reps = 21;
static volatile uint32_t sink;

static int sizes[16] = { 20, 40, 64, 256, 576, 1500, 4096, 65536 };
static unsigned int nsizes = 8;
static const int offsets[] = { 0, 1 };
#define NSIZES	(sizeof(sizes) / sizeof(sizes[0]))
#define MAXLEN	65536
#define NOFFS	(sizeof(offsets) / sizeof(offsets[0]))

static inline uint64_t ticks(void)
{
#if defined(__x86_64__) || defined(__i386__)
	return __builtin_ia32_rdtsc();
#else
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ull + ts.tv_nsec;
#endif
}

static uint64_t nsec(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double median(double *x, int n)
{
	qsort(x, n, sizeof(*x), cmp_double);
	return n & 1 ? x[n / 2] : (x[n / 2 - 1] + x[n / 2]) / 2;
}

/* Per call: ticks and ns, medians over the runs. */
struct figure {
	double tk, ns;
};

static void time_csum(unsigned char *buf, int len, struct figure *f)
{
	static double tk[MAXV][MAXREPS], ns[MAXV][MAXREPS];
	long calls = 262144 / len + 64;
	unsigned int i;
	int r;

	for (r = -2; r < reps; r++) {		/* two warm-up runs */
		for (i = 0; i < nv; i++) {
			csum_fn fn = v[i]->csum;
			uint32_t acc = 0;
			uint64_t t0, t1, n0, n1;
			long c;

			n0 = nsec();
			t0 = ticks();
			for (c = 0; c < calls; c++)
				acc += fn(buf, len, 0);
			t1 = ticks();
			n1 = nsec();
			sink += acc;
			if (r < 0)
				continue;
			tk[i][r] = (double)(t1 - t0) / calls;
			ns[i][r] = (double)(n1 - n0) / calls;
		}
	}
	for (i = 0; i < nv; i++) {
		f[i].tk = median(tk[i], reps);
		f[i].ns = median(ns[i], reps);
	}
}

static void time_ip(unsigned char *buf, unsigned int ihl, struct figure *f)
{
	static double tk[MAXV][MAXREPS], ns[MAXV][MAXREPS];
	long calls = 16384;
	unsigned int i;
	int r;

	for (r = -2; r < reps; r++) {
		for (i = 0; i < nv; i++) {
			ipcsum_fn fn = v[i]->ip;
			uint32_t acc = 0;
			uint64_t t0, t1, n0, n1;
			long c;

			n0 = nsec();
			t0 = ticks();
			for (c = 0; c < calls; c++)
				acc += fn(buf, ihl);
			t1 = ticks();
			n1 = nsec();
			sink += acc;
			if (r < 0)
				continue;
			tk[i][r] = (double)(t1 - t0) / calls;
			ns[i][r] = (double)(n1 - n0) / calls;
		}
	}
	for (i = 0; i < nv; i++) {
		f[i].tk = median(tk[i], reps);
		f[i].ns = median(ns[i], reps);
	}
}

/*
 * Core clock cycles per tick: a chain of dependent adds runs at one add a
 * cycle on every x86 since the P6.
 */
static double cycles_per_tick(void)
{
#if defined(__x86_64__)
	double best = 0;
	int r;

	/*
	 * short bursts, the fastest one: other load only slows a burst.  A
	 * chain of register adds, one cycle each: newer cores (Golden Cove
	 * on) fold a chain of immediate adds at rename, several a cycle,
	 * which made this 6.9 "cycles" a tick on a 2.3 GHz Xeon.
	 */
	for (r = 0; r < 200; r++) {
		unsigned long x = 0, n = 4096, one = 1;
		uint64_t t0 = ticks(), t1;

		asm volatile("1:\n\t"
			     ".rept 16\n\t"
			     "addq %2, %0\n\t"
			     ".endr\n\t"
			     "decq %1\n\t"
			     "jnz 1b"
			     : "+r" (x), "+r" (n) : "r" (one));
		t1 = ticks();
		if (65536.0 / (t1 - t0) > best)
			best = 65536.0 / (t1 - t0);
	}
	return best;
#else
	return 0;
#endif
}

static void header(const char *what)
{
	unsigned int i;

	printf("\n%s\n%8s %3s", what, "len", "off");
	for (i = 0; i < nv; i++)
		printf(" %16s", v[i]->name);
	printf("\n");
}

int main(int argc, char **argv)
{
	static struct figure f[NSIZES][NOFFS][MAXV];
	static struct figure ipf[2][MAXV];
	static const unsigned int ihls[] = { 5, 15 };
	unsigned char *mem, *buf;
	double cpt, tsc_ghz;
	uint64_t t0, n0;
	unsigned int i, s, o;

	if (argc > 1)
		reps = atoi(argv[1]);
	if (argc > 2)
		nsizes = 0;
	for (i = 2; i < (unsigned int)argc && nsizes < NSIZES; i++) {
		sizes[nsizes] = atoi(argv[i]);
		if (sizes[nsizes] < 1 || sizes[nsizes] > MAXLEN)
			reps = 0;
		nsizes++;
	}
	if (reps < 1 || reps > MAXREPS) {
		fprintf(stderr, "usage: csum-bench [REPS [LEN...]]: REPS 1 to %d, LEN 1 to %d\n",
			MAXREPS, MAXLEN);
		return 2;
	}
	for (i = 0; i < MAXV; i++)
		if (all[i].csum && all[i].ip)
			v[nv++] = &all[i];

	/* 64-byte aligned, a word of slack each side, same data every run */
	mem = aligned_alloc(64, MAXLEN + 128);
	buf = mem + 64;
	srand(1);
	for (i = 0; i < MAXLEN + 128; i++)
		mem[i] = rand();

	n0 = nsec();
	t0 = ticks();
	cpt = cycles_per_tick();
	tsc_ghz = (double)(ticks() - t0) / (nsec() - n0);

	for (s = 0; s < nsizes; s++)
		for (o = 0; o < NOFFS; o++)
			time_csum(buf + offsets[o], sizes[s], f[s][o]);
	for (s = 0; s < 2; s++)
		time_ip(buf, ihls[s], ipf[s]);

	printf("csum-bench: medians of %d runs; tick = TSC at %.3f GHz", reps,
	       tsc_ghz);
	if (cpt)
		printf(", core ~%.2f cycles/tick (~%.2f GHz)", cpt, cpt * tsc_ghz);
	printf("\n(ratio) = speed against mainline-generic, higher is faster\n");

	header("csum_partial: bytes per tick (ratio)");
	for (s = 0; s < nsizes; s++)
		for (o = 0; o < NOFFS; o++) {
			printf("%8d %3d", sizes[s], offsets[o]);
			for (i = 0; i < nv; i++)
				printf(" %7.2f (%5.2fx)",
				       sizes[s] / f[s][o][i].tk,
				       f[s][o][0].tk / f[s][o][i].tk);
			printf("\n");
		}
	header("csum_partial: ns per call");
	for (s = 0; s < nsizes; s++)
		for (o = 0; o < NOFFS; o++) {
			printf("%8d %3d", sizes[s], offsets[o]);
			for (i = 0; i < nv; i++)
				printf(" %16.2f", f[s][o][i].ns);
			printf("\n");
		}
	header("ip_fast_csum (len = ihl * 4): ticks per call, ns per call (ratio)");
	for (s = 0; s < 2; s++) {
		printf("%8u %3d", ihls[s] * 4, 0);
		for (i = 0; i < nv; i++)
			printf(" %4.1f %4.1f (%4.2fx)", ipf[s][i].tk, ipf[s][i].ns,
			       ipf[s][0].tk / ipf[s][i].tk);
		printf("\n");
	}
	free(mem);
	return 0;
}
