# SPDX-License-Identifier: GPL-2.0
# tlat: build the tool, its tests and its man pages. "make test" runs them all.

PREFIX	?= /usr/local
DESTDIR	?=
BINDIR	?= $(PREFIX)/bin
MANDIR	?= $(PREFIX)/share/man
DATADIR	?= $(PREFIX)/share
BASHCOMPDIR ?= $(PREFIX)/share/bash-completion/completions
# tlat.ko's source for DKMS, which looks in /usr/src/<name>-<version> whatever PREFIX is
DKMS_VERSION := $(shell sed -n 's/^PACKAGE_VERSION="\(.*\)"$$/\1/p' kernel/dkms.conf)
DKMS_SRCDIR ?= /usr/src/tlat-$(DKMS_VERSION)
DKMS_FILES := kernel/Kbuild kernel/Makefile kernel/dkms.conf kernel/README \
	      $(wildcard kernel/tlat_*.c kernel/tlat_*.h)

CC	?= cc
PKGS	:= libtracefs libtraceevent libtracecmd libproc2 json-c libxml-2.0
# CFLAGS and LDFLAGS are the builder's, from the environment or the command
# line (make CFLAGS=...); what tlat needs is added to them, never replaced
# (CPPFLAGS too); tlat's own flags live in TLAT_* variables that neither
# replaces.
CFLAGS	?= -O2 -g
TLAT_CFLAGS := -std=gnu11 -Wall -Wextra -D_GNU_SOURCE -Isrc $(shell pkg-config --cflags $(PKGS))
# libcpupower (--deepest-idle-state) ships no pkg-config file
TLAT_LIBS := $(shell pkg-config --libs $(PKGS)) -lcpupower -lpthread -lm
TLAT_LDFLAGS :=

# Objects go to build/, beside the tree they come from; each depends on the
# headers it includes (-MMD), not on every header.
BUILD	:= build

