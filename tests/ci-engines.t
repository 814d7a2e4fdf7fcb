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
# its own machine.  The check job is only listed: it is make check.
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
plan 14

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
printf '#!/bin/sh\necho "apt-get $*" >> "%s/apt-get.called"\n' "$TMP" > "$TMP/bin/apt-get"
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
done_testing
