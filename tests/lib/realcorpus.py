# SPDX-License-Identifier: Apache-2.0
"""Hold gpulint to the hand labels of the real corpus (tests/corpus/real/).

usage: realcorpus.py check BINARY CORPUS_DIR [FILES_DIR]
       realcorpus.py stats BINARY CORPUS_DIR [FILES_DIR]

CORPUS_DIR holds SOURCES.tsv (one row per file; # starts a comment line), labels.txt (the gating labels) and
future.txt (labels for rules and launch forms not implemented yet: reported, never gating).
FILES_DIR (default CORPUS_DIR/files) holds the files, as <owner>__<repo>/<path>.

gpulint runs once per repository (the files of one repository form one run, as images
built in one file of a repository count for its other files), from FILES_DIR, with
--no-config --format json --driver 535.

Label lines (# starts a comment; fields are separated by blanks):
  complete FILE                     every finding in FILE must be matched by a label below
  must RULE FILE POS [xfail CLASS]  a finding of RULE in FILE at POS must be reported
  must-not RULE FILE [POS] [xfail CLASS]
                                    no finding of RULE in FILE (at POS) may be reported
POS is LINE:COL, LINE, or FIRST-LAST (a line range). `xfail CLASS` marks a label that
gpulint does not meet today (a miss for must, a false positive for must-not), named by
the class of the defect: the check passes while it fails, and fails with "now passes:
remove xfail" once gpulint meets it, so the labels stay honest.

check exits 0 when every label holds (or is an xfail that still fails), else 1.
stats prints recall and false positives per rule and in all, and the xfail classes with
the files they hit, from the same run.
"""
import collections
import json
import os
import subprocess
import sys

Label = collections.namedtuple("Label", "kind rule file pos xfail lineno text")


def parse_pos(pos):
    if pos is None:
        return None
    if "-" in pos:
        a, b = pos.split("-", 1)
        return ("range", int(a), int(b))
    if ":" in pos:
        a, b = pos.split(":", 1)
        return ("exact", int(a), int(b))
    return ("line", int(pos), None)


def pos_matches(pos, line, col):
    if pos is None:
        return True
    kind, a, b = pos
    if kind == "exact":
        return line == a and col == b
    if kind == "line":
        return line == a
    return a <= line <= b


def read_labels(path, known, errors):
    labels, complete = [], set()
    if not os.path.exists(path):
        return labels, complete
    for n, raw in enumerate(open(path, encoding="utf-8"), 1):
        text = raw.split("#", 1)[0].split()
        if not text:
            continue
        where = f"{os.path.basename(path)}:{n}"
        xfail = None
        if len(text) >= 2 and text[-2] == "xfail":
            xfail, text = text[-1], text[:-2]
        kind = text[0]
        if kind == "complete" and len(text) == 2:
            if text[1] not in known:
                errors.append(f"{where}: {text[1]} is not in SOURCES.tsv")
            complete.add(text[1])
            continue
        if kind not in ("must", "must-not") or len(text) not in (3, 4) or (kind == "must" and len(text) != 4):
            errors.append(f"{where}: cannot read this label: {raw.strip()}")
            continue
        if text[2] not in known:
            errors.append(f"{where}: {text[2]} is not in SOURCES.tsv")
        try:
            pos = parse_pos(text[3] if len(text) == 4 else None)
        except ValueError:
            errors.append(f"{where}: bad position {text[3]}")
            continue
        labels.append(Label(kind, text[1], text[2], pos, xfail, where, raw.split("#", 1)[0].strip()))
    return labels, complete


def run(binary, files_dir, names):
    by_repo = collections.defaultdict(list)
    for name in names:
        by_repo[name.split("/", 1)[0]].append(name)
    findings = []
    for repo in sorted(by_repo):
        out = subprocess.run([binary, "--no-config", "--format", "json", "--driver", "535"]
                             + sorted(by_repo[repo]), cwd=files_dir, capture_output=True, text=True)
        if out.returncode > 1:
            sys.exit(f"FAIL: gpulint exited {out.returncode} on {repo}: {out.stderr.strip()}")
        for f in json.loads(out.stdout)["findings"]:
            findings.append(f)
    return findings


def evaluate(labels, complete, findings):
    """Each label with its outcome; findings of complete files that no label explains."""
    by_file = collections.defaultdict(list)
    for f in findings:
        by_file[f["file"]].append(f)
    results, explained = [], set()
    for lab in labels:
        hits = [f for f in by_file.get(lab.file, [])
                if f["rule"] == lab.rule and pos_matches(lab.pos, f["line"], f["column"])]
        for f in hits:
            explained.add(id(f))
        results.append((lab, hits))
    unlabelled = [f for name in sorted(complete) for f in by_file.get(name, []) if id(f) not in explained]
    return results, unlabelled


def verdict(lab, hits):
    """ok, xfail, fail or fixed (an xfail label that now holds)."""
    holds = bool(hits) if lab.kind == "must" else not hits
    if lab.xfail:
        return "fixed" if holds else "xfail"
    return "ok" if holds else "fail"


