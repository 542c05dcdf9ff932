"""How large a grammar's text may be, in the units its reader works in.

The reader (``rulelist``) takes time and memory linear in the text, so the
limits here bound the work of a load, and each is checked before the work
it bounds: the text's length before it is read, a rule's length before
the rule is read, a group's depth before any rule is read (``nesting``),
and a rule's size and depth once its references are written in
(``inline``), before an automaton is built.  ``abnf`` reads a rule only when its own engine is asked
to run it (``reader.abnf_nodes``), one rule at a time, and its time and
memory grow with the square of a rule's length: ``MAX_RULE_LENGTH`` is
what keeps that to about a second and a few hundred megabytes.
"""

from __future__ import annotations

__all__ = [
    "MAX_COUNT",
    "MAX_DEPTH",
    "MAX_GRAMMAR_LENGTH",
    "MAX_NESTING",
    "MAX_RULE_LENGTH",
    "MAX_STATES",
]

#: The longest grammar text, in characters (comments included).
MAX_GRAMMAR_LENGTH = 4_000_000

#: The longest one rule may be, in characters, its ``=/`` lines included
#: and its comments not: five times the longest rule of the grammars this
#: package ships.
MAX_RULE_LENGTH = 4_000

#: The deepest groups and options may nest in a grammar's text.
MAX_NESTING = 32

#: The largest repetition count a rule may write, on either side of ``*``.
MAX_COUNT = 99_999

#: The most automaton states one rule may expand to (repetitions counted
#: out): ``1000(1000"a")`` would otherwise cost seconds and hundreds of MB.
MAX_STATES = 200_000

#: How deep one rule's expression may nest once its references are written
#: in (a chain of rules that each wrap the next nests as deep as it is
#: long): the passes that build and export its automata recurse about four
#: frames a level, and this leaves a caller some 500 frames deep room.  The
#: deepest rule this package ships nests 14 deep.
MAX_DEPTH = 100
