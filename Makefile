# CUDA Labs - the front door. Everything goes through CMake in $(BUILD).
#   make check-lab1            build lab 1 and grade YOUR code in labs/
#   make time-lab3 [SIZE=...]  your kernels against the lab's baseline: ms, GB/s or GFLOP/s, ratio
#   make profile-lab3          your kernels under Nsight Compute: the lab's metrics in words
#   make sanitize-lab3         your kernels under compute-sanitizer (memcheck, racecheck, synccheck)
#   make resources-lab3        registers, shared memory and spills of your kernels (no GPU needed)
#   make sass-lab3 [KERNEL=k]  your kernels' machine code (SASS), by cuobjdump
#   make plot-lab6 / plot-lab7 lab 6's timeline; lab 7's GFLOP/s table and chart against cuBLAS
#   make submit                pack your lab files (labs/*/*.cu) into submission.tar.gz and
#                              say which are still the skeleton
#   make build / make clean    build everything / delete $(BUILD)
#   PYTHON=/path/to/python3    the Python of the tools and tests (default: python3 on PATH)
# >>> course only
# For instructors, in the course repository (a student copy, make dist-student,
# has not these: grader/tools/student_text.py cuts every "course only" block):
#   make check-solution-lab1   grade the reference solution
#   make check-solutions       grade every reference solution (instructors)
#   make calibrate [REPEAT=20] thresholds for this GPU into grader/calibration/ (instructors)
#   make verify-calibration [REPEAT=20]  every solution grader REPEAT times with that file
#   time-solution-labN, profile-solution-labN, resources-solution-labN, sass-solution-labN,
#   plot-solution-lab6/7: the reference's
#   make bench [LAB=4]         time every lab's reference, baselines and ceilings on this GPU
#                              into build/results/bench-<gpu>.json (needs a GPU)
#   make measure               the handouts' experiments (solutions/measure/), each a table
#                              in build/measure/ (needs a GPU; about two minutes)
#   make plots                 handouts/figures/ from handouts/results/bench-*.json (no GPU needed)
#   make handout-numbers       rewrite the handouts' marked numbers and tables from those files
#   make test                  build everything and run the project's own tests
#   make dist-student OUT=dir  a copy of the course for students (no solutions/)
#   make skeleton-manifest     after editing a skeleton: grader/skeletons.manifest
#   make lab-lists             after editing a grader/labN/lab.ini or calibration rule: the
#                              README's, design.md's, grading.md's and glossary's lists, rules.json
#   make count-lines [REV=x]   lines of code per area and in total (tracked files; lab 8 aside)
#   make list-variants         every known-wrong variant, what it does and the tests it must fail
# <<< course only
BUILD ?= build
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
CMAKE_ARGS ?=
GRADER_ARGS ?=
LAB_NUMBERS := $(sort $(foreach d,$(wildcard labs/lab[0-9]*_*),$(patsubst lab%,%,$(firstword $(subst _, ,$(notdir $(d)))))))

# The project's one Python. Every target here that runs Python, and through
# CMake (Python3_EXECUTABLE) every ctest that does, runs this interpreter.
# Default: python3 on PATH; give another with PYTHON=/path/to/python3.
# Resolved to the interpreter's own path (sys.executable), so a pyenv shim
# or a name on PATH stands for one fixed interpreter; PYTHON_PATH is empty
# when there is no such Python.
PYTHON ?= python3
PYTHON_PATH := $(shell $(PYTHON) -c 'import sys; print(sys.executable)' 2>/dev/null)
ifneq ($(PYTHON_PATH),)
  override PYTHON := $(PYTHON_PATH)
endif
PYTHON_CMAKE_ARG = $(if $(PYTHON_PATH),-DPython3_EXECUTABLE:FILEPATH=$(PYTHON_PATH))

# $(call need_matplotlib,target[,--optional]): the preflight of the targets
# that draw with matplotlib (test, plots, plot-lab6/7), run before anything
# is built: installs it for $(PYTHON) where it can, else stops with the one
# command to run (grader/tools/need_matplotlib.py); --optional says that
# command and goes on. Students' check-labN targets never run it, and
# ensure-deps.sh (every first configure) does not either.
need_matplotlib = @$(if $(PYTHON_PATH),$(PYTHON) grader/tools/need_matplotlib.py $(2) \
  --target "make $(1)" --log $(BUILD)/install-matplotlib.log,\
  echo "cuda-labs: make $(1) needs Python 3 with matplotlib and found no $(PYTHON); run: sudo apt-get install -y python3-matplotlib (or give make PYTHON=/path/to/python3)" >&2; exit 1)

