#!/usr/bin/env bash
# `make install` into a temporary prefix, as a user would run it (the debug build, which
# `make test` has built already), then the installed tool from another directory: its
# layout, its version, its completions, and README.md's first session with the plugins it
# finds beside itself. Run from the checkout (make test-install).
set -uo pipefail
checkout=$PWD
prefix=$(mktemp -d)
elsewhere=$(mktemp -d)
trap 'rm -rf "$prefix" "$elsewhere"' EXIT
passed=0 failed=0

# check NAME COMMAND...: COMMAND must succeed.
check() {
  local name=$1; shift
  local output
  if output=$("$@" 2>&1); then passed=$((passed + 1)); else
    failed=$((failed + 1)); echo "FAIL: $name, output:"; sed 's/^/  | /' <<<"$output"; fi
}

suffix=.so
[ "$(uname -s)" = Darwin ] && suffix=.dylib
if ! make --no-print-directory install PREFIX="$prefix" CONFIGURATION=debug >"$elsewhere/install.log" 2>&1; then
  cat "$elsewhere/install.log"; echo "install_test: make install failed"; exit 1
fi
check "the executable is installed" test -x "$prefix/bin/normcache"
for plugin in trips purls donuts feed; do
  check "plugin $plugin is installed" test -f "$prefix/lib/normcache/plugins/libnormcache_$plugin$suffix"
done
check "the test fixture plugin is not" test ! -e "$prefix/lib/normcache/plugins/libfixture_unnamed_plugin$suffix"
check "bash completion" grep -q normcache "$prefix/share/bash-completion/completions/normcache"
check "zsh completion" grep -q '#compdef normcache' "$prefix/share/zsh/site-functions/_normcache"
check "fish completion" grep -q "complete -c 'normcache'" "$prefix/share/fish/vendor_completions.d/normcache.fish"

cd "$elsewhere"
# Nothing of the checkout may help the installed binary find its plugins.
unset NORMCACHE_PLUGINS
check "the installed binary says its version" \
  bash -c "[ \"\$('$prefix/bin/normcache' --version)\" = \"\$('$checkout/.build/debug/normcache' --version)\" ]"
check "the installed binary lists its plugins" bash -c "printf '.plugins\n' | '$prefix/bin/normcache' | grep -q 'lib/normcache/plugins/libnormcache_trips'"
check "README's first session runs" "$prefix/bin/normcache" run "$checkout/Tests/Install/readme-session.repl"
check "make uninstall removes it" bash -c "make --no-print-directory -C '$checkout' uninstall PREFIX='$prefix' >/dev/null && [ ! -e '$prefix/bin/normcache' ] && [ ! -e '$prefix/lib/normcache' ]"

echo "install: $passed passed, $failed failed"
[ "$failed" = 0 ]
