"""Where each captured rule matched, from a DFA: the tagged DFA behind the
native ``parse``.

``dfa`` answers whether a rule matches; ``parse`` also needs where the
rules it reads (``Cap`` nodes of the inlined body) begin and end, with the
regex's choice among readings: alternatives in order, repetitions greedy
(RFC 3986 section 3.2.2's ``host = IP-literal / IPv4address / reg-name``
is "first-match-wins" this way).  That is what a backtracking matcher
returns first, and what a Pike VM returns when its threads are kept in
priority order.  This module determinizes that VM:

* *Tags.*  Each ``Cap`` gets two tags, opened and closed, on epsilon
  states of a Thompson automaton whose epsilon edges are ordered by
  priority (alternatives in order, "one more iteration" before "stop").
* *States.*  A DFA state is the ordered list of the automaton's threads
  (states that consume a character, and acceptance) after an epsilon
  closure done depth first in priority order, a thread reaching a state
  already taken being dropped, as in the Pike VM.  So the list after each
  character is a function of the list before and of the character's class:
  subset construction over ordered lists instead of sets.  There is no
  minimization: merging states would lose which thread is which.
* *Records.*  Each transition carries a record: for each thread of the
  target, the thread of the source it came from and the tags its closure
  set (at the position after the character).  Record 0 is the identity
  without tags, the usual case inside a component.
* *Reading the tags back.*  A run stores the records that are not 0, with
  their positions.  At the end, the first accepting thread of the final
  state (``finals``) is the reading the regex would give; walking the
  records backwards from it follows that thread's history, and the first
  value met for a tag is its last assignment.  A run of one record on a
  state's loop is stored once, at its last position, when the steps before
  the last can add nothing backwards (``keeps``, see ``_collapses``): the
  thread a path's last character came from came from itself, and so on,
  with no tag of its own.

The result, ``TaggedTables``, names no rule: ``names`` are the captures in
pre-order, which is the order of the compiled regex's groups, and
``groups`` gives what ``re.Match.groups()`` gives.  ``_native.Tagger`` runs
the same tables in C; ``TaggedTables.groups`` is the reference the tests
compare it with.
"""

from __future__ import annotations

from collections.abc import Callable

from ..syntax.ir import Expr
from .dfa import MAX_BUILD_WORK, MAX_CLASSES, MAX_DFA_STATES, minimize, partition
from .pike import PikeVM
from .tables import TaggedTables

__all__ = ["MAX_TAGS", "TaggedTables", "build_tagged"]

#: The most tags (two per capture) a tagged DFA may carry.
MAX_TAGS = 254

#: The most threads one state may hold (the runner's thread indices are 16-bit).
MAX_THREADS = 4096


def _collapses(record: tuple[tuple[int, int], ...], sets: list[tuple[int, ...]]) -> bool:
    """Whether a run of ``record`` (on a state's loop) reads backwards as
    its last step alone: every thread comes from a thread that comes from
    itself, and that one's tags are among its own, so the steps before the
    last add no tag and move no thread."""
    for source, tagset in record:
        if source >= len(record):  # not a loop's record
            return False
        back, back_tags = record[source]
        if back != source or not set(sets[back_tags]) <= set(sets[tagset]):
            return False
    return True


def _merge(
    moves: list[int], recs: list[int], finals: list[int], widths: list[int], width: int
) -> tuple[list[int], list[int], list[int]] | None:
    """``dfa``'s Moore refinement over the tagged DFA: two states are one
    when they have as many threads, the same accepting thread, and on every
    class the same record to equivalent targets, since a run reads nothing
    else of a state.  (Most states differ only in the order of threads that
    never decide anything.)  ``None`` past ``MAX_BUILD_WORK``."""
    rows = [moves[at : at + width] for at in range(0, len(moves), width)]
    labels = [tuple(recs[at : at + width]) for at in range(0, len(recs), width)]
    found = minimize(rows, list(zip(finals, widths, strict=True)), MAX_BUILD_WORK, labels)
    if found is None:
        return None
    block, count = found
    assert block[1] == 1, "the start state is not dead"
    small_moves = [0] * (count * width)
    small_recs = [0] * (count * width)
    small_finals = [-1] * count
    for state, new in enumerate(block):
        small_finals[new] = finals[state]
        for c in range(width):
            small_moves[new * width + c] = block[moves[state * width + c]]
            small_recs[new * width + c] = recs[state * width + c]
    return small_moves, small_recs, small_finals


