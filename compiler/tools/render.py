"""The renderer: a card's AST -> canonical English, in the printed cards' style.

The English is generated from the compiled script every time (it is never
stored beside it), so it always says what the script does.  Every AST node
type has a rendering; a test renders every card of every edition.

Conventions follow the printed cards: "[N]" for a card of value N,
"[icon]" for icons, "I DEMAND you ...!" for demands, "you"/"my" as printed.
"""
from __future__ import annotations

import re
from dataclasses import replace

from .. import ast as A

NUMBERS = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven",
           "twelve"]
PAST = {"meld": "melded", "score": "scored", "tuck": "tucked", "return": "returned", "junk": "junked",
        "reveal": "revealed", "keep": "kept", "achieve": "achieved", "remove": "removed", "take": "took",
        "transfer": "transferred", "draw": "drew", "place": "placed"}


def past(verb: str) -> str:
    """A verb's past tense: the language's own from PAST, a set's verb by the regular rule (foreshadowed)."""
    return PAST.get(verb) or (verb + "d" if verb.endswith("e") else verb + "ed")
CMP = {"==": "equal to", "!=": "other than", "<": "lower than", "<=": "at most", ">": "higher than", ">=": "at least"}
CMP_COUNT = {"==": "exactly", "!=": "other than", "<": "fewer than", "<=": "at most", ">": "more than", ">=": "at least"}


def number(n: int) -> str:
    return NUMBERS[n] if 0 <= n < len(NUMBERS) else str(n)


def cap(s: str) -> str:
    return s[:1].upper() + s[1:] if s else s


# Phrases the templates build in places where English wants another word.
_POLISH = [(re.compile(r"\bfor each the (color|card|value)s "), r"for each \1 "),
           (re.compile(r"\bfor each the "), "for each of the "),
           (re.compile(r" in (your|my|their|that player's|its owner's|any player's) board\b"), r" on \1 board"),
           (re.compile(r"\bthe (most|fewest) the "), r"the \1 of the ")]


def _is_cards(e) -> bool:
    """Whether an expression is a set of cards (a selection, a filtered set, a builtin giving cards, or a
    difference or union of them), which a later mention may call 'them'."""
    from innoscript.core.builtins import BUILTINS
    if isinstance(e, (A.Selection, A.Where)):
        return True
    if isinstance(e, A.Call):
        b = BUILTINS.get(e.fn)
        return b is not None and b.result == "cards"
    if isinstance(e, A.BinOp) and e.op in ("+", "-"):
        return _is_cards(e.left)
    return False


def polish(text: str) -> str:
    """An effect's English, with the few fixed phrases above mended."""
    for pattern, repl in _POLISH:
        text = pattern.sub(repl, text)
    return text



def _set_word(name: str) -> str:
    """A set's name as the printed texts write it before a value: 'Echoes', but the base cards' 'base'."""
    return name if name == "base" else name.capitalize()

