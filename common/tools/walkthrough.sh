#!/usr/bin/env bash
# walkthrough.sh [DIR]: a new learner's first hour, lessons 01-03, as a readable transcript.
#
# Run it on a GPU machine from the course's top folder:  common/tools/walkthrough.sh
# It makes a fresh copy of the course in DIR (default: a new temporary folder; this checkout is
# never touched): `git clone` of this checkout when its working tree is clean, otherwise a copy of
# its tracked and unignored files committed into a new repository (what a clone would hold). Then,
# as a learner would:
#   make next / grade-1 / hint-1      the untouched stub fails with a clear NOT IMPLEMENTED message
#   (fill in lesson 01: here the reference solution is copied in)
#   make watch-1 ONCE=1               green: GPU part passed, the next lesson named
#   lesson 02 the same way; lesson 03 first with a bug (the bounds guard left out: the diagnosis
#   names the cause), then the live loop: `make watch-3` running, the fixed file saved, the screen
#   turns green, Ctrl-C
#   make grade PERF=1                 progress: 3 lessons passed, with dates, the bar, the current
#                                     lesson, performance against the targets
#   make reset-3 (refused without a terminal), make reset-3 FORCE=1, make grade-3, make next
#   make self-check                   solutions pass, untouched stubs fail (SELF_CHECK=0 skips it)
# Long outputs are trimmed in the transcript (HEAD_LINES / TAIL_LINES); with OUT set to a folder,
# the transcript and the untrimmed log are also written to $OUT/walkthrough.txt and
# $OUT/walkthrough-full.log. Exit status: 0 when every step did what a learner should see.
set -uo pipefail
src=$(cd "$(dirname "$0")/../.." && pwd)
dir=${1:-$(mktemp -d /tmp/course-walkthrough.XXXXXX)/course}
HEAD_LINES=${HEAD_LINES:-14}
TAIL_LINES=${TAIL_LINES:-16}
export NO_COLOR=1
out=${OUT:-}
transcript=/dev/null
full=/dev/null
if [ -n "$out" ]; then
  mkdir -p "$out"
  transcript=$out/walkthrough.txt
  full=$out/walkthrough-full.log
  : >"$transcript"
  : >"$full"
fi
unexpected=0
t0=$SECONDS

say() { printf '%s\n' "$*" | tee -a "$transcript" | tee -a "$full" >/dev/null; printf '%s\n' "$*"; }
note() { say ""; say "# $*"; }

