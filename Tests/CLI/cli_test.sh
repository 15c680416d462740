#!/usr/bin/env bash
# The normcache command line as scripts use it: exit statuses, stderr messages, and the
# `bench --json` event shape of docs/workbench.md. Usage: cli_test.sh PATH/TO/normcache
set -uo pipefail
normcache=$1
passed=0 failed=0

# check NAME EXPECTED_STATUS PATTERN COMMAND...: runs COMMAND, wants the status and PATTERN in its output.
check() {
  local name=$1 status=$2 pattern=$3; shift 3
  local output actual
  output=$("$@" 2>&1); actual=$?
  if [ "$actual" = "$status" ] && grep -qE -- "$pattern" <<<"$output"; then passed=$((passed + 1)); else
    failed=$((failed + 1)); echo "FAIL: $name: status $actual (wanted $status), output:"; sed 's/^/  | /' <<<"$output"; fi
}

check "version" 0 '^0\.1\.0$' "$normcache" --version
check "help names the subcommands" 0 'bench' "$normcache" --help
check "piped commands run without prompts" 0 '^\.help \[COMMAND\]' bash -c "printf '.help\n.quit\n' | '$normcache'"
check "a failed command exits 2" 2 'unknown command "\.nope"' bash -c "printf '.nope\n' | '$normcache'"
check "a plugin's failure reaches the user once" 0 '^1$' \
  bash -c "printf 'payments.pay 999\n' | '$normcache' 2>&1 | grep -c 'payment failed'"
check "unknown benchmark" 64 'unknown benchmark "nope"; known: keys.intern' "$normcache" bench nope
check "--runs must be positive" 64 '--runs must be at least 1' "$normcache" bench --runs 0
check "bench --json prints a keys.intern event" 0 \
  '^\{"event":"bench","name":"keys.intern","value":[0-9.e+]+,"unit":"keys/s","baseline":[0-9.e+]+,"ratio":[0-9.e+-]+\}$' \
  "$normcache" bench --json --runs 1 keys.intern

echo "cli: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
