"""What runs a program on a back end: the one place that decides, and the
one cache of what it made.

Each purpose has its table, read from the program's data alone::

    purpose    the program                 native                pure
    ---------  --------------------------  --------------------  ---------------
    validate   reaches itself              abnf                  abnf
               has a minimal DFA           dfa (C Runner)        regex* or lazy
               has none (over its caps)    regex* or lazy        regex* or lazy
    viable     has a minimal DFA           dfa (C Runner)        tables (Python)
               has none                    lazy                  lazy
    read       reaches itself              abnf                  abnf
               has a tagged DFA            tagged (C Tagger)     regex+ or tables
               has none (over its caps)    regex+ or pike        regex+ or pike
    history    reaches itself: abnf; has a tagged DFA: tables; else pike

    *  where the regex is trusted to be linear (``Program.trusted``)
    +  where, besides, no capture lies in a repetition, so that the regex's
       groups read as the tagged DFA does

``validate`` is the verdict, ``viable`` the end of the longest prefix some
matching text starts with (an error's offset), ``read`` a record of the
captures' last spans by a plan (``plan``), ``history`` every occurrence of
each capture.  ``runs(program, backend)`` gives the ``Runs`` of a program
on a back end, made once and kept while the program lives; each of its
methods makes its matcher once.  A rule that reaches itself is matched by
the ``abnf`` engine, which the caller hands in as a ``Fallback``.  No
caller decides again: they ask ``Runs`` for what they need.
"""

from __future__ import annotations

import functools
from _thread import allocate_lock
from _weakref import ref  # weakref.ref itself, without weakref's imports
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Literal, Protocol, TypeVar, cast

from ..base.later import later
from ..base.value import exact
from ..program.program import Program
from . import native
from .backend import Backend
from .plan import Plan

if TYPE_CHECKING:
    from ..automata.lazy import LazyDfa
    from ..automata.pike import PikeVM
    from ..automata.tables import Tables
    from ..syntax.ir import Expr
    from . import pure
    from .pure import History, Matcher, SpanSource

    # Types the checker alone reads: a Protocol made at run time costs a
    # first call fifty Python calls, and nothing tests against these.

    #: What serves one purpose (the tables above).
    Strategy = Literal["abnf", "dfa", "regex", "lazy", "tables", "tagged", "pike"]

    class Fallback(Protocol):
        """The ``abnf`` engine for one rule that reaches itself."""

        def matches(self, text: str) -> bool:
            """Whether the rule matches all of ``text``."""
            ...

        def spans(self, text: str, names: Sequence[str]) -> Sequence[int] | None:
            """For each of ``names``, its last occurrence's span as two numbers
            (-1, -1 where it took no part); ``None`` when the rule does not
            match."""
            ...

        def history(self, text: str) -> History | None:
            """Every occurrence of each captured rule, by folded name."""
            ...

else:
    # The pure back end, imported when a program first runs in Python: on
    # the native back end a program with tables never needs it.
    pure = later(globals(), ".pure")

__all__ = [
    "Runs",
    "front",
    "runs",
    "tables_predicate",
]

F = TypeVar("F", bound=Callable[..., object])


def _validates(program: Program, backend: Backend) -> Strategy:
    if not program.regular:
        return "abnf"
    if backend.native and program.dfa is not None:
        return "dfa"
    return "regex" if program.trusted else "lazy"


def _reads(program: Program, backend: Backend) -> Strategy:
    if not program.regular:
        return "abnf"
    if backend.native and program.tagged is not None:
        return "tagged"
    if program.trusted and not program.repeated:
        return "regex"
    return "tables" if program.tagged is not None else "pike"


