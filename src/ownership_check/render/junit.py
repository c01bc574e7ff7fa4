"""JUnit XML, for CI systems that show test reports but not code-quality formats (Jenkins, Azure, GitLab tests).

One `<testsuite>` per file with findings, one failed `<testcase>` per finding (named `CODE at line:col`); a clean
run is one passing test case, so the report is never empty and a dashboard shows the check ran.  Text is
escaped by the standard library's XML writer; characters XML 1.0 cannot hold (control characters, lone
surrogates from undecodable file names) become `\\x..` / `\\udc..` escapes instead of an unparsable report.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Sequence
from itertools import groupby

from ownership_check.diagnostics import Diagnostic

_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def _xml_text(text: str) -> str:
    return _NOT_XML.sub(lambda m: m.group().encode("unicode_escape").decode("ascii"), text)


def _failure_text(diag: Diagnostic) -> str:
    lines = [f"{diag.path}:{diag.span.line}:{diag.span.column}: {diag.code} {diag.message}"]
    for label in diag.related_labels():
        if label.message:
            lines.append(f"  {label.span.line}:{label.span.column}: {label.message}")
    lines.extend(f"  note: {note}" for note in diag.notes)
    if diag.help:
        lines.append(f"  help: {diag.help}")
    return _xml_text("\n".join(lines))


def render_junit(diagnostics: Sequence[Diagnostic], *, files_checked: int) -> str:
    root = ET.Element("testsuites", name="ownership-check", tests=str(max(len(diagnostics), 1)))
    root.set("failures", str(len(diagnostics)))
    if not diagnostics:
        suite = ET.SubElement(root, "testsuite", name="ownership-check", tests="1", failures="0")
        ET.SubElement(suite, "testcase", name=f"{files_checked} file(s) checked, no problems found",
                      classname="ownership-check")
    for path, group in groupby(diagnostics, key=lambda d: d.path):
        found = list(group)
        name = _xml_text(path)
        suite = ET.SubElement(root, "testsuite", name=name, tests=str(len(found)), failures=str(len(found)))
        for diag in found:
            case = ET.SubElement(
                suite, "testcase", name=f"{diag.code} at {diag.span.line}:{diag.span.column}", classname=name
            )
            failure = ET.SubElement(case, "failure", message=_xml_text(diag.message), type=diag.code)
            failure.text = _failure_text(diag)
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"
