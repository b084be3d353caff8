"""Edition manifests, set manifests and the card files that belong to each.

An edition is a folder under ``cards/`` holding ``edition.json`` (validated
against schemas/edition.schema.json) and any number of ``*.inno`` card files
in sub-folders.  An edition may ``inherit`` another and ``reuse`` a list of its cards
unchanged; every other card of the edition has its own file.

A set (an expansion) is a folder ``cards/sets/<set>/<edition>/`` holding
``set.json`` (schemas/set.schema.json), ``ageN/*.inno`` card files and
``rules/*.inno`` hook files.  A game is an edition plus any number of sets:
``load_edition(name, sets=[...])`` gives the edition with the sets' cards
among its sources, the sets' manifests and rules files, and from them the
vocabulary the resolver checks (``set_vocabulary``).  A set's folder for one
edition may ``inherit`` its folder for another and ``reuse`` its cards by name.
"""
from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from pathlib import Path

import jsonschema

from innoscript.core.diagnostics import CompileError, Diagnostic, Pos

CARD_NAME_RE = re.compile(r'^\s*card\s+"([^"\n]+)"', re.MULTILINE)


def cards_root() -> Path:
    return Path(str(resources.files("innoscript.cards")))


@cache
def schema(name: str) -> dict:
    return json.loads(resources.files("innoscript.core").joinpath("schemas", name).read_text(encoding="utf-8"))


def normalise_edition(name: str) -> str:
    name = str(name).strip().lower()
    return name if not name.isdigit() else name + "e"


def card_roots() -> list[Path]:
    """Where editions are looked for: the shipped cards, then the folders in $INNOSCRIPT_CARDS
    (separated by the path separator), so a new edition or set is a folder of data anywhere."""
    extra = [Path(p) for p in os.environ.get("INNOSCRIPT_CARDS", "").split(os.pathsep) if p.strip()]
    return [cards_root()] + extra


def available_editions(root: Path | None = None) -> list[str]:
    roots = [root] if root else card_roots()
    return sorted({p.parent.name for r in roots for p in r.glob("*/edition.json")})


def find_edition_folder(name: str) -> Path | None:
    for r in card_roots():
        if (r / name / "edition.json").exists():
            return r / name
    return None


def source_path(relpath: str) -> Path:
    """The file of a card source recorded relative to its cards root."""
    for r in card_roots():
        if (r / relpath).exists():
            return r / relpath
    return cards_root() / relpath


@dataclass
class CardSource:
    path: Path          # absolute
    relpath: str        # relative to the cards root, '/'-separated (stable across machines)
    text: str
    name: str | None    # from the header, None if unreadable


@dataclass
class GameSet:
    name: str
    edition: str
    folder: Path
    manifest: dict
    sources: list[CardSource]       # card files, own and reused
    rules: list[CardSource]         # rules/*.inno: hooks

    @property
    def card_names(self) -> set[str]:
        return {s.name for s in self.sources if s.name}


@dataclass
class Edition:
    name: str
    folder: Path
    manifest: dict
    sources: list[CardSource]       # the edition's cards, then the sets' cards
    warnings: list[Diagnostic] = field(default_factory=list)   # see load_edition
    sets: list[GameSet] = field(default_factory=list)

    @property
    def card_names(self) -> set[str]:
        return {s.name for s in self.sources if s.name}

    @property
    def set_names(self) -> list[str]:
        return [s.name for s in self.sets]


def load_manifest(folder: Path, parent: dict | None = None) -> dict:
    """Read and validate an edition's manifest; an inheriting edition takes what it does not say from its parent."""
    path = folder / "edition.json"
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise CompileError([Diagnostic("E500", "no edition.json in this edition folder", str(path), Pos(0, 0))]) from None
    except json.JSONDecodeError as err:
        raise CompileError([Diagnostic("E500", f"edition.json is not valid JSON: {err.msg}", str(path),
                                       Pos(err.lineno, err.colno))]) from None
    if parent is not None and isinstance(data, dict):
        data = {**{k: v for k, v in parent.items() if k not in ("edition", "label", "inherit", "reuse")}, **data}
    errors = sorted(jsonschema.Draft202012Validator(schema("edition.schema.json")).iter_errors(data),
                    key=lambda e: list(e.absolute_path))
    if errors:
        raise CompileError([Diagnostic("E500", f"{'/'.join(map(str, e.absolute_path)) or '(top)'}: {e.message}",
                                       str(path), Pos(0, 0)) for e in errors])
    if sorted(data["splay_order"]) != sorted(data["splays"]):
        raise CompileError([Diagnostic("E500", f"splay_order {data['splay_order']} must rank exactly the splays "
                                       f"{sorted(data['splays'])}", str(path), Pos(0, 0))])
    return data


