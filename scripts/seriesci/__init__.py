# SPDX-License-Identifier: GPL-2.0
"""seriesci: the data programs of the asm-generic series, one module a stage.

Like the kernel's kunit_tool (tools/testing/kunit): the shell in scripts/
sequences apt, quilt, make, QEMU and git; the programs that hold a data
model live here, behind one entry point (python3 -m seriesci, see cli.py):

  common    exit codes, errors, the Kbuild-style step line
  targets   configs/targets, the one reader of it
  record    the ci-series record folder: the one reader and writer
            (record write: the shell's key=value files)
  render    results.json (json.dumps), results.md, results.html, and per
            build cell metadata.py's and repro.py's files
  metadata  TARGET.metadata.json of a build cell (tuxmake's field names)
  repro     TARGET.reproduce.sh of a failing cell (clean Debian 12 machine)
  report    the per-commit bisect report per destination (0-day style)
  kcidb     a whole run as KernelCI KCIDB v5 JSON
  merge     merge-results: shards into one record, with its conflict rules
  reach     can a change since a kept build reach it (Kbuild's .cmd files)
  proof     codegen-proof: the generated-code paragraph of a patch
  abi       abi-report: how each arch deviates from the canonical ABI
  rebase_state  scripts/rebase's state, results and report (rebase-state)
  census    dup-census: the census of duplicated arch headers, and --raw
  steps     compare-steps: new_warnings=, undecided_warnings= and codegen=
            of each step's targets against the step before (ci-series'
            compare_steps); sticky: what ci-series --down rebuilds at a
            step for the warnings of the steps above it
  fingerprint  what decides a ci-series step: which done steps a run may
            keep, and whether a ci-columns column is still done

Standard library only (Debian 12's python3, 3.11).  The old command names
in scripts/ are thin wrappers that run a subcommand of this package.
"""
