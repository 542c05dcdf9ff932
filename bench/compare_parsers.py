"""What urllib.parse, rfc3986, yarl, pydantic and urigrammar each do with a few
texts: accept, refuse, or rewrite.  Not timed: the README's side-by-side table
is this script's output, read from the installed versions.

    python bench/compare_parsers.py

Each cell is what the library gives back for the text (its string form),
or the error it raises; rfc3986 also says whether ``is_valid()`` holds.
"""

from __future__ import annotations

import importlib.metadata
import urllib.parse
from collections.abc import Callable

import urigrammar

TEXTS = (
    "http://exa mple.com/",
    "http://a/b c",
    "http://a/%zz",
    "http://127.0.0.1\\@1.1.1.1/",
    "http://ex%41mple.com/%7e",
    "HTTP://Example.COM:80/a/../b",
    "http://a/b?",
)


def readers() -> dict[str, Callable[[str], str]]:
    """name -> a function from a text to what the library makes of it."""
    import rfc3986
    import yarl
    from pydantic import AnyUrl, TypeAdapter

    any_url = TypeAdapter(AnyUrl)

    def with_rfc3986(text: str) -> str:
        ref = rfc3986.uri_reference(text)
        return f"{ref.unsplit()} (is_valid: {ref.is_valid()})"

    def with_urigrammar(text: str) -> str:
        ref = urigrammar.parse(text)
        return f"{ref} (normalize: {urigrammar.normalize(ref)})"

    return {
        "urllib.parse.urlsplit": lambda text: urllib.parse.urlsplit(text).geturl(),
        f"rfc3986 {importlib.metadata.version('rfc3986')}": with_rfc3986,
        f"yarl {importlib.metadata.version('yarl')}": lambda text: str(yarl.URL(text)),
        f"pydantic {importlib.metadata.version('pydantic')} AnyUrl": lambda text: str(
            any_url.validate_python(text)
        ),
        f"urigrammar {urigrammar.__version__}": with_urigrammar,
    }


def reading(read: Callable[[str], str], text: str) -> str:
    try:
        return read(text)
    except urigrammar.URISyntaxError as error:
        return f"refuses at offset {error.offset}"
    except Exception as error:  # each peer raises its own kind of error
        return f"refuses ({type(error).__name__})"


def main() -> None:
    found = readers()
    for text in TEXTS:
        print(repr(text))
        for name, read in found.items():
            print(f"  {name:32} {reading(read, text)}")


if __name__ == "__main__":
    main()
