# SPDX-License-Identifier: GPL-2.0
# variants.mk - the checksum implementations, each built from the kernel's
# own files into one object with only <name>_csum_partial and
# <name>_ip_fast_csum global.  Included by csum-bench and csum-test.
#
#   KSRC      the mainline tree to read (default: the pristine baseline)
#   KSRC_NEW  a tree with the series applied; without it, the files the
#             checksum patches touch are copied from KSRC and patched
#             under $(O)/patched
#   O         where the objects go
#   CROSS_COMPILE, STATIC=1   for a static binary of another arch
#   CC, OBJCOPY   another compiler (clang-19 --target=hexagon-linux-musl)
#   ARCH_CFLAGS   the arch's code generation flags (-mcpu=5475,
#             -march=mips32r6 ...), for the variants and the programs
#   UNALIGNED y|n  CONFIG_HAVE_EFFICIENT_UNALIGNED_ACCESS set or not
#             (default: as the kernel selects it, see compat.h)

CSUM_DIR := $(dir $(lastword $(MAKEFILE_LIST)))
REPO     := $(abspath $(CSUM_DIR)../..)
# the default BASE, by the one reader of scripts/baselines
BASE     ?= $(shell PYTHONPATH=$(REPO)/scripts python3 -B -S -m seriesci baseline default)
OUT      ?= $(REPO)/out
KSRC     ?= $(OUT)/src/$(BASE)
PATCHES  ?= $(REPO)/patches
O        ?= $(OUT)/csum
CC       := $(CROSS_COMPILE)gcc
OBJCOPY  := $(CROSS_COMPILE)objcopy
ARCH_CFLAGS ?=
UNALIGNED ?=

# The series' checksum patches, in series order; those not written yet
# are left out.
CSUM_PATCHES := $(wildcard $(addprefix $(PATCHES)/,\
	arm64-csum-fix-ip_fast_csum-carry.patch \
	loongarch-csum-fix-ip_fast_csum-carry.patch \
	lib-checksum-faster-generic-do_csum.patch \
	arm64-csum-use-the-generic-do_csum.patch \
	loongarch-csum-use-the-generic-do_csum.patch))
# The files the variants read from the patched tree.
PATCHED_FILES := lib/checksum.c arch/arm64/include/asm/checksum.h \
	arch/arm64/lib/csum.c arch/loongarch/include/asm/checksum.h \
	arch/loongarch/lib/csum.c

ifeq ($(KSRC_NEW),)
NK       := $(O)/patched
NK_STAMP := $(NK)/.stamp
else
NK       := $(KSRC_NEW)
NK_STAMP := $(addprefix $(NK)/,$(PATCHED_FILES))
endif

# What the compiler targets: x86-64 builds the x86 asm, __int128 the
# arm64 C, little-endian __int128 the loongarch C (it has no big-endian
# code).
PREDEF   := $(shell $(CC) $(ARCH_CFLAGS) -dM -E -x c /dev/null)
HOST_X86 := $(findstring __x86_64__,$(PREDEF))
HOST_128 := $(findstring __SIZEOF_INT128__,$(PREDEF))
HOST_LE  := $(findstring __BYTE_ORDER__ __ORDER_LITTLE_ENDIAN__,$(PREDEF))
HOST_HEXAGON := $(findstring __hexagon__,$(PREDEF))

# The kernel builds without FP/SIMD registers; so do we where GCC can say so.
KFLAGS := $(ARCH_CFLAGS) -O2 -fno-strict-aliasing -fno-common \
	-fvisibility=hidden -Wall -Wno-unused-function \
	$(if $(UNALIGNED),-DCSUM_EFFICIENT_UNALIGNED=$(if $(filter y,$(UNALIGNED)),1,0)) \
	-include $(CSUM_DIR)compat.h \
	-I$(CSUM_DIR)include \
	-DCSUM_GENERIC_H='"$(KSRC)/include/asm-generic/checksum.h"'
ifneq ($(HOST_X86),)
KFLAGS += -mgeneral-regs-only
endif
LDFLAGS_CSUM := $(if $(STATIC),-static)

