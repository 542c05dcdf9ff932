"""The shipped grammars' programs, compiled with the wheel
(``python -m urigrammar._precompute``, run by ``hatch_build.py``): used
when they match the grammar texts found, and compiled afresh from the text
when they do not: a grammar edited after the build, or data that is
damaged, truncated or from another version.  The same for the scheme
profiles' verdict DFAs (``engine.combined``): read for their key, built
again for any other."""

from __future__ import annotations

import json
import logging
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import urigrammar
from urigrammar import load_grammar
from urigrammar.engine import Grammar, PackageStore, Part, Tables, combination
from urigrammar.engine import combined as _combined
from urigrammar.engine.backend.pure import tables_run
from urigrammar.engine.program.artifact import decode
from urigrammar.shipped import COMBINATIONS, COMPILED, FILES, RFC3986, grammar_path, grammar_text

GRAMMAR_FILES = [(grammar.name, file_name) for grammar, file_name in FILES]

PACKAGE = Path(urigrammar.__file__).resolve().parent


@pytest.mark.parametrize(("name", "file_name"), GRAMMAR_FILES)
def test_the_package_carries_each_grammar_compiled(name: str, file_name: str) -> None:
    grammar = next(g for g, f in FILES if f == file_name)
    data = (Path(COMPILED) / f"{file_name}.json").read_bytes()
    found = decode(data, grammar.lineage)
    assert not isinstance(found, str), found
    rules, _core, pieces = found
    assert {rule.name for rule in rules} <= set(grammar.rule_names)
    assert pieces, "no program was compiled ahead"


FIRST_USES = """
import sys
import urigrammar as u
assert u.validate("URI-reference", "http://a/b")
assert u.parse("http://u@a:8/b?q#f").port == 8
assert u.parse_iri("http://\\u00e4/b").host == "\\u00e4"
assert u.URITemplate("http://a{/x*}{?q}").expand(x=["y"], q="1") == "http://a/y?q=1"
assert u.percent_encode("a b", "query") == "a%20b"
try:
    u.check("URI", "http://a b/")
except u.URISyntaxError as exc:
    assert exc.offset == 8, exc.offset
for scheme in u.SCHEMES:
    u.SCHEMES[scheme].validate(scheme + ":x")
    try:
        u.parse_scheme(scheme + ":x")
    except u.URISyntaxError:
        pass
assert u.parse_scheme("urn:example:a").nid == "example"
print("abnf" in sys.modules)
"""


def _run(code: str, *, cwd: Path | None = None, path: Path | None = None) -> str:
    env = None
    if path is not None:
        import os

        env = dict(os.environ, PYTHONPATH=str(path))
    done = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=False,
        cwd=cwd,
        env=env,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def test_first_uses_read_no_grammar_with_abnf() -> None:
    assert _run(FIRST_USES) == "False"


# --- an installed copy, changed --------------------------------------------------


@pytest.fixture
def copy(tmp_path: Path) -> Path:
    """A copy of the installed package (extension and compiled programs
    included), its grammar files beside it as in a wheel: importable from
    the returned directory."""
    target = tmp_path / "urigrammar"
    shutil.copytree(PACKAGE, target, ignore=shutil.ignore_patterns("__pycache__"))
    if not (target / "grammar").is_dir():  # a source checkout: the wheel's copy is absent
        shutil.copytree(Path(grammar_path("rfc3986.abnf")).parent, target / "grammar")
    return tmp_path


CHECK_SCHEME = """
import sys
import urigrammar as u
print(u.validate("scheme", "a_b"), u.validate("URI", "a_b:c"), u.parse("a_b:c").scheme)
print("abnf" in sys.modules)
"""


def test_an_edited_shipped_grammar_is_compiled_again_and_takes_effect(copy: Path) -> None:
    grammar = copy / "urigrammar" / "grammar" / "rfc3986.abnf"
    text = grammar.read_text(encoding="utf-8")
    edited = text.replace('"+" / "-" / "." )', '"+" / "-" / "." / "_" )', 1)
    assert edited != text
    grammar.write_text(edited, encoding="utf-8")
    first, abnf = _run(CHECK_SCHEME, cwd=copy, path=copy).splitlines()
    assert first == "True True a_b"
    assert abnf == "True"  # compiled from the edited text


def test_the_unedited_copy_loads_its_programs(copy: Path) -> None:
    first, abnf = _run(CHECK_SCHEME.replace("a_b", "ab"), cwd=copy, path=copy).splitlines()
    assert first == "True True ab"
    assert abnf == "False"


