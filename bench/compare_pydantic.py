"""What pydantic's ``AnyUrl`` and ``HttpUrl`` do to some URIs, beside
urigrammar's answer: prints a Markdown table (the table of
docs/guide/integrations.md comes from this script).

    python bench/compare_pydantic.py

Not a timing benchmark: each row is one text given to
``TypeAdapter(AnyUrl)``, ``TypeAdapter(HttpUrl)`` and a ``URIReference``
field (and an ``IRIReference`` field where that one refuses it), and what
each returned (the text it serializes to, or the error).
Needs ``pydantic`` (``pip install -r bench/requirements.txt``).
"""

from __future__ import annotations

import importlib.metadata

import pydantic
from pydantic import AnyUrl, HttpUrl, TypeAdapter

import urigrammar

#: Each text and why it is here (RFC 3986 section).
TEXTS = [
    ("https://google.com", "no path: section 3.3 allows an empty one"),
    ("http:www.google.com", "a path, no authority (section 3)"),
    ("HTTP://Example.COM/a", "case: equivalent, not equal (section 6.2.2.1)"),
    ("http://example.com:80/", "default port (section 6.2.3)"),
    ("http://a:0080/", "port as written (section 3.2.3)"),
    ("http://example.com/a/../b", "dot-segments (section 5.2.4, 6.2.2.3)"),
    ("http://example.com/%7efoo", "encoded unreserved (section 6.2.2.2)"),
    ("http://0x7f.1/", "a reg-name (section 3.2.2)"),
    ("http://1.2.3.4.5/", "a reg-name (section 3.2.2)"),
    ("http://[V1.fe]/", "IPvFuture (section 3.2.2)"),
    ("http://[::ffff:192.168.0.01]/", "dec-octet has no leading zero (section 3.2.2)"),
    ("http://example.com/a b", "space: not in any rule (section 2)"),
    ("http://ex\tample.com/", "tab: not in any rule (section 2)"),
    ("http:\\\\example.com\\a", "backslash: not in any rule (section 2)"),
    ("http://a/%zz", "% must start pct-encoded (section 2.1)"),
    ("http://example.com/\u00e4", "non-ASCII: an IRI, not a URI (section 2)"),
    ("http://b\u00fccher.example/", "non-ASCII host: an IRI, not a URI"),
    ("/relative/ref", "relative reference (section 4.2)"),
    ("//example.com/a", "network-path reference (section 4.2)"),
    ("mailto:John.Doe@example.com", "section 1.1.2 example"),
    ("urn:oasis:names:specification:docbook:dtd:xml:4.1.2", "section 1.1.2 example"),
]


def _pydantic_answer(adapter: TypeAdapter[object], text: str) -> str:
    try:
        value = adapter.validate_python(text)
    except pydantic.ValidationError as error:
        return f"rejected ({error.errors()[0]['type']})"
    out = str(value)
    return "kept" if out == text else f"changed to `{out}`"


def _urigrammar_answer(text: str) -> str:
    try:
        ref = urigrammar.parse(text)
    except urigrammar.URISyntaxError as error:
        answer = f"rejected (`{error.rule}`, offset {error.offset})"
        try:
            iri = urigrammar.parse_iri(text)
        except urigrammar.URISyntaxError:
            return answer
        assert str(iri) == text
        return answer + "; an `IRIReference` field keeps it"
    assert str(ref) == text
    return "kept" if ref.scheme is not None else "kept (a relative reference, not a `URI`)"


def _cell(text: str) -> str:
    # Control characters made visible (a tab as \t), "|" escaped, for a
    # Markdown cell.
    shown = "".join(c if c.isprintable() else ascii(c)[1:-1] for c in text)
    return "`" + shown.replace("|", "\\|") + "`"


def main() -> None:
    versions = ", ".join(
        f"{name} {importlib.metadata.version(name)}"
        for name in ("pydantic", "pydantic-core", "urigrammar")
    )
    print(f"Measured with {versions}.\n")
    print("| text | `AnyUrl` | `HttpUrl` | `URIReference` field (urigrammar) | why |")
    print("| --- | --- | --- | --- | --- |")
    any_url: TypeAdapter[object] = TypeAdapter(AnyUrl)
    http_url: TypeAdapter[object] = TypeAdapter(HttpUrl)
    for text, why in TEXTS:
        cells = [
            _cell(text),
            _pydantic_answer(any_url, text),
            _pydantic_answer(http_url, text),
            _urigrammar_answer(text),
            why,
        ]
        print("| " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
