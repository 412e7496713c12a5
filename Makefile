# The friendly front of the course. The real build is CMake (CMakeLists.txt); this drives it.
# `make help` lists the targets.

BUILD    ?= build
JOBS     ?= $(shell nproc 2>/dev/null || echo 2)
PYTHON   ?= python3
COURSE   := $(PYTHON) common/tools/course.py
SETUP    := common/tools/setup.sh
# Extra CMake options, e.g. CMAKE_ARGS=-DCMAKE_CUDA_ARCHITECTURES=86
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
.PHONY: help setup configure build test grade check-stubs check-repo gpu-check list clean book bench

help:
	@echo "The CUDA course: from 'what is on my GPU' to a Hopper TMA + wgmma GEMM."
	@echo ""
	@echo "  make lesson-N [SOLUTION=1] [ARGS='...']  build and run lesson N (your code, or the reference)"
	@echo "  make grade [SOLUTION=1]                  progress over all lessons"
	@echo "  make grade-N [SOLUTION=1]                grade lesson N, with the full diagnosis"
	@echo "  make hint-N [RESET=1]                    the next hint for lesson N"
	@echo "  make test                                the repository's own suite (solutions, helpers, stubs)"
	@echo "  make book                                the book, offline HTML: book/html/index.html (no GPU needed)"
	@echo "  make setup                               install the missing system packages"
	@echo "  make list                                the lessons"
	@echo "  make bench [MINE=1] [SIZES=1024,2048]     every kernel of every lesson against cuBLAS -> book/data/"
	@echo "  make profile-N [MINE=1] [SIZE=2048]      Nsight Compute: the metrics lesson N's optimization moves"
	@echo "  make sanitize-N [MINE=1]                 compute-sanitizer memcheck + racecheck at a ragged size"
	@echo "  make sass-N [MINE=1]                     what the compiler made of lesson N's kernels"
	@echo "  make gpu-check OUT=dir                   on a GPU machine: build, tests, grades, sanitizers, figures"
	@echo "  make clean                               remove the build folder ($(BUILD)/)"
	@echo ""
	@$(COURSE) list

setup:
	@$(SETUP)

# Configure once; CMake re-runs itself when CMakeLists.txt or the manifest change.
$(BUILD)/CMakeCache.txt:
	@$(SETUP)
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release $(CMAKE_ARGS)

configure: $(BUILD)/CMakeCache.txt

build: configure
	cmake --build $(BUILD) -j $(JOBS)

# The repository's own suite: builds everything (so every exercise stub must compile), then runs
# the CPU tests and the reference solutions' tests (GPU ones are skipped without a GPU).
test: build
	@cd $(BUILD) && ctest --label-exclude grade --output-on-failure -j $(JOBS); status=$$?; \
	grep -h "^SKIPPED: " Testing/Temporary/LastTest.log 2>/dev/null | sort | uniq -c \
	  | sed 's/^ *\([0-9]*\) SKIPPED: /skipped \1 GPU test(s): /'; \
	exit $$status

list:
	@$(COURSE) list

lesson-%:
	@n=$$($(COURSE) resolve $*) || exit 2; \
	$(MAKE) --no-print-directory configure >/dev/null; \
	target=lesson$${n}$(if $(SOLUTION),_solution); \
	cmake --build $(BUILD) --target $$target -j $(JOBS) >/dev/null || cmake --build $(BUILD) --target $$target; \
	echo "== $$target $(ARGS)"; \
	cd $(BUILD) && ./bin/$$target $(ARGS)

grade: build
	@$(COURSE) grade --build $(BUILD) $(if $(SOLUTION),--solution)

grade-%:
	@n=$$($(COURSE) resolve $*) || exit 2; \
	$(MAKE) --no-print-directory configure >/dev/null; \
	cmake --build $(BUILD) --target grade$$n test$$n lesson$$n lesson$${n}_solution -j $(JOBS) >/dev/null \
	  || cmake --build $(BUILD) --target grade$$n test$$n lesson$$n lesson$${n}_solution; \
	$(COURSE) grade $$n --build $(BUILD) $(if $(SOLUTION),--solution)

# ---- measuring (a GPU for bench, profile and sanitize) ----
MEASURE := $(PYTHON) common/tools/measure.py

bench: build
	@$(PYTHON) common/tools/bench.py --build $(BUILD) $(if $(MINE),--mine) $(if $(SIZES),--sizes $(SIZES))

profile-% sanitize-% sass-%: what = $(firstword $(subst -, ,$@))
profile-% sanitize-% sass-%:
	@n=$$($(COURSE) resolve $*) || exit 2; \
	$(MAKE) --no-print-directory configure >/dev/null; \
	cmake --build $(BUILD) --target lesson$${n}_solution $(if $(MINE),lesson$${n}) -j $(JOBS) >/dev/null \
	  || cmake --build $(BUILD) --target lesson$${n}_solution $(if $(MINE),lesson$${n}); \
	$(MEASURE) $(what) $$n --build $(BUILD) $(if $(MINE),--mine) $(if $(SIZE),--size $(SIZE))

hint-%:
	@$(COURSE) hint $* --build $(BUILD) $(if $(RESET),--reset)

# Every exercise stub fails its grader with NOT IMPLEMENTED (CI runs this after `make test`).
check-stubs: build
	@$(COURSE) check-stubs --build $(BUILD)

check-repo:
	@$(COURSE) check-repo

# The book: the chapters, the code they pull by \snippet, the harness API and the charts of book/data/,
# as offline HTML in book/html/ (Doxygen). Fails on any Doxygen warning, then checks the result.
book:
	@$(SETUP) book
	@$(PYTHON) book/build.py --check

# One call on a GPU machine: configure for the GPU present, build, run every test, grade stubs and
# solutions, run the sanitizers and the lesson programs; logs under OUT, a short table last.
gpu-check:
	@common/tools/gpu_check.sh $(OUT)

clean:
	rm -rf $(BUILD)
