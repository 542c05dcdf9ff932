"""The second stage: an inlined rule body to automata, as plain tables.

``nfa`` builds the Thompson automaton every other one starts from;
``lazy`` runs it as a DFA built on demand (the viable prefix of any text,
and a linear matcher for any regular rule); ``pike`` runs it as a Pike VM
(where each capture matched, in a regex's reading); ``dfa`` determinizes
and minimizes it completely (``tables.Tables``), ``tagged`` determinizes
the Pike VM (``tables.TaggedTables``), and ``product`` intersects,
subtracts and compares two minimal DFAs.  Nothing here knows a grammar."""
