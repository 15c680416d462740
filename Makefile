SHELL := /bin/bash
# normcache — the two set-up commands are `make run` and `make test`; both install
# what is missing first. `make bench` is for performance; `make fuzz` runs the fuzz targets (C and Swift).

SWIFT ?= swift
CLANG ?= clang
FUZZ_SECONDS ?= 20
APT_PACKAGES := libedit-dev libxxhash-dev libsqlite3-dev libutf8proc-dev tmux python3 python3-venv

C_SOURCES := $(wildcard CCore/src/*.c)
C_FLAGS := -std=c11 -g -O1 -Wall -Wextra -fuse-ld=lld -ICCore/include -fno-sanitize-recover=all
C_LIBS := -lutf8proc
C_OUT := .build/ccore
FUZZ_OUT := .build-fuzz
FUZZ_TARGETS ?= json response record snapshot repl operation codegen
FUZZ_BUILD_FLAGS := --scratch-path $(FUZZ_OUT) --sanitize=fuzzer --sanitize=address -Xswiftc -sanitize=fuzzer,address
GRAPHQL_SERVER := .build/graphql-server
GRAPHQL_SERVER_PACKAGES := ariadne==1.1.1 uvicorn==0.54.0

.PHONY: deps build run test test-architecture test-swift graphql-server test-c test-cli test-real-projects test-scripts test-interactive fuzz tsan bench clean

# Installs the Debian packages that are missing (as root), or says what to install.
deps:
	@missing=""; \
	for p in $(APT_PACKAGES); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ]; then \
	    echo "installing:$$missing"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing >/dev/null || exit 1; \
	  else \
	    echo "normcache needs these Debian packages:$$missing"; \
	    echo "install them with: sudo apt-get install -y$$missing"; exit 1; \
	  fi; \
	fi

# Every product, so that plugin libraries exist beside the executable.
build: deps
	$(SWIFT) build

run: build
	.build/debug/normcache

test: deps test-architecture test-swift test-c fuzz tsan test-cli test-real-projects test-scripts test-interactive

# Four runs: the engine's tests run twice more over a lazily opened store that unloads every
# record after each commit (NORMCACHE_TEST_STORE, see Support.cache in the tests). Tests that wait for a child process, its output or a plugin do so on threads
# of their own (`onThread` in Tests/TestSupport), but the long CPU-bound tests (a million
# keys, the concurrency stress) still hold Swift Testing's few threads for seconds at a
# time, and the client's tests time their waits: they run on their own.
test-swift: graphql-server
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build --disable-xctest --skip NormClientTests
	NORMCACHE_TEST_STORE=memory $(SWIFT) test --skip-build --disable-xctest --filter NormCacheTests
	NORMCACHE_TEST_STORE=sqlite $(SWIFT) test --skip-build --disable-xctest --filter NormCacheTests
	$(SWIFT) test --skip-build --disable-xctest --filter NormClientTests

# The GraphQL server that the HTTP transport tests run (ariadne on uvicorn, from PyPI), in a
# venv of its own; installed again only when the pinned versions change.
graphql-server:
	@grep -qxF '$(GRAPHQL_SERVER_PACKAGES)' $(GRAPHQL_SERVER)/installed 2>/dev/null || { \
	  python3 -m venv $(GRAPHQL_SERVER) && \
	  $(GRAPHQL_SERVER)/bin/pip install -q $(GRAPHQL_SERVER_PACKAGES) && \
	  echo '$(GRAPHQL_SERVER_PACKAGES)' > $(GRAPHQL_SERVER)/installed; }

# The engine's concurrency stress test under ThreadSanitizer, in its own build folder.
tsan:
	$(SWIFT) build --build-tests --sanitize=thread --scratch-path .build-tsan
	$(SWIFT) test --skip-build --disable-xctest --sanitize=thread --scratch-path .build-tsan --filter ConcurrencyTests

# C unit tests under AddressSanitizer and UndefinedBehaviorSanitizer (leaks included).
test-c:
	@mkdir -p $(C_OUT)
	$(CLANG) $(C_FLAGS) -fsanitize=address,undefined $(C_SOURCES) Tests/CCore/ccore_tests.c $(C_LIBS) -o $(C_OUT)/ccore_tests
	$(C_OUT)/ccore_tests

fuzz: fuzz-c fuzz-swift

# libFuzzer over the canonicalizer and the interner, seeded from Tests/CCore/fuzz-seeds.
# The full log is kept in $(C_OUT)/fuzz.log and shown when the fuzzer finds a problem.
fuzz-c:
	@mkdir -p $(C_OUT)/corpus
	$(CLANG) $(C_FLAGS) -fsanitize=fuzzer,address,undefined $(C_SOURCES) Tests/CCore/fuzz_keys.c $(C_LIBS) -o $(C_OUT)/fuzz_keys
	@$(C_OUT)/fuzz_keys -max_total_time=$(FUZZ_SECONDS) -max_len=4096 -print_final_stats=1 \
	  -artifact_prefix=$(C_OUT)/ $(C_OUT)/corpus Tests/CCore/fuzz-seeds > $(C_OUT)/fuzz.log 2>&1 \
	  || { tail -n 80 $(C_OUT)/fuzz.log; echo "fuzz: failed; the input that did it is in $(C_OUT)/"; exit 1; }
	@grep -E '^(Done|stat::number_of_executed_units)' $(C_OUT)/fuzz.log

# libFuzzer over the Swift code that reads what users, files and servers send: one
# executable, NormFuzz (Tests/Fuzz/NormFuzz), built only here (NORMCACHE_FUZZ=1) under
# ASan in its own build folder, runs each of FUZZ_TARGETS for FUZZ_SECONDS, seeded from
# Tests/Fuzz/seeds/TARGET; the corpus it grows stays in $(FUZZ_OUT)/corpus/TARGET. SwiftPM
# passes --sanitize values to swiftc one flag each and the last wins, so the Swift flag
# names both sanitizers. Swift's own crash reporter is off: libFuzzer reports the crash.
# Leak checks are off: Swift keeps enum tags in a reference's spare bits, which
# LeakSanitizer cannot follow, so it reports the compiled operations a global holds.
fuzz-swift:
	set -o pipefail; NORMCACHE_FUZZ=1 $(SWIFT) build --product NormFuzz $(FUZZ_BUILD_FLAGS) 2>&1 | grep -v 'Cannot export local symbol'
	@for target in $(FUZZ_TARGETS); do \
	  mkdir -p $(FUZZ_OUT)/corpus/$$target; log=$(FUZZ_OUT)/$$target.log; \
	  SWIFT_BACKTRACE=enable=no ASAN_OPTIONS=detect_leaks=0 NORMFUZZ_TARGET=$$target $(FUZZ_OUT)/debug/NormFuzz -max_total_time=$(FUZZ_SECONDS) \
	    -max_len=4096 -timeout=10 -print_final_stats=1 -artifact_prefix=$(FUZZ_OUT)/$$target- \
	    $(FUZZ_OUT)/corpus/$$target Tests/Fuzz/seeds/$$target > $$log 2>&1 \
	    || { tail -n 80 $$log; echo "fuzz: $$target failed; the input that did it is $(FUZZ_OUT)/$$target-*"; exit 1; }; \
	  echo "fuzz $$target: $$(grep -E '^Done' $$log), corpus $$(ls $(FUZZ_OUT)/corpus/$$target | wc -l) inputs"; \
	done

# The command line: exit statuses, messages, the bench JSON event.
test-cli:
	$(SWIFT) build --product normcache
	Tests/CLI/cli_test.sh .build/debug/normcache

# Every project of ../shared/fixtures/real-projects (Apollo iOS's sample and test APIs):
# loads, lists its operations, and its generated Swift compiles against NormAPI. Skipped,
# saying so, where the shared folder is not beside the checkout.
test-real-projects:
	$(SWIFT) build --product normcache
	$(SWIFT) build --target NormAPI
	Tests/RealProjects/real_projects_test.sh .build/debug/normcache .build/debug/Modules

# docs/architecture.md's dependency drawing, Package.swift and every Swift file's imports
# agree (a first check: seconds, before anything builds).
test-architecture:
	python3 Tests/Architecture/architecture_test.py

# The .repl scripts under Tests/Scripts and examples/, each a regression test of one
# pattern run by `normcache run`, with every plugin loaded (swift build puts them beside
# the executable).
test-scripts:
	$(SWIFT) build
	Tests/Scripts/run_scripts.sh $(CURDIR)/.build/debug/normcache

# The REPL in a real terminal (tmux): prompt, history, completion, a multi-line
# operation, a live watch emission, Ctrl-C (passed on to no other process), Ctrl-D,
# Ctrl-Z and fg under a shell with job control, tables fit to 60 and 200 columns, the
# pager, and the banner on standard error.
test-interactive:
	$(SWIFT) build --product normcache
	Tests/Interactive/repl_terminal_test.sh .build/debug/normcache

bench: deps
	$(SWIFT) build -c release
	.build/release/normcache bench

clean:
	rm -rf .build .build-tsan $(FUZZ_OUT)
