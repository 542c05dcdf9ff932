"""The first stage: ABNF text to a resolved rule table, and what the
compiler knows of the rules before it builds any automaton.

``rulelist`` reads ABNF (RFC 5234) in one linear pass, within the bounds
of ``limits``, and ``reader`` folds what it reads into rules in the small
intermediate form of ``ir`` (terminals are ``charset.CharSet``
intervals); ``table`` resolves a grammar's names
(its file, its imports, the core rules); ``inline`` writes a rule's
references in place; ``narrow`` writes the non-ASCII code points no
class tells apart as one, for Python's ``re``; ``analysis`` says which parts are nullable, what they
start with, and whether a regex of them is deterministic or linear;
``restrict`` cuts a grammar to an alphabet.  Nothing here builds an
automaton or knows a URI."""
