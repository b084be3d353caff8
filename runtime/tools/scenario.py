"""Scenario files: a game position, an action, the answers to its decisions,
and the expected position afterwards (format: docs/scenarios.md, schema:
innoscript/core/schemas/scenario.schema.json).

Cards are named, not numbered, so the files read like a rules question and
any other engine could run them.  Every card not placed by the scenario
stays in the supply, each age's pile in card-id order under the cards the
scenario puts on top.  Version 2 adds keys (V2_KEYS) and answers that say
what they answer; a version-1 file means exactly what it always did.
"""
from __future__ import annotations

import copy
import json
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import jsonschema

from innoscript.compiler.bundle import load_bundle
from innoscript.core.diagnostics import CompileError, suggest
from innoscript.core.editions import schema
from ..machine.expressions import points
from ..machine.faults import RuntimeFault
from ..rules.engine import Engine, IllegalAnswer
from ..rules.options import OptionsError, normalise as normalise_options
from ..state import teams
from ..state.cards import Cards
from ..state.positions import new_state, place, remove_from_anywhere, supply_pile
from ..state.board import locate
from . import scenario_check


class ScenarioError(Exception):
    """The scenario file itself is wrong (schema, unknown card, impossible set-up)."""


@dataclass
class Outcome:
    path: str
    name: str
    passed: bool
    failures: list[str] = field(default_factory=list)
    engine: Engine | None = None
    events: list[dict] = field(default_factory=list)

    def effects_run(self) -> set[tuple[int, int]]:
        """(card id, effect index) of every effect the scenario ran."""
        return {(e["card"], e["effect"]) for e in self.events if e["type"] == "effect"}


_READ: dict = {}   # (as JSON?, text) -> the checked data: the tools read the same files many times in one process


