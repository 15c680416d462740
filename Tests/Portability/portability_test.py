#!/usr/bin/env python3
"""The portability check (`make test-portability`, part of `make test`; docs/platforms.md).

normcache builds on Linux and is used on macOS and iOS. This check fails on any use of
a Linux-only API (RULES) in the Swift and C sources that is not inside a block compiled
only on Linux: `#if os(Linux)`, `#if canImport(Glibc)`, `#if canImport(FoundationNetworking)`
in Swift; `#ifdef __linux__`, `#if defined(__linux__)`, `__GLIBC__` in C. A block counts
when its condition is false on every other platform: the `#else` of a Linux condition is
not Linux-only, nor is `#if os(Linux) || os(macOS)`. Comments are not code; string
literals are (a path such as /proc/self/exe is Linux-only in a string). It also fails on
an API newer than Package.swift's iOS minimum in what iOS builds (IOS_RULES).

    portability_test.py            the self-test, then every source file
    portability_test.py FILE...    the self-test, then those files

Prints FILE:LINE, the rule and what to use instead, for each finding; the self-test fails
when a sample is flagged otherwise than it says, or a rule has no sample.
"""
import bisect
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]
SCANNED = ["Sources", "Plugins", "Tests", "NormPluginABI", "CCore", "examples"]
SUFFIXES = {".swift": "swift", ".c": "c", ".h": "c"}

# (name, languages, pattern, what to do instead[, the folders it applies to]). Add a rule here, and a sample of it to
# SAMPLES below: the self-test fails on a rule that no sample triggers. A match must
# start a word (`Glibc`, not `NotGlibc`): patterns begin with their literal, which keeps
# the search fast, and the check adds the word boundary.
RULES = [
    ("import Glibc", {"swift"}, r"import\s+Glibc\b",
     "#if canImport(Glibc) import Glibc #elseif canImport(Darwin) import Darwin #endif"),
    ("Glibc. qualifier", {"swift"}, r"Glibc\.\w",
     "qualify with Darwin. in the Darwin branch, or rename the member that shadows the function"),
    ("import FoundationNetworking", {"swift"}, r"import\s+FoundationNetworking\b",
     "#if canImport(FoundationNetworking): URLSession is in Foundation on Darwin"),
    ("/proc", {"swift", "c"}, r"/proc/",
     "procfs is Linux's: Darwin has sysctl, libproc (macOS) and mach task_info"),
    ("/dev/shm", {"swift", "c"}, r"/dev/shm\b", "Darwin has no /dev/shm: use a temporary directory"),
    ("MSG_NOSIGNAL", {"swift", "c"}, r"MSG_NOSIGNAL\b", "Darwin: setsockopt SO_NOSIGPIPE on the socket"),
    ("SOCK_CLOEXEC/SOCK_NONBLOCK", {"swift", "c"}, r"SOCK_(?:CLOEXEC|NONBLOCK)\b", "fcntl FD_CLOEXEC / O_NONBLOCK after socket()"),
    ("Glibc's SOCK_STREAM enum", {"swift"}, r"SOCK_(?:STREAM|DGRAM|RAW|SEQPACKET)\.rawValue\b",
     "Darwin's SOCK_STREAM is an Int32 already: SOCK_STREAM.rawValue only under canImport(Glibc)"),
    ("Glibc's posix_spawn value types", {"swift"}, r"posix_spawn(?:_file_actions|attr)_t\(\)",
     "on Darwin they are optional pointers: `var actions: posix_spawn_file_actions_t? = nil`"),
    ("epoll", {"swift", "c"}, r"epoll_\w+|sys/epoll\.h", "Darwin has kqueue; poll() works on both"),
    ("inotify/eventfd/signalfd/timerfd", {"swift", "c"}, r"(?:inotify|eventfd|signalfd|timerfd)_?\w*\s*\(|sys/(?:inotify|eventfd|signalfd|timerfd)\.h",
     "Linux-only descriptors: Darwin has kqueue and dispatch sources"),
    ("pipe2/dup3/accept4", {"swift", "c"}, r"(?:pipe2|dup3|accept4)\s*\(", "pipe/dup2/accept, then fcntl"),
    ("O_PATH", {"swift", "c"}, r"O_PATH\b", "Darwin has no O_PATH"),
    ("GNU libc global", {"swift", "c"}, r"program_invocation(?:_short)?_name\b", "getprogname() on Darwin, CommandLine.arguments[0] in Swift"),
    ("Linux stat field", {"swift", "c"}, r"st_[amc]tim\b", "Darwin names them st_atimespec, st_mtimespec, st_ctimespec"),
    ("Linux-only header", {"c"}, r"#\s*include\s*<(?:linux/[\w/]+|malloc|pty|features|sys/prctl|sys/sysinfo|sys/sendfile)\.h>",
     "not in Darwin's SDK: <malloc/malloc.h>, <util.h> (openpty), none for the others"),
    ("prctl/sysinfo/get_nprocs", {"swift", "c"}, r"(?:prctl|sysinfo|get_nprocs(?:_conf)?|sched_getaffinity)\s*\(",
     "Linux-only: sysconf(_SC_NPROCESSORS_ONLN) or ProcessInfo"),
    # Where the code finds libraries. A test may name a fixture file anything: dlopen takes
    # a path, whatever its suffix (a test that looks for built libraries asks
    # PluginHost.librarySuffix or TestSupport's BuildProducts).
    ("ELF library name", {"swift", "c"}, r"\.so(?:\.\d+)*\b(?!\.)",
     "libraries are .dylib on Darwin: name the suffix per platform", ("Sources/", "Plugins/")),
]