# nvcc is often installed but not on PATH.
ifeq ($(shell command -v nvcc 2>/dev/null),)
  ifneq ($(wildcard /usr/local/cuda/bin/nvcc),)
    export CUDACXX ?= /usr/local/cuda/bin/nvcc
  endif
endif

# Quiet: no "Entering directory" lines; the build's own output goes to a log
# that is shown when the build fails (compiler warnings are shown always).
MAKEFLAGS += --no-print-directory
BUILD_LOG = $(BUILD)/build.log
# $(call quiet_build,--target x): builds, showing only warnings and errors.
quiet_build = @mkdir -p $(BUILD); if cmake --build $(BUILD) -j $(JOBS) $(1) >$(BUILD_LOG) 2>&1; \
  then grep -iE "warning" $(BUILD_LOG) || true; \
  else cat $(BUILD_LOG); echo "*** build failed (the whole log: $(BUILD_LOG))"; exit 1; fi

.PHONY: all build configure test check-solutions clean help
all: build

# The comment block at the top, without its markers.
help:
	@sed -n '2,/^[^#]/p' Makefile | grep '^#' | grep -v '^# [<>]\{3\} course only' | sed 's/^# \{0,1\}//' 

# Configure once; CMake re-runs itself when CMakeLists change.
$(BUILD)/Makefile:
	@grader/tools/ensure-deps.sh
	@mkdir -p $(BUILD); echo "configuring $(BUILD)/ (once: CMake looks for CUDA, CMocka and \
	Python and writes every lab's build; about 30 s on 2 cores)"; \
	if ! cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release $(PYTHON_CMAKE_ARG) $(CMAKE_ARGS) >$(BUILD)/configure.log 2>&1; \
	then cat $(BUILD)/configure.log; rm -f $(BUILD)/Makefile; exit 1; fi

# $(BUILD)/ keeps the Python it was configured with. When PYTHON now means
# another one (PATH or PYTHON changed since), CMake is given the new one, so
# the ctests never run a different Python than make does.
configure: $(BUILD)/Makefile
ifneq ($(PYTHON_PATH),)
	@grep -qxF 'Python3_EXECUTABLE:FILEPATH=$(PYTHON_PATH)' $(BUILD)/CMakeCache.txt || { \
	  echo "cuda-labs: $(BUILD)/ now uses the Python $(PYTHON_PATH)"; \
	  cmake -S . -B $(BUILD) $(PYTHON_CMAKE_ARG) >$(BUILD)/configure.log 2>&1 || \
	  { cat $(BUILD)/configure.log; exit 1; }; }
endif

build: configure
	$(call quiet_build,)

# >>> course only
# matplotlib first: without it one ctest fails after the long build.
test:
	$(call need_matplotlib,test)
	@$(MAKE) build
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

# <<< course only
check-lab%: configure
	$(call quiet_build,--target lab$*_check)
	@mkdir -p $(BUILD)/results
	@$(BUILD)/bin/lab$*_check --results $(BUILD)/results/lab$*_check.json $(GRADER_ARGS)

# Lab 6's timeline picture: a serial and a streamed run of YOUR pipeline, as
# recorded by CUPTI, drawn with matplotlib into $(BUILD)/results/lab6_timeline.png
# (plot-solution-lab6: the reference's pipeline).
# $(call plot_lab6,program): that program's timeline, drawn.
define plot_lab6
	$(call need_matplotlib,$@)
	@$(MAKE) configure
	$(call quiet_build,--target $(1))
	@mkdir -p $(BUILD)/results; rm -f $(BUILD)/results/lab6_timeline.csv
	@$(BUILD)/bin/$(1) $(BUILD)/results/lab6_timeline.csv
	@if [ -f $(BUILD)/results/lab6_timeline.csv ]; then $(PYTHON) grader/lab6/plot_timeline.py \
	  $(BUILD)/results/lab6_timeline.csv $(BUILD)/results/lab6_timeline.png; fi
endef
.PHONY: plot-lab6
plot-lab6:
	$(call plot_lab6,lab6_timeline)
