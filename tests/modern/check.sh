#!/bin/sh
# check.sh WARPLENS TESTDIR CASE: CLI checks of the modern-CUDA work (issue 9) that need nvcc.
#  isolation: a suite with two launches that cannot be analyzed (a compile error, an unknown
#    kernel) between two good ones exits 2, names each error (file, line, token), and the JSON
#    still holds all four launches in order, the good ones with their results and checks.
#  assert: a failing assert in block 1, thread 13 fails the launch with the GPU's message
#    (file:line: function: block: [1,0,0], thread: [13,0,0] Assertion `in[i] == i` failed.).
set -u
wl=$1 dir=$2 case=$3
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; echo "--- stderr:"; cat "$tmp/err"; exit 1; }
case $case in
isolation)
  "$wl" suite "$dir/isolation.json" --format json -o "$tmp/out.json" 2>"$tmp/err"
  rc=$?
  [ $rc -eq 2 ] || fail "exit status $rc, expected 2"
  grep -q "does_not_compile: NOT ANALYZED: .*broken.cu: nvcc -ptx failed" "$tmp/err" &&
    grep -q "broken.cu(4): error: identifier \"undeclaredThing\" is undefined" "$tmp/err" ||
    fail "compile error not reported with file, line and token"
  grep -q "no_such_kernel: NOT ANALYZED: .*noSuchKernel" "$tmp/err" || fail "unknown kernel not reported"
  grep -q "2 launch(es) could not be analyzed" "$tmp/err" || fail "summary line"
  python3 - "$tmp/out.json" <<'PY' || fail "JSON content"
import json, sys
L = json.load(open(sys.argv[1]))["launches"]
assert [l["name"] for l in L] == ["assert_copy_ok", "does_not_compile", "no_such_kernel", "printf_copy_ok"], L
assert L[0]["check"]["passed"] and L[3]["check"]["passed"]
assert "error" not in L[0] and "error" not in L[3]
assert 'broken.cu(4): error: identifier "undeclaredThing" is undefined' in L[1]["error"], L[1]
assert "kernel 'noSuchKernel' not found" in L[2]["error"], L[2]
assert L[1]["instructions"] == [] and L[2]["instructions"] == []
# 64 threads, one LDG per warp on the checked path and one STG: 2 warps each
ld = [i for i in L[0]["instructions"] if i["op"] == "ld" and i["space"] == "global" and i["executed"]]
assert sum(i["executed"] for i in ld) == 2 and sum(i["sectors"] for i in ld) == 8, ld
PY
  # printf: thread 0 of each of the 2 blocks prints one line (GPU format of %d and %.1f / %f)
  grep -q "^block 0: in\[0\] = 0.0, last 63.000000$" "$tmp/err" || fail "printf of block 0"
  grep -q "^block 1: in\[64\] = 64.0, last 127.000000$" "$tmp/err" || fail "printf of block 1"
  ;;
assert)
  "$wl" suite "$dir/assert_fail.json" --format json -o "$tmp/out.json" 2>"$tmp/err"
  rc=$?
  [ $rc -eq 2 ] || fail "exit status $rc, expected 2"
  grep -q "diag.cu:14: void assertCopy(int \*, const int \*, int): block: \[1,0,0\], thread: \[13,0,0\] Assertion \`in\[i\] == i\` failed." "$tmp/err" ||
    fail "assert message"
  grep -q "source .*diag.cu:14" "$tmp/err" || fail "source line of the failing assert"
  ;;
*) echo "unknown case $case"; exit 2 ;;
esac
echo "ok: $case"