# make SANITIZE=address,undefined: tlat and the unit tests built with the
# compiler's sanitizers (gcc or clang), in a build directory of their own;
# the suites run them with tests/sanitize/ (the reviewed suppressions of the
# libraries' leaks, and the options that make any report fail the test).
SANITIZE ?=
comma	:= ,
ifneq ($(SANITIZE),)
BUILD	:= build/san-$(subst $(comma),-,$(SANITIZE))
SAN_FLAGS := -fsanitize=$(SANITIZE) -fno-omit-frame-pointer -fno-sanitize-recover=all
TLAT_CFLAGS += $(SAN_FLAGS)
TLAT_LDFLAGS += $(SAN_FLAGS)
endif
# A sanitized tlat is $(BUILD)/tlat, never ./tlat: ./tlat is always the plain
# build, the one the VM tests copy into their guests and make install installs.
TLAT_BIN := $(if $(SANITIZE),$(BUILD)/tlat,tlat)
ALL_CFLAGS = $(TLAT_CFLAGS) $(CPPFLAGS) $(CFLAGS)
ALL_LDFLAGS = $(TLAT_LDFLAGS) $(LDFLAGS)
# What was built with which flags: an object is rebuilt when its flags change
# (make CFLAGS=...), and tlat relinked when it comes from another build
# directory (SANITIZE= or not).
FLAGS_NOW := $(ALL_CFLAGS) | $(ALL_LDFLAGS)
FLAGS_STAMP := $(BUILD)/flags
TLAT_STAMP := build/tlat.flags
ifneq ($(FLAGS_NOW),$(file <$(FLAGS_STAMP)))
$(shell mkdir -p $(BUILD))
$(file >$(FLAGS_STAMP),$(FLAGS_NOW))
endif
ifeq ($(SANITIZE),)
ifneq ($(BUILD) $(FLAGS_NOW),$(file <$(TLAT_STAMP)))
$(shell mkdir -p build)
$(file >$(TLAT_STAMP),$(BUILD) $(FLAGS_NOW))
endif
endif
export ASAN_OPTIONS ?= abort_on_error=0:detect_leaks=1:exitcode=86
export UBSAN_OPTIONS ?= print_stacktrace=1:halt_on_error=1:exitcode=86
export LSAN_OPTIONS ?= suppressions=$(CURDIR)/tests/sanitize/lsan.supp:print_suppressions=0:exitcode=86
# a layer's folder, and a source's own folder within sources/
SRCS	:= $(filter-out %.bpf.c,$(wildcard src/*/*.c src/*/*/*.c))

# The kernel-side collectors' BPF programs (*.bpf.c in src/): built where clang,
# bpftool, libbpf and this machine's BTF are, CO-RE, so that they load on
# other kernels too; without them tlat builds, and runs the trace collector.
BPF_CLANG ?= clang
BPFTOOL	?= bpftool
VMLINUX_BTF ?= /sys/kernel/btf/vmlinux
HAVE_BPF ?= $(shell command -v $(BPF_CLANG) > /dev/null && command -v $(BPFTOOL) > /dev/null && \
		pkg-config --exists libbpf && test -r $(VMLINUX_BTF) && echo 1)
BPF_SRCS := $(wildcard src/*/*.bpf.c src/*/*/*.bpf.c)
BPF_SKELS := $(patsubst %.bpf.c,$(BUILD)/bpf/%.skel.h,$(notdir $(BPF_SRCS)))
ifeq ($(HAVE_BPF),1)
TLAT_CFLAGS += -DHAVE_BPF -I$(BUILD)/bpf $(shell pkg-config --cflags libbpf)
TLAT_LIBS += $(shell pkg-config --libs libbpf)
endif
OBJS	:= $(SRCS:%.c=$(BUILD)/%.o)
# everything but main() goes into a library that the unit tests link too
LIB_OBJS := $(filter-out $(BUILD)/src/cmd/tlat.o,$(OBJS))
UNIT_SRCS := $(wildcard tests/unit/test_*.c)
UNIT_BINS := $(UNIT_SRCS:%.c=$(BUILD)/%)
# what the unit tests share (tests/unit/unit_*.c): an archive each links,
# taking only what it calls
UNIT_HELPER_OBJS := $(patsubst %.c,$(BUILD)/%.o,$(wildcard tests/unit/unit_*.c))
UNIT_HELPERS := $(BUILD)/tests/unit/libunit.a
# helpers of the live tests: a SCHED_FIFO hog and a NET_RX softirq flooder
TEST_TOOLS := tests/tools/tlat-hog tests/tools/softirq-flood

.PHONY: all clean install test deps unit-test live-test vm-test vm-test-full vm-test-many vm-test-aa vm-test-deb test-tools \
	kill-storm vm-storm deb

all: tlat

$(BUILD)/%.o: %.c $(FLAGS_STAMP)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -MMD -MP -c -o $@ $<

ifeq ($(HAVE_BPF),1)
$(BUILD)/bpf/vmlinux.h:
	@mkdir -p $(@D)
	$(BPFTOOL) btf dump file $(VMLINUX_BTF) format c > $@.tmp && mv $@.tmp $@

vpath %.bpf.c $(sort $(dir $(BPF_SRCS)))
$(BUILD)/bpf/%.bpf.o: %.bpf.c $(BUILD)/bpf/vmlinux.h
	$(BPF_CLANG) -g -O2 -Wall -Werror -target bpf -D__TARGET_ARCH_x86 -I$(BUILD)/bpf -Isrc \
		-MMD -MP -c -o $@ $<

$(BUILD)/bpf/%.skel.h: $(BUILD)/bpf/%.bpf.o
	$(BPFTOOL) gen skeleton $< name $*_skel > $@.tmp && mv $@.tmp $@

# the skeletons before any object that includes one
$(OBJS): | $(BPF_SKELS)
endif

# made anew: an object whose source is gone must not stay in it
$(BUILD)/libtlat.a: $(LIB_OBJS)
	@rm -f $@
	$(AR) rcs $@ $^

ifeq ($(SANITIZE),)
tlat: $(BUILD)/src/cmd/tlat.o $(BUILD)/libtlat.a $(TLAT_STAMP)
	$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) -o $@ $(filter %.o %.a,$^) $(TLAT_LIBS)