# What iOS builds (an app's NormClient and what it is built from) may use nothing newer
# than Package.swift's iOS minimum, 16: these came with iOS 18. Not a Linux matter, but
# the same kind of promise: the iOS build is not run here.
IOS_LIBRARIES = ("Sources/NormAPI/", "Sources/NormCache/", "Sources/NormClient/", "CCore/")
IOS_RULES = [
    ("newer than iOS 16", {"swift"},
     r"(?:Mutex|Atomic|TaskExecutor|InlineArray|U?Int128)\b|import\s+Synchronization\b|executorPreference|String\(validating:",
     "Synchronization, task executors, Int128 and String(validating:) need iOS 18: use NSLock, or raise Package.swift's iOS minimum",
     IOS_LIBRARIES),
]

# C-preprocessor and Swift compilation-condition atoms that hold on Linux only.
LINUX_ATOMS = {"os(Linux)", "os(Android)", "canImport(Glibc)", "canImport(Musl)", "canImport(Bionic)",
               "canImport(FoundationNetworking)", "__linux__", "__linux", "linux", "__gnu_linux__", "__GLIBC__",
               "__ANDROID__"}

FALSE, UNKNOWN, TRUE = 0, 1, 2   # three-valued: what a condition is off Linux


def is_word(character):
    return character.isalnum() or character == "_"


def negate(value):
    return TRUE + FALSE - value


def both(left, right):
    return min(left, right)


def either(left, right):
    return max(left, right)


def strip_comments(text, language):
    """`text` with its comments blanked (newlines kept, so lines still count), strings kept."""
    opening = re.compile(r'//|/\*|#+"|"' if language == "swift" else r"""//|/\*|["']""")
    out, i, n = [], 0, len(text)
    while True:
        match = opening.search(text, i)
        if not match:
            out.append(text[i:])
            return "".join(out)
        start = match.start()
        out.append(text[i:start])
        if match.group() == "//":
            end = text.find("\n", start)
            end = n if end < 0 else end
        elif match.group() == "/*":
            depth, end = 1, start + 2
            while end < n and depth:
                if language == "swift" and text.startswith("/*", end):
                    depth, end = depth + 1, end + 2
                elif text.startswith("*/", end):
                    depth, end = depth - 1, end + 2
                else:
                    end += 1
        else:
            end = string_end(text, start, language)
            out.append(text[start:end])
            i = end
            continue
        out.append(re.sub(r"[^\n]", " ", text[start:end]))
        i = end


