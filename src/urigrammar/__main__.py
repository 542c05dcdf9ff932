"""``python -m urigrammar``: the same command line as ``urigrammar``."""

import sys

from .cli import main

sys.exit(main())
