"""Input checks for scenario files, so a hostile or careless file gets an error
naming the file and the position, never a traceback.

``load`` reads YAML (or JSON) with a size limit, no anchors or aliases (a few
aliased lines can stand for billions of nodes) and a depth limit, and keeps
the line and column of every node.  ``check`` then tests what the schema
cannot: players against the edition, card names, colours, ages, splays and
special achievements, each error at its place in the file.
"""
from __future__ import annotations

import json

import yaml

from innoscript.core.diagnostics import suggest

MAX_BYTES = 1 << 20
MAX_DEPTH = 40


class _Loader(yaml.SafeLoader):
    """Safe YAML without anchors/aliases, failing at a depth instead of recursing without end."""

    def compose_node(self, parent, index):
        event = self.peek_event()
        if isinstance(event, yaml.AliasEvent):
            raise yaml.MarkedYAMLError(problem="aliases (*name) are not allowed in scenario files",
                                       problem_mark=event.start_mark)
        if getattr(event, "anchor", None):
            raise yaml.MarkedYAMLError(problem="anchors (&name) are not allowed in scenario files",
                                       problem_mark=event.start_mark)
        self._depth = getattr(self, "_depth", 0) + 1
        try:
            if self._depth > MAX_DEPTH:
                raise yaml.MarkedYAMLError(problem=f"nested more than {MAX_DEPTH} levels deep",
                                           problem_mark=event.start_mark)
            return super().compose_node(parent, index)
        finally:
            self._depth -= 1


class Marks(dict):
    """Document path (a tuple of keys and indexes) -> (line, column), 1-based."""

    def at(self, where: tuple) -> tuple[int, int] | None:
        where = tuple(where)
        while where not in self and where:
            where = where[:-1]
        return self.get(where)


def _marks(node) -> Marks:
    out = Marks()
    work = [((), node)]
    while work:
        where, n = work.pop()
        out[where] = (n.start_mark.line + 1, n.start_mark.column + 1)
        if isinstance(n, yaml.MappingNode):
            for k, v in n.value:
                key = k.value
                out[where + (key,)] = (k.start_mark.line + 1, k.start_mark.column + 1)
                work.append((where + (key,), v))
        elif isinstance(n, yaml.SequenceNode):
            work += [(where + (i,), v) for i, v in enumerate(n.value)]
    return out


def load(text: str, is_json: bool):
    """(data, marks) of a scenario's text; raise ValueError with a one-line reason."""
    if len(text.encode("utf-8", "replace")) > MAX_BYTES:
        raise ValueError(f"the file is larger than {MAX_BYTES // 1024} KiB")
    if text.startswith("\ufeff"):
        text = text[1:]
    try:
        if is_json:
            data = json.loads(text)
            _check_depth(data)
            try:
                return data, _marks(yaml.compose(text, Loader=_Loader))
            except yaml.YAMLError:    # valid JSON that YAML 1.1 reads otherwise: no positions
                return data, Marks()
        loader = _Loader(text)
        try:
            node = loader.get_single_node()
            data = loader.construct_document(node) if node is not None else None
        finally:
            loader.dispose()
    except json.JSONDecodeError as err:
        raise ValueError(f"{err.lineno}:{err.colno}: not valid JSON: {err.msg}") from None
    except RecursionError:
        raise ValueError(f"nested more than {MAX_DEPTH} levels deep") from None
    except yaml.YAMLError as err:
        mark = getattr(err, "problem_mark", None)
        if mark is None:
            raise ValueError(f"not valid YAML: {' '.join(str(err).split())}") from None
        raise ValueError(f"{mark.line + 1}:{mark.column + 1}: not valid YAML: {err.problem}") from None
    return data, (_marks(node) if node is not None else Marks())


def _check_depth(data) -> None:
    work = [(data, 1)]
    while work:
        v, d = work.pop()
        if d > MAX_DEPTH:
            raise ValueError(f"nested more than {MAX_DEPTH} levels deep")
        if isinstance(v, dict):
            work += [(x, d + 1) for x in v.values()]
        elif isinstance(v, list):
            work += [(x, d + 1) for x in v]


class Problem(Exception):
    def __init__(self, where: tuple, message: str):
        self.where, self.message = tuple(where), message
        super().__init__(message)


def _names(value, where, cards, specials_ok=False):
    if not isinstance(value, list):
        return
    for i, name in enumerate(value):
        if not isinstance(name, str):
            continue     # the schema says what is wrong with it
        if specials_ok and name in cards.specials:
            continue
        if name not in cards.by_name:
            hint = suggest(str(name), cards.by_name)
            raise Problem(where + (i,), f"unknown card {name!r}" + (f"; did you mean {hint!r}?" if hint else ""))


