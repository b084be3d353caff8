"""Which language constructs a card uses, read off its AST.

Used by the docs' construct table (which cards use each construct) and by
the test that every construct of the table is documented.
"""
from __future__ import annotations

import dataclasses

from .. import ast as A


def constructs_of(card: A.Card) -> set[str]:
    found: set[str] = set()
    for eff in card.effects:
        found.add({"demand": "demand", "non_demand": "effect", "compel": "compel", "cell": "cell_effect"}[eff.kind])
        for node in _walk(eff.body):
            found |= _ids(node)
    return found


def _walk(obj):
    if isinstance(obj, list):
        for x in obj:
            yield from _walk(x)
    elif isinstance(obj, A.Node):
        yield obj
        for f in dataclasses.fields(obj):
            yield from _walk(getattr(obj, f.name))


def _ids(n) -> set[str]:
    t = type(n).__name__
    out: set[str] = set()
    if isinstance(n, A.Draw):
        out.add("draw" if n.then is None else f"draw_and_{n.then}")
        if n.set is not None:
            out.add("draw_set")
        if n.count is not None:
            out.add("draw_n")
        if not isinstance(n.age, A.Int):
            out.add("computed_value")
    elif isinstance(n, A.Move):
        out.add(f"verb_{n.verb}")
    elif isinstance(n, A.Transfer):
        out.add("transfer")
    elif isinstance(n, (A.Exchange, A.Splay, A.Unsplay, A.Rearrange, A.Either, A.ChooseCards, A.Let, A.Record,
                        A.ForEach, A.Repeat, A.EndDogma, A.Lose, A.Claim, A.Look, A.Flip)):
        out.add(t.lower())
        if isinstance(n, A.Splay):
            out.add(f"splay_{n.direction}")
    elif isinstance(n, A.Win):
        out.add("win_single" if isinstance(n.player, A.SinglePlayer) else "win")
    elif isinstance(n, A.Dogma):
        out.add("dogma_marked" if n.mark else "dogma")
        out |= {f"dogma_{o.kind}" for o in n.options}
    elif isinstance(n, A.Execute):
        out.add("execute_as_if" if n.as_if else n.kind.replace("-", "_"))
        if n.must:
            out.add("execute_must")
        if n.decider is not None:
            out.add("execute_decided")
    elif isinstance(n, A.Choose):
        out.add(f"choose_{n.kind}")
    elif isinstance(n, A.May):
        out.add("may")
    elif isinstance(n, A.If):
        out.add("if_you_do" if isinstance(n.cond, A.YouDo) else "if_caused_change"
                if isinstance(n.cond, A.CausedChange) else "if")
        if n.orelse:
            out.add("otherwise")
    elif isinstance(n, A.Times):
        out.add("for_every" if n.kind == "every" else "for_each")
    elif isinstance(n, A.Quantity):
        out.add(f"q_{n.kind}")
    elif isinstance(n, A.Selection):
        if n.order != "any":
            out.add(f"order_{n.order}")
        if n.position:
            out.add(f"pos_{n.position}")
        if n.each_color:
            out.add("of_each_color")
        if isinstance(n.source, A.Name):
            out.add("binding")
        if n.chooser:
            out.add("chosen_by")
        if n.unrevealed is not None:
            out.add("unrevealed")
        if n.also:
            out.add("zones")
    elif isinstance(n, A.Filter):
        out.add(f"f_{n.kind}")
    elif isinstance(n, A.Zone):
        out.add(f"zone_{n.kind}")
        if n.owner is not None and n.owner.kind not in ("you",):
            out.add(f"owner_{n.owner.kind}")
    elif isinstance(n, A.ActionVar):
        out.add("action_var")
    elif isinstance(n, A.Quantified):
        out.add(f"players_{n.kind}")
    elif isinstance(n, A.SinglePlayer):
        out.add("single_player")
    elif isinstance(n, A.Call):
        out.add(f"fn_{n.fn}")
    elif isinstance(n, A.HasIcon):
        out.add("has_icon")
    elif isinstance(n, A.Is):
        out.add("is_color")
    elif isinstance(n, A.In):
        out.add("in")
    elif isinstance(n, A.Where):
        out.add("f_where")
    elif isinstance(n, A.Compare):
        out.add("compare")
    elif isinstance(n, A.Pronoun) and n.who == "me":
        out.add("owner_me")
    elif isinstance(n, A.Beneath):
        out.add("all_beneath" if n.all else "beneath")
    elif isinstance(n, A.PileEnd):
        out.add(f"pile_{n.kind}")
    elif isinstance(n, A.DirectlyUnder):
        out.add("directly_under")
    elif isinstance(n, A.Act):
        out.add("acting")
    return out
