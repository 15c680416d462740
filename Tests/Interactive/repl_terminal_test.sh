#!/usr/bin/env bash
# Drives the normcache REPL in a real terminal (tmux) as a person would: the prompt,
# .help, an unknown command, history recall with the Up arrow, Tab completion (of
# commands, and of a type's fields inside an operation), an operation typed over several
# lines, a watcher's emission arriving while the prompt waits, Ctrl-C during a slow
# request and at the prompt, Ctrl-D to leave, and Ctrl-Z and fg under a shell with job
# control.
# Usage: repl_terminal_test.sh PATH/TO/normcache   (the plugins are found beside it)
set -uo pipefail
binary=$(realpath "$1")
here=$(dirname "$(realpath "$0")")
home=$(mktemp -d)
session="normcache-test-$$"
shell_session="normcache-test-shell-$$"
target=$session   # the tmux session that the helpers below read and type into
passed=0 failed=0

cleanup() {
  tmux kill-session -t "$session" 2>/dev/null
  tmux kill-session -t "$shell_session" 2>/dev/null
  # A workbench killed with its session may still be writing its history into $home.
  rm -rf "$home" 2>/dev/null || { sleep 1; rm -rf "$home"; }
}
trap cleanup EXIT

screen() { tmux capture-pane -p -t "$target"; }
keys() { tmux send-keys -t "$target" "$@"; }
# The last line of the screen that is not blank: where the prompt is.
prompt_line() { screen | grep -v '^ *$' | tail -n 1; }

pass() { passed=$((passed + 1)); }
fail() {
  failed=$((failed + 1))
  echo "FAIL: $1; the screen shows:"
  screen | sed 's/^/  | /'
}

# Waits up to 5 s for the screen to contain $1.
expect_screen() {
  local what=$1 name=$2
  for _ in $(seq 50); do
    if screen | grep -qF -- "$what"; then pass; return 0; fi
    sleep 0.1
  done
  fail "$name: the screen never showed '$what'"
}

# Waits up to 5 s for the prompt line to match $1, a glob (most are plain text).
expect_prompt() {
  local what=$1 name=$2
  for _ in $(seq 50); do
    # shellcheck disable=SC2053   # $what is a pattern
    if [[ "$(prompt_line)" == $what ]]; then pass; return 0; fi
    sleep 0.1
  done
  fail "$name: the prompt line never was '$what'"
}

# The parent counts the SIGINTs it gets: one per Ctrl-C pressed, none passed on by the workbench.
tmux new-session -d -s "$session" -x 120 -y 40 \
  python3 "$here/foreground_parent.py" "$home/workbench.pid" env HOME="$home" TERM=xterm "$binary"
expect_screen "normcache>" "prompt"
keys ".help" Enter
expect_screen ".expect CLAIM" "help lists the commands"
keys C-l
keys ".hlep" Enter
expect_screen 'did you mean .help?' "unknown command suggests"
# Up twice recalls .help; the second listing proves history and line editing work.
keys C-l
keys Up Up Enter
expect_screen ".expect CLAIM" "history recall"

# Tab: several candidates are listed, one is completed (a service domain ends with a dot).
keys C-l
keys ".he" Tab
expect_screen ".help" "Tab lists the commands that begin .he"
keys "l" Tab
expect_prompt "normcache> .help" "Tab completes .hel to .help"
keys C-u "tri" Tab
expect_prompt "normcache> trips." "Tab completes a service's domain"
keys "re" Tab
expect_prompt "normcache> trips.rename" "Tab completes a service command"
keys C-u

# An operation over several lines: the continuation prompt, then its result.
keys C-l
keys ".use trips" Enter
keys "{" Enter
expect_screen "...>" "the continuation prompt"
keys " trips { id name }" Enter "}" Enter
expect_screen "Lisbon" "the operation typed over three lines runs"

