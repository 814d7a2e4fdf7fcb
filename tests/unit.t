#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# tests/unit.t - the unit tests of scripts/seriesci (scripts/seriesci_test.py,
# unittest, as kunit_tool_test.py): failure provenance, merge conflicts and
# sparse joins, reach decisions, the codegen paragraph, the targets reader,
# garbage records, metadata.json, the reproducer (run in a sandbox clone),
# the bisect report, the KCIDB v5 fields, the census grouping (dup-census),
# the abi-report rules, the rebase state's resume, the record writer, the
# steps' fingerprints, --help and exit codes of
# the entry point.  One TAP line per unit test;
# a second or so.
. "$(dirname "$0")/tap.sh"

command -v python3 >/dev/null 2>&1 || skip_all "no python3 (make deps)"
python3 -B "$REPO/scripts/seriesci_test.py" -v > "$TMP/log" 2>&1
rc=$?
# "test_x (seriesci_test.Class.test_x) ... ok": a line each
n=$(grep -c ' \.\.\. ' "$TMP/log")
[ "$n" -gt 0 ] || { plan 1; check "the unit tests run" sh -c "cat '$TMP/log'; false"; exit 1; }
plan $((n + 1))
grep ' \.\.\. ' "$TMP/log" > "$TMP/tests"
while read -r name cls rest; do
	case $rest in
	*'skipped'*) rest='... ok' ;;
	esac
	is "${rest##*... }" ok "$cls $name"
done < "$TMP/tests"
is "$rc" 0 "scripts/seriesci_test.py exits 0"
[ "$rc" -eq 0 ] || sed 's/^/# /' "$TMP/log"
done_testing