SINGLE_LINE_STRING = {'"': re.compile(r'"(?:[^"\\\n]|\\.)*"?'), "'": re.compile(r"'(?:[^'\\\n]|\\.)*'?")}
MULTI_LINE_STRING = re.compile(r'"""(?:[^\\]|\\.)*?(?:"""|\Z)', re.S)


def string_end(text, start, language):
    """The index just past the string literal (or C character literal) at `start`; an
    unterminated single-line literal ends with its line."""
    hashes = len(re.match(r"#*", text[start:start + 16]).group(0)) if language == "swift" else 0
    if hashes:   # a raw string: no escapes, closed by its quote and as many #
        closing = ('"""' if text.startswith('"""', start + hashes) else '"') + "#" * hashes
        end = text.find(closing, start + hashes + 1)
        return len(text) if end < 0 else end + len(closing)
    if language == "swift" and text.startswith('"""', start):
        return MULTI_LINE_STRING.match(text, start).end()
    return SINGLE_LINE_STRING[text[start]].match(text, start).end()


def condition_value(condition, language):
    """The condition's value on a platform that is not Linux: FALSE when it can only hold
    on Linux, TRUE when it holds everywhere else, UNKNOWN when that depends."""
    if language == "c":
        condition = re.sub(r"\bdefined\s*\(\s*(\w+)\s*\)|\bdefined\s+(\w+)", lambda m: m.group(1) or m.group(2), condition)
    tokens = re.findall(r"\w+\s*\([^()]*\)|\w+|&&|\|\||!=|==|>=|<=|[!()<>]|\S", condition)
    position = 0

    def peek():
        return tokens[position] if position < len(tokens) else None

    def take():
        nonlocal position
        position += 1
        return tokens[position - 1]

    def chain(operator, operand, combine):   # operand (operator operand)*, left to right
        value = operand()
        while peek() == operator:
            take()
            value = combine(value, operand())
        return value

    def disjunction():
        return chain("||", conjunction, either)

    def conjunction():
        return chain("&&", negation, both)

    def negation():
        if peek() == "!":
            take()
            return negate(negation())
        return comparison()

    def comparison():
        value = primary()
        if peek() in ("==", "!=", ">=", "<=", ">", "<"):
            take()
            if peek() is not None:
                take()
            return FALSE if value == FALSE else UNKNOWN   # an undefined macro is 0 in C
        return value

    def primary():
        token = take() if peek() is not None else ""
        if token == "(":
            value = disjunction()
            if peek() == ")":
                take()
            return value
        atom = re.sub(r"\s+", "", token)
        if atom in LINUX_ATOMS:
            return FALSE
        if atom in ("true", "1") and language in ("swift", "c"):
            return TRUE
        if atom in ("false", "0"):
            return FALSE
        return UNKNOWN

    return disjunction()


DIRECTIVE = {
    "swift": re.compile(r"^\s*#(if|elseif|else|endif)\b(.*)$"),
    "c": re.compile(r"^\s*#\s*(if|ifdef|ifndef|elif|else|endif)\b(.*)$"),
}


def findings(text, language, path=""):
    """(line number, rule name, advice) for each Linux-only use outside a Linux-only block,
    and each use of an API newer than the iOS minimum in what iOS builds (by `path`)."""
    code = strip_comments(text, language)
    lines = code.split("\n")
    # Per line: None for a directive, else whether it is compiled on Linux only.
    linux_only = []
    # One frame per open #if: whether no earlier branch was taken, and whether this one is.
    frames = []
    for line in lines:
        directive = DIRECTIVE[language].match(line)
        if not directive:
            linux_only.append(any(branch == FALSE for _, branch in frames))
            continue
        linux_only.append(None)
        keyword, rest = directive.group(1), directive.group(2).strip()
        if keyword == "ifdef":
            keyword, rest = "if", rest.split()[0] if rest else ""
        elif keyword == "ifndef":
            keyword, rest = "if", "!" + (rest.split()[0] if rest else "")
        if keyword == "if":
            value = condition_value(rest, language)
            frames.append([negate(value), value])
        elif keyword in ("elseif", "elif") and frames:
            none_before, value = frames[-1][0], condition_value(rest, language)
            frames[-1] = [both(none_before, negate(value)), both(none_before, value)]
        elif keyword == "else" and frames:
            frames[-1][1] = frames[-1][0]
        elif keyword == "endif" and frames:
            frames.pop()
    rules = [(rule, False) for rule in RULES] + [(rule, True) for rule in IOS_RULES]
    starts = [0]
    for line in lines[:-1]:
        starts.append(starts[-1] + len(line) + 1)
    found = set()
    for (name, languages, pattern, advice, *folders), everywhere in rules:
        if language not in languages or (folders and not path.startswith(folders[0])):
            continue
        for match in re.finditer(pattern, code):   # the whole file at once: most rules never match
            start = match.start()
            if start > 0 and is_word(code[start]) and is_word(code[start - 1]):
                continue
            index = bisect.bisect_right(starts, start) - 1
            if linux_only[index] is False or (everywhere and linux_only[index] is not None):
                found.add((index + 1, name, advice))
    return sorted(found)


