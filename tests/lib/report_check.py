# SPDX-License-Identifier: Apache-2.0
"""Check a gpulint report in another format against the JSON report of the same run.

usage: report_check.py FORMAT REPORT JSON_REPORT

FORMAT is sarif, checkstyle or gitlab. Every finding of the JSON report must appear in
REPORT, in the same order, with the same rule, file, line, column and the format's
mapping of its severity; each format's required structure is checked as well.
Prints what is wrong and exits 1, or exits 0.
"""
import json
import sys
import urllib.parse
import xml.etree.ElementTree as ET

SARIF_LEVEL = {"error": "error", "warning": "warning", "info": "note", "style": "note"}
CHECKSTYLE_SEVERITY = {"error": "error", "warning": "warning", "info": "info", "style": "info"}
GITLAB_SEVERITY = {"error": "critical", "warning": "major", "info": "minor", "style": "info"}

problems = []


def expect(cond, what):
    if not cond:
        problems.append(what)


def clean(text, xml=False):
    """The text as a report must carry it (linter/core/escape.h): invalid UTF-8 (read as
    surrogate escapes) as U+FFFD, and in XML the characters XML 1.0 cannot hold as the
    visible text escape (\\x01, \\ufffe)."""
    out = []
    for ch in text:
        if 0xDC80 <= ord(ch) <= 0xDCFF:
            ch = "\ufffd"
        elif xml and ord(ch) < 0x20 and ch not in "\t\n\r":
            ch = "\\x%02x" % ord(ch)
        elif xml and ord(ch) in (0xFFFE, 0xFFFF):
            ch = "\\u%04x" % ord(ch)
        out.append(ch)
    return "".join(out)


def report_path(file):
    while file.startswith("./"):
        file = file[2:].lstrip("/")
    return file


def check_sarif(doc, findings):
    expect(doc.get("version") == "2.1.0", "version is not 2.1.0")
    runs = doc.get("runs", [])
    expect(len(runs) == 1, "not exactly one run")
    run = runs[0]
    driver = run["tool"]["driver"]
    for key in ("name", "version", "informationUri", "rules"):
        expect(key in driver, f"tool.driver has no {key}")
    rules = driver["rules"]
    for r in rules:
        for key in ("id", "name", "shortDescription", "fullDescription", "help",
                    "defaultConfiguration"):
            expect(key in r, f"rule {r.get('id')} has no {key}")
        expect("text" in r["help"] and "markdown" in r["help"], f"rule {r['id']}: help text/markdown")
        expect(r["defaultConfiguration"].get("level") in ("error", "warning", "note"),
               f"rule {r['id']}: defaultConfiguration.level")
    results = run.get("results", [])
    expect(len(results) == len(findings), f"{len(results)} results for {len(findings)} findings")
    seen = set()
    for res, f in zip(results, findings):
        where = f"{f['file']}:{f['line']} {f['rule']}"
        expect(res["ruleId"] == f["rule"], f"{where}: ruleId {res['ruleId']}")
        expect(rules[res["ruleIndex"]]["id"] == f["rule"], f"{where}: ruleIndex points elsewhere")
        expect(res["level"] == SARIF_LEVEL[f["severity"]], f"{where}: level {res['level']}")
        expect(res["message"]["text"].startswith(clean(f["message"])[:40]), f"{where}: message")
        phys = res["locations"][0]["physicalLocation"]
        uri = phys["artifactLocation"]["uri"]
        path = report_path(f["file"]).encode("utf-8", "surrogateescape")
        expected_uri = ("file://" if path.startswith(b"/") else "") + urllib.parse.quote(path, safe="/~")
        expect(uri == expected_uri, f"{where}: uri {uri}, expected {expected_uri}")
        region = phys["region"]
        if f["line"] > 0:
            expect(region.get("startLine") == f["line"], f"{where}: startLine {region.get('startLine')}")
            expect(region.get("startColumn") == f["column"], f"{where}: startColumn")
        fp = res.get("partialFingerprints", {}).get("gpulint/v1", "")
        expect(len(fp) == 32, f"{where}: partialFingerprints")
        expect(fp not in seen, f"{where}: fingerprint {fp} not unique")
        seen.add(fp)


def check_checkstyle(root, findings):
    expect(root.tag == "checkstyle", "root element is not <checkstyle>")
    errors = []
    for file_el in root:
        expect(file_el.tag == "file" and "name" in file_el.attrib, "a child of <checkstyle> is not <file name=...>")
        for e in file_el:
            expect(e.tag == "error", f"<{e.tag}> inside <file>")
            for key in ("severity", "message", "source"):
                expect(key in e.attrib, f"<error> without {key}")
            errors.append((file_el.attrib["name"], e.attrib))
    expect(len(errors) == len(findings), f"{len(errors)} <error>s for {len(findings)} findings")
    for (name, a), f in zip(errors, findings):
        where = f"{f['file']}:{f['line']} {f['rule']}"
        expect(name == clean(report_path(f["file"]), xml=True), f"{where}: file name {name}")
        expect(a.get("source") == "gpulint." + f["rule"], f"{where}: source {a.get('source')}")
        expect(a.get("severity") == CHECKSTYLE_SEVERITY[f["severity"]], f"{where}: severity")
        if f["line"] > 0:
            expect(a.get("line") == str(f["line"]) and a.get("column") == str(f["column"]),
                   f"{where}: line/column {a.get('line')}:{a.get('column')}")
        expect(a.get("message", "").startswith(clean(f["message"], xml=True)[:40]), f"{where}: message")


def check_gitlab(issues, findings):
    expect(isinstance(issues, list), "not a JSON array")
    expect(len(issues) == len(findings), f"{len(issues)} issues for {len(findings)} findings")
    seen = set()
    for i, f in zip(issues, findings):
        where = f"{f['file']}:{f['line']} {f['rule']}"
        for key in ("description", "check_name", "fingerprint", "severity", "location"):
            expect(key in i, f"{where}: no {key}")
        expect(i["check_name"] == f["rule"], f"{where}: check_name")
        expect(i["severity"] == GITLAB_SEVERITY[f["severity"]], f"{where}: severity {i['severity']}")
        expect(i["location"]["path"] == clean(report_path(f["file"])), f"{where}: path")
        expect(i["location"]["lines"]["begin"] == max(f["line"], 1), f"{where}: lines.begin")
        expect(clean(f["message"])[:40] in i["description"], f"{where}: description")
        expect(i["fingerprint"] not in seen, f"{where}: fingerprint not unique")
        seen.add(i["fingerprint"])


def main():
    fmt, report, json_report = sys.argv[1:4]
    # the JSON report passes a finding's bytes through: read invalid UTF-8 as escapes
    findings = json.load(open(json_report, encoding="utf-8", errors="surrogateescape"))["findings"]
    if fmt == "sarif":
        check_sarif(json.load(open(report, encoding="utf-8")), findings)
    elif fmt == "checkstyle":
        check_checkstyle(ET.parse(report).getroot(), findings)
    elif fmt == "gitlab":
        check_gitlab(json.load(open(report, encoding="utf-8")), findings)
    else:
        sys.exit(f"unknown format {fmt}")
    for p in problems:
        print(f"{report}: {p}")
    sys.exit(1 if problems else 0)


main()
