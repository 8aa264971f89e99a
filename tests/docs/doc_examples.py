#!/usr/bin/env python3
"""Runs the `$ ccsched ...` examples of a Markdown file and compares what they print with
what the file shows (docs/RELIABILITY.md, "Documentation that runs").

In a fenced code block, a line starting with "$ " is a command and the lines after it, up
to the next command or the end of the block, are what it prints (stdout, then stderr, as a
terminal shows them when nothing is interleaved). A line "..." stands for any number of
lines. Times in seconds ("0.01 s", "3.2s") are masked on both sides, so they never fail a
comparison. A command ending in the shell comment "# lines in any order" (parallel ranks
printing) is compared with both sides sorted. Every file runs in a fresh empty folder, its commands in order, so an example
can read the files that earlier ones wrote (`-o schedule.json`); `ccsched` is the build's.

    doc_examples.py --binary build/release/ccsched README.md docs/COST.md     # check
    doc_examples.py --binary build/release/ccsched --update README.md         # rewrite

--update replaces each shown output by what the command prints now, keeping the "..."
elisions where the old output had them (scripts/update-doc-examples.sh runs it on every
file). Exit status: 0 when every example matches, 1 otherwise (the differences on stdout).
"""
import argparse
import difflib
import os
import re
import shutil
import subprocess
import sys
import tempfile

ELLIPSIS = "..."
ANY_ORDER = "# lines in any order"
# Volatile parts: wall-clock times in seconds as the commands print them.
TIME = re.compile(r"\b\d+(?:\.\d+)?(?: ?)s\b")


def mask(line):
    """The line with its volatile parts replaced by placeholders."""
    return TIME.sub("<t>s", line.rstrip())


class Example:
    """One `$ command` of a file: where its output lines are, and what they are."""

    def __init__(self, command, line, first, last, expected):
        self.command = command      # without the "$ "
        self.line = line            # 1-based line of the command
        self.first = first          # index of the first output line in the file's lines
        self.last = last            # index one past the last output line
        self.expected = expected    # the output lines as shown


def examples(lines):
    """Every example of a file, in order."""
    found = []
    fence = None
    current = None
    for i, raw in enumerate(lines):
        text = raw.rstrip("\n")
        stripped = text.strip()
        if fence is None:
            if stripped.startswith("```"):
                fence = stripped[:3]
            continue
        if stripped.startswith(fence):
            if current:
                current.last = i
                found.append(current)
                current = None
            fence = None
            continue
        if text.startswith("$ "):
            if current:
                current.last = i
                found.append(current)
            current = Example(text[2:], i + 1, i + 1, i + 1, [])
        elif current:
            current.expected.append(text)
    return found


def run(command, folder, env):
    """What the command prints: stdout, then stderr."""
    done = subprocess.run(["bash", "-c", command], cwd=folder, env=env, capture_output=True,
                          text=True, timeout=600)
    out = done.stdout + done.stderr
    return out.splitlines()


def matches(expected, actual):
    """True when `actual` is `expected` with each "..." line standing for any lines."""
    pattern = ""
    for line in expected:
        if line.strip() == ELLIPSIS:
            pattern += r"(?:[^\n]*\n)*?"
        else:
            pattern += re.escape(mask(line)) + r"\n"
    text = "".join(mask(line) + "\n" for line in actual)
    return re.fullmatch(pattern, text) is not None


def align(explicit, actual):
    """A monotone matching of the shown lines to the printed ones that maximises their
    total similarity: for each shown line, the index of its printed line or None."""
    n, m = len(explicit), len(actual)
    score = [[0.0] * (m + 1) for _ in range(n + 1)]
    for i in range(n - 1, -1, -1):
        for j in range(m - 1, -1, -1):
            s = difflib.SequenceMatcher(None, mask(explicit[i]), mask(actual[j])).ratio()
            take = score[i + 1][j + 1] + s if s >= 0.5 else -1.0
            score[i][j] = max(take, score[i + 1][j], score[i][j + 1])
    pairs = [None] * n
    i = j = 0
    while i < n and j < m:
        s = difflib.SequenceMatcher(None, mask(explicit[i]), mask(actual[j])).ratio()
        if s >= 0.5 and score[i][j] == score[i + 1][j + 1] + s:
            pairs[i] = j
            i += 1
            j += 1
        elif score[i][j] == score[i + 1][j]:
            i += 1
        else:
            j += 1
    return pairs


