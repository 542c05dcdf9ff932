"""The fifth stage: the back ends that run programs.

``backend`` is the value (``PURE``, ``NATIVE``, chosen once by
``default_backend``); ``pure`` every way a program runs in Python;
``native`` the C extension (``_native``, sources in ``_native_c/``) and
the tables handed to it; ``plan`` what a parse's record is made of;
``choose`` the one place that decides what runs a program, and keeps what
it made; ``columns`` the C jobs over Arrow string columns."""
