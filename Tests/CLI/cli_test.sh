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

# One version: --version and .version show it, and CHANGELOG.md's newest entry names it.
version=$(sed -n 's/^## \([0-9][0-9.]*\) — .*/\1/p' CHANGELOG.md | head -n 1)
check "CHANGELOG.md names a version" 0 '^[0-9]+\.[0-9]+\.[0-9]+$' echo "$version"
check "--version is CHANGELOG.md's newest" 0 "^${version//./\\.}\$" "$normcache" --version
check ".version is the same" 0 "^normcache ${version//./\\.}\$" bash -c "printf '.version\n' | '$normcache'"
check "help names the subcommands" 0 'bench' "$normcache" --help
# `normcache --help` lists every option of the REPL (what `normcache` alone runs) and of the
# root, each at the start of a line of its own; the list expected is the parser's own.
check "help lists every option the parser takes for the REPL" 0 '^every option listed$' python3 -c '
import json, re, subprocess, sys
binary = sys.argv[1]
dump = json.loads(subprocess.run([binary, "--experimental-dump-help"], capture_output=True, text=True, check=True).stdout)["command"]
repl = next(command for command in dump["subcommands"] if command["commandName"] == "repl")
help = subprocess.run([binary, "--help"], capture_output=True, text=True, check=True).stdout
# An entry begins "  -c <COMMAND>  …" or "  -h, --help  …": its names are those of its label.
listed = {name for line in help.splitlines() if line.startswith("  -")
          for name in re.findall(r"--?[\w-]+", line.strip().split("  ")[0].split("<")[0])}
missing = []
for argument in dump.get("arguments", []) + repl.get("arguments", []):
    if argument["kind"] == "positional" or not argument.get("shouldDisplay", True):
        continue
    names = ["--" + n["name"] if n["kind"] == "long" else "-" + n["name"] for n in argument["names"]]
    if not any(name in listed for name in names):
        missing.append(names[0])
print("missing from normcache --help: " + ", ".join(missing) if missing else "every option listed")
' "$normcache"
check "piped commands run without prompts" 0 '^\.help \[COMMAND\]' bash -c "printf '.help\n.quit\n' | '$normcache'"
check "a failed command exits 2" 2 'unknown command "\.nope"' bash -c "printf '.nope\n' | '$normcache'"
check "a script through a pipe runs" 0 '^Trip:7$' bash -c "'$normcache' run <(printf '.write Trip:7 {\"a\":1}\n.keys\n')"
check "a plugin's failure reaches the user once" 0 '^1$' \
  bash -c "printf 'payments.pay 999\n' | '$normcache' 2>&1 | grep -c 'payment failed'"
check "--semantics starts a session with Apollo Client's answers" 0 '^apollo-client$' \
  "$normcache" run --semantics apollo-client <(printf '.semantics\n')
check "the default semantics is Apollo iOS's" 0 '^apollo-ios$' bash -c "printf '.semantics\n' | '$normcache'"
check "an unknown --semantics is refused" 64 "apollo-ios" "$normcache" --semantics relay
check "unknown benchmark" 64 'unknown benchmark "nope"; known: keys.intern' "$normcache" bench nope
check "--runs must be positive" 64 '--runs must be at least 1' "$normcache" bench --runs 0
check "bench --json prints a keys.intern event" 0 \
  '^\{"event":"bench","name":"keys.intern","value":[0-9.e+]+,"unit":"keys/s","baseline":[0-9.e+]+,"ratio":[0-9.e+-]+\}$' \
  "$normcache" bench --json --runs 1 keys.intern

# An app's project over a device's cache file: inspect is read-only and cache-only.
device=$(mktemp -d)
trap 'rm -rf "$device"' EXIT
"$normcache" --cache-dir "$device" --user app -c '.use trips' -c '.run TripList' -c '.run TripDetail {"id": "1"}' </dev/null >/dev/null 2>&1
before=$(sha256sum "$device/app.sqlite")
check "inspect --project answers a named operation from the file" 0 '^TripDetail from cache$' \
  bash -c "printf '.run TripDetail {\"id\": \"1\"}\n' | '$normcache' inspect '$device/app.sqlite' --project examples/TripsApp"