def describe(f):
    return f'{f["rule"]} {f["file"]}:{f["line"]}:{f["column"]} ({f["severity"]}: {f["message"][:120]})'


def check(results, unlabelled, future):
    bad = 0
    for lab, hits in results:
        v = verdict(lab, hits)
        if v == "fail":
            bad += 1
            what = "missing" if lab.kind == "must" else "present: " + "; ".join(describe(f) for f in hits)
            print(f"FAIL {lab.lineno}: {lab.text}: {what}")
        elif v == "fixed":
            bad += 1
            print(f"FAIL {lab.lineno}: now passes: remove xfail {lab.xfail}: {lab.text}")
    for f in unlabelled:
        bad += 1
        print(f"FAIL unlabelled finding in a file labelled complete: {describe(f)}")
    counts = collections.Counter(verdict(lab, hits) for lab, hits in results)
    fut = collections.Counter(verdict(lab, hits) for lab, hits in future)
    print(f"realcorpus: {len(results)} labels: {counts['ok']} hold, {counts['xfail']} xfail "
          f"(known misses and false positives), {counts['fail'] + counts['fixed'] + len(unlabelled)} failed; "
          f"future (not gating): {fut['ok'] + fut['fixed']} hold, {fut['fail'] + fut['xfail']} not yet")
    return 1 if bad else 0


def stats(results, unlabelled):
    per = collections.defaultdict(collections.Counter)
    classes = collections.defaultdict(lambda: {"files": set(), "false": 0, "miss": 0, "example": None})

    def note(cls, kind, file, example):
        c = classes[cls]
        c["files"].add(file)
        c[kind] += 1
        c["example"] = c["example"] or example

    for lab, hits in results:
        if lab.kind == "must":
            per[lab.rule]["true" if hits else "miss"] += 1
            if not hits:
                note(lab.xfail or "unclassified", "miss", lab.file,
                     f"miss: {lab.rule} {lab.file} {lab.text.split()[3]} not reported")
        elif hits:
            per[lab.rule]["false"] += len(hits)
            note(lab.xfail or "unclassified", "false", lab.file, "false: " + describe(hits[0]))
    for f in unlabelled:
        per[f["rule"]]["false"] += 1
        note("unlabelled", "false", f["file"], "false: " + describe(f))
    total = collections.Counter()
    print(f"{'rule':7} {'true':>5} {'miss':>5} {'recall':>7} {'false':>6}")
    for rule in sorted(per):
        c = per[rule]
        total.update(c)
        rec = f"{c['true'] / (c['true'] + c['miss']):7.1%}" if c["true"] + c["miss"] else "      -"
        print(f"{rule:7} {c['true']:5} {c['miss']:5} {rec} {c['false']:6}")
    rec = f"{total['true'] / (total['true'] + total['miss']):7.1%}" if total["true"] + total["miss"] else "      -"
    print(f"{'all':7} {total['true']:5} {total['miss']:5} {rec} {total['false']:6}")
    print()
    print("class (false positives and misses), by the number of files it hits:")
    for cls, c in sorted(classes.items(), key=lambda kv: (-len(kv[1]["files"]), kv[0])):
        print(f"  {cls:36} files {len(c['files']):2}  false {c['false']:2}  miss {c['miss']:2}  e.g. {c['example']}")


def main():
    if len(sys.argv) not in (4, 5) or sys.argv[1] not in ("check", "stats"):
        sys.exit(__doc__)
    mode, binary, corpus = sys.argv[1], sys.argv[2], sys.argv[3]
    files_dir = sys.argv[4] if len(sys.argv) == 5 else os.path.join(corpus, "files")
    rows = [line.rstrip("\n").split("\t") for line in open(os.path.join(corpus, "SOURCES.tsv"), encoding="utf-8")]
    names = [r[0] for r in rows[1:] if r and r[0] and not r[0].startswith("#")]
    missing = [n for n in names if not os.path.isfile(os.path.join(files_dir, n))]
    if missing:
        sys.exit(f"FAIL: {len(missing)} corpus files are absent from {files_dir} (first: {missing[0]})")
    errors = []
    labels, complete = read_labels(os.path.join(corpus, "labels.txt"), set(names), errors)
    future, _ = read_labels(os.path.join(corpus, "future.txt"), set(names), errors)
    unjudged = sorted(set(names) - complete)
    if unjudged:
        errors.append(f"labels.txt: {len(unjudged)} files have no `complete` line (first: {unjudged[0]})")
    if errors:
        print("\n".join(f"FAIL {e}" for e in errors))
        return 1
    findings = run(os.path.abspath(binary), files_dir, names)
    results, unlabelled = evaluate(labels, complete, findings)
    if mode == "stats":
        stats(results, unlabelled)
        return 0
    return check(results, unlabelled, evaluate(future, set(), findings)[0])


if __name__ == "__main__":
    sys.exit(main())
