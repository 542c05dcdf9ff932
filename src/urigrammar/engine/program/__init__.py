"""The fourth stage: a compiled rule as plain data, and where it is kept.

``program`` is the value (``Program``: the regex, the tables, what the
analyses said), ``build`` the one function that compiles a rule into it,
``artifact`` a grammar's rules and programs as one file of data, and
``store`` where such a file is kept: inside the package (built with the
wheel) or in the per-user cache."""