check "inspect --project names what a screen lacks, without a request" 2 'cache-only: the cache cannot answer; missing: Trip:2\.startsOn.*redirected QUERY_ROOT\.trip\(id:2\) → Trip:2' \
  bash -c "printf '.run TripDetail {\"id\": \"2\"}\n' | '$normcache' inspect '$device/app.sqlite' --project examples/TripsApp"
check "inspect leaves the file as it was" 0 '^same$' bash -c "[ \"\$(sha256sum '$device/app.sqlite')\" = '$before' ] && echo same"
# A file whose app keys Airport by code in Swift (cacheKeyInfo), with a project that says nothing of it.
codekeyed=$(mktemp -d)
trap 'rm -rf "$device" "$codekeyed"' EXIT
printf 'type Query { airport(code: String!): Airport }\ntype Airport { code: String! name: String! }\n' > "$codekeyed/schema.graphqls"
printf 'query Airport { airport(code: "LIS") { code name } }\n' > "$codekeyed/ops.graphql"
"$normcache" -c ".open $codekeyed/app.sqlite" -c '.write Airport:LIS {"__typename":"Airport","code":"LIS","name":"Lisbon"}' </dev/null >/dev/null 2>&1
check "inspect --project keys a type as the file's keys show, and says so" 0 \
  "keyed as the file's keys show \(the app configures this in code; the project has no @typePolicy for them\): Airport by code" \
  "$normcache" inspect "$codekeyed/app.sqlite" --project "$codekeyed" -c .quit
check "the keys the file shows are the session's key fields" 0 '^Airport: code$' \
  "$normcache" inspect "$codekeyed/app.sqlite" --project "$codekeyed" -c .keyfields
check "a missing project stops the session" 2 'the project /nonexistent did not load:' "$normcache" --project /nonexistent -c .quit
printf 'type Query { a: Int }\n' > "$device/schema.graphqls"; printf 'query A { b }\n' > "$device/ops.graphql"
check "a project at fault names the file, line and column" 2 'ops\.graphql:1:11: Cannot query field "b" on type "Query"' \
  "$normcache" run --project "$device" /dev/null

# Codegen: a project's Swift types written; a second run touches nothing; a project at fault writes nothing.
check "codegen writes a project's types" 0 ': 19 written, 0 unchanged, 0 removed$' \
  "$normcache" codegen --project examples/TripsApp --output "$device/Types"
check "codegen again leaves every file alone" 0 ': 0 written, 19 unchanged, 0 removed$' \
  "$normcache" codegen --project examples/TripsApp --output "$device/Types"
check "codegen of a project at fault exits 2, naming the place" 2 '^codegen: ops\.graphql:1:11: Cannot query field "b" on type "Query"' \
  "$normcache" codegen --project "$device" --output "$device/Bad"
check "codegen of a project at fault writes nothing" 0 '^nothing$' bash -c "[ ! -e '$device/Bad' ] && echo nothing"
check "codegen into a file exits 2, naming it" 2 'cannot write .*/schema\.graphqls/Out: .*schema\.graphqls is a file, not a folder' \
  "$normcache" codegen --project examples/TripsApp --output "$device/schema.graphqls/Out"