class Runs:
    """What runs one program on one back end: ``validates`` and ``reads``
    name what serves each purpose (the tables above); each method makes
    its matcher once."""

    def __init__(self, program: Program, backend: Backend, fallback: Fallback | None) -> None:
        # The program by a weak reference: the cache keeps its Runs while
        # the program lives, and a strong one would keep it alive forever.
        # What the matchers need is taken when they are made, while whoever
        # asked for them holds the program.
        self._program = ref(program)
        self.backend = backend
        self.validates = _validates(program, backend)
        self.reads = _reads(program, backend) if program.captures else self.validates
        self._fallback = fallback
        self._made: dict[object, Any] = {}
        self._lock = allocate_lock()

    @property
    def program(self) -> Program:
        found = self._program()
        if found is None:
            msg = "the program of these Runs is gone: ask runs() again with it"
            raise ReferenceError(msg)
        return found

    def __repr__(self) -> str:
        return (
            f"<Runs of {self.program!r} on {self.backend.name}: "
            f"validate {self.validates}, read {self.reads}>"
        )

    def once(self, key: object, make: Callable[[], Any]) -> Any:
        """``make()``, made once for ``key`` while the program lives."""
        found = self._made.get(key)
        if found is None:
            made = make()
            with self._lock:
                found = self._made.setdefault(key, made)
        return found

    def _abnf(self) -> Fallback:
        if self._fallback is None:
            msg = f"rule {self.program.rule!r} reaches itself: the abnf engine must be handed in"
            raise TypeError(msg)
        return self._fallback

    # --- the automata, each built once --------------------------------------

    def runner(self) -> Any:
        """The C ``Runner`` of the program's minimal DFA (native only)."""
        assert self.program.dfa is not None
        dfa = self.program.dfa
        return self.once("runner", lambda: native.runner(dfa))

    def _body(self) -> Expr:
        body = self.program.body
        assert body is not None
        return body

    def _lazy(self) -> LazyDfa:
        return cast("LazyDfa", self.once("lazy", lambda: pure.lazy_dfa(self._body())))

    def _pike(self) -> PikeVM:
        return cast("PikeVM", self.once("pike", lambda: pure.pike_vm(self._body())))

    def _regex(self) -> Matcher:
        """The compiled regex's ``fullmatch``: the narrowed body's, when
        the program has a narrowing (``syntax.narrow``), which its callers
        then apply to the text."""
        program = self.program
        source = program.source if program.narrowing is None else program.narrow_source
        return cast("Matcher", self.once("regex", lambda: pure.regex_fullmatch(source)))

    # --- the purposes ---------------------------------------------------------

    def fullmatch(self) -> Matcher:
        """The verdict as ``re.Pattern.fullmatch`` gives it: ``None``
        exactly when the rule does not match all of the text."""
        return cast("Matcher", self.once("fullmatch", self._make_fullmatch))

    def _make_fullmatch(self) -> Matcher:
        way = self.validates
        if way == "abnf":
            matches = self._abnf().matches

            def by_abnf(text: str) -> object | None:
                return True if matches(exact(text)) else None

            return by_abnf
        if way == "dfa":
            found: Matcher = self.runner().fullmatch
            return found
        if way == "regex":
            narrowing = self.program.narrowing
            if narrowing is None:
                return self._regex()
            return pure.narrowed_fullmatch(self._regex(), narrowing, self.program.source)
        return pure.lazy_fullmatch(self._lazy())

    def viable(self) -> Callable[[str], int]:
        """The end of the longest prefix of a text that some text the rule
        matches starts with (a regular rule's)."""
        return cast("Callable[[str], int]", self.once("viable", self._make_viable))

    def _make_viable(self) -> Callable[[str], int]:
        dfa = self.program.dfa
        if dfa is not None and self.backend.native:
            found: Callable[[str], int] = self.runner().viable
            return found
        if dfa is not None:
            return pure.tables_viable(dfa)
        return pure.lazy_viable(self._lazy())

    def reader(self, plan: Plan, into: type[Any]) -> Callable[[str], Any]:
        """A function from a text to a record of ``into`` (a record class:
        ``result.record``) whose slots are ``plan``'s, or ``None`` for a
        text the rule does not match."""
        return cast(
            "Callable[[str], Any]",
            self.once(("reader", plan, into), lambda: self._make_reader(plan, into)),
        )

    def _make_reader(self, plan: Plan, into: type[Any]) -> Callable[[str], Any]:
        if not self.program.captures:
            # Nothing to read but the verdict.
            fullmatch = self.fullmatch()

            def verdict(text: str) -> tuple[int, ...] | None:
                return None if fullmatch(text) is None else ()

            return pure.reader(plan, into, spans=verdict)
        way = self.reads
        if way == "tagged":
            tagged = self.program.tagged
            assert tagged is not None
            if native.is_record_class(into):
                made: Callable[[str], Any] = native.tagger(tagged, plan, into).parse
                return made
            # A Python record class, which C cannot make: its spans, then
            # the class's own maker.
            tagger = native.tagger(tagged, plan)
            spans, consts, make = tagger.spans, tagger.consts, into._make

            def by_spans(text: str) -> Any:
                found = spans(text)
                return None if found is None else make(text, consts, found)

            return by_spans
        if way == "regex":
            narrowing = self.program.narrowing
            if narrowing is None:
                return pure.reader(plan, into, fullmatch=self._regex())
            whole = self.program.source
            return pure.narrowed_reader(plan, into, self._regex(), narrowing, whole)
        return pure.reader(plan, into, spans=self._spans())

    def _spans(self) -> SpanSource:
        way = self.reads
        if way == "abnf":
            spans, names = self._abnf().spans, self.program.names
            return functools.partial(spans, names=names)
        if way == "pike":
            return pure.pike_spans(self._pike())
        tagged = self.program.tagged
        assert tagged is not None
        return pure.tables_spans(tagged)

    def history(self) -> Callable[[str], History | None]:
        """Every occurrence of each capture in a text, by folded name
        (``None`` for a text the rule does not match), in Python."""
        return cast("Callable[[str], History | None]", self.once("history", self._make_history))

    def _make_history(self) -> Callable[[str], History | None]:
        if not self.program.regular:
            history = self._abnf().history
            return lambda text: history(exact(text))
        tagged = self.program.tagged
        if tagged is not None:
            return pure.tables_history(tagged)
        return pure.pike_history(self._pike())


