"""Which scenarios pass and which effects they run, remembered by content.

The card listing (``innoscript cards``) and the docs' gallery both need, for
every scenario file, whether it passes and which card effects it ran.  Running
them all takes most of those tools' time, and the answer can only change when
the scenario file, the compiled cards or the engine change.  So each answer is
stored under the hash of the scenario file's bytes, in a file named by the
bundle's source hash and a hash of the engine's own Python sources, in the same
cache folder as the compiled bundles (``INNOSCRIPT_CACHE``).  Any change to a
card, a manifest or a line of the runtime starts a new file.

The scenario test suite never reads this: it runs every scenario itself.
"""
from __future__ import annotations

import functools
import hashlib
import importlib.util
import json
import os
from pathlib import Path

from innoscript.core.cache import cache_dir
from .scenario import ScenarioError, read, run


@functools.cache
def code_digest() -> str:
    """A hash of the Python sources of the innoscript packages (the core, the compiler, the runtime), found
    where they are installed (each is a folder of its own in a checkout)."""
    h = hashlib.sha256()
    for pkg in ("innoscript", "innoscript.compiler", "innoscript.runtime"):
        root = Path(importlib.util.find_spec(pkg).submodule_search_locations[0])
        for path in sorted(root.rglob("*.py")):
            h.update(path.relative_to(root).as_posix().encode())
            h.update(path.read_bytes())
    return h.hexdigest()


def _cache_file(bundle: dict) -> Path:
    key = hashlib.sha256(f"{bundle.get('source_hash')}:{code_digest()}".encode()).hexdigest()[:24]
    return cache_dir() / f"scenario-results-{key}.json"


def _load(path: Path) -> dict:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError, RecursionError):
        return {}
    # a cache file is trusted no more than any other: entries of the wrong shape are run again
    if not isinstance(data, dict):
        return {}
    return {k: v for k, v in data.items() if isinstance(k, str) and _well_formed(v)}


def _well_formed(v) -> bool:
    return (isinstance(v, dict) and isinstance(v.get("passed"), bool) and isinstance(v.get("sets"), list)
            and all(isinstance(s, str) for s in v["sets"]) and isinstance(v.get("effects"), list)
            and all(isinstance(e, list) and len(e) == 2 and all(type(x) is int for x in e) for e in v["effects"]))


def scenario_results(paths, bundle: dict, use_cache: bool = True) -> dict[Path, dict]:
    """path -> {"passed", "sets", "effects": [[card id, effect index], ...]} for each scenario file; a file
    that cannot be read or run counts as not passing."""
    store = _cache_file(bundle)
    known = _load(store) if use_cache else {}
    fresh = False
    out: dict[Path, dict] = {}
    for path in paths:
        path = Path(path)
        try:
            key = hashlib.sha256(path.read_bytes()).hexdigest()
        except OSError:
            out[path] = {"passed": False, "sets": [], "effects": []}
            continue
        if key not in known:
            try:
                sets = sorted(read(path).get("sets", []))
                result = run(path, bundle)
                known[key] = {"passed": result.passed, "sets": sets,
                              "effects": sorted([cid, eff] for cid, eff in result.effects_run())}
            except ScenarioError:
                known[key] = {"passed": False, "sets": [], "effects": []}
            fresh = True
        out[path] = known[key]
    if fresh and use_cache:
        try:
            store.parent.mkdir(parents=True, exist_ok=True)
            tmp = store.with_suffix(f".{os.getpid()}.tmp")
            tmp.write_text(json.dumps(known, sort_keys=True), encoding="utf-8")
            os.replace(tmp, store)
        except OSError:
            pass   # a read-only cache only costs time
    return out
