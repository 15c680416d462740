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

# normcache diff A B: records only in A, only in B and changed fields, as Apollo iOS reads
# them; both files read-only; the exit status as diff(1)'s (issue 39).
python3 - "$fixture" "$device" <<'PYTHON'
import shutil, sqlite3, sys
fixture, folder = sys.argv[1], sys.argv[2]
def copy(name, sql):
    path = folder + "/" + name
    shutil.copyfile(fixture, path)
    connection = sqlite3.connect(path)
    connection.executescript(sql)
    connection.commit()
    connection.close()
# Rows Apollo iOS reads as the fixture's: members in another order, 20 as 2e1, 77 as 77.0.
copy("same.sqlite", """
UPDATE records SET record = '{"id":"3003","length":2e1,"__typename":"Starship","name":"Imperial shuttle"}' WHERE key = 'Starship:3003';
UPDATE records SET record = replace(record, '"mass":77', '"mass":77.0') WHERE key = 'Human:1000';
""")
copy("after.sqlite", """
DELETE FROM records WHERE key = 'Droid:2000';
INSERT INTO records (key, record) VALUES ('Starship:3002', '{"__typename":"Starship","id":"3002","name":"Millennium Falcon"}');
UPDATE records SET record = replace(replace(record, '"mass":77', '"mass":80'), '"homePlanet":"Tatooine",', '') WHERE key = 'Human:1000';
""")
copy("damaged.sqlite", """UPDATE records SET record = '{"name":"Han",' WHERE key = 'Human:1002';""")
copy("columns.sqlite", """DROP TABLE records; CREATE TABLE records (_id INTEGER PRIMARY KEY, key TEXT, value TEXT);""")
PYTHON
printf 'just some notes\n' > "$device/notes.sqlite"
files_before=$(ls "$device"; sha256sum "$device"/*.sqlite "$fixture")
check "diff of a file and itself exits 0" 0 "^$fixture and $fixture hold the same 12 records$" "$normcache" diff "$fixture" "$fixture"
check "diff of rows Apollo iOS reads the same exits 0" 0 'hold the same 12 records$' "$normcache" diff "$fixture" "$device/same.sqlite"
check "diff of files that differ exits 1" 1 "^--- $fixture$" "$normcache" diff "$fixture" "$device/after.sqlite"
check "diff names a record only in A" 1 '^- Droid:2000$' "$normcache" diff "$fixture" "$device/after.sqlite"
check "diff names a record only in B" 1 '^\+ Starship:3002$' "$normcache" diff "$fixture" "$device/after.sqlite"
check "diff shows a changed field old → new" 1 '^~ Human:1000$' "$normcache" diff "$fixture" "$device/after.sqlite"
check "diff shows a changed value" 1 '^    mass: 77 → 80$' "$normcache" diff "$fixture" "$device/after.sqlite"
check "diff shows a field B lacks as absent" 1 '^    homePlanet: "Tatooine" → \(absent\)$' "$normcache" diff "$fixture" "$device/after.sqlite"
check "diff counts what differs" 1 "^1 record only in $fixture, 1 only in $device/after.sqlite, 1 changed, 10 the same$" \
  "$normcache" diff "$fixture" "$device/after.sqlite"
check "diff --keys narrows both sides" 1 "^0 records only in $fixture, 0 only in $device/after.sqlite, 1 changed, 4 the same matching Human:\*$" \
  "$normcache" diff --keys 'Human:*' "$fixture" "$device/after.sqlite"
check "diff --keys of records that are the same exits 0" 0 'hold the same 3 records matching Droid:2001\*$' \
  "$normcache" diff --keys 'Droid:2001*' "$fixture" "$device/after.sqlite"
check "diff --json prints the diff event" 1 \
  "^\{\"event\":\"diff\",\"a\":\"$fixture\",\"b\":\"$device/after.sqlite\",\"onlyA\":\[\"Droid:2000\"\],\"onlyB\":\[\"Starship:3002\"\],\"changed\":\{\"Human:1000\":\{\"homePlanet\":\[\"Tatooine\",null\],\"mass\":\[77,80\]\}\}\}$" \
  "$normcache" diff --json "$fixture" "$device/after.sqlite"
check "diff --json of the same files: empty lists" 0 '"onlyA":\[\],"onlyB":\[\],"changed":\{\}\}$' "$normcache" diff --json "$fixture" "$device/same.sqlite"
check "diff of a missing file exits 2, naming it" 2 "^error: $device/missing\.sqlite: does not exist$" "$normcache" diff "$fixture" "$device/missing.sqlite"
check "diff of a text file exits 2, naming it" 2 "^error: $device/notes\.sqlite: is not a SQLite database" "$normcache" diff "$device/notes.sqlite" "$fixture"
check "diff of a SQLite file that is no Apollo cache exits 2" 2 "^error: $device/columns\.sqlite: its records table has no \"record\" column" \
  "$normcache" diff "$fixture" "$device/columns.sqlite"
check "diff of a damaged record exits 2, naming it" 2 "$device/damaged\.sqlite: record Human:1002 cannot be read: " \
  "$normcache" diff "$fixture" "$device/damaged.sqlite"
check "diff of one file exits 2" 2 '^error: normcache diff takes two cache files, A and B, not 1: ' "$normcache" diff "$fixture"
check "diff of three files exits 2" 2 '^error: normcache diff takes two cache files, A and B, not 3: ' "$normcache" diff "$fixture" "$fixture" "$fixture"
check "diff --keys with an empty glob exits 2" 2 '^error: the glob of record keys is empty' "$normcache" diff --keys '' "$fixture" "$fixture"
check "diff --json reports an error as an event" 2 '^\{"event":"error","message":".*missing\.sqlite: does not exist"' \
  "$normcache" diff --json "$fixture" "$device/missing.sqlite"
check "diff of a file cut short prints what it reads, warns and exits 2" 2 'cut\.sqlite: is 9216 bytes, but its header says 16384' \
  "$normcache" diff "$fixture" "$device/cut.sqlite"
check "diff of a file that fails the integrity check warns and exits 2" 2 'flipped\.sqlite: fails SQLite.s integrity check: row 4 missing from index' \
  "$normcache" diff "$fixture" "$device/flipped.sqlite"
files_after=$(ls "$device"; sha256sum "$device"/*.sqlite "$fixture")
check "diff leaves every file as it was, and makes none" 0 '^same$' bash -c '[ "$1" = "$2" ] && echo same' _ "$files_before" "$files_after"
check "diff is a subcommand the help lists" 0 '^  diff +Compare two cache files' "$normcache" --help
check "diff --help says its exit status" 0 'Exit status as diff\(1\)' "$normcache" diff --help
check "the bash completion script offers diff" 0 '^[1-9]' bash -c "'$normcache' --generate-completion-script bash | grep -c diff"

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
