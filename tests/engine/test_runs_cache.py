"""The one cache of what runs a program (``backend.choose.runs``): made once
per program and back end, kept while the program lives, dropped when it
dies, and never waiting on its own lock when a program dies in a garbage
collection that runs while the cache is locked."""

from __future__ import annotations

import gc
import threading
from typing import Any

from urigrammar import load_grammar
from urigrammar.engine import BACKENDS, runs
from urigrammar.engine.backend import choose
from urigrammar.engine.program.build import build_program
from urigrammar.engine.program.program import Program

GRAMMAR = load_grammar("word = 1*ALPHA\n")


def _fresh() -> Program:
    return build_program(GRAMMAR.rules, "word", frozenset(), frozenset(), vetted=False)


def test_runs_are_made_once_per_program_and_back_end() -> None:
    program = _fresh()
    for backend in BACKENDS:
        assert runs(program, backend) is runs(program, backend)
    assert len({id(runs(program, backend)) for backend in BACKENDS}) == len(BACKENDS)


def test_a_dead_program_leaves_the_cache() -> None:
    program = _fresh()
    runs(program, BACKENDS[0])
    key = id(program)
    assert key in choose._RUNS
    del program
    gc.collect()
    assert key not in choose._RUNS


def test_a_program_dying_while_the_cache_is_locked_does_not_wait() -> None:
    # A program in a reference cycle dies in a collection, which may run
    # while this thread holds the cache's lock (inside runs): its callback
    # must not take the lock.
    program: Any = _fresh()
    runs(program, BACKENDS[0])
    cycle: list[Any] = [program]
    cycle.append(cycle)
    del program

    def collect_while_locked() -> None:
        with choose._LOCK:
            cycle.clear()
            gc.collect()

    worker = threading.Thread(target=collect_while_locked, daemon=True)
    worker.start()
    worker.join(timeout=10)
    assert not worker.is_alive(), "the cache's callback waited on the lock its thread holds"