generic_h = -DCSUM_ARCH_H='"$(KSRC)/include/asm-generic/checksum.h"'
kfile1 = -DKFILE1='"$(1)"'
kfile2 = -DKFILE2='"$(1)"'

VFLAGS_mainline = $(call kfile1,$(KSRC)/lib/checksum.c) $(generic_h)
VFLAGS_new = $(call kfile1,$(NK)/lib/checksum.c) $(generic_h)
VFLAGS_newalign = $(VFLAGS_new) -DCSUM_ALIGNED
VFLAGS_x86 = $(call kfile1,$(KSRC)/arch/x86/lib/csum-partial_64.c) \
	-DCSUM_ARCH_H='"$(KSRC)/arch/x86/include/asm/checksum_64.h"'
VFLAGS_arm64 = $(call kfile1,$(KSRC)/lib/checksum.c) \
	$(call kfile2,$(KSRC)/arch/arm64/lib/csum.c) \
	-DCSUM_ARCH_H='"$(KSRC)/arch/arm64/include/asm/checksum.h"'
VFLAGS_arm64fix = $(call kfile1,$(NK)/lib/checksum.c) \
	$(call kfile2,$(NK)/arch/arm64/lib/csum.c) \
	-DCSUM_ARCH_H='"$(NK)/arch/arm64/include/asm/checksum.h"'
VFLAGS_loongarch = $(call kfile1,$(KSRC)/lib/checksum.c) \
	$(call kfile2,$(KSRC)/arch/loongarch/lib/csum.c) \
	-DCSUM_ARCH_H='"$(KSRC)/arch/loongarch/include/asm/checksum.h"'
VFLAGS_loongarchfix = $(call kfile1,$(NK)/lib/checksum.c) \
	$(call kfile2,$(NK)/arch/loongarch/lib/csum.c) \
	-DCSUM_ARCH_H='"$(NK)/arch/loongarch/include/asm/checksum.h"'
# riscv's do_csum() is portable C (Zbb left out: its fold is asm)
VFLAGS_riscv = $(call kfile1,$(KSRC)/lib/checksum.c) \
	$(call kfile2,$(KSRC)/arch/riscv/lib/csum.c) \
	-DCSUM_ARCH_H='"$(KSRC)/arch/riscv/include/asm/checksum.h"'
# hexagon's do_csum() uses its vector multiply-add builtins
VFLAGS_hexagon = $(call kfile1,$(KSRC)/lib/checksum.c) \
	$(call kfile2,$(KSRC)/arch/hexagon/lib/checksum.c) \
	-DCSUM_ARCH_H='"$(KSRC)/arch/hexagon/include/asm/checksum.h"' \
	-DCSUM_INTRINSICS_H='"$(KSRC)/arch/hexagon/include/asm/intrinsics.h"'

# The variants that build here, and the objects of a list of them.
VARIANTS_ALL := mainline new $(if $(HOST_X86),x86) $(if $(HOST_128),arm64) \
	$(if $(and $(HOST_128),$(HOST_LE)),loongarch) riscv \
	$(if $(HOST_HEXAGON),hexagon)
variant_objs = $(patsubst %,$(O)/v-%.o,$(1))

$(O)/v-%.o: $(CSUM_DIR)variant.c $(CSUM_DIR)compat.h $(NK_STAMP)
	@mkdir -p $(O)
	$(CC) $(KFLAGS) -DVARIANT=$* $(VFLAGS_$*) -c $< -o $@
	$(OBJCOPY) --localize-hidden $@

# The patched files: copies from KSRC with the checksum patches applied.
$(O)/patched/.stamp: $(CSUM_PATCHES) $(addprefix $(KSRC)/,$(PATCHED_FILES))
	rm -rf $(O)/patched
	set -e; for f in $(PATCHED_FILES); do \
		mkdir -p $(O)/patched/$$(dirname $$f); \
		cp $(KSRC)/$$f $(O)/patched/$$f; chmod u+w $(O)/patched/$$f; \
	done; \
	for p in $(CSUM_PATCHES); do \
		patch -s -p1 -d $(O)/patched < $$p; \
	done
	touch $@