# >>> course only
.PHONY: plot-solution-lab6
plot-solution-lab6:
	$(call plot_lab6,lab6_timeline_solution)
# <<< course only

# Lab 7's table and chart: GFLOP/s of naive, shared tiles, YOUR four stages
# and cuBLAS FP32 at 256 .. 4096, into $(BUILD)/results/lab7_sizes.txt and
# .png (plot-solution-lab7: the reference's stages). Without matplotlib the
# table is still written, so its preflight only says how to install it.
.PHONY: plot-lab7
plot-lab7:
	$(call need_matplotlib,$@,--optional)
	@$(MAKE) configure
	$(call quiet_build,--target lab7_bench_sizes)
	@mkdir -p $(BUILD)/results; rm -f $(BUILD)/results/lab7_sizes.txt
	@$(BUILD)/bin/lab7_bench_sizes $(BUILD)/results/lab7_sizes.txt
	@if [ -f $(BUILD)/results/lab7_sizes.txt ]; then $(PYTHON) grader/lab7/plot_sizes.py \
	  $(BUILD)/results/lab7_sizes.txt $(BUILD)/results/lab7_sizes.png; fi

# >>> course only
.PHONY: plot-solution-lab7
plot-solution-lab7:
	$(call need_matplotlib,$@,--optional)
	@$(MAKE) configure
	$(call quiet_build,--target lab7_bench_sizes_solution)
	@mkdir -p $(BUILD)/results; rm -f $(BUILD)/results/lab7_sizes.txt
	@$(BUILD)/bin/lab7_bench_sizes_solution $(BUILD)/results/lab7_sizes.txt
	@if [ -f $(BUILD)/results/lab7_sizes.txt ]; then $(PYTHON) grader/lab7/plot_sizes.py \
	  $(BUILD)/results/lab7_sizes.txt $(BUILD)/results/lab7_sizes.png; fi

# <<< course only
# >>> course only
# make bench: grader/bench/bench.py runs each lab's kernel driver in its
# bench mode (labN_kernels_solution bench; in a student copy labN_kernels)
# with a progress bar and writes $(BUILD)/results/bench-<gpu>.json; the GPU
# is looked for before anything is built. LAB=4 benches lab 4 only (the
# file's other labs are kept). Committed result files live in
# handouts/results/, and make plots / make handout-numbers read them there.
.PHONY: bench plots handout-numbers
BENCH_ARGS ?=
bench:
	@$(PYTHON) grader/bench/bench.py --check-gpu
	@$(MAKE) configure
	$(call quiet_build,--target bench_programs)
	@$(PYTHON) grader/bench/bench.py --bin $(BUILD)/bin --out $(BUILD)/results \
	  $(foreach n,$(LAB),--lab $(n)) $(BENCH_ARGS)

# make measure: every measurement program of solutions/measure/ (the
# experiments behind the handouts' and notes' figures, not graders), each
# under its own time limit, by solutions/measure/run-all.sh; the tables and
# run-all.log go to $(BUILD)/measure. It builds what it needs itself.
.PHONY: measure
measure:
	@OUT=$(BUILD)/measure BUILD=$(BUILD) JOBS=$(JOBS) PYTHON=$(PYTHON) bash solutions/measure/run-all.sh

# RESULTS: the result files to draw (yours beside ours:
#   make plots RESULTS="build/results/bench-*.json handouts/results/bench-*.json" FIGURES=build/figures)
RESULTS ?= $(wildcard handouts/results/bench-*.json)
FIGURES ?= handouts/figures
plots:
	$(call need_matplotlib,plots)
	@$(PYTHON) grader/bench/plots.py --out $(FIGURES) $(RESULTS)

handout-numbers:
	@$(PYTHON) grader/bench/handout_numbers.py --write README.md handouts/lab*.md $(wildcard docs/notes/lab*.md)

check-solution-lab%: configure
	$(call quiet_build,--target lab$*_check_solution)
	@mkdir -p $(BUILD)/results
	@$(BUILD)/bin/lab$*_check_solution --results $(BUILD)/results/lab$*_check_solution.json $(GRADER_ARGS)

