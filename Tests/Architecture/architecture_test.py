#!/usr/bin/env python3
"""The architecture test (`make test-architecture`, part of `make test`).

docs/architecture.md draws each target's dependencies, one line a target
(`Workbench ──► NormClient, NormCache, …`). This test fails when the drawing and
Package.swift (read through `swift package dump-package`) differ for any target but the
test targets, and when a Swift file imports a module its target does not depend on, or a
target depends on a module none of its files imports. It also holds docs/public-api.md's
list of public types, module by module, to the `public` types each module declares, and
keeps unsafe flags out of every library an app or a plugin depends on (SwiftPM and Xcode
refuse a versioned dependency whose targets set them; docs/platforms.md).
"""
import json
import pathlib
import re
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]
# Modules of the platform, not of the package: any target may import them.
PLATFORM = {"Foundation", "FoundationNetworking", "Glibc", "Darwin", "MachO", "Dispatch", "Synchronization",
            "Testing", "XCTest", "os", "PackageDescription"}
ARROW = "──►"


def package_dump():
    return json.loads(subprocess.run(["swift", "package", "dump-package"], cwd=ROOT, check=True, capture_output=True, text=True).stdout)


def package_targets(dump):
    targets = {}
    for target in dump["targets"]:
        dependencies, local = [], []
        for dependency in target["dependencies"]:
            kind, value = next(iter(dependency.items()))
            dependencies.append(value[0])
            if kind != "product":
                local.append(value[0])
        unsafe = any("unsafeFlags" in setting["kind"] for setting in target.get("settings", []))
        targets[target["name"]] = {"type": target["type"], "path": target.get("path"), "dependencies": dependencies,
                                   "local": local, "unsafe": unsafe}
    return targets


def unsafe_flag_problems(dump, targets):
    """Each library product others depend on (not the plugins' dynamic libraries, which the
    host loads) and the targets it is built from, with no unsafe flags."""
    problems = []
    for product in dump["products"]:
        kind = product["type"]
        if "library" not in kind or kind["library"] == ["dynamic"]:
            continue
        closure, pending = set(), list(product["targets"])
        while pending:
            name = pending.pop()
            if name not in closure:
                closure.add(name)
                pending += targets[name]["local"]
        for name in sorted(name for name in closure if targets[name]["unsafe"]):
            problems.append(f"the library {product['name']} is built from {name}, which sets unsafeFlags: "
                            "a package that depends on {0} could not use it (docs/platforms.md)".format(product["name"]))
    return problems


def drawing():
    text = (ROOT / "docs/architecture.md").read_text()
    section = text.split("## Dependencies", 1)[1]
    block = section.split("```", 2)[1]
    drawn = {}
    for line in block.splitlines():
        line = re.sub(r"\(.*?\)", "", line).strip()   # parenthesised notes are for readers
        if ARROW not in line:
            continue
        name, _, rest = line.partition(ARROW)
        drawn[name.strip()] = [d.strip() for d in rest.split(",") if d.strip()]
    return drawn


def source_directory(name, target):
    if target["path"]:
        return ROOT / target["path"]
    return ROOT / ("Tests" if target["type"] == "test" else "Sources") / name


def imports(directory):
    found = {}
    for file in directory.rglob("*.swift"):
        for line in file.read_text().splitlines():
            # At the start of a line: an import is top-level, and a script in a string literal is indented.
            match = re.match(r"(?:@\w+(?:\([^)]*\))?\s+)*import\s+(?:(?:struct|class|enum|protocol|func|typealias|var|let)\s+)?(\w+)", line)
            if match:
                found.setdefault(match.group(1), file.relative_to(ROOT))
    return found


PUBLIC_TYPE = re.compile(r"^public\s+(?:final\s+)?(?:struct|enum|class|protocol|typealias|actor)\s+(\w+)", re.M)


def public_types(directory):
    """The top-level types the Swift files under `directory` declare `public`, by name; what
    `normcache codegen` wrote (`// @generated`) is public as Apollo's generated code is."""
    types = set()
    for file in directory.rglob("*.swift"):
        text = file.read_text()
        if not text.startswith("// @generated"):
            types |= set(PUBLIC_TYPE.findall(text))
    return types


def listed_public_types():
    """docs/public-api.md's types per module: the `Name`s that open each list item under `## Module`."""
    listed = {}
    module = None
    for line in (ROOT / "docs/public-api.md").read_text().splitlines():
        if line.startswith("## "):
            module = line[3:].strip()
            listed[module] = set()
        elif module and line.startswith("- "):
            head = line[2:].split(":", 1)[0]
            listed[module] |= set(re.findall(r"`(\w+)`", head))
    return listed


def public_api_problems(targets):
    problems = []
    listed_modules = listed_public_types()
    for name, target in sorted(targets.items()):
        if target["type"] in ("test", "system") or name in listed_modules:
            continue
        for type_name in sorted(public_types(source_directory(name, target))):
            problems.append(f"{name} declares public {type_name}, but docs/public-api.md has no section for {name}: "
                            "what only this package uses is package")
    for module, listed in sorted(listed_modules.items()):
        declared = public_types(ROOT / "Sources" / module)
        for name in sorted(declared - listed):
            problems.append(f"{module} declares public {name}, which docs/public-api.md does not list: "
                            "list it with who calls it, or make it package")
        for name in sorted(listed - declared):
            problems.append(f"docs/public-api.md lists {name} under {module}, which declares no public type of that name")
    return problems


def main():
    dump = package_dump()
    targets = package_targets(dump)
    drawn = drawing()
    problems = []
    for name, target in sorted(targets.items()):
        declared = target["dependencies"]
        if target["type"] != "test":
            if name not in drawn:
                problems.append(f"docs/architecture.md draws no line for {name} (Package.swift: {', '.join(declared) or 'nothing'})")
            elif sorted(drawn[name]) != sorted(declared):
                problems.append(f"{name}: docs/architecture.md draws {', '.join(drawn[name]) or 'nothing'}; "
                                f"Package.swift says {', '.join(declared) or 'nothing'}")
        if target["type"] == "system":
            continue
        used = imports(source_directory(name, target))
        for module, file in sorted(used.items()):
            if module not in declared and module not in PLATFORM and module != name:
                problems.append(f"{file} imports {module}, which {name} does not depend on in Package.swift")
        for module in declared:
            # A C target's header-only module, or a system library, is imported by name too.
            if module not in used and list(source_directory(name, target).rglob("*.swift")):
                problems.append(f"{name} depends on {module}, which none of its Swift files imports")
    for name in sorted(set(drawn) - set(targets)):
        problems.append(f"docs/architecture.md draws {name}, which Package.swift does not have")
    problems += public_api_problems(targets)
    problems += unsafe_flag_problems(dump, targets)
    for problem in problems:
        print("architecture: " + problem)
    print(f"architecture: {len(targets)} targets, {len(problems)} problem{'s' if len(problems) != 1 else ''}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
