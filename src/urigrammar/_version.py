"""urigrammar's version: one place, read by the build (pyproject.toml) and
written into every compiled grammar's header (``engine.program.artifact``)."""

VERSION = "0.1.0"
