import os
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
REFERENCE = ROOT.parent / "shared" / "reference" / "innovation-base-cards.json"


def _git_status():
    import subprocess
    try:
        r = subprocess.run(["git", "status", "--porcelain", "--untracked-files=all"], cwd=ROOT,
                           capture_output=True, text=True)
    except OSError:
        return None
    return r.stdout if r.returncode == 0 else None


# Taken when the suite starts; tests/test_zz_clean_tree.py compares at the end.
STATUS_AT_START = _git_status()


@pytest.fixture(scope="session")
def bundle3e():
    from innoscript.compiler.bundle import compile_edition
    from innoscript.core.editions import load_edition
    return compile_edition(load_edition("3e"))


def regenerate() -> bool:
    """Set INNOSCRIPT_REGEN=1 to rewrite golden files instead of comparing."""
    return os.environ.get("INNOSCRIPT_REGEN") == "1"
