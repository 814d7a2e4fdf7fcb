# SPDX-License-Identifier: GPL-2.0
# The asm-generic series: thin entry points, the work lives in scripts/.
# make help lists the targets.

OUT  ?= $(CURDIR)/out
# BASE: the kernel version to work on; when not given, the scripts take
# the first pin of scripts/baselines (scripts/fetch-baseline --resolve)
export OUT
ifneq ($(BASE),)
export BASE
endif
# LINUX_GIT: a clone of Linux whose commit BASE (a tag, branch or commit)
# is the baseline instead of Debian's package (Documentation/workflow.md)
ifneq ($(LINUX_GIT),)
export LINUX_GIT
endif

Q ?=

# The tests in tiers: make check-unit, the unit tests of scripts/seriesci
# (seconds); make check-fixtures, the TAP tests of tests/ that need no
# kernel baseline (fixtures and stand-ins; abi-check, dup-census and check
# skip their baseline parts when it is not unpacked); make check, all of
# tests/.  KERNEL_TESTS: the files that read, build or boot the baseline.
KERNEL_TESTS := abi-report arch-coverage boot-example build-config canonical-abi \
	canonical-abi-headers ci-quick csum csum-bench rebase-real series sockios
FIXTURE_TESTS = $(filter-out $(KERNEL_TESTS:%=tests/%.t),$(sort $(wildcard tests/*.t)))

.PHONY: all deps tree boot push pop top refresh applied lint export results check check-unit check-fixtures \
	help rebase nightly submit-check \
	ci-quick ci-full ci-columns bench-ci toolchains

all: boot

deps:
	@scripts/deps

tree:
	@scripts/tree

# arch/example: build it, boot it in QEMU (64 and 512 MiB, then KUnit)
boot: tree
	@scripts/boot-example --kunit

push:
	@scripts/push $(Q)

pop:
	@scripts/q pop $(Q)

top:
	@scripts/q top

refresh:
	@scripts/q refresh $(Q)

applied:
	@scripts/q applied

lint:
	@scripts/lint

export:
	@scripts/export

rebase:
	@scripts/rebase $(if $(CONTINUE),--continue)$(if $(ABORT), --abort)

nightly:
	@scripts/nightly

submit-check:
	@scripts/submit-check

results:
	@scripts/results $(RECORD)

check:
	@scripts/check

# python3 -B scripts/seriesci_test.py -h: Q="-v", Q="-k reach"
check-unit:
	@python3 -B scripts/seriesci_test.py $(Q)

check-fixtures:
	$(foreach t,$(KERNEL_TESTS),$(if $(wildcard tests/$(t).t),,$(error KERNEL_TESTS names tests/$(t).t, which does not exist)))
	@prove --timer $(Q) $(FIXTURE_TESTS)

# per-patch CI: every target of a tier after every patch (configs/targets)
ci-quick:
	@TIER=quick RECORD=$(OUT)/ci/$${BASE:-$$(scripts/fetch-baseline --resolve)}-quick scripts/ci-series $(Q)

ci-full:
	@scripts/ci-series --down $(Q)

# the cross compilers of the TOOLCHAIN=crosstool targets (csky, microblaze,
# nios2, xtensa): about 20 minutes each on 2 cores, made once
toolchains:
	@scripts/crosstool all

# the same matrix one target column at a time, resumable across sessions
ci-columns:
	@scripts/ci-columns $(TARGETS)

bench-ci:
	@scripts/bench-ci $(Q)

help:
	@echo 'make [all]       fetch the baseline (BASE=$(or $(BASE),the first pin of scripts/baselines)), apply the series ($(OUT)/linux-BASE),'
	@echo '                 build arch/example and boot it in QEMU (make boot)'
	@echo 'make boot        build and boot arch/example (scripts/boot-example --kunit)'
	@echo 'make deps        install the Debian packages (scripts/packages), the toolchain runtimes and the npm tools of make check (scripts/npm, into $(OUT)/npm)'
	@echo 'make tree        fetch and apply only; BASE=6.12.117 picks another baseline'
	@echo 'make push|pop    quilt push/pop in the tree (Q="-a" or Q=PATCH for more)'
	@echo 'make top|applied|refresh   quilt top, applied, refresh'
	@echo 'make lint        series, headers, fuzz-free apply, checkpatch --strict'
	@echo 'make export      one series a destination of the series file, b4 mails under $(OUT)/export/BASE/DEST (SENDER=, ALLOW_DIRTY=1)'
	@echo 'make rebase BASE=V   move the series onto V, classify and refresh (CONTINUE=1 after a conflict, ABORT=1 back to before it)'
	@echo 'make nightly     rebase a copy onto the newest baseline offered, quick build, dated report'
	@echo 'make submit-check   the export as mailed: checkpatch, a build of each commit, recipients, b4 am'
	@echo 'make results     results.json/.md/.html of the ci-series record $(OUT)/ci/$(BASE) (or RECORD=DIR)'
	@echo 'make check       the tests (prove tests/), with the quick tier of per-patch CI at the top two steps'
	@echo 'make check-unit  the unit tests of scripts/seriesci only (scripts/seriesci_test.py, seconds; Q="-v", Q="-k NAME")'
	@echo 'make check-fixtures   the tests that need no kernel baseline: tests/ but KERNEL_TESTS (about 8 min; Q=-v)'
	@echo 'make ci-quick    the quick tier after every patch (x86_64, m68k, example): $(OUT)/ci/$(BASE)-quick'
	@echo 'make ci-full     every target after every patch: $(OUT)/ci/$(BASE)/results.html (Q=--restart)'
	@echo 'make toolchains  the cross gcc of csky, microblaze, nios2 and xtensa (scripts/crosstool all; once, about 80 min)'
	@echo 'make ci-columns  the same one target column at a time, resumable: $(OUT)/ci/BASE-full/TARGET (TARGETS=a b)'
	@echo 'make bench-ci    cold build-all vs the per-patch run, and their ratio (TIER=quick for the quick tier)'
