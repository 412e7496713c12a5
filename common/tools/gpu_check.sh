#!/usr/bin/env bash
# make gpu-check OUT=dir: everything that needs a GPU, in one go, on a machine with a GPU.
# Configures for the GPU present, builds, runs every test (CPU and GPU), grades the stubs and the
# solutions, runs compute-sanitizer memcheck and racecheck on the reference solutions, runs the
# lesson programs (their JSON lines land in OUT/bench.jsonl), and prints a short table last.
# Last, it configures a second build folder (GPU_CHECK_MULTI_BUILD, default build-multi/) for every
# architecture the course supports, 75;80;86;89;90a;120 (lesson 11: 90a and 120), with
# COURSE_WERROR=ON, and builds it: any warning of the host compiler, nvcc or ptxas for any of them
# fails that step, and so does any warning left in its log (the linker's, CMake's).
# BENCH=0: no `make bench`; GRADE=0: no `make grade` runs (ctest's course.selfcheck already grades
# every stub and solution); RUNS=0: no separate lesson-program runs (bench runs them too);
# MULTIARCH=0: no multi-architecture build; SANITIZE="9 10 11": the sanitizers of those lessons only
# (SANITIZE=0: none; all eleven take longer than the tests); TESTS=0: no `make test` (a call that
# only sanitizes or measures); SASS=0, PROFILE=0: no `make sass-N` or `make profile-N`.
set -uo pipefail
command -v nvcc >/dev/null 2>&1 || export PATH="$PATH:/usr/local/cuda/bin"
out=${1:-gpu-check-logs}
mkdir -p "$out"
out=$(cd "$out" && pwd)
logs=$out/logs  # every log; bundled as logs.tar.gz at the end
mkdir -p "$logs"
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${GPU_CHECK_BUILD:-$root/build-gpu}
cd "$root"
declare -a rows
failed=0

step() {  # step NAME LOGFILE COMMAND...: run, log, remember the result
  local name=$1 log=$2
  shift 2
  local t0=$SECONDS
  echo "gpu-check: $name ..."  # each step is minutes of silence otherwise: its output goes to the log
  "$@" >"$logs/$log" 2>&1
  local rc=$?
  [ $rc -eq 0 ] || failed=1
  rows+=("$(printf '%-34s %-6s %4ss  %s' "$name" "$([ $rc -eq 0 ] && echo ok || echo FAIL:$rc)" $((SECONDS - t0)) "$log")")
  return $rc
}

nvidia-smi --query-gpu=name,compute_cap,driver_version,clocks.max.sm,memory.total --format=csv >"$logs/gpu.txt" 2>&1 ||
  echo "gpu-check: no GPU answers here ($(head -1 "$logs/gpu.txt")): its GPU tests will be skipped"
m="make --no-print-directory BUILD=$build JOBS=$(nproc)"
# What it builds, before the first build.
multi_note=
[ "${MULTIARCH:-1}" != 0 ] &&
  multi_note=", then again in ${GPU_CHECK_MULTI_BUILD:-$root/build-multi}/ for every architecture"
echo "gpu-check: builds the whole course in $build/ for the GPU present (the first time: many" \
  "minutes on $(nproc) cores)$multi_note; runs its tests, graders, sanitizers and lesson programs;" \
  "logs in $out/, a table last."
step "configure (native arch)" configure.log $m configure
step "build" build.log $m build || { printf '%s\n' "${rows[@]}"; tail -30 "$logs/build.log"; exit 1; }
[ "${TESTS:-1}" != 0 ] && step "make test (CPU + GPU tests)" ctest.log $m test
if [ "${GRADE:-1}" != 0 ]; then
  step "make grade (the stubs)" grade-stubs.log $m grade
  step "make check-stubs" check-stubs.log $m check-stubs
  step "make grade SOLUTION=1" grade-solutions.log $m grade SOLUTION=1
fi

san() {  # san TOOL NAME BINARY ARGS...
  local tool=$1 name=$2
  shift 2
  step "$tool: $name" "san-$tool-$name.log" compute-sanitizer --tool "$tool" --error-exitcode 9 "$@"
}
lessons=$(python3 common/tools/course.py list | awk '/^  [0-9]/{print $1}')
sanitized=${SANITIZE:-all}
case $sanitized in
  all) sanitized=$lessons
       san memcheck planted "$build/bin/test_common" "[gpu][verify]" ;;
  0) sanitized= ;;
esac
# Every reference solution at a ragged size under compute-sanitizer (memcheck, racecheck, ...).
for n in $sanitized; do
  step "make sanitize-$n" "sanitize-$n.log" $m "sanitize-$n"
done
# The compiler's output and the profiler for one FP32 and one bf16 lesson of each kind.
[ "${SASS:-1}" != 0 ] && for n in 5 10 11; do step "make sass-$n" "sass-$n.log" $m "sass-$n"; done
[ "${PROFILE:-1}" != 0 ] && for n in 4 11; do step "make profile-$n" "profile-$n.log" $m "profile-$n"; done
if [ "${RUNS:-1}" != 0 ]; then
  for n in $lessons; do
    step "lesson$n (solution)" "lesson$n.log" "$build/bin/lesson${n}_solution"
  done
fi
# make bench writes book/data/<gpu>.jsonl: bring a copy back (BENCH=0 leaves it for a later call).
if [ "${BENCH:-1}" != 0 ]; then
  step "make bench${SIZES:+ SIZES=$SIZES}${LESSONS:+ LESSONS=$LESSONS}" bench.log $m bench \
    ${SIZES:+SIZES=$SIZES} ${LESSONS:+LESSONS=$LESSONS}
  cp book/data/*.jsonl "$out/" 2>/dev/null
fi
# Every supported architecture, warnings as errors.
if [ "${MULTIARCH:-1}" != 0 ]; then
  multi=${GPU_CHECK_MULTI_BUILD:-$root/build-multi}
  archs="75;80;86;89;90a;120"
  # The Makefile's configure (its generator, its build type); the list's quotes keep its ";" from
  # the shell of make's recipe.
  step "configure multi-arch (-Werror)" configure-multi.log \
    $m configure BUILD="$multi" CMAKE_ARGS="\"-DCMAKE_CUDA_ARCHITECTURES=$archs\" -DCOURSE_WERROR=ON" &&
    step "build multi-arch" build-multi.log cmake --build "$multi" -j "$(nproc)" &&
    step "multi-arch: no warning in log" no-warning-multi.log \
      bash -c '! grep -iE "warning[ :]" "$1"' _ "$logs/build-multi.log"
fi

{
  echo "GPU: $(tail -n +2 "$logs/gpu.txt")"
  [ -f "$logs/ctest.log" ] && grep -E "tests passed|tests failed|Not Run|Skipped|Failed" "$logs/ctest.log" | head -14
  echo
  [ -f "$logs/grade-stubs.log" ] && sed -n '/^Progress/,$p' "$logs/grade-stubs.log" | head -14
  [ -f "$logs/grade-solutions.log" ] && sed -n '/^Progress/,$p' "$logs/grade-solutions.log" | head -14
  echo
  [ -f "$logs/bench.log" ] && sed -n '/^% of cuBLAS/,$p' "$logs/bench.log"
  echo
  printf '%-34s %-6s %5s  %s\n' step result time log
  printf '%s\n' "${rows[@]}"
} >"$out/summary.txt"
tar -C "$out" -czf "$out/logs.tar.gz" logs && rm -rf "$logs"
echo
cat "$out/summary.txt"
exit $failed