# <<< course only
# The lab's lesson as Nsight Compute measures it (grader/tools/ncu_profile.py):
# each kernel of the lab's table (grader/labN/labN_kernels.c) once, through
# the one kernel driver, the metrics of grader/labN/labN_profile.metrics in words.
# PROFILE_ARGS go to the runner (e.g. a size).
PROFILE_ARGS ?=
profile-lab%: configure
	$(call quiet_build,--target lab$*_kernels)
	@$(PYTHON) grader/tools/ncu_profile.py --metrics grader/lab$*/lab$*_profile.metrics \
	  -- $(BUILD)/bin/lab$*_kernels profile $(PROFILE_ARGS)

# >>> course only
profile-solution-lab%: configure
	$(call quiet_build,--target lab$*_kernels_solution)
	@$(PYTHON) grader/tools/ncu_profile.py --metrics grader/lab$*/lab$*_profile.metrics \
	  -- $(BUILD)/bin/lab$*_kernels_solution profile $(PROFILE_ARGS)

# <<< course only
# YOUR kernels timed the graders' way (the lab's kernel table, grader/labN/
# labN_kernels.c, run by grader/driver/kernel_driver.c; grader/support/timing.h:
# interleaved with the lab's baseline, L2 flushed before each run, the median), one line each:
# size, ms, GB/s or GFLOP/s, the baseline's, and the ratio. SIZE is the
# lab's problem size (labs 2, 3, 7: MxNxK; 1, 4: WxH / RxC; 5, 6: N); the
# default is the grader's. Not graded; each output is checked once after its
# runs, and a wrong one prints WRONG RESULT and fails: make check-labN says why.
SIZE ?=
time-lab%: configure
	$(call quiet_build,--target lab$*_kernels)
	@$(BUILD)/bin/lab$*_kernels time $(SIZE)

# >>> course only
time-solution-lab%: configure
	$(call quiet_build,--target lab$*_kernels_solution)
	@$(BUILD)/bin/lab$*_kernels_solution time $(SIZE)

# <<< course only
# YOUR lab N under compute-sanitizer (grader/tools/sanitize.sh): memcheck on
# the grader's GPU tests, and racecheck and synccheck on the lab's race
# runner where it has one (labs with shared memory). Built apart, in $(SANITIZE_BUILD), with
# -lineinfo so findings name file and line. SANITIZE_ARGS replaces the
# grader's options (default --group gpu), e.g. SANITIZE_ARGS="--only gpu_vector_add".
SANITIZE_BUILD ?= build-sanitize
SANITIZE_ARGS ?=
# Without a GPU or compute-sanitizer it says so in one line, builds nothing
# and exits 0, as time-labN and profile-labN do.
sanitize-lab%:
	@rc=0; grader/tools/sanitize.sh --preflight $* || rc=$$?; \
	if [ $$rc -eq 3 ]; then exit 0; elif [ $$rc -ne 0 ]; then exit $$rc; fi; \
	$(MAKE) BUILD=$(SANITIZE_BUILD) CMAKE_ARGS="$(CMAKE_ARGS) -DCUDA_LABS_LINEINFO=ON" configure && \
	$(MAKE) BUILD=$(SANITIZE_BUILD) sanitize-build-lab$* && \
	grader/tools/sanitize.sh $* $(SANITIZE_BUILD) $(SANITIZE_ARGS)

# (labN_check brings its race runner, labN_racecheck, where the lab has one.)
sanitize-build-lab%:
	$(call quiet_build,--target lab$*_check)

# What the compiler made of YOUR kernels, no GPU needed: registers, static
# shared memory and local memory (spills) per kernel, from ptxas's report
# for sm_90 (the course's reference GPU), the report the graders' static
# checks read (grader/cmake/WriteKernelResources.cmake). sass-labN: the
# machine code (SASS) that report was read from, by cuobjdump; KERNEL=name
# dumps one kernel (cuobjdump -fun). cuobjdump is looked for as nvcc is: on
# PATH, else next to nvcc. (resources-solution-labN, sass-solution-labN:
# the same for the reference.)
NVCC_PATH := $(or $(CUDACXX),$(shell command -v nvcc 2>/dev/null))
CUOBJDUMP ?= $(or $(shell command -v cuobjdump 2>/dev/null),$(wildcard $(dir $(NVCC_PATH))cuobjdump))
KERNEL ?=
# $(call print_resources,file): the report as a table; its "# error:" line fails.
print_resources = @awk -F'\t' '/^\# error:/ { print substr($$0, 3); bad = 1; next } \
  /^\#/ { sub(/^\# kernel resources: /, ""); sub(/ \(.*$$/, ""); \
  print "What the compiler made of each kernel (" $$0 "):"; \
  printf "  %-36s %9s %13s %12s %12s\n", "kernel", "registers", "shared bytes", "local bytes", \
  "of spills"; next } \
  { printf "  %-36s %9d %13d %12d %12d\n", $$8, $$2, $$3, $$4, $$5 } END { exit bad }' $(1)
