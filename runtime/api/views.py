"""Per-player views: what one player (or a spectator) may see, by the rulebook.

- Boards, splays and icon counts: public.
- Your own hand and score pile: in full. Other players' hands and score
  piles: how many cards and of which ages, never which cards.
- Normal achievements: their ages only, for everyone (even their owner);
  special achievements by name.
- Revealed cards: public while revealed.  Supply piles: counts.  The junk:
  counts and ages.
- The sets' per-player zones (runtime/rules/zones.py), under ``zones``: to whoever
  may see their cards, ``{"cards": [faces], "count": N, "limit": L}``; to the
  others ``{"count": N, "ages": [...], "limit": L}`` when the size is public,
  else ``{"limit": L}`` (L: null for no limit).  The sets' game-wide zones, under
  the view's own ``zones``, alike for every seat and spectator: ``{"cards":
  [faces], "count": N, "limit": L}`` when everyone sees the cards, else
  ``{"count": N, "ages": [...], "limit": L}``.
- Options and teams: public.  In team play each player names its ``partner``
  and ``team``; ``teams`` lists both teams with their pooled achievements and
  combined points, and ``seating`` the turn order.
- A card a player may not see is never named or numbered in that player's
  view or events: it appears as ``{"hidden": true, "age": N, "ref": TOKEN}``,
  where the token is an opaque per-game handle (an answer may use it).  The
  options of an unrevealed choice (``unrevealed`` in the decision) are backs,
  ``{"hidden": true, "age": N, "set": S, "ref": TOKEN}``, even to a chooser who
  could see the cards; their handles are made for that decision alone and they
  are listed in the handles' order, so neither says which card is which.
- An answer from a seat that may be hostile (``answer_as_seen``) is checked
  against the decision in the form that seat was shown it: a card it sees by its
  id, a card shown hidden by its handle only, never resolved to an id before it
  matches an option.  Anything else is "not one of the options", worded the
  same whatever it names, so a refusal says nothing the seat's view does not.
"""
from __future__ import annotations

import hashlib
import hmac
from collections.abc import Mapping

from innoscript.core import opcodes as O
from ..machine.expressions import derived_achievements, points, team_points
from ..machine.frames import HOOK
from ..rules import zones as Z
from ..rules.engine import IllegalAnswer, _key, _show
from ..state import teams as T
from ..state.board import board_icons, pile_cell_effects
from ..state.cards import Cards
from .faces import card_catalog, card_face
from .wording import word


def token(state: dict, cid: int) -> str:
    key = state.get("secret", "").encode()
    return "h" + hmac.new(key, str(cid).encode(), hashlib.sha256).hexdigest()[:16]


def back_token(state: dict, decision_id: int, cid: int) -> str:
    """The handle of a card shown as a back in an unrevealed choice: made for that decision alone, so it
    matches neither the handle the card has elsewhere nor its back in another decision."""
    key = state.get("secret", "").encode()
    return "h" + hmac.new(key, f"{decision_id}/{cid}".encode(), hashlib.sha256).hexdigest()[:16]


def resolve_token(state: dict, ref: str, n_cards: int):
    for cid in range(n_cards):
        if token(state, cid) == ref:
            return cid
    return None


def deciders(state: dict) -> dict[int, set[int]]:
    """The players deciding for another in a running execution ('decided by P'): performer -> those players,
    who see the performer's hidden cards (hand, score pile, set zones) while it runs."""
    d = state.get("dogma")
    out: dict[int, set[int]] = {}
    for entry in (d or {}).get("stack", ()):
        if entry.get("decider"):
            out.setdefault(entry["decider"][0], set()).add(entry["decider"][1])
    return out


def sees_as_owner(state: dict, p: int, viewer: int | None) -> bool:
    """Whether the viewer sees p's hidden cards as p does: p itself, or a player deciding for p."""
    return viewer == p or (viewer is not None and state.get("dogma") is not None and viewer in deciders(state).get(p, ()))


