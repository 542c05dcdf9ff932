"""``import urigrammar`` never imports pydantic, jsonschema, attrs or cattrs:
the integrations are extras, imported only by their own modules.  Runs in
a fresh interpreter, in every env (with or without those packages), since
this process may have imported them already."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

INTEGRATIONS = ("pydantic", "pydantic_core", "jsonschema", "attrs", "attr", "cattrs")

# Import urigrammar and use what touches the class hooks' module (parse
# builds URIReference, whose class names uri._pydantic_schema), then list
# which integration packages got imported.
_PROBE = f"""
import json, sys
import urigrammar as u
u.parse("http://a/b").normalize()
u.validate("IRI", "http://\\u00e4/")
u.parse_iri("http://\\u00e4/").to_uri()
u.URITemplate("{{x}}").expand(x="1")
print(json.dumps(sorted(m for m in sys.modules if m.split(".")[0] in {INTEGRATIONS!r})))
"""


def _imported(probe: str) -> list[str]:
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True, timeout=60
    )
    found: list[str] = json.loads(done.stdout)
    return found


def test_import_urigrammar_imports_no_integration() -> None:
    assert _imported(_PROBE) == []


@pytest.mark.parametrize(
    ("module", "package"),
    [
        ("urigrammar.pydantic", "pydantic"),
        ("urigrammar.jsonschema", "jsonschema"),
        ("urigrammar.attrs", "cattrs"),
    ],
)
def test_each_module_imports_only_its_own(module: str, package: str) -> None:
    pytest.importorskip(package)
    probe = _PROBE.replace("import urigrammar as u", f"import urigrammar as u, {module}")
    found = {name.split(".")[0] for name in _imported(probe)}
    own = {
        "pydantic": {"pydantic", "pydantic_core"},
        "jsonschema": {"jsonschema", "attrs", "attr"},  # jsonschema uses attrs itself
        "cattrs": {"cattrs", "attrs", "attr"},
    }[package]
    assert package in found
    assert found <= own
