"""``python -m urigrammar``: the same command line as ``urigrammar``."""

import sys

from ._cli import main

sys.exit(main())
