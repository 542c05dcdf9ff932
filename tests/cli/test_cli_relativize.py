"""``urigrammar relativize``: each target as a reference relative to the
base, checked against the library's ``relativize`` and against
``resolve``, which must give the target back."""

from __future__ import annotations

import io

from hypothesis import given
from hypothesis import strategies as st

import urigrammar as u
from urigrammar.cli._cli import main
from urigrammar.strategies import from_rule


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    status = main(list(argv), out, err)
    return status, out.getvalue(), err.getvalue()


_BASE = "http://a/b/c/d;p?q"
_SEGMENTS = st.lists(st.sampled_from(["a", "b", "", "g;x", ".", ".."]), max_size=4)
_TAILS = st.sampled_from(["", "?q", "?y", "#f", "?q#s"])


@given(
    st.one_of(st.just(_BASE), from_rule("URI")),
    st.one_of(
        st.builds(
            lambda root, segments, tail: root + "/".join(segments) + tail,
            st.sampled_from(["http://a/", "http://a/b/c/", "http://o/", "foo:"]),
            _SEGMENTS,
            _TAILS,
        ),
        from_rule("URI"),
    ),
)
def test_relativize_is_undone_by_resolve(base: str, target: str) -> None:
    status, out, err = run("relativize", "--", base, target)
    try:
        expected = str(u.relativize(base, target))
    except u.URIError:
        assert (status, out) == (1, "\n")  # an empty line: lines stay matched
        assert err
        return
    assert (status, out) == (0, expected + "\n")
    assert str(u.resolve(base, expected)) == target


def test_relativize_several_and_a_bad_one() -> None:
    status, out, err = run("relativize", "http://a/b/c", "http://a/b/d", "x y", "http://a/x")
    assert status == 1
    assert out.splitlines() == ["d", "", "/x"]  # the failed text's line is empty
    assert "^" in err


def test_relativize_bad_base() -> None:
    status, out, err = run("relativize", "b/c", "http://a/b")
    assert (status, out) == (1, "")
    assert "base must be a URI" in err
