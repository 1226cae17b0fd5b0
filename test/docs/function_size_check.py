#!/usr/bin/env python3
"""No function of src/ or include/tare/ over 80 lines without a reason in a comment.

docs/architecture.md, "Conventions": a function longer than 80 lines, from its signature's
first line to its closing brace, carries a comment directly above it that starts with
"Long by design:" and says why. The sources are clang-formatted, so a definition's closing
brace is at its signature's indentation; lambdas and blocks inside a function are deeper and
count towards it. Rejected: clang-tidy's readability-function-size, which needs every file
compiled (minutes in CI) to give the same answer the layout gives here in a second.

Usage: function_size_check.py SOURCE_DIR
"""
import pathlib
import re
import sys

LIMIT = 80
REASON = "// Long by design:"

# A line that ends a function's signature: a closing parenthesis, maybe qualifiers
# (const, noexcept, override, a trailing return type), then the opening brace. Not a control
# statement, a type or a namespace.
SIGNATURE_END = re.compile(
    r"^"
    r"(?!(?:if|for|while|switch|catch|return|else|do|namespace|struct|class|union|enum)\b)"
    r"[^;{}]*\)[^;{}()]*\{\s*$")


def signature_start(lines, i):
    """The first line of the signature that ends on line i: the lines before it that continue
    it (a long parameter list is wrapped)."""
    s = i
    while s > 0:
        stripped = lines[s - 1].strip()
        if not stripped or stripped.endswith((";", "{", "}", ":")) or stripped.startswith(("//", "#", "template")):
            break
        s -= 1
    return s


def closing_brace(lines, i, indent):
    """The line of the brace that closes the body opened on line i."""
    pad = " " * indent
    for j in range(i + 1, len(lines)):
        line = lines[j]
        if line.startswith(pad + "}") and (len(line) == indent + 1 or line[indent + 1] in ";, )"):
            return j
    return len(lines) - 1


def has_reason(lines, start):
    """Whether the comment block right above line `start` gives a reason."""
    k = start - 1
    while k >= 0 and lines[k].strip().startswith("//"):
        if lines[k].strip().startswith(REASON):
            return True
        k -= 1
    return False


def long_functions(text):
    """(first line, length, signature) of each function over LIMIT lines with no reason."""
    lines = text.split("\n")
    found = []
    i = 0
    while i < len(lines):
        if not lines[i].rstrip().endswith("{") or lines[i].lstrip().startswith(("//", "#")):
            i += 1
            continue
        start = signature_start(lines, i)
        m = SIGNATURE_END.match(" ".join(line.strip() for line in lines[start:i + 1]))
        indent = len(lines[start]) - len(lines[start].lstrip(" "))
        # Functions sit at namespace scope (indent 0) or in a class (indent 4); anything deeper
        # is a statement or a lambda inside one.
        if not m or indent > 4:
            i += 1
            continue
        end = closing_brace(lines, i, indent)
        length = end - start + 1
        if length > LIMIT and not has_reason(lines, start):
            found.append((start + 1, length, lines[start].strip()))
        i = end + 1
    return found


def self_check():
    """The detector on made-up sources whose answer is known, so that a broken pattern fails
    this test rather than passing every file."""
    body = "".join(f"    total += {k};\n" for k in range(LIMIT))
    long_one = "int sum(int n,\n        int m) {\n    int total = 0;\n" + body + "    return total;\n}\n"
    short_one = "int one() {\n    return 1;\n}\n"
    member = ("struct s {\n    int sum(int n) const {\n" +
              "".join(f"        n += {k};\n" for k in range(LIMIT)) + "        return n;\n    }\n};\n")
    with_reason = "// Long by design: a table's columns in order.\n" + long_one
    assert [f[0:2] for f in long_functions(long_one)] == [(1, LIMIT + 5)], long_functions(long_one)
    assert long_functions(short_one + long_one)[0][0] == 4
    assert long_functions(short_one) == []
    assert long_functions(with_reason) == []
    assert [f[0] for f in long_functions(member)] == [2], long_functions(member)


def main():
    self_check()
    root = pathlib.Path(sys.argv[1])
    files = sorted(list(root.glob("src/**/*.cpp")) + list(root.glob("src/**/*.hpp")) +
                   list(root.glob("include/tare/**/*.hpp")))
    if len(files) < 100:
        print(f"only {len(files)} source files under {root}: not the source tree")
        return 1
    bad = 0
    for path in files:
        for line, length, signature in long_functions(path.read_text()):
            print(f"{path.relative_to(root)}:{line}: {length} lines, over {LIMIT}, with no "
                  f"'{REASON}' comment above it: {signature}")
            bad += 1
    if bad:
        print(f"{bad} function(s) over {LIMIT} lines: split them, or say why not (docs/architecture.md)")
        return 1
    print(f"{len(files)} files, no function over {LIMIT} lines without a reason")
    return 0


if __name__ == "__main__":
    sys.exit(main())
