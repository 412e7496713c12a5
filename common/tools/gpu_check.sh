#!/usr/bin/env bash
# make gpu-check OUT=dir: everything that needs a GPU, in one go, for a lent GPU machine.
# Configures for the GPU present, builds, runs every test (CPU and GPU), grades the stubs and the
# solutions, runs compute-sanitizer memcheck and racecheck on the reference solutions, runs the
# lesson programs (their JSON lines land in OUT/bench.jsonl), and prints a short table last.
set -uo pipefail
out=${1:-gpu-check-logs}
mkdir -p "$out"
out=$(cd "$out" && pwd)
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${GPU_CHECK_BUILD:-$root/build-gpu}
cd "$root"
declare -a rows

step() {  # step NAME LOGFILE COMMAND...: run, log, remember the result
  local name=$1 log=$2
  shift 2
  local t0=$SECONDS
  "$@" >"$out/$log" 2>&1
  local rc=$?
  rows+=("$(printf '%-34s %-6s %4ss  %s' "$name" "$([ $rc -eq 0 ] && echo ok || echo FAIL:$rc)" $((SECONDS - t0)) "$log")")
  return $rc
}

nvidia-smi --query-gpu=name,compute_cap,driver_version,clocks.max.sm,memory.total --format=csv >"$out/gpu.txt" 2>&1
step "configure (native arch)" configure.log cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release
step "build" build.log cmake --build "$build" -j "$(nproc)" || { printf '%s\n' "${rows[@]}"; tail -30 "$out/build.log"; exit 1; }
step "ctest (all but graders)" ctest.log bash -c "cd '$build' && ctest --label-exclude grade --output-on-failure -j 4"
step "grade: stubs" grade-stubs.log python3 common/tools/course.py grade --build "$build"
step "check-stubs" check-stubs.log python3 common/tools/course.py check-stubs --build "$build"
step "grade: solutions swapped in" grade-solutions.log python3 common/tools/course.py grade --build "$build" --solution

san() {  # san TOOL NAME BINARY ARGS...
  local tool=$1 name=$2
  shift 2
  step "$tool: $name" "san-$tool-$name.log" compute-sanitizer --tool "$tool" --error-exitcode 9 "$@"
}
san memcheck test02 "$build/bin/test02" "[gpu]"
san racecheck test02 "$build/bin/test02" "[gpu]"
san memcheck lesson02 "$build/bin/lesson02_solution" --width 37 --height 23 --block-x 16 --block-y 8 --n 100003
san memcheck lesson01 "$build/bin/lesson01_solution" --copy-mb 64 --size 512 --reps 2
san memcheck planted "$build/bin/test_common" "[gpu][verify]"

: >"$out/bench.jsonl"
for n in $(python3 common/tools/course.py list | awk '/^  [0-9]/{print $1}'); do
  step "lesson$n (solution)" "lesson$n.log" "$build/bin/lesson${n}_solution" --json
  grep '^{' "$out/lesson$n.log" >>"$out/bench.jsonl"
done

echo
echo "GPU: $(tail -n +2 "$out/gpu.txt")"
grep -E "tests passed|tests failed|Not Run|Skipped" "$out/ctest.log" | head -5
echo
sed -n '/^Progress/,$p' "$out/grade-stubs.log" | head -8
sed -n '/^Progress/,$p' "$out/grade-solutions.log" | head -8
echo
printf '%-34s %-6s %5s  %s\n' step result time log
printf '%s\n' "${rows[@]}"
