"""How a decision reads to a person, shared by the web table and the terminal.

``word(decision, view, effect_text)`` turns a decision as its player sees it
(runtime/api/views.py: kind, purpose, source card, the running effect) into a
title ("Pottery: you may return up to 3 cards"), the running effect's
English, one label per option ("Splay red right", "Meld Agriculture"), and
the buttons' verbs: ``confirm`` for a choice of several cards ("Return"),
``decline`` for saying no ("Skip", "Don't splay").  The labels are plain
text; a frontend draws the cards themselves.
"""
from __future__ import annotations

VERBS = {"meld": "Meld", "score": "Score", "tuck": "Tuck", "return": "Return", "junk": "Junk", "reveal": "Reveal",
         "keep": "Keep", "achieve": "Achieve", "remove": "Remove", "take": "Take", "transfer": "Transfer",
         "exchange": "Exchange", "choose": "Choose", "draw": "Draw", "splay": "Splay", "unsplay": "Unsplay",
         "rearrange": "Rearrange", "execute": "Execute", "place": "Place"}


def card_name(c) -> str:
    if isinstance(c, dict):
        if c.get("hidden"):
            return f"a hidden [{c['age']}]"
        if "special" in c:
            return c["special"]
        if c.get("token"):
            return c["name"]                   # a piece with no age (a museum)
        return f"{c['name']} [{c['age']}]"
    return str(c)


def _numbered(labels: list[str]) -> list[str]:
    """Labels that repeat (hidden cards of one age) told apart: 'Return a hidden [2] (1 of 3)'."""
    total = {lab: labels.count(lab) for lab in labels}
    seen: dict[str, int] = {}
    out = []
    for lab in labels:
        if total[lab] > 1:
            seen[lab] = seen.get(lab, 0) + 1
            lab = f"{lab} ({seen[lab]} of {total[lab]})"
        out.append(lab)
    return out


def _count(lo: int, hi: int, noun: str = "card") -> str:
    if lo == hi:
        return f"a {noun}" if hi == 1 else f"{hi} {noun}s"
    if lo == 0:
        return f"a {noun}" if hi == 1 else f"up to {hi} {noun}s"
    return f"{lo} to {hi} {noun}s"


def draw_age(view: dict, player: int) -> int:
    """The age an ordinary draw would come from (the highest top card, at least 1, skipping empty ages)."""
    tops = [pile["cards"][0]["age"] for pile in view["players"][player]["board"].values() if pile["cards"]]
    age = max(tops, default=1) or 1
    supply = {int(a): n for a, n in view["supply"].items()}
    while age in supply and supply[age] == 0:
        age += 1
    return age


def action_label(o: dict, view: dict, player: int) -> str:
    t = o["type"]
    if t == "draw":
        return f"Draw a [{draw_age(view, player)}]"
    where = f" from your {o['from']}" if o.get("from") else ""     # a set's zone the action may take its card from
    if t == "achieve":
        card = o.get("card")
        if isinstance(card, dict) and card.get("name"):    # one of your own cards (a secret): named, as you see it
            return f"Achieve {card['name']} (age {o['age']}){where}"
        return f"Achieve age {o['age']}{where}"
    if t == "set_action":      # a set's own action on a card (Endorse)
        return f"{o.get('label') or o.get('action')} {o['card']['name']}"
    label = f"{'Dogma' if t == 'dogma' else 'Meld'} {o['card']['name']}{where}"
    pv = o.get("preview")
    if t == "dogma" and pv:
        names = [view["players"][q]["name"] for q in pv["shares"]]
        hit = [view["players"][q]["name"] for q in pv["demanded"]]
        notes = []
        first = pv.get("cell_effects") or []
        for cell in dict.fromkeys(x["cell"] for x in first):   # 'echo effects of Bangle, Bell first'
            names = [x["card"] for x in first if x["cell"] == cell]
            label = next(x.get("label") or f"{cell} effect" for x in first if x["cell"] == cell)
            notes.append(f"{label}{'s' if len(names) > 1 else ''} of {', '.join(names)} first")
        if names:
            notes.append(f"{', '.join(names)} share{'s' if len(names) == 1 else ''}")
        if hit:
            notes.append(f"demands of {', '.join(hit)}")
        if notes:
            label += f" ({'; '.join(notes)})"
    return label


