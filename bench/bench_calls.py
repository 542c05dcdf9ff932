"""Python calls made by a first call, in a fresh process.

    python bench/bench_calls.py

Each probe runs in a new interpreter: ``import urigrammar``, then
``sys.setprofile`` counts every Python function call (``"call"`` events:
C functions are not counted) made by one first call, the imports it
triggers included.  Two counts a probe: every call, and the calls into
urigrammar's own modules.

* ``urigrammar.parse(t)``: the first parse of a URI (a shipped program,
  read from the wheel's compiled file);
* ``urigrammar.validate(rule, t)``: the same, for a verdict;
* ``load_grammar(text).parse(rule, t)``: a user's small grammar, read by
  ``abnf`` and compiled (most of its calls are in ``abnf``'s parser; the
  own count is urigrammar's share).

The native and the pure back end each get their column.
"""

from __future__ import annotations

import os
import subprocess
import sys

PROBE = """
import sys
import urigrammar
calls = {{"all": 0, "own": 0}}
def count(frame, event, arg):
    if event == "call":
        calls["all"] += 1
        if "urigrammar" in frame.f_code.co_filename:
            calls["own"] += 1
sys.setprofile(count)
{call}
sys.setprofile(None)
print(calls["all"], calls["own"])
"""

GRAMMAR = 'greeting = "hi" SP name\\r\\nname = 1*ALPHA\\r\\n'

FIRST = {
    "parse(t)": "urigrammar.parse('http://a/b')",
    "validate(rule, t)": "urigrammar.validate('URI-reference', 'http://a/b')",
    "load_grammar(text).parse(rule, t)": (
        f"urigrammar.load_grammar('{GRAMMAR}').parse('greeting', 'hi bob')"
    ),
}


def _counts(call: str, *, pure: bool) -> tuple[int, int]:
    env = {key: value for key, value in os.environ.items() if key != "URIGRAMMAR_PURE"}
    if pure:
        env["URIGRAMMAR_PURE"] = "1"
    done = subprocess.run(
        [sys.executable, "-c", PROBE.format(call=call)],
        env=env,
        check=True,
        capture_output=True,
        text=True,
    )
    every, own = done.stdout.split()
    return int(every), int(own)


def main() -> None:
    from urigrammar.engine import BACKENDS

    names = [backend.name for backend in BACKENDS]
    print("Python calls made by a first call in a fresh process (all / urigrammar's own)")
    print(f"  {'':36}" + "".join(f"{name:>20}" for name in names))
    for label, call in FIRST.items():
        row = [_counts(call, pure=name == "pure") for name in names]
        print(f"  {label:36}" + "".join(f"{a:>12,} / {o:>5,}" for a, o in row))


if __name__ == "__main__":
    main()
