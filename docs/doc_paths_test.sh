#!/usr/bin/env bash
# Every repository path the user documentation names exists in the
# repository: in each Markdown file given, any word that starts with a
# top-level entry of the repository (gevo/..., bench-results/..., docs/...)
# and every relative link target must name a file or folder that is there
# and not git-ignored (a run directory on someone's disk is not in the
# repository). `*` and `<word>` match any name; one match is enough. An
# `#include` line is left out: it may name a header the build generates.
#   doc_paths_test.sh README.md BENCHMARKS.md docs/search.md ...
# README.md comes first: the repository root is where it really lies.
set -euo pipefail
(($# > 0)) || { echo "usage: doc_paths_test.sh README.md [FILE.md...]" >&2; exit 2; }
root=$(dirname "$(readlink -f "$1")")
[[ -f "$root/WORKSPACE" ]] || { echo "$root: not the repository root" >&2; exit 2; }
git_ok=0
git -C "$root" rev-parse --is-inside-work-tree >/dev/null 2>&1 && git_ok=1
top=()
# Top-level entries the repository keeps: bazel-* links and git-ignored
# folders (gevo-runs/, which the README's search leaves) are not among them.
for entry in "$root"/*; do
  name=${entry##*/}
  [[ $name == bazel-* ]] && continue
  ((git_ok)) && git -C "$root" check-ignore -q "$name" && continue
  top+=("$name")
done

# Whether repository path $1 (relative to the root) is there and kept.
exists() {
  local path=${1%/} matches=() m
  shopt -s nullglob
  # shellcheck disable=SC2206 # $path is a pattern on purpose.
  matches=("$root"/$path)
  shopt -u nullglob
  for m in "${matches[@]}"; do
    # A pattern without wildcards stays as it is, whether it exists or not.
    [[ -e $m ]] || continue
    ((git_ok)) || return 0
    git -C "$root" check-ignore -q "${m#"$root"/}" || return 0
  done
  return 1
}

# The words of file $1 that look like repository paths, one a line (a
# trailing ':word', as in path:line or a flag's workload:kind, is not part of
# the path).
words() {
  grep -v '#include' "$1" | sed -E 's/<[A-Za-z_-]+>/*/g' | tr -s ' \t`"()[]{},;=|'"'" '\n' |
    sed -E 's/:[A-Za-z0-9_]+$//; s/[.:]+$//' | grep -E '^[A-Za-z0-9_.-]+/' | sort -u
}

# Relative link targets of file $1, resolved against its folder.
links() {
  local dir
  dir=$(dirname "$1")
  grep -oE '\]\([^)[:space:]]+\)' "$1" | sed -E 's/^\]\(//; s/\)$//; s/#.*//' |
    grep -vE '^(https?:|mailto:|$)' | while read -r target; do
    realpath -m --relative-to="$root" "$root/$dir/$target"
  done | sort -u
}

missing=0
for md in "$@"; do
  rel=$(realpath -m --relative-to="$root" "$(readlink -f "$md")")
  [[ -f "$root/$rel" ]] || { echo "$md: not in the repository" >&2; exit 2; }
  while read -r word; do
    first=${word%%/*}
    [[ " ${top[*]} " == *" $first "* ]] || continue
    exists "$word" || { echo "$rel names $word, which is not in the repository"; missing=1; }
  done < <(words "$root/$rel")
  while read -r target; do
    exists "$target" || { echo "$rel links $target, which is not in the repository"; missing=1; }
  done < <(links "$rel")
done
((missing == 0)) && echo "every path named in $# files is in the repository"
exit $missing