# The self-test: each sample, in its language, with the rules it must trigger (none: it
# must pass). A check that cannot fail checks nothing.
SAMPLES = [
    ("swift", "import Glibc\n", ["import Glibc"]),
    ("swift", "#if canImport(Glibc)\nimport Glibc\n#elseif canImport(Darwin)\nimport Darwin\n#endif\n", []),
    ("swift", "#if canImport(Darwin)\nimport Darwin\n#else\nimport Glibc\n#endif\n", ["import Glibc"]),
    ("swift", "#if !os(Linux)\nlet x = 1\n#else\nlet p = \"/proc/self/exe\"\n#endif\n", []),
    ("swift", "#if os(Linux)\nlet x = 1\n#else\nlet p = \"/proc/self/exe\"\n#endif\n", ["/proc"]),
    ("swift", "#if os(Linux) || os(Android)\nlet p = \"/proc/locks\"\n#endif\n", []),
    ("swift", "#if os(Linux) || os(macOS)\nlet p = \"/proc/locks\"\n#endif\n", ["/proc"]),
    ("swift", "#if os(Linux) && DEBUG\nlet p = \"/proc/locks\"\n#endif\n", []),
    ("swift", "#if os(Linux)\n#if DEBUG\nlet a = MSG_NOSIGNAL\n#else\nlet b = MSG_NOSIGNAL\n#endif\n#endif\n", []),
    ("swift", "#if os(macOS)\nlet a = 0\n#elseif os(Linux)\nlet b = MSG_NOSIGNAL\n#else\nlet c = MSG_NOSIGNAL\n#endif\n", ["MSG_NOSIGNAL"]),
    ("swift", "#if canImport(FoundationNetworking)\nimport FoundationNetworking\n#endif\n", []),
    ("swift", "import FoundationNetworking\n", ["import FoundationNetworking"]),
    ("swift", "/// reads /proc/locks, or MSG_NOSIGNAL\n// import Glibc\n/* epoll_wait( /* nested */ st_mtim */\nlet x = 1\n", []),
    ("swift", "let url = \"http://host/x\"; let p = \"/proc/self/status\"\n", ["/proc"]),
    ("swift", "let s = #\"a \\\" /proc/x\"#\n", ["/proc"]),
    ("swift", "let s = \"\"\"\n  // not a comment: /dev/shm/x\n  \"\"\"\n", ["/dev/shm"]),
    ("swift", "_ = Glibc.close(fd)\n", ["Glibc. qualifier"]),
    ("swift", "let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)\n", ["Glibc's SOCK_STREAM enum"]),
    ("swift", "var actions = posix_spawn_file_actions_t()\n", ["Glibc's posix_spawn value types"]),
    ("swift", "let m = info.st_mtim.tv_sec\n", ["Linux stat field"]),
    ("swift", "let m = info.st_mtimespec.tv_sec\n", []),
    ("swift", "let path = dir + \"/libnormcache_trips.so\"\n", ["ELF library name"], "Sources/NormPluginHost/X.swift"),
    ("swift", "try host.load(dir + \"/libx.so\")\n", [], "Tests/NormPluginHostTests/X.swift"),
    ("swift", "let sorted = names.sorted(); let s = x.some\n", []),
    ("swift", "let a = NO_PATH; let b = myepoll_wait(x); let c = NotGlibc.close\n", []),
    ("swift", "let fd = epoll_create1(0); pipe2(&fds, 0); accept4(l, nil, nil, 0); let f = O_PATH\n",
     ["epoll", "pipe2/dup3/accept4", "O_PATH"]),
    ("swift", "let n = eventfd(0, 0); prctl(1); let name = program_invocation_name; let s = SOCK_CLOEXEC\n",
     ["inotify/eventfd/signalfd/timerfd", "prctl/sysinfo/get_nprocs", "GNU libc global", "SOCK_CLOEXEC/SOCK_NONBLOCK"]),
    ("c", "#include <sys/epoll.h>\n#include <pty.h>\n", ["epoll", "Linux-only header"]),
    ("c", "#ifdef __linux__\n#include <sys/epoll.h>\n#else\n#include <sys/event.h>\n#endif\n", []),
    ("c", "#ifndef __linux__\nint a;\n#else\nchar *p = \"/proc/self/exe\";\n#endif\n", []),
    ("c", "#if defined(__linux__) && !defined(NO_PROC)\nchar *p = \"/proc/self/exe\";\n#elif defined(__APPLE__)\nchar *q = \"/proc/x\";\n#endif\n",
     ["/proc"]),
    ("c", "#if __GLIBC__ >= 2\nchar *p = \"/proc/self/exe\";\n#endif\n", []),
    ("c", "/* MSG_NOSIGNAL */ int c = '\"'; char *s = \"/dev/shm/x\";\n", ["/dev/shm"]),
    ("c", "#define _GNU_SOURCE\n#include <dlfcn.h>\n", []),
    ("swift", "import Synchronization\nlet lock = Mutex(0)\n", ["newer than iOS 16"], "Sources/NormCache/Engine/X.swift"),
    ("swift", "#if os(Linux)\nlet count = Atomic<Int>(0)\n#endif\n", ["newer than iOS 16"], "Sources/NormClient/X.swift"),
    ("swift", "// not a Mutex, an NSLock\nlet lock = NSLock()\n", [], "Sources/NormCache/Engine/X.swift"),
    ("swift", "import Synchronization\nlet lock = Mutex(0)\n", [], "Sources/Workbench/X.swift"),
]


