"""Runs dppvalidator's ValidationEngine on one file, once per layer, and prints one JSON object.

The `dppvalidator validate` CLI (0.5.1) builds its engine with the default layers only (schema, model,
semantic, plugins): JSON-LD, vocabulary and signature are switched on through the engine's own constructor
arguments, as here. Each layer runs in an engine of its own so its verdict is reported on its own:
  {"layers": {"schema": {"valid": true, "errors": [...], "warnings": [...]}, ...}, "version": "0.5.1"}
Usage: python3 dppvalidator_layers.py FILE [--context URL=CONTEXT_FILE]...   (PYTHONPATH: the install)

--context: a JSON-LD context document the JSON-LD layer is to know without fetching it, put where the tool keeps
its own bundled contexts (dppvalidator.validators.jsonld_semantic.BUNDLED_CONTEXT_URLS, which its loader starts
from). dppvalidator 0.5.1 names the UNTP 0.7.0 context in its MANIFEST.json but its wheel lacks the file.
"""

import json
import sys
from importlib.metadata import version

from dppvalidator.validators import ValidationEngine
from dppvalidator.validators.jsonld_semantic import BUNDLED_CONTEXT_URLS

LAYERS = {
    "schema": dict(layers=["schema"]),
    "model": dict(layers=["model"]),
    "semantic": dict(layers=["model", "semantic"]),
    "jsonld": dict(layers=["jsonld"], validate_jsonld=True),
    "vocabulary": dict(layers=["model"], validate_vocabularies=True),
    "signature": dict(layers=["model"], verify_signatures=True),
}


def main(path):
    report = {"version": version("dppvalidator"), "layers": {}}
    for name, options in LAYERS.items():
        engine = ValidationEngine(schema_version="0.7.0", load_plugins=False, **options)
        try:
            result = engine.validate_file(path)
        except Exception as error:  # a layer of the tool that raises instead of reporting
            report["layers"][name] = {"valid": False, "crashed": f"{type(error).__name__}: {error}"}
            continue
        entry = {
            "valid": result.valid,
            "errors": [e.to_dict() for e in result.errors],
            "warnings": [w.to_dict() for w in result.warnings],
        }
        if name == "signature":
            entry["signatureValid"] = result.signature_valid
            entry["issuerDid"] = result.issuer_did
        report["layers"][name] = entry
    print(json.dumps(report))


if __name__ == "__main__":
    args = sys.argv[1:]
    while "--context" in args:
        at = args.index("--context")
        url, _, file = args[at + 1].partition("=")
        with open(file, encoding="utf-8") as handle:
            BUNDLED_CONTEXT_URLS[url] = json.load(handle)
        del args[at : at + 2]
    main(args[0])