def visible_to(state: dict, cid: int, viewer: int | None, cards: Cards | None = None) -> bool:
    """Whether the viewer may know this card's identity where it is now (a card in a set's zone:
    by the zone's visibility, known from cards; without them, only its owner). A player deciding for
    another in an execution sees what that player sees of their own cards."""
    for p, pl in enumerate(state["players"]):
        if cid in pl["revealed"]:
            return True
        if any(cid in pile["cards"] for pile in pl["board"].values()):
            return True
        if cid in pl["hand"] or cid in pl["score"]:
            return sees_as_owner(state, p, viewer)
        if cid in pl["achievements"]:
            return False
        for name, ids in pl.get("zones", {}).items():
            if cid in ids:
                if sees_as_owner(state, p, viewer):
                    viewer = p
                return Z.sees_cards(cards, name, p, viewer) if cards is not None else viewer == p
    for name, ids in state.get("zones", {}).items():   # a set's game-wide zone: by its visibility
        if cid in ids:
            return cards is not None and Z.sees_cards(cards, name, None, viewer)
    return False   # supply, available achievements, junk, removed


def card_ref(cards: Cards, state: dict, cid, viewer: int | None):
    if isinstance(cid, str):
        return {"special": cid}
    if visible_to(state, cid, viewer, cards):
        return card_face(cards, cid)
    return {"hidden": True, "age": cards.age[cid], "ref": token(state, cid)}


def card_back(cards: Cards, state: dict, cid: int, decision_id: int | None = None) -> dict:
    """What a card's back shows: its age and set, with the opaque handle an answer uses (for an option of an
    unrevealed choice, decision_id: a handle of that decision's own)."""
    ref = token(state, cid) if decision_id is None else back_token(state, decision_id, cid)
    return {"hidden": True, "age": cards.age[cid], "set": cards.set[cid], "ref": ref}


def _ages(cards: Cards, ids) -> list[int]:
    return sorted(cards.age[c] for c in ids if isinstance(c, int))


def _players(cards: Cards, state: dict, viewer: int | None) -> list[dict]:
    players = []
    for p, pl in enumerate(state["players"]):
        own = sees_as_owner(state, p, viewer)
        entry = {
            "name": pl["name"],
            "eliminated": pl.get("eliminated", False),
            "board": {color: {"splay": pile["splay"], "cards": [card_face(cards, c) for c in pile["cards"]]}
                      for color, pile in pl["board"].items()},
            "icons": {i: icons.get(i, 0) for icons in (board_icons(cards, state, p),) for i in cards.icons},
            "hand": ([card_face(cards, c) for c in pl["hand"]] if own else
                     {"count": len(pl["hand"]), "ages": _ages(cards, pl["hand"])}),
            "score": ([card_face(cards, c) for c in pl["score"]] if own else
                      {"count": len(pl["score"]), "ages": _ages(cards, pl["score"])}),
            "points": points(cards, state, p),
            "achievements": {"ages": _ages(cards, pl["achievements"]),
                             "special": [a for a in pl["achievements"] if isinstance(a, str)],
                             "count": len(pl["achievements"]),
                             **({"derived": derived_achievements(cards, state, p)} if cards.cell_achievements else {})},
            "revealed": [card_face(cards, c) for c in pl["revealed"]],
        }
        if "zones" in pl:
            entry["zones"] = {z: zone_view(cards, state, p, z, p if own else viewer) for z in pl["zones"]}
        if T.has_teams(state):
            entry["partner"] = T.partners(state, p)[0]
            entry["team"] = T.team_index(state, p)
        players.append(entry)
    return players


