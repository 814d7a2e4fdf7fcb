#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# tests/ci-engines.t - the CI definitions where the engines read them:
# every workflow of .github/workflows/ passes action-validator (GitHub's
# workflow schema, jobs that need jobs that exist), and the GitLab
# pipeline (.gitlab-ci.yml, which includes ci/gitlab-ci.yml) runs for
# real in gitlab-ci-local with the shell executor: its shard jobs, two
# of them here (the pipeline's own file included, parallel: 2 put over
# it as GitLab merges an including file's keys), and its merge job
# (pages), on the mini fixture series with two targets whose cross
# compiler does not exist (no kernel make runs, as in
# tests/build-ci-series.t).  The merged matrix must equal that of one
# ci-series run over both targets: results.json but for its times
# (generated, each cell's wall), and results.md.  The jobs' apt-get is a
# stand-in that only notes its call; `make deps` runs as written (all
# packages are there after make deps).  The two shards share this
# machine's OUT (one waits for the other's lock), where GitLab gives each
# its own machine.  The check job is only listed: it is make check.  The
# nightly job is in scheduled pipelines only (and alone there): it runs
# for real as one (CI_PIPELINE_SOURCE=schedule), make nightly on a
# stand-in archive offering 9.9.2 (passes, the dated report its artifact)
# and then 9.9.3, on which a patch conflicts (fails).
# Both tools are the pinned versions scripts/deps installs into
# $OUT/npm (scripts/npm/); missing after `make deps`, they fail this test
# rather than skip it.
. "$(dirname "$0")/tap.sh"
. "$T_DIR/mini.sh"

# where scripts/deps put the tools; exported so that the jobs' make deps
# finds them there too (mini_setup moves OUT)
NPM_TOOLS=${NPM_TOOLS:-$OUT/npm}
export NPM_TOOLS
NPM_BIN=$NPM_TOOLS/node_modules/.bin
plan 21

# the tools: there, and the pinned versions
have_tools=1
for t in action-validator gitlab-ci-local; do
	if [ -x "$NPM_BIN/$t" ]; then
		_result 0 "$t is installed in $NPM_BIN (make deps)"
	else
		_result 1 "$t is installed in $NPM_BIN (make deps)"
		echo "#   missing: run make deps (scripts/deps installs scripts/npm/ into \$OUT/npm)"
		have_tools=
	fi
done
if [ -z "$have_tools" ]; then
	while [ "$T_NUM" -lt 14 ]; do _result 1 "not run: the npm tools are missing"; done
	done_testing
	exit
fi

