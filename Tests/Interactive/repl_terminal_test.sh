#!/usr/bin/env bash
# Drives the normcache REPL in a real terminal (tmux) as a person would: the prompt,
# .help, an unknown command, history recall with the Up arrow, and Ctrl-D to leave.
# Usage: repl_terminal_test.sh PATH/TO/normcache
set -uo pipefail
binary=$(realpath "$1")
home=$(mktemp -d)
session="normcache-test-$$"
passed=0 failed=0

cleanup() { tmux kill-session -t "$session" 2>/dev/null; rm -rf "$home"; }
trap cleanup EXIT

screen() { tmux capture-pane -p -t "$session"; }

# Waits up to 5 s for the screen to contain $1.
expect_screen() {
  local what=$1 name=$2
  for _ in $(seq 50); do
    if screen | grep -qF -- "$what"; then passed=$((passed + 1)); return 0; fi
    sleep 0.1
  done
  failed=$((failed + 1))
  echo "FAIL: $name: the screen never showed '$what'; it shows:"
  screen | sed 's/^/  | /'
}

tmux new-session -d -s "$session" -x 120 -y 40 "env HOME=$home TERM=xterm $binary; echo EXITED-\$?; sleep 30"
expect_screen "normcache>" "prompt"
tmux send-keys -t "$session" ".help" Enter
expect_screen ".expect CLAIM" "help lists the commands"
tmux send-keys -t "$session" C-l
tmux send-keys -t "$session" ".hlep" Enter
expect_screen 'did you mean .help?' "unknown command suggests"
# Up twice recalls .help; the second listing proves history and line editing work.
tmux send-keys -t "$session" C-l
tmux send-keys -t "$session" Up Up Enter
expect_screen ".expect CLAIM" "history recall"
tmux send-keys -t "$session" C-d
expect_screen "EXITED-0" "Ctrl-D leaves with status 0"
if grep -qF ".hlep" "$home/.normcache_history" 2>/dev/null; then passed=$((passed + 1)); else
  failed=$((failed + 1)); echo "FAIL: history was not saved to ~/.normcache_history"; fi

echo "terminal: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