def _read_sources(folder: Path, root: Path) -> list[CardSource]:
    out = []
    for p in sorted(folder.rglob("*.inno")):
        raw = p.read_bytes()
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            text = raw.decode("utf-8", errors="replace")
        m = CARD_NAME_RE.search(text)
        out.append(CardSource(p, p.relative_to(root).as_posix(), text, m.group(1) if m else None))
    return out


def load_edition(name: str, root: Path | None = None, sets=()) -> Edition:
    edition = _load_edition(name, root)
    for set_name in normalise_sets(sets):
        game_set = load_set(set_name, edition.name)
        taken = edition.card_names & game_set.card_names
        if taken:
            raise CompileError([Diagnostic("E500", f"set '{set_name}' has a card named like one already in the game: "
                                                   f"{', '.join(sorted(taken))}", str(game_set.folder), Pos(0, 0))])
        for rule, value in game_set.manifest.get("overrides", {}).items():
            other = next((s for s in edition.sets if rule in s.manifest.get("overrides", {})
                          and s.manifest["overrides"][rule] != value), None)
            if other is not None:
                raise CompileError([Diagnostic(
                    "E500", f"sets '{other.name}' and '{set_name}' override the rule {rule} differently "
                            f"({other.manifest['overrides'][rule]!r}, {value!r}): they cannot be played together",
                    str(game_set.folder / "set.json"), Pos(0, 0))])
        edition.sets.append(game_set)
        edition.sources = edition.sources + game_set.sources
    for game_set in edition.sets:
        missing = [n for n in game_set.manifest.get("requires", []) if n not in edition.set_names]
        if missing:
            raise CompileError([Diagnostic(
                "E500", f"set '{game_set.name}' is played with set '{missing[0]}': add it "
                        f"(--sets {','.join(sorted(set(edition.set_names) | set(missing)))})",
                str(game_set.folder / "set.json"), Pos(0, 0))])
    return edition


def normalise_sets(sets) -> list[str]:
    """Set names as given on a command line ('echoes', 'echoes,cities' or a list), sorted, without repeats."""
    if isinstance(sets, str):
        sets = [sets]
    names = {str(n).strip().lower() for item in sets or () for n in str(item).split(",") if str(n).strip()}
    return sorted(names)


def _load_edition(name: str, root: Path | None = None, _chain: tuple = ()) -> Edition:
    name = normalise_edition(name)
    if name in _chain:
        raise CompileError([Diagnostic("E500", f"edition '{name}' inherits itself: {' -> '.join(_chain + (name,))}",
                                       "", Pos(0, 0))])
    folder = (root / name) if root else find_edition_folder(name)
    if folder is None or not (folder / "edition.json").exists():
        known = ", ".join(available_editions(root)) or "none"
        raise CompileError([Diagnostic("E500", f"unknown edition '{name}' (known: {known})",
                                       str(folder) if folder else "", Pos(0, 0))])
    root = folder.parent
    try:
        raw = json.loads((folder / "edition.json").read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError):
        raw = {}
    parent = None
    if isinstance(raw, dict) and isinstance(raw.get("inherit"), str):
        parent = _load_edition(raw["inherit"], _chain=_chain + (name,))
    manifest = load_manifest(folder, parent.manifest if parent else None)
    own = _read_sources(folder, root)
    sources = list(own)
    warnings: list[Diagnostic] = []
    if parent is not None:
        by_name = {s.name: s for s in parent.sources}
        mine = {s.name for s in own}
        reuse = manifest.get("reuse", [])
        if reuse == "all":        # an expansion: every card of the parent, plus its own
            reuse = [n for n in by_name if n not in mine]
            warnings = [Diagnostic("W500", f"this file replaces the card '{s.name}' that {name} inherits from "
                                           f"{parent.name}", str(s.path), Pos(1, 1), "if that is meant, list the "
                                           "other cards in 'reuse' instead of \"all\"; else rename the card",
                                   severity="warning")
                        for s in own if s.name in by_name]
        problems = [f"'{n}' is not a card of {parent.name}" for n in reuse if n not in by_name]
        problems += [f"'{n}' is both reused and given its own file" for n in reuse if n in mine]
        if problems:
            raise CompileError([Diagnostic("E500", p, str(folder / "edition.json"), Pos(0, 0)) for p in problems])
        sources += [by_name[n] for n in reuse]
    return Edition(name, folder, manifest, sources, warnings)


def edition_for_path(path: Path, root: Path | None = None) -> Path | None:
    """The edition folder a card file belongs to: the nearest ancestor with edition.json."""
    for parent in [path] + list(path.parents):
        if (parent / "edition.json").exists():
            return parent
    return None


# ---------------------------------------------------------------- sets

def find_set_folder(set_name: str, edition: str) -> Path | None:
    for r in card_roots():
        if (r / "sets" / set_name / edition / "set.json").exists():
            return r / "sets" / set_name / edition
    return None


def available_sets(edition: str | None = None) -> list[str]:
    """The sets that have a folder (for the edition, if given)."""
    pattern = f"sets/*/{normalise_edition(edition)}/set.json" if edition else "sets/*/*/set.json"
    return sorted({p.parent.parent.name for r in card_roots() for p in r.glob(pattern)})