def _step(
    automaton: PikeVM,
    threads: tuple[int, ...],
    taking: frozenset[int],
    tagset: Callable[[tuple[int, ...]], int],
) -> tuple[tuple[int, ...], tuple[tuple[int, int], ...] | None]:
    """Where the threads ``threads`` go on a class that the NFA states
    ``taking`` take: the target's threads, and the record of each one's
    source thread and tag set (``None`` when every thread stays in place
    with no tag).  One loop: this runs per (DFA state, class)."""
    seeds = []
    for number, state in enumerate(threads):
        if state in taking:
            edge = automaton.edges[state]
            assert edge is not None
            seeds.append((number, edge[1]))
    states: list[int] = []
    sources: list[tuple[int, int]] = []
    identity = True
    for k, (state, source, tags) in enumerate(automaton.closure(seeds)):
        states.append(state)
        sources.append((source, tagset(tags)))
        if source != k or tags:
            identity = False
    return tuple(states), None if identity or not states else tuple(sources)


def build_tagged(
    body: Expr, cap: int = MAX_DFA_STATES, *, repeated: bool = False
) -> TaggedTables | None:
    """The tagged DFA of an inlined rule body whose captures are ``Cap``
    nodes, or ``None`` when it needs more than ``cap`` states, more than
    ``MAX_CLASSES`` classes, ``MAX_TAGS`` tags or ``MAX_BUILD_WORK``, or
    when a capture lies inside a repetition, unless ``repeated``: then a
    repeated capture reads as its last iteration that took part, the Pike
    VM's reading, which differs from ``re``'s where an iteration matches
    empty."""
    automaton = PikeVM(body)
    if 2 * len(automaton.names) > MAX_TAGS or (automaton.repeated_capture and not repeated):
        # A capture inside a repetition: Python's re keeps the capture of
        # an iteration that matched empty ("(a?)*" on "a" gives ""), which
        # a Pike VM drops, and on CPython 3.11 to 3.13.0 a possessive
        # repetition misreports its captures ("(?:(a)|(b))*+" on "ab" gives
        # "" for the first; CPython gh-101955).  The regex is the
        # reference, so such a rule stays on it.  The parse rules have none.
        return None
    cut = partition(automaton.edges)
    if cut is None:
        return None
    starts, classes, takers = cut
    if len(takers) > MAX_CLASSES:
        return None
    cap = min(cap, MAX_BUILD_WORK // max(len(takers), 1))

    tagsets: dict[tuple[int, ...], int] = {(): 0}
    records: dict[tuple[tuple[int, int], ...], int] = {}

    def tagset(tags: tuple[int, ...]) -> int:
        return tagsets.setdefault(tags, len(tagsets))

    start = automaton.closure([(0, automaton.start)])
    start_tags = tuple(tagset(tags) for _, _, tags in start)
    dead: tuple[int, ...] = ()
    first = tuple(state for state, _, _ in start)
    index: dict[tuple[int, ...], int] = {dead: 0, first: 1}
    order = [dead, first]
    moves: list[int] = []
    recs: list[int] = []
    at = 0
    while at < len(order):
        threads = order[at]
        if len(threads) > MAX_THREADS:
            return None
        for taking in takers:
            target, record = _step(automaton, threads, taking, tagset)
            found = index.get(target)
            if found is None:
                if len(order) >= cap:
                    return None
                found = index[target] = len(order)
                order.append(target)
            moves.append(found)
            recs.append(0 if record is None else records.setdefault(record, len(records) + 1))
        at += 1
    finals = [
        next((k for k, state in enumerate(threads) if state == automaton.accept), -1)
        for threads in order
    ]
    merged = _merge(moves, recs, finals, [len(threads) for threads in order], len(takers))
    if merged is None:
        return None
    moves, recs, finals = merged
    by_index = sorted(records, key=records.__getitem__)
    table: tuple[tuple[tuple[int, int], ...], ...] = ((), *by_index)
    sets = sorted(tagsets, key=tagsets.__getitem__)
    keeps = tuple(_collapses(r, sets) for r in table)
    return TaggedTables(
        starts=tuple(starts),
        classes=tuple(classes),
        nclasses=len(takers),
        moves=tuple(moves),
        recs=tuple(recs),
        records=table,
        keeps=keeps,
        tagsets=tuple(sets),
        finals=tuple(finals),
        start_tags=start_tags,
        names=tuple(automaton.names),
    )