def regenerate(expected, actual):
    """The new shown output: what the command prints, with the old "..." elisions kept
    where they stood. The shown lines between two elisions are a run of printed lines; the
    run is placed where its lines best match the printed ones (align), widened by the shown
    lines that no longer match (a table row whose numbers changed) and by new lines inside
    it (an added summary line), so an example keeps its shape: head, "...", tail."""
    if not any(line.strip() == ELLIPSIS for line in expected):
        return list(actual)
    runs = [[]]
    for k, line in enumerate(expected):
        if line.strip() == ELLIPSIS:
            if runs[-1]:
                runs.append([])
        else:
            runs[-1].append(k)
    if not runs[-1]:
        runs.pop()
    lead = expected[0].strip() == ELLIPSIS
    trail = expected[-1].strip() == ELLIPSIS
    explicit = [k for run in runs for k in run]
    pairs = dict(zip(explicit, align([expected[k] for k in explicit], actual)))
    out = []
    position = 0
    for number, run in enumerate(runs):
        matched = [(i, pairs[k]) for i, k in enumerate(run) if pairs[k] is not None]
        if matched:
            lo = matched[0][1] - matched[0][0]
            hi = matched[-1][1] + 1 + (len(run) - 1 - matched[-1][0])
        else:
            lo, hi = position, position + len(run)
        if number == 0 and not lead:
            lo = 0
        if number == len(runs) - 1 and not trail:
            hi = len(actual)
        lo = min(max(lo, position), len(actual))
        hi = min(max(hi, lo), len(actual))
        if number > 0 or lead:
            out.append(ELLIPSIS)
        out.extend(actual[lo:hi])
        position = hi
    if trail:
        out.append(ELLIPSIS)
    return out


def process(path, binary, update):
    """Runs one file's examples; returns how many differ (after --update: how many were
    rewritten)."""
    with open(path, encoding="utf-8") as f:
        lines = f.readlines()
    found = examples(lines)
    if not found:
        return 0
    env = dict(os.environ)
    env["PATH"] = os.path.dirname(os.path.abspath(binary)) + os.pathsep + env.get("PATH", "")
    env.setdefault("OMPI_ALLOW_RUN_AS_ROOT", "1")
    env.setdefault("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1")
    folder = tempfile.mkdtemp(prefix="ccsched_doc_")
    differing = 0
    replacements = []
    try:
        for example in found:
            actual = run(example.command, folder, env)
            if example.command.rstrip().endswith(ANY_ORDER):
                if sorted(map(mask, actual)) == sorted(map(mask, example.expected)):
                    continue
            elif matches(example.expected, actual):
                continue
            differing += 1
            if update:
                replacements.append((example, regenerate(example.expected, actual)))
            else:
                print("{}:{}: $ {}".format(path, example.line, example.command))
                for d in difflib.unified_diff(example.expected, actual, "shown", "printed",
                                              lineterm="", n=2):
                    print("    " + d)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    if update and replacements:
        for example, new in reversed(replacements):
            lines[example.first:example.last] = [line + "\n" for line in new]
        with open(path, "w", encoding="utf-8") as f:
            f.writelines(lines)
        print("{}: rewrote {} example output{}".format(path, len(replacements),
                                                      "" if len(replacements) == 1 else "s"))
    return differing


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--binary", required=True, help="the ccsched command to run")
    parser.add_argument("--update", action="store_true",
                        help="rewrite the shown outputs from what the commands print now")
    parser.add_argument("files", nargs="+")
    args = parser.parse_args()
    differing = sum(process(f, args.binary, args.update) for f in args.files)
    if differing and not args.update:
        print("{} example{} differ; if the change is intended, run "
              "scripts/update-doc-examples.sh".format(differing,
                                                      "" if differing == 1 else "s"))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