def load_set_manifest(folder: Path, parent: dict | None = None) -> dict:
    path = folder / "set.json"
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise CompileError([Diagnostic("E500", "no set.json in this set folder", str(path), Pos(0, 0))]) from None
    except json.JSONDecodeError as err:
        raise CompileError([Diagnostic("E500", f"set.json is not valid JSON: {err.msg}", str(path),
                                       Pos(err.lineno, err.colno))]) from None
    if parent is not None and isinstance(data, dict):
        data = {**{k: v for k, v in parent.items() if k not in ("edition", "label", "inherit", "reuse")}, **data}
    errors = sorted(jsonschema.Draft202012Validator(schema("set.schema.json")).iter_errors(data),
                    key=lambda e: list(e.absolute_path))
    if not errors and "overrides" in data:      # edition rules, each checked by the edition rule's own schema
        rules = schema("edition.schema.json")["properties"]["rules"]
        errors = sorted(jsonschema.Draft202012Validator(rules).iter_errors(data["overrides"]),
                        key=lambda e: list(e.absolute_path))
        for e in errors:
            e.absolute_path.appendleft("overrides")
    if errors:
        raise CompileError([Diagnostic("E500", f"{'/'.join(map(str, e.absolute_path)) or '(top)'}: {e.message}",
                                       str(path), Pos(0, 0)) for e in errors])
    return data


def overridden_rules(edition_rules: dict, set_manifests) -> dict:
    """The rules of a game: the edition's, with what the sets in play override (each set's ``overrides``)."""
    rules = dict(edition_rules)
    for sm in set_manifests:
        rules.update(sm.get("overrides", {}))
    return rules


def load_set(set_name: str, edition: str, _chain: tuple = ()) -> GameSet:
    edition = normalise_edition(edition)
    if edition in _chain:
        raise CompileError([Diagnostic("E500", f"set '{set_name}' inherits itself: "
                                               f"{' -> '.join(_chain + (edition,))}",
                                       str(find_set_folder(set_name, _chain[-1]) or ""), Pos(0, 0))])
    folder = find_set_folder(set_name, edition)
    if folder is None:
        known = ", ".join(available_sets(edition)) or "none"
        raise CompileError([Diagnostic("E500", f"unknown set '{set_name}' for edition {edition} (known: {known})",
                                       "", Pos(0, 0))])
    root = folder.parent.parent.parent
    try:
        raw = json.loads((folder / "set.json").read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError):
        raw = {}
    parent = None
    if isinstance(raw, dict) and isinstance(raw.get("inherit"), str):
        parent = load_set(set_name, raw["inherit"], _chain + (edition,))
    manifest = load_set_manifest(folder, parent.manifest if parent else None)
    if manifest["set"] != set_name or manifest["edition"] != edition:
        raise CompileError([Diagnostic("E500", f"set.json says set '{manifest['set']}', edition "
                                               f"'{manifest['edition']}', but its folder is {set_name}/{edition}",
                                       str(folder / "set.json"), Pos(0, 0))])
    everything = _read_sources(folder, root)
    rules_dir = folder / "rules"
    rules = [s for s in everything if rules_dir in s.path.parents]
    own = [s for s in everything if rules_dir not in s.path.parents]
    sources = list(own)
    if parent is not None:
        by_name = {s.name: s for s in parent.sources}
        mine = {s.name for s in own}
        reuse = manifest.get("reuse", [])
        problems = [f"'{n}' is not a card of {set_name} {parent.edition}" for n in reuse if n not in by_name]
        problems += [f"'{n}' is both reused and given its own file" for n in reuse if n in mine]
        if problems:
            raise CompileError([Diagnostic("E500", p, str(folder / "set.json"), Pos(0, 0)) for p in problems])
        sources += [by_name[n] for n in reuse]
    return GameSet(set_name, edition, folder, manifest, sources, rules)


def with_required(sets, edition: str) -> list[str]:
    """The sets given and every set they need in play (manifest ``requires``), sorted: what checking a
    set's own file compiles it with."""
    names, todo = set(normalise_sets(sets)), list(normalise_sets(sets))
    while todo:
        folder = find_set_folder(todo.pop(), edition)
        try:
            needs = json.loads((folder / "set.json").read_text(encoding="utf-8")).get("requires", []) if folder else []
        except (OSError, json.JSONDecodeError, AttributeError):
            needs = []
        for n in needs if isinstance(needs, list) else []:
            if isinstance(n, str) and n not in names:
                names.add(n)
                todo.append(n)
    return normalise_sets(sorted(names))


def set_for_path(path: Path) -> Path | None:
    """The set folder a card or rules file belongs to: the nearest ancestor with set.json."""
    for parent in [path] + list(path.parents):
        if (parent / "set.json").exists():
            return parent
    return None
