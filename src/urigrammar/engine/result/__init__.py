"""The sixth stage: what a parse returns.

``record`` is a text and the spans of its slots (``Record``, ``Field``;
the C extension's on the native back end), which the URI model's
references derive from; ``match`` is ``RuleMatch``, ``Grammar.parse``'s
value."""