def view(cards: Cards, state: dict, viewer: int | None) -> dict:
    """The state as `viewer` may see it (None: a spectator)."""
    players = _players(cards, state, viewer)
    decision = decision_view(cards, state, viewer)
    out = {
        "edition": state["edition"],
        "viewer": viewer,
        "phase": state["phase"],
        "turn": {k: state["turn"][k] for k in ("number", "active", "actions_left")},
        "players": players,
        "supply": {age: len(pile) for age, pile in state["supply"].items()},
        "sets": list(state.get("sets", [])),
        "set_supply": {name: {age: len(pile) for age, pile in piles.items()}
                       for name, piles in state.get("set_supply", {}).items()},
        "available": {"standard": _ages(cards, state["available"]["standard"]),
                      "special": list(state["available"]["special"])},
        "junk": {"count": len(state["junk"]), "ages": _ages(cards, state["junk"]),
                 "special": list(state.get("junk_special", []))},
        **({"zones": shared_zones_view(cards, state, viewer)} if "zones" in state else {}),
        "decision": decision,
        "result": state.get("result"),
        "options": dict(state.get("options") or {}),
        "teams": ([{"players": t, "achievements": T.achievement_count(state, t[0]),
                    "points": team_points(cards, state, t[0])} for t in state["teams"]]
                  if T.has_teams(state) else None),
        "seating": T.seating(state),
    }
    if decision is not None and "options" in decision:
        out["decision"]["wording"] = word(decision, out, effect_english(state["edition"], cards, decision),
                                          either_options(state["edition"], cards, decision))
    return out


class LazyView(Mapping):
    """view() as a read-only mapping built as it is read (for a bot, which may read only the players):
    "players" and the plain keys on their own, anything else from the whole view, built once. Every key
    reads as in view() while the state stands still."""

    _PLAIN = {"edition": lambda s: s["edition"], "phase": lambda s: s["phase"],
              "turn": lambda s: {k: s["turn"][k] for k in ("number", "active", "actions_left")}}

    def __init__(self, cards: Cards, state: dict, viewer: int | None):
        self._cards, self._state, self._viewer = cards, state, viewer
        self._built: dict = {"viewer": viewer}
        self._order: list | None = None    # view()'s keys, once the whole view is built

    def __getitem__(self, key):
        built = self._built
        if key not in built:
            if key == "players":
                built[key] = _players(self._cards, self._state, self._viewer)
            elif key in self._PLAIN:
                built[key] = self._PLAIN[key](self._state)
            elif self._order is None:
                whole = view(self._cards, self._state, self._viewer)
                self._order = list(whole)
                built.update({k: v for k, v in whole.items() if k not in built})
        return built[key]

    def _keys(self) -> list:
        if self._order is None:
            self["decision"]
        return self._order

    def __iter__(self):
        return iter(self._keys())

    def __len__(self):
        return len(self._keys())


def zone_view(cards: Cards, state: dict, p: int, zone: str, viewer: int | None) -> dict:
    """One player's set zone as the viewer may see it."""
    ids = state["players"][p]["zones"][zone]
    out: dict = {"limit": Z.limit(cards, state, zone, p)}
    if Z.sees_cards(cards, zone, p, viewer):
        out.update(cards=[card_face(cards, c) for c in ids], count=len(ids))
    elif Z.sees_size(cards, zone, p, viewer):
        out.update(count=len(ids), ages=_ages(cards, ids))
    return out


def shared_zones_view(cards: Cards, state: dict, viewer: int | None) -> dict:
    """The sets' game-wide zones as anyone sees them (every seat and spectators alike): the cards of a zone
    everyone sees, oldest first, else their number and ages; the limit for the viewer (a spectator: for the
    player whose turn it is), who would be moving a card there."""
    out = {}
    for zone, ids in state["zones"].items():
        who = viewer if viewer is not None else state["turn"]["active"]
        entry: dict = {"count": len(ids), "limit": Z.limit(cards, state, zone, who)}
        if Z.sees_cards(cards, zone, None, viewer):
            entry["cards"] = [card_face(cards, c) for c in ids]
        else:
            entry["ages"] = _ages(cards, ids)
        out[zone] = entry
    return out