def check(data: dict, cards) -> None:
    """Raise Problem at the first impossible value the schema lets through."""
    m = cards.manifest
    n = data["players"]
    lo, hi = m["players"]["min"], m["players"]["max"]
    if not lo <= n <= hi:
        raise Problem(("players",), f"edition {data['edition']} is for {lo}-{hi} players, not {n}")
    if data.get("active", 1) > n:
        raise Problem(("active",), f"player {data['active']} does not exist in a {n}-player game")
    ages = {str(a) for a in cards.ages}
    setup = data.get("setup", {})
    if len(setup.get("players", [])) > n:
        raise Problem(("setup", "players", n), f"set-up describes more players than the scenario's {n}")
    for p, spec in enumerate(setup.get("players", [])):
        base = ("setup", "players", p)
        for zone in ("hand", "score", "revealed"):
            _names(spec.get(zone), base + (zone,), cards)
        _names(spec.get("achievements"), base + ("achievements",), cards, specials_ok=True)
        for color, pile in spec.get("board", {}).items():
            if color not in cards.colors:
                raise Problem(base + ("board", color), f"unknown colour {color!r} (colours: {', '.join(cards.colors)})")
            names = pile if isinstance(pile, list) else pile.get("cards", [])
            at = base + ("board", color) + (() if isinstance(pile, list) else ("cards",))
            _names(names, at, cards)
            for i, name in enumerate(names):
                if cards.color[cards.by_name[name]] != color:
                    raise Problem(at + (i,), f"{name!r} is {cards.color[cards.by_name[name]]}, not {color}")
            splay = "none" if isinstance(pile, list) else pile.get("splay", "none")
            if splay not in cards.splay_positions:
                raise Problem(base + ("board", color, "splay"), f"unknown splay {splay!r}")
    for key in ("supply", "supply_bottom", "supply_exact"):
        for age, names in (setup.get(key) or {}).items():
            if str(age) not in ages:
                raise Problem(("setup", key, age), f"there is no age {age} in edition {data['edition']}")
            _names(names, ("setup", key, age), cards)
            for i, name in enumerate(names):
                if str(cards.age[cards.by_name[name]]) != str(age):
                    raise Problem(("setup", key, age, i), f"{name!r} is age {cards.age[cards.by_name[name]]}, not {age}")
    for i, age in enumerate(setup.get("empty_ages", []) if isinstance(setup.get("empty_ages"), list) else []):
        if str(age) not in ages:
            raise Problem(("setup", "empty_ages", i), f"there is no age {age} in edition {data['edition']}")
    for key in ("available", "junk"):
        _names(setup.get(key), ("setup", key), cards)
    for zone, names in (setup.get("zones") or {}).items():     # the sets' game-wide zones
        if zone not in cards.shared_zones:
            raise Problem(("setup", "zones", zone), f"no game-wide zone {zone!r} in this game "
                                                    f"(the sets in play declare {sorted(cards.shared_zones) or 'none'})")
        _names(names, ("setup", "zones", zone), cards)
    for key in ("specials", "junk_specials"):
        for i, name in enumerate(setup.get(key, []) or []):
            if name not in cards.specials:
                raise Problem(("setup", key, i), f"unknown special achievement {name!r}")
    seen: dict[str, tuple] = {}
    places = [(("setup", "players", p, zone), spec.get(zone)) for p, spec in enumerate(setup.get("players", []))
              for zone in ("hand", "score", "revealed", "achievements")]
    places += [(("setup", "players", p, "board", c) + (() if isinstance(pile, list) else ("cards",)),
                pile if isinstance(pile, list) else pile.get("cards"))
               for p, spec in enumerate(setup.get("players", [])) for c, pile in spec.get("board", {}).items()]
    places += [(("setup", key, age), names) for key in ("supply", "supply_bottom", "supply_exact")
               for age, names in (setup.get(key) or {}).items()]
    places += [(("setup", key), setup.get(key)) for key in ("available", "junk")]
    places += [(("setup", "zones", zone), names) for zone, names in (setup.get("zones") or {}).items()]
    for at, names in places:
        for i, name in enumerate(names or []):
            if name in cards.specials:
                continue
            if name in seen:
                raise Problem(at + (i,), f"{name!r} is placed twice (also at {'/'.join(map(str, seen[name]))})")
            seen[name] = at + (i,)
    actions = data["do"] if isinstance(data["do"], list) else [data["do"]]
    for i, act in enumerate(actions):
        for verb in ("dogma", "meld"):
            if verb in act:
                at = ("do",) + ((i,) if isinstance(data["do"], list) else ()) + (verb,)
                try:
                    _names([act[verb]], at, cards)
                except Problem as err:
                    raise Problem(at, err.message) from None
    claimed = [a for spec in setup.get("players", []) for a in spec.get("achievements", []) if a in cards.specials]
    twice = sorted({a for a in claimed if claimed.count(a) > 1})
    if twice:
        raise Problem(("setup", "players"), f"special achievement {twice[0]!r} is given to more than one place")
    expect = data.get("expect", {})
    if len(expect.get("players", [])) > n:
        raise Problem(("expect", "players", n), f"expectations for more players than the scenario's {n}")
    for p, spec in enumerate(expect.get("players", [])):
        for color in spec.get("board", {}):
            if color not in cards.colors:
                raise Problem(("expect", "players", p, "board", color), f"unknown colour {color!r}")
    for age in expect.get("supply_top", {}) or {}:
        if str(age) not in ages:
            raise Problem(("expect", "supply_top", age), f"there is no age {age} in edition {data['edition']}")
