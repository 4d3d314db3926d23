#!/usr/bin/env bash
# Differential test runner: runs every case of tests/diff/*.sh with the host's
# bash 5 and with the natively built shell, comparing stdout, stderr (modulo
# the leading program name) and exit status.
# Usage: run-diff-native.sh [SHELL_BIN] [FILE...]   (-v prints diffs)
set -u
here=$(cd "$(dirname "$0")" && pwd)
verbose=0
if [ "${1:-}" = "-v" ]; then verbose=1; shift; fi
bin=$(realpath "${1:-$here/../../../target/shell/debug/shell}")
shift || true
files=("$@")
[ ${#files[@]} -eq 0 ] && files=("$here"/diff/*.sh)
pass=0; fail=0; failed=()
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
norm() { sed -E 's#^(bash|[^ :]*/shell|shell|sh): #SHELL: #'; }
for f in "${files[@]}"; do
  awk -v dir="$work/cases" -v base="$(basename "$f" .sh)" '
    BEGIN { n = 0; system("mkdir -p " dir) }
    /^#### / { n++; file = sprintf("%s/%s.%03d", dir, base, n); title[n] = substr($0, 6); print substr($0, 6) > (file ".title"); next }
    n > 0 { print > (file ".sh") }
  ' "$f"
done
for c in "$work"/cases/*.sh; do
  name=${c%.sh}; title=$(cat "$name.title")
  for who in ref got; do
    d="$work/run-$who"; rm -rf "$d"; mkdir -p "$d"; cp "$c" "$d/case.sh"
    if [ $who = ref ]; then
      (cd "$d" && HOME="$d" timeout 10 bash --norc --noprofile case.sh </dev/null >"$work/$who.out" 2>"$work/$who.err"; echo $? >"$work/$who.st")
    else
      (cd "$d" && HOME="$d" timeout 10 "$bin" case.sh </dev/null >"$work/$who.out" 2>"$work/$who.err"; echo $? >"$work/$who.st")
    fi
    norm <"$work/$who.err" >"$work/$who.errn"
  done
  if cmp -s "$work/ref.out" "$work/got.out" && cmp -s "$work/ref.errn" "$work/got.errn" && cmp -s "$work/ref.st" "$work/got.st"; then
    pass=$((pass+1))
  else
    fail=$((fail+1)); failed+=("$(basename "$name"): $title")
    if [ $verbose = 1 ]; then
      echo "=== FAIL $(basename "$name"): $title"
      diff <(cat "$work/ref.out"; echo "--- stderr"; cat "$work/ref.errn"; echo "--- status $(cat "$work/ref.st")") \
           <(cat "$work/got.out"; echo "--- stderr"; cat "$work/got.errn"; echo "--- status $(cat "$work/got.st")") | head -20
    fi
  fi
done
total=$((pass+fail))
for x in "${failed[@]+"${failed[@]}"}"; do echo "FAIL $x"; done
echo "passed $pass/$total"
[ $fail -eq 0 ]
