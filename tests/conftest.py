import os
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
REFERENCE = ROOT.parent / "shared" / "reference" / "innovation-base-cards.json"


@pytest.fixture(scope="session")
def bundle3e():
    from innoscript.compiler.bundle import compile_edition
    from innoscript.editions import load_edition
    return compile_edition(load_edition("3e"))


def regenerate() -> bool:
    """Set INNOSCRIPT_REGEN=1 to rewrite golden files instead of comparing."""
    return os.environ.get("INNOSCRIPT_REGEN") == "1"