class Renderer:
    def __init__(self):
        self.lets: dict[str, str] = {}
        self.let_exprs: dict = {}        # a let's expression, and how often its name was read (for "them")
        self.let_uses: dict[str, int] = {}
        self.binds: dict[str, str] = {}
        self.either_options: list[list[str]] = []   # each 'either' of the effect rendered, its options' English
        self.flips: set[str] = set()      # names bound by 'flip a coin as NAME': true when you win the flip
        self.bind_verbs: dict[str, str] = {}
        self.in_demand = False
        self.cell_nouns: set[str] = set()  # plural nouns of cells' values met so far ('bonuses')
        self.this = "this card"
        self.acting = 0

    # ------------------------------------------------------------ card
    def card(self, card: A.Card) -> dict:
        self.this = card.name   # printed texts name their own card where a script says 'this card'
        # a cell's effect (an echo effect) is printed in its own box, apart from the dogma effects
        cell_effects = [{"cell": e.cell, "text": self.effect(e)} for e in card.effects if e.kind == "cell"]
        effects = [self.effect(e) for e in card.effects if e.kind != "cell"]
        out = {"name": card.name, "age": card.get("age"), "color": card.get("color"),
               "icons": card.get("icons"), "dogma": card.get("dogma"), "effects": effects}
        if cell_effects:
            out["cell_effects"] = cell_effects
        if card.get("cell_values"):
            out["cell_values"] = card.get("cell_values")
        if card.no_effect:
            out["effects"] = ["No effect."]    # the marker's English: a card printed without effects
        return out

    def _cell_word(self, arg) -> str:
        """A cell argument's word ('bonus'), as the printed texts say it."""
        return arg.name.replace("_", " ") if isinstance(arg, A.Name) else self.expr(arg)

    def hook(self, h: A.Hook) -> str:
        """A set's hook: when it runs, then what it does."""
        from innoscript.core.hook_points import HOOK_POINTS
        self._start()
        point = HOOK_POINTS.get(h.point)
        for (usual, _), name in zip(point.params if point else (), h.params):
            self.binds[name] = f"the {usual} card"
        when = cap(point.doc.split(":")[0]) if point else h.point
        return f"{when}: " + " ".join(cap(s) if s.endswith(".") else cap(s) + "." for s in self.sentences(h.body))

    def _start(self, kind: str = "") -> None:
        """What one effect (or hook) knows as it is read: nothing yet."""
        self.either_options = []
        self.lets, self.binds, self.bind_verbs, self.let_exprs, self.let_uses = {}, {}, {}, {}, {}
        self.last_bind, self.plural, self.drawn_verbs = None, {}, {}
        self.in_demand = kind == "demand"
        self.records = {}

    def effect(self, eff: A.Effect) -> str:
        self._start(eff.kind)
        for p in eff.params:
            self.lets[p.name] = self.expr(p.expr)
        sentences = self.sentences(eff.body)
        if not sentences:
            return ""
        if eff.kind in ("demand", "compel"):
            # as printed: "I DEMAND you transfer ...", "I COMPEL you to transfer ..."
            word = "I DEMAND you" if eff.kind == "demand" else "I COMPEL you to"
            if sentences[0].startswith("I ") and len(sentences) > 1:   # "I choose a color, and I DEMAND you ..."
                first, rest = f"{sentences[0].rstrip('.!')}, and {word} {sentences[1]}", sentences[2:]
            else:
                first, rest = f"{word} {sentences[0]}", sentences[1:]
            return polish(" ".join([first.rstrip(".") + "!"] + [cap(s).rstrip(".") + "!" for s in rest]))
        return polish(" ".join(cap(s) if s.endswith(".") else cap(s) + "." for s in sentences))

    # ------------------------------------------------------------ statements
    def sentences(self, stmts: list) -> list[str]:
        out: list[str] = []
        i = 0
        while i < len(stmts):
            s = stmts[i]
            nxt = stmts[i + 1] if i + 1 < len(stmts) else None
            if isinstance(s, A.ChooseCards) and isinstance(nxt, A.Execute) and isinstance(nxt.target, A.Name) \
                    and nxt.target.name == s.name and s.selection.quantity is not None \
                    and s.selection.quantity.kind == "one":
                # "choose a top card ... as c; execute c" reads "execute ... any top card ..."
                chosen = self.selection(s.selection)
                chosen = "any " + chosen[2:] if chosen.startswith("a ") else chosen
                self.binds[s.name] = "the chosen card"
                out.append(self.executed("as-if" if nxt.as_if else nxt.kind, chosen, nxt.must) + self.decided(nxt))
                i += 2
                continue
            lets = 0
            while isinstance(s, A.ChooseCards) and i + 1 + lets < len(stmts) and isinstance(stmts[i + 1 + lets], A.Let):
                lets += 1
            moved = stmts[i + 1 + lets] if isinstance(s, A.ChooseCards) and i + 1 + lets < len(stmts) else None
            if isinstance(moved, A.Transfer) and moved.selection.source == A.Name(s.name) \
                    and moved.selection.quantity is None and not moved.selection.filters and moved.times is None \
                    and s.selection.quantity is not None and s.selection.quantity.kind == "one":
                # "choose a top card ... as c; (let ...;) transfer c to X" reads "transfer a top card ... to X"
                chosen = self.selection(s.selection)
                self.binds[s.name] = "the transferred card"
                self.plural[s.name] = False
                for let in stmts[i + 1:i + 1 + lets]:
                    if isinstance(let.expr, A.Call) and let.expr.fn == "owner" and let.expr.args == [A.Name(s.name)]:
                        # its owner before the transfer: "to its owner's score pile" in this transfer, "its
                        # original board" in a later one
                        here = moved.dest.owner is not None and moved.dest.owner.name == let.name
                        self.lets[let.name] = "its owner's" if here else "its original"
                    else:
                        self.stmt(let)
                if moved.bind:
                    self.binds[moved.bind] = "the transferred card"
                    self.bind_verbs[moved.bind] = "transfer"
                    self.plural[moved.bind] = False
                    self.last_bind = moved.bind
                out.append(f"transfer {chosen} to {self.zone(moved.dest)}")
                i += 2 + lets
                continue
            if isinstance(s, A.Choose) and s.kind == "value" and isinstance(s.source, A.Call) \
                    and s.source.fn == "values" and isinstance(nxt, A.Draw) and nxt.age == A.Name(s.name) \
                    and nxt.count is None and nxt.times is None and not nxt.set \
                    and f"Name(name={s.name!r})" not in repr(stmts[i + 2:]):
                # "choose [3] or [4]; draw [v]" reads "draw a [3] or [4]", as printed
                verb = "draw" if not nxt.then else f"draw and {nxt.then}"
                if nxt.bind:
                    self.binds[nxt.bind] = "the drawn card"
                    self.drawn_verbs[nxt.bind] = nxt.then
                    self.plural[nxt.bind] = False
                    self.last_bind = nxt.bind
                first = s.source.args[0] if s.source.args else None
                article = self.a_value(first).split(" ", 1)[0] + " " if isinstance(first, A.Int) else ""
                out.append(f"{verb} {article}{self.expr(s.source)}")
                i += 2
                continue
            if isinstance(s, A.Choose) and s.kind == "color" and isinstance(nxt, A.Rearrange) \
                    and nxt.color == A.Name(s.name) and isinstance(s.source, A.Call) and s.source.fn == "colors":
                out.append(f"rearrange the order of one color of cards on {self.expr(s.source.args[0])}")
                i += 2
                continue
            if isinstance(s, A.Choose) and s.kind == "icon" and s.chooser == "me" and isinstance(nxt, A.Move) \
                    and any(f.icon == s.name for f in nxt.selection.filters):
                # "I choose an icon; return two cards with it": "... with the icon of my choice", as printed
                other = self.expr(s.source).removeprefix("any icon") if s.source is not None else ""
                self.binds[s.name] = ("the icon of my choice" + other).strip()
                i += 1
                continue
            if self._same_move_elsewhere(s, nxt):
                # "return all cards of value 2 from your hand; ... from your score pile": one sentence, as printed
                text, here, there = self.stmt(s), self.zone(s.selection.source), self.zone(nxt.selection.source)
                out.append(text.replace(f"from {here}", f"from {here} and {there}", 1))
                i += 2
                continue
            text = self.stmt(s)
            # "draw X" followed by "then Y" reads as one sentence on the cards
            if text:
                out.append(text)
            i += 1
        return out

    @staticmethod
    def _same_move_elsewhere(s, nxt) -> bool:
        """Two moves alike but for the zone they take from (both zones of the same player)."""
        if isinstance(s, A.Transfer) and isinstance(nxt, A.Transfer):
            if s.dest != nxt.dest:
                return False
        elif not (isinstance(s, A.Move) and isinstance(nxt, A.Move) and s.verb == nxt.verb):
            return False
        if not (s.bind is None and nxt.bind is None and s.times is None and nxt.times is None):
            return False
        a, b = s.selection, nxt.selection
        return (isinstance(a.source, A.Zone) and isinstance(b.source, A.Zone) and a.source.kind != b.source.kind
                and a.source.owner == b.source.owner and a.source.age is None and b.source.age is None
                and (a.quantity, a.order, a.position, a.each_color, a.filters, a.chooser)
                == (b.quantity, b.order, b.position, b.each_color, b.filters, b.chooser))

    def clause(self, stmts: list) -> str:
        parts = [p.rstrip(".") for p in self.sentences(stmts)]
        if not parts:
            return "do nothing"
        if len(parts) == 1:
            return parts[0]
        if len(parts) == 2:
            return f"{parts[0]} and {parts[1]}"
        return ", ".join(parts[:-1]) + ", and " + parts[-1]

    def stmt(self, s) -> str:
        return getattr(self, "s_" + type(s).__name__)(s)

    def times(self, t: A.Times | None) -> str:
        if t is None:
            return ""
        if t.kind == "every":
            return f" for every {number(t.every)} {self.counted(t.expr)}"
        return f" for each {self.counted(t.expr)}"

    def counted(self, e) -> str:
        """What a 'for each / for every' counts: icons, colours, cards, values."""
        if isinstance(e, A.Call) and e.fn == "icons":
            return f"{self.icon(e.args[0])} on {self.expr(e.args[1])}"
        if isinstance(e, A.Call) and e.fn in ("count", "count_player"):
            return self.counted(e.args[0])
        if isinstance(e, A.Call) and e.fn == "colors":
            return f"color on {self.expr(e.args[0])}"
        if isinstance(e, A.Call) and e.fn == "splayed":
            way = self.plain(e.args[0])
            return "color you have splayed" + ("" if way == "any" else f" {way}")
        if isinstance(e, A.Where) and isinstance(e.base, A.Call) and e.base.fn == "all_colors" \
                and isinstance(e.cond, A.Compare) and e.cond.op == ">" and e.cond.right == A.Int(0) \
                and isinstance(e.cond.left, A.Call) and e.cond.left.fn == "icons" \
                and isinstance(e.cond.left.args[1], A.Call) and e.cond.left.args[1].fn == "pile" \
                and isinstance(e.cond.left.args[1].args[1], A.Pronoun) and e.cond.left.args[1].args[1].who == "it":
            owner = self.possessive(e.cond.left.args[1].args[0])
            return f"color with {self.icon(e.cond.left.args[0])} on {owner} board"
        if isinstance(e, A.Call) and e.fn == "values_of":
            return f"different value of card {self.counted(e.args[0])[len('card '):] if self.counted(e.args[0]).startswith('card ') else 'in ' + self.expr(e.args[0])}"
        if isinstance(e, A.WithIcon):
            return f"{self.counted(e.base)} {'without' if e.negate else 'with'} {self._a(self.icon_word(e.icon))}"
        if isinstance(e, A.BinOp) and e.op == "-" and isinstance(e.left, A.Call) and e.left.fn == "colors":
            right = self.expr(e.right.args[0]) if isinstance(e.right, A.Call) and e.right.args else self.expr(e.right)
            return f"color present on {self.expr(e.left.args[0])} not present on {right}"
        if isinstance(e, A.Name) and e.name in self.bind_verbs:
            return f"card you {self.bind_verbs[e.name]}"
        if isinstance(e, A.ZoneExpr) and e.zone.owner is not None and e.zone.owner.kind in ("you", "me", "them") \
                and e.zone.kind in ("top", "hand", "score", "board"):
            # "for each top card on your board", "for each card in your hand"
            owner = self.owner(e.zone.owner)
            return {"top": f"top card on {owner} board", "hand": f"card in {owner} hand",
                    "score": f"card in {owner} score pile", "board": f"card on {owner} board"}[e.zone.kind]
        if isinstance(e, A.Name) and isinstance(self.let_exprs.get(e.name), A.Where) \
                and isinstance(self.let_exprs[e.name].base, A.PlayerSet):
            return self.counted(self.let_exprs[e.name])
        if isinstance(e, A.PlayerSet):
            return {"all": "player", "opponents": "opponent", "others": "other player"}[e.kind]
        if isinstance(e, A.Where) and isinstance(e.base, A.PlayerSet) and not e.name:
            return f"{self.counted(e.base)} {self.where(e.cond)}"
        return self.expr(e)

    def s_Draw(self, s: A.Draw) -> str:
        verb = "draw" if not s.then else f"draw and {s.then}"
        n = s.count
        if s.set and (s.set in self.binds or s.set in self.lets):     # a card type bound at run time
            kind = self.let_exprs.get(s.set) if s.set not in self.binds else None
            of = f"the type of {self.expr(kind.args[0])}" if isinstance(kind, A.Call) and kind.fn == "set" \
                else self.binds.get(s.set) or self.lets[s.set]
            qty = self.a_value(s.age) if n is None or (isinstance(n, A.Int) and n.value == 1) else \
                f"{self.expr(n)} {self.value_ref(s.age)}"
            qty = f"{qty} of {of}"
        elif n is None or (isinstance(n, A.Int) and n.value == 1):
            qty = self.a_value(s.age)
            if s.set:   # "draw an Echoes [1]", "draw a base [1]"
                word = _set_word(s.set)
                qty = f"{'an' if word[:1] in 'aeiouAEIOU' else 'a'} {word} {qty.split(' ', 1)[1]}"
        else:
            ref = self.value_ref(s.age)
            qty = f"{self.expr(n)} {ref}" if ref.startswith("[") else f"{self.expr(n)} cards of {ref}"
            if s.set:
                qty = f"{self.expr(n)} {_set_word(s.set)} {ref}" if ref.startswith("[") else \
                    f"{self.expr(n)} {_set_word(s.set)} cards of {ref}"
        if s.bind:
            self.drawn_verbs[s.bind] = s.then
            did = past(s.then) if s.then in ("meld", "tuck", "score") else "drawn"     # "the melded card"
            self.binds[s.bind] = f"the {did} card" if n is None and s.times is None else f"the {did} cards"
            self.plural[s.bind] = n is not None or s.times is not None
            self.last_bind = s.bind
        return f"{verb} {qty}{self.times(s.times)}"

    def a_value(self, age) -> str:
        ref = self.value_ref(age)
        if ref.startswith("["):
            return ("an " if ref[1:2] in ("8",) or ref.startswith("[11") else "a ") + ref
        return "a card of " + ref

    def value_ref(self, age) -> str:
        if isinstance(age, A.Int):
            return f"[{age.value}]"
        named = self.value_expr(age)
        if named in ("the chosen value", "that value"):       # "a card of that value"
            return named
        return f"value {named}" if self._said_as_is(age) else f"value {_equal_to(named)}"

    def _top_of(self, e) -> str | None:
        """A player's top cards ('your top cards'): whose they are ('your'), else None."""
        if isinstance(e, A.ZoneExpr) and e.zone.kind == "top" and e.zone.owner is not None \
                and e.zone.owner.kind not in ("opponents", "others", "all", "any_player", "any_opponent"):
            return self.owner(e.zone.owner)
        return None

    @staticmethod
    def _said_as_is(e) -> bool:
        """A value read off a card ('of value the melded card') or recorded during the action: no 'equal to'."""
        return (isinstance(e, A.Call) and e.fn == "value" and isinstance(e.args[0], (A.Name, A.Pronoun))) \
            or isinstance(e, A.ActionVar)

    def value_of(self, e: A.Call) -> str:
        """'the value of your highest achievement': highest/lowest of a zone, as printed."""
        arg = e.args[0]
        if isinstance(arg, A.ZoneExpr) and arg.zone.owner is not None and arg.zone.kind in ("achievements", "score",
                                                                                              "hand", "top"):
            noun = {"achievements": "achievement", "score": "card in your score pile", "hand": "card in your hand",
                    "top": "top card"}[arg.zone.kind]
            if arg.zone.kind == "achievements" or arg.zone.kind == "top":
                return f"the value of {self.owner(arg.zone.owner)} {e.fn} {noun}"
            return f"the value of the {e.fn} {noun}"
        return f"the {e.fn} value in {self.expr(arg)}"

    def value_expr(self, e) -> str:
        """A value, in the printed idiom where there is one."""
        if isinstance(e, A.BinOp) and e.op in ("+", "-") and isinstance(e.right, A.Int):
            n = e.right.value
            word = "higher" if e.op == "+" else "lower"
            return f"{number(n)} {word} than {self.value_expr(e.left)}"
        if isinstance(e, A.Call) and e.fn == "value":
            return self.expr(e.args[0])
        if isinstance(e, A.Call) and e.fn in ("highest", "lowest"):
            top = self._top_of(e.args[0])
            if top:
                return f"the {e.fn} top card on {top} board"      # "one higher than the highest top card on your board"
            return f"the {e.fn} card in {self.expr(e.args[0])}"
        if isinstance(e, A.Call) and e.fn in ("count", "count_player"):
            return f"equal to the number of {self.expr(e.args[0])}"
        if isinstance(e, A.Call) and e.fn in ("highest_value", "lowest_value"):
            return f"equal to {self.expr(e)}"
        return self.expr(e)

    @staticmethod
    def all_or_none(verb: str, sel: A.Selection, text: str) -> str:
        """'all or none of': the choice is the player's, and the text says they cannot stop halfway."""
        if sel.quantity is None or sel.quantity.kind != "all_or_none":
            return text
        if sel.order != "any":
            return f"you may {text}. If you {verb} one of the {sel.order}, you must {verb} all of the {sel.order}"
        return f"you may {text}. If you {verb} one, you must {verb} them all"

    def s_Move(self, s: A.Move) -> str:
        verb = {"take": "take into your hand", "keep": "keep", "remove": "remove from the game"}.get(s.verb, s.verb)
        t, q = s.times, s.selection.quantity
        if t is not None and t.kind == "each" and isinstance(t.expr, A.Call) and t.expr.fn in ("highest", "lowest") \
                and q is not None and q.kind == "one" and s.selection.order == "any" and not s.selection.filters:
            # "a card for each <a value>": "a number of cards ... equal to the value of your highest achievement"
            sel = self.selection(s.selection).replace("a card ", "a number of cards ", 1)
            return f"{verb} {sel} equal to {self.value_of(t.expr)}"
        claimed = self._claimed(s) if t is None else None
        eligible = [f for f in s.selection.filters if self._eligible(f)] if s.verb == "achieve" else []
        if eligible and not claimed and s.selection.quantity is not None and s.selection.quantity.kind == "one":
            # "achieve a card from your hand where (eligible(it))": "achieve a card from your hand, if eligible"
            sel = replace(s.selection, filters=[f for f in s.selection.filters if f not in eligible])
            claimed = self.all_or_none(s.verb, sel, f"achieve {self.selection(sel)}{self.times(s.times)}, if eligible")
        text = claimed or \
            self.all_or_none(s.verb, s.selection, f"{verb} {self.selection(s.selection)}{self.times(s.times)}")
        if s.verb == "place":
            text += " on top of its deck"
        if s.bind:
            q = s.selection.quantity
            one = (q is None or q.kind == "one" or (q.kind == "exact" and q.n == A.Int(1))) and (
                not isinstance(s.selection.source, A.Name) or not self.plural.get(s.selection.source.name, True))
            self.binds[s.bind] = f"the {past(s.verb)} {'card' if one else 'cards'}"
            self.bind_verbs[s.bind] = s.verb
            self.plural[s.bind] = not (q is None or q.kind == "one")
            self.last_bind = s.bind
        return text

    @staticmethod
    def _eligible(f: A.Filter) -> bool:
        return f.kind == "where" and isinstance(f.cond, A.Call) and f.cond.fn == "eligible" \
            and f.cond.args == [A.Pronoun("it")]

    def _claimed(self, s: A.Move) -> str | None:
        """'achieve a card from available achievements': claiming an achievement, as the printed texts say,
        with the eligibility the script asks for ('if eligible') or not ('ignoring eligibility')."""
        sel = s.selection
        if not (s.verb == "achieve" and isinstance(sel.source, A.Zone) and sel.source.kind == "available"
                and sel.order == "any" and not sel.each_color and sel.position is None and sel.chooser is None):
            return None
        q = sel.quantity
        eligible = [f for f in sel.filters if self._eligible(f)]
        rest = [f for f in sel.filters if f not in eligible]
        if q is None or q.kind == "one":
            what, plural = "an achievement", False
        elif q.kind == "all":
            what, plural = "all the achievements", True
        elif q.kind == "exact":
            what, plural = f"{self.expr(q.n)} achievements", True
        else:
            return None
        parts = [what] + [self.filter(f, plural) for f in rest]
        if rest and all(f.kind in ("value", "values") for f in rest):
            parts = [what, self._of_value(rest)]
        return " ".join(["claim"] + parts) + (", if eligible" if eligible else ", ignoring eligibility")

    def s_Dogma(self, s: A.Dogma) -> str:
        text = f"dogma {self.expr(s.target)}" + (f", {s.mark}" if s.mark else "")
        options = []
        for o in s.options:
            if o.kind == "own_icons":
                options.append("counting its icons in addition to your board's")
            elif o.kind == "no_cells":
                options.append("running no cell effects")
            elif o.kind == "twice":
                options.append("performing each of its effects twice yourself (each demand going round twice)")
            else:
                options.append(f"running the cell effects of {self.expr(o.cards)} instead of its pile's")
        return text + (", " + " and ".join(options) if options else "")

    def s_Transfer(self, s: A.Transfer) -> str:
        if s.bind:
            q = s.selection.quantity
            one = (q is None or q.kind == "one") and (
                not isinstance(s.selection.source, A.Name) or not self.plural.get(s.selection.source.name, True))
            self.binds[s.bind] = "the transferred card" if one else "the transferred cards"
            self.bind_verbs[s.bind] = "transfer"
            self.plural[s.bind] = not (q is None or q.kind == "one")
            self.last_bind = s.bind
        return self.all_or_none("transfer", s.selection,
                                f"transfer {self.selection(s.selection)}{self.times(s.times)} to {self.zone(s.dest)}")

    def s_Exchange(self, s: A.Exchange) -> str:
        return self.all_or_none("exchange", s.first,
                                f"exchange {self.selection(s.first)} with {self.selection(s.second)}")

    def s_Splay(self, s: A.Splay) -> str:
        if s.board is not None:
            target = self.splay_target(s.color).replace("your", self.owner(s.board), 1) \
                if s.board.kind != "you" else self.splay_target(s.color)
            return f"splay {target} {s.direction}"
        return f"splay {self.splay_target(s.color)} {s.direction}"

    def s_Unsplay(self, s: A.Unsplay) -> str:
        return f"unsplay {self.splay_target(s.color)}"

    def s_Rearrange(self, s: A.Rearrange) -> str:
        return f"rearrange the order of {self.splay_target(s.color)} on your board"

    def splay_target(self, e) -> str:
        if isinstance(e, A.AnyColor):
            return "any one color of your cards"
        if isinstance(e, A.Name) and e.name not in self.lets and e.name not in self.binds:
            return f"your {e.name} cards"
        if isinstance(e, A.BinOp) and e.op == "or":
            return " or ".join(self.splay_target(x) for x in (e.left, e.right)).replace(" cards or your ", " or ")
        if isinstance(e, A.Call) and e.fn == "splayed":
            return f"any one color of your cards currently splayed {self.plain(e.args[0])}"
        if isinstance(e, A.Call) and e.fn == "color":
            return "that color of your cards"
        return f"your cards of {self.expr(e)}"

    def s_If(self, s: A.If) -> str:
        c = s.cond
        if isinstance(c, A.Compare) and c.op == ">" and isinstance(c.right, A.ActionVar) \
                and any(isinstance(x, A.Record) and x.name == c.right.name and x.expr == c.left for x in s.then):
            self.records[c.right.name] = "max"     # recorded only when beaten: the most so far
        if self._guards_a_choice(s):
            return self.clause(s.then)
        if isinstance(s.cond, A.YouDo):
            head = "if you do not" if s.cond.negate else "if you do"
        elif isinstance(s.cond, A.CausedChange):
            head = "if this caused any change to occur"
        else:
            head = f"if {self.cond(s.cond)}"
        text = f"{head}, {self.clause(s.then)}"
        if s.orelse:
            text += f". Otherwise, {self.clause(s.orelse)}"
        return text

    @staticmethod
    def _guards_a_choice(s: A.If) -> bool:
        """'if count(L) > 0 { choose ... from L ... }': a choice from nothing does nothing, so the English
        leaves the test out."""
        c = s.cond
        return (not s.orelse and isinstance(c, A.Compare) and c.op == ">" and c.right == A.Int(0)
                and isinstance(c.left, A.Call) and c.left.fn in ("count", "count_player")
                and bool(s.then) and isinstance(s.then[0], A.Choose) and s.then[0].source == c.left.args[0])

    def s_May(self, s: A.May) -> str:
        return f"you may {self.clause(s.body)}"

    def s_Either(self, s: A.Either) -> str:
        opts = [self.clause(o) for o in s.options]
        self.either_options.append(opts)      # a decision's option labels (runtime/api/faces.py)
        return "choose to either " + ", or ".join(opts)

    def s_Choose(self, s: A.Choose) -> str:
        what = {"color": "a color", "value": "a value", "player": "a player", "icon": "an icon",
                "two_colors": "two colors", "set": "a card type"}[s.kind]
        src = f" from {self.expr(s.source)}" if s.source is not None else ""
        if s.kind == "value" and isinstance(s.source, A.Call) and s.source.fn == "values":
            what, src = self.expr(s.source), ""          # "choose [7] or [8]"
        if s.kind == "player" and isinstance(s.source, A.PlayerSet) and s.source.kind in ("opponents", "others"):
            what, src = ("an opponent" if s.source.kind == "opponents" else "another player"), ""   # as printed
        if s.kind == "value" and src.startswith(" from the values "):
            src = " " + src[len(" from the values "):]      # "choose a value shared by two or more of ..."
        who = "I choose" if s.chooser == "me" else "choose"
        self.binds[s.name] = {"color": "that color", "value": "the chosen value", "player": "that player",
                              "icon": "the chosen icon", "two_colors": "the chosen colors", "set": "that type"}[s.kind]
        return f"{who} {what}{src}"

    def s_ChooseCards(self, s: A.ChooseCards) -> str:
        self.binds[s.name] = "the chosen card"
        q = s.selection.quantity
        self.plural[s.name] = not (q is None or q.kind == "one")
        return f"choose {self.selection(s.selection)}"

    def s_Let(self, s: A.Let) -> str:
        self.lets[s.name] = self.expr(s.expr)
        self.let_exprs[s.name] = s.expr
        return ""

    def s_Record(self, s: A.Record) -> str:
        return ""  # remembered for the action; read back where it is compared (see e_ActionVar)

    def s_ForEach(self, s: A.ForEach) -> str:
        self.binds[s.name] = f"that {self.element(s.iterable)}"
        if len(s.body) == 1 and isinstance(s.body[0], (A.Splay, A.Unsplay)) and s.body[0].color == A.Name(s.name) \
                and getattr(s.body[0], "board", None) is None and self.element(s.iterable) == "color":
            # "for each color on your board, splay it aslant": "splay each color on your board aslant"
            way = f" {s.body[0].direction}" if isinstance(s.body[0], A.Splay) else ""
            return f"{'splay' if way else 'unsplay'} each {self.counted(s.iterable)}{way}"
        return f"for each of {self.expr(s.iterable)}, {self.clause(s.body)}"

    def s_Repeat(self, s: A.Repeat) -> str:
        if s.name:
            return f"repeat this effect using {self.expr(s.expr)}"
        return "repeat this effect"

    def s_Act(self, s: A.Act) -> str:
        who = self.expr(s.player)
        self.acting += 1
        body = self.sentences(s.body)
        self.acting -= 1
        parts = [_third_person(p.rstrip("."), who if i == 0 else "") for i, p in enumerate(body)]
        if not parts:
            return f"{who} does nothing"
        if len(parts) == 1:
            return parts[0]
        return ", ".join(parts[:-1]) + " and " + parts[-1]

    def s_Look(self, s) -> str:
        return "look at the top card of any deck, then place it back on top"

    def s_Flip(self, s: A.Flip) -> str:
        self.flips.add(s.name)
        return "flip a coin"

    def s_EndDogma(self, s) -> str:
        return "the dogma action is complete"

    def s_Win(self, s: A.Win) -> str:
        if isinstance(s.player, A.Pronoun) and s.player.who in ("you", "me"):
            return "you win" if s.player.who == "you" else "I win"
        return f"{self.expr(s.player)} wins"

    def s_Lose(self, s) -> str:
        return "you lose"

    def s_Claim(self, s: A.Claim) -> str:
        return f"claim the {s.achievement} achievement"

    def s_Execute(self, s: A.Execute) -> str:
        text = self.executed("as-if" if s.as_if else s.kind, self.expr(s.target), s.must)
        return text + self.decided(s)

    def decided(self, s: A.Execute) -> str:
        if s.decider is None:
            return ""
        return f", with {self.expr(s.decider)} making all decisions for you, seeing your cards"


    @staticmethod
    def executed(kind: str, what: str, must: bool = False) -> str:
        if must:
            return f"{Renderer.executed(kind, what)}, replacing 'may' with 'must'"
        if kind == "execute":
            return f"execute each of the non-demand effects of {what}. Do not share them"
        if kind == "as-if":
            return f"execute the effects of {what} as if they were on this card. Do not share them"
        return f"{kind.replace('fully-', 'fully ')} {what}"

    # ------------------------------------------------------------ selections
    def selection(self, sel: A.Selection) -> str:
        src = sel.source
        if (sel.position and sel.quantity is not None and sel.quantity.kind == "one" and isinstance(src, A.Zone)
                and src.kind == "board" and src.owner is not None and len(sel.filters) == 1
                and sel.filters[0].kind == "color" and isinstance(sel.filters[0].color, A.Name)
                and sel.filters[0].color.name not in self.lets and sel.filters[0].color.name not in self.binds):
            return f"{self.owner(src.owner)} {sel.position} {sel.filters[0].color.name} card"
        if (sel.position and (sel.quantity is None or sel.quantity.kind == "one") and isinstance(src, A.Zone)
                and src.kind == "deck" and not sel.filters):
            return f"the {sel.position} card of {self.zone(src)}"
        return self._selection(sel)

    def _of_value(self, filters: list) -> str:
        """Value filters after 'an achievement': 'of value [1] or [2]', 'of value equal to ...'."""
        values = " ".join(self.filter(f) for f in filters)
        if values.startswith("of the "):      # "of the highest value in ...": of value equal to it
            values = "equal to " + values[len("of "):]
        return f"of value {values.removeprefix('of value ')}"

    def _selection(self, sel: A.Selection) -> str:
        src = sel.source
        q = sel.quantity
        if isinstance(src, A.Zone) and sel.order == "any" and (q is None or q.kind == "one") and len(sel.filters) == 1 \
                and sel.filters[0].kind == "value" and sel.filters[0].cmp == "==" \
                and isinstance(sel.filters[0].value, A.Call) and sel.filters[0].value.fn in ("highest", "lowest") \
                and sel.filters[0].value.args == [A.ZoneExpr(src)]:
            # "a card of value highest(the junk) from the junk": the highest card in the junk
            return self._selection(replace(sel, order=sel.filters[0].value.fn, filters=[]))
        if isinstance(src, A.Zone) and src.kind == "available" and sel.order == "any" and not sel.each_color \
                and (sel.quantity is None or sel.quantity.kind == "one") and sel.position is None \
                and sel.chooser is None and all(f.kind in ("value", "values") for f in sel.filters):
            # "junk an available achievement of value [1] or [2]", as printed
            if not sel.filters:
                return "an available achievement"
            return f"an available achievement {self._of_value(sel.filters)}"
        if isinstance(sel.source, A.Beneath):
            return " ".join([self.expr(sel.source)] + [self.filter(f) for f in sel.filters])
        among = sel.filters[0].cond if len(sel.filters) == 1 and sel.filters[0].kind == "where" else None
        if isinstance(src, A.Zone) and src.kind == "hand" and src.owner is not None and src.owner.kind == "you" \
                and sel.order == "any" and not sel.each_color and sel.position is None and sel.chooser is None \
                and q is not None and q.kind in ("one", "all") and isinstance(among, A.In) and not among.negate \
                and among.item == A.Pronoun("it") and isinstance(among.collection, A.Name) \
                and among.collection.name in self.binds and self.plural.get(among.collection.name) \
                and self.binds[among.collection.name].startswith("the "):
            # "a card from your hand where (it in drawn)": one of the drawn cards (they went to the hand)
            bound = self.binds[among.collection.name]
            return f"one of {bound}" if q.kind == "one" else f"all {bound} in your hand"
        if isinstance(sel.source, A.Name) and sel.quantity is None and sel.order == "any" and not sel.filters:
            if sel.source.name == self.last_bind:
                return "them" if self.plural.get(sel.source.name) else "it"
            return self.expr(sel.source)
        q = sel.quantity
        plural = True
        words: list[str] = []
        if q is None:
            words.append("the" if sel.order != "any" else "a")
            plural = False
        elif q.kind == "one":
            words.append("the" if sel.order != "any" else "a")
            plural = False
        elif q.kind == "exact":
            words.append(("the " if sel.order != "any" else "") + self.expr(q.n))
            plural = not (isinstance(q.n, A.Int) and q.n.value == 1)
        elif q.kind == "up_to":
            words.append(f"up to {self.expr(q.n)}")
        elif q.kind == "range":
            words.append(f"{self.expr(q.n)} or {self.expr(q.n2)}")
        elif q.kind == "any_number":
            words.append("any number of")
        elif q.kind in ("all", "all_or_none"):
            words.append("all the")
        elif q.kind == "all_but":
            words.append(f"all but {self.expr(q.n)} of the")
        elif q.kind == "half":
            words.append(f"half (rounded {q.rounding}) of the")
        if sel.order != "any":
            words.append(sel.order)
        if sel.position:
            words.append(sel.position)
        colors = [f for f in sel.filters if f.kind in ("color", "noncolor") and isinstance(f.color, A.Name)
                  and f.color.name not in self.lets and f.color.name not in self.binds]
        for f in colors:
            words.append(("non-" if f.kind == "noncolor" else "") + f.color.name)
        words.append("cards" if plural else "card")
        if sel.unrevealed is not None:
            words.append("(unrevealed)")
        after: list[str] = []
        icon_filters: list[str] = []     # "with a [castle]": before the zone, as printed
        for f in sel.filters:
            if f in colors:
                continue
            after.append(self.filter(f, plural))
            if f.kind in ("with", "without"):
                icon_filters.append(after[-1])
        if sel.each_color:
            after.append("of each color")
        src = sel.source
        where = "in" if isinstance(src, A.Zone) and src.kind in ("hand", "score") and (
            sel.order != "any" or sel.unrevealed is not None) else "from"
        if isinstance(src, A.Zone):
            source = f"{where} {' and/or '.join(self.zone(z) for z in [src, *sel.also])}"
        else:
            source = f"from {self.expr(src)}"
        text = " ".join(w for w in words if w)
        value_first = [a for a in after if a.startswith("[")]
        if value_first and words[0] in ("a", "the", "all the") and len(words) == 2:
            # "a [2]", and "all [9] from your hand" as printed
            text = f"{'all' if words[0] == 'all the' else words[0]} " + " or ".join(v for v in value_first)
            after = [a for a in after if not a.startswith("[")]
        parts = [text] + [a for a in after if a in icon_filters] + [source] + \
                [a for a in after if a not in icon_filters]
        if sel.chooser == "me":
            parts.append("of my choice")
        return " ".join(p for p in parts if p)

    def filter(self, f: A.Filter, plural: bool = False) -> str:
        k = f.kind
        if k == "with":
            return f"with {self._a(self.icon_word(f.icon))}"
        if k == "without":
            return f"without {self._a(self.icon_word(f.icon))}"
        if k == "color":
            return f"of {self.color_phrase(f.color)}"
        if k == "noncolor":
            return f"not of {self.color_phrase(f.color)}"
        if k == "value":
            if f.cmp == "==":
                if isinstance(f.value, A.Int):
                    return f"[{f.value.value}]"
            named = self.expr(f.value)
            if named in ("the chosen value", "that value") and f.cmp in ("==", "<=", ">="):
                return f"of {named}" + {"==": "", "<=": " or less", ">=": " or more"}[f.cmp]   # as printed
            if f.cmp == "==" and named.startswith(("the highest value ", "the lowest value ")):
                return f"of {named}"        # "a top card of the highest value in the transferred cards"
            if f.cmp == "==":
                return f"of value {named if self._said_as_is(f.value) else _equal_to(named)}"
            return f"of value {CMP[f.cmp]} {self.expr(f.value)}"
        if k == "values":
            vs = [f"[{v.value}]" if isinstance(v, A.Int) else self.expr(v) for v in f.values]
            return " or ".join(vs) if len(vs) < 3 else ", ".join(vs[:-1]) + ", or " + vs[-1]
        if k == "color_on":
            return f"of the same color as any card on {self.zone(f.zone)}"
        if k == "color_not_on":
            return f"of a color not on {self.zone(f.zone)}"
        if k == "not_named":
            return f"other than {f.name}"
        if k == "named":
            return f"named {f.name}"
        if k == "not_this":
            return f"other than {self.this}"
        if k == "where" and isinstance(f.cond, A.Compare) and f.cond.op == ">" and f.cond.right == A.Int(0) \
                and f.cond.left == A.Call("demand_effects", [A.Pronoun("it")]):
            return "with a demand effect"
        if k == "where":
            return self.where(f.cond, plural)
        return k

    @staticmethod
    def _a(word: str) -> str:
        return f"a {word}" if word.startswith("[") else word

    def color_phrase(self, e) -> str:
        if isinstance(e, A.Name) and e.name not in self.lets and e.name not in self.binds:
            return f"color {e.name}"
        if isinstance(e, A.Call) and e.fn == "color" and len(e.args) == 1 and isinstance(e.args[0], A.Name) \
                and e.args[0].name in self.binds:
            return "that color"      # "the top card of that color", as printed
        return self.expr(e)

    # ------------------------------------------------------------ zones
    def owner(self, o: A.Owner | None, plural: bool = False) -> str:
        if o is None:
            return ""
        return {"you": "your", "me": "my", "them": "their", "opponents": "all opponents'",
                "any_opponent": "any opponent's", "others": "all other players'", "all": "all players'",
                "any_player": "any player's"}.get(o.kind) or self.possessive_name(o.name)

    def possessive_name(self, name: str) -> str:
        text = self.lets.get(name) or self.binds.get(name) or name
        if text == "you":      # the performer, named inside another player's block: still 'your'
            return _PERFORMER if self.acting else "your"
        if text in ("its original", "its owner's"):
            return text
        return f"{text}'s"

    def zone(self, z: A.Zone) -> str:
        names = {"hand": "hand", "score": "score pile", "board": "board", "top": "top cards",
                 "achievements": "achievements", "revealed": "revealed cards"}
        if z.kind == "shared":          # a set's game-wide zone: "the vault"
            return f"the {z.name}"
        if z.owner is not None and z.kind == "set":
            multi = z.owner.kind in ("opponents", "others", "all")
            return f"{self.owner(z.owner)} {z.name}{'s' if multi else ''}"
        if z.owner is not None:
            multi = z.owner.kind in ("opponents", "others", "all")
            word = names[z.kind]
            if multi and z.kind in ("hand", "board", "score"):
                word = {"hand": "hands", "board": "boards", "score": "score piles"}[z.kind]
            named = self.lets.get(z.owner.name) or self.binds.get(z.owner.name) if z.owner.kind == "binding" else None
            if named and named.startswith("the player "):     # "the board of the player on your right", as printed
                return f"the {word} of {named}"
            return f"{self.owner(z.owner)} {word}"
        if z.kind == "deck":
            if not isinstance(z.age, A.Int) and isinstance(z.age, A.Name) and z.age.name in self.binds:
                return "that deck"
            of = f"{_set_word(z.name)} " if z.name else ""    # "the Echoes [3] deck"
            ref = self.value_ref(z.age)
            if not ref.startswith("["):         # "the deck of that value", "the deck of value equal to ..."
                return f"the {of}deck of {ref}"
            return f"the {of}{ref} deck"
        return {"junk": "the junk", "available": "the available achievements",
                "available_special": "the available special achievements",
                "available_all": "the available standard and special achievements",
                "junk_special": "the special achievements in the junk",
                "revealed_all": "the revealed cards"}[z.kind]

    # ------------------------------------------------------------ expressions
    def plain(self, e) -> str:
        return e.value if isinstance(e, A.Str) else self.expr(e)

    def icon(self, e) -> str:
        return f"[{e.name}]" if isinstance(e, A.Name) and e.name not in self.binds else self.expr(e)

    def icon_word(self, name: str) -> str:
        """An icon written in a filter: '[crown]', or what a bound name stands for ('the chosen icon')."""
        return self.binds.get(name) or self.lets.get(name) or f"[{name}]"

    def cond(self, e) -> str:
        return self.expr(e)

    def expr(self, e, singular: bool = False) -> str:
        return getattr(self, "e_" + type(e).__name__)(e)

    def e_Int(self, e):
        return number(e.value)

    def e_Str(self, e):
        return e.value

    def e_Name(self, e):
        if e.name in self.flips:      # 'flip a coin as won'
            return "you win the flip"
        if e.name in self.lets:
            text = self.lets[e.name]
            self.let_uses[e.name] = self.let_uses.get(e.name, 0) + 1
            if self.let_uses[e.name] > 1 and len(text) > 40 and _is_cards(self.let_exprs.get(e.name)):
                return "them"      # a long set of cards named once already: not spelt out again
            return text
        if e.name in self.binds:
            return self.binds[e.name]
        return e.name

    def e_Call(self, e: A.Call):
        a = e.args
        f = e.fn
        if f in ("count", "count_player"):
            arg = a[0]
            if isinstance(arg, A.Where) and not arg.name and isinstance(arg.base, A.ZoneExpr) \
                    and arg.base.zone.kind in ("hand", "score", "board"):   # "the number of cards in your hand whose ..."
                prep = "on" if arg.base.zone.kind == "board" else "in"
                return f"the number of cards {prep} {self.expr(arg.base)} {self.where(arg.cond, True)}"
            return f"the number of {self.expr(arg)}"
        if f == "value":
            return self._attribute("value", a[0])
        if f in ("highest", "lowest"):
            top = self._top_of(a[0])
            if top:
                return f"the value of {top} {f} top card"
            return f"the {f} value in {self.expr(a[0])}"
        if f in ("highest_value", "lowest_value"):
            inner = self.expr(a[0])
            if isinstance(a[0], A.Call) and a[0].fn == "cell_values" and inner.startswith("the "):
                # "the highest bonus on your board", as printed
                word = a[0].args[0].name if isinstance(a[0].args[0], A.Name) else "value"
                return f"the {f[:-6]} {word} {inner.split(' ', 2)[2]}"
            return f"the {f[:-6]} of {inner}"
        if f == "color":
            return self._attribute("color", a[0])
        if f == "colors":
            return f"the colors in {self.expr(a[0])}"
        if f == "values_of":
            return f"the different values in {self.expr(a[0])}"
        if f == "values":
            return " or ".join(f"[{x.value}]" if isinstance(x, A.Int) else f"[{self.expr(x)}]" for x in a)
        if f == "icons":
            return f"the number of {self.icon(a[0])} on {self.expr(a[1])}"
        if f == "top":
            if isinstance(a[1], A.Name) and a[1].name not in self.lets and a[1].name not in self.binds \
                    and isinstance(a[0], A.ZoneExpr) and a[0].zone.kind == "board" and a[0].zone.owner is not None \
                    and a[0].zone.owner.kind in ("you", "me", "them"):
                return f"the top {a[1].name} card on {self.owner(a[0].zone.owner)} board"   # as printed
            return f"the top card of {self.expr(a[1])} in {self.expr(a[0])}"
        if f == "pile":
            owner = self.possessive(a[0])
            if isinstance(a[1], A.Name) and a[1].name not in self.binds and a[1].name not in self.lets:
                return f"{owner} {a[1].name} cards"
            return f"{owner} cards of {self.expr(a[1])}"
        if f == "first":
            return f"the top {self.expr(a[1])} of {self.expr(a[0])}"
        if f == "below":
            return f"all but the top {self.expr(a[1])} of {self.expr(a[0])}"
        if f == "last":
            return f"the bottom {self.expr(a[1])} of {self.expr(a[0])}"
        if f == "splayed":
            way = self.plain(a[0])
            return f"the colors you have splayed {'in any direction' if way == 'any' else way}"
        if f == "splayable":
            return f"the colors of {self.possessive(a[0])} board that could be splayed {self.plain(a[1])}"
        if f == "splay_of":
            return f"how {self.expr(a[0])} {self.expr(a[1])} cards are splayed"
        if f == "points":
            return f"{self.possessive(a[0])} score"
        if f == "achievements":
            return f"the number of achievements {self.expr(a[0])} {'have' if self.expr(a[0]) in ('you', 'they') else 'has'}"
        if f == "demand_effects":
            return f"the number of {self.expr(a[0])} with a demand effect"
        if f == "owner":
            return f"the owner of {self.expr(a[0])}"
        if f == "scored_this_turn":
            return f"the cards {self.expr(a[0])} scored this turn"
        if f == "drawn_this_turn":
            return f"the number of cards {self.expr(a[0])} drew this turn"
        if f == "turn_number":
            return "the number of this turn"
        if f in ("left_of", "right_of"):
            side = "left" if f == "left_of" else "right"
            if isinstance(a[0], A.Pronoun) and a[0].who == "you":
                return f"the player on your {side}"       # as printed
            return f"the player to the {side} of {self.expr(a[0])}"
        if f == "tucked_this_turn":
            return f"the cards {self.expr(a[0])} tucked this turn"
        if f == "this_card":
            return self.this
        if f == "your_turn":
            return "it is your turn"
        if f == "was_marked" and a and isinstance(a[0], A.Str):
            return f"{self.this} was {a[0].value}"
        if f == "set":
            return f"the set of {self.expr(a[0])}"
        if f == "cell_value":
            return f"the {self._cell_word(a[0])} on {self.expr(a[1])}"
        if f == "featured_icon":
            return self._attribute("featured icon", a[0])
        if f == "cell_values":
            noun = _plural(self._cell_word(a[0]))
            self.cell_nouns.add(noun)      # "there are any of the bonuses on ..."
            return f"the {noun} on {self.expr(a[1])}"
        if f == "cell_score":
            return f"{self.possessive(a[1])} points from {_plural(self._cell_word(a[0]))}"
        if f == "cell_effects":
            return f"the number of visible {self._cell_word(a[0])} effects on {self.expr(a[1])}"
        if f == "boards_during_action":
            return f"the players whose boards {self.expr(a[0])} has been on during this action"
        if f == "board_at_start":
            return f"the player whose board {self.expr(a[0])} started this action on"
        if f == "hex_position":
            return f"the position of the hex on {self.expr(a[0])}"
        if f == "draw_age":
            return f"the age a draw of {self.expr(a[0])} comes from"
        if f in ("max", "min"):
            return f"the {'larger' if f == 'max' else 'smaller'} of {' and '.join(self.expr(x) for x in a)}"
        if f == "splay_rank":
            return f"the rank of {self.plain(a[0])} splay"
        if f == "highest_splay":
            return f"{self.possessive(a[0])} highest splay"
        if f == "eligible":
            return f"you are eligible to achieve {self.expr(a[0])}"
        if f == "has" and len(a) == 2:
            return f"{self.expr(a[0])} {'have' if self.plural.get(getattr(a[0], 'name', None)) else 'has'} {self.icon(a[1])}"
        if f == "alphabetically_before":
            return f"{self.subject(a[0])} comes before {self.expr(a[1])} in the alphabet"
        if f == "same_icons":
            return f"{self.subject(a[0])} has exactly the same icons, in type and number, as one of {self.expr(a[1])}"
        if f == "in_play":
            return f"the set of {self.expr(a[0])} is in use"
        if f == "home":
            return f"the home of {self.expr(a[0])}"
        if f == "changes":
            return "the number of changes to the game so far in this action"
        if f == "all_colors":
            return "any color"
        if f == "all_icons":
            return "any icon"
        if f == "ages":
            return "any value"
        return f"{f}({', '.join(self.expr(x) for x in a)})"

    @staticmethod
    def _countable(e) -> bool:
        """A player's own zone or pile: phrased as 'you have N ...'."""
        if isinstance(e, A.Where) and not e.name and isinstance(e.cond, A.Is) and isinstance(e.cond.what, A.Name) \
                and isinstance(e.cond.subject, A.Pronoun) and e.cond.subject.who == "it":
            return Renderer._countable(e.base)
        if isinstance(e, A.Call) and e.fn == "pile":
            return isinstance(e.args[0], A.Pronoun) and e.args[0].who == "you"
        return isinstance(e, A.ZoneExpr) and e.zone.owner is not None and e.zone.owner.kind == "you"

    def noun(self, e) -> str:
        """A collection as the thing counted: 'green cards on your board', 'cards in your hand'."""
        if isinstance(e, A.Where) and self._countable(e):
            return f"{e.cond.what.name} {self.noun(e.base)}".replace(" top cards", " top cards", 1)
        if isinstance(e, A.Call) and e.fn == "pile" and isinstance(e.args[0], A.Pronoun) and e.args[0].who == "you":
            color = e.args[1]
            if isinstance(color, A.Name) and color.name not in self.lets and color.name not in self.binds:
                return f"{color.name} cards on your board"
            return f"cards of {self.expr(color)} on your board"
        if isinstance(e, A.ZoneExpr) and e.zone.owner is not None and e.zone.owner.kind == "you":
            if e.zone.kind == "set":      # a set's zone: "cards in your forecast"
                return f"cards in {self.expr(e)}"
            return {"hand": "cards in your hand", "score": "cards in your score pile", "board": "cards on your board",
                    "top": "top cards on your board", "achievements": "achievements"}.get(e.zone.kind, self.expr(e))
        if isinstance(e, A.ZoneExpr) and e.zone.kind in ("hand", "score", "board"):   # "cards in all players' hands"
            return f"cards {'on' if e.zone.kind == 'board' else 'in'} {self.expr(e)}"
        if isinstance(e, A.Name) and e.name in self.bind_verbs:
            return f"{past(self.bind_verbs[e.name])} cards"
        if isinstance(e, A.Call) and e.fn == "colors":
            return f"colors on {self.expr(e.args[0])}"
        return self.expr(e)

    def _there_are(self, noun: str, none: bool) -> str:
        """'there are any cards in your hand', 'there are any of your top cards', 'there is no icon where'."""
        if noun.startswith("any "):
            return f"there is no {noun[4:]}" if none else f"there is {noun}"
        if noun.startswith("the single ") or noun.startswith("a "):
            return f"there is no {noun.split(' ', 1)[1]}" if none else f"there is {noun}"
        words = noun.split(" ")
        if words[0] in ("your", "my", "their", "its") and len(words) > 1 and words[1] in ("hand", "score"):
            return f"there are {'no' if none else 'any'} cards in {noun}"     # "any cards in your hand that ..."
        plural = any(w in ("cards", "colors", "values", "achievements") or w in self.cell_nouns for w in words[:6])
        if plural and (words[0] in ("your", "my", "their", "the", "all", "its", "those") or words[0].endswith("'s")):
            return f"there are {'none' if none else 'any'} of {noun}"
        return f"there are {'no' if none else 'any'} {noun}"

    def possessive(self, e) -> str:
        w = self.expr(e)
        return {"you": "your", "I": "my", "they": "their"}.get(w, f"{w}'s")

    def _visible(self, e) -> str | None:
        """'count(first(pile(P, C), 1)) + count(below(pile(P, C), 1) where (splay_of(P, C) != "none"))': the
        top card of a pile, and the cards under it when it is splayed: the visible cards of that color."""
        if not (isinstance(e, A.BinOp) and e.op == "+"):
            return None
        top, under = e.left, e.right
        if not (isinstance(top, A.Call) and top.fn in ("count", "count_player") and isinstance(top.args[0], A.Call)
                and top.args[0].fn == "first" and top.args[0].args[1] == A.Int(1)
                and isinstance(top.args[0].args[0], A.Call) and top.args[0].args[0].fn == "pile"):
            return None
        pile = top.args[0].args[0]
        who, color = pile.args
        if not (isinstance(under, A.Call) and under.fn in ("count", "count_player") and isinstance(under.args[0], A.Where)
                and under.args[0].base == A.Call("below", [pile, A.Int(1)])
                and under.args[0].cond == A.Compare("!=", A.Call("splay_of", [who, color]), A.Str("none"))):
            return None
        if isinstance(color, A.Name) and color.name not in self.lets and color.name not in self.binds:
            cards = f"visible {color.name} cards"
        else:
            cards = f"visible cards of {self.color_phrase(color)}"
        return f"the number of {cards} on {self.possessive(who)} board"

    def e_BinOp(self, e: A.BinOp):
        visible = self._visible(e)
        if visible:
            return visible
        if e.op == "and":
            only = self._only_player(e)
            if only:
                return only
            tops = self._top_cards_anywhere(e)
            if tops:
                return tops
        if e.op == "or":
            return f"{self.expr(e.left)} or {self.expr(e.right)}"
        if e.op == "and":
            return f"{self.expr(e.left)} and {self.expr(e.right)}"
        if e.op == "-" and isinstance(e.left, A.Call) and e.left.fn in ("all_icons", "all_colors") \
                and isinstance(e.right, A.Name) and e.right.name not in self.binds and e.right.name not in self.lets:
            kind = "icon" if e.left.fn == "all_icons" else "color"
            other = f"[{e.right.name}]" if kind == "icon" else e.right.name
            return f"any {kind} other than {other}"
        if e.op == "-" and not isinstance(e.right, A.Int):
            return f"{self.expr(e.left)} not in {self.expr(e.right)}".replace("the colors in ", "colors present on ", 1)
        if e.op in ("+", "-") and isinstance(e.right, A.Int):
            return self.value_expr(e)
        if e.op == "//":
            return f"{self.expr(e.left)} divided by {self.expr(e.right)} (rounded down)"
        return f"{self.expr(e.left)} {({'+': 'plus', '-': 'minus', '*': 'times'})[e.op]} {self.expr(e.right)}"

    @staticmethod
    def _is_pronoun(e, who: str) -> bool:
        return isinstance(e, A.Pronoun) and e.who == who

    def _each_player(self, q: A.Quantified) -> str | None:
        """'all other players have (f(them) < f(you))' reads 'you have more ... than each other player'."""
        c = q.cond
        if q.kind == "any" and isinstance(c, A.Compare) and c.op in (">", "<") and isinstance(c.left, A.Call) \
                and isinstance(c.right, A.Call) and c.left.fn == c.right.fn == "points" \
                and self._is_pronoun(c.left.args[0], "them") and self._is_pronoun(c.right.args[0], "you"):
            who = {"others": "another player", "opponents": "an opponent", "all": "a player"}[q.players.kind]
            return f"{who} has a {'higher' if c.op == '>' else 'lower'} score than you"
        if q.kind != "all" or not isinstance(c, A.Compare):
            return None
        who = {"others": "each other player", "opponents": "each opponent", "all": "every player"}[q.players.kind]
        sides = (c.left, c.right)
        mine = next((x for x in sides if isinstance(x, A.Call) and x.args and self._is_pronoun(x.args[0], "you")), None)
        scaled = next((x for x in sides if isinstance(x, A.BinOp) and x.op == "*" and isinstance(x.left, A.Int)
                       and isinstance(x.right, A.Call) and self._is_pronoun(x.right.args[0], "them")), None)
        theirs = next((x for x in sides if isinstance(x, A.Call) and x.args and self._is_pronoun(x.args[0], "them")),
                      scaled.right if scaled else None)
        if mine is None or theirs is None or mine.fn != theirs.fn or mine.fn not in ("achievements", "points"):
            return None
        noun = {"achievements": "achievements", "points": "points"}[mine.fn]
        op = c.op if c.left is mine else {"<": ">", ">": "<", "<=": ">=", ">=": "<="}.get(c.op, c.op)
        if scaled is not None and op == ">=":
            times = {2: "twice", 3: "three times"}.get(scaled.left.value, f"{number(scaled.left.value)} times")
            return f"you have at least {times} as many {noun} as {who}"
        if scaled is None and op in (">", "<"):
            return f"you have {'more' if op == '>' else 'fewer'} {noun} than {who}"
        return None

    def _measure(self, e) -> tuple[str, str, str] | None:
        """A count of a player's icons or cards, as (whose: 'you'/'them', what it counts, its noun's kind)."""
        if isinstance(e, A.Call) and e.fn == "icons" and len(e.args) == 2 and isinstance(e.args[0], A.Name) \
                and e.args[0].name not in self.binds and e.args[0].name not in self.lets \
                and isinstance(e.args[1], A.ZoneExpr) and e.args[1].zone.kind == "board" \
                and e.args[1].zone.owner is not None and e.args[1].zone.owner.kind in ("you", "them"):
            return e.args[1].zone.owner.kind, f"[{e.args[0].name}]", "icons"
        if isinstance(e, A.Call) and e.fn in ("count", "count_player") and isinstance(e.args[0], A.ZoneExpr) \
                and e.args[0].zone.owner is not None and e.args[0].zone.owner.kind in ("you", "them") \
                and e.args[0].zone.kind in ("hand", "score", "board", "top"):
            kind = e.args[0].zone.kind
            what = {"hand": "cards in your hand", "score": "cards in your score pile", "board": "cards on your board",
                    "top": "top cards on your board"}[kind]
            return e.args[0].zone.owner.kind, what, "cards"
        return None

    def _mine_against_theirs(self, c) -> tuple[str, str, str] | None:
        """'f(them) OP f(you)' as (how yours compares with theirs, what is counted, its kind)."""
        if not (isinstance(c, A.Compare) and c.op in ("<", ">", "<=", ">=")):
            return None
        left, right = self._measure(c.left), self._measure(c.right)
        if left is None or right is None or left[1:] != right[1:] or {left[0], right[0]} != {"you", "them"}:
            return None
        op = c.op if left[0] == "you" else {"<": ">", ">": "<", "<=": ">=", ">=": "<="}[c.op]
        return op, left[1], left[2]

    def _most_or_least(self, q: A.Quantified) -> str | None:
        """'all other players have (f(them) < f(you))': you have the most of it ('or tie for the most' when a tie
        is enough); several such, all strict: 'you have fewer [factory], fewer [crown], and fewer [castle] than
        each other player'."""
        if q.kind not in ("all", "no") or q.players.kind not in ("others", "opponents", "all"):
            return None
        if q.kind == "all" and isinstance(q.cond, A.BinOp) and q.cond.op == "and" and q.players.kind != "all":
            parts, stack = [], [q.cond]
            while stack:
                x = stack.pop(0)
                if isinstance(x, A.BinOp) and x.op == "and":
                    stack[:0] = [x.left, x.right]
                else:
                    parts.append(self._mine_against_theirs(x))
            if any(p is None for p in parts) or len({p[0] for p in parts}) != 1 or parts[0][0] not in ("<", ">"):
                return None
            word = "more" if parts[0][0] == ">" else "fewer"
            items = [f"{word} {p[1]}" for p in parts]
            listed = items[0] if len(items) == 1 else ", ".join(items[:-1]) + ", and " + items[-1]
            who = {"others": "each other player", "opponents": "each opponent"}[q.players.kind]
            return f"you have {listed} than {who}"
        found = self._mine_against_theirs(q.cond)
        if found is None:
            return None
        op, what, kind = found
        if q.kind == "no":      # no player has theirs < yours: every player has theirs >= yours
            op = {"<": ">=", ">": "<=", "<=": ">", ">=": "<"}[op]
        if q.players.kind == "all" and op in ("<", ">"):      # never true of yourself
            return None
        most = "the most" if op in (">", ">=") else ("the least" if kind == "icons" else "the fewest")
        return f"you have {most} {what}" + (f", or tie for {most}" if op in (">=", "<=") else "")

    def _only_player(self, e: A.BinOp) -> str | None:
        """'count(your Z) == N and no other players have (count(their Z) == N)': you are the only player with N Z."""
        a, b = e.left, e.right
        if not (isinstance(a, A.Compare) and isinstance(b, A.Quantified) and b.kind == "no"
                and b.players.kind in ("others", "opponents") and isinstance(b.cond, A.Compare)):
            return None
        x, y = a, b.cond
        if x.op != y.op or x.right != y.right or not (isinstance(x.left, A.Call) and x.left.fn in ("count", "count_player")
                                                       and isinstance(y.left, A.Call) and y.left.fn in ("count", "count_player")):
            return None
        mine, theirs = x.left.args[0], y.left.args[0]
        if not (isinstance(mine, A.ZoneExpr) and isinstance(theirs, A.ZoneExpr) and mine.zone.kind == theirs.zone.kind
                and mine.zone.owner is not None and mine.zone.owner.kind == "you"):
            return None
        kind = {"top": "top cards", "hand": "cards in hand", "score": "cards in their score pile",
                "achievements": "achievements", "board": "cards on their board"}.get(mine.zone.kind)
        if kind is None or x.op != "==":
            return None
        return f"you are the only player with {self.expr(x.right)} {kind}"

    def _icon_in_common(self, e) -> tuple[str, str] | None:
        """'count(all_icons() where (has(A, it) and has(B, it)))': the icons A and B have in common."""
        if not (isinstance(e, A.Call) and e.fn in ("count", "count_player") and isinstance(e.args[0], A.Where)):
            return None
        w = e.args[0]
        c = w.cond
        if not (isinstance(w.base, A.Call) and w.base.fn == "all_icons" and isinstance(c, A.BinOp) and c.op == "and"):
            return None
        icon = A.Name(w.name) if w.name else A.Pronoun("it")
        sides = []
        for x in (c.left, c.right):
            if not (isinstance(x, A.Call) and x.fn == "has" and len(x.args) == 2 and x.args[1] == icon):
                return None
            sides.append(self.expr(x.args[0]))
        return sides[0], sides[1]

    def _all_are(self, e: A.Compare) -> str | None:
        """'count(Z where (not (it is C) and value(it) < N)) == 0': all non-C Z are value [N] or higher."""
        left = e.left
        if not (e.op == "==" and isinstance(e.right, A.Int) and e.right.value == 0 and isinstance(left, A.Call)
                and left.fn in ("count", "count_player") and isinstance(left.args[0], A.Where) and not left.args[0].name):
            return None
        where = left.args[0]
        conds, stack = [], [where.cond]
        while stack:
            c = stack.pop()
            if isinstance(c, A.BinOp) and c.op == "and":
                stack += [c.right, c.left]
            else:
                conds.append(c)
        adjectives, predicate = [], None
        flip = {"<": "or higher", "<=": "higher", ">": "or lower", ">=": "lower", "!=": ""}
        for c in conds:
            if isinstance(c, A.Not) and isinstance(c.operand, A.Is) and self._is_pronoun(c.operand.subject, "it") \
                    and isinstance(c.operand.what, A.Name):
                adjectives.append(f"non-{c.operand.what.name}")
            elif isinstance(c, A.Compare) and c.op in flip and isinstance(c.left, A.Call) and c.left.fn == "value" \
                    and self._is_pronoun(c.left.args[0], "it") and isinstance(c.right, A.Int) and predicate is None:
                n = c.right.value
                predicate = f"value [{n}] {flip[c.op]}".strip() if c.op in ("<", ">", "!=") else \
                    f"value {'higher' if c.op == '<=' else 'lower'} than [{n}]"
            else:
                return None
        if predicate is None:
            return None
        return f"all {' '.join(adjectives + [self.noun(where.base)])} are {predicate}"

    def e_Compare(self, e: A.Compare):
        all_are = self._all_are(e)
        if all_are:
            return all_are
        left = e.left
        if isinstance(left, A.Call) and left.fn == "splay_of" and isinstance(e.right, A.Str) and e.op in ("==", "!="):
            # "that player's cards of that color are splayed left"
            color = left.args[1]
            cards = f"{color.name} cards" if isinstance(color, A.Name) and color.name not in self.lets \
                and color.name not in self.binds else f"cards of {self.expr(color)}"
            way = "not splayed" if e.right.value == "none" else f"splayed {e.right.value}"
            return f"{self.possessive(left.args[0])} {cards} are {'not ' if e.op == '!=' else ''}{way}".replace(
                "are not not splayed", "are splayed")
        if isinstance(left, A.Call) and left.fn in ("count", "count_player") and isinstance(left.args[0], A.Call) \
                and left.args[0].fn == "splayed" and isinstance(e.right, A.Int) and e.op in ("==", ">="):
            way = self.plain(left.args[0].args[0])
            n = self.expr(e.right) + (" or more" if e.op == ">=" else "")
            return f"you have {n} colors splayed" + (", each in any direction" if way == "any" else f" {way}")
        if isinstance(left, A.Call) and left.fn in ("count", "count_player") and isinstance(left.args[0], A.Call) \
                and left.args[0].fn == "colors" and isinstance(e.right, A.Call) and e.right.fn in ("count", "count_player") \
                and e.right.args[0] == left.args[0].args[0] and e.op == "<":
            return f"two or more of {self.expr(e.right.args[0])} are the same color"
        if e.op == "==" and e.right == A.Int(1) and isinstance(left, A.Call) and left.fn in ("count", "count_player") \
                and isinstance(left.args[0], A.Call) and left.args[0].fn in ("colors", "values_of") \
                and isinstance(left.args[0].args[0], A.Name):
            # "count(colors(drawn)) == 1": the drawn cards are all of one color
            cards = self.expr(left.args[0].args[0])
            return f"{cards} are all the same color" if left.args[0].fn == "colors" else \
                f"{cards} all have the same value"
        zero = isinstance(e.right, A.Int) and e.right.value == 0
        shared = self._icon_in_common(left) if zero and e.op in (">", "==") else None
        if shared:      # "count(all_icons() where (has(A, it) and has(B, it))) > 0"
            a, b = shared
            return f"{a} {'shares an' if e.op == '>' else 'shares no'} icon with {b}"
        if zero and e.op in (">", "==", "!=") and (isinstance(left, A.ActionVar) and left.name.endswith("_by_demand")):
            verb = left.name[: -len("_by_demand")]
            return (f"any card was {verb} due to the demand" if e.op != "==" else
                    f"no cards were {verb} due to this demand")
        if isinstance(e.right, A.ActionVar) and self.records.get(e.right.name) == "max" and isinstance(left, A.Call) \
                and left.fn in ("count", "count_player") and isinstance(left.args[0], A.Name) and left.args[0].name in self.bind_verbs:
            v = self.bind_verbs[left.args[0].name]
            return f"you {past(v)} more cards than any other player so far during this dogma action"
        if isinstance(left, A.Call) and left.fn in ("count", "count_player") and isinstance(e.right, A.Call) and e.right.fn in ("count", "count_player") \
                and e.op in (">", "<") and all(self._countable(x.args[0]) for x in (left, e.right)):
            a, b = self.noun(left.args[0]), self.noun(e.right.args[0])
            return f"you have {'more' if e.op == '>' else 'fewer'} {a} than {b}"
        if zero and e.op == "==" and isinstance(left, A.Call) and left.fn in ("count", "count_player") \
                and isinstance(left.args[0], A.WithIcon) and left.args[0].negate:
            base = self.noun(left.args[0].base)
            return f"each of {base} has a [{left.args[0].icon}]"
        if isinstance(left, A.Call) and left.fn in ("count", "count_player") and isinstance(e.right, A.Int) and e.right.value > 0 \
                and self._countable(left.args[0]):
            n = self.expr(e.right)
            phrase = {">=": f"{n} or more", "==": f"exactly {n}", ">": f"more than {n}", "<": f"fewer than {n}",
                      "<=": f"at most {n}", "!=": f"other than {n}"}[e.op]
            return f"you have {phrase} {self.noun(left.args[0])}"
        if zero and e.op in (">", "==", "!=") and isinstance(left, A.Call) and left.fn in ("count", "count_player"):
            what = left.args[0]
            if isinstance(what, A.Name) and (what.name in self.bind_verbs or self.drawn_verbs.get(what.name)):
                v = self.bind_verbs.get(what.name) or self.drawn_verbs[what.name]    # "draw and score ... as x"
                return f"you {past(v)} any" if e.op != "==" else f"you {past(v)} none"
            return self._there_are(self.noun(what), e.op == "==")
        if isinstance(left, A.Call) and left.fn in ("count", "count_player") and isinstance(left.args[0], A.Name) \
                and left.args[0].name in self.bind_verbs and isinstance(e.right, A.Int) and e.op in ("==", ">="):
            v = self.bind_verbs[left.args[0].name]     # "if you melded four or more cards", "if you returned three"
            n = self.expr(e.right) + (" or more" if e.op == ">=" else "")
            return f"you {past(v)} {n} cards"
        if isinstance(left, A.Call) and left.fn in ("count", "count_player"):
            return f"{self.expr(left)} is {CMP_COUNT[e.op]} {self.expr(e.right)}"
        if isinstance(left, A.Call) and left.fn == "icons" and isinstance(e.right, A.Int):
            board = self.expr(left.args[1])
            who = "they" if board.startswith("their ") else "you"     # said of each player in turn: "they have"
            return f"{who} have {CMP_COUNT[e.op]} {self.expr(e.right)} {self.icon(left.args[0])} on {board}"
        return f"{self.expr(left)} is {CMP[e.op]} {self.expr(e.right)}"

    def e_Not(self, e):
        o = e.operand
        if isinstance(o, A.Is):
            return f"{self.subject(o.subject)} is not {self.expr(o.what)}"
        if isinstance(o, A.HasIcon):
            return f"{self.subject(o.subject)} does not have {self._a(self.icon_word(o.icon))}"
        if isinstance(o, A.Call) and o.fn == "your_turn":
            return "it is not your turn"
        if isinstance(o, A.Name) and o.name in self.flips:
            return "you lose the flip"
        return f"not {self.expr(o)}"

    def e_Neg(self, e):
        return f"minus {self.expr(e.operand)}"

    def e_HasIcon(self, e: A.HasIcon):
        return f"{self.subject(e.subject)} has {self._a(self.icon_word(e.icon))}"

    def subject(self, e) -> str:
        if isinstance(e, A.Name) and e.name in self.binds and not e.name in self.lets:
            return "it"
        return self.expr(e)

    def e_Is(self, e: A.Is):
        return f"{self.subject(e.subject)} is {self.expr(e.what)}"

    def e_In(self, e: A.In):
        item = self.expr(e.item)
        coll = self.expr(e.collection)
        tops = self._top_of(e.collection.args[0]) if isinstance(e.collection, A.Call) and e.collection.fn == "colors" \
            and e.collection.args else None
        if isinstance(e.item, A.Call) and e.item.fn == "color" and tops in ("your", "my"):
            # "color(x) in colors(your top cards)": you have a top card of its color
            who = "you" if tops == "your" else "I"
            subject = self.subject(e.item.args[0])
            color = "its color" if subject == "it" else f"the color of {subject}"
            return f"{who} {'do not have' if e.negate else 'have'} a top card of {color}"
        if isinstance(e.item, A.Call) and e.item.fn == "color":
            item = f"{self.subject(e.item.args[0])} is the same color as any card"
            coll = coll.replace("the colors in ", "on ")
            return item + (" not " if e.negate else " ") + coll.replace("on ", "on ", 1)
        z = e.collection.zone if isinstance(e.collection, A.ZoneExpr) else None
        if z is not None and z.kind == "top" and z.owner is not None and z.owner.kind == "all" \
                and not self.plural.get(getattr(e.item, "name", None), True):
            return f"{item} is {'not ' if e.negate else ''}still a top card"   # on any board
        return f"{item} is {'not ' if e.negate else ''}among {coll}"

    def element(self, e) -> str:
        """What one item of a collection is called: 'that player', 'that color', 'that value', 'that card'."""
        if isinstance(e, A.Name) and e.name in self.let_exprs:
            return self.element(self.let_exprs[e.name])
        if isinstance(e, A.PlayerSet):
            return "player"
        if isinstance(e, A.Call) and e.fn in ("colors", "all_colors", "splayed"):
            return "color"
        if isinstance(e, A.Call) and e.fn in ("values_of", "values", "ages", "cell_values"):
            return "value"
        if isinstance(e, A.Call) and e.fn == "all_icons":
            return "icon"
        if isinstance(e, A.Where):
            return self.element(e.base)
        return "card"

    def _attribute(self, attr: str, of) -> str:
        """'its value' of the card a condition is about, else 'the value of X'."""
        if isinstance(of, A.Pronoun) and of.who == "it":
            return f"its {attr}"
        return f"the {attr} of {self.expr(of)}"

    def where(self, cond, plural: bool = False) -> str:
        """A filter's condition as a relative clause: 'that is among the drawn cards', 'whose value is 3'
        ('that are', 'that have' after plural cards); 'and it is' inside it reads 'and is'."""
        text = self.cond(cond)
        be, have = ("are", "have") if plural else ("is", "has")
        for lead, rel in (("it is ", f"that {be} "), ("it has ", f"that {have} "), ("its ", "whose ")):
            if text.startswith(lead):
                text = rel + text[len(lead):]
                for joint in (" and ", " or "):
                    text = text.replace(f"{joint}it is ", f"{joint}{be} ").replace(f"{joint}it has ", f"{joint}{have} ")
                return text
        return f"where {text}"

    def e_Where(self, e: A.Where):
        shared = self._shared_values(e)
        if shared:
            return shared
        if e.name:
            self.binds[e.name] = f"that {self.element(e.base)}"
        base = self.expr(e.base)
        return f"{base} {self.where(e.cond, not base.startswith('any '))}"

    def _shared_values(self, e: A.Where) -> str | None:
        """'values_of(C) where x (count(C where (value(it) == x)) >= N)': the values N or more of C share."""
        c = e.cond
        if not (e.name and isinstance(e.base, A.Call) and e.base.fn == "values_of" and isinstance(c, A.Compare)
                and c.op == ">=" and isinstance(c.right, A.Int) and isinstance(c.left, A.Call) and c.left.fn in ("count", "count_player")
                and isinstance(c.left.args[0], A.Where)):
            return None
        inner = c.left.args[0]
        same = inner.cond
        if not (inner.base == e.base.args[0] and isinstance(same, A.Compare) and same.op == "=="
                and same.right == A.Name(e.name) and isinstance(same.left, A.Call) and same.left.fn == "value"
                and same.left.args == [A.Pronoun("it")]):
            return None
        return f"the values shared by {self.expr(c.right)} or more of {self.expr(inner.base)}"

    def e_WithIcon(self, e: A.WithIcon):
        return f"{self.expr(e.base)} {'without' if e.negate else 'with'} {self._a(self.icon_word(e.icon))}"

    def e_Pronoun(self, e: A.Pronoun):
        return {"you": "you", "me": "I", "them": "they", "it": "it"}[e.who]

    def e_AnyColor(self, e):
        return "any color"

    def e_ActionVar(self, e: A.ActionVar):
        if e.name.endswith("_by_demand"):
            verb = e.name[: -len("_by_demand")]
            return f"the number of cards {verb} due to the demand"
        return "the number recorded so far during this dogma action"

    def e_OwnVar(self, e: A.OwnVar):
        # the name says what was recorded: 'your.card_drawn_due_to_the_echo_effect'
        words = e.name.replace("_", " ")
        return f"the {words.replace('you ', 'I ') if e.who == 'me' else words}"

    def e_PlayerSet(self, e: A.PlayerSet):
        return {"all": "all players", "opponents": "opponents", "others": "other players"}[e.kind]

    def _top_cards_anywhere(self, e: A.BinOp) -> str | None:
        """'"A" in all players' top cards and "B" in all players' top cards': A and B are top cards on any board."""
        items = []
        for side in (e.left, e.right):
            if not (isinstance(side, A.In) and not side.negate and isinstance(side.item, A.Str)
                    and isinstance(side.collection, A.ZoneExpr) and side.collection.zone.kind == "top"
                    and side.collection.zone.owner is not None and side.collection.zone.owner.kind == "all"):
                return None
            items.append(side.item.value)
        return f"{items[0]} and {items[1]} are top cards on any board"

    def e_Quantified(self, e: A.Quantified):
        each = self._each_player(e) or self._most_or_least(e)
        if each:
            return each
        who = self.e_PlayerSet(e.players)
        one = {"opponents": "opponent", "other players": "other player", "all players": "player",
               "players": "player"}.get(who)
        if one:     # "each opponent has", "no other player has"
            lead = {"any": f"any {one}", "no": f"no {one}"}.get(e.kind, f"each {one}")
        else:
            lead = {"any": f"any of {who}", "no": f"none of {who}"}.get(e.kind, f"each of {who}")
        cond = self.expr(e.cond)
        if cond.startswith("they have "):                 # "each opponent has fewer than three [leaf] ..."
            return f"{lead} has {cond[len('they have '):]}"
        if cond.startswith("their ") and " is " in cond:   # "no player has their score lower than yours"
            return f"{lead} has {cond.replace(' is ', ' ', 1)}"
        if cond.startswith("the ") and " is " in cond:     # a comparison: "for each opponent, the number of ..."
            return f"for {lead}, {cond}"
        if cond.startswith("they is "):                    # 'them in X': "each player is among ..."
            return f"{lead} {cond[len('they '):]}"
        return f"{lead} has {cond}".replace("has they", "has")

    def e_SinglePlayer(self, e: A.SinglePlayer):
        measure = self.expr(e.measure)
        if isinstance(e.measure, A.Call) and e.measure.fn == "icons":
            measure = f"{self.icon(e.measure.args[0])} on their board"
        elif isinstance(e.measure, A.Call) and e.measure.fn == "points":
            measure = "points" if e.extreme in ("most", "least") else "score"
        return f"the single player with the {e.extreme} {measure}"

    def pronoun_for(self, e) -> str:
        """A card named just before reads 'it' ("the card beneath it")."""
        if isinstance(e, A.Name) and e.name == self.last_bind:
            return "them" if self.plural.get(e.name) else "it"
        return self.expr(e)

    def e_Beneath(self, e: A.Beneath):
        return f"{'all the cards' if e.all else 'the card'} beneath {self.pronoun_for(e.card)}"

    def e_PileEnd(self, e: A.PileEnd):
        owner = self.owner(e.owner)
        n = number(e.n.value) if isinstance(e.n, A.Int) else self.expr(e.n)
        c = e.color
        if isinstance(c, A.Call) and c.fn == "color":
            color = None, "that color"
        else:
            word = self.expr(c)
            color = (word, None) if " " not in word else (None, word)
        adjective, phrase = color
        if e.kind == "bottom":
            return f"{owner} {n} bottom {adjective} cards" if adjective else f"{owner} {n} bottom cards of {phrase}"
        cards = f"{owner} top {n} {adjective} cards" if adjective else f"{owner} top {n} cards of {phrase}"
        return f"all but {cards}" if e.kind == "all_but_top" else cards

    def e_DirectlyUnder(self, e: A.DirectlyUnder):
        over = self.a_value(e.value) if e.value is not None else self.expr(e.cards)
        s = e.subject
        if isinstance(s, A.Name) and self.drawn_verbs.get(s.name) == "tuck":
            return f"you tucked directly under {over}"
        return f"{self.expr(s)} is directly under {over}"

    def e_ZoneExpr(self, e: A.ZoneExpr):
        return self.zone(e.zone)