# $(call sass,lab3 or lab3_solution): the SASS, or the one line that says what to do.
sass = @test -n "$(CUOBJDUMP)" || { echo "cuda-labs: make $@ needs cuobjdump, found neither on \
  PATH nor next to nvcc ($(or $(NVCC_PATH),not found)): install the toolkit's cuobjdump \
  (e.g. apt-get install cuda-cuobjdump-13-0) or give make CUOBJDUMP=/path/to/cuobjdump; \
  make resources-lab$* needs only nvcc." >&2; exit 1; }; \
  $(MAKE) configure && cmake --build $(BUILD) -j $(JOBS) \
  --target $(subst lab$*,lab$*_resources,$(1)) >$(BUILD_LOG) 2>&1 || { cat $(BUILD_LOG); exit 1; }; \
  for cubin in $(BUILD)/results/$(1).resources.*.cubin; do \
  $(CUOBJDUMP) -sass $(if $(KERNEL),-fun '$(KERNEL)') "$$cubin" || exit 1; done
resources-lab%: configure
	$(call quiet_build,--target lab$*_resources)
	$(call print_resources,$(BUILD)/results/lab$*.resources)
sass-lab%:
	$(call sass,lab$*)
# >>> course only
resources-solution-lab%: configure
	$(call quiet_build,--target lab$*_resources_solution)
	$(call print_resources,$(BUILD)/results/lab$*_solution.resources)
sass-solution-lab%:
	$(call sass,lab$*_solution)
# <<< course only

# >>> course only
# Every lab's reference, with the grader's self-tests: proves the course works
# on this GPU. Keeps going after a failing lab and fails at the end. Then
# each threshold's margin on this GPU (grader/tools/calibrate.py --margins):
# how far the reference is above it and the baseline below it.
check-solutions: build
	@mkdir -p $(BUILD)/results; status=0; \
	for n in $(LAB_NUMBERS); do \
	  $(BUILD)/bin/lab$${n}_check_solution --group cpu --group gpu --group selftest \
	    --results $(BUILD)/results/lab$${n}_check_solution.json $(GRADER_ARGS) || status=1; \
	done; echo; $(PYTHON) grader/tools/calibrate.py --margins \
	  $(foreach n,$(LAB_NUMBERS),$(BUILD)/results/lab$(n)_check_solution.json) || true; \
	exit $$status

# make calibrate: REPEAT rounds of every lab's solution grader (gpu and
# selftest groups, with the headers' defaults) on this GPU; each threshold
# proposed by the rule of grader/calibration/rules.json, into
# grader/calibration/<gpu>.json for the instructor to commit
# (grader/tools/calibrate.py, docs/instructors.md).
# APPEND=1 adds the rounds to those already in $(BUILD)/calibration-runs
# (20 rounds in sittings of 5, say) and proposes from all of them.
# TOGETHER=1 runs each round's labs at once under the batch grader's GPU
# share (each measurement still holds the GPU alone): shorter rounds.
# make verify-calibration: REPEAT rounds of every solution grader (gpu and
# selftest groups) with the calibration this GPU has: how many each passed.
# APPEND=1 and TOGETHER=1 as for make calibrate.
.PHONY: calibrate verify-calibration
REPEAT ?= 20
APPEND ?=
TOGETHER ?=
calibrate: build
	@$(PYTHON) grader/tools/calibrate.py --repeat $(REPEAT) --bin $(BUILD)/bin \
	  --runs-dir $(BUILD)/calibration-runs $(if $(APPEND),--append) $(if $(TOGETHER),--together)

verify-calibration: build
	@$(PYTHON) grader/tools/calibrate.py --verify --repeat $(REPEAT) --bin $(BUILD)/bin \
	  --runs-dir $(BUILD)/calibration-verify $(if $(APPEND),--append) $(if $(TOGETHER),--together)

# <<< course only
clean:
	rm -rf $(BUILD)