def _asking_effect(edition: str, cards: Cards, decision: dict) -> dict:
    """The catalog's entry of the card effect that asks ({} when none asks or the edition's texts are not at
    hand: an edition from other sources, the editor's sandbox)."""
    cid, e = decision.get("source_card"), decision.get("effect")
    if cid is None or e is None:
        return {}
    try:
        entry = next(c for c in card_catalog(edition, cards.set_names)["cards"] if c["name"] == cards.name[cid])
        return entry["effects"][e]
    except Exception:
        return {}


def effect_english(edition: str, cards: Cards, decision: dict) -> str | None:
    """The English of the effect that asks (None when the edition's texts are not at hand)."""
    if decision.get("source_hook") is not None:      # a set's rule asks: its hook's English
        try:
            return card_catalog(edition, cards.set_names)["hooks"][decision["source_hook"]] or None
        except Exception:
            return None
    return _asking_effect(edition, cards, decision).get("text")


def either_options(edition: str, cards: Cards, decision: dict) -> list[str] | None:
    """The English of the options of the 'either' that asks (None when they are not at hand: options the
    renderer folded, or no texts)."""
    k = decision.get("either")
    options = _asking_effect(edition, cards, decision).get("options") if k is not None else None
    return options[k] if options and k < len(options) else None


def decision_view(cards: Cards, state: dict, viewer: int | None, previews: bool = True):
    """The pending decision as the viewer sees it: who and what for everyone, the options only for the decider
    (previews=False: the dogma options without their previews, for a bot that never reads them)."""
    pending = state.get("pending")
    if pending is None:
        return None
    decision = {"id": pending["id"], "player": pending["player"], "kind": pending["kind"]}
    if viewer == pending["player"]:
        decision.update({k: v for k, v in pending.items() if k not in ("options",)})
        tables: dict | None = {} if previews else None     # the players' icon tables, once per decision
        decision["options"] = [option_view(cards, state, pending, o, viewer, tables) for o in pending["options"]]
        if pending.get("unrevealed"):   # backs in their handles' order: the list's order says nothing either
            decision["options"].sort(key=lambda o: o.get("ref", "") if isinstance(o, dict) else "")
        decision.update(decision_context(cards, state, pending))
    return decision


_ACTS = {"TRANSFER": "transfer", "DRAW": "draw", "EXCHANGE": "exchange", "SPLAY": "splay", "UNSPLAY": "unsplay",
         "REARRANGE": "rearrange", "EXECUTE": "execute", "CLAIM": "achieve"}


def decision_context(cards: Cards, state: dict, pending: dict) -> dict:
    """Which effect is asking (card id, effect index, its kind) and, for a yes/no, the verb it decides, so a
    frontend can word the question from the effect's English."""
    d = state.get("dogma")
    frame = d["stack"][-1] if d and d.get("stack") and not d.get("prelude") else None
    if frame and "pc" in frame and frame.get("card") == HOOK:
        return {"source_hook": frame["effect"]}
    if not frame or "pc" not in frame or frame.get("card", -1) < 0:
        return {}
    out = {"source_card": frame["card"], "effect": frame["effect"], "effect_kind": frame["kind"]}
    if frame["kind"] in ("demand", "compel"):
        out["demanded_by"] = frame["me"]
    if pending["kind"] == "choose_option":       # which 'either' of the effect asks: its options' English
        code = cards.cards[frame["card"]]["effects"][frame["effect"]]["code"]
        out["either"] = sum(ins[0] == O.CHOOSE_OPTION for ins in code[:frame["pc"]])
    if pending["kind"] == "yes_no" and "purpose" not in pending:
        code = cards.cards[frame["card"]]["effects"][frame["effect"]]["code"]
        for ins in code[frame["pc"] + 1: frame["pc"] + 14]:
            name = O.OPCODES[ins[0]].name
            if name == "MOVE":
                out["purpose"] = O.ENUMS["verb"][ins[1]]
                break
            if name in _ACTS:
                out["purpose"] = _ACTS[name]
                break
    return out


