"""Fuzz the scheme profiles: ``validate``, ``check`` and ``parse`` of every
shipped scheme (http, mailto, tel, data, file, geo, urn, ...).

For any scheme and text: the C verdict (one DFA for the whole profile,
where it has one) is the Python one's, and ``parse`` gives equal values or
the same error at the same offset.  The text is drawn after the scheme
and its colon as often as not, so the inputs reach the profiles' own rules.

    python fuzz/fuzz_schemes.py -max_total_time=60 fuzz/seeds/schemes
"""

from __future__ import annotations

import atheris

import urigrammar as u
from _harness import BACKENDS, outcome, run, same, text_from

SCHEMES = sorted(u.SCHEMES)


def readings(scheme: str, text: str) -> list[object]:
    profile = u.SCHEMES[scheme]
    found = []
    for backend in BACKENDS:
        valid = outcome(lambda b=backend: profile.validate(text, backend=b))
        checked = outcome(lambda b=backend: profile.check(text, backend=b) and None)
        value = outcome(lambda b=backend: repr(profile.parse(text, backend=b)))
        if (valid is True) != (checked is None):
            raise AssertionError(f"{scheme}: validate says {valid!r}, check {checked!r}")
        found.append((valid, checked, value))
    return found


def test_one_input(data: bytes) -> None:
    fdp = atheris.FuzzedDataProvider(data)
    scheme = SCHEMES[fdp.ConsumeIntInRange(0, len(SCHEMES) - 1)]
    prefixed = fdp.ConsumeBool()
    text = text_from(fdp)
    if prefixed:
        text = f"{scheme}:{text}"
    same(f"{scheme} on {text!r}", *readings(scheme, text))


def warm_up() -> None:
    for scheme in SCHEMES:
        readings(scheme, f"{scheme}:")
        readings(scheme, f"{scheme}://a/b?c#d")


if __name__ == "__main__":
    run(test_one_input, warm_up)
