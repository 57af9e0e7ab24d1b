#!/usr/bin/env python3
"""The runner's JUnit XML (--junit), checked against its JSON results of the
same run: the harness demo's tests pass, fail, crash, time out and skip,
and print non-ASCII text, '<', a NUL byte and lines of 3000 bytes.

The XML is read by an XML parser (ElementTree), the way CI servers read it,
and also by junitparser, a JUnit reader, where it is installed. Every test
must be one testcase with the right verdict element, its message and
output must read back exactly as the JSON has them, and the counts, points
and properties must agree.

  check_junit.py DEMO WORK"""
import json
import os
import subprocess
import sys
import xml.etree.ElementTree as ET

VERDICT = {"pass": None, "fail": "failure", "crash": "error", "timeout": "error",
           "skip": "skipped"}


def xml_text(text):
    """What XML can hold of `text`: the control characters it cannot hold
    (all below 0x20 but tab, line feed and carriage return) are U+FFFD."""
    return "".join(c if c >= " " or c in "\t\n\r" else "\ufffd" for c in text)


def check(cond, what):
    if not cond:
        sys.exit("check_junit: " + what)


def main(demo, work):
    os.makedirs(work, exist_ok=True)
    results, junit = os.path.join(work, "junit_results.json"), os.path.join(work, "junit.xml")
    for path in (results, junit):
        if os.path.exists(path):
            os.remove(path)
    run = subprocess.run([demo, "--results", results, "--junit", junit],
                         stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    check(run.returncode in (0, 1), "the demo exited with %d" % run.returncode)
    with open(results, encoding="utf-8") as f:
        tests = json.load(f)["tests"]
    root = ET.parse(junit).getroot()
    check(root.tag == "testsuites", "the root is <%s>, not <testsuites>" % root.tag)
    suites = root.findall("testsuite")
    check(len(suites) == 1, "%d testsuites, expected 1" % len(suites))
    suite = suites[0]
    cases = suite.findall("testcase")
    check(len(cases) == len(tests) == int(suite.get("tests")),
          "%d testcases, %d tests in the JSON, tests=%s" % (len(cases), len(tests),
                                                           suite.get("tests")))
    counts = {"failure": 0, "error": 0, "skipped": 0}
    for case, test in zip(cases, tests):
        name = test["name"]
        check(case.get("name") == name and case.get("classname").endswith("." + test["group"]),
              "testcase %s/%s for test %s" % (case.get("classname"), case.get("name"), name))
        props = {p.get("name"): p.get("value") for p in case.find("properties")}
        check(props["points"] == str(test["points"]) and
              props["max_points"] == str(test["max_points"]),
              "%s: points %s/%s in the XML, %s/%s in the JSON" % (
                  name, props["points"], props["max_points"], test["points"],
                  test["max_points"]))
        want = VERDICT[test["status"]]
        found = [e for e in case if e.tag in counts]
        check([e.tag for e in found] == ([want] if want else []),
              "%s (%s): verdict elements %s" % (name, test["status"], [e.tag for e in found]))
        if want:
            counts[want] += 1
            element = found[0]
            check(element.get("message") == xml_text(test["message"]),
                  "%s: the message reads back as %r, not %r" % (
                      name, element.get("message"), test["message"]))
            check((element.text or "") == xml_text(test["message"]),
                  "%s: the element's text differs from the message" % name)
        out = case.find("system-out")
        check((out.text if out is not None else "") == xml_text(test["output"]),
              "%s: the output reads back differently (%d characters, the JSON has %d)" % (
                  name, len(out.text or "") if out is not None else 0, len(test["output"])))
    for tag, attribute in (("failure", "failures"), ("error", "errors"),
                           ("skipped", "skipped")):
        check(int(suite.get(attribute)) == counts[tag] == int(root.get(attribute)),
              "%s=%s, but %d <%s> elements" % (attribute, suite.get(attribute), counts[tag],
                                                tag))
    check(counts["failure"] and counts["error"] and counts["skipped"],
          "the demo no longer fails, errs and skips: nothing here is checked")
    check(any("<" in t["output"] for t in tests) and
          any(any(ord(c) > 127 for c in t["output"]) for t in tests),
          "no output with '<' and non-ASCII text: nothing here checks the escaping")
    try:
        import junitparser  # noqa: F401 - optional
    except ImportError:
        print("check_junit: junitparser not installed; read with ElementTree only")
    else:
        xml = junitparser.JUnitXml.fromfile(junit)
        read = [case for s in xml for case in s]
        check(len(read) == len(tests), "junitparser read %d testcases" % len(read))
    print("check_junit: %d testcases agree with the JSON results" % len(tests))


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__.split("\n\n")[-1])
    main(sys.argv[1], sys.argv[2])