#: The one cache of what runs: per program (by identity, while it lives),
#: its Runs on each back end.
_RUNS: dict[int, tuple[ref[Program], dict[str, Runs]]] = {}
_LOCK = allocate_lock()


def _forget(key: int) -> Callable[[ref[Program]], None]:
    # The cache is held by the closure: a program that dies while the
    # interpreter shuts down still finds it.  No lock: a program may die in
    # a garbage collection that runs while this thread holds _LOCK (in
    # runs, say), and the callback would wait for it forever.  Each step is
    # atomic, and the entry cannot have been replaced: the program's id is
    # not reused before its callbacks have run.
    cache = _RUNS

    def forget(gone: ref[Program]) -> None:
        entry = cache.get(key)
        if entry is not None and entry[0] is gone:
            cache.pop(key, None)

    return forget


def runs(program: Program, backend: Backend, fallback: Fallback | None = None) -> Runs:
    """The ``Runs`` of ``program`` on ``backend``, made once while the
    program lives.  ``fallback``: the ``abnf`` engine, for a rule that
    reaches itself (the first call's is kept)."""
    key = id(program)
    with _LOCK:
        entry = _RUNS.get(key)
        if entry is None or entry[0]() is not program:
            entry = _RUNS[key] = (ref(program, _forget(key)), {})
        by_backend = entry[1]
        found = by_backend.get(backend.name)
        if found is None:
            found = by_backend[backend.name] = Runs(program, backend, fallback)
    return found


def tables_predicate(
    tables: Tables, backend: Backend, *, otherwise: Callable[[str], bool] | None = None
) -> Callable[[str], bool] | None:
    """Whether a raw DFA (one no program holds: ``automata.product``'s)
    accepts all of a text, as ``True`` or ``False``, and, given
    ``otherwise``, ``otherwise(text)`` for a text it refuses (called from
    C: no Python frame for a text it accepts): the C runner on the native
    back end; ``None`` on the pure one, which runs no raw DFA, so that the
    caller keeps its own way.  Not kept: the caller keeps what it makes."""
    if not backend.native:
        return None
    made: Callable[[str], bool] = native.runner(tables, otherwise).accepts
    return made


def front(
    backend: Backend,
    table: dict[Any, Any],
    fallback: F,
    default: str | None = None,
    *,
    text_only: bool = False,
    by_identity: bool = False,
) -> F:
    """``fallback`` with a C front on the native back end: a callable that,
    for ``(spelling, text)`` with ``spelling`` an exact ``str`` key of
    ``table`` and ``text`` a ``str``, returns whether ``table[spelling]``
    matches (a C runner runs right there, any other matcher is called),
    and calls ``fallback(*args, **kwargs)`` for everything else.
    ``fallback`` must give the same answer for the same call, fill
    ``table``, and own every check and error; a spelling, once in
    ``table``, keeps a matcher that answers alike.  The front carries ``fallback``'s metadata
    (``__wrapped__``, ``__doc__``, ``__name__``, ``__qualname__``,
    ``__module__``).

    With a ``default`` rule spelling the front stands for a parse
    function instead: for ``(text)`` or ``(text, spelling)``, it returns
    what ``table[spelling]`` returns for ``text`` unless that is ``None``,
    when ``fallback`` answers, with its error; with ``text_only``, for
    ``(text)`` alone, always ``table[default]`` (a function whose second
    argument is no rule spelling: ``normalize``'s options); with
    ``by_identity``, for ``(text)`` or ``(text, key)``, the matcher of
    ``table[id(key)]``, a pair ``(key, matcher)`` (``key`` ``None`` when
    absent; a matcher ``None`` means ``fallback``), for a function whose
    second argument is an options value, which is slow to hash."""
    if not backend.native:
        return fallback
    made = functools.update_wrapper(
        native.entry(table, fallback, default, text_only, by_identity), fallback
    )
    return cast("F", made)