def option_view(cards: Cards, state: dict, pending: dict, option, viewer: int, tables: dict | None = None):
    kind = pending["kind"]
    if kind in ("select_cards", "order", "initial_meld") and isinstance(option, int):
        if pending.get("unrevealed"):   # an unrevealed choice: the back only, whoever could see the card
            return card_back(cards, state, option, pending["id"])
        return card_ref(cards, state, option, viewer)
    if kind == "action":
        out = dict(option)
        if "card" in out:
            if out["type"] == "dogma" and tables is not None:
                out["preview"] = dogma_preview(cards, state, pending["player"], out["card"], tables)
            out["card"] = card_face(cards, out["card"])
        if out["type"] == "set_action":      # a set's action: the word players read (its manifest's label)
            out["label"] = cards.set_actions[out["action"]]["label"]
        return out
    if kind == "select_cards" and isinstance(option, str):
        return {"special": option}
    return option


def dogma_preview(cards: Cards, state: dict, p: int, cid: int, tables: dict | None = None) -> dict:
    """Who would share this dogma's non-demand and cell effects and who would be hit by its demands, from
    the current icon counts (the dogma icon: as many or more shares, fewer is demanded of); ``cell_effects``
    names the cell effects that would run first, {card, cell} (the pile's visible ones, deepest first). tables:
    the players' icon tables by player, filled as needed (shared by the previews of one decision)."""
    icon = cards.cards[cid]["dogma"]
    tables = {} if tables is None else tables
    for q in range(len(state["players"])):
        if q not in tables:
            tables[q] = board_icons(cards, state, q)
    counts = [tables[q].get(icon, 0) for q in range(len(state["players"]))]
    kinds = {e["kind"] for e in cards.cards[cid]["effects"]} - {"cell"}
    first = pile_cell_effects(cards, state, cid)
    others = [q for q, pl in enumerate(state["players"]) if q != p and not pl.get("eliminated")]
    rivals = [q for q in T.opponents(state, p) if q in others]    # demands never reach a partner
    shared = kinds - {"demand", "compel"} or first                # cell effects are shared like non-demands
    shares = [q for q in others if counts[q] >= counts[p]] if shared else []
    hit = [q for q in rivals if counts[q] < counts[p]] if "demand" in kinds else []
    hit += [q for q in rivals if counts[q] >= counts[p]] if "compel" in kinds else []
    return {"icon": icon, "counts": counts, "shares": shares,
            "cell_effects": [_cell_effect(cards, c, e) for c, e in first],
            "opponents_share": [q for q in shares if q in rivals], "demanded": sorted(set(hit))}


def _cell_effect(cards: Cards, c: int, e: int) -> dict:
    """A cell effect as the preview names it: its card, its cell and the cell's label ('echo effect')."""
    cell = cards.cards[c]["effects"][e]["cell"]
    return {"card": cards.name[c], "cell": cell, "label": cards.cells.get(cell, {}).get("label", f"{cell} effect")}


def event_view(cards: Cards, state: dict, event: dict, viewer: int | None) -> dict:
    """An event as the viewer may see it (after it happened: judged on the current state)."""
    out = dict(event)
    if "card" in out and isinstance(out["card"], int):
        cid = out["card"]
        t = out["type"]
        seen = visible_to(state, cid, viewer, cards) or (t in ("draw", "look") and out.get("player") == viewer) \
            or t in ("meld", "tuck", "reveal", "dogma", "execute", "effect", "chain_achievement") \
            or (t == "transfer" and out.get("zone") == "board") or _known_before(cards, out, viewer)
        if t == "achieve":
            seen = False
        out["card"] = card_face(cards, cid) if seen else {"hidden": True, "age": cards.age[cid]}
    if out.get("type") == "exchange":     # each side named to those who saw it before (or see it now)
        for key, zone, owner in (("cards", "zone", "owner"), ("other", "other_zone", "other_owner")):
            before = {"from": out.get(zone), "from_player": out.get(owner)}
            out[key] = [card_face(cards, c) if _known_before(cards, before, viewer) else card_ref(cards, state, c, viewer)
                        for c in out.get(key, [])]
    if out.get("type") == "action" and "card" in out.get("action", {}):
        a = dict(out["action"])
        cid = a["card"]
        a["card"] = card_face(cards, cid) if a["type"] in ("dogma", "meld") else {"hidden": True, "age": cards.age[cid]}
        out["action"] = a
    return out