# >>> course only
# A copy of the course for students: no solutions/, the graders and the
# answer libraries as machine code only (grader/tools/dist-student.sh,
# docs/design.md section 5). LABS="1 2": those labs only; GRADERS=source:
# the graders as source; DIST_ARCHS: the GPUs (default: every CUDA 13 one).
#   make dist-student OUT=../cuda-labs-student [LABS="1 2"]
.PHONY: dist-student
dist-student:
	@test -n "$(OUT)" || { echo "usage: make dist-student OUT=dir" >&2; exit 2; }
	PYTHON=$(PYTHON) grader/tools/dist-student.sh "$(OUT)"

# Every known-wrong variant (solutions/variants/labN/<name>.cmake,
# grader/tests/README.md): its name, the first sentence of the comment it
# opens with, and the tests it FAILS or PASSES. Read from the files, so the
# list is never behind them.
.PHONY: list-variants
list-variants:
	@for f in solutions/variants/lab[0-9]*/*.cmake; do \
	  name=$${f#solutions/variants/}; \
	  awk -v name="$${name%.cmake}" ' \
	    /^#/ && !body { sub(/^# ?/, ""); said = said (said == "" ? "" : " ") $$0; next } \
	    { body = 1 } \
	    match($$0, /(FAILS|PASSES) [A-Za-z0-9_]+/) { t = substr($$0, RSTART, RLENGTH); \
	      split(t, w, " "); tests = tests (tests == "" ? "" : ", ") tolower(w[1]) " " w[2] } \
	    END { i = index(said ". ", ". "); if (i) said = substr(said, 1, i); \
	      print name ": " said; print "    " tests }' "$$f"; \
	done

# <<< course only
# What a student hands in: exactly the files the batch grader takes (each
# lab's .cu files under labs/; never labN.h), listed as they go in. Then each
# is compared with the skeleton as handed out (grader/skeletons.manifest,
# grader/tools/skeleton_manifest.py): changed or not, how many entry points
# still return the skeleton's "TODO(...) is not done yet", and a warning
# when a lab is untouched; the archive is written either way. Without
# Python only the files' hashes are compared (sha256sum).
.PHONY: submit skeleton-manifest
submit:
	@files=$$(ls labs/lab[0-9]*_*/*.cu 2>/dev/null); \
	test -n "$$files" || { echo "no labs/*/*.cu files here" >&2; exit 1; }; \
	tar -czf submission.tar.gz $$files && echo "submission.tar.gz:" && tar -tzf submission.tar.gz | sed 's/^/  /'
ifneq ($(PYTHON_PATH),)
	@$(PYTHON) grader/tools/skeleton_manifest.py --compare
else
	@echo "Compared with the skeletons as handed out (file hashes only: no Python 3 here):"; \
	said=$$(awk -F'\t' '$$1 == "file" { print $$2 "  " $$3 }' grader/skeletons.manifest | \
	  sha256sum -c 2>/dev/null | sed -e 's/: OK$$/: UNCHANGED: still the skeleton/' \
	  -e 's/: FAILED open or read$$/: MISSING: not handed in/' -e 's/: FAILED$$/: changed/'); \
	echo "$$said" | sed 's/^/  /'; \
	if echo "$$said" | grep -qE 'UNCHANGED|MISSING'; then echo "warning: some lab files are \
	still the skeleton or missing. The archive was written anyway: hand it in only if that is \
	what you mean to submit."; fi
endif

# >>> course only
# After editing a skeleton (labs/*/*.cu): rewrite grader/skeletons.manifest
# and commit it. The ctest docs.skeleton_manifest and make dist-student
# check that it matches.
skeleton-manifest:
	@$(PYTHON) grader/tools/skeleton_manifest.py --write

# After editing a lab's grader/labN/lab.ini or labN_calibration_rules.json:
# rewrite the central lists written from them (grader/tools/lab_lists.py;
# the ctest docs.lab_lists checks them), and commit those.
.PHONY: lab-lists
lab-lists:
	@$(PYTHON) grader/tools/lab_lists.py --write
# <<< course only

# >>> course only
# Lines of C, CUDA, headers, Python, CMake, shell and Make per area and in
# total (git's tracked files; lab 8 aside). REV=commit counts that commit's.
.PHONY: count-lines
count-lines:
	@$(PYTHON) grader/tools/count_lines.py $(if $(REV),--rev $(REV))
# <<< course only