# step EXPECT CMD: run CMD (a shell string) with no terminal, show it trimmed with its exit
# status; EXPECT is the exit status a learner should see ('any' for no expectation) and a
# pattern the output must hold, as "STATUS[:PATTERN]". (make exits 2 when its command fails.)
step() {
  local expect=$1 cmd=$2 log rc n want pattern
  log=$(mktemp)
  say ""
  say "\$ $cmd      [$(( SECONDS - t0 ))s]"
  (eval "$cmd") >"$log" 2>&1 </dev/null
  rc=$?
  cat "$log" >>"$full"
  n=$(wc -l <"$log")
  if [ "$n" -gt $((HEAD_LINES + TAIL_LINES + 2)) ]; then
    { head -n "$HEAD_LINES" "$log"; echo "    [... $((n - HEAD_LINES - TAIL_LINES)) lines trimmed ...]"
      tail -n "$TAIL_LINES" "$log"; } | tee -a "$transcript"
  else
    tee -a "$transcript" <"$log"
  fi
  want=${expect%%:*}
  pattern=${expect#*:}
  [ "$pattern" = "$expect" ] && pattern=""
  local verdict="[exit $rc]"
  if { [ "$want" != any ] && [ "$rc" != "$want" ]; } ||
     { [ -n "$pattern" ] && ! grep -qE -- "$pattern" "$log"; }; then
    verdict="[exit $rc]  <-- UNEXPECTED: wanted exit $want${pattern:+ and /$pattern/}"
    unexpected=$((unexpected + 1))
  fi
  say "$verdict"
  rm -f "$log"
}

# ---- a fresh copy of the course ------------------------------------------------------------------
mkdir -p "$(dirname "$dir")"
if git -C "$src" rev-parse --verify -q HEAD >/dev/null 2>&1 && [ -z "$(git -C "$src" status --porcelain)" ]; then
  git clone -q "$src" "$dir" || exit 1
  how="git clone of $src at $(git -C "$src" rev-parse --short HEAD)"
else
  mkdir -p "$dir"
  if git -C "$src" rev-parse --verify -q HEAD >/dev/null 2>&1; then
    (cd "$src" && git ls-files -co --exclude-standard -z | xargs -0 cp --parents -t "$dir")
  else
    (cd "$src" && tar --exclude='./build' --exclude='./build-*' --exclude='./.course' \
       --exclude='./.git' --exclude='./book/html' -cf - .) | tar -xf - -C "$dir"
  fi
  how="a copy of the working tree of $src (uncommitted changes, or no .git)"
  if command -v git >/dev/null 2>&1; then
    git -C "$dir" -c init.defaultBranch=main init -q
    git -C "$dir" add -A
    git -C "$dir" -c user.name=course -c user.email=course@example.com -c core.hooksPath=/dev/null \
      commit -q -m "the course" || exit 1
    how="$how, committed in a new repository"
  else
    how="$how; no git here, so make reset-N cannot work"
  fi
fi
cd "$dir" || exit 1
say "A new learner's walkthrough of lessons 01-03, in $dir"
say "(the course: $how)"
say "GPU: $(nvidia-smi --query-gpu=name,compute_cap --format=csv,noheader 2>/dev/null || echo none)"

note "Setting up, and where to start."
step 0 "make setup"
step "0:lesson 01" "make next"

note "Lesson 01, untouched: the grader says what is still to do."
step "2:NOT STARTED" "make grade-1"
step "0:hint 1 of" "make hint-1"
note "The learner fills in exercises/01-architecture/ (here: the reference solution copied in)."
step 0 "cp solutions/01-architecture/* exercises/01-architecture/"
step "0:PASSED" "make watch-1 ONCE=1"
step "0:lesson 02" "make next"

note "Lesson 02: the stub, then the work."
step "2:NOT STARTED" "make watch-2 ONCE=1"
step 0 "cp solutions/02-dispatch/* exercises/02-dispatch/"
step "0:PASSED" "make watch-2 ONCE=1"

note "Lesson 03: a first attempt with a bug: the bounds guard left out."
step "2:NOT STARTED" "make watch-3 ONCE=1"
step 0 "grep -v 'if (row >= M || col >= N) return;' solutions/03-naive/naive_sgemm.cu > exercises/03-naive/naive_sgemm.cu"
step "2:FAILING" "make watch-3 ONCE=1"

note "The live loop: make watch-3 runs beside the editor; the learner saves the fixed file."
live=$(mktemp)
set -m  # the watch in its own process group, so that it can be sent a Ctrl-C (SIGINT)
make watch-3 >"$live" 2>&1 </dev/null &
watch_pid=$!
set +m
wait_for() {  # wait_for PATTERN COUNT SECONDS
  local i
  for ((i = 0; i < $3 * 2; i++)); do
    [ "$(grep -cE -- "$1" "$live")" -ge "$2" ] && return 0
    sleep 0.5
  done
  return 1
}
if wait_for "Ctrl-C stops" 1 300; then
  sleep 1
  cp solutions/03-naive/naive_sgemm.cu exercises/03-naive/naive_sgemm.cu
  say ""
  say "(saved exercises/03-naive/naive_sgemm.cu with the guard back in, at $(( SECONDS - t0 ))s)"
  wait_for "Ctrl-C stops" 2 400 || { say "(the watch did not grade again in 400 s)"; unexpected=$((unexpected + 1)); }
else
  say "(the watch did not start in 300 s)"
  unexpected=$((unexpected + 1))
fi
kill -INT -- "-$watch_pid" 2>/dev/null  # what Ctrl-C sends to the terminal's foreground group
for ((i = 0; i < 20; i++)); do kill -0 "$watch_pid" 2>/dev/null || break; sleep 0.5; done
if kill -0 "$watch_pid" 2>/dev/null; then
  say "(the watch did not stop on SIGINT in 10 s: sending SIGTERM)"
  unexpected=$((unexpected + 1))
  kill -TERM -- "-$watch_pid" 2>/dev/null
fi
wait "$watch_pid" 2>/dev/null
say "\$ make watch-3   (its output, from the start to the Ctrl-C; screens are separated by ====)"
cat "$live" >>"$full"
if [ "$(wc -l <"$live")" -gt 90 ]; then
  { head -n 30 "$live"; echo "    [... trimmed ...]"; tail -n 50 "$live"; } | tee -a "$transcript"
else
  tee -a "$transcript" <"$live"
fi
if awk '/^====/{s=""} {s=s $0 "\n"} END{printf "%s", s}' "$live" | grep -q PASSED &&
   grep -q "watch: stopped." "$live"; then
  say "[the last screen is green; Ctrl-C left cleanly]"
else
  say "[<-- UNEXPECTED: no green last screen, or no clean stop]"
  unexpected=$((unexpected + 1))
fi
rm -f "$live"

note "Progress, with the performance verdict (it never decides a pass)."
step "0:3 of [0-9]+ lessons passed" "make grade PERF=1"
step "0:lesson 04" "make next"

note "Starting lesson 03 over: make reset-3 asks first; with no terminal it refuses."
step "2:FORCE=1" "make reset-3"
step "0:Restored" "make reset-3 FORCE=1"
step "2:NOT STARTED" "make grade-3"
step "0:lesson 03" "make next"
step 0 "cat .course/progress.json"

if [ "${SELF_CHECK:-1}" != 0 ]; then
  note "The course checks itself (part of make test on a GPU): every solution passes its grader; every"
  say "# untouched stub fails it with NOT IMPLEMENTED (01 and 02 hold the learner's work: not checked)."
  step "0:all as they should be" "make self-check"
fi

say ""
say "walkthrough: $(( SECONDS - t0 )) s, $unexpected unexpected step(s); the course is in $dir"
exit $((unexpected > 0))