else
.PHONY: tlat
tlat: $(TLAT_BIN)

$(TLAT_BIN): $(BUILD)/src/cmd/tlat.o $(BUILD)/libtlat.a $(FLAGS_STAMP)
	$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) -o $@ $(filter %.o %.a,$^) $(TLAT_LIBS)
endif

$(UNIT_HELPERS): $(UNIT_HELPER_OBJS)
	@rm -f $@
	$(AR) rcs $@ $^

$(BUILD)/tests/unit/test_%: $(BUILD)/tests/unit/test_%.o $(UNIT_HELPERS) $(BUILD)/libtlat.a
	$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) -o $@ $^ $(TLAT_LIBS) $(shell pkg-config --libs cmocka)

tests/tools/%: tests/tools/%.c
	$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) -o $@ $< -lpthread

-include $(OBJS:.o=.d) $(UNIT_BINS:=.d) $(UNIT_HELPER_OBJS:.o=.d) $(BPF_SKELS:.skel.h=.bpf.d)

test-tools: $(TEST_TOOLS)

# MUTATIONS damaged copies of each golden recording through tlat report: exit
# 0, 1 or 2 in time, one line on an error, never a signal (tests/robust/)
MUTATIONS ?= 4

# and a short fuzzing campaign (FUZZ_SHORT_SECONDS per harness) after the
# fuzzers' regressions (tests/fuzz/);
# and tests/golden: what tlat report prints of fixed recordings stays as saved;
# and every function a public header declares has its kernel-doc comment;
# and every #include of src/ follows the layers of src/LAYERS (tests/style/layers.py);
# and the CI examples in ci/ parse, pass LAVA's schemas and run (tests/ci/)
unit-test: $(UNIT_BINS) tlat
	@fail=0; mounts=$$(grep -c ' tracefs ' /proc/mounts); \
	for t in $(UNIT_BINS); do $$t || fail=1; done; \
	tests/tools/mounts-same.sh "$$mounts" "the unit tests" || fail=1; \
	tests/ci/test_examples.py --tlat ./$(TLAT_BIN) || fail=1; \
	tests/golden/run.sh $(TLAT_BIN) || fail=1; \
	tests/robust/mutate.py -n $(MUTATIONS) --tlat ./$(TLAT_BIN) tests/golden/recordings/*.dat.xz || fail=1; \
	$(MAKE) --no-print-directory fuzz-short || fail=1; \
	python3 tests/style/kernel-doc.py src || fail=1; \
	python3 tests/style/layers.py src || fail=1; exit $$fail

# libFuzzer harnesses (tests/fuzz/fuzz_*.c), built with clang, ASan and UBSan
# in a build directory of their own; make fuzz runs each for FUZZ_SECONDS on
# its corpus (build/fuzz/corpus/, grown run after run), seeded from the golden
# recordings (tests/fuzz/seeds.sh); a crash is saved in build/fuzz/crashes/
# and fails the run, and belongs in tests/fuzz/regress/ once fixed.
FUZZ_CC	?= clang
FUZZ_SANITIZE := fuzzer-no-link,address,undefined
FUZZ_BUILD := build/san-$(subst $(comma),-,$(FUZZ_SANITIZE))
FUZZ_NAMES := $(patsubst tests/fuzz/%.c,%,$(wildcard tests/fuzz/fuzz_*.c))
FUZZ_SECONDS ?= 60

.PHONY: fuzz fuzz-build fuzz-bins fuzz-short
fuzz-bins: $(FUZZ_NAMES:%=$(BUILD)/fuzz/%)

$(BUILD)/fuzz/%: tests/fuzz/%.c $(BUILD)/libtlat.a
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -fsanitize=fuzzer $(ALL_LDFLAGS) -o $@ $^ $(TLAT_LIBS)

fuzz-build:
	$(MAKE) CC=$(FUZZ_CC) SANITIZE=$(FUZZ_SANITIZE) fuzz-bins

fuzz: fuzz-build
	tests/fuzz/run.sh $(FUZZ_BUILD)/fuzz $(FUZZ_SECONDS) $(FUZZ_NAMES)

# the regressions, then a short campaign: part of unit-test. The readers of
# small outside files (kallsyms, settings files, compare's documents, a
# trace.dat's headers) run thousands of inputs a second: FUZZ_SMALL_SECONDS
# each is enough.
FUZZ_SMALL := fuzz_compare fuzz_knobs fuzz_ksyms fuzz_datcheck
fuzz-short: fuzz-build
	@fail=0; \
	tests/fuzz/run.sh $(FUZZ_BUILD)/fuzz $(FUZZ_SHORT_SECONDS) \
		$(filter-out $(FUZZ_SMALL),$(FUZZ_NAMES)) || fail=1; \
	tests/fuzz/run.sh $(FUZZ_BUILD)/fuzz $(FUZZ_SMALL_SECONDS) $(FUZZ_SMALL) || fail=1; \
	exit $$fail
FUZZ_SHORT_SECONDS ?= 15
FUZZ_SMALL_SECONDS ?= 7

# The machine states the live suite runs in, each in a private mount
# namespace (tests/live/states.sh: none, tracefs, debugfs, both): a fresh
# machine's, and debugfs's alone, where tracefs is only its automount.
LIVE_STATES ?= none debugfs

# json.sh validates the documents test_json writes, besides the live ones
live-test: tlat test-tools $(BUILD)/tests/unit/test_json
	@fail=0; for s in $(LIVE_STATES); do \
		echo "# live tests in machine state '$$s'"; \
		tests/live/states.sh $$s tests/live/run.sh $(TLAT_BIN) || fail=1; \
	done; exit $$fail

# The sanitizers in CI (make test): tlat and the unit tests built with ASan
# and UBSan in build/san-address-undefined/ (their tlat is
# build/san-address-undefined/tlat, so ./tlat stays the plain one the VM tests
# use), then the cmocka binaries, the golden recordings and the mutations
# (unit-test's fuzz-short already runs under both), and the whole live suite
# in machine state none (SAN_LIVE_PARTS="core aa ..." runs some of its parts;
# empty, all). Any report fails it: the live runs log theirs to
# build/san-*/reports/ (the tests see only the exit status), and the suite
# fails if a file is there. The live runs unwind each allocation's stack
# whole (fast_unwind_on_malloc=0: libtracefs has no frame pointers), so that
# lsan.supp's entries match the library's functions; verify_asan_link_order=0
# lets them start under stdbuf (its LD_PRELOAD). About 11 minutes on 2 CPUs,
# the sanitized build included: build and unit part 1 min 13 s, then core
# 153 s, aa 35 s, json 61 s, record 117 s, actions 43 s, opts 58 s, upstream
# 80 s, backlog 90-115 s, compare 19 s, plot 16 s, completion 1 s
# (docs/robustness.md).
SAN_TEST_SANITIZE := address,undefined
SAN_LIVE_PARTS ?=
SAN_REPORTS = $(BUILD)/reports
.PHONY: san-test san-test-run
san-test:
	$(MAKE) test-tools build/tests/unit/test_json
	$(MAKE) SANITIZE=$(SAN_TEST_SANITIZE) san-test-run