# Inside an operation Tab completes the fields of the type being selected, from the
# schema, across the lines typed so far: a Destination's country (the schema's other
# fields that begin "co", Airport's code and Reservation's confirmation, do not fit).
keys C-l
keys "{ trips {" Enter
expect_prompt "*...>" "the continuation prompt, before the next line is typed"
keys "destination { co" Tab
expect_prompt "*...> destination { country*" "Tab completes a field of the innermost selection's type"
keys "} } }" Enter
expect_screen "Portugal" "the completed operation runs"

# A watcher's first emission arrives 1.5 s after the prompt came back (the cache is
# emptied first), without a key pressed, above the prompt and what was typed at it.
keys C-l
keys ".clear" Enter ".network latency 1500" Enter
keys ".watch TripList" Enter
expect_prompt "normcache>" "the prompt comes back while the watcher fetches"
keys ".ke"
if screen | grep -qF "Lisbon"; then fail "the watcher's data showed before its request could answer"; else pass; fi
expect_screen "Lisbon" "the watcher's emission shows while the prompt waits"
expect_prompt "normcache> .ke" "the prompt and what was typed are drawn again below the emission"
keys C-u ".unwatch all" Enter

# Ctrl-C during a slow request cancels it; the workbench stays.
keys C-l
keys ".network latency 5000" Enter ".policy network-only" Enter
keys "{ trips { id } }" Enter
sleep 1
keys C-c
expect_screen "interrupted" "Ctrl-C cancels the request in flight"
keys ".help quit" Enter
expect_screen "Leave the workbench" "the workbench works after Ctrl-C"

# Ctrl-C at the prompt gives up the half-typed line, and an operation begun on an
# earlier line: what is typed next runs on its own.
keys C-l
keys ".hel" C-c
expect_prompt "normcache>" "Ctrl-C gives up a half-typed line"
keys ".help help" Enter
expect_screen "List the commands" "the line after Ctrl-C runs alone"
keys C-l
keys "{" Enter " trips" C-c
expect_prompt "normcache>" "Ctrl-C gives up an operation typed over lines"
keys ".help quit" Enter
expect_screen "Leave the workbench" "the line after an abandoned operation runs alone"

# A SIGINT sent to the workbench alone gives up the line too, and reaches no other
# process: the parent's count below is the three Ctrl-C pressed at its terminal.
keys C-l ".hel"
expect_prompt "normcache> .hel" "a line typed before a SIGINT"
kill -INT "$(cat "$home/workbench.pid")"
expect_prompt "normcache>" "a SIGINT at the prompt gives up the line"

keys C-d
expect_screen "EXITED-0 SIGINTS-3" "Ctrl-D leaves with status 0, and the parent got each Ctrl-C once"
if grep -qF ".hlep" "$home/.normcache_history" 2>/dev/null; then pass; else
  failed=$((failed + 1)); echo "FAIL: history was not saved to ~/.normcache_history"; fi

# Under a shell with job control, Ctrl-Z stops the workbench and gives the shell its
# terminal; after fg the line is drawn again and keys reach the editor (Tab completes).
tmux new-session -d -s "$shell_session" -x 120 -y 40 env HOME="$home" TERM=xterm PS1='shell$ ' bash --norc --noprofile -i
target=$shell_session
expect_prompt 'shell$' "the shell starts"
keys "$binary" Enter
expect_prompt "normcache>" "the workbench starts under the shell"
keys ".hel"
expect_prompt "normcache> .hel" "a line typed before Ctrl-Z"
keys C-z
expect_screen "Stopped" "Ctrl-Z stops the workbench"
expect_prompt 'shell$' "the shell has the terminal while the workbench is stopped"
keys C-l "fg" Enter
expect_prompt "normcache> .hel" "fg draws the prompt and the line being typed again"
keys Tab
expect_prompt "normcache> .help" "after fg, Tab completes: the editor has the terminal again"
keys C-u C-d
expect_prompt '*shell$' "Ctrl-D after fg leaves"
keys "echo LEFT-\$?" Enter
expect_screen "LEFT-0" "with status 0"

echo "terminal: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
