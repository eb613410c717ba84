#!/bin/sh
# check.sh WARPLENS TESTDIR CASE: CLI checks of the modern-CUDA work (issue 9) that need nvcc.
#  isolation: a suite with two launches that cannot be analyzed (a compile error, an unknown
#    kernel) between two good ones exits 2, names each error (file, line, token), and the JSON
#    still holds all four launches in order, the good ones with their results and checks.
#  assert: a failing assert in block 1, thread 13 fails the launch with the GPU's message
#    (file:line: function: block: [1,0,0], thread: [13,0,0] Assertion `in[i] == i` failed.).
#  hopper: a cluster launch (__cluster_dims__(2,1,1)) whose grid is not a multiple of the cluster
#    is not analyzed (exit 2, message naming the cluster dims), nor one whose launch-spec "cluster"
#    differs from its __cluster_dims__, while the good one keeps its counts
#    (8 blocks x 8 warps: the distributed-shared ST.E / LD.E execute 64 times with no wavefronts,
#    the own-shared STS / LDS of 32 consecutive floats 64 times with 1 wavefront each); a tensor
#    map whose box row is 12 bytes is refused naming the key (exit 2); cluster_ring.cu (offline
#    only) needs every cluster barrier phase to order the blocks' remote stores.
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
hopper)
  "$wl" suite "$dir/hopper_cluster_grid.json" --format json -o "$tmp/out.json" 2>"$tmp/err"
  rc=$?
  [ $rc -eq 2 ] || fail "exit status $rc, expected 2"
  grep -q "peer_add_odd_grid: NOT ANALYZED: .*grid \[7, 1, 1\] is not a multiple of the kernel's cluster dims \[2, 1, 1\]" "$tmp/err" ||
    fail "grid / cluster dims message"
  grep -q "peer_add_other_cluster: NOT ANALYZED: .*cluster \[4, 1, 1\] differs from the kernel's __cluster_dims__ \[2, 1, 1\]" "$tmp/err" ||
    fail "launch cluster vs __cluster_dims__ message"
  python3 - "$tmp/out.json" <<'PY' || fail "JSON content"
import json, sys
L = json.load(open(sys.argv[1]))["launches"]
assert L[0]["check"]["passed"] and "error" not in L[0], L[0].get("error")
by = {i["sass"].split(" ;")[0].replace("@!P0 ", "").split(",")[0]: i for i in L[0]["instructions"]}
for k in ("ST.E desc[UR4][R2.64]", "LD.E R2"):
    i = by[k]
    assert (i["executed"], i["wavefronts"], i["sectors"]) == (64, 0, 0), (k, i)
for k in ("STS [R8]", "LDS R7"):
    i = by[k]
    assert (i["executed"], i["wavefronts"], i["wavefronts_ideal"]) == (64, 64, 64), (k, i)
assert "cluster dims" in L[1]["error"]
assert "differs from the kernel's __cluster_dims__" in L[2]["error"]
PY
  # Offline only (not measured): cluster_ring.cu moves values three hops around a ring of 4
  # blocks, one remote store per hop over 6 cluster barrier phases; right only if every phase
  # orders the stores. 8 blocks x 4 warps = 32 executions of each of the 6 (unrolled, predicated)
  # DSMEM stores, none with wavefronts.
  "$wl" suite "$dir/hopper_ring.json" --format json -o "$tmp/ring.json" 2>"$tmp/err" || fail "cluster_ring: exit status $?"
  python3 - "$tmp/ring.json" <<'PY' || fail "cluster_ring JSON content"
import json, sys
L = json.load(open(sys.argv[1]))["launches"][0]
assert L["check"]["passed"], L["check"]
st = [i for i in L["instructions"] if i["space"] == "generic" and i["op"] == "st"]
assert len(st) == 6 and all(i["executed"] == 32 and i["wavefronts"] == 0 for i in st), st
PY
  "$wl" suite "$dir/hopper_bad_map.json" --format json -o "$tmp/out2.json" 2>"$tmp/err"
  rc=$?
  [ $rc -eq 2 ] || fail "bad tensor map: exit status $rc, expected 2"
  grep -q "hopper_bad_map.json: launches\[0\].args\[0\].tensor_map.box\[0\]: the box's inner row (12 bytes) must be a multiple of 16 bytes" "$tmp/err" ||
    fail "bad tensor map message"
  ;;
*) echo "unknown case $case"; exit 2 ;;
esac
echo "ok: $case"