def read(path: str | Path) -> dict:
    """A scenario file's data, checked against the schema; ScenarioError naming the file, line and column."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as err:
        raise ScenarioError(f"{path}: cannot read: {err}") from None
    key = (path.suffix not in (".yaml", ".yml"), text)
    if key in _READ:
        return copy.deepcopy(_READ[key])    # a copy: running a scenario may change its data
    data = _read(path, text)
    if len(_READ) >= 4096:
        _READ.clear()
    _READ[key] = copy.deepcopy(data)
    return data


def _read(path: Path, text: str) -> dict:
    try:
        data, marks = scenario_check.load(text, path.suffix not in (".yaml", ".yml"))
    except ValueError as err:
        raise ScenarioError(f"{path}:{err}" if str(err)[:1].isdigit() else f"{path}: {err}") from None
    err = jsonschema.exceptions.best_match(jsonschema.Draft202012Validator(schema("scenario.schema.json")).iter_errors(data))
    if err is not None:
        raise ScenarioError(f"{_at(path, marks, err.absolute_path)}{'/'.join(map(str, err.absolute_path)) or '(top)'}: "
                            f"{_short(err.message)}")
    if data.get("version", 1) < 2:
        used = _v2_keys_used(data)
        if used:
            raise ScenarioError(f"{path}: {used[0]} is a version-2 key; add 'version: 2' to the file")
    return data


def _at(path, marks, where) -> str:
    """'file:line:column: ' of a place in a scenario file (as near as the file lets us)."""
    pos = marks.at(tuple(where)) if marks else None
    return f"{path}:{pos[0]}:{pos[1]}: " if pos else f"{path}: "


def _short(text: str, limit: int = 200) -> str:
    return text if len(text) <= limit else text[:limit] + "..."


def check(path, data: dict, bundle: dict) -> None:
    """What the schema cannot say (runtime/tools/scenario_check.py), at its place in the file."""
    try:
        scenario_check.check(data, Cards(bundle))
    except scenario_check.Problem as err:
        raise _problem(path, err.where, err.message) from None


def _problem(path, where: tuple, message: str) -> ScenarioError:
    try:
        _, marks = scenario_check.load(Path(path).read_text(encoding="utf-8"), Path(path).suffix not in (".yaml", ".yml"))
    except (OSError, ValueError):
        marks = None
    return ScenarioError(f"{_at(path, marks, where)}{'/'.join(map(str, where))}: {message}")


# Keys that only a version-2 file may use (a version-1 file keeps its old meaning).
V2_KEYS = {
    "setup": ("supply_bottom", "supply_exact", "standard_achievements"),
    "expect": ("supply_bottom", "supply", "empty_ages", "standard_achievements", "refused"),
}
# Answers that say what they answer: the key, and the decisions it can answer.
TYPED_ANSWERS = {
    "cards": ("select_cards", "order", "initial_meld"),
    "yes_no": ("yes_no",),
    "color": ("choose:color", "splay_color"),
    "colors": ("choose:two_colors",),
    "value": ("choose:value",),
    "player": ("choose:player",),
    "icon": ("choose:icon",),
    "set": ("choose:set",),
    "deck": ("choose:deck",),
    "option": ("choose_option",),
    "decline": (),   # any decision that may be declined
}


def _v2_keys_used(data: dict) -> list[str]:
    used = [f"{part}/{k}" for part, keys in V2_KEYS.items() for k in keys if k in data.get(part, {})]
    for p, spec in enumerate(data.get("expect", {}).get("players", [])):
        used += [f"expect/players/{p}/board/{c}/top" for c, pile in spec.get("board", {}).items()
                 if isinstance(pile, dict) and "top" in pile]
    for age, want in data.get("expect", {}).get("supply_top", {}).items():
        if isinstance(want, dict):
            used.append(f"expect/supply_top/{age}/any_order")
    used += [f"answers/{i}" for i, a in enumerate(data.get("answers", [])) if _typed(a)]
    return used


def _typed(raw) -> str | None:
    """The key of an answer that says what it answers, or None for a bare (positional) answer."""
    if not isinstance(raw, dict):
        return None
    keys = [k for k in TYPED_ANSWERS if k in raw]
    if len(keys) == 1 and set(raw) <= {keys[0], "by", "if_asked", "source"}:
        return keys[0]
    return None


class _Builder:
    def __init__(self, cards: Cards, path: str):
        self.cards, self.path = cards, path

    def cid(self, name) -> int:
        if name not in self.cards.by_name:
            hint = suggest(str(name), self.cards.by_name)
            raise ScenarioError(f"{self.path}: unknown card {name!r}" + (f"; did you mean {hint!r}?" if hint else ""))
        return self.cards.by_name[name]


def build_state(data: dict, bundle: dict, path: str = "<scenario>", info: dict | None = None) -> Engine:
    """The scenario's position; ``info`` (if given) receives what the set-up chose itself
    (``standard``: the card ids made standard achievements)."""
    cards = Cards(bundle)
    b = _Builder(cards, path)
    n = data["players"]
    try:
        options = normalise_options(data.get("options"), n)
    except OptionsError as err:
        raise ScenarioError(f"{path}: {err}") from None
    state = new_state(cards, [f"Player {i + 1}" for i in range(n)], data.get("seed", 0), options=options)
    state.update(teams.setup(options, data.get("seed", 0)))
    for age in cards.ages:
        state["supply"][str(age)] = [c["id"] for c in cards.cards if c["age"] == age and cards.set[c["id"]] == "base"]
    for name in cards.set_names:      # every age of the set has its pile, as in a dealt game (empty without cards)
        for age in sorted(set(cards.bundle["sets"][name]["manifest"]["ages"])
                          | {cards.age[c] for c in range(len(cards.cards)) if cards.set[c] == name}):
            state["set_supply"][name][str(age)] = [c for c in range(len(cards.cards))
                                                   if cards.age[c] == age and cards.set[c] == name]
    for zone, spec in cards.shared_zones.items():   # the cards a set's game-wide zone starts with
        for name in spec.get("cards", ()):
            remove_from_anywhere(state, cards.by_name[name])
            state["zones"][zone].append(cards.by_name[name])
    for cid in cards.removed_at_setup:              # the cards a set takes out at set-up
        remove_from_anywhere(state, cid)
        place(cards, state, cid, "removed", None)
    setup = data.get("setup", {})
    placed: set[int] = set()

    def take(name) -> int:
        cid = b.cid(name)
        if cid in placed:
            raise ScenarioError(f"{path}: {name!r} is placed twice")
        placed.add(cid)
        remove_from_anywhere(state, cid)
        return cid

    for p, spec in enumerate(setup.get("players", [])):
        if p >= n:
            raise ScenarioError(f"{path}: set-up describes more players than the scenario's {n}")
        pl = state["players"][p]
        for zone in ("hand", "score", "revealed"):
            for name in spec.get(zone, []):
                cid = take(name)
                pl["hand" if zone == "revealed" else zone].append(cid)   # a revealed card is shown in the hand
                if zone == "revealed":
                    pl["revealed"].append(cid)
        for zone, names in spec.get("zones", {}).items():
            if zone not in cards.zones:
                raise ScenarioError(f"{path}: player {p + 1}: no zone {zone!r} in this game "
                                    f"(the sets in play declare {sorted(cards.zones) or 'none'})")
            for name in names:
                pl["zones"][zone].append(take(name))
        for name in spec.get("achievements", []):
            if name in cards.specials:
                state["available"]["special"].remove(name)
                pl["achievements"].append(name)
            else:
                pl["achievements"].append(take(name))
        for color, pile in spec.get("board", {}).items():
            if color not in cards.colors:
                raise ScenarioError(f"{path}: player {p}: unknown colour {color!r}")
            names, splay = (pile, "none") if isinstance(pile, list) else (pile["cards"], pile.get("splay", "none"))
            for name in names:
                cid = take(name)
                if cards.color[cid] != color:
                    raise ScenarioError(f"{path}: {name!r} is {cards.color[cid]}, not {color}")
                pl["board"][color]["cards"].append(cid)
            if splay not in cards.splay_positions:
                raise ScenarioError(f"{path}: unknown splay {splay!r}")
            pl["board"][color]["splay"] = splay if len(names) >= 2 else "none"
    for zone, names in setup.get("zones", {}).items():    # the sets' game-wide zones, oldest first
        if zone not in cards.shared_zones:
            raise ScenarioError(f"{path}: set-up: no game-wide zone {zone!r} in this game "
                                f"(the sets in play declare {sorted(cards.shared_zones) or 'none'})")
        for name in names:
            state["zones"][zone].append(take(name))

    def take_of_age(name, age) -> int:
        cid = take(name)
        if str(cards.age[cid]) != str(age):
            raise ScenarioError(f"{path}: {name!r} is age {cards.age[cid]}, not {age}")
        return cid

    def pile_of(cid) -> list:   # a set's card goes on its own set's pile
        return supply_pile(state, cards.set[cid], str(cards.age[cid]))

    for age, names in setup.get("supply", {}).items():
        for name in reversed(names):
            cid = take_of_age(name, age)
            pile_of(cid).insert(0, cid)
    for age, names in setup.get("supply_bottom", {}).items():
        for name in names:
            cid = take_of_age(name, age)
            pile_of(cid).append(cid)
    for age, names in setup.get("supply_exact", {}).items():
        if str(age) in setup.get("supply", {}) or str(age) in setup.get("supply_bottom", {}):
            raise ScenarioError(f"{path}: age {age} is given by supply_exact and also by supply or supply_bottom")
        for name in reversed(names):
            state["supply"][str(age)].insert(0, take_of_age(name, age))
    for name in setup.get("available", []):
        state["available"]["standard"].append(take(name))
    standard = [c for c in state["available"]["standard"]]
    # Standard achievements by age: a card of that age that the scenario does not name (the bottom one).
    for where, ages in sorted(setup.get("standard_achievements", {}).items()):
        for age in ages:
            pile = state["supply"].get(str(age))
            if pile is None:
                raise ScenarioError(f"{path}: standard_achievements: no age {age} in this edition")
            free = [c for c in pile if c not in placed]
            if not free:
                raise ScenarioError(f"{path}: standard_achievements: every age-{age} card is placed by the scenario")
            cid = free[-1]
            placed.add(cid)
            remove_from_anywhere(state, cid)
            place(cards, state, cid, "available" if where == "available" else "junk", None)
            standard.append(cid)
    for age in list(setup.get("empty_ages", [])) + [int(a) for a in setup.get("supply_exact", {})]:
        if str(age) not in state["supply"]:
            raise ScenarioError(f"{path}: no age {age} in this edition")
        for cid in list(state["supply"][str(age)]):
            if cid not in placed:
                remove_from_anywhere(state, cid)
                place(cards, state, cid, "removed", None)
    for set_name, ages in setup.get("empty_set_ages", {}).items():
        if set_name not in cards.set_names:
            raise ScenarioError(f"{path}: empty_set_ages: set {set_name!r} is not in play (sets: {cards.set_names})")
        for age in ages:
            pile = state["set_supply"][set_name].get(str(age))
            if pile is None:
                raise ScenarioError(f"{path}: empty_set_ages: set {set_name} has no age {age}")
            for cid in list(pile):
                if cid not in placed:
                    remove_from_anywhere(state, cid)
                    place(cards, state, cid, "removed", None)
    if info is not None:
        info["standard"] = standard
    if "specials" in setup:
        state["available"]["special"] = [s for s in setup["specials"]]
    for name in setup.get("junk_specials", []):
        if name not in cards.specials:
            raise ScenarioError(f"{path}: unknown special achievement {name!r}")
        if name in state["available"]["special"]:
            state["available"]["special"].remove(name)
        state["junk_special"].append(name)
    for name in setup.get("junk", []):
        state["junk"].append(take(name))
    turn = state["turn"]
    turn.update(number=data.get("turn", 5), active=data.get("active", 1) - 1, actions_left=data.get("actions_left", 2))
    state["phase"] = "action"
    return Engine(bundle, state)


def _to_answer(engine: Engine, pending: dict, raw, path: str):
    cards = engine.cards
    kind = pending["kind"]
    b = _Builder(cards, path)
    if kind in ("select_cards", "order"):
        raw = raw if isinstance(raw, list) else [raw]
        # special achievements are named, not cards
        return [b.cid(x) if isinstance(x, str) and x not in cards.specials else x for x in raw]
    if kind == "initial_meld":
        return b.cid(raw)
    if kind == "action":
        return action(engine, raw, path)
    if kind == "choose" and pending.get("what") == "two_colors":
        return list(raw)
    if kind == "choose" and pending.get("what") == "player" and isinstance(raw, str) and raw.startswith("player "):
        return int(raw.split()[1]) - 1
    return raw


def action(engine: Engine, raw: dict, path: str) -> dict:
    b = _Builder(engine.cards, path)
    if "dogma" in raw:
        return {"type": "dogma", "card": b.cid(raw["dogma"])}
    if "meld" in raw:
        cid = b.cid(raw["meld"])
        zone = locate(engine.state, cid)[0]
        # a card in one of the player's set zones (a display, a forecast) is melded from there, if a zone allows it
        return {"type": "meld", "card": cid, **({"from": zone} if zone in engine.cards.zones else {})}
    if "achieve" in raw:
        return {"type": "achieve", "age": raw["achieve"]}
    if "set_action" in raw:
        [(name, card)] = raw["set_action"].items()
        return {"type": "set_action", "action": name, "card": b.cid(card)}
    return {"type": "draw"}


def run(path: str | Path, bundle: dict | None = None, trace: set | None = None) -> Outcome:
    path = str(path)
    data = read(path)
    if bundle is None:
        try:
            bundle = load_bundle(data["edition"], sets=data["sets"]) if data.get("sets") else load_bundle(data["edition"])
        except CompileError as err:
            raise _problem(path, ("edition",), err.diagnostics[0].message) from None
    if sorted(data.get("sets", [])) != sorted(bundle.get("sets", {})):
        raise _problem(path, ("sets",), f"the scenario's sets {sorted(data.get('sets', []))} are not the bundle's "
                                        f"{sorted(bundle.get('sets', {}))}")
    check(path, data, bundle)
    try:
        return _run(path, data, bundle, trace)
    except (KeyError, IndexError, ValueError, TypeError, AttributeError, RecursionError) as err:
        # a safety net: whatever the checks above missed is still the file's fault, not a crash
        raise ScenarioError(f"{path}: the scenario cannot be run: {type(err).__name__}: {_short(str(err))}") from None


def _run(path: str, data: dict, bundle: dict, trace: set | None) -> Outcome:
    info: dict = {}
    engine = build_state(data, bundle, path, info)
    engine.trace = trace
    out = Outcome(path, data.get("name", Path(path).stem), True)
    answers = list(data.get("answers", []))
    expect = data.get("expect", {})
    events: list[dict] = []
    actions = data["do"] if isinstance(data["do"], list) else [data["do"]]
    refusal: list[str] = []   # the refusal, when the scenario expects one

    def attempt(value, label, left: int) -> bool:
        """Answer; on a refusal, fail the scenario unless it expects this refusal (the last step)."""
        nonlocal events
        before = json.dumps(engine.state, sort_keys=True) if "refused" in expect else None
        try:
            events += engine.answer(value)
            return True
        except IllegalAnswer as err:
            what = label()
            if "refused" not in expect:
                out.failures.append(f"{what} was refused: {err}")
            elif left:
                out.failures.append(f"{what} was refused, but {left} more step(s) follow it: {err}")
            elif json.dumps(engine.state, sort_keys=True) != before:
                out.failures.append(f"{what} was refused but the state changed")
            else:
                refusal.append(str(err))
            return False

    engine.advance()
    try:
        for i, act in enumerate(actions):
            if engine.over:
                out.failures.append("the game ended before every action was taken")
                break
            pending = engine.pending
            if pending is None or pending["kind"] != "action":
                out.failures.append(f"expected an action decision, found {pending and pending['kind']}")
                break
            if i == 0:
                out.failures += _check_legal(engine, expect, path)
            left = len(actions) - i - 1 + _required(answers)
            if not attempt(action(engine, act, path), lambda: f"action {act!r}", left):
                break
            while not engine.over and engine.pending["kind"] != "action":
                pending = engine.pending
                raw = _next_answer(engine, pending, answers, path, out.failures)
                if raw is None:
                    break
                value, raw = raw
                left = len(actions) - i - 1 + _required(answers)
                if not attempt(value, lambda: f"answer {raw!r} to {describe(engine, pending)}", left):
                    break
            if out.failures or refusal:
                break
    except RuntimeFault as err:
        out.failures.append(f"runtime fault: {err}")
    if _required(answers) and not out.failures and not refusal:
        out.failures.append(f"{_required(answers)} answer(s) left over: {[a for a in answers if not _skippable(a)]}")
    if "refused" in expect and not out.failures:
        want = expect["refused"]
        if not refusal:
            out.failures.append("expected the last action or answer to be refused, but it was accepted")
        elif isinstance(want, str) and want.lower() not in refusal[0].lower():
            out.failures.append(f"refused for another reason: expected {want!r} in {refusal[0]!r}")
    if not out.failures:
        out.failures += compare(engine, expect, events, info)
    out.passed = not out.failures
    out.engine = engine
    out.events = events
    return out


def _skippable(raw) -> bool:
    return _typed(raw) is not None and bool(raw.get("if_asked"))


def _required(answers: list) -> int:
    return sum(not _skippable(a) for a in answers)


def _fits(kind: str, pending: dict) -> bool:
    if kind == "decline":
        return pending["kind"] != "action"
    what = f"{pending['kind']}:{pending.get('what')}" if pending["kind"] == "choose" else pending["kind"]
    return what in TYPED_ANSWERS[kind]


def _next_answer(engine: Engine, pending: dict, answers: list, path: str, failures: list):
    """(engine value, raw answer) for the pending decision, or None with a failure recorded."""
    while answers:
        raw = answers[0]
        kind = _typed(raw)
        if kind is None:
            answers.pop(0)
            if isinstance(raw, dict) and set(raw) == {"player", "answer"}:
                if pending["player"] != raw["player"] - 1:
                    failures.append(f"{describe(engine, pending)} is not for player {raw['player']}")
                    return None
                raw = raw["answer"]
            return _to_answer(engine, pending, raw, path), raw
        fits = (_fits(kind, pending) and raw.get("by", pending["player"] + 1) == pending["player"] + 1
                and raw.get("source", pending.get("source")) == pending.get("source"))
        if not fits and raw.get("if_asked"):
            answers.pop(0)      # the engine did not ask this one
            continue
        if not fits:
            failures.append(f"answer {raw!r} does not answer the decision asked: {describe(engine, pending)}")
            return None
        answers.pop(0)
        return _typed_value(engine, pending, kind, raw[kind], path), raw
    failures.append(f"unanswered decision: {describe(engine, pending)}")
    return None


def _typed_value(engine: Engine, pending: dict, kind: str, v, path: str):
    """The engine's value for an answer that says what it answers."""
    if kind == "decline":
        return {"yes_no": False, "select_cards": []}.get(pending["kind"])
    if kind == "cards":
        if pending["kind"] == "initial_meld" and isinstance(v, list) and len(v) == 1:
            v = v[0]
        return _to_answer(engine, pending, v, path)
    if kind == "player":
        return v - 1
    if kind == "option":
        return v - 1
    if kind == "colors":
        return list(v)
    return v


