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
    the supply piles (the base game's and the sets') and the available standard achievements."""
    out = set()
    for p, pl in enumerate(state["players"]):
        if p != viewer:
            out |= set(pl["hand"]) | set(pl["score"]) | {c for ids in pl.get("zones", {}).values() for c in ids}
        out |= {a for a in pl["achievements"] if isinstance(a, int)}
    piles = list(state["supply"].values()) + [p for ps in state.get("set_supply", {}).values() for p in ps.values()]
    for pile in piles:
        out |= set(pile)
    out |= set(state["available"]["standard"])
    return out


def check_seat(game, events, viewer, before):
    """After one answer: the viewer's view names no card hidden from it, and the answer's events name none that
    was hidden before and after and was not shown on the way (melded, tucked, revealed, used for a dogma, drawn
    or looked at by that viewer, transferred to a board). Returns the ids hidden from the viewer now."""
    ids = hidden_from(game.state, viewer)
    assert not leaks(game.view(viewer), [game.cards.name[c] for c in ids], ids), f"view of {viewer}"
    shown = {e["card"] for e in events if isinstance(e.get("card"), int) and
             (e["type"] in ("meld", "tuck", "reveal", "dogma", "effect", "execute")
              or (e["type"] in ("draw", "look") and e.get("player") == viewer)
              or (e["type"] == "transfer" and e.get("zone") == "board"))}
    ev_ids = (ids & before) - shown
    assert not leaks(game.events_for(events, viewer), [game.cards.name[c] for c in ev_ids], ev_ids), \
        f"events of {viewer}"
    return ids
