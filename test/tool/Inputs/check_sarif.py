"""Checks a devplace SARIF log against what GitHub code scanning needs.

Usage: check_sarif.py LOG EXPECTED_RESULTS [--failed N]
Prints one line per fact checked; exits 1 on the first that does not hold.
"""
import json
import sys


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def main():
    log = json.load(open(sys.argv[1]))
    expected = int(sys.argv[2])
    failed = int(sys.argv[sys.argv.index("--failed") + 1]) if "--failed" in sys.argv else 0
    if log.get("version") != "2.1.0":
        fail("version is not 2.1.0")
    run = log["runs"][0]
    rules = run["tool"]["driver"]["rules"]
    ids = [r["id"] for r in rules]
    for r in rules:
        if not r["shortDescription"]["text"] or not r["fullDescription"]["text"]:
            fail("rule %s lacks a description" % r["id"])
        if r["id"].startswith("devplace-"):
            if not r.get("helpUri", "").endswith(r["id"][len("devplace-"):] + ".md"):
                fail("rule %s has no help page" % r["id"])
            if not r.get("help", {}).get("markdown", "").startswith("# " + r["id"]):
                fail("rule %s has no help text" % r["id"])
    print("rules: %s" % ", ".join(ids))
    results = run["results"]
    if len(results) != expected:
        fail("%d results, expected %d" % (len(results), expected))
    prints = set()
    flows = fixes = 0
    for res in results:
        if ids[res["ruleIndex"]] != res["ruleId"]:
            fail("ruleIndex does not point at ruleId")
        loc = res["locations"][0]["physicalLocation"]
        if loc["region"]["startLine"] < 1 or not loc["artifactLocation"]["uri"]:
            fail("result without a location")
        fp = res["partialFingerprints"]["devplace/v2"]
        if fp in prints:
            fail("fingerprint %s is not unique" % fp)
        prints.add(fp)
        if "codeFlows" in res:
            steps = res["codeFlows"][0]["threadFlows"][0]["locations"]
            if len(steps) < 2 or steps[-1]["location"]["physicalLocation"] != loc:
                fail("code flow does not end at the sink")
            flows += 1
        for fix in res.get("fixes", []):
            for change in fix["artifactChanges"]:
                for rep in change["replacements"]:
                    if "text" not in rep["insertedContent"]:
                        fail("fix without replacement text")
            fixes += 1
    print("results: %d, with code flows: %d, with fixes: %d" % (len(results), flows, fixes))
    notes = run["invocations"][0]["toolExecutionNotifications"]
    if len({n["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for n in notes}) != failed:
        fail("expected %d files in the notifications" % failed)
    print("files that failed: %d" % failed)


if __name__ == "__main__":
    main()
