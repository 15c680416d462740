#!/usr/bin/env bash
# Runs every .repl script in Tests/Scripts and examples/ with `normcache run`, each in a
# session of its own: a script passes when it exits 0, i.e. every command succeeded (an
# error the script expects with `.expect error` does not count) and every .expect held.
# Usage: run_scripts.sh path/to/normcache
set -u
binary=$(realpath "${1:?usage: run_scripts.sh path/to/normcache}")
cd "$(dirname "$0")/../.."
home=$(mktemp -d)   # no ~/.normcacherc of the user's
trap 'rm -rf "$home"' EXIT
passed=0 failed=0
for script in Tests/Scripts/*.repl examples/*.repl; do
  output=$(HOME=$home timeout 120 "$binary" run "$script" 2>&1)
  status=$?
  if [ "$status" -eq 0 ]; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
    echo "FAIL $script (exit $status):"
    echo "$output" | grep -E '^(error|expectation failed)' | sed 's/^/  /'
  fi
done
echo "scripts: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
