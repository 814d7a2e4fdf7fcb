// SPDX-License-Identifier: GPL-2.0
/*
 * csum-icount - one csum_partial() call per variant, length and offset,
 * each preceded by a call of csum_mark(), for counting the instructions
 * that each call executes under qemu-user (scripts/csum-icount).
 *
 * Every variant's code is in a section of its own, csum_text_<variant>:
 * the script traces the program with QEMU's -singlestep -d exec,nochain
 * and a -dfilter of csum_mark() and those sections, and counts the
 * instructions of a variant between two csum_mark()s.  The program then
 * prints, in the order of the calls, "variant len off sum ok|BAD", the
 * sum checked against an RFC 1071 reference.
 *
 *   csum-icount [LEN...]   (default: 20 40 64 256 576 1500 4096 65536)
 */
#include "rt.h"
#include "../csum-bench/variants.h"

DECLARE(mainline);
DECLARE(new);
DECLARE(x86);
DECLARE(arm64);
DECLARE(loongarch);
DECLARE(riscv);
DECLARE(hexagon);

#define V(v)	{ #v, v##_csum_partial }
static const struct {
	const char *name;
	csum_fn csum;
} all[] = {
	V(mainline), V(new), V(x86), V(arm64), V(loongarch), V(riscv),
	V(hexagon),
};
#define NV	(sizeof(all) / sizeof(all[0]))

#define MAXLEN	65536
#define MAXN	16

static int lens[MAXN] = { 20, 40, 64, 256, 576, 1500, 4096, 65536 };
static int nlens = 8;
static const int offs[] = { 0, 1 };
#define NOFFS	(sizeof(offs) / sizeof(offs[0]))

static uint32_t sums[NV][MAXN][NOFFS];

/* Where the trace of one call starts: an instruction, never inlined. */
__attribute__((__noinline__)) void csum_mark(void)
{
	asm volatile("" : : : "memory");
}

static uint32_t rnd_state = 2463534242u;

static uint32_t rnd(void)
{
	rnd_state ^= rnd_state << 13;
	rnd_state ^= rnd_state >> 17;
	rnd_state ^= rnd_state << 5;
	return rnd_state;
}

/* RFC 1071 over big-endian 16-bit words, folded to 16 bits */
static uint32_t fold(uint64_t s)
{
	while (s >> 16)
		s = (s & 0xffff) + (s >> 16);
	return s;
}

static uint32_t ref_sum(const unsigned char *p, int len)
{
	uint64_t s = 0;
	int i;

	for (i = 0; i + 1 < len; i += 2)
		s += (uint32_t)p[i] << 8 | p[i + 1];
	if (len & 1)
		s += (uint32_t)p[len - 1] << 8;
	return fold(s);
}

static int big_endian(void)
{
	uint16_t x = 1;

	return *(unsigned char *)&x == 0;
}

int main(int argc, char **argv)
{
	unsigned char *mem = aligned_alloc(64, MAXLEN + 128);
	unsigned int v, o;
	int i, bad = 0;

	if (!mem)
		return 2;
	if (argc > 1)
		nlens = 0;
	for (i = 1; i < argc && nlens < MAXN; i++) {
		lens[nlens] = atoi(argv[i]);
		if (lens[nlens] < 0 || lens[nlens] > MAXLEN)
			return 2;
		nlens++;
	}
	for (i = 0; i < MAXLEN + 128; i++)
		mem[i] = rnd();

	for (v = 0; v < NV; v++) {
		if (!all[v].csum)
			continue;
		for (i = 0; i < nlens; i++)
			for (o = 0; o < NOFFS; o++) {
				csum_mark();
				sums[v][i][o] = all[v].csum(mem + 64 + offs[o],
							    lens[i], 0);
			}
	}
	csum_mark();

	for (v = 0; v < NV; v++) {
		if (!all[v].csum)
			continue;
		for (i = 0; i < nlens; i++)
			for (o = 0; o < NOFFS; o++) {
				uint32_t got = fold(sums[v][i][o]);
				uint32_t want = ref_sum(mem + 64 + offs[o], lens[i]);
				int ok;

				if (!big_endian())
					got = (got << 8 | got >> 8) & 0xffff;
				ok = (got == 0xffff ? 0 : got) ==
				     (want == 0xffff ? 0 : want);
				bad |= !ok;
				printf("%s %d %d %#06x %s\n", all[v].name, lens[i],
				       offs[o], (unsigned int)got, ok ? "ok" : "BAD");
			}
	}
	return bad;
}
