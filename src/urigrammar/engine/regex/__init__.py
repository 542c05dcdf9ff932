"""The third stage: an inlined rule body as a regex.

``emit`` writes the Python regex a program keeps (possessive where the
analysis proves it changes no answer), and ``flavour`` the same language
for another engine's regex syntax (RE2, Rust's ``regex``, Java), refusing
a rule that engine would run in more than linear time or not at all."""
