"""Choices inside effects: selecting cards, yes/no, colours, values, players and options.

Each choice either finds its answer forced (one candidate, all candidates)
or asks a decision; ``select`` turns the effect's selection mode (count,
all, each colour, all but, half) and order (highest, lowest) into the
smallest honest question, and records whether the selection was full
(``sel_full``) for "if you do" conditions.
"""
from __future__ import annotations

from ..machine import vm
from ..state.board import locate, values


class Choices:
    """Choices that effects ask of players. Mixed into the Engine (runtime/rules/engine.py)."""

    def _chooser(self, frame, chooser: str, cands) -> int:
        if chooser == "me":
            return frame["me"]
        if chooser == "owner" and cands:
            owner = locate(self.state, cands[0])[1]
            if owner is not None:
                return owner
        return frame["you"]

    def select(self, frame, cands, mode, order, chooser, optional, lo, hi, unrevealed=False) -> list[int]:
        """Choose among cands; ``unrevealed``: the chooser is shown the options' backs only (age, set)."""
        cards = self.cards
        age = cards.age if not cards.board_value else values(cards, self.state, self.icon_cache)   # by value

        def ask(decision: dict):
            if unrevealed:
                decision["unrevealed"] = True
            return self.ask(decision, frame)

        n = len(cands)
        who = self._chooser(frame, chooser, cands)
        if frame.get("must") and optional:   # 'replacing may with must': done where it can be, never with nothing
            optional = False
            lo = max(lo, 1) if mode == "count" else lo
        frame["sel_full"] = None
        if n == 0:
            frame["sel_full"] = False if (mode == "count" and (lo > 0 or optional)) else None
            return []
        if mode == "each_color":
            groups: dict[str, list[int]] = {}
            for c in cands:
                groups.setdefault(self.cards.color[c], []).append(c)
            if order != "any":
                for col, cs in groups.items():
                    best = (max if order == "highest" else min)(age[c] for c in cs)
                    groups[col] = [c for c in cs if age[c] == best]
            if all(len(cs) == 1 for cs in groups.values()) and not optional:
                return [cs[0] for cs in groups.values()]
            flat = [c for cs in groups.values() for c in cs]
            # one of each colour, or (a "may") none at all
            return ask({"player": who, "kind": "select_cards", "options": flat, "min": 0 if optional else len(groups),
                        "max": len(groups), "one_per_color": True, "optional": optional,
                        "prompt": "choose one card of each colour"})
        if mode in ("all", "all_or_none"):
            chosen = cands
            if order != "any":
                best = (max if order == "highest" else min)(age[c] for c in cands)
                chosen = [c for c in cands if age[c] == best]
            prompt = f"all {len(chosen)} of them, or none?" if mode == "all_or_none" else "do it?"
            if (optional or mode == "all_or_none") and not self.ask(
                    {"player": frame["you"], "kind": "yes_no", "options": [True, False], "prompt": prompt}, frame):
                frame["sel_full"] = False
                return []
            return chosen
        if mode == "all_but":
            k = n - lo
        elif mode == "half_down":
            k = n // 2
        elif mode == "half_up":
            k = (n + 1) // 2
        else:
            k = None
        if k is not None:
            lo = hi = max(k, 0)
            if lo == 0:
                return []
        want_max = n if hi == vm.ALL else min(hi, n)
        if want_max <= 0:
            return []
        want_min = 0 if optional else min(lo, want_max)
        exact = lo == hi and hi != vm.ALL and lo > 1 and mode == "count"
        if order != "any":
            ranked = sorted(cands, key=lambda c: -age[c] if order == "highest" else age[c])
            boundary = age[ranked[want_max - 1]]
            beyond = (lambda v: v > boundary) if order == "highest" else (lambda v: v < boundary)
            forced = [c for c in ranked if beyond(age[c])]
            tied = [c for c in ranked if age[c] == boundary]
            need = want_max - len(forced)
            if need == len(tied) and not optional:
                chosen = forced + tied
            else:
                picked = ask({"player": who, "kind": "select_cards", "options": tied,
                              "min": 0 if optional else need, "max": need, "optional": optional,
                              "prompt": f"choose the {order} card(s)"})
                chosen = (forced + picked) if picked else []
        elif want_min == want_max == n:
            chosen = list(cands)
        else:
            decision = {"player": who, "kind": "select_cards", "options": list(cands), "min": want_min,
                        "max": want_max, "optional": optional, "prompt": "choose cards"}
            if optional and exact:  # "you may return three cards": none, or as many of the three as possible
                decision["sizes"] = [0, want_max]
            elif optional and min(lo, want_max) > 1:     # "you may score two or three cards": none, two or three
                decision["sizes"] = [0, *range(min(lo, want_max), want_max + 1)]
            chosen = ask(decision)
            frame["answered_order"] = list(chosen)
        frame["sel_full"] = (len(chosen) == lo) if exact else None
        if not chosen:
            frame["sel_full"] = False
        return chosen

    def ask_yes_no(self, frame) -> bool:
        if frame.get("must"):     # 'replacing may with must'
            return True
        return self.ask({"player": frame["you"], "kind": "yes_no", "options": [True, False], "optional": True,
                         "prompt": "you may"}, frame)

    def choose(self, frame, what: str, chooser: str, options: list):
        # each option once, in first-seen order: 'choose value from' a list with repeats (two bonuses of 6)
        options = list(dict.fromkeys(o for o in options if o is not None))
        if not options:
            return [] if what == "two_colors" else None
        who = frame["me"] if chooser == "me" else frame["you"]
        if what == "two_colors":
            k = min(2, len(options))
            if k == len(options):
                return list(options)
            return self.ask({"player": who, "kind": "choose", "what": what, "options": options, "min": k, "max": k,
                             "prompt": "choose two colours"}, frame)
        if len(options) == 1:
            return options[0]
        return self.ask({"player": who, "kind": "choose", "what": what, "options": options,
                         "prompt": f"choose a {what}"}, frame)

    def choose_option(self, frame, n: int) -> int:
        return self.ask({"player": frame["you"], "kind": "choose_option", "options": list(range(n)),
                         "prompt": "choose one"}, frame)
