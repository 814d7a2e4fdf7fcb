// SPDX-License-Identifier: GPL-2.0
/*
 * csum-test - csum_partial and ip_fast_csum of the kernel's checksum
 * implementations against a plain RFC 1071 reference.
 *
 * csum_partial: every length 0 to 1500 and 32760 to 32847 (the new
 * generic sums 32 KiB and more in a loop of its own) and 65536, at every
 * offset 0 to 7, on random bytes, all-0xff bytes (every add carries) and
 * mostly-0xff bytes (the running sums sit just under 2^64), with a zero,
 * random or ~0 starting sum.  ip_fast_csum: ihl 5 to 15 at offsets 0 and 4 on the same kinds
 * of data, and, on little-endian, valid IPv4 headers whose first 16
 * bytes add up to just under 2^64, which must all check as 0.
 *
 *   csum-test [-l] [VARIANT[:csum|:ip]]...   (default: all, both)
 * Exit 0 when everything checked passes.
 */
#ifdef CSUM_RT		/* static and freestanding: tools/csum-icount */
#include "../csum-icount/rt.h"
#else
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#endif

#include "../csum-bench/variants.h"

DECLARE(mainline);
DECLARE(new);
DECLARE(newalign);
DECLARE(x86);
DECLARE(arm64);
DECLARE(arm64fix);
DECLARE(loongarch);
DECLARE(loongarchfix);
DECLARE(riscv);
DECLARE(hexagon);

#define V(v)	{ #v, v##_csum_partial, v##_ip_fast_csum }
static const struct variant {
	const char *name;
	csum_fn csum;
	ipcsum_fn ip;
} all[] = {
	V(mainline), V(new), V(newalign), V(x86), V(arm64), V(arm64fix),
	V(loongarch), V(loongarchfix), V(riscv), V(hexagon),
};
#define NV	(sizeof(all) / sizeof(all[0]))

#define MAXLEN	1500		/* every length up to this */
#define LONG_LO	32760		/* and from this */
#define LONG_HI	32848		/* up to this, excluded */
#define BIGLEN	65536		/* and this */
#define SLACK	64
static unsigned char *mem;	/* SLACK + BIGLEN + SLACK, 64-byte aligned */
static int failures;

static uint32_t rnd_state = 2463534242u;

static uint32_t rnd(void)
{
	rnd_state ^= rnd_state << 13;
	rnd_state ^= rnd_state >> 17;
	rnd_state ^= rnd_state << 5;
	return rnd_state;
}

static int big_endian(void)
{
	uint16_t x = 1;

	return *(unsigned char *)&x == 0;
}

/* A 16-bit value as the bytes in memory read as a big-endian number */
static uint16_t be(uint16_t native)
{
	return big_endian() ? native : (uint16_t)(native << 8 | native >> 8);
}

static uint32_t fold(uint64_t s)
{
	while (s >> 16)
		s = (s & 0xffff) + (s >> 16);
	return s;
}

/* Ones' complement zero has two forms; compare modulo 0xffff. */
static uint32_t norm(uint32_t x)
{
	return x == 0xffff ? 0 : x;
}

/* RFC 1071: big-endian 16-bit words, an odd last byte padded with zero */
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

/* the first n bytes of mem */
static void fill(int pattern, int n)
{
	int i;

	for (i = 0; i < n; i++) {
		switch (pattern) {
		case 0:
			mem[i] = rnd();
			break;
		case 1:
			mem[i] = 0xff;
			break;
		default:
			mem[i] = (rnd() & 15) ? 0xff : rnd();
			break;
		}
	}
}

static const char *const pattern_name[] = { "random", "0xff", "mostly-0xff" };

static int test_csum(const struct variant *v)
{
	int pattern, len, off, bad = 0, k = 0;
	uint32_t base[8];

	for (pattern = 0; pattern < 3; pattern++) {
		fill(pattern, SLACK + BIGLEN + SLACK);
		for (len = 0; len <= BIGLEN; len++) {
			if (len == MAXLEN + 1)
				len = LONG_LO;
			else if (len == LONG_HI)
				len = BIGLEN;
			for (off = 0; off < 8; off++) {
				const unsigned char *p = mem + SLACK + off;
				uint32_t init, got, want;

				/* no division: hexagon has no libgcc here */
				k = k == 2 ? 0 : k + 1;
				switch (k) {
				case 0:
					init = 0;
					break;
				case 1:
					init = ~0u;
					break;
				default:
					init = rnd();
					break;
				}
				/* from LONG_LO on, its sum and what follows */
				if (len == LONG_LO)
					base[off] = ref_sum(p, LONG_LO);
				if (len >= LONG_LO && len < LONG_HI)
					want = base[off] + ref_sum(p + LONG_LO,
								   len - LONG_LO);
				else
					want = ref_sum(p, len);
				got = be(fold(v->csum(p, len, init)));
				want = fold((uint64_t)want + be(fold(init)));
				if (norm(got) != norm(want)) {
					bad = 1;
					if (failures++ < 8)
						printf("#   %s csum_partial: %s len %d off %d sum %#x: got %#06x, want %#06x\n",
						       v->name, pattern_name[pattern],
						       len, off, (unsigned int)init,
						       (unsigned int)got,
						       (unsigned int)want);
				}
			}
		}
	}
	return bad;
}

