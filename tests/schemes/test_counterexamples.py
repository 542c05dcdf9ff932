"""Every scheme's counterexamples (the ``invalid`` rows of
``tests/vectors/schemes/*.json``), on both back ends: the profile refuses
each, and ``check`` raises ``URISyntaxError`` at the row's offset, naming
the row's rule where it gives one, with a caret under the text."""

from __future__ import annotations

from typing import Any

import pytest
from _vectors import FOLDER, vectors

from urigrammar import SCHEMES, URISyntaxError
from urigrammar.engine import Backend

#: Each vector file's scheme, for the rows that do not name their profile.
SCHEME_OF = {
    "did-core.json": "did",
    "rfc2397.json": "data",
    "rfc3966.json": "tel",
    "rfc4151.json": "tag",
    "rfc5870.json": "geo",
    "rfc6068.json": "mailto",
    "rfc6455.json": "ws",
    "rfc6920.json": "ni",
    "rfc7565.json": "acct",
    "rfc8089.json": "file",
    "rfc8141.json": "urn",
    "rfc9110.json": "http",
}

ROWS = [(name, row) for name in sorted(SCHEME_OF) for row in vectors(name)["invalid"]]


def test_every_vector_file_is_read() -> None:
    assert sorted(path.name for path in FOLDER.glob("*.json")) == sorted(SCHEME_OF)
    assert len(ROWS) > 60


@pytest.mark.parametrize(("name", "row"), ROWS, ids=[f"{n}:{r['id']}" for n, r in ROWS])
def test_each_counterexample_is_refused_where_it_goes_wrong(
    name: str, row: dict[str, Any], backend: Backend
) -> None:
    profile = SCHEMES[row.get("profile", SCHEME_OF[name])]
    assert not profile.validate(row["text"], backend=backend)
    with pytest.raises(URISyntaxError) as raised:
        profile.check(row["text"], backend=backend)
    assert raised.value.offset == row["offset"]
    if "rule" in row:
        assert raised.value.rule == row["rule"]
    assert "^" in str(raised.value)
