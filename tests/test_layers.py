"""The layout's import contracts (pyproject.toml, [tool.importlinter]; docs/architecture.md).

scripts/lint-imports lays the package out as installed and runs the import linter on it.  Each
contract is shown to hold, and to fail when a forbidden import is added to a copy of one file.
"""
import importlib.machinery
import importlib.util
import re
import sys
import tomllib
from pathlib import Path

import pytest

from conftest import ROOT

SCRIPTS = ROOT / "scripts"
sys.path.insert(0, str(SCRIPTS))
from package_tree import package_dirs  # noqa: E402

_loader = importlib.machinery.SourceFileLoader("lint_imports", str(SCRIPTS / "lint-imports"))
LINT = importlib.util.module_from_spec(importlib.util.spec_from_loader("lint_imports", _loader))
_loader.exec_module(LINT)

CONTRACTS = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]["contracts"]


def _packages() -> dict[str, Path]:
    """Every package of the project by import name, with its folder, found from the folders (not from
    pyproject.toml's list)."""
    out = {}
    for name, folder in package_dirs(ROOT).items():
        for init in sorted(folder.rglob("__init__.py")):
            out[".".join([name, *init.parent.relative_to(folder).parts])] = init.parent
    return out


def test_every_contract_is_kept():
    r = LINT.lint()
    assert r.returncode == 0, r.stdout + r.stderr
    assert f"Contracts: {len(CONTRACTS)} kept, 0 broken." in r.stdout, r.stdout


def test_every_package_is_installed_and_under_a_contract():
    listed = set(tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"])
    found = set(_packages())
    assert found == listed, f"pyproject.toml's packages differ from the folders: {sorted(found ^ listed)}"
    # a package is covered when a contract lays out its children (its container) or names it as a layer
    containers = {c for k in CONTRACTS for c in k.get("containers", [])}
    layered = set()
    for k in CONTRACTS:
        for layer in k.get("layers", []):
            for part in re.split(r"[|:]", layer):
                for container in k.get("containers", []):
                    layered.add(f"{container}.{part.strip()}")
    uncovered = sorted(p for p in found if p not in containers and p not in layered)
    assert not uncovered, uncovered
    # and every package with modules or packages of its own lays them out in a contract
    parents = sorted(p for p, folder in _packages().items()
                     if any(q.startswith(p + ".") for q in found) or any(f.name != "__init__.py" for f in folder.glob("*.py")))
    assert not [p for p in parents if p not in containers], [p for p in parents if p not in containers]


# (a file of the laid-out package, a line that breaks the layout, the contract that must catch it)
BREAKS = [
    ("innoscript/runtime/rules/engine.py", "from innoscript.compiler import bundle", "engine-without-compiler"),
    ("innoscript/runtime/bots/simple.py", "from innoscript.runtime.serving import protocol", "runtime"),
    ("innoscript/compiler/resolver.py", "from innoscript.runtime import Game", "project"),
    ("innoscript/compiler/codegen.py", "from innoscript.compiler.tools import disasm", "compiler"),
    ("innoscript/runtime/machine/vm.py", "from innoscript.runtime.rules import engine", "runtime"),
    ("innoscript/runtime/rules/dogma.py", "from innoscript.runtime.rules import moves", "rules"),
    ("innoscript/runtime/state/cards.py", "from innoscript.runtime.state import board", "no-cycles"),
    ("innoscript/core/opcodes.py", "from innoscript.compiler import ast", "project"),
]


@pytest.mark.parametrize("path,line,contract", BREAKS, ids=[f"{c}:{p.split('/')[-1]}" for p, _, c in BREAKS])
def test_a_forbidden_import_breaks_its_contract(path, line, contract):
    name = next(k["name"] for k in CONTRACTS if k["id"] == contract)
    source = _source_of(path)
    r = LINT.lint(replace={path: source + f"\n{line}  # added by the test\n"})
    assert r.returncode != 0, f"adding {line!r} to {path} kept every contract:\n{r.stdout}"
    broken = re.sub(r"\s+", " ", r.stdout)
    assert re.sub(r"\s+", " ", name) + " BROKEN" in broken, r.stdout


def _source_of(laid_out: str) -> str:
    parts = Path(laid_out).parts
    best = max((n for n in package_dirs(ROOT) if ".".join(parts[:len(n.split("."))]) == n), key=len)
    folder = package_dirs(ROOT)[best]
    return folder.joinpath(*parts[len(best.split(".")):]).read_text(encoding="utf-8")
