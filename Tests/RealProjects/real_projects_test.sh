#!/usr/bin/env bash
# Every real GraphQL project of ../shared/fixtures/real-projects (Apollo iOS's own sample
# and test APIs; PROVENANCE.md there) as a new user meets it: it loads, `.ops` lists every
# operation and fragment its files define, `normcache codegen` writes its Swift types, and
# they compile against the library products (NormAPI); and the .repl scripts beside this
# file, which run over them.
# Usage: real_projects_test.sh PATH/TO/normcache MODULES_DIR [PROJECTS_DIR]
set -uo pipefail
normcache=$1 modules=$2
projects=${3:-$(dirname "$0")/../../../shared/fixtures/real-projects}
if [ ! -d "$projects" ]; then
  echo "real projects: skipped: no $projects (the team's shared/ folder is not beside this checkout)"
  exit 0
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
passed=0 failed=0

# The project folders under $1: those holding apollo-codegen-config.json if any does; else
# $1 itself when it holds a schema file; else the same asked of each subfolder.
project_dirs() {
  local configs
  configs=$(find "$1" -name apollo-codegen-config.json -printf '%h\n' | sort)
  if [ -n "$configs" ]; then echo "$configs"; return; fi
  if compgen -G "$1/*.graphqls" >/dev/null || [ -e "$1/schema.json" ]; then echo "$1"; return; fi
  local sub; for sub in "$1"/*/; do [ -d "$sub" ] && project_dirs "${sub%/}"; done
}

# The operation and fragment names defined in the *.graphql files under $1, read with a
# pattern of their own rather than by the loader under test.
defined_names() {
  find "$1" -name '*.graphql' | xargs -r grep -hoE '^[[:space:]]*(query|mutation|subscription|fragment)[[:space:]]+[_A-Za-z][_0-9A-Za-z]*' \
    | awk '{print $2}' | sort -u
}

# Type-checks the Swift codegen wrote into $1 as an app builds it: a generated package
# (moduleType swiftPackage) first, as the module its Package.swift names, into $2; then the
# other files as the module they import (an embedded target's, when operations are apart
# from it), else a module of their own.
compile_output() {
  local out=$1 built=$2 manifest package module sources
  mkdir -p "$built"
  while read -r manifest; do
    [ -n "$manifest" ] || continue
    package=$(dirname "$manifest")
    module=$(grep -o 'library(name: "[^"]*"' "$manifest" | cut -d'"' -f2)
    mapfile -t sources < <(find "$package/Sources" -name '*.swift' | sort)
    swiftc -emit-module -parse-as-library -module-name "$module" -I "$modules" -emit-module-path "$built/$module.swiftmodule" "${sources[@]}" || return 1
  done < <(find "$out" -name Package.swift)
  mapfile -t sources < <(find "$out" -name '*.swift' ! -name Package.swift | while read -r file; do
    inside=; for manifest in $(find "$out" -name Package.swift); do [[ $file == "$(dirname "$manifest")"/* ]] && inside=1; done
    [ -z "$inside" ] && echo "$file"; done | sort)
  [ ${#sources[@]} -eq 0 ] && return 0
  module=$(grep -h '^import ' "${sources[@]}" | awk '{print $2}' | grep -vx NormAPI | sort -u | while read -r imported; do
    [ -e "$built/$imported.swiftmodule" ] || echo "$imported"; done | head -1)
  swiftc -typecheck -parse-as-library -module-name "${module:-RealProject}" -I "$modules" -I "$built" "${sources[@]}"
}

fail() { failed=$((failed + 1)); echo "FAIL: $1"; [ -n "${2:-}" ] && sed 's/^/  | /' <<<"$2"; }

for top in "$projects"/*/; do for dir in $(project_dirs "${top%/}"); do
  name=${dir#"$projects"/}
  # A configuration's search paths may leave its folder (../../../Sources/...): its names
  # are those of its whole fixture.
  [ -e "$dir/apollo-codegen-config.json" ] && names_under=${top%/} || names_under=$dir
  ops=$("$normcache" --project "$dir" --json -c .ops </dev/null 2>&1)
  if [ $? -ne 0 ]; then fail "$name does not load" "$ops"; continue; fi
  listed=$(grep -o '"name":"[^"]*"' <<<"$ops" | cut -d'"' -f4 | sort -u)
  wanted=$(defined_names "$names_under")
  if [ "$listed" != "$wanted" ]; then
    fail "$name: .ops lists other names than its files define" "$(diff <(echo "$wanted") <(echo "$listed"))"; continue
  fi
  out="$work/${name//\//_}"
  generated=$("$normcache" codegen --project "$dir" --output "$out" 2>&1)
  if [ $? -ne 0 ]; then fail "$name: codegen failed" "$(head -20 <<<"$generated")"; continue; fi
  compiled=$(compile_output "$out" "$work/modules-${name//\//_}" 2>&1)
  if [ $? -ne 0 ]; then fail "$name: its generated Swift does not compile" "$(head -40 <<<"$compiled")"; continue; fi
  passed=$((passed + 1))
  echo "ok: $name ($(wc -l <<<"$listed") operations and fragments, $(find "$out" -name '*.swift' | wc -l) files)"
done; done
# Scripts over the real projects, beside this file (each names its project relative to itself).
for script in "$(dirname "$0")"/*.repl; do
  ran=$("$normcache" run "$script" 2>&1)
  if [ $? -eq 0 ]; then passed=$((passed + 1)); echo "ok: $(basename "$script")"; else fail "$(basename "$script")" "$ran"; fi
done
echo "real-projects: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
