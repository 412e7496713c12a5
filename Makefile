# The friendly front of the course. The real build is CMake (CMakeLists.txt); this drives it.
# `make help` lists the targets.

BUILD    ?= build
JOBS     ?= $(shell nproc 2>/dev/null || echo 2)
PYTHON   ?= python3
COURSE   := $(PYTHON) common/tools/course.py
SETUP    := common/tools/setup.sh
CMAKE    ?= cmake
# Extra CMake options, e.g. CMAKE_ARGS=-DCMAKE_CUDA_ARCHITECTURES=86, or -DCOURSE_WERROR=ON (warnings
# are errors, as in CI). The build folder remembers those it was configured with; other ones
# reconfigure it (what was set before stays in CMake's cache: `make clean` starts afresh).
CMAKE_ARGS ?=
# SOLUTION=1 runs or grades the reference solution instead of your exercise.
SOLUTION ?=
ARGS     ?=
OUT      ?= gpu-check-logs

# nvcc is often installed without being put on PATH.
ifeq ($(shell command -v nvcc 2>/dev/null),)
export PATH := $(PATH):/usr/local/cuda/bin
endif

.DEFAULT_GOAL := help
.PHONY: help setup configure build test grade check-stubs check-repo self-check gpu-check list clean \
        book readme bench watch next lesson hint reset profile sanitize sass

help:
	@echo "The CUDA course: from 'what is on my GPU' to a Hopper TMA + wgmma GEMM."
	@echo ""
	@echo "  make lesson-N [SOLUTION=1] [ARGS='...']  build and run lesson N (your code, or the reference)"
	@echo "  make watch [PERF=1]                      rebuild and grade on every save (the current lesson,"
	@echo "                                           then whichever lesson you save); Ctrl-C stops"
	@echo "  make watch-N [ONCE=1] [PERF=1]           the same for lesson N only (ONCE=1: one round, then exit)"
	@echo "  make next                                the first lesson not passed yet: its chapter and files"
	@echo "  make grade [PERF=1] [SOLUTION=1]         progress over all lessons (PERF=1: speed against targets)"
	@echo "  make grade-N [PERF=1] [SOLUTION=1]       grade lesson N task by task, with the diagnosis"
	@echo "  make hint-N [ALL=1] [RESET=1]            the next hint for lesson N's first task not passed"
	@echo "  make reset-N [FORCE=1]                   restore lesson N's exercise stub (asks first)"
	@echo "  make test                                the repository's own suite (solutions, helpers, stubs)"
	@echo "  make self-check                          on a GPU: solutions pass, untouched stubs fail NOT IMPLEMENTED"
	@echo "  make check-stubs                         every untouched stub fails its grader with NOT IMPLEMENTED"
	@echo "  make book                                the book, offline HTML: book/html/index.html (no GPU needed)"
	@echo "  make readme                              README.md's measured figures, rewritten from book/data/"
	@echo "  make setup                               install the missing system packages"
	@echo "  make configure [CMAKE_ARGS='...']        configure $(BUILD)/ (again when CMAKE_ARGS change), e.g. for"
	@echo "                                           another GPU: CMAKE_ARGS=-DCMAKE_CUDA_ARCHITECTURES=120"
	@echo "  make list                                the lessons"
	@echo "  make bench [MINE=1] [SIZES=1024,2048]    every kernel of every lesson against cuBLAS -> book/data/, README.md"
	@echo "       [REGIMES=burst,sustained]           (interleaved; burst for every kernel, sustained for the headlines),"
	@echo "       [NO_PROFILE=1]                      then the profiles the lessons' records name (NO_PROFILE=1: none)"
	@echo "       [NO_PRINTED=1]                      and what each lesson prints, for its chapter (NO_PRINTED=1: none)"
	@echo "  make profile-N [MINE=1] [SIZE=4096]      Nsight Compute: the metrics lesson N's optimization moves"
	@echo "       [HEADLINE=1] [RECORD=1]             (SIZE: a size or MxNxK, default the record's first profile size,"
	@echo "                                           else 2048; HEADLINE=1: the headline and cuBLAS only; RECORD=1:"
	@echo "                                           also into book/data/)"
	@echo "  make sanitize-N [MINE=1]                 compute-sanitizer memcheck + racecheck at a ragged size"
	@echo "  make sass-N [MINE=1]                     what the compiler made of lesson N's kernels"
	@echo "  make gpu-check OUT=dir                   on a GPU machine: build, tests, grades, sanitizers, figures"
	@echo "  make clean                               remove the build folder ($(BUILD)/)"
	@echo ""
	@$(COURSE) list

setup:
	@$(SETUP)