def _known_before(cards: Cards, event: dict, viewer: int | None) -> bool:
    """Whether the viewer could see the moved card where it came from: on a board (everyone), or in their own
    hand, score pile or a zone of theirs they see (a card you transfer away was never hidden from you)."""
    frm, owner = event.get("from"), event.get("from_player")
    if frm in ("board", "top"):
        return True
    if frm in cards.zones or frm in cards.shared_zones:     # a set's zone: by its visibility
        return Z.sees_cards(cards, frm, owner, viewer)
    return viewer is not None and owner == viewer and frm in ("hand", "score", "revealed")


# the base game's places; any other place a move comes from is a set's zone, taken as hidden
_BASE_ZONES = {"hand", "score", "board", "supply", "achievements", "available", "junk", "removed", None}


def reveals_hidden(events: list[dict], state_before: dict | None = None, people=None) -> bool:
    """Whether these events showed one of `people` (default: anyone) a card they could not see before, or a
    flip of the game's coin (no undo past them). A card that leaves your own hand or score pile was never
    hidden from you."""
    hidden_zones = {"hand", "score", "supply", "achievements", "available"}
    everyone = object()

    def shown(to) -> bool:
        if to is everyone:
            return True
        return any(p is not None and (people is None or p in people) for p in to)
    for ev in events:
        t = ev["type"]
        owner = ev.get("from_player")
        if t == "coin_flip":        # chance everyone saw: an undo would flip again
            seen = everyone
        elif t == "execute" and ev.get("decider"):   # the decider sees the performer's hidden cards
            seen = [ev["decider"][1]]
        elif t in ("draw", "look"):   # a look: the performer alone sees the card
            seen = [ev.get("player")]
        elif t in ("reveal", "exchange"):
            seen = everyone
        elif t == "transfer" and ev.get("zone") == "available":   # face down: no one sees it
            continue
        elif ev.get("shared"):      # into a set's game-wide zone: taken as seen by everyone (a hidden one too)
            seen = everyone
        elif t in ("meld", "tuck", "transfer", "take", "keep", "score", "return") and (
                ev.get("from") in hidden_zones or ev.get("from") not in _BASE_ZONES):   # a set's zone: hidden
            to_player = ev.get("to", ev.get("player"))
            if t in ("meld", "tuck") or ev.get("zone") == "board":
                seen = everyone if owner is None or people is None else [p for p in people if p != owner]
            elif to_player != owner:
                seen = [to_player]
            else:
                continue
        else:
            continue
        if people is None and seen is not everyone and seen:
            return True
        if seen is everyone and (people is None or people):
            return True
        if seen is not everyone and shown(seen):
            return True
    return False


