"""The Thompson automaton of an inlined rule body: the one NFA construction
that the lazy DFA (``lazy``), the minimal DFA (``dfa``, through ``lazy``),
the Pike VM (``pike``) and the tagged DFA (``tagged``) all start from.

Each state has at most one character edge (a ``CharSet`` and a target) and
any number of epsilon edges, kept in priority order: an alternation's
branches in order, and a repetition's "one more iteration" before "leave
the loop", which is the order a backtracking regex tries them in.  The
language does not depend on that order; the tagged DFA's choice of reading
does.  Each ``Cap`` node gets two tag states (opened, closed): epsilon
states that record where the capture begins and ends, and that every other
user passes through as plain epsilon states.
"""

from __future__ import annotations

from ..syntax.charset import CharSet
from ..syntax.ir import Alt, Cap, Chars, Expr, Ref, Seq

__all__ = ["Thompson"]


class Thompson:
    """The automaton: ``edges[s]`` (a class and its target, or ``None``),
    ``eps[s]`` (epsilon targets in priority order), ``tag[s]`` (``2i`` or
    ``2i + 1`` on capture ``i``'s open and close states, else -1),
    ``names`` (captures in pre-order, as the regex numbers its groups),
    ``start`` and ``accept``."""

    def __init__(self, body: Expr) -> None:
        self.edges: list[tuple[CharSet, int] | None] = []
        self.eps: list[list[int]] = []
        self.tag: list[int] = []
        self.names: list[str] = []
        self._caps: dict[int, int] = {}
        #: Whether a capture lies inside a repetition of more than one
        #: iteration, where a regex's groups are not a Pike VM's.
        self.repeated_capture = False
        self._number(body)
        self.start, self.accept = self._build(body)

    def _number(self, node: Expr, repeated: bool = False) -> None:
        """Number the captures in pre-order (each repetition's item once),
        as the compiled regex numbers its groups.  Iterative: a body may
        nest as deep as its grammar's chain of rules."""
        todo: list[tuple[Expr, bool]] = [(node, repeated)]
        while todo:
            node, repeated = todo.pop()
            if isinstance(node, Cap):
                self.repeated_capture |= repeated
                self._caps[id(node)] = len(self.names)
                self.names.append(node.name)
                todo.append((node.expr, repeated))
            elif isinstance(node, (Seq, Alt)):
                todo.extend((item, repeated) for item in reversed(node.items))
            elif isinstance(node, Ref):
                raise TypeError(f"rule reference {node.name!r} was not inlined")
            elif not isinstance(node, Chars):
                todo.append((node.item, repeated or node.hi != 1))

    def _state(self, tag: int = -1) -> int:
        self.edges.append(None)
        self.eps.append([])
        self.tag.append(tag)
        return len(self.edges) - 1

    def _build(self, node: Expr) -> tuple[int, int]:
        if isinstance(node, Cap):
            number = self._caps[id(node)]
            start = self._state(2 * number)
            inner_start, inner_end = self._build(node.expr)
            end = self._state(2 * number + 1)
            self.eps[start].append(inner_start)
            self.eps[inner_end].append(end)
            return start, end
        start = self._state()
        if isinstance(node, Chars):
            end = self._state()
            self.edges[start] = (node.chars, end)
            return start, end
        if isinstance(node, Seq):
            end = start
            for item in node.items:
                s, e = self._build(item)
                self.eps[end].append(s)
                end = e
            return start, end
        if isinstance(node, Alt):
            end = self._state()
            for item in node.items:  # in priority order
                s, e = self._build(item)
                self.eps[start].append(s)
                self.eps[e].append(end)
            return start, end
        assert not isinstance(node, Ref)  # _number refused it
        end = start
        for _ in range(node.lo):
            s, e = self._build(node.item)
            self.eps[end].append(s)
            end = e
        final = self._state()
        if node.hi is None:
            # Greedy: another iteration comes before leaving the loop.  The
            # loop state of its own keeps the item's end from leading back
            # into the item through a shortcut.
            loop = self._state()
            self.eps[end].append(loop)
            s, e = self._build(node.item)
            self.eps[loop] += (s, final)
            self.eps[e].append(loop)
            return start, final
        for _ in range(node.hi - node.lo):
            s, e = self._build(node.item)
            self.eps[end] += (s, final)
            end = e
        self.eps[end].append(final)
        return start, final
