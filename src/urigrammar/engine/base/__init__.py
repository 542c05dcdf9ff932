"""What every stage of the engine builds its data from: ``value`` (the
immutable value base) and ``wire`` (the checks every value read from a
file goes through, and the headed files that hold them).  Nothing here
knows ABNF."""
