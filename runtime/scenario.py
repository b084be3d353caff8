"""Scenario files: a game position, an action, the answers to its decisions,
and the expected position afterwards (format: docs/scenarios.md, schema:
innoscript/schemas/scenario.schema.json).

Cards are named, not numbered, so the files read like a rules question and
any other engine could run them.  Every card not placed by the scenario
stays in the supply, each age's pile in card-id order under the cards the
scenario puts on top.
"""
from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import jsonschema
import yaml

from innoscript.compiler.bundle import load_bundle
from innoscript.diagnostics import CompileError
from innoscript.editions import schema
from . import scenario_check
from .engine import Engine, IllegalAnswer
from .state import Cards, GameOver, new_state, place, remove_from_anywhere
from .vm import RuntimeFault


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


def read(path: str | Path) -> dict:
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as err:
        raise ScenarioError(f"{path}: cannot read: {err}") from None
    try:
        data, marks = scenario_check.load(text, path.suffix not in (".yaml", ".yml"))
    except ValueError as err:
        raise ScenarioError(f"{path}:{err}" if str(err)[:1].isdigit() else f"{path}: {err}") from None
    err = jsonschema.exceptions.best_match(jsonschema.Draft202012Validator(schema("scenario.schema.json")).iter_errors(data))
    if err is not None:
        raise ScenarioError(f"{_at(path, marks, err.absolute_path)}{'/'.join(map(str, err.absolute_path)) or '(top)'}: "
                            f"{_short(err.message)}")
    return data


def _at(path, marks, where) -> str:
    """'file:line:column: ' of a place in a scenario file (as near as the file lets us)."""
    pos = marks.at(tuple(where)) if marks else None
    return f"{path}:{pos[0]}:{pos[1]}: " if pos else f"{path}: "


def _short(text: str, limit: int = 200) -> str:
    return text if len(text) <= limit else text[:limit] + "..."


def check(path, data: dict, bundle: dict) -> None:
    """What the schema cannot say (runtime/scenario_check.py), at its place in the file."""
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


class _Builder:
    def __init__(self, cards: Cards, path: str):
        self.cards, self.path = cards, path

    def cid(self, name) -> int:
        if name not in self.cards.by_name:
            from innoscript.diagnostics import suggest
            hint = suggest(str(name), self.cards.by_name)
            raise ScenarioError(f"{self.path}: unknown card {name!r}" + (f"; did you mean {hint!r}?" if hint else ""))
        return self.cards.by_name[name]


def build_state(data: dict, bundle: dict, path: str = "<scenario>") -> Engine:
    cards = Cards(bundle)
    b = _Builder(cards, path)
    n = data["players"]
    state = new_state(cards, [f"Player {i + 1}" for i in range(n)], data.get("seed", 0))
    for age in cards.ages:
        state["supply"][str(age)] = [c["id"] for c in cards.cards if c["age"] == age]
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
                pl[zone].append(take(name))
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
    for age, names in setup.get("supply", {}).items():
        for name in reversed(names):
            cid = take(name)
            if str(cards.age[cid]) != str(age):
                raise ScenarioError(f"{path}: {name!r} is age {cards.age[cid]}, not {age}")
            state["supply"][str(age)].insert(0, cid)
    for age in setup.get("empty_ages", []):
        for cid in list(state["supply"][str(age)]):
            if cid not in placed:
                remove_from_anywhere(state, cid)
                place(cards, state, cid, "removed", None)
    for name in setup.get("available", []):
        state["available"]["standard"].append(take(name))
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
        return {"type": "meld", "card": b.cid(raw["meld"])}
    if "achieve" in raw:
        return {"type": "achieve", "age": raw["achieve"]}
    return {"type": "draw"}


def run(path: str | Path, bundle: dict | None = None, trace: set | None = None) -> Outcome:
    path = str(path)
    data = read(path)
    if bundle is None:
        try:
            bundle = load_bundle(data["edition"])
        except CompileError as err:
            raise _problem(path, ("edition",), err.diagnostics[0].message) from None
    check(path, data, bundle)
    try:
        return _run(path, data, bundle, trace)
    except (KeyError, IndexError, ValueError, TypeError, AttributeError, RecursionError) as err:
        # a safety net: whatever the checks above missed is still the file's fault, not a crash
        raise ScenarioError(f"{path}: the scenario cannot be run: {type(err).__name__}: {_short(str(err))}") from None


def _run(path: str, data: dict, bundle: dict, trace: set | None) -> Outcome:
    engine = build_state(data, bundle, path)
    engine.trace = trace
    out = Outcome(path, data.get("name", Path(path).stem), True)
    answers = list(data.get("answers", []))
    events: list[dict] = []
    actions = data["do"] if isinstance(data["do"], list) else [data["do"]]
    engine.advance()
    try:
        for act in actions:
            if engine.over:
                out.failures.append("the game ended before every action was taken")
                break
            pending = engine.pending
            if pending is None or pending["kind"] != "action":
                out.failures.append(f"expected an action decision, found {pending and pending['kind']}")
                break
            if act is actions[0]:
                out.failures += _check_legal(engine, data.get("expect", {}), path)
            try:
                events += engine.answer(action(engine, act, path))
            except IllegalAnswer as err:
                out.failures.append(f"action {act!r} was refused: {err}")
                break
            while not engine.over and engine.pending["kind"] != "action":
                pending = engine.pending
                if not answers:
                    out.failures.append(f"unanswered decision: {describe(engine, pending)}")
                    break
                raw = answers.pop(0)
                if isinstance(raw, dict) and set(raw) == {"player", "answer"}:
                    if pending["player"] != raw["player"] - 1:
                        out.failures.append(f"{describe(engine, pending)} is not for player {raw['player']}")
                        break
                    raw = raw["answer"]
                try:
                    events += engine.answer(_to_answer(engine, pending, raw, path))
                except IllegalAnswer as err:
                    out.failures.append(f"answer {raw!r} to {describe(engine, pending)} was refused: {err}")
                    break
            if out.failures:
                break
    except RuntimeFault as err:
        out.failures.append(f"runtime fault: {err}")
    if answers and not out.failures:
        out.failures.append(f"{len(answers)} answer(s) left over: {answers}")
    if not out.failures:
        out.failures += compare(engine, data.get("expect", {}), events)
    out.passed = not out.failures
    out.engine = engine
    out.events = events
    return out


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
    opts = [cards.name[o] if pending["kind"] in ("select_cards", "order", "initial_meld") else o
            for o in pending["options"]]
    src = f" ({pending['source']})" if pending.get("source") else ""
    return f"player {pending['player'] + 1} {pending['kind']}{src} from {opts} (min {pending['min']}, max {pending['max']})"


def compare(engine: Engine, expect: dict, events: list[dict]) -> list[str]:
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
            want, splay = (pile, None) if isinstance(pile, list) else (pile["cards"], pile.get("splay"))
            got = names(pl["board"][color]["cards"])
            if got != want:
                fails.append(f"player {p + 1} {color} pile: expected {want}, got {got}")
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
    for zone in ("junk", "removed"):
        if zone in expect and Counter(names(st[zone])) != Counter(expect[zone]):
            fails.append(f"{zone}: expected {sorted(expect[zone])}, got {sorted(names(st[zone]))}")
    for age, want in expect.get("supply_top", {}).items():
        got = names(st["supply"][str(age)][:len(want)])
        if got != want:
            fails.append(f"top of age {age} pile: expected {want}, got {got}")
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
