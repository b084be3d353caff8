"""The package as it is installed, laid out from a checkout.

A checkout keeps the pipeline at its top level (grammar/, cards/, compiler/, runtime/) and
pyproject.toml's ``package-dir`` maps each folder to its import name (``innoscript.compiler`` is
compiler/).  Tools that read a package from one folder (the import linter) or change files in place
(the compiled build) need the installed layout instead: one ``innoscript`` folder holding the others.

``package_dirs(root)`` reads the mapping; ``lay_out(root, dest)`` builds ``dest/innoscript`` from
links to the checkout's files (``copy=True``: copies), and ``replace`` swaps single files for new
text without touching the checkout (the tests add a forbidden import that way).
"""
from __future__ import annotations

import os
import shutil
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def package_dirs(root: Path = ROOT) -> dict[str, Path]:
    """Import name -> folder in the checkout, for the mapped packages (their subpackages follow their folders)."""
    with open(root / "pyproject.toml", "rb") as f:
        mapping = tomllib.load(f)["tool"]["setuptools"]["package-dir"]
    return {name: root / folder for name, folder in sorted(mapping.items())}


def lay_out(root: Path, dest: Path, copy: bool = False, replace: dict[str, str] | None = None) -> Path:
    """Build ``dest/<top package>`` as installed; return ``dest``. ``replace``: a path inside the laid-out
    tree (``innoscript/runtime/rules/engine.py``) -> the text that file has there instead."""
    dest.mkdir(parents=True, exist_ok=True)
    ignore = shutil.ignore_patterns("__pycache__", "*.so", "*.c", "*.pyc")
    for name, folder in package_dirs(root).items():
        target = dest.joinpath(*name.split("."))
        if target.exists() or target.is_symlink():
            raise FileExistsError(f"{target} is laid out twice (pyproject.toml's package-dir)")
        if copy:
            shutil.copytree(folder, target, ignore=ignore)
        elif "." not in name:        # the top package: a folder of its own, for the others to go into
            target.mkdir()
            for child in folder.iterdir():
                if child.name != "__pycache__":
                    (target / child.name).symlink_to(child)
        else:
            target.symlink_to(folder, target_is_directory=True)
    for rel, text in (replace or {}).items():
        path = dest / rel
        _materialise(dest, path.parent)
        if path.is_symlink():
            path.unlink()
        path.write_text(text, encoding="utf-8")
    return dest


def _materialise(dest: Path, folder: Path) -> None:
    """Turn every linked folder on the way from dest to folder into a folder of links, so a file there
    can be replaced without writing through a link into the checkout."""
    here = dest
    for part in folder.relative_to(dest).parts:
        here = here / part
        if here.is_symlink():
            real = Path(os.path.realpath(here))
            here.unlink()
            here.mkdir()
            for child in real.iterdir():
                if child.name != "__pycache__":
                    (here / child.name).symlink_to(child)
