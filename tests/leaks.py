"""What a view, event or reply shows of cards it must hide: the names in its text and the entries that pair a
hidden id with a name (shared by the views' and the zones' leak tests)."""
import json


def leaks(obj, names, ids):
    text = json.dumps(obj)
    found = [n for n in names if json.dumps(n) in text]

    def walk(o):
        if isinstance(o, dict):
            if o.get("id") in ids and "name" in o:
                found.append(o["name"])
            for v in o.values():
                walk(v)
        elif isinstance(o, list):
            for v in o:
                walk(v)
    walk(obj)
    return found


def hidden_from(state, viewer):
    """Card ids the viewer may not identify now: the others' hands, score piles and set zones, the achievements,
    the supply piles (the base game's and the sets') and the available standard achievements; not a card
    revealed (it stays where it is while everyone sees it)."""
    out = set()
    d = state.get("dogma")
    seeing = {e["decider"][0] for e in (d or {}).get("stack", ()) if e.get("decider") and e["decider"][1] == viewer}
    for p, pl in enumerate(state["players"]):
        if p != viewer and p not in seeing:     # a player deciding for p in an execution sees p's cards
            out |= set(pl["hand"]) | set(pl["score"]) | {c for ids in pl.get("zones", {}).values() for c in ids}
        out |= {a for a in pl["achievements"] if isinstance(a, int)}
    piles = list(state["supply"].values()) + [p for ps in state.get("set_supply", {}).values() for p in ps.values()]
    for pile in piles:
        out |= set(pile)
    out |= set(state["available"]["standard"])
    out -= {c for pl in state["players"] for c in pl["revealed"]}   # a revealed card is shown to everyone
    # the cards whose effects are running were named to everyone when their Dogma or execution began (a decision
    # names its effect's card), even one that has since moved out of sight (a card that scores itself)
    if d is not None:
        out -= {d["card"]} | {e["card"] for e in d["stack"] if isinstance(e.get("card"), int)} \
            | {e["free"]["card"] for e in d["stack"] if "free" in e}
    return out


def check_seat(game, events, viewer, before):
    """After one answer: the viewer's view names no card hidden from it, and the answer's events name none that
    was hidden before and after and was not shown on the way (melded, tucked, revealed, used for a dogma, drawn
    or looked at by that viewer, transferred to a board). Returns the ids hidden from the viewer now."""
    ids = hidden_from(game.state, viewer)
    assert not leaks(game.view(viewer), [game.cards.name[c] for c in ids], ids), f"view of {viewer}"
    shown = shown_by(events, viewer)
    ev_ids = (ids & before) - shown
    assert not leaks(game.events_for(events, viewer), [game.cards.name[c] for c in ev_ids], ev_ids), \
        f"events of {viewer}"
    return ids


def shown_by(events, viewer):
    """Card ids these (engine) events showed the viewer on the way: melded, tucked, revealed, used for a dogma,
    drawn or looked at by that viewer, transferred to a board; and the cards a move took from where the viewer
    saw them (a board, or the viewer's own hand or score pile, where a card may pass during one answer)."""
    def seen_at(zone, owner):
        return zone in ("board", "top") or (viewer is not None and owner == viewer and zone in ("hand", "score"))
    out = set()
    for e in events:
        if e["type"] == "exchange":
            out |= set(e["cards"]) if seen_at(e.get("zone"), e.get("owner")) else set()
            out |= set(e["other"]) if seen_at(e.get("other_zone"), e.get("other_owner")) else set()
        elif isinstance(e.get("card"), int) and (
                e["type"] in ("meld", "tuck", "reveal", "dogma", "effect", "execute")
                or (e["type"] in ("draw", "look") and e.get("player") == viewer)
                or (e["type"] == "transfer" and e.get("zone") == "board")
                or seen_at(e.get("from"), e.get("from_player"))):
            out.add(e["card"])
    return out


def refs_in(value) -> set:
    """Every card handle anywhere in a message."""
    out, stack = set(), [value]
    while stack:
        v = stack.pop()
        if isinstance(v, dict):
            if isinstance(v.get("ref"), str):
                out.add(v["ref"])
            stack.extend(v.values())
        elif isinstance(v, list):
            stack.extend(v)
    return out


def ints_in(value) -> set:
    """Every whole number in a message's text (its numbers, and the digits inside its strings)."""
    import re
    return {int(x) for x in re.findall(r"-?\d+", json.dumps(value))}


def numbers_named(message: str, hidden: set, allowed: set) -> set:
    """The hidden card ids a refusal's text names beyond the numbers it may name (what was sent, the decision's
    own id, player and counts as the seat was shown them)."""
    import re
    return {int(x) for x in re.findall(r"\d+", message)} & hidden - allowed


def announced(state) -> set:
    """The cards whose effects are running: everyone saw the dogma action or the execution that runs them, so a
    decision may name its source even when the card has since gone somewhere hidden (scored by its own effect)."""
    d = state.get("dogma") or {}
    out = {d["card"]} if isinstance(d.get("card"), int) else set()
    return out | {f["card"] for f in d.get("stack", []) if isinstance(f.get("card"), int)}