# GitHub: every workflow validates, and the validator can fail
nwf=0
for f in "$REPO"/.github/workflows/*.yml; do
	nwf=$((nwf + 1))
	"$NPM_BIN/action-validator" "$f" > "$TMP/av.log" 2>&1 || { sed 's/^/# /' "$TMP/av.log" | head -n 40; echo "# in $f"; nwf=-999; }
done
isnt "$([ "$nwf" -ge 2 ] && echo valid)" "" "the $nwf workflows of .github/workflows/ pass action-validator"
sed 's/runs-on:/runs_on:/' "$REPO/.github/workflows/build-all.yml" > "$TMP/bad.yml"
fails "a workflow with a misspelt key does not" "$NPM_BIN/action-validator" "$TMP/bad.yml"

# GitLab: a copy of the project as a git repository (gitlab-ci-local
# reads the commit), the pipeline with two shards
mini_setup
P=$TMP/proj
mkdir -p "$P"
cp -a "$REPO/Makefile" "$REPO/.gitlab-ci.yml" "$REPO/ci" "$REPO/.ci" "$REPO/scripts" "$P/"
rm -rf "$P/scripts/seriesci/__pycache__"
cat > "$P/two-shards.yml" <<'EOF'
include:
  - local: .gitlab-ci.yml
shard:
  parallel: 2
EOF
cat > "$P/misspelt.yml" <<'EOF'
include:
  - local: .gitlab-ci.yml
shard:
  artefacts:
    paths: [out/]
EOF
(cd "$P" && git init -q && git add -A && git -c user.name=t -c user.email=t@t commit -qm t) ||
	{ echo "Bail out! cannot make the project copy"; exit 1; }

# the fixture series as ci-series sees it in the other tests: a tree
# with a checkpatch stand-in, a boot stand-in, two targets that fail at
# the toolchain
printf '#!/bin/sh\necho "example: reached /init" > "$2"\n' > "$TMP/boot"
chmod +x "$TMP/boot"
"$REPO/scripts/tree" > "$TMP/tree.log" 2>&1 || { sed 's/^/# /' "$TMP/tree.log"; echo "Bail out! make tree"; exit 1; }
mkdir -p "$TREE/scripts" "$TMP/configs" "$TMP/bin"
printf '#!/bin/sh\necho "total: 0 errors, 0 warnings, 0 checks"\n' > "$TREE/scripts/checkpatch.pl"
chmod +x "$TREE/scripts/checkpatch.pl"
: > "$TMP/configs/base.config"
printf 'a alpha nosuch-linux-gnu- quick\nb beta nosuch-linux-gnu- quick\n' > "$TMP/configs/targets"
: > "$TMP/configs/a.config"
: > "$TMP/configs/b.config"
# a stand-in apt-get for the jobs' own lines; the project's apt (its -o
# options, on the stand-in archive) goes to the real one
printf '#!/bin/sh\ncase $1 in -o) exec /usr/bin/apt-get "$@" ;; esac\necho "apt-get $*" >> "%s/apt-get.called"\n' "$TMP" > "$TMP/bin/apt-get"
chmod +x "$TMP/bin/apt-get"
BOOT_EXAMPLE=$TMP/boot CONFIGS=$TMP/configs KBUILD_LOCK=$TMP/lock
export BOOT_EXAMPLE CONFIGS KBUILD_LOCK
unset KBUILD_LOCK_HELD TARGETS TIER SHARD RECORD

# gcl ARG...: gitlab-ci-local in the project copy
gcl() {
	(cd "$P" && "$NPM_BIN/gitlab-ci-local" "$@")
}
check "gitlab-ci-local lists the pipeline's jobs (.gitlab-ci.yml as GitLab reads it)" \
	gcl --list
list=$(cat "$TMP/.out")
like "$list" "^check +test " "the test job is there"
like "$(echo "$list" | grep -c '^shard: \[[1-4]/4\] *build ')$(echo "$list" | grep '^pages ')" \
	"^4pages +results +always " "and four shards, then pages (when: always)"
gcl --file misspelt.yml --list > "$TMP/bad.log" 2>&1 && rc=0 || rc=$?
like "exit $rc: $(grep "artefacts" "$TMP/bad.log")" "^exit [1-9].*'artefacts' property is not expected" \
	"gitlab-ci-local refuses a misspelt key (GitLab's schema)"

start=$(date +%s)
# (a hung pipeline ends in 10 min and fails)
(cd "$P" && PATH=$TMP/bin:$PATH timeout 600 "$NPM_BIN/gitlab-ci-local" --file two-shards.yml \
	--force-shell-executor --no-color shard pages) > "$TMP/gcl.log" 2>&1
rc=$?
echo "# gitlab-ci-local shard pages: exit $rc, $(($(date +%s) - start)) s"
log=$(sed 's/\x1b\[[0-9;]*m//g' "$TMP/gcl.log")
if printf '%s\n' "$log" | grep -q '^ *PASS  *pages' &&
   printf '%s\n' "$log" | grep -q '^ *FAIL  *shard: \[1/2\]' &&
   printf '%s\n' "$log" | grep -q '^ *FAIL  *shard: \[2/2\]' && [ $rc -ne 0 ]; then
	_result 0 "the pipeline ran shard [1/2], shard [2/2] (failed: the targets fail) and pages (when: always)"
else
	_result 1 "the pipeline ran shard [1/2], shard [2/2] (failed: the targets fail) and pages (when: always)"
	echo "#   exit $rc"
	printf '%s\n' "$log" | tail -n 40 | sed 's/^/#   /'
fi
is "$(grep -c "^apt-get install" "$TMP/apt-get.called" 2>/dev/null)" 3 "the jobs' own lines ran (their apt-get install: 2 shards and pages)"
# targets_of RECORD: the targets a record's results.json has cells of
targets_of() {
	python3 -c '
import json, sys
d = json.load(open(sys.argv[1] + "/results.json"))
print(" ".join(sorted({t for s in d["steps"] for t in s.get("targets", {})})))' "$1" 2>&1
}
is "$(targets_of "$P/out/shard-1") / $(targets_of "$P/out/shard-2")" "a / b" \
	"each shard built its share of the targets (SHARD=\$CI_NODE_INDEX/\$CI_NODE_TOTAL)"
is "$(sed -n 's/^merged=//p' "$P/public/info")" "1/2 2/2" "pages merged both shards' artifacts into public/"

# the same series in one ci-series run: the same matrix
RECORD=$TMP/single "$REPO/scripts/ci-series" > "$TMP/single.log" 2>&1
# matrix RECORD: results.json without the times, which no two runs share:
# when it was written, and each cell's wall time
matrix() {
	python3 -c '
import json, sys
def strip(x):
    if isinstance(x, dict):
        return {k: strip(v) for k, v in x.items() if k not in ("generated", "wall")}
    if isinstance(x, list):
        return [strip(v) for v in x]
    return x
d = strip(json.load(open(sys.argv[1] + "/results.json")))
print(json.dumps(d, indent=1, sort_keys=True))' "$1" 2>&1
}
matrix "$P/public" > "$TMP/merged.json"
matrix "$TMP/single" > "$TMP/single.json"
check "the merged results.json is the single run's (but for its times)" diff -u "$TMP/single.json" "$TMP/merged.json"
check "and so is results.md" diff -u "$TMP/single/results.md" "$P/public/results.md"

# The nightly job: only in scheduled pipelines, and there alone.
like "$(grep -c '^nightly ' "$TMP/.out" 2>/dev/null; echo "$list" | grep -c '^nightly ')" "^0" \
	"a push pipeline has no nightly job"
gcl --variable CI_PIPELINE_SOURCE=schedule --list > "$TMP/sched.list" 2>&1
is "$(sed 's/\x1b\[[0-9;]*m//g' "$TMP/sched.list" | awk '/^(check|shard|pages|nightly)/ { print $1 }' | tr '\n' ' ')" \
	"nightly " "a scheduled pipeline has the nightly job and no other"
# It runs make nightly for real against a stand-in archive that offers a
# newer version (9.9.2, alpha's Kbuild moved: an offset), with a stand-in
# build, and keeps the dated report as its artifact.
cp -a "$T_DIR/fixtures/mini/tree" "$TMP/v2"
k=$TMP/v2/arch/alpha/include/asm/Kbuild
{ printf '# alpha headers\n#\n'; cat "$k"; } > "$k.new" && mv "$k.new" "$k"
mini_baseline 9.9.2 "$TMP/v2"
. "$T_DIR/archive.sh"
archive_setup
archive_put unstable "$OUT/dl/linux-source-9.9_9.9.1-1_all.deb"
archive_put experimental "$OUT/dl/linux-source-9.9_9.9.2-1_all.deb"
NIGHTLY_OUT=$P/out/nightly
NIGHTLY_BUILD='echo "build-all: 1/1 ok in 0s"'
export NIGHTLY_OUT NIGHTLY_BUILD
(cd "$P" && PATH=$TMP/bin:$PATH timeout 600 "$NPM_BIN/gitlab-ci-local" --force-shell-executor --no-color \
	--variable CI_PIPELINE_SOURCE=schedule --variable NIGHTLY_DEPS=true nightly) > "$TMP/night.log" 2>&1
rc=$?
like "$rc $(sed 's/\x1b\[[0-9;]*m//g' "$TMP/night.log" | grep -E '^ *(PASS|FAIL) +nightly')" "^0 +PASS +nightly" \
	"the scheduled pipeline runs make nightly, and it passes"
like "$(cat "$NIGHTLY_OUT/latest.md" 2>/dev/null)" "Rebase: \\*\\*done\\*\\*; 2 patches: 1 clean, 1 offset" \
	"its dated report says what the rebase onto 9.9.2 did"
check "and the report is the job's artifact" sh -c "ls '$P'/.gitlab-ci-local/artifacts/nightly/out/nightly/reports/*-9.9.2.md"
# A newer version on which a patch conflicts (9.9.3 changes alpha's
# param.h, which alpha-param.patch deletes): the job fails, visibly.
cp -a "$T_DIR/fixtures/mini/tree" "$TMP/v3"
sed -i 's/HZ 100/HZ 250/' "$TMP/v3/arch/alpha/include/asm/param.h"
mini_baseline 9.9.3 "$TMP/v3"
archive_put experimental "$OUT/dl/linux-source-9.9_9.9.3-1_all.deb"
(cd "$P" && PATH=$TMP/bin:$PATH timeout 600 "$NPM_BIN/gitlab-ci-local" --force-shell-executor --no-color \
	--variable CI_PIPELINE_SOURCE=schedule --variable NIGHTLY_DEPS=true nightly) > "$TMP/night3.log" 2>&1
rc=$?
like "$rc $(sed 's/\x1b\[[0-9;]*m//g' "$TMP/night3.log" | grep -E '^ *(PASS|FAIL) +nightly')" "^[1-9][0-9]* +FAIL +nightly" \
	"a conflict on the newest version fails the scheduled job"
like "$(cat "$NIGHTLY_OUT/latest.md" 2>/dev/null)" "conflict.*alpha-param.patch|alpha-param.patch.*conflict" \
	"and its report names the patch"
done_testing
