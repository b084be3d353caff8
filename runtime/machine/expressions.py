"""Expressions outside effects: the sets' manifest expressions, and the score they add.

A set's manifest holds InnoScript expressions (docs/sets.md): a ``draw_rule``
(does a plain draw take this set's card?), a cell's ``score`` (points the cell
adds to the score pile's: Echoes' bonuses) and a zone's ``limit``.  They are compiled into the bundle
and run here by the same VM as effects, for one player ('you'), outside any
action: no decisions, a small budget of their own.  Asked at every draw and
every score read, a value is kept by what the expression reads (its read set,
innoscript/core/readsets.py) and computed again only when that changed: in
the engine's derived cache by revision counters, elsewhere by contents.

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

    def __init__(self, cards, state, keep: dict | None = None):
        self.cards, self.state = cards, state
        self.budget = EXPRESSION_BUDGET
        self.icon_cache: dict = {} if keep is None else keep
        self.keep = keep

    def points(self, p: int) -> int:
        return points(self.cards, self.state, p, self.keep)

    def cell_score(self, cell: str, p: int) -> int:
        return cell_score(self.cards, self.state, cell, p, self.keep)

    def held(self, p: int) -> int:
        return held_achievements(self.cards, self.state, p, self.keep)


def evaluate(cards, state: dict, set_name: str, what: str, p: int, keep: dict | None = None):
    """The value of a set's expression ``what`` (``draw_rule``) for player p; None when
    the set has none. Run by the same VM as effects, with 'you' = p. Asked at every draw and every
    score read, so a value is kept (``kept_value``) and computed again only when what it reads changed."""
    chunk = cards.bundle["sets"][set_name].get(what)
    if chunk is None:
        return None
    return kept_value(cards, state, chunk, f"{set_name}:{what}", p, keep)


def kept_value(cards, state: dict, chunk: dict, label: str, p: int, keep: dict | None = None):
    """A manifest expression's value for player p (``label`` names it: 'echoes:cells/bonus/score',
    'echoes:zones/forecast/limit'), run again only when what it reads (its read set) changed; an
    expression whose reads cannot be compared runs every time.

    With ``keep``, an engine's derived cache (dropped whenever the engine's state is replaced), the
    value is kept there by the reads' fingerprints (runtime/state/fingerprints.py), where revision
    counters stand for boards and set zones: nothing is gathered to ask. Without (a view's or a bot's
    state, any position), it is kept in the card table's memo by the reads' contents, looked at afresh."""
    known = _read_set(cards, label, chunk)
    if known is None:
        return run_chunk(cards, state, chunk, label, p, keep)
    reads, keyer = known
    if keep is not None and "revs" in state:
        key = ("kept", label, p, keyer(state, p))
        cache = keep
    else:
        key = (label, p, fingerprints.contents(state, reads, p))
        cache = cards.__dict__.setdefault("expression_values", {})
    if key in cache:
        return cache[key]
    if len(cache) > 4096:
        cache.clear()
    value = cache[key] = run_chunk(cards, state, chunk, label, p, keep)
    return value


def _read_set(cards, label: str, chunk: dict):
    """The expression's read set and its fingerprint function (fingerprints.keyer) when its contents can be
    compared (runtime/state/fingerprints.py), else None."""
    known = cards.__dict__.setdefault("expression_reads", {})
    if label not in known:
        reads = tuple(read_set(chunk))
        known[label] = (reads, fingerprints.keyer(reads)) if fingerprints.comparable(reads) else None
    return known[label]


def run_chunk(cards, state: dict, chunk: dict, label: str, p: int, keep: dict | None = None):
    """Any compiled manifest expression (a zone's limit too) for player p; ``keep``: an engine's derived
    cache, for the board tables the expression reads."""
    reader = _Reader(cards, state, keep)
    frame = {"card": -1, "chunk": chunk, "label": label, "kind": "condition", "pc": 0,
             "stack": [], "locals": [None] * len(chunk["locals"]), "you": p, "me": p, "did": False}
    fn = tier.expression_function(cards, chunk, label) if reader.tier == "compiled" else None
    if fn is not None:
        fn(reader, frame)
    else:
        vm.run_vm(reader, frame)
    return frame.get("result")


def derived_achievements(cards, state: dict, p: int, keep: dict | None = None) -> int:
    """The achievements p's cells count as besides p's achievements pile (manifest ``cells.CELL.achievements``:
    Cities' flags and fountains), each cell once."""
    return sum(int(kept_value(cards, state, chunk, f"{n}:cells/{cell}/achievements", p, keep) or 0)
               for cell, (n, chunk) in cards.cell_achievements.items())


def held_achievements(cards, state: dict, p: int, keep: dict | None = None) -> int:
    """Every achievement p counts: the pile's and the derived ones; a team's pooled (runtime/state/teams.py)."""
    n = teams.achievement_count(state, p)
    if cards.cell_achievements:
        n += sum(derived_achievements(cards, state, q, keep) for q in teams.team(state, p))
    return n


def cell_score(cards, state: dict, cell: str, p: int, keep: dict | None = None) -> int:
    """The points a cell adds to p's score by its rule (manifest ``cells.CELL.score``); 0 for a cell
    without one."""
    entry = cards.cell_scores.get(cell)
    if entry is None:
        return 0
    return int(kept_value(cards, state, entry[1], f"{entry[0]}:cells/{cell}/score", p, keep) or 0)


def extra_points(cards, state: dict, p: int, keep: dict | None = None) -> int:
    """The points the cells of the sets in play add to p's score pile (Echoes' bonuses), each cell once."""
    return sum(cell_score(cards, state, cell, p, keep) for cell in cards.cell_scores)


def draw_set(cards, state: dict, p: int, keep: dict | None = None) -> str:
    """The set a plain draw of p's takes its card from: the first set in play whose draw rule holds
    for p, else the base cards."""
    for n in cards.set_names:    # in name order
        if evaluate(cards, state, n, "draw_rule", p, keep):
            return n
    return "base"


def points(cards: Cards, state: dict, p: int, keep: dict | None = None) -> int:
    """The score: the score pile's total value, plus what the sets in play add."""
    pile = sum(map(cards.age.__getitem__, state["players"][p]["score"]))
    if cards.cell_scores:
        pile += extra_points(cards, state, p, keep)
    return pile


def team_points(cards: Cards, state: dict, p: int, keep: dict | None = None) -> int:
    """p's team's points together (p's own in a classic game)."""
    return sum(points(cards, state, q, keep) for q in teams.team(state, p))


def achievable(cards: Cards, state: dict, p: int, values, keep: dict | None = None) -> list:
    """The values of ``values`` that pass the achieve test (state/board.py's may_achieve) for p now,
    the score counted once for all."""
    if not values:
        return []
    score = points(cards, state, p, keep)
    if score < 5 * min(values):
        return []      # the common case: below the least any of them costs, no need to look at the board
    top = highest_top_value(cards, state, p)
    return [v for v in values if may_achieve(cards, state, p, v, score, top)]
