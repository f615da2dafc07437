# ktop - top for kernel events.  `make run` and `make check` are all a new machine needs.
PREFIX ?= /usr/local
DESTDIR ?=
BINDIR = $(PREFIX)/bin
MANDIR = $(PREFIX)/share/man/man1
DATADIR = $(PREFIX)/share/ktop
# systemd reads units from /usr/local/lib/systemd/system too.
UNITDIR ?= $(PREFIX)/lib/systemd/system
# bash-completion looks in $XDG_DATA_DIRS/bash-completion/completions (/usr/local/share too).
COMPLETIONDIR ?= $(PREFIX)/share/bash-completion/completions
THEMES = $(wildcard themes/*.theme)

CC ?= cc
PKG_CONFIG ?= pkg-config
# Linked: what every run may need. Loaded when an option needs them (lib/dl.h):
# the exporter's, the web config's and remote write's, named KEY=PACKAGE for
# tools/gen-dlnames.sh; compiled against, never linked into ktop.
PKGS = ncursesw libtracefs libtraceevent sqlite3 zlib
DL_LIBS = MHD=libmicrohttpd GNUTLS=gnutls CRYPT=libcrypt YAML=yaml-0.1 CURL=libcurl SNAPPY=snappy
DL_PKGS = $(foreach l,$(DL_LIBS),$(word 2,$(subst =, ,$(l))))
# The unit tests, helpers and fuzzers call some of them directly.
ALL_PKGS = $(PKGS) $(DL_PKGS)

WARN = -Wall -Wextra -Wshadow -Wpointer-arith -Wstrict-prototypes -Wmissing-prototypes \
       -Wformat=2 -Wformat-security -Wundef -Wcast-align -Wwrite-strings -Wvla
HARDEN = -D_FORTIFY_SOURCE=2 -fstack-protector-strong -fPIE
CFLAGS ?= -O2 -g
CFLAGS += -std=gnu11 $(WARN) -MMD -MP
CPPFLAGS += -D_GNU_SOURCE -DKTOP_DATADIR='"$(DATADIR)"'
LDFLAGS += -pie -Wl,-z,relro,-z,now

B = build
# The layout (DESIGN.md, Files; tools/check-layout.sh enforces it): lib/ is
# what includes nothing of ours, model/ the applied state (pure), tables/ the
# tables shown and written, store/ the recording (format, recorder, replay),
# collectors/ are sources, views/ and outputs/ are sinks, src/ wires them.
# Everything but the entry point and the terminal: what unit tests link.
# The program's wiring (the loop, the modes, the live view's actions) and the
# views are not in it.
APP_SRC = src/main.c src/ui.c src/sources.c src/sourcelist.c src/live.c src/cmd.c src/modesinks.c src/exporter.c \
	  src/watchdog.c src/sinks.c src/start.c src/replayctl.c src/flightctl.c
CORE_SRC = $(wildcard lib/*.c) $(wildcard model/*.c) $(wildcard tables/*.c) $(wildcard store/*.c) \
	   $(wildcard collectors/*.c) $(wildcard collectors/*/*.c) $(wildcard outputs/*.c) \
	   $(filter-out $(APP_SRC),$(wildcard src/*.c))
UI_SRC = $(APP_SRC) $(wildcard views/*.c)
# Syscall number -> name array of the architecture $(CC) builds for, generated
# from its headers and data/syscalls;
# the default and mono themes compiled in.
GEN_SRC = $(B)/gen/syscall_names.c $(B)/gen/themes.c
CORE_OBJ = $(CORE_SRC:%.c=$(B)/%.o) $(GEN_SRC:.c=.o)
UI_OBJ = $(UI_SRC:%.c=$(B)/%.o)
TEST_SRC = $(wildcard tests/unit/test_*.c)
TESTS = $(TEST_SRC:tests/unit/%.c=$(B)/tests/%)
ASAN_TESTS = $(TEST_SRC:tests/unit/%.c=$(B)/asan/%)
ASAN_FLAGS = -O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all

# libFuzzer harnesses (tests/fuzz): clang, coverage + ASan + UBSan. The core is
# compiled once for them (fuzzer-no-link); each harness links it with libFuzzer.
FUZZ_CC ?= clang
FUZZ_TARGETS = procparse sysparse evdecode text tsparse replay cgparse
FUZZ_SAN = -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
FUZZ_CFLAGS = -O1 -g -std=gnu11 $(WARN) $(FUZZ_SAN) $(CPPFLAGS) -Ilib -Imodel -Itables -Istore -Icollectors -Ioutputs -Itests/unit
FUZZ_OBJ = $(CORE_SRC:%.c=$(B)/fuzz/obj/%.o) $(GEN_SRC:$(B)/gen/%.c=$(B)/fuzz/obj/gen/%.o)
FUZZERS = $(FUZZ_TARGETS:%=$(B)/fuzz/fuzz_%)
FUZZ_SECONDS ?= 300

.PHONY: all run check deps deps-test install uninstall clean bench unit testprogs fuzzers fuzz stress soak deb

all: ktop

deps:
	@sh tools/deps.sh

deps-test:
	@sh tools/deps.sh test

# The flags of the packages are asked for only once the packages are there.
ktop: $(CORE_OBJ) $(UI_OBJ)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $$($(PKG_CONFIG) --libs $(PKGS)) -lm

$(B)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(HARDEN) $(CFLAGS) $$($(PKG_CONFIG) --cflags $(ALL_PKGS)) -c -o $@ $<

# The kernel's own syscall tables (data/syscalls/README.md) name what the
# build host's headers are too old to know.
SYSCALL_TABLES = data/syscalls/abis $(wildcard data/syscalls/*.tbl)

$(B)/gen/syscall_names.c: tools/gen-syscalls.sh $(SYSCALL_TABLES)
	@mkdir -p $(dir $@)
	sh tools/gen-syscalls.sh "$(CC)" $@ data/syscalls

$(B)/gen/dlnames.h: tools/gen-dlnames.sh
	@mkdir -p $(dir $@)
	sh tools/gen-dlnames.sh "$(CC)" "$(PKG_CONFIG)" $@ $(DL_LIBS)

$(B)/lib/dl.o $(B)/asan-obj/lib/dl.o $(B)/fuzz/obj/lib/dl.o: CPPFLAGS += -I$(B)/gen
$(B)/lib/dl.o $(B)/asan-obj/lib/dl.o $(B)/fuzz/obj/lib/dl.o: $(B)/gen/dlnames.h

$(B)/gen/themes.c: tools/gen-themes.sh themes/default.theme themes/mono.theme
	@mkdir -p $(dir $@)
	sh tools/gen-themes.sh $@ themes/default.theme themes/mono.theme

$(GEN_SRC:.c=.o): $(B)/gen/%.o: $(B)/gen/%.c
	$(CC) $(CPPFLAGS) $(HARDEN) $(CFLAGS) -Ilib -c -o $@ $<

$(B)/tests/%: tests/unit/%.c $(CORE_OBJ)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) -Ilib -Imodel -Itables -Istore -Icollectors -Ioutputs -o $@ $< $(CORE_OBJ) $$($(PKG_CONFIG) --libs $(ALL_PKGS)) -lm

# The core is compiled once under ASan+UBSan; each test links it.
ASAN_OBJ = $(CORE_SRC:%.c=$(B)/asan-obj/%.o) $(GEN_SRC:$(B)/gen/%.c=$(B)/asan-obj/gen/%.o)

$(B)/asan-obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) -std=gnu11 $(WARN) $(ASAN_FLAGS) -MMD -MP $$($(PKG_CONFIG) --cflags $(ALL_PKGS)) -c -o $@ $<

$(B)/asan-obj/gen/%.o: $(B)/gen/%.c
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) -std=gnu11 $(WARN) $(ASAN_FLAGS) -Ilib -c -o $@ $<

.SECONDARY: $(ASAN_OBJ)

# The program itself under ASan+UBSan: the mass-exit tests (tests/cli/massexit.bats,
# tests/stress/massexit.sh) run it, since the unit tests never reach its loop.
ASAN_UI_OBJ = $(UI_SRC:%.c=$(B)/asan-obj/%.o)
.SECONDARY: $(ASAN_UI_OBJ)

$(B)/ktop-asan: $(ASAN_OBJ) $(ASAN_UI_OBJ)
	$(CC) $(ASAN_FLAGS) $(LDFLAGS) -o $@ $^ $$($(PKG_CONFIG) --libs $(PKGS)) -lm

$(B)/asan/%: tests/unit/%.c $(ASAN_OBJ)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) -std=gnu11 $(WARN) $(ASAN_FLAGS) -Ilib -Imodel -Itables -Istore -Icollectors -Ioutputs $$($(PKG_CONFIG) --cflags $(ALL_PKGS)) -o $@ $< $(ASAN_OBJ) $$($(PKG_CONFIG) --libs $(ALL_PKGS)) -lm

# Test helpers run by the CLI tests (tests/helpers/NAME.c, linked with the core).
HELPERS = $(B)/tests/helpers/promsample $(B)/tests/helpers/clockcheck $(B)/tests/helpers/recbomb \
	  $(B)/tests/helpers/tdread

# The flight recorder's files read back with libtracecmd (a test dependency, tools/deps.sh).
$(B)/tests/helpers/tdread: tests/helpers/tdread.c
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) $$($(PKG_CONFIG) --cflags libtracecmd) -o $@ $< $$($(PKG_CONFIG) --libs libtracecmd)

$(B)/tests/helpers/%: tests/helpers/%.c $(CORE_OBJ)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) -Ilib -Imodel -Itables -Istore -Icollectors -Ioutputs -o $@ $< $(CORE_OBJ) $$($(PKG_CONFIG) --libs $(ALL_PKGS)) -lm

# The programs the CLI and terminal tests run as workloads (tests/cli/helpers,
# tests/tmux/helpers; a 32-bit sumwl): built here once, not by each bats file
# (helper_prog of tests/need.bash asks make for one a file run alone misses).
TEST_PROG_FLAGS = -O2 -Wall -Wextra -pthread
TEST_PROGS = $(patsubst tests/cli/helpers/%.c,$(B)/tests/cli/%,$(wildcard tests/cli/helpers/*.c)) \
	     $(patsubst tests/tmux/helpers/%.c,$(B)/tests/tmux/%,$(wildcard tests/tmux/helpers/*.c)) \
	     $(B)/tests/cli/sumwl32 $(B)/bench/flood

$(B)/tests/cli/%: tests/cli/helpers/%.c
	@mkdir -p $(dir $@)
	$(CC) $(TEST_PROG_FLAGS) -o $@ $<

$(B)/tests/tmux/%: tests/tmux/helpers/%.c
	@mkdir -p $(dir $@)
	$(CC) $(TEST_PROG_FLAGS) -o $@ $<

# -m32 needs gcc-multilib (tools/deps.sh test): without it no program, and the
# tests of a 32-bit process say so (a skip, a failure where deps.sh test ran).
$(B)/tests/cli/%32: tests/cli/helpers/%.c
	@mkdir -p $(dir $@)
	@echo "$(CC) -m32 $(TEST_PROG_FLAGS) -o $@ $<"
	@$(CC) -m32 $(TEST_PROG_FLAGS) -o $@ $< 2>$@.err || \
		{ rm -f $@; echo "no $@: $(CC) -m32 fails (gcc-multilib?), see $@.err"; }

unit: $(TESTS) $(ASAN_TESTS) $(HELPERS) $(TEST_PROGS)

# What the CLI and terminal tests run besides ktop (make check builds it first).
testprogs: $(HELPERS) $(TEST_PROGS)

# bench/record.sh's generator of long recordings (linked with the core).
$(B)/bench/recgen: bench/recgen.c $(CORE_OBJ)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) -o $@ $< $(CORE_OBJ) $$($(PKG_CONFIG) --libs $(ALL_PKGS)) -lm

# bench/evcost.sh's decoder of recorded pages (instructions per event, under callgrind).
$(B)/bench/evcost: bench/evcost.c $(CORE_OBJ)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) -o $@ $< $(CORE_OBJ) $$($(PKG_CONFIG) --libs $(ALL_PKGS)) -lm

# bench/trace.sh's and bench/evcost.sh's workloads.
$(B)/bench/flood: bench/flood.c
	@mkdir -p $(dir $@)
	$(CC) -std=gnu11 -O2 $(WARN) -o $@ $<

$(B)/fuzz/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link -MMD -MP $$($(PKG_CONFIG) --cflags $(ALL_PKGS)) -c -o $@ $<

$(B)/fuzz/obj/gen/%.o: $(B)/gen/%.c
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link -c -o $@ $<

$(B)/fuzz/fuzz_%: tests/fuzz/fuzz_%.c $(FUZZ_OBJ)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer -MMD -MP -o $@ $< $(FUZZ_OBJ) $$($(PKG_CONFIG) --libs $(ALL_PKGS)) -lm

# Kept: the harnesses share them.
.SECONDARY: $(FUZZ_OBJ)

fuzzers: $(FUZZERS)

# The long run: FUZZ_SECONDS per harness; new inputs go to build/fuzz/corpus/.
fuzz: deps-test
	@$(MAKE) --no-print-directory fuzzers
	@sh tests/fuzz/run.sh $(FUZZ_SECONDS)

run: deps
	@$(MAKE) --no-print-directory ktop
	./ktop

# What the bats files run first; tests/run.sh builds the sanitizer build, the
# unit tests and the fuzz harnesses beside the first bats files, which mostly
# wait. deps-test ran: a test that finds a package of it missing fails
# (tests/need.bash).
check: deps-test
	@$(MAKE) --no-print-directory -j$$(nproc) ktop testprogs
	@KTOP_TESTS_STRICT=$${KTOP_TESTS_STRICT:-1} sh tests/run.sh

bench: deps
	@sh tools/deps.sh bench
	@$(MAKE) --no-print-directory ktop $(B)/bench/recgen
	@sh bench/run.sh

# tests/stress (root): 10,000 tasks ending at once under the sanitizer build,
# 60 s fork and thread storms, then 10,000 processes and 50,000 threads, and
# a remote write receiver stopped for 30 s (fleet.bats's test, 6 s in check);
# the 10-minute soak separately. Results: tests/README.md, Reliability.
stress: deps
	@sh tools/deps.sh stress
	@sh tools/deps.sh test
	@$(MAKE) --no-print-directory ktop $(B)/ktop-asan
	bash tests/stress/massexit.sh
	bash tests/stress/churn.sh fork 60
	bash tests/stress/churn.sh thread 60
	bash tests/stress/scale.sh
	KTOP_FLEET_OUTAGE=30 bats --show-output-of-passing-tests -f 'a receiver stopped mid-run' tests/cli/fleet.bats

soak: deps
	@sh tools/deps.sh stress
	@$(MAKE) --no-print-directory ktop
	bash tests/stress/soak.sh 600

# Made by the program from its own tables (src/completion.c): it cannot drift from --help.
$(B)/ktop.bash-completion: ktop
	@mkdir -p $(dir $@)
	./ktop --completion bash >$@

install: ktop $(B)/ktop.bash-completion
	install -D -m 0755 ktop $(DESTDIR)$(BINDIR)/ktop
	install -D -m 0644 $(B)/ktop.bash-completion $(DESTDIR)$(COMPLETIONDIR)/ktop
	install -D -m 0644 man/ktop.1 $(DESTDIR)$(MANDIR)/ktop.1
	install -d $(DESTDIR)$(DATADIR)/themes
	install -m 0644 $(THEMES) $(DESTDIR)$(DATADIR)/themes/
	install -d $(DESTDIR)$(UNITDIR)
	sed 's|/usr/local/bin/ktop|$(BINDIR)/ktop|' contrib/ktop-exporter.service \
		>$(DESTDIR)$(UNITDIR)/ktop-exporter.service
	chmod 0644 $(DESTDIR)$(UNITDIR)/ktop-exporter.service
	install -m 0644 contrib/ktop-exporter.socket $(DESTDIR)$(UNITDIR)/ktop-exporter.socket
	sed 's|/usr/local/bin/ktop|$(BINDIR)/ktop|' contrib/ktop-record.service \
		>$(DESTDIR)$(UNITDIR)/ktop-record.service
	chmod 0644 $(DESTDIR)$(UNITDIR)/ktop-record.service
	install -m 0644 contrib/ktop-record.timer $(DESTDIR)$(UNITDIR)/ktop-record.timer

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/ktop $(DESTDIR)$(MANDIR)/ktop.1 $(DESTDIR)$(COMPLETIONDIR)/ktop
	rm -f $(DESTDIR)$(UNITDIR)/ktop-exporter.service $(DESTDIR)$(UNITDIR)/ktop-exporter.socket \
		$(DESTDIR)$(UNITDIR)/ktop-record.service $(DESTDIR)$(UNITDIR)/ktop-record.timer
	rm -rf $(DESTDIR)$(DATADIR)

# The Debian package, ktop_VERSION_ARCH.deb here, built by debhelper (debian/rules)
# from a copy of this tree (its clean step must not touch this build), then
# checked by lintian: an error fails the build.
VERSION = $(shell sed -n 's/^\#define KTOP_VERSION "\(.*\)"/\1/p' lib/util.h)
DEB = ktop_$(VERSION)_$(shell dpkg --print-architecture 2>/dev/null).deb

# Build-Depends: tools/deps.sh's build list, less build-essential's gcc and make.
debian/control: debian/control.in tools/deps.sh
	sh tools/deps.sh --list build | grep -vxE 'gcc|make' | \
		awk 'NR > 1 { print prev "," } { prev = " " $$0 } END { print prev }' >$@.deps
	awk -v deps=$@.deps '/^@BUILD_DEPENDS@$$/ { while ((getline l <deps) > 0) print l; next } { print }' \
		debian/control.in >$@.tmp
	rm -f $@.deps
	mv $@.tmp $@

deb: debian/control
	@sh tools/deps.sh deb
	@head -n 1 debian/changelog | grep -q '^ktop ($(VERSION))' || \
		{ echo "ktop: debian/changelog's first entry is not version $(VERSION) (lib/util.h)" >&2; exit 1; }
	rm -rf $(B)/deb
	mkdir -p $(B)/deb/ktop-$(VERSION)
	tar -cf - --exclude=./.git --exclude=./$(B) --exclude=./ktop --exclude='./ktop_*' . | \
		tar -xf - -C $(B)/deb/ktop-$(VERSION)
	cd $(B)/deb/ktop-$(VERSION) && dpkg-buildpackage -b -us -uc -j$$(nproc)
	cp $(B)/deb/$(DEB) .
	@if command -v lintian >/dev/null; then lintian --fail-on error --info $(DEB); fi

clean:
	rm -rf $(B) ktop

-include $(shell find $(B) -name '*.d' 2>/dev/null)
