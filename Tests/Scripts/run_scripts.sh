#!/usr/bin/env bash
# Runs every .repl script in this folder through the normcache binary given as $1, as a
# pipe would: a script passes when it exits 0, i.e. no command failed and every
# .expect held (an error a script expects with `.expect error` does not count).
set -u
binary=${1:?usage: run_scripts.sh path/to/normcache}
cd "$(dirname "$0")"
passed=0 failed=0
for script in *.repl; do
  output=$(timeout 120 "$binary" < "$script" 2>&1)
  status=$?
  if [ "$status" -eq 0 ]; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
    echo "FAIL $script (exit $status):"
    echo "$output" | grep -E '^error:|expectation failed' | sed 's/^/  /'
  fi
done
echo "scripts: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