_PERFORMER = "\x00your"
_VERB_S = {"may": "may", "do": "does", "have": "has", "take": "takes", "choose": "chooses"}


def _third_person(text: str, who: str) -> str:
    """'draw a [3]' said of another player: 'that player draws a [3]' (their cards, their hand)."""
    words = text.split(" ")
    if words[0] == "you" and len(words) > 1:
        words = words[1:]
    verb = words[0]
    if verb in _VERB_S:
        words[0] = _VERB_S[verb]
    elif verb.endswith(("sh", "ch", "x", "s")):
        words[0] = verb + "es"
    else:
        words[0] = verb + "s"
    rest = " ".join(words).replace(" your ", " their ").replace(" you ", " they ").replace(_PERFORMER, "your")
    return f"{who} {rest}".strip()


def _equal_to(value: str) -> str:
    """A value named by what it is taken from: 'of value equal to the number of ...', as printed; a number, a
    value already 'equal to' something, or one 'higher'/'lower' than another stays as it is."""
    first = value.split(" ", 1)[0]
    if value.startswith(("equal to ", "[", "at ")) or first in NUMBERS or first.isdigit() \
            or re.match(r"\S+ (higher|lower) than ", value):
        return value
    return f"equal to {value}"


def _plural(word: str) -> str:
    return word + ("es" if word.endswith(("s", "x", "ch", "sh")) else "s")


def render_card(card: A.Card) -> dict:
    return Renderer().card(card)


def render_text(card: A.Card) -> str:
    r = render_card(card)
    icons = r["icons"] or []
    cells = [f"{w} {b}" if b else w or "-" for w, b in zip(icons, r.get("cell_values") or [None] * len(icons))]
    lines = [f"{r['name']} (age {r['age']}, {r['color']})",
             f"icons: {' '.join(cells)}   dogma: {'[' + r['dogma'] + ']' if r['dogma'] else 'none'}"]
    for ce in r.get("cell_effects", []):
        lines.append(f"{ce['cell']}: {ce['text']}")
    for i, text in enumerate(r["effects"], 1):
        lines.append(f"{i}. {text}")
    if card.get("face_only"):
        lines.append(f"(face only: a card of the set {card.get('set')}, which this engine does not have; no effects)")
    elif not r["effects"] and not r.get("cell_effects"):
        lines.append("(no effects scripted: not implemented)")
    return "\n".join(lines)