# Damaged responses (Tests/Support/fault_server/server.py): one command fails, saying why;
# the cache and the watcher keep their data and the session goes on. --timeout and .timeout.
check "--timeout must be positive" 64 '--timeout must be at least 1 millisecond' "$normcache" --timeout 0 -c .quit
check ".timeout shows the default, a minute" 0 '^timeout 60000 ms$' "$normcache" -c .timeout -c .quit
check ".timeout refuses what is not milliseconds" 2 '"soon" is not a timeout' "$normcache" -c '.timeout soon' -c .quit
# The server exits when its standard input ends: when this script exits and its write end closes.
mkfifo "$device/faults.in"
python3 Tests/Support/fault_server/server.py 0 < "$device/faults.in" > "$device/faults.out" 2>&1 &
exec {keep_faults}> "$device/faults.in"
for _ in $(seq 50); do grep -q listening "$device/faults.out" && break; sleep 0.1; done
faults_url="http://$(sed -n 's/^listening on //p' "$device/faults.out")/graphql"
printf '%s\n' '.watch query Trip { trip { id name } }' '.policy network-only' \
  'query HtmlPage { trip { id name } }' '.expect error "is not JSON: it starts with `<!DOCTYPE html>"' \
  'query ServerErrors { trip { id name } }' '.expect error "HTTP error 500: with 2 GraphQL errors: the trips database is unavailable"' \
  'query Stalls { trip { id name } }' '.expect error "no response within 0.5 s (timed out)"' \
  '.expect record Trip:1.name == "Lisbon weekend"' '.expect emissions 1 == 1' '.timeout' > "$device/damaged.repl"
check "a damaged response fails one command; the cache, the watcher and the session go on" 0 '^timeout 500 ms$' \
  "$normcache" run --endpoint "$faults_url" --timeout 500 "$device/damaged.repl"

# A device file cut short: inspect reads what its pages hold, and .check says what SQLite finds.
fixture=Tests/Fixtures/apollo-ios-1.25.7-starwars.sqlite
check ".check passes a sound file" 0 'starwars\.sqlite: ok \(PRAGMA integrity_check\)$' "$normcache" inspect "$fixture" -c .check
head -c 9216 "$fixture" > "$device/cut.sqlite"
check "inspect of a cut file reads the records its pages hold" 0 '^Human:1000$' \
  bash -c "'$normcache' inspect '$device/cut.sqlite' -c .keys 2>/dev/null"
check "inspect of a cut file says it was cut short" 0 'is 9216 bytes, but its header says 16384' "$normcache" inspect "$device/cut.sqlite" -c .quit
check ".check fails a cut file, naming the damage" 2 'cut\.sqlite: fails SQLite.s integrity check' "$normcache" inspect "$device/cut.sqlite" -c .check
# One bit of a key in the key index flipped: every row reads, and the check at open says what it found.
cp "$fixture" "$device/flipped.sqlite"; chmod u+w "$device/flipped.sqlite"
printf '\x6c' | dd of="$device/flipped.sqlite" bs=1 seek=7521 conv=notrunc 2>/dev/null
check "inspect warns at open when a file fails SQLite's integrity check" 0 'flipped\.sqlite: fails SQLite.s integrity check: row 4 missing from index' \
  "$normcache" inspect "$device/flipped.sqlite" -c .quit

# Where plugins are found: a binary copied alone finds none and says where it looked, once;
# NORMCACHE_PLUGINS names the directory that holds them.
mkdir "$device/alone" && cp "$normcache" "$device/alone/normcache"
alone=$(cd "$device/alone" && pwd -P)
built=$(cd "$(dirname "$normcache")" && pwd -P)
check "a binary alone says where it looked for plugins, once" 0 '^1$' \
  bash -c "env -u NORMCACHE_PLUGINS '$alone/normcache' -c .quit 2>&1 | grep -cxF 'warning: no plugins found (looked in: $alone, $(dirname "$alone")/lib/normcache/plugins; set NORMCACHE_PLUGINS or --plugins DIR)'"
check ".plugins with none lists the places searched" 0 "^no plugins found \(looked in: $alone, " \
  env -u NORMCACHE_PLUGINS "$alone/normcache" -c .plugins -c .quit
check "NORMCACHE_PLUGINS names where the plugins are" 0 "^trips +1\.0\.0 .* $built/libnormcache_trips\.[a-z]+$" \
  env NORMCACHE_PLUGINS="$built" "$alone/normcache" -c .plugins -c .quit

echo "cli: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