san-test-run: $(UNIT_BINS) $(TLAT_BIN)
	@fail=0; mounts=$$(grep -c ' tracefs ' /proc/mounts); \
	for t in $(UNIT_BINS); do $$t || fail=1; done; \
	tests/tools/mounts-same.sh "$$mounts" "the unit tests" || fail=1; \
	tests/golden/run.sh $(TLAT_BIN) || fail=1; \
	tests/robust/mutate.py -n $(MUTATIONS) --tlat ./$(TLAT_BIN) tests/golden/recordings/*.dat.xz || fail=1; \
	rm -rf $(SAN_REPORTS) && mkdir -p $(SAN_REPORTS); \
	echo "# live tests against $(TLAT_BIN), parts: $(or $(SAN_LIVE_PARTS),all)"; \
	ASAN_OPTIONS="$$ASAN_OPTIONS:fast_unwind_on_malloc=0:verify_asan_link_order=0:log_path=$(CURDIR)/$(SAN_REPORTS)/asan" \
	UBSAN_OPTIONS="$$UBSAN_OPTIONS:log_path=$(CURDIR)/$(SAN_REPORTS)/ubsan" \
	TLAT_LIVE_PARTS="$(SAN_LIVE_PARTS)" \
		tests/live/states.sh none tests/live/run.sh $(TLAT_BIN) || fail=1; \
	for r in $(SAN_REPORTS)/*; do \
		[ -e "$$r" ] || continue; echo "# sanitizer report $$r:"; sed 's/^/# /' "$$r"; fail=1; \
	done; exit $$fail

# KILL_STORM_RUNS runs killed at random times with random signals, half with
# tracefs mounted beforehand and half not; after each, the next run leaves
# the system as found (tests/live/kill-storm.sh; the live suite runs a few)
KILL_STORM_RUNS ?= 50
kill-storm: tlat
	tests/live/kill-storm.sh -n $(KILL_STORM_RUNS) $(TLAT_BIN)

# tlat.ko and the kernel sources, in Debian's PREEMPT_RT 6.1 and 6.12 under QEMU,
# then the auto-analysis and the packages. Guests run side by side, one per
# host CPU (scripts/vm/parallel.sh); checkpatch runs once. vm-test-many (in
# vm-test-full, below): every source on guests of many vCPUs
# (tests/vm/many-cpus.sh), with the events enabled at boot: enabling them at
# run time oopses TCG guests of 8 vCPUs (int3 at jump-label sites).
VM_MANY_CPUS ?= 6.1:8 6.12:8 6.12:16
VM_MANY_ARGS = --no-checkpatch --no-dkms --suite tests/vm/many-cpus.sh \
	--append 'trace_event=sched:*,irq:*,timer:*,osnoise:* trace_buf_size=64k'
vm-test: tlat
	scripts/vm/parallel.sh "--series 6.1" "--series 6.12 --no-checkpatch"
	$(MAKE) vm-test-aa
	$(MAKE) vm-test-deb

# what CI leaves out: the guests of many vCPUs, whose periods a loaded host
# starves under TCG (28% of them on one vCPU of eight in a CI run on b71d54c,
# below the suite's 30% floor, where an unloaded run kept 95%)
vm-test-full: vm-test
	$(MAKE) vm-test-many

# the Debian packages (make deb), installed, in both guests: DKMS builds
# tlat.ko from tlat-dkms's installed source for each kernel, the guest's dpkg
# installs the tlat .deb, and its /usr/bin/tlat runs the module and timerlat
# sources (tests/vm/deb.sh says what "installed" means); about 2 minutes
# (make deb 20-95 s, then both guests side by side: builds 25 s, guest 40 s)
VM_DEB_ARGS = --no-checkpatch --no-dkms --deb $(DEB_DIR) --suite tests/vm/deb.sh
vm-test-deb: deb
	scripts/vm/parallel.sh "--series 6.1 $(VM_DEB_ARGS)" "--series 6.12 $(VM_DEB_ARGS)"

vm-test-many: tlat
	scripts/vm/parallel.sh $(foreach v,$(VM_MANY_CPUS),\
		"--series $(word 1,$(subst :, ,$(v))) --smp $(word 2,$(subst :, ,$(v))) $(VM_MANY_ARGS)")

# the auto-analysis side by side with upstream rtla (6.12's, built from
# Debian's linux-source-6.12 by scripts/vm/fetch-rtla.sh; see
# tests/vm/aa-rtla.sh for why not 7.1), in the 6.12 guest: about 4 minutes
# (the guest ran 220 s), so vm-test runs it too; then the timer IRQ's
# filing on each kernel source of 6.1 (tests/vm/aa-hits.sh, -k only on the
# timerlat tracer there: no timerlat_fd)
vm-test-aa: tlat
	TLAT_VM_RTLA=$$(scripts/vm/fetch-rtla.sh) && \
	TLAT_VM_RTLA=$$TLAT_VM_RTLA scripts/vm/run.sh --series 6.12 --no-checkpatch --no-dkms \
		--suite tests/vm/aa-rtla.sh
	scripts/vm/run.sh --series 6.1 --no-checkpatch --no-dkms --suite tests/vm/aa-hits.sh

# the module's full storms (tests/vm/storm.sh: 1000 load/unload cycles,
# malformed parameters, /dev/tlat misuse, 30 s hotplug storms under 3 tlat
# runs), on 4 vCPUs, with SLUB's red zones and poisoning, the two kernels
# side by side; vm-test runs the short ones in its default suite.
# VM_STORM_SMP=2 for the guests' default.
VM_STORM_SMP ?= 4
VM_STORM_ARGS = --no-checkpatch --no-dkms --suite tests/vm/storm.sh --timeout 900 \
	--smp $(VM_STORM_SMP) --append 'tlat_storm=full slub_debug=FZP'
vm-storm: tlat
	scripts/vm/parallel.sh "--series 6.1 $(VM_STORM_ARGS)" "--series 6.12 $(VM_STORM_ARGS)"

# installs what it needs first, so it works on a fresh machine
test:
	scripts/install-deps.sh
	$(MAKE) all
	$(MAKE) unit-test
	$(MAKE) live-test
	$(MAKE) san-test
	$(MAKE) vm-test

deps:
	scripts/install-deps.sh

install: tlat
	install -D -m 0755 $(TLAT_BIN) $(DESTDIR)$(BINDIR)/tlat
	for m in man/*.8; do install -D -m 0644 $$m $(DESTDIR)$(MANDIR)/man8/$$(basename $$m); done
	for j in docs/*.schema.json; do install -D -m 0644 $$j $(DESTDIR)$(DATADIR)/tlat/$$(basename $$j); done
	install -D -m 0644 completion/tlat $(DESTDIR)$(BASHCOMPDIR)/tlat
	install -d $(DESTDIR)$(DKMS_SRCDIR)
	install -m 0644 $(DKMS_FILES) $(DESTDIR)$(DKMS_SRCDIR)/

# Debian packages tlat and tlat-dkms (debian/), built from a scratch copy of
# this tree in $(DEB_DIR) (dpkg-buildpackage writes the .debs beside the tree
# it builds; dh_missing fails it if a file make install installs is in no
# package), checked by lintian where it is installed, and the packaged tlat
# run; 20 s to 2 minutes, so not part of make test. Build dependencies:
# debian/control.
DEB_DIR	:= build/deb
deb:
	rm -rf $(DEB_DIR) && mkdir -p $(DEB_DIR)/tlat
	tar --exclude=./build --exclude=./.git --exclude=./tlat -cf - . | tar -xf - -C $(DEB_DIR)/tlat
	cd $(DEB_DIR)/tlat && dpkg-buildpackage -us -uc -b
	if command -v lintian > /dev/null; then lintian -I --fail-on warning $(DEB_DIR)/*.changes; fi
	dpkg-deb -x $(DEB_DIR)/tlat_*.deb $(DEB_DIR)/root
	$(DEB_DIR)/root/usr/bin/tlat --version
	@ls $(DEB_DIR)/*.deb

clean:
	rm -rf tlat $(BUILD) $(TEST_TOOLS)
