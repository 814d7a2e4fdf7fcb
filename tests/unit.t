#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# tests/unit.t - the unit tests of scripts/seriesci (scripts/seriesci_test.py,
# unittest, as kunit_tool_test.py): failure provenance, merge conflicts and
# sparse joins, reach decisions, the codegen paragraph, the targets reader,
# garbage records, metadata.json, the reproducer (run in a sandbox clone),
# the bisect report, the KCIDB v5 fields, the census grouping (dup-census),
# the abi-report rules, the rebase state's resume, the record writer, the
# steps' fingerprints, --help and exit codes of
# the entry point.  One TAP line per unit test, named Class.test_name: a
# skipped one is TAP's "ok N - ... # SKIP why", an expected failure passes,
# anything else fails; a second or so.  make check-unit runs the same file
# directly, without prove.
. "$(dirname "$0")/tap.sh"

command -v python3 >/dev/null 2>&1 || skip_all "no python3 (make deps)"
python3 -B "$REPO/scripts/seriesci_test.py" -v > "$TMP/log" 2>&1
rc=$?
# unittest -v writes "test_x (__main__.Class.test_x) ... RESULT" a test or,
# when the test has a docstring, "test_x (__main__.Class.test_x)" and then
# the docstring's first line with " ... RESULT"; Python before 3.11 writes
# "(__main__.Class)".  Into $TMP/tests: "Class.test_x<TAB>RESULT" a test.
tab=$(printf '\t')
head=
while IFS= read -r line; do
	if [ -n "$head" ]; then
		res=${line##* ... }
		[ "$res" != "$line" ] || res="no result after the docstring: $line"
	else
		case $line in
		'test'*' ('*') ... '*)
			head="${line%%) ... *})"
			res=${line#*) ... } ;;
		'test'*' ('*')')
			head=$line
			continue ;;
		*)	continue ;;
		esac
	fi
	name=${head%% (*}
	id=${head#* (}
	id=${id%)}
	id=${id#__main__.}
	id=${id#seriesci_test.}
	case $id in *".$name") ;; *) id=$id.$name ;; esac
	printf '%s\t%s\n' "$id" "$res"
	head=
done < "$TMP/log" > "$TMP/tests"
n=$(wc -l < "$TMP/tests")
[ "$n" -gt 0 ] || { plan 1; check "the unit tests run" sh -c "cat '$TMP/log'; false"; exit 1; }
plan $((n + 1))
while IFS=$tab read -r id res; do
	case $res in
	ok)	_result 0 "$id" ;;
	skipped*)
		why=${res#skipped}
		why=${why# }
		why=${why#\'}
		why=${why%\'}
		skip "$id" "${why:-no reason given}" ;;
	'expected failure')
		_result 0 "$id (an expected failure)" ;;
	*)	_result 1 "$id: $res" ;;
	esac
done < "$TMP/tests"
is "$rc" 0 "scripts/seriesci_test.py exits 0"
[ "$rc" -eq 0 ] || sed 's/^/# /' "$TMP/log"
done_testing