def resolve_answer(cards: Cards, state: dict, decision: dict, answer):
    """An answer given in a view's terms (visible cards by id, hidden ones by handle, action cards
    as faces) turned into the engine's terms. Raises ValueError for an unknown handle."""
    if decision["kind"] == "action":
        for o in decision["options"]:
            if o is answer:
                return answer       # one of the engine's own options (a bot's answer, as simulations play)
    n = len(cards.cards)

    def one(a):
        if isinstance(a, str) and a.startswith("h") and len(a) == 17:
            cid = resolve_token(state, a, n)
            if cid is None and decision.get("unrevealed"):
                cid = next((o for o in decision["options"] if isinstance(o, int)
                            and back_token(state, decision["id"], o) == a), None)
            if cid is None:
                raise ValueError(f"unknown card handle {a!r}")
            return cid
        if isinstance(a, dict) and "ref" in a:
            return one(a["ref"])
        if isinstance(a, dict) and "special" in a:
            return a["special"]
        if isinstance(a, dict) and "id" in a and decision["kind"] != "action":
            return a["id"]
        return a
    if decision["kind"] == "action" and isinstance(answer, dict):
        answer = {k: v for k, v in answer.items() if k != "preview"}   # the preview is for reading only
        if isinstance(answer.get("card"), dict):
            return {**answer, "card": answer["card"].get("id")}
        return answer
    if isinstance(answer, list):
        return [one(a) for a in answer]
    return one(answer)


_CARD_KINDS = ("select_cards", "order", "initial_meld")


def _seen_key(a):
    """How an answer names an option shown as a card: a visible card by its id or face, a hidden one by its
    handle or back, a special achievement by its name (None: it names nothing that can be shown)."""
    if isinstance(a, dict):
        if "ref" in a:
            return ("ref", a["ref"]) if isinstance(a["ref"], str) else None
        if "id" in a:
            return _seen_key(a["id"]) if isinstance(a["id"], int) else None
        if "special" in a:
            return ("special", a["special"]) if isinstance(a["special"], str) else None
        return None
    if isinstance(a, bool):
        return None
    if isinstance(a, int):
        return ("id", a)
    if isinstance(a, str):
        return ("ref", a) if len(a) == 17 and a.startswith("h") else ("special", a)
    return None


def answer_as_seen(cards: Cards, state: dict, viewer: int, answer):
    """An answer from the seat `viewer`, who may send anything, checked against the pending decision in the
    form that seat was shown it and turned into the engine's terms.

    Cards are matched as shown: a card the seat sees by its id (or its face), a card shown hidden by its handle
    (or its back) only; no handle is resolved to a card before it matches an option.  Whatever else an answer
    names (a hidden card's id, an unknown handle, another decision's back) is refused with the same words,
    which echo only what was sent, so neither the refusal nor its wording tells the seat anything its view
    does not.  The engine then checks the counts (IllegalAnswer, worded from the counts the seat was shown).
    Raises IllegalAnswer."""
    pending = state.get("pending")
    if pending is None or state.get("phase") == "over":
        raise IllegalAnswer("the game is over; there is nothing to answer")
    if viewer != pending["player"]:
        raise IllegalAnswer(f"decision {pending['id']} is for player {pending['player']}, not player {viewer}")
    kind, options, did = pending["kind"], pending["options"], pending["id"]
    if kind == "action":
        a = answer
        if isinstance(a, dict):
            a = {k: v for k, v in a.items() if k not in ("preview", "label")}   # for reading only
            if isinstance(a.get("card"), dict):                     # a card as shown: its face, by its id
                a["card"] = a["card"].get("id") if "ref" not in a["card"] else None
        for o in options:
            if o == a and _key(o) == _key(a):
                return o
        raise IllegalAnswer(f"{_show(answer)} is not one of the actions offered now (decision {did})")
    if kind not in _CARD_KINDS:
        return answer   # colours, players, values, decks, yes or no: shown as they are; the engine checks them
    index = {}
    for i, o in enumerate(options):
        shown = option_view(cards, state, pending, o, viewer)
        key = _seen_key(shown)
        if key is not None:
            index[key] = i
    hidden = any(k[0] == "ref" for k in index)
    hint = " (a card shown hidden is named by its ref)" if hidden else ""

    def one(a):
        key = _seen_key(a)
        i = index.get(key) if key is not None else None
        if i is None:
            raise IllegalAnswer(f"{_show(a)} is not one of the options of decision {did}{hint}")
        return options[i]
    if isinstance(answer, list):
        return [one(a) for a in answer]
    if answer is None:
        return None     # declining, where the decision allows it: the engine checks
    return one(answer)