def self_test():
    problems = []
    for language, text, expected, *path in SAMPLES:
        got = sorted({name for _, name, _ in findings(text, language, *path)})
        if got != sorted(set(expected)):
            problems.append(f"sample ({language}) {text!r}: flagged {got or 'nothing'}, expected {sorted(set(expected)) or 'nothing'}")
    sampled = {name for _, _, expected, *_ in SAMPLES for name in expected}
    for name, *_ in RULES + IOS_RULES:
        if name not in sampled:
            problems.append(f"rule {name!r} has no sample that triggers it")
    return problems


def source_files(arguments):
    if arguments:
        return [pathlib.Path(argument).resolve() for argument in arguments]
    files = []
    for folder in SCANNED:
        files += [path for path in (ROOT / folder).rglob("*") if path.suffix in SUFFIXES and path.is_file()]
    return sorted(files)


def main(arguments):
    problems = self_test()
    for problem in problems:
        print("portability self-test: " + problem)
    files = source_files(arguments)
    count = 0
    for path in files:
        shown = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path
        for number, name, advice in findings(path.read_text(errors="replace"), SUFFIXES[path.suffix], str(shown)):
            where = "in what iOS builds" if any(name == rule[0] for rule in IOS_RULES) else "outside a Linux-only block"
            print(f"{shown}:{number}: {name} {where} ({advice})")
            count += 1
    print(f"portability: {len(SAMPLES)} samples, {len(problems)} self-test problem{'s' if len(problems) != 1 else ''}; "
          f"{len(files)} files, {count} finding{'s' if count != 1 else ''}")
    return 1 if problems or count else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
