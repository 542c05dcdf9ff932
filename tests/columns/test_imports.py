"""``import urigrammar`` (and ``urigrammar.arrow``) imports neither
pyarrow nor polars: they are extras, imported when a column needs them."""

from __future__ import annotations

import subprocess
import sys


def test_importing_the_columns_imports_no_dataframe_library() -> None:
    code = (
        "import sys, urigrammar, urigrammar.arrow\n"
        "urigrammar.validate('URI', 'a:b')\n"
        "print(sorted(m for m in ('pyarrow', 'polars', 'duckdb') if m in sys.modules))\n"
    )
    found = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    assert found.strip() == "[]"