/*
 * Valid IPv4 headers (version 4, ihl 5, DF, TTL 64, UDP, 10.x.191.255 to
 * 198.51.100.254, right checksum) whose first two little-endian 64-bit
 * words add up to just under 2^64: what is added after them carries out.
 */
static int valid_header(unsigned int i, unsigned char *h)
{
	uint32_t sum;

	memset(h, 0, 20);
	h[0] = 0x45;
	h[3] = 0x54 + 4 * (i >> 8);	/* tot_len 84 to 144 */
	h[4] = 0xf5;			/* id 0xf5xx */
	h[5] = i & 0xff;
	h[6] = 0x40;			/* DF */
	h[8] = 64;
	h[9] = 17;
	h[12] = 10;			/* saddr 10.(255 - id_lo).191.255 */
	h[13] = 0xff - h[5];
	h[14] = 0xbf;
	h[15] = 0xff;
	h[16] = 198;
	h[17] = 51;
	h[18] = 100;
	h[19] = 254;
	sum = ref_sum(h, 20);
	h[10] = ~sum >> 8;
	h[11] = ~sum;
	return ref_sum(h, 20) == 0xffff;
}

static int test_ip(const struct variant *v)
{
	unsigned char *h = mem + SLACK;
	unsigned int ihl, off, pattern, i;
	int bad = 0;

	/* the crafted headers add up to just under 2^64 on little-endian */
	for (i = 0; i < 16 * 256 && !big_endian(); i++) {
		uint32_t got;
		int j;

		if (!valid_header(i, h))
			continue;
		got = v->ip(h, 5);
		if (!norm(got))
			continue;
		bad = 1;
		if (failures++ >= 8)
			continue;
		printf("#   %s ip_fast_csum: %#06x for the valid header",
		       v->name, (unsigned int)got);
		for (j = 0; j < 20; j++)
			printf(" %02x", h[j]);
		printf("\n");
	}
	for (pattern = 0; pattern < 3; pattern++)
		for (i = 0; i < 2000; i++) {
			/* a header of ihl 15 at offset 4, not all of mem */
			fill(pattern, SLACK + 4 + 15 * 4);
			for (ihl = 5; ihl <= 15; ihl++)
				for (off = 0; off <= 4; off += 4) {
					const unsigned char *p = h + off;
					uint32_t got = be(v->ip(p, ihl));
					uint32_t want = ~ref_sum(p, ihl * 4) & 0xffff;

					if (norm(got) == norm(want))
						continue;
					bad = 1;
					if (failures++ < 8)
						printf("#   %s ip_fast_csum: %s ihl %u off %u: got %#06x, want %#06x\n",
						       v->name, pattern_name[pattern],
						       ihl, off, (unsigned int)got,
						       (unsigned int)want);
				}
			if (pattern == 1)
				break;
		}
	return bad;
}

int main(int argc, char **argv)
{
	int i, bad = 0, list = 0, nargs = 0;
	unsigned int k;

	mem = aligned_alloc(64, SLACK + BIGLEN + SLACK);
	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-l"))
			list = 1;
		else
			nargs++;
	}
	if (list) {
		for (k = 0; k < NV; k++)
			if (all[k].csum && all[k].ip)
				printf("%s\n", all[k].name);
		return 0;
	}
	for (k = 0; k < NV; k++) {
		const struct variant *v = &all[k];
		int do_csum = !nargs, do_ip = !nargs;

		if (!v->csum || !v->ip)
			continue;
		for (i = 1; i < argc; i++) {
			size_t n = strlen(v->name);

			if (strncmp(argv[i], v->name, n))
				continue;
			if (!argv[i][n] || !strcmp(argv[i] + n, ":csum"))
				do_csum = 1;
			if (!argv[i][n] || !strcmp(argv[i] + n, ":ip"))
				do_ip = 1;
		}
		if (do_csum) {
			int b;

			failures = 0;
			b = test_csum(v);

			printf("%s %s csum_partial\n", b ? "FAIL" : "ok  ", v->name);
			bad |= b;
		}
		if (do_ip) {
			int b;

			failures = 0;
			b = test_ip(v);

			printf("%s %s ip_fast_csum\n", b ? "FAIL" : "ok  ", v->name);
			bad |= b;
		}
	}
	free(mem);
	return bad;
}
