"""Expressions outside effects: the sets' manifest expressions, and the score they add.

A set's manifest holds InnoScript expressions (docs/sets.md): a ``draw_rule``
(does a plain draw take this set's card?), a cell's ``score`` (points the cell
adds to the score pile's: Echoes' bonuses) and a zone's ``limit``.  They are compiled into the bundle
and run here by the same VM as effects, for one player ('you'), outside any
action: no decisions, a small budget of their own.  Asked at every draw and
every score read, a value is kept with the contents of what the expression
reads (its read set, innoscript/core/readsets.py) and computed again only when
they differ.

``points`` is the score: the score pile's total value plus what the cells of
the sets in play add, each cell once however many sets declare it.  The VM reaches it through its host (``engine.points``), so the
builtins need not import this module, which runs the VM.
"""
from __future__ import annotations

from innoscript.core.readsets import read_set
from ..state import fingerprints, teams
from ..state.board import highest_top_value, may_achieve
from ..state.cards import Cards
from . import tier, vm

# An expression of a manifest is small; this bounds one that loops by mistake.
EXPRESSION_BUDGET = 20_000


class _Reader:
    """The VM's host for an expression evaluated outside an action (a score read from a view or a
    bot): no moves or decisions, its own small budget, its own icon cache. The expression runs on the
    process's tier (INNOSCRIPT_TIER): its value is the same on both."""

    trace = None
    tier = tier.default_tier()    # the process's (INNOSCRIPT_TIER), read once: asking the environment costs a run

    def __init__(self, cards, state):
        self.cards, self.state = cards, state
        self.budget = EXPRESSION_BUDGET
        self.icon_cache: dict = {}

    def points(self, p: int) -> int:
        return points(self.cards, self.state, p)

    def cell_score(self, cell: str, p: int) -> int:
        return cell_score(self.cards, self.state, cell, p)

    def held(self, p: int) -> int:
        return held_achievements(self.cards, self.state, p)


def evaluate(cards, state: dict, set_name: str, what: str, p: int):
    """The value of a set's expression ``what`` (``draw_rule``) for player p; None when
    the set has none. Run by the same VM as effects, with 'you' = p. Asked at every draw and every
    score read, so a value is kept with the contents of what the expression reads (its read set,
    found as the compiler finds a condition's) and computed again only when they differ."""
    chunk = cards.bundle["sets"][set_name].get(what)
    if chunk is None:
        return None
    return kept_value(cards, state, chunk, f"{set_name}:{what}", p)


def kept_value(cards, state: dict, chunk: dict, label: str, p: int):
    """A manifest expression's value for player p (``label`` names it: 'echoes:cells/bonus/score',
    'echoes:zones/forecast/limit'), kept with the contents of its read set and run again only when
    they differ; an expression whose reads cannot be compared runs every time."""
    reads = _read_set(cards, label, chunk)
    if reads is None:
        return run_chunk(cards, state, chunk, label, p)
    key = (label, p, fingerprints.contents(state, reads, p))
    cache = cards.__dict__.setdefault("expression_values", {})
    if key not in cache:
        if len(cache) > 4096:
            cache.clear()
        cache[key] = run_chunk(cards, state, chunk, label, p)
    return cache[key]


def _read_set(cards, label: str, chunk: dict):
    """The expression's read set when its contents can be compared (runtime/state/fingerprints.py),
    else None."""
    known = cards.__dict__.setdefault("expression_reads", {})
    if label not in known:
        reads = tuple(read_set(chunk))
        known[label] = reads if fingerprints.comparable(reads) else None
    return known[label]


def run_chunk(cards, state: dict, chunk: dict, label: str, p: int):
    """Any compiled manifest expression (a zone's limit too) for player p."""
    reader = _Reader(cards, state)
    frame = {"card": -1, "chunk": chunk, "label": label, "kind": "condition", "pc": 0,
             "stack": [], "locals": [None] * len(chunk["locals"]), "you": p, "me": p, "did": False}
    fn = tier.expression_function(cards, chunk, label) if reader.tier == "compiled" else None
    if fn is not None:
        fn(reader, frame)
    else:
        vm.run_vm(reader, frame)
    return frame.get("result")


def derived_achievements(cards, state: dict, p: int) -> int:
    """The achievements p's cells count as besides p's achievements pile (manifest ``cells.CELL.achievements``:
    Cities' flags and fountains), each cell once."""
    return sum(int(kept_value(cards, state, chunk, f"{n}:cells/{cell}/achievements", p) or 0)
               for cell, (n, chunk) in cards.cell_achievements.items())


def held_achievements(cards, state: dict, p: int) -> int:
    """Every achievement p counts: the pile's and the derived ones; a team's pooled (runtime/state/teams.py)."""
    n = teams.achievement_count(state, p)
    if cards.cell_achievements:
        n += sum(derived_achievements(cards, state, q) for q in teams.team(state, p))
    return n


def cell_score(cards, state: dict, cell: str, p: int) -> int:
    """The points a cell adds to p's score by its rule (manifest ``cells.CELL.score``); 0 for a cell
    without one."""
    entry = cards.cell_scores.get(cell)
    if entry is None:
        return 0
    return int(kept_value(cards, state, entry[1], f"{entry[0]}:cells/{cell}/score", p) or 0)


def extra_points(cards, state: dict, p: int) -> int:
    """The points the cells of the sets in play add to p's score pile (Echoes' bonuses), each cell once."""
    return sum(cell_score(cards, state, cell, p) for cell in cards.cell_scores)


def draw_set(cards, state: dict, p: int) -> str:
    """The set a plain draw of p's takes its card from: the first set in play whose draw rule holds
    for p, else the base cards."""
    for n in cards.set_names:    # in name order
        if evaluate(cards, state, n, "draw_rule", p):
            return n
    return "base"


def points(cards: Cards, state: dict, p: int) -> int:
    """The score: the score pile's total value, plus what the sets in play add."""
    pile = sum(map(cards.age.__getitem__, state["players"][p]["score"]))
    if cards.cell_scores:
        pile += extra_points(cards, state, p)
    return pile


def team_points(cards: Cards, state: dict, p: int) -> int:
    """p's team's points together (p's own in a classic game)."""
    return sum(points(cards, state, q) for q in teams.team(state, p))


def achievable(cards: Cards, state: dict, p: int, values) -> list:
    """The values of ``values`` that pass the achieve test (state/board.py's may_achieve) for p now,
    the score counted once for all."""
    if not values:
        return []
    score = points(cards, state, p)
    if score < 5 * min(values):
        return []      # the common case: below the least any of them costs, no need to look at the board
    top = highest_top_value(cards, state, p)
    return [v for v in values if may_achieve(cards, state, p, v, score, top)]