def _check_legal(engine: Engine, expect: dict, path: str) -> list[str]:
    legal = engine.legal_actions()
    fails = []
    for act in expect.get("legal", []):
        if action(engine, act, path) not in legal:
            fails.append(f"action {act} should be legal before the first action")
    for act in expect.get("not_legal", []):
        if action(engine, act, path) in legal:
            fails.append(f"action {act} should not be legal before the first action")
    return fails


def describe(engine: Engine, pending: dict) -> str:
    cards = engine.cards
    opts = [cards.name[o] if pending["kind"] in ("select_cards", "order", "initial_meld") and isinstance(o, int) else o
            for o in pending["options"]]
    src = f" ({pending['source']})" if pending.get("source") else ""
    return f"player {pending['player'] + 1} {pending['kind']}{src} from {opts} (min {pending['min']}, max {pending['max']})"


def compare(engine: Engine, expect: dict, events: list[dict], info: dict | None = None) -> list[str]:
    cards = engine.cards
    st = engine.state
    fails: list[str] = []

    def names(ids):
        return [cards.name[c] if isinstance(c, int) else c for c in ids]

    for p, spec in enumerate(expect.get("players", [])):
        pl = st["players"][p]
        for zone in ("hand", "score", "achievements", "revealed"):
            if zone in spec:
                got = names(pl[zone])
                if Counter(got) != Counter(spec[zone]):
                    fails.append(f"player {p + 1} {zone}: expected {sorted(spec[zone])}, got {sorted(got)}")
        for color, pile in spec.get("board", {}).items():
            want, splay = (pile, None) if isinstance(pile, list) else (pile.get("cards"), pile.get("splay"))
            got = names(pl["board"][color]["cards"])
            if want is not None and got != want:
                fails.append(f"player {p + 1} {color} pile: expected {want}, got {got}")
            if isinstance(pile, dict) and "top" in pile:
                fails += _slice(f"player {p + 1} {color} pile", got, pile["top"], "top")
            if splay is not None and pl["board"][color]["splay"] != splay:
                fails.append(f"player {p + 1} {color} splay: expected {splay}, got {pl['board'][color]['splay']}")
        for key in ("hand_count", "score_count"):
            if key in spec:
                zone = key[:-6]
                if len(pl[zone]) != spec[key]:
                    fails.append(f"player {p + 1} {zone}: expected {spec[key]} cards, got {len(pl[zone])}")
        if "points" in spec:
            got = sum(cards.age[c] for c in pl["score"])
            if got != spec["points"]:
                fails.append(f"player {p + 1} points: expected {spec['points']}, got {got}")
        if "total_points" in spec and points(cards, st, p) != spec["total_points"]:
            fails.append(f"player {p + 1} score: expected {spec['total_points']}, got {points(cards, st, p)}")
        for zone, want in spec.get("zones", {}).items():
            got = names(pl.get("zones", {}).get(zone, []))
            if Counter(got) != Counter(want):
                fails.append(f"player {p + 1} {zone}: expected {sorted(want)}, got {sorted(got)}")
        for zone, want in spec.get("zone_counts", {}).items():
            got = len(pl.get("zones", {}).get(zone, []))
            if got != want:
                fails.append(f"player {p + 1} {zone}: expected {want} cards, got {got}")
    for zone, want in expect.get("zones", {}).items():     # the sets' game-wide zones
        got = names(st.get("zones", {}).get(zone, []))
        if Counter(got) != Counter(want):
            fails.append(f"the {zone}: expected {sorted(want)}, got {sorted(got)}")
    for zone in ("junk", "removed"):
        if zone in expect and Counter(names(st[zone])) != Counter(expect[zone]):
            fails.append(f"{zone}: expected {sorted(expect[zone])}, got {sorted(names(st[zone]))}")
    for age, want in expect.get("supply_top", {}).items():
        fails += _slice(f"age {age} pile", names(st["supply"].get(str(age), [])), want, "top")
    for age, want in expect.get("supply_bottom", {}).items():
        fails += _slice(f"age {age} pile", names(st["supply"].get(str(age), [])), want, "bottom")
    for age, want in expect.get("supply", {}).items():
        fails += _slice(f"age {age} pile", names(st["supply"].get(str(age), [])), want, "all")
    for set_name, ages in expect.get("set_supply", {}).items():
        for age, want in ages.items():
            pile = st.get("set_supply", {}).get(set_name, {}).get(str(age), [])
            fails += _slice(f"{set_name} age {age} pile", names(pile), want, "all")
    for age in expect.get("empty_ages", []):
        if st["supply"].get(str(age)):
            fails.append(f"age {age} pile: expected empty, got {names(st['supply'][str(age)])}")
    if "standard_achievements" in expect:
        standard = set((info or {}).get("standard", []))
        spec = expect["standard_achievements"]
        got = {"available": [cards.age[c] for c in st["available"]["standard"]],
               "junk": [cards.age[c] for c in st["junk"] if c in standard]}
        for where in ("available", "junk"):
            if where in spec and Counter(got[where]) != Counter(spec[where]):
                fails.append(f"standard achievements {where}: expected ages {sorted(spec[where])}, "
                             f"got {sorted(got[where])}")
    if "junk_specials" in expect and Counter(st["junk_special"]) != Counter(expect["junk_specials"]):
        fails.append(f"special achievements in the junk: expected {sorted(expect['junk_specials'])}, "
                     f"got {sorted(st['junk_special'])}")
    if "specials" in expect and Counter(st["available"]["special"]) != Counter(expect["specials"]):
        fails.append(f"available special achievements: expected {sorted(expect['specials'])}, "
                     f"got {sorted(st['available']['special'])}")
    if "winners" in expect:
        got = st["result"]["winners"] if st["result"] else None
        want = [w - 1 for w in expect["winners"]] if expect["winners"] is not None else None
        if got != want:
            fails.append(f"winners: expected {expect['winners']}, got {None if got is None else [g + 1 for g in got]}")
    if "active" in expect and st["turn"]["active"] != expect["active"] - 1:
        fails.append(f"active player: expected {expect['active']}, got {st['turn']['active'] + 1}")
    for want in expect.get("events", []):
        if not any(_event_matches(engine, ev, want) for ev in events):
            fails.append(f"no event matching {want}")
    for bad in expect.get("no_events", []):
        if any(_event_matches(engine, ev, bad) for ev in events):
            fails.append(f"an event matching {bad} happened")
    return fails


def _slice(label: str, got: list, want, end: str) -> list[str]:
    """Compare the top or bottom N of a pile (or all of it), in order (a list, top first)
    or in any order ({any_order: [...]})."""
    any_order = isinstance(want, dict)
    cards = want["any_order"] if any_order else want
    n = len(cards)
    part = got if end == "all" else got[:n] if end == "top" else got[len(got) - n:] if n else []
    if end != "all" and len(got) < n:
        part = got
    same = Counter(part) == Counter(cards) if any_order else part == cards
    if same:
        return []
    what = {"all": "", "top": f"top {n} of ", "bottom": f"bottom {n} of "}[end]
    how = " in any order" if any_order else ""
    return [f"{what}{label}: expected {cards}{how}, got {part}"]


def _event_matches(engine: Engine, ev: dict, want: dict) -> bool:
    for k, v in want.items():
        got = ev.get(k)
        if k in ("card",) and isinstance(got, int):
            got = engine.cards.name[got]
        if k == "player" and isinstance(got, int):
            got = got + 1
        if got != v:
            return False
    return True