# Configure once; CMake re-runs itself when CMakeLists.txt, the manifest or a lesson's record change.
# With Ninja where setup could install it: a save's build then finds what changed in about 0.1 s,
# where CMake's Makefiles take about a second. CMAKE_ARGS given again, changed, reconfigure: CMake's
# own re-runs do not see them, so the build folder keeps those it was configured with in ARGS_STAMP.
ARGS_STAMP  = $(BUILD)/course-cmake-args
CMAKE_ARGS_Q = '$(subst ','\'',$(strip $(CMAKE_ARGS)))'
# True when CMAKE_ARGS are given and are not those the build folder was configured with.
ARGS_CHANGED = { [ -n $(CMAKE_ARGS_Q) ] && [ "$$(cat $(ARGS_STAMP) 2>/dev/null)" != $(CMAKE_ARGS_Q) ]; }
NEEDS_CONFIGURE = { [ ! -f $(BUILD)/CMakeCache.txt ] || $(ARGS_CHANGED); }
WAS_CONFIGURED = $$(a="$$(cat $(ARGS_STAMP) 2>/dev/null)"; echo "$${a:-no CMAKE_ARGS}")
SAY_RECONFIGURE = printf 'reconfiguring %s for CMAKE_ARGS=%s (configured before with %s; what was set \
  then stays unless set again: make clean starts afresh)\n' '$(BUILD)/' $(CMAKE_ARGS_Q) "$(WAS_CONFIGURED)"
SAY_CONFIGURED = echo "$(BUILD)/ is configured (with $(WAS_CONFIGURED)): nothing to do. Other \
  CMAKE_ARGS reconfigure it; make clean starts afresh."

configure:
	@if [ ! -f $(BUILD)/CMakeCache.txt ]; then \
	  $(SETUP) || exit 1; \
	  printf '%s %s\n' "$(CMAKE) -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release$$(command -v ninja >/dev/null && echo ' -G Ninja')" $(CMAKE_ARGS_Q); \
	  $(CMAKE) -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release $$(command -v ninja >/dev/null && echo -G Ninja) $(CMAKE_ARGS) || exit 1; \
	elif $(ARGS_CHANGED); then \
	  $(SAY_RECONFIGURE); \
	  $(CMAKE) -S . -B $(BUILD) $(CMAKE_ARGS) || exit 1; \
	else \
	  $(if $(filter configure,$(MAKECMDGOALS)),$(SAY_CONFIGURED);) exit 0; \
	fi; \
	printf '%s\n' $(CMAKE_ARGS_Q) > $(ARGS_STAMP)

# Configure when needed, in one line of output (setup's and CMake's own lines are not shown; their
# errors are): what `make test` runs first, and LESSON_READY below.
CONFIGURE_QUIETLY = { if [ ! -f $(BUILD)/CMakeCache.txt ]; then \
  echo "configuring the build in $(BUILD)/ (first time only: setup, then CMake) ..."; \
  elif $(ARGS_CHANGED); then \
  printf 'reconfiguring %s for CMAKE_ARGS=%s (CMake) ...\n' '$(BUILD)/' $(CMAKE_ARGS_Q); fi; \
  $(MAKE) --no-print-directory configure >/dev/null; }

# What lesson-N, grade-N, watch-N and the measuring targets run first, before a first configure
# only: the lesson's name checked (a wrong one prints the list and exits 2, configuring nothing),
# then the configure. Once configured, course.py checks the name itself, and a save's grade starts
# no extra Python.
LESSON_READY = ! $(NEEDS_CONFIGURE) || { $(COURSE) resolve '$*' >/dev/null || exit 2; \
  $(CONFIGURE_QUIETLY) || exit 1; }

build: configure
	$(CMAKE) --build $(BUILD) -j $(JOBS)

# The repository's own suite: builds everything (so every exercise stub must compile), then runs
# the CPU tests and the reference solutions' tests (GPU ones are skipped without a GPU). It says
# first what it will build and how long that takes; make's directory lines are not shown; CTest's
# summary and the next step are its last lines.
test:
	@$(CONFIGURE_QUIETLY) || exit 1; \
	exec $(COURSE) test --build $(BUILD) --jobs $(JOBS)

list:
	@$(COURSE) list

# Every target that builds and then runs goes through course.py (the package common/tools/course/),
# which builds first and runs nothing when the build fails: it shows the compiler's first error and
# exits non-zero.
BUILD_OPTS = --build $(BUILD) --jobs $(JOBS)

lesson-%:
	@$(LESSON_READY); \
	exec $(COURSE) run '$*' $(BUILD_OPTS) $(if $(SOLUTION),--solution) --args='$(subst ','\'',$(value ARGS))'

grade: configure
	@$(COURSE) grade $(BUILD_OPTS) $(if $(SOLUTION),--solution) $(if $(PERF),--perf)

# A grade that is not a pass exits 1 (for scripts and CI). GNU make follows a failing recipe with its
# own "make: *** [...] Error 1" line, and has no way to keep the exit status without it ("-" and
# .IGNORE print "(ignored)" and exit 0): the course's verdict is the line above it.
grade-%:
	@$(LESSON_READY); \
	exec $(COURSE) grade '$*' $(BUILD_OPTS) $(if $(SOLUTION),--solution) $(if $(PERF),--perf)