def _truncate(data: bytes) -> bytes:
    return data[: len(data) // 2]


def _garbage(data: bytes) -> bytes:
    return bytes(b ^ 0x5A for b in data)


def _flip_in_body(data: bytes) -> bytes:
    head, _, body = data.partition(b"\n")
    middle = len(body) // 2
    flipped = body[:middle] + bytes([body[middle] ^ 1]) + body[middle + 1 :]
    return head + b"\n" + flipped


def _other_version(data: bytes) -> bytes:
    head, _, body = data.partition(b"\n")
    header = json.loads(head)
    header["urigrammar"] = "0.0.1"
    return json.dumps(header).encode() + b"\n" + body


def _empty(data: bytes) -> bytes:
    return b""


@pytest.mark.parametrize(
    "damage", [_truncate, _garbage, _flip_in_body, _other_version, _empty], ids=lambda f: f.__name__
)
def test_damaged_programs_are_compiled_again(copy: Path, damage: object) -> None:
    assert callable(damage)
    for _, file_name in GRAMMAR_FILES:
        path = copy / "urigrammar" / "compiled" / f"{file_name}.json"
        path.write_bytes(damage(path.read_bytes()))
    code = (
        "import urigrammar as u\n"
        "assert u.validate('URI', 'http://a/b') and not u.validate('URI', 'http://a b/')\n"
        "assert u.parse('http://u@a:8/b?q#f').port == 8\n"
        "print(u.RFC3986.viable_prefix('URI', 'http://a b/'))\n"
    )
    assert _run(code, cwd=copy, path=copy) == "8"


# --- the same, in process ----------------------------------------------------------


def test_a_stale_store_is_logged_and_compiled_from_the_text(
    caplog: pytest.LogCaptureFixture,
) -> None:
    edited = grammar_text("rfc3986.abnf").replace('"+" / "-" / "." )', '"+" / "-" / "." / "_" )')
    grammar = Grammar(
        lambda: edited,
        name=RFC3986.name,
        lazy=True,
        vetted=True,
        store=PackageStore(Path(COMPILED) / "rfc3986.abnf.json"),
    )
    with caplog.at_level(logging.INFO, logger="urigrammar.cache"):
        assert grammar.validate("scheme", "a_b")
    assert not RFC3986.validate("scheme", "a_b")
    assert any("grammars" in record.getMessage() for record in caplog.records)


def test_a_missing_store_compiles_from_the_text(tmp_path: Path) -> None:
    grammar = Grammar(
        lambda: grammar_text("rfc3986.abnf"),
        name=RFC3986.name,
        lazy=True,
        vetted=True,
        store=PackageStore(tmp_path / "absent.json"),
    )
    assert grammar.validate("URI", "http://a/b")
    assert not grammar.validate("URI", "http://a b/")


def test_the_abnf_engine_reads_each_grammar_text_once(monkeypatch: pytest.MonkeyPatch) -> None:
    # A grammar loaded from its compiled file has no abnf nodes: the abnf
    # engine's first use reads each grammar text again, once, not once a rule.
    from urigrammar.engine import grammar as _grammar
    from urigrammar.shipped import URI_FILES

    read: list[int] = []
    real = _grammar.read_rules
    monkeypatch.setattr(_grammar, "read_rules", lambda text: read.append(1) or real(text))
    copies = {}
    for grammar, file_name in URI_FILES:
        imports = tuple(copies[g.name] for g in grammar.imports)
        copies[grammar.name] = Grammar(
            lambda f=file_name: grammar_text(f),
            name=grammar.name,
            imports=imports,
            lazy=True,
            store=PackageStore(Path(COMPILED) / f"{file_name}.json"),
        )
    top = copies[URI_FILES[-1][0].name]
    assert top.validate(
        "literals",
        "a",
    )
    assert not read  # the compiled file answered
    assert top.abnf_parse("URI-Template", "a{b}") is not None
    assert len(read) <= len(URI_FILES)


# --- the scheme profiles' verdict DFAs -------------------------------------------------


def test_the_package_carries_each_shipped_profiles_verdict() -> None:
    data = Path(COMBINATIONS.path).read_bytes()
    pieces = _combined._pieces(data)
    assert not isinstance(pieces, str), pieces
    profiles = [urigrammar.SCHEMES[name] for name in urigrammar.SCHEMES]
    verdicts = {p.schemes[0]: p.verdict_parts() for p in profiles}
    sure = {p.schemes[0]: p.sure_parts() for p in profiles}
    assert verdicts["ni"] is not None
    assert verdicts["http"] is not None
    assert sure["tel"] is not None
    for kind in (verdicts, sure):
        for name, found in kind.items():
            if found is not None:
                assert _combined.key(found) in pieces, name


PRECOMPUTE_ON_PURE = """
import sys
from pathlib import Path
import urigrammar as u
from urigrammar._precompute import precompute
from urigrammar.engine import combined as _combined
from urigrammar.engine import default_backend
assert not default_backend().native
precompute(Path(sys.argv[1]))
pieces = _combined._pieces((Path(sys.argv[1]) / "combinations.json").read_bytes())
for name in u.SCHEMES:
    for parts in (u.SCHEMES[name].verdict_parts(), u.SCHEMES[name].sure_parts()):
        if parts is not None:
            assert _combined.key(parts) in pieces, name
"""


@pytest.mark.slow
def test_the_build_combines_every_verdict_on_the_pure_back_end(tmp_path: Path) -> None:
    # The wheel's build hook compiles on the pure back end, which makes no
    # verdict DFA for its own use: the build must make each one anyway.
    done = subprocess.run(
        [sys.executable, "-c", PRECOMPUTE_ON_PURE, str(tmp_path)],
        capture_output=True,
        text=True,
        check=False,
        env=dict(os.environ, URIGRAMMAR_PURE="1"),
        timeout=300,
    )
    assert done.returncode == 0, done.stderr


def _fresh(text: str) -> Grammar:
    """A grammar of ``text`` no other test combines: its lineage, and so
    its combinations' keys, are its own."""
    return load_grammar(text)


def _store_of(path: Path, tables: dict[str, Tables]) -> PackageStore:
    """A file of ``tables`` by key, as ``combined.encode_combinations`` writes one."""
    path.write_bytes(_combined.encode_combinations(tables))
    return PackageStore(path)


def test_stored_tables_are_read_for_their_key(tmp_path: Path) -> None:
    grammar = _fresh("stored-digits = 1*DIGIT\nstored-letters = 1*ALPHA\n")
    parts: list[Part] = [(grammar, "stored-digits", False)]
    # Under the key of the digits: the letters' tables.  Read, not built.
    letters = grammar.program("stored-letters").dfa
    assert letters is not None
    store = _store_of(tmp_path / "combinations.json", {_combined.key(parts): letters})
    found = combination(parts, store)
    assert found is not None
    assert tables_run(found, "abc")[1]
    assert not tables_run(found, "123")[1]


def test_a_stale_key_is_rebuilt_not_used(tmp_path: Path) -> None:
    text = "stale-rule = 1*DIGIT\nstale-other = 1*ALPHA\n"
    old = _fresh(text)
    parts: list[Part] = [(old, "stale-rule", False), (old, "stale-other", True)]
    wrong = old.program("stale-other").dfa
    assert wrong is not None
    store = _store_of(tmp_path / "combinations.json", {_combined.key(parts): wrong})
    # The grammar text changed: the stored key is the old text's, so the
    # tables under it are never read for the new one.
    new = _fresh(text.replace("1*DIGIT", "1*HEXDIG"))
    renewed: list[Part] = [(new, "stale-rule", False), (new, "stale-other", True)]
    assert _combined.key(renewed) != _combined.key(parts)
    found = combination(renewed, store)
    assert found is not None
    assert tables_run(found, "12af")[1]  # HEXDIG but not ALPHA alone
    assert not tables_run(found, "abc")[1]  # 1*ALPHA, taken out
    assert not tables_run(found, "xyz")[1]


@pytest.mark.parametrize(
    "damage", [_truncate, _garbage, _flip_in_body, _other_version, _empty], ids=lambda f: f.__name__
)
def test_a_damaged_file_of_combinations_is_built_again(tmp_path: Path, damage: object) -> None:
    assert callable(damage)
    name = "damaged-" + damage.__name__.strip("_").replace("_", "-")
    grammar = _fresh(f"{name} = 1*DIGIT\nother = 1*ALPHA\n")
    parts: list[Part] = [(grammar, name, False)]
    wrong = grammar.program("other").dfa
    assert wrong is not None
    store = _store_of(tmp_path / "combinations.json", {_combined.key(parts): wrong})
    store.path.write_bytes(damage(store.path.read_bytes()))
    found = combination(parts, store)
    assert found is not None
    assert tables_run(found, "123")[1]
    assert not tables_run(found, "abc")[1]


FIRST_SCHEME_USES = """
import sys
import urigrammar as u
from urigrammar.engine import NATIVE
if NATIVE is not None:
    for scheme in ("http", "ni", "geo"):
        u.SCHEMES[scheme].validate(scheme + ":x", backend=NATIVE)
print("urigrammar.engine.automata.product" in sys.modules)
"""


def test_a_first_validate_of_a_shipped_profile_builds_no_product() -> None:
    assert _run(FIRST_SCHEME_USES) == "False"


def test_the_names_shipped_defines_on_first_use_are_its_modules_own() -> None:
    # shipped/__init__ lists them so that naming one imports its module
    # only then; the lists must stay the modules' own.
    from urigrammar import shipped
    from urigrammar.shipped import _percent, _schemes

    assert set(_schemes.__all__) == shipped._SCHEMES
    assert set(_percent.__all__) == shipped._PERCENT
    assert set(shipped.__all__) >= shipped._SCHEMES | shipped._PERCENT
