"""The team relation: who plays with whom, and what "opponent" means.

In a classic game every other player is an opponent.  In 2 vs 2 team play
(the ``teams`` option, exactly four players) the state holds

    teams     [[0, k], [a, b]]   the two teams, player numbers as created
    seating   [0, a, k, b]       the turn order: partners sit across

and everything the rules and the language ask about players goes through the
functions here: the turn order, the language's player sets, demand and
compel targets, sharing-bonus eligibility, "the single player with the
most/least", pooled achievements, the number needed to win, and who wins
when a player wins, loses or the game ends by score.  With no teams each
player is a team of one, so the same code serves every game.
"""
from __future__ import annotations

import random

PAIRINGS = {"1+2": 1, "1+3": 2, "1+4": 3}


def setup(options: dict, seed: int) -> dict:
    """The teams and seating for new-game options (empty for a classic game)."""
    if options.get("teams", "none") == "none":
        return {}
    mate = PAIRINGS.get(options["teams"])
    if mate is None:  # random teams, drawn from the game's seed (separately from the card shuffle)
        mate = random.Random(f"innoscript-teams/{seed}").choice([1, 2, 3])
    rest = [p for p in (1, 2, 3) if p != mate]
    return {"teams": [[0, mate], rest], "seating": [0, rest[0], mate, rest[1]]}


def has_teams(state: dict) -> bool:
    return bool(state.get("teams"))


def team(state: dict, p: int) -> list[int]:
    """p's team (p alone in a classic game)."""
    for t in state.get("teams") or ():
        if p in t:
            return list(t)
    return [p]


def team_index(state: dict, p: int) -> int:
    """A number naming p's team (in a classic game, p itself)."""
    for i, t in enumerate(state.get("teams") or ()):
        if p in t:
            return i
    return p


def same_team(state: dict, p: int, q: int) -> bool:
    return p == q or q in team(state, p)


def partners(state: dict, p: int) -> list[int]:
    return [q for q in team(state, p) if q != p]


def seating(state: dict) -> list[int]:
    """Players in turn order around the table."""
    return list(state.get("seating") or range(len(state["players"])))


def players_from(state: dict, p: int, include_self: bool) -> list[int]:
    """Players still in the game in turn order from p's left (p itself last when included)."""
    pls = state["players"]
    order = state.get("seating")
    out = []
    if order:
        i, n = order.index(p), len(order)
        for k in range(i + 1, i + n):
            q = order[k % n]
            if not pls[q].get("eliminated"):
                out.append(q)
    else:
        n = len(pls)
        for k in range(p + 1, p + n):
            q = k % n
            if not pls[q].get("eliminated"):
                out.append(q)
    if include_self:
        out.append(p)
    return out


def opponents(state: dict, p: int) -> list[int]:
    """The players of the other teams, in turn order from p's left."""
    return [q for q in players_from(state, p, False) if not same_team(state, p, q)]


def player_set(state: dict, p: int, kind: str) -> list[int]:
    """The language's player sets seen from p: 'all' (p last), 'opponents' and 'others'.

    In a team game 'other players' are the other team as well: card texts say
    "other player" and "opponent" for the same people, and the comparisons
    that use them ("the only player with", "more than each other player")
    ignore the partner."""
    if kind == "all":
        return players_from(state, p, True)
    return opponents(state, p)


def single(state: dict, players: list[int], scores: list[int], extreme: str, you: int | None = None):
    """The single player with the most/least: a tie between partners is not a tie (you, if you are
    one of them, else the first of them in turn order); a tie across teams gives none."""
    if not players:
        return None
    best = max(scores) if extreme == "most" else min(scores)
    tied = [p for p, s in zip(players, scores) if s == best]
    if len({team_index(state, p) for p in tied}) != 1:
        return None
    return you if you in tied else tied[0]


def achievement_count(state: dict, p: int) -> int:
    """Achievements counted for p: the team's, pooled."""
    return sum(len(state["players"][q]["achievements"]) for q in team(state, p))


def achievements_needed(manifest: dict, state: dict, set_extra: int = 0) -> int:
    """The edition's number for the player count (a team: the two-player number), plus what the sets
    in play add (set_extra, runtime/rules/sets.py), +1 with the option."""
    key = "2" if has_teams(state) else str(len(state["players"]))
    extra = 1 if (state.get("options") or {}).get("extra_achievement") else 0
    return manifest["achievements_to_win"][key] + set_extra + extra


def winners(state: dict, players: list[int]) -> list[int]:
    """Everyone who wins with these players: their partners too."""
    return sorted({q for p in players for q in team(state, p)})


def teams_of(state: dict) -> list[list[int]]:
    """Every team (each player alone in a classic game)."""
    return [list(t) for t in state["teams"]] if has_teams(state) else [[p] for p in range(len(state["players"]))]