# Rebuild and grade on every save of an exercise file (inotifywait, else polling); Ctrl-C stops.
# ONCE=1: build and grade once, print the screen and exit (0 passed or skipped, 1 otherwise).
# `exec`: Ctrl-C then reaches a Python that leaves cleanly, not a shell that reports it.
WATCH_OPTS = --build $(BUILD) --jobs $(JOBS) $(if $(SOLUTION),--solution) $(if $(PERF),--perf) \
             $(if $(ONCE),--once) $(if $(POLL),--poll)

watch: configure
	@$(COURSE) watch $(WATCH_OPTS)

watch-%:
	@$(LESSON_READY); \
	exec $(COURSE) watch '$*' $(WATCH_OPTS)

next:
	@$(COURSE) next

# Restores exercises/NN-slug/ as the course ships it (from git); asks first unless FORCE=1, and
# keeps a copy of what it replaces under .course/backup/.
reset-%:
	@$(COURSE) reset $* $(if $(FORCE),--force)

# ---- measuring (a GPU for bench, profile and sanitize) ----
MEASURE := $(PYTHON) common/tools/measure.py

bench: configure
	@$(COURSE) build $(BUILD_OPTS) && $(PYTHON) common/tools/bench.py --build $(BUILD) $(if $(MINE),--mine) $(if $(SIZES),--sizes $(SIZES)) \
	  $(if $(BF16_SIZES),--bf16-sizes $(BF16_SIZES)) $(if $(LESSONS),--lessons $(LESSONS)) \
	  $(if $(REGIMES),--regimes $(REGIMES)) $(if $(SUSTAINED_MS),--sustained-ms $(SUSTAINED_MS)) \
	  $(if $(NO_PROFILE),--no-profile) $(if $(NO_PRINTED),--no-printed)

# profile-N: SIZE is a size or a shape MxNxK; HEADLINE=1 profiles the headline kernel and cuBLAS
# alone, RECORD=1 also records the figures in book/data/<gpu>.jsonl (MINE=1: book/data/mine/).
profile-% sanitize-% sass-%: what = $(firstword $(subst -, ,$@))
profile-%: opts = $(if $(SIZE),--size $(SIZE)) $(if $(HEADLINE),--headline-only) $(if $(RECORD),--record)
profile-% sanitize-% sass-%:
	@$(LESSON_READY); \
	$(COURSE) build '$*' $(BUILD_OPTS) $(if $(MINE),--mine) && \
	$(MEASURE) $(what) '$*' --build $(BUILD) $(if $(MINE),--mine) $(opts)

hint-%:
	@$(COURSE) hint $* --build $(BUILD) $(if $(RESET),--reset) $(if $(ALL),--all)

# The lesson targets without their number: the usage line and exit 2, as for a wrong number.
USAGE_lesson   = lesson-N [SOLUTION=1] [ARGS='...']
USAGE_hint     = hint-N [ALL=1] [RESET=1]
USAGE_reset    = reset-N [FORCE=1]
USAGE_profile  = profile-N [MINE=1] [SIZE=4096] [HEADLINE=1] [RECORD=1]
USAGE_sanitize = sanitize-N [MINE=1]
USAGE_sass     = sass-N [MINE=1]
lesson hint reset profile sanitize sass:
	@echo "usage: make $(USAGE_$@), N a lesson's number (make list names them)" >&2; exit 2

# Every exercise stub fails its grader with NOT IMPLEMENTED (CI runs this after `make test`); an
# exercise that holds your work is not checked, and it says so.
check-stubs: configure
	@$(COURSE) check-stubs $(BUILD_OPTS)

check-repo:
	@$(COURSE) check-repo

# On a GPU: every reference solution passes its grader and every untouched stub fails it with
# NOT IMPLEMENTED (also a CTest test, course.selfcheck, skipped without a GPU).
# Without a GPU it says so at once and exits 0, before it configures or builds anything.
self-check:
	@$(COURSE) self-check --probe; rc=$$?; [ $$rc -eq 77 ] && exit 0; [ $$rc -eq 0 ] || exit $$rc; \
	$(CONFIGURE_QUIETLY) || exit 1; \
	$(COURSE) self-check $(BUILD_OPTS); rc=$$?; [ $$rc -eq 77 ] && rc=0; exit $$rc

# The book: the chapters, the code they pull by \snippet, the harness API, the charts of book/data/
# and the figures the lessons' own functions draw (their programs are built first), as offline HTML
# in book/html/ (Doxygen). Fails on any Doxygen warning, then checks the result.
book:
	@$(SETUP) book
	@$(CONFIGURE_QUIETLY) || exit 1; \
	$(PYTHON) book/build.py --check --build $(BUILD)

# README.md's generated blocks (the headline claim, the table of measured results) from book/data/
# and the manifest's targets; `make bench` does the same after it measures, `make test` checks it.
readme:
	@$(PYTHON) book/readme.py

# One call on a GPU machine: configure for the GPU present, build, run every test, grade stubs and
# solutions, run the sanitizers and the lesson programs; logs under OUT, a short table last.
gpu-check:
	@common/tools/gpu_check.sh $(OUT)

clean:
	rm -rf $(BUILD)
