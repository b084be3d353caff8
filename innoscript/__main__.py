"""``python -m innoscript``: the same command line as ``innoscript``."""
import sys

from innoscript.cli import main

sys.exit(main())
