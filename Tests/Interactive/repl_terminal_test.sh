#!/usr/bin/env bash
# Drives the normcache REPL in a real terminal (tmux) as a person would: the prompt,
# .help, an unknown command, history recall with the Up arrow, Tab completion (of
# commands, and of a type's fields inside an operation), an operation typed over several
# lines, a watcher's emission arriving while the prompt waits, Ctrl-C during a slow
# request and at the prompt, Ctrl-D to leave, and Ctrl-Z and fg under a shell with job
# control. Then the terminal's conventions: tables fit 60 columns and show whole at 200,
# long output goes through $PAGER (.pager off: not), the banner goes to standard error,
# and the history file is where NORMCACHE_HISTORY says (.history off: nothing more in it).
# Usage: repl_terminal_test.sh PATH/TO/normcache   (the plugins are found beside it)
set -uo pipefail
binary=$(realpath "$1")
here=$(dirname "$(realpath "$0")")
home=$(mktemp -d)
server="normcache-terminal-test-$$"   # a tmux server of its own, whatever else runs tmux
tmux() { command tmux -L "$server" "$@"; }
session="normcache-test"
shell_session="normcache-test-shell"
target=$session   # the tmux session that the helpers below read and type into
passed=0 failed=0

cleanup() {
  tmux kill-server 2>/dev/null
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

# The parent counts the SIGINTs it gets: one per Ctrl-C pressed, none passed on by the
# workbench. No pager (PAGER=cat): long output stays on the screen.
tmux new-session -d -s "$session" -x 120 -y 40 \
  python3 "$here/foreground_parent.py" "$home/workbench.pid" env HOME="$home" TERM=xterm PAGER=cat "$binary"
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
if grep -qF ".hlep" "$home/.local/state/normcache/history" 2>/dev/null; then pass; else
  failed=$((failed + 1)); echo "FAIL: history was not saved to ~/.local/state/normcache/history"; fi

# Under a shell with job control, Ctrl-Z stops the workbench and gives the shell its
# terminal; after fg the line is drawn again and keys reach the editor (Tab completes).
tmux new-session -d -s "$shell_session" -x 120 -y 40 env HOME="$home" TERM=xterm PAGER=cat PS1='shell$ ' bash --norc --noprofile -i
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

keys "exit" Enter

# Tables fit the terminal. At 60 columns a table wider than that is cut: each row still
# ends in its rule (the terminal wraps nothing), cut values end in …, and a note says so.
# The pager records that it ran, then shows the output with less (cat where there is none).
printf '#!/bin/sh\necho called >> "%s"\ncommand -v less >/dev/null && exec less -FRX || exec cat\n' "$home/paged" > "$home/pager"
chmod +x "$home/pager"
wide_query="{ trips { id name destination { city country } } }"
tmux new-session -d -s narrow -c "$home" -x 60 -y 40 \
  env HOME="$home" TERM=xterm PAGER="$home/pager" NORMCACHE_HISTORY="$home/narrow-history" "$binary"
target=narrow
expect_prompt "normcache>" "a session in a terminal 60 columns wide"
keys ".use trips" Enter ".mode table" Enter "$wide_query" Enter
expect_screen "(truncated to fit 60 columns; .mode json shows all)" "a table wider than 60 columns says it was cut"
expect_screen '| "Trip"  | "1" | "Lisbo… |' "a value too long for its column ends in …"
if screen | grep '^[|+]' | grep -qv '[|+]$'; then fail "a row of the table was wrapped"; else pass; fi

# Output longer than the terminal (.help's, 40 rows) goes through the pager; Ctrl-C there
# and q leave the workbench as it was: Tab completes, Ctrl-C gives up a line.
keys C-l ".help" Enter
for _ in $(seq 50); do [ -s "$home/paged" ] && break; sleep 0.1; done
if [ "$(wc -l < "$home/paged" 2>/dev/null)" = 1 ]; then pass; else fail ".help's long output did not go through the pager once"; fi
sleep 0.5
keys C-c
sleep 0.5   # less drops the keys typed before it took the Ctrl-C
keys q
keys C-u ".hel" Tab
expect_prompt "normcache> .help" "after the pager, Tab completes: the editor has the terminal again"
keys C-c
expect_prompt "normcache>" "after the pager, Ctrl-C gives up the line"
keys C-l ".keys" Enter
expect_screen "Trip:1" "short output is printed"
keys C-l ".pager off" Enter ".help" Enter
expect_screen "(truncated to fit 60 columns; .help COMMAND shows all)" "the .help listing fits 60 columns"
if [ "$(wc -l < "$home/paged")" = 1 ]; then pass; else fail "the pager ran for output too short, or after .pager off"; fi

# NORMCACHE_HISTORY names the history file; after .history off no line goes into it.
keys C-l ".history off" Enter ".stats" Enter
expect_screen "field keys" ".stats runs"
keys C-d
# libedit's history file writes a space as \040.
if grep -qF '.history\040off' "$home/narrow-history" && ! grep -qF ".stats" "$home/narrow-history"; then pass; else
  failed=$((failed + 1)); echo "FAIL: NORMCACHE_HISTORY's file should hold .history off and no line after it: $(cat "$home/narrow-history")"; fi

# At 200 columns the same table shows whole. The banner and the cache's line go to
# standard error, not with the data on standard output.
tmux new-session -d -s wide -c "$home" -x 200 -y 40 \
  sh -c "HOME='$home' TERM=xterm '$binary' --cache-dir '$home/caches' -c '.use trips' -c '.mode table' 2>'$home/stderr'"
target=wide
expect_prompt "normcache>" "a session in a terminal 200 columns wide"
keys "$wide_query" Enter
expect_screen '| "Trip"     | "1" | "Lisbon" | "Destination"          | "Lisbon"         | "Portugal"          |' "a table that fits 200 columns shows whole"
if screen | grep -qF "truncated"; then fail "a table that fits was said to be cut"; else pass; fi
if screen | grep -qE "^normcache [0-9]|^cache: "; then fail "the banner or the cache's line went to standard output"; else pass; fi
if grep -q "^normcache [0-9].*\.help lists the commands" "$home/stderr" && grep -q "^cache: default (" "$home/stderr"; then pass; else
  fail "the banner and the cache's line are not on standard error: $(cat "$home/stderr")"; fi
keys C-d

echo "terminal: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
