#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Validate clearpagectl --json output against doc/clearpagectl.schema.json.

    validate.py SCHEMA KIND FILE...

KIND is one of the schema's documents (status, calibrate, check, list,
event). Each FILE holds one JSON document per line; an empty FILE is an
error (a command that printed nothing). Prints one line per document that
fails, with the path of the first error, and exits 1 if any did.
"""
import json
import sys

import jsonschema

KINDS = ("status", "calibrate", "check", "list", "event")


def validator_for(schema_path, kind):
    with open(schema_path) as f:
        schema = json.load(f)
    jsonschema.Draft202012Validator.check_schema(schema)
    if kind not in KINDS or kind not in schema["$defs"]:
        sys.exit(f"validate.py: unknown kind {kind!r} (one of {', '.join(KINDS)})")
    schema = dict(schema)
    del schema["oneOf"]
    schema["$ref"] = f"#/$defs/{kind}"
    return jsonschema.Draft202012Validator(schema)


def main(argv):
    if len(argv) < 4:
        sys.exit(__doc__.strip().splitlines()[2].strip())
    validator = validator_for(argv[1], argv[2])
    bad = docs = 0
    for path in argv[3:]:
        with open(path) as f:
            lines = [line for line in f.read().splitlines() if line.strip()]
        if not lines:
            print(f"FAIL: {path}: no JSON document")
            bad += 1
        for n, line in enumerate(lines, 1):
            docs += 1
            try:
                doc = json.loads(line)
            except json.JSONDecodeError as e:
                print(f"FAIL: {path}:{n}: not JSON: {e}")
                bad += 1
                continue
            e = jsonschema.exceptions.best_match(validator.iter_errors(doc))
            if e is not None:
                where = "/".join(str(p) for p in e.absolute_path) or "(top)"
                print(f"FAIL: {path}:{n}: {argv[2]}: at {where}: {e.message[:300]}")
                bad += 1
    if bad:
        return 1
    print(f"ok: {docs} {argv[2]} document(s) valid")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
