"""Whole games with Echoes in play, bounded (the documented 1,000-games-per-player-count runs are in
docs/simulation.md): seeded bot games of both editions end with no error and no invariant violation, a game
saved and loaded half-way plays on identically, and the same seed gives the same games."""
import pytest

from innoscript.runtime.tools import simulate as S
from innoscript.runtime.tools.soak import soak

SETS = ("echoes",)


@pytest.mark.parametrize("edition, players", [("3e", 2), ("3e", 4), ("4e", 3), ("4e", 5)])
def test_checked_games_with_echoes_keep_the_invariants(edition, players):
    result = soak(edition, players, 2, seed=11, jobs=1, sets=SETS)
    assert result["sets"] == list(SETS)
    assert result["errors"] == 0 and result["violations"] == 0, result["samples"]
    assert result["actions"] > 0


@pytest.mark.parametrize("edition", ["3e", "4e"])
def test_simulated_games_with_echoes_finish_and_repeat(edition):
    one = S.run(edition, 2, 3, seed=5, jobs=1, sets=SETS)
    assert all(r["error"] is None for r in one), [r["error"] for r in one]
    assert all(r["winners"] is not None for r in one)
    assert S.run(edition, 2, 3, seed=5, jobs=1, sets=SETS) == one
