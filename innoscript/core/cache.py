"""The cache folder: where compiled bundles, the compiled tier's translations and scenario results are kept.

``INNOSCRIPT_CACHE`` names it; otherwise it is ``innoscript`` under the user's
cache folder (``XDG_CACHE_HOME``, else ``~/.cache``).  Everything in it can be
deleted at any time: it is made again, from the sources, when needed.
"""
from __future__ import annotations

import os
from pathlib import Path


def cache_dir() -> Path:
    base = os.environ.get("INNOSCRIPT_CACHE") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache"), "innoscript")
    return Path(base)