def word(decision: dict, view: dict, effect_text: str | None = None, option_texts: list[str] | None = None) -> dict:
    kind = decision["kind"]
    me = decision["player"]
    players = view["players"]
    src = decision.get("source")
    lead = f"{src}: " if src else ""
    if decision.get("demanded_by") is not None:
        lead = f"{src} ({players[decision['demanded_by']]['name']} demands): "
    purpose = decision.get("purpose", "choose")
    verb = VERBS.get(purpose, purpose.capitalize())
    lo, hi = decision.get("min", 1), decision.get("max", 1)
    options = decision.get("options") or []
    may = "you may " if decision.get("optional") or lo == 0 else ""
    out = {"title": "", "effect": effect_text, "labels": [], "confirm": None, "decline": None, "warning": None}
    if kind == "initial_meld":
        out["title"] = "Choose a card to meld first"
        out["labels"] = [f"Meld {card_name(o)}" for o in options]
    elif kind == "action":
        left = view["turn"]["actions_left"]
        out["title"] = f"Your turn: choose an action ({left} action{'s' if left != 1 else ''} left)"
        out["labels"] = [action_label(o, view, me) for o in options]
        sharing = [o for o in options if o["type"] == "dogma" and (o.get("preview") or {}).get("opponents_share")]
        if sharing:
            out["warning"] = "Opponents share " + ", ".join(o["card"]["name"] for o in sharing) + \
                             ": they would do its effects too (and you would get a free draw if they change anything)"
    elif kind == "select_cards":
        if decision.get("one_per_color"):
            what = "one card of each colour"
        elif "highest" in decision.get("prompt", "") or "lowest" in decision.get("prompt", ""):
            what = f"the {'highest' if 'highest' in decision['prompt'] else 'lowest'} " + \
                   ("card" if hi == 1 else f"{hi} cards")
        else:
            what = _count(lo, hi)
        if "sizes" in decision:     # only these counts: 'a card (or none)', '2 or 3 cards (or none)'
            counts = [k for k in decision["sizes"] if k]
            what = ("a card" if counts == [1] else
                    f"{' or '.join(str(k) for k in counts)} cards") + (" (or none)" if 0 in decision["sizes"] else "")
        if src is None and decision.get("prompt"):
            out["title"] = decision["prompt"][0].upper() + decision["prompt"][1:]
        else:
            out["title"] = f"{lead}{may}{purpose} {what}"
        out["labels"] = _numbered([f"{verb} {card_name(o)}" for o in options])
        out["confirm"] = verb
        if lo == 0:
            out["decline"] = "Skip"
    elif kind == "yes_no":
        act = decision.get("purpose")
        out["title"] = f"{lead}do you want to {act}?" if act else f"{lead}do you want to do it?"
        out["labels"] = [VERBS.get(act, "Yes") if act else "Yes", f"Don't {act}" if act else "No"]
    elif kind == "splay_color":
        d = decision.get("direction", "")
        out["title"] = f"{lead}{may}splay one of your colours {d}"
        out["labels"] = [f"Splay {c} {d}" for c in options]
        if decision.get("optional"):
            out["decline"] = "Don't splay"
    elif kind == "choose":
        what = decision.get("what", "option")
        noun = {"color": "colour", "two_colors": "two colours", "value": "value", "player": "player", "icon": "icon",
                "deck": "deck to look at its top card", "set": "card type"}
        out["title"] = f"{lead}choose {'' if what == 'two_colors' else 'a '}{noun.get(what, what)}"
        out["labels"] = [players[o]["name"] if what == "player" and isinstance(o, int) else
                         (f"Value {o}" if what == "value" else f"Deck {o}" if what == "deck" else str(o))
                         for o in options]
        if hi != 1:
            out["confirm"] = "Choose"
    elif kind == "choose_option":
        out["title"] = f"{lead}choose one of the effect's options"
        if option_texts and len(option_texts) == len(options):
            out["labels"] = [t[:1].upper() + t[1:] for t in option_texts]
        else:
            out["labels"] = [f"Option {o + 1}" for o in options]
    elif kind == "order":
        out["title"] = f"{lead}{decision.get('prompt', 'put the cards in order')}"
        out["labels"] = [card_name(o) for o in options]
        out["confirm"] = "Put in this order"
    else:
        out["title"] = f"{lead}{decision.get('prompt', kind)}"
        out["labels"] = [card_name(o) for o in options]
    return out
