"""Stage 3: resolve names and check types on the AST.

Checks, each reported at the offending node's position:
colours, icons, card names and special achievements against the edition
(with "did you mean"); bindings used before they are made; builtin calls
(name, arity, argument types); 'it' outside a filter, 'them' outside a
player condition; 'if you do' with no earlier action; card metadata.

The result is a map from node id to type, read by the code generator.
Types: int, bool, cards, color, colors, player, players, icon, values, str.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from innoscript.core.builtins import BUILTINS
from innoscript.core.diagnostics import Pos, Reporter, did_you_mean
from innoscript.core.opcodes import ENUMS
from innoscript.core.hook_points import EVENT_VERBS, HOOK_POINTS
from . import ast as A

COLLECTIONS = {"cards", "colors", "players", "values", "icons"}
ELEMENT = {"cards": "cards", "colors": "color", "players": "player", "values": "int", "icons": "icon"}


# The language's own verbs (the grammar's keywords); a set's verbs come from its manifest (Vocabulary).
BASE_MOVE_VERBS = ("meld", "score", "tuck", "return", "junk", "reveal", "keep", "achieve", "remove", "take")
BASE_DRAW_VERBS = ("meld", "score", "tuck", "reveal", "junk", "achieve")


# English before a draw's age, where a set's name may stand: the script writes no article and digits
_COUNT_WORDS = {"a": None, "an": None, "one": None, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6,
                "seven": 7, "eight": 8, "nine": 9, "ten": 10}


# how each free Dogma option is written (compiler/ast.py DogmaOption), for messages
_DOGMA_OPTION_WORDS = {"own_icons": "counting its icons", "no_cells": "running no cell effects",
                       "cells_of": "running the cell effects of", "twice": "doubling its effects"}


@dataclass
class Vocabulary:
    """What names an edition knows; built from the edition manifest."""

    colors: list[str]
    icons: list[str]
    hex: str
    ages: list[int]
    sets: list[str]
    card_names: set[str] = field(default_factory=set)
    specials: set[str] = field(default_factory=set)
    # from the set manifests of the sets in play (see innoscript/core/editions.py)
    set_names: list[str] = field(default_factory=list)     # sets with supply piles of their own
    zones: list[str] = field(default_factory=list)         # per-player zones ('forecast')
    shared_zones: list[str] = field(default_factory=list)  # game-wide zones ('the NAME': scope game)
    zone_verbs: dict[str, str] = field(default_factory=dict)   # move verb -> zone ('foreshadow' -> 'forecast')
    verb_aliases: dict[str, str] = field(default_factory=dict)  # a set's verb -> the verb it moves as ('promote' -> 'meld')
    marks: list[str] = field(default_factory=list)         # marks a free Dogma may carry ('foreseen')
    hex_like: list[str] = field(default_factory=list)      # icons that are hexes ('music_note')
    cells: dict[str, dict] = field(default_factory=dict)   # a set's cells: word -> spec ('echo': effect, 'bonus': value)
    card_types: list[str] = field(default_factory=list)    # types of cards a set carries, not in play ('cities')
    set_actions: list[str] = field(default_factory=list)   # the actions the sets add ('endorse')
    positions: list[str] = field(default_factory=list)     # the edition's icon positions, then the sets' own
    edition_positions: int = 4                             # how many of them are the edition's


def _compatible(have: str, want: str) -> bool:
    if want == "any" or have == want or have == "any":
        return True
    pairs = {("color", "colors"), ("player", "players"), ("int", "values"), ("icon", "icons")}
    return (have, want) in pairs


class Resolver:
    def __init__(self, vocab: Vocabulary, reporter: Reporter):
        self.v = vocab
        self.r = reporter
        self.types: dict[int, str] = {}
        self.scopes: list[dict[str, str]] = []
        self.all_bound: set[str] = set()
        self.it_type: list[str] = []      # type of 'it' in enclosing filters
        self.them_depth = 0
        self.acting = 0                   # inside 'P does { ... }'
        self.actions_seen = False
        self.params: set[str] = set()
        self.own_records: dict[str, str] = {}     # 'record your NAME': its type, across the card's effects

    # ------------------------------------------------------------ card
    def card(self, card: A.Card, check_meta: bool = True) -> dict[int, str]:
        if card.hooks:
            for h in card.hooks:
                self.hook(h)
            return self.types
        if check_meta:
            self.check_meta(card)
        for i, eff in enumerate(card.effects):
            if eff.kind == "cell":
                self.effect_cell(eff, card.effects[:i])
            self.scopes = [{}]
            self.actions_seen = False
            self.all_bound = _bindings_in(eff.body)
            if not eff.body:
                self.r.error("E305", "this effect has no statements", eff.pos)
            self.params = {p.name for p in eff.params}
            for p in eff.params:
                self.s_Let(p)
            self.block(eff.body)
        return self.types

    def effect_cell(self, eff: A.Effect, before: list) -> None:
        """'echo { ... }': the effect of an effect cell a set in play declares, before the card's other effects."""
        spec = self.v.cells.get(eff.cell)
        if spec is None:
            effects = [w for w, c in self.v.cells.items() if c.get("effect")]
            self.r.error("E213", f"'{eff.cell}' is not an effect of a set in play", eff.pos,
                         did_you_mean(eff.cell, [*effects, "effect", "demand", "compel"])
                         or "a set's cell effects come with the set: compile with it (--sets <name>)")
        elif not spec.get("effect"):
            self.r.error("E209", f"the cell '{eff.cell}' prints no effect of its own", eff.pos,
                         f"'{eff.cell}' is a cell with a number: write it in the icons, '{eff.cell} 1'")
        elif any(e.kind != "cell" for e in before):
            self.r.error("E209", f"the '{eff.cell}' effect comes first, before the card's other effects", eff.pos)

    def hook(self, h: A.Hook) -> None:
        point = HOOK_POINTS.get(h.point)
        self.scopes = [{}]
        self.actions_seen = False
        self.all_bound = _bindings_in(h.body) | set(h.params)
        self.params = set()
        if point is None:
            self.r.error("E212", f"unknown hook point '{h.point}'", h.pos, did_you_mean(h.point, HOOK_POINTS))
        elif point.action and h.verb not in self.v.set_actions:
            self.r.error("E212", f"'{h.verb}' is no action of a set in play" if h.verb else
                         "an action's hook names its action", h.pos,
                         did_you_mean(h.verb or "", self.v.set_actions) or
                         (f"the actions: {', '.join(self.v.set_actions)}" if self.v.set_actions
                          else "a set's actions are its manifest's 'actions'"))
        elif point.verb and h.verb is None:
            self.r.error("E212", f"hook '{h.point}' names the verb whose moves it follows", h.pos,
                         f"write: hook {h.point} {next(iter(self.v.zone_verbs), 'VERB')}(card)")
        elif point.verb and h.verb not in self.v.zone_verbs and h.verb not in EVENT_VERBS:
            self.r.error("E212", f"'{h.verb}' is no verb an event hook follows (a zone's verb of a set in play, or "
                                 f"{', '.join(EVENT_VERBS)})", h.pos,
                         did_you_mean(h.verb, [*self.v.zone_verbs, *EVENT_VERBS])
                         or "a set's verbs come with the set: compile with it (--sets <name>)")
        elif not point.verb and not point.action and h.verb is not None:
            self.r.error("E212", f"hook '{h.point}' names no verb", h.pos, f"write: hook {h.point}(...)")
        elif len(h.params) != len(point.params):
            want = ", ".join(n for n, _ in point.params)
            self.r.error("E212", f"hook '{h.point}' passes {len(point.params)} argument"
                                 f"{'s' if len(point.params) != 1 else ''}, got {len(h.params)}", h.pos,
                         f"write: hook {h.point}({want})" if want else f"write: hook {h.point} {{ ... }}")
        for i, name in enumerate(h.params):
            self.bind(name, point.params[i][1] if point and i < len(point.params) else "any")
        if not 0 <= h.order <= 1000:
            self.r.error("E212", f"a hook's order is from 0 to 1000, not {h.order}", h.pos)
        if not h.body:
            self.r.error("E305", "this hook has no statements", h.pos)
        self.block(h.body)

    def check_meta(self, card: A.Card) -> None:
        seen: dict[str, A.Meta] = {}
        for m in card.meta:
            if m.key in seen:
                self.r.error("E208", f"'{m.key}' is given twice", m.pos)
            seen[m.key] = m
        if "token" in seen:       # a token: a set's piece with nothing printed, and nothing else in its header
            extra = [m for m in card.meta if m.key not in ("token", "set")]
            if extra:
                self.r.error("E209", f"a token prints no '{extra[0].key}': its header is its set and 'token'", extra[0].pos)
            if not card.no_effect:
                self.r.error("E209", "a token has no effect: write 'no effect' after its header", seen["token"].pos)
            if "set" not in seen:
                self.r.error("E209", "a token belongs to a set: add 'set NAME'", seen["token"].pos)
            return
        for key in ("age", "color", "icons", "dogma"):
            if key == "dogma" and card.no_effect:      # printed with no effect: it may have no featured icon
                continue
            if key not in seen:
                self.r.error("E207", f"card '{card.name}' has no '{key}'", card.pos,
                             f"add '{key} ...' to the card header")
        if "age" in seen and seen["age"].value not in self.v.ages:
            self.r.error("E209", f"age {seen['age'].value} is not an age of this edition "
                                 f"({self.v.ages[0]}-{self.v.ages[-1]})", seen["age"].pos)
        if "color" in seen:
            self.color_name(seen["color"].value, seen["color"].pos)
        if "icons" in seen:
            m = seen["icons"]
            hexes = 0
            full, plain = len(self.v.positions), self.v.edition_positions
            if len(m.value) not in (plain, full):
                names = " ".join(self.v.positions[:plain])
                self.r.error("E209", f"a card prints {plain} icon positions ({names})"
                                     + (f", or all {full} with the sets in play ({' '.join(self.v.positions)})"
                                        if full > plain else "") + f", not {len(m.value)}", m.pos,
                             "write '-' for a position printed empty")
            effect_cells: dict[str, int] = {}
            numbers = getattr(m, "cell_values", None) or [None] * len(m.value)
            for name, pos, n in zip(m.value, getattr(m, "positions", [m.pos] * len(m.value)), numbers):
                if name is None:                        # '-': a position printed empty
                    continue
                spec = self.v.cells.get(name)
                if spec is not None:
                    if spec.get("effect"):
                        effect_cells[name] = effect_cells.get(name, 0) + 1
                    if spec.get("value") and n is None:
                        self.r.error("E209", f"the cell '{name}' carries its number", pos, f"write: {name} 1")
                    elif not spec.get("value") and n is not None:
                        self.r.error("E209", f"the cell '{name}' carries no number", pos, f"write: {name}")
                    elif n is not None and not 1 <= n <= 99:
                        self.r.error("E209", f"a cell's number is between 1 and 99, not {n}", pos)
                    continue
                if n is not None:
                    self.r.error("E209", f"'{name}' is not a cell with a number", pos,
                                 did_you_mean(name, [w for w, c in self.v.cells.items() if c.get("value")])
                                 or "a set's cells come with the set: compile with it (--sets <name>)")
                if name == self.v.hex or name in self.v.hex_like:
                    hexes += 1
                else:
                    self.icon_name(name, pos, allow_hex=True)
            for word, spec in sorted(self.v.cells.items()):
                if not spec.get("effect"):
                    continue
                boxes = sum(e.kind == "cell" and e.cell == word for e in card.effects)
                if effect_cells.get(word, 0) != boxes:
                    found = effect_cells.get(word, 0)
                    self.r.error("E209", f"a '{word}' effect and its '{word}' cell go together (found {found} "
                                         f"cell{'s' if found != 1 else ''} and {boxes} effect{'s' if boxes != 1 else ''})",
                                 m.pos, f"put '{word}' in the icon position where the card prints its {word} box")
            if hexes != 1 and not (hexes == 0 and "face_only" in seen):   # a face only: its hex may be elsewhere
                self.r.error("E209", f"a card has exactly one '{self.v.hex}' among its icons (found {hexes})", m.pos)
        if "dogma" in seen:
            self.icon_name(seen["dogma"].value, seen["dogma"].pos)
        if "board_value" in seen and not 1 <= seen["board_value"].value <= 99:
            self.r.error("E209", f"a value on a board is between 1 and 99, not {seen['board_value'].value}",
                         seen["board_value"].pos)
        in_play = self.v.sets + self.v.set_names
        if "set" in seen and seen["set"].value not in in_play + self.v.card_types:
            self.r.error("E209", f"unknown set '{seen['set'].value}'", seen["set"].pos,
                         did_you_mean(seen["set"].value, in_play + self.v.card_types))
        if "face_only" in seen:
            m = seen["face_only"]
            if "set" not in seen or seen["set"].value in in_play:
                self.r.error("E209", "only a card of a set not in this game is written as its face only", m.pos,
                             "write its effects, or name its set ('set NAME', one of the carrying set's card_types)")
            if card.effects or card.no_effect:
                self.r.error("E209", "a card written as its face only has no effects, not even 'no effect'",
                             card.effects[0].pos if card.effects else m.pos)

    def color_name(self, name: str, pos) -> bool:
        if name in self.v.colors:
            return True
        self.r.error("E200", f"unknown colour '{name}'", pos, did_you_mean(name, self.v.colors))
        return False

    def icon_name(self, name: str, pos, allow_hex: bool = False) -> bool:
        known = self.v.icons + ([self.v.hex] if allow_hex else [])
        if name in known:
            return True
        if name == self.v.hex:
            self.r.error("E201", f"'{name}' is not an icon a card shows here", pos,
                         f"count visible hexes with icons({name}, CARDS)")
            return False
        self.r.error("E201", f"unknown icon '{name}'", pos, did_you_mean(name, known))
        return False

    def card_name(self, name: str, pos) -> None:
        if self.v.card_names and name not in self.v.card_names:
            self.r.error("E202", f"unknown card '{name}'", pos, did_you_mean(name, self.v.card_names))

    # ------------------------------------------------------------ statements
    def bind(self, name: str, typ: str) -> None:
        self.scopes[-1][name] = typ

    def lookup(self, name: str):
        for scope in reversed(self.scopes):
            if name in scope:
                return scope[name]
        return None

    def block(self, stmts: list) -> None:
        for i, s in enumerate(stmts):
            self.before = stmts[i - 1] if i else None    # the statement 'if this caused a change' looks at
            self.stmt(s)

    def stmt(self, s) -> None:
        m = getattr(self, "s_" + type(s).__name__)
        m(s)

    def s_Draw(self, s: A.Draw):
        if s.set is not None and self.lookup(s.set) is not None:       # a bound card type: 'draw t [2]'
            if self.lookup(s.set) not in ("str", "any"):
                self.r.error("E300", f"'{s.set}' is {self.lookup(s.set)}, not a card type (a set's name)", s.pos,
                             "bind one with 'choose set as t' or 'let t = set(CARD)'")
        elif s.set in _COUNT_WORDS and s.set not in self.v.set_names:
            self.count_word(s)
        elif s.set is not None:
            self.set_name(s.set, s.pos, base=True)
        if s.then is not None and s.then not in BASE_DRAW_VERBS:
            self.set_word(s.then, self.v.zone_verbs, "verb", s.pos, BASE_DRAW_VERBS, "draw and")
        if s.count is not None:
            self.expect(s.count, "int")
        self.expect(s.age, "int")
        self.times(s.times)
        self.actions_seen = True
        if s.bind:
            self.bind(s.bind, "cards")

    def count_word(self, s: A.Draw) -> None:
        """'draw a [3]', 'draw two [3]': English where a set's name may stand; the script writes a number."""
        word, n = s.set, _COUNT_WORDS[s.set]
        count = str(n) if n else None
        if s.count is not None:
            count = self.r.text_at(s.count.pos) or "..."
            count = count if isinstance(s.count, A.Int) else f"({count})"
        fixed = " ".join(["draw", *(["and", s.then] if s.then else []), *([count] if count else []),
                          f"[{self.r.text_at(s.age.pos) or '...'}]"])
        if s.count is not None:
            msg = f"a draw is written '{fixed}', without '{word}'"
        elif n is None:
            msg = f"a draw of one card is written '{fixed}', without '{word}'"
        else:
            msg = f"the number of cards to draw is written in digits: '{fixed}'"
        self.r.error("E100", msg, s.set_pos, f"write '{fixed}'")

    def times(self, t):
        if t is not None:
            typ = self.expr(t.expr)
            if typ not in ("int", "any") and typ not in COLLECTIONS:
                self.r.error("E300", f"'for {t.kind}' needs a number or a collection, not {typ}", t.expr.pos)

    def set_name(self, name: str, pos, base: bool = False) -> None:
        """A set in play (``base``: or the base cards, 'base')."""
        known = self.v.set_names + (["base"] if base else [])
        if name not in known:
            self.r.error("E213", f"'{name}' is not a set in play", pos,
                         did_you_mean(name, known) or "compile with the set: --sets <name>")

    def set_word(self, word: str, known, what: str, pos, base=(), lead: str = "") -> None:
        """A word a set in play declares (a verb that fills its zone or moves as another, a Dogma mark): E214
        when no set in play has it, with the nearest word the script could have meant."""
        if word in known:
            return
        hint = did_you_mean(word, [*base, *known])
        self.r.error("E214", f"unknown {what} '{word}'" + (f" after '{lead}'" if lead else ""), pos,
                     hint or "a set's own words come with the set: compile with it (--sets <name>)")

    def s_Dogma(self, s: A.Dogma):
        self.expect(s.target, "cards")
        if s.mark in ("counting", "running") and s.mark not in self.v.marks:
            self.r.error("E214", f"'{s.mark}' is no Dogma mark: an option follows the card (or its mark) "
                                 "without a comma", s.mark_pos or s.pos,
                         f"write 'dogma X {s.mark} ...' or 'dogma X, MARK {s.mark} ...'")
        elif s.mark is not None:
            self.set_word(s.mark, self.v.marks, "Dogma mark", s.mark_pos or s.pos)
        seen: dict[str, A.DogmaOption] = {}
        for o in s.options:
            if o.cards is not None:
                self.expect(o.cards, "cards")
            if o.kind in seen:
                self.r.error("E313", f"'{_DOGMA_OPTION_WORDS[o.kind]}' is written twice", o.pos,
                             "write each option once")
            elif o.kind in ("no_cells", "cells_of") and ({"no_cells", "cells_of"} & set(seen)):
                self.r.error("E313", "a free Dogma runs no cell effects or the cell effects of other cards, "
                                     "not both", o.pos,
                             "keep 'running no cell effects' or 'running the cell effects of ...'")
            seen.setdefault(o.kind, o)
        self.actions_seen = True

    def s_Move(self, s: A.Move):
        if s.set_verb:
            self.set_word(s.verb, [*self.v.zone_verbs, *self.v.verb_aliases], "verb", s.pos, BASE_MOVE_VERBS)
        self.selection(s.selection)
        self.times(s.times)
        self.actions_seen = True
        if s.bind:
            self.bind(s.bind, "cards")

    def s_Transfer(self, s: A.Transfer):
        self.selection(s.selection)
        self.times(s.times)
        self.zone(s.dest)
        self.actions_seen = True
        if s.bind:
            self.bind(s.bind, "cards")

    def s_Exchange(self, s: A.Exchange):
        if _all_or_none(s.second):
            self.r.error("E308", "'all or none of' goes on the first side of an exchange", s.second.quantity.pos,
                         "write 'exchange all or none of the cards from ... with all cards from ...'")
        for sel in (s.first, s.second):
            self.selection(sel)
            src = sel.source
            if not (isinstance(src, A.Zone) and src.owner is not None
                    and src.owner.kind in ("you", "me", "them", "binding")
                    and src.kind in ("hand", "score", "achievements")):
                self.r.error("E300", "each side of an exchange takes cards from one player's hand, score pile "
                                     "or achievements", sel.pos)
        self.actions_seen = True

    def scope_hint(self, name: str, loose: bool = True) -> str | None:
        """A name bound in scope that ``name`` may misspell ('as', 'let', 'choose', a loop's or an effect's
        parameter); ``loose``: also a looser match."""
        in_scope = [n for s in self.scopes for n in s]
        return did_you_mean(name, in_scope) or (_close_binding(name, in_scope) if loose else None)

    def misspelt_binding(self, name: str, vocab) -> bool:
        """An unknown word where a bound name may stand too: a close binding comes before the vocabulary."""
        return self.lookup(name) is None and name not in vocab and (
            self.scope_hint(name, loose=False) is not None
            or not did_you_mean(name, vocab) and self.scope_hint(name) is not None)

    def icon_word(self, name: str, pos, allow_hex: bool = False) -> bool:
        """An icon, or a misspelt bound name (reported as an unknown name)."""
        if name != self.v.hex and self.misspelt_binding(name, self.v.icons + ([self.v.hex] if allow_hex else [])):
            self.name_type(name, _last_word(pos, name))
            return False
        return self.icon_name(name, pos, allow_hex)

    def expect_colors(self, e, want: str = "colors") -> None:
        # A bare unknown name where a colour belongs is reported as a colour, unless a bound name is closer.
        if isinstance(e, A.Name) and self.lookup(e.name) is None and e.name not in self.all_bound \
                and e.name not in self.v.icons:
            if self.misspelt_binding(e.name, self.v.colors):
                self.name_type(e.name, e.pos)
                return
            if self.color_name(e.name, e.pos):
                self.types[id(e)] = "color"
            return
        self.expect(e, want)

    def s_Splay(self, s: A.Splay):
        self.expect_colors(s.color)
        board = getattr(s, "board", None)
        if board is not None:
            if board.kind not in ("you", "me", "binding"):
                self.r.error("E309", "a splay is of one player's pile: name the player whose board it is", board.pos,
                             "choose the player first: 'choose player from all players as p', "
                             "then 'splay any color on p's board left'")
            else:
                self.zone(A.Zone("board", board, pos=board.pos))
        self.actions_seen = True

    s_Unsplay = s_Splay

    def s_Rearrange(self, s: A.Rearrange):
        self.expect_colors(s.color, "color")
        self.actions_seen = True

    def s_If(self, s: A.If):
        if isinstance(s.cond, A.YouDo):
            if not self.actions_seen:
                self.r.error("E302", "'if you do' needs an earlier action in this effect", s.cond.pos)
        elif isinstance(s.cond, A.CausedChange):
            if getattr(self, "before", None) is None:
                self.r.error("E315", "'if this caused a change' asks about the statement just before it, and there "
                                     "is none in its block", s.cond.pos,
                             "put it right after the statement it asks about (not first in a block, not after 'else')")
        else:
            self.expect(s.cond, "bool")
        self.scopes.append({})
        self.block(s.then)
        self.scopes.pop()
        if s.orelse:
            self.scopes.append({})
            self.block(s.orelse)
            self.scopes.pop()

    def s_May(self, s: A.May):
        # A may-block's bindings stay visible after it (they are unset if declined).
        inner = s.body[0] if len(s.body) == 1 and not s.block else None
        sel = getattr(inner, "selection", None) or getattr(inner, "first", None)
        if isinstance(sel, A.Selection) and _all_or_none(sel):
            self.r.error("E308", "'all or none of' is already a choice: it needs no 'may'", s.pos,
                         "remove 'may': 'all or none of the cards' lets the player decline")
        self.block(s.body)
        self.actions_seen = True

    def s_Either(self, s: A.Either):
        for opt in s.options:
            self.scopes.append({})
            self.block(opt)
            self.scopes.pop()
        self.actions_seen = True

    def chooser(self, who, pos) -> None:
        """'chosen by X': you, me or the cards' owner; another player chooses by acting ('X does { ... }')."""
        if who is not None and who not in ENUMS["chooser"]:
            self.r.error("E300", f"'chosen by' names you, me or the cards' owner, not '{who}'", pos,
                         f"let {who} choose by acting: {who} does {{ choose ... }}")

    def s_Choose(self, s: A.Choose):
        self.chooser(s.chooser, s.pos)
        elem = {"color": "color", "value": "int", "player": "player", "icon": "icon", "two_colors": "colors",
                "set": "str"}[s.kind]
        if s.source is not None and s.kind == "set":
            self.r.error("E300", "the card types to choose from are the game's (the base cards and the sets in "
                                 "play): 'choose set' takes no 'from'", s.source.pos, "write: choose set as t")
        elif s.source is not None:
            want = {"color": "colors", "value": "values", "player": "players", "icon": "icons", "two_colors": "colors"}[s.kind]
            self.expect(s.source, want)
        self.bind(s.name, elem)

    def s_ChooseCards(self, s: A.ChooseCards):
        if _all_or_none(s.selection):
            self.r.error("E308", "'all or none of' is for moving cards, not for choosing them",
                         s.selection.quantity.pos, "choose 'all cards', or move them: 'meld all or none of ...'")
        self.selection(s.selection)
        self.bind(s.name, "cards")

    def s_Let(self, s: A.Let):
        self.bind(s.name, self.expr(s.expr))

    def s_Record(self, s: A.Record):
        if not s.own:
            self.expect(s.expr, "int")
            return
        typ = self.expr(s.expr)
        if typ not in ("int", "cards", "any"):
            self.r.error("E300", f"'record your' keeps a number or cards, not {_article(typ)}", s.expr.pos)
        elif self.own_records.get(s.name, typ) not in (typ, "any") and typ != "any":
            self.r.error("E300", f"'{s.name}' was recorded as {_article(self.own_records[s.name])} earlier",
                         s.expr.pos)
        else:
            self.own_records.setdefault(s.name, typ)

    def s_ForEach(self, s: A.ForEach):
        typ = self.expr(s.iterable)
        if typ not in COLLECTIONS and typ != "any":
            self.r.error("E300", f"'each' needs a collection, not {typ}", s.iterable.pos)
        self.scopes.append({s.name: ELEMENT.get(typ, "any")})
        self.block(s.body)
        self.scopes.pop()

    def s_Repeat(self, s: A.Repeat):
        if s.name is not None:
            if s.name not in self.params:
                self.r.error("E204", f"'repeat with' names '{s.name}', which is not a parameter of this effect", s.pos,
                             did_you_mean(s.name, self.params) or f"declare it: effect ({s.name} = ...) {{ ... }}")
            self.expr(s.expr)

    def s_Act(self, s: A.Act):
        if isinstance(s.player, A.Pronoun) and s.player.who == "you":
            self.r.error("E310", "'you does' is what every statement already says", s.player.pos,
                         "name another player: 'choose player from opponents as p', then 'p does { ... }'")
        elif isinstance(s.player, A.Name) and s.player.name in ("opponents", "players") \
                and self.lookup(s.player.name) is None:
            self.r.error("E310", "one player acts at a time", s.player.pos,
                         f"each p in {'opponents' if s.player.name == 'opponents' else 'all players'} "
                         "{ p does { ... } }")
        else:
            self.expect(s.player, "player")
        for inner in _repeats_in(s.body):
            self.r.error("E310", "'repeat' inside another player's block would start the effect again as them",
                         inner.pos, "put 'repeat' after the block")
        # Like a may-block's, the block's bindings stay visible after it ("that player chooses a card;
        # meld the chosen card"); they are unset if that player takes no part.
        self.acting += 1
        self.block(s.body)
        self.acting -= 1
        self.actions_seen = True

    def s_EndDogma(self, s):
        pass

    def s_Look(self, s):
        pass

    def s_Flip(self, s: A.Flip):
        self.bind(s.name, "bool")
        self.actions_seen = True

    def s_Win(self, s: A.Win):
        self.expect(s.player, "player")

    s_Lose = s_Win

    def s_Claim(self, s: A.Claim):
        if self.v.specials and s.achievement not in self.v.specials:
            self.r.error("E203", f"unknown special achievement '{s.achievement}'", s.pos,
                         did_you_mean(s.achievement, self.v.specials))
        self.actions_seen = True

    def s_Execute(self, s: A.Execute):
        self.expect(s.target, "cards")
        if s.decider is not None:
            self.expect(s.decider, "player")
        if s.as_if and s.kind != "execute":
            self.r.error("E314", f"'{s.kind.replace('fully-', 'fully ')} ... as if on this card': only 'execute' runs a card "
                                 "as if it were on this card", s.pos, "write 'execute X as if on this card'")
        self.actions_seen = True

    # ------------------------------------------------------------ selections
    def selection(self, sel: A.Selection) -> None:
        self.chooser(sel.chooser, sel.pos)
        if isinstance(sel.source, A.Name):
            self.expect(sel.source, "cards")
        elif isinstance(sel.source, A.Beneath):
            self.expr(sel.source)
            q = sel.quantity
            if q is not None and q.kind not in ("one", "all"):
                self.r.error("E309", "the cards beneath a card are 'the card beneath' it (directly beneath) "
                                     "or 'all cards beneath' it", q.pos,
                             "write 'the card beneath NAME' or 'all cards beneath NAME'")
        else:
            self.zone(sel.source)
        for z in sel.also:
            self.zone(z)
        q = sel.quantity
        if q is not None:
            for n in (q.n, q.n2):
                if n is not None:
                    self.expect(n, "int")
        self.it_type.append("cards")
        for f in sel.filters:
            self.filter(f)
        self.it_type.pop()
        if sel.unrevealed is not None:
            self.unrevealed(sel)

    def unrevealed(self, sel: A.Selection) -> None:
        """'unrevealed' belongs to a choice of cards made by another player than the one whose cards they are."""
        if not sel.chooses() or (sel.quantity is not None and sel.quantity.kind in ("all", "all_or_none")):
            self.r.error("E311", "'unrevealed' is said of cards someone chooses, and nothing is chosen here",
                         sel.unrevealed, "write 'choose an unrevealed card from holder's hand as c' inside "
                                         "'target does { ... }'")
        elif not self.acting and sel.chooser != "me":
            self.r.error("E311", "an unrevealed choice is made by another player, who does not see the cards",
                         sel.unrevealed, "let holder = you, then 'target does { choose an unrevealed card from "
                                         "holder's hand as c }'")

    def filter(self, f: A.Filter) -> None:
        if f.kind in ("with", "without"):
            if self.lookup(f.icon) is None:     # a bound name (choose icon ... as i) is an icon too
                self.icon_word(f.icon, f.pos)
        elif f.kind in ("color", "noncolor"):
            self.expect_colors(f.color)
        elif f.kind == "value":
            self.expect(f.value, "int")
        elif f.kind == "values":
            for v in f.values:
                self.expect(v, "int")
        elif f.kind in ("color_on", "color_not_on"):
            self.zone(f.zone)
        elif f.kind in ("not_named", "named"):
            self.card_name(f.name, f.pos)
        elif f.kind == "where":
            self.expect(f.cond, "bool")

    def zone(self, z: A.Zone) -> None:
        if z.kind == "set":
            name = z.name if z.name in self.v.zones else (z.name[:-1] if z.name.endswith("s") else z.name)
            if name not in self.v.zones:
                self.r.error("E211", f"unknown zone '{z.name}'", z.pos,
                             (f"the {z.name} is the game's, nobody's: write 'the {z.name}'" if z.name in self.v.shared_zones
                              else None) or did_you_mean(z.name, self.v.zones) or
                             "zones are hand, score pile, board, achievements, or a zone of a set in play")
            else:
                z.name = name
        if z.kind == "shared" and z.name not in self.v.shared_zones:
            self.r.error("E211", f"unknown zone 'the {z.name}'", z.pos,
                         (f"each player has a {z.name}: write 'your {z.name}'" if z.name in self.v.zones else None) or
                         did_you_mean(z.name, self.v.shared_zones) or
                         "'the NAME' is a game-wide zone of a set in play (its manifest's zones with scope game)")
        if z.kind == "deck" and z.name is not None:
            self.set_name(z.name, z.pos, base=True)
        if z.owner is not None and z.owner.kind == "binding":
            typ = self.name_type(z.owner.name, z.owner.pos)
            if typ not in ("player", "any", None):
                self.r.error("E300", f"'{z.owner.name}' is {typ}, not a player", z.owner.pos)
        if z.owner is not None and z.owner.kind == "them" and self.them_depth == 0:
            self.r.error("E304", "'their' is only meaningful inside a player condition", z.owner.pos)
        if z.age is not None:
            self.expect(z.age, "int")

    # ------------------------------------------------------------ expressions
    def expect(self, e, want: str) -> str:
        typ = self.expr(e)
        if typ is not None and not _compatible(typ, want):
            # a colour or an icon where a bound name of that spelling was meant ('leaf' for 'leafs')
            hint = None
            if isinstance(e, A.Name) and self.lookup(e.name) is None:
                hint = self.scope_hint(e.name, loose=False)
            self.r.error("E300", f"expected {_article(want)}, found {_article(typ)}", e.pos, hint)
        return typ

    def name_type(self, name: str, pos):
        typ = self.lookup(name)
        if typ is not None:
            return typ
        if name in self.all_bound:
            self.r.error("E210", f"'{name}' is used before it is bound", pos,
                         "bind it earlier with 'as', 'let' or 'choose'")
            return None
        if name in self.v.colors:
            return "color"
        if name in self.v.icons:
            return "icon"
        # A name bound in scope is what the author most likely meant, before any colour or icon.
        hint = self.scope_hint(name)
        if hint is None:
            hint = did_you_mean(name, list(self.v.colors) + list(self.v.icons))
        self.r.error("E204", f"unknown name '{name}'", pos, hint)
        return None

    def expr(self, e) -> str:
        typ = getattr(self, "e_" + type(e).__name__)(e)
        self.types[id(e)] = typ or "any"
        return typ or "any"

    def e_Int(self, e):
        return "int"

    def e_Str(self, e):
        return "str"

    def e_Name(self, e):
        return self.name_type(e.name, e.pos)

    def e_Call(self, e: A.Call):
        b = BUILTINS.get(e.fn)
        if b is None:
            self.r.error("E205", f"unknown function '{e.fn}'", e.pos, did_you_mean(e.fn, BUILTINS))
            for a in e.args:
                self.expr(a)
            return None
        if e.fn in ("highest", "lowest") and len(e.args) == 1 and self.expr(e.args[0]) == "values":
            e.fn += "_value"            # the same words for a list of values: its own builtin
            b = BUILTINS[e.fn]
        elif e.fn == "count" and len(e.args) == 1 and self.expr(e.args[0]) == "player":
            e.fn = "count_player"       # one player or none (a player is a seat number: never counted as one)
            b = BUILTINS[e.fn]
        if not b.variadic and len(e.args) != len(b.args):
            self.r.error("E206", f"{e.fn}() takes {len(b.args)} argument{'s' if len(b.args) != 1 else ''}, "
                                 f"got {len(e.args)}", e.pos)
        elif e.fn == "was_marked" and isinstance(e.args[0], A.Str):    # 'this card was foreseen'
            self.set_word(e.args[0].value, self.v.marks, "Dogma mark", e.args[0].pos)
        elif e.fn in ("cell_at", "icon_at") and len(e.args) == 2 and isinstance(e.args[1], A.Str) \
                and e.args[1].value not in self.v.positions:
            self.r.error("E300", f"'{e.args[1].value}' is not an icon position of this game", e.args[1].pos,
                         did_you_mean(e.args[1].value, self.v.positions)
                         or f"the positions: {', '.join(self.v.positions)}")
        for i, a in enumerate(e.args):
            want = b.args[0] if b.variadic else (b.args[i] if i < len(b.args) else "any")
            if want == "icon" and isinstance(a, A.Name) and self.lookup(a.name) is None:
                self.icon_word(a.name, a.pos, allow_hex=b.hex)
                self.types[id(a)] = "icon"
            elif want == "cell" and isinstance(a, A.Name) and self.lookup(a.name) is None:
                self.set_word(a.name, self.v.cells, "cell", a.pos)
                self.types[id(a)] = "cell"
            elif want == "cell":
                self.r.error("E300", f"{e.fn}() takes a cell's word here (a cell a set declares)", a.pos,
                             f"write one of: {', '.join(sorted(self.v.cells))}" if self.v.cells else None)
            elif want == "str" and isinstance(a, A.Str):
                self.types[id(a)] = "str"
            else:
                self.expect(a, want)
        return b.result

    def e_BinOp(self, e: A.BinOp):
        lt, rt = self.expr(e.left), self.expr(e.right)
        if e.op in ("and", "or") and lt == "bool" and rt == "bool":
            return "bool"
        if e.op == "or" and lt in ("color", "colors") and rt in ("color", "colors"):
            return "colors"
        if e.op == "or" and lt in ("cards",) and rt == "cards":
            return "cards"
        if e.op == "-" and lt in COLLECTIONS | {"color"} and _compatible(rt, lt if lt != "color" else "colors"):
            return "colors" if lt == "color" else lt
        if e.op in ("+", "-", "*", "//"):
            for side, t in ((e.left, lt), (e.right, rt)):
                if not _compatible(t, "int"):
                    self.r.error("E300", f"'{e.op}' needs numbers, found {_article(t)}", side.pos)
            return "int"
        for side, t in ((e.left, lt), (e.right, rt)):
            if not _compatible(t, "bool"):
                self.r.error("E300", f"'{e.op}' needs conditions, found {_article(t)}", side.pos)
        return "bool"

    def e_Compare(self, e: A.Compare):
        lt, rt = self.expr(e.left), self.expr(e.right)
        if e.op in ("==", "!=") and _compatible(lt, rt):
            return "bool"
        for side, t in ((e.left, lt), (e.right, rt)):
            if not _compatible(t, "int"):
                self.r.error("E300", f"'{e.op}' compares numbers, found {_article(t)}", side.pos,
                             "use count(...) for how many, value(...) for a card's value")
        return "bool"

    def e_Not(self, e):
        self.expect(e.operand, "bool")
        return "bool"

    def e_Neg(self, e):
        self.expect(e.operand, "int")
        return "int"

    def e_HasIcon(self, e: A.HasIcon):
        self.expect(e.subject, "cards")
        if self.lookup(e.icon) is None:
            self.icon_word(e.icon, e.pos)
        return "bool"

    def e_Is(self, e: A.Is):
        self.expect(e.subject, "cards")
        self.expect_colors(e.what)
        return "bool"

    def e_In(self, e: A.In):
        it = self.expr(e.item)
        ct = self.expr(e.collection)
        if ct not in COLLECTIONS and ct != "any":
            self.r.error("E300", f"'in' needs a collection on its right, found {_article(ct)}", e.collection.pos)
        elif it == "str" and ct != "cards":
            self.r.error("E300", "a card name can only be looked for among cards", e.item.pos)
        elif it == "str":
            self.card_name(e.item.value, e.item.pos) if isinstance(e.item, A.Str) else None
        elif it != "str" and not _compatible(it, ct) and not (it == "cards" and ct == "cards"):
            self.r.error("E300", f"cannot look for {_article(it)} among {ct}", e.item.pos)
        return "bool"

    def e_Where(self, e: A.Where):
        bt = self.expr(e.base)
        if bt not in COLLECTIONS and bt != "any":
            self.r.error("E300", f"'where' filters a collection, not {_article(bt)}", e.base.pos)
        self.it_type.append(ELEMENT.get(bt, "any"))
        if bt == "players":
            self.them_depth += 1
        self.scopes.append({e.name: ELEMENT.get(bt, "any")} if e.name else {})
        self.expect(e.cond, "bool")
        self.scopes.pop()
        if bt == "players":
            self.them_depth -= 1
        self.it_type.pop()
        return bt

    def e_WithIcon(self, e: A.WithIcon):
        bt = self.expr(e.base)
        if bt not in ("cards", "colors", "color", "any"):
            self.r.error("E300", f"'with {e.icon}' filters cards or colours, not {_article(bt)}", e.base.pos)
        self.icon_word(e.icon, e.pos)
        return "colors" if bt == "color" else bt

    def e_Pronoun(self, e: A.Pronoun):
        if e.who == "it":
            if not self.it_type:
                self.r.error("E303", "'it' is only meaningful inside a filter (where ...)", e.pos)
                return None
            return self.it_type[-1]
        if e.who == "them" and self.them_depth == 0:
            self.r.error("E304", "'them' is only meaningful inside a player condition", e.pos)
        return "player"

    def e_AnyColor(self, e):
        return "colors"

    def e_ActionVar(self, e):
        return "int"

    def e_OwnVar(self, e: A.OwnVar):
        typ = self.own_records.get(e.name)
        if typ is None:
            self.r.error("E204", f"'{'my' if e.who == 'me' else 'your'}.{e.name}' is not recorded earlier in "
                                 "this card", e.pos,
                         did_you_mean(e.name, self.own_records) or f"record it first: record your {e.name} = ...")
        return typ

    def e_PlayerSet(self, e):
        return "players"

    def e_Quantified(self, e: A.Quantified):
        self.them_depth += 1
        self.expect(e.cond, "bool")
        self.them_depth -= 1
        return "bool"

    def e_SinglePlayer(self, e: A.SinglePlayer):
        self.them_depth += 1
        self.expect(e.measure, "int")
        self.them_depth -= 1
        return "player"

    def e_Beneath(self, e: A.Beneath):
        self.expect(e.card, "cards")
        return "cards"

    def e_PileEnd(self, e: A.PileEnd):
        if e.owner.kind not in ("you", "me", "them", "binding"):
            self.r.error("E309", "a pile is one player's: its top or bottom cards need one owner", e.owner.pos,
                         "write 'your', 'my' or a chosen player's ('target's'), or loop: each p in opponents { ... }")
        else:
            self.zone(A.Zone("board", e.owner, pos=e.owner.pos))
        self.expect(e.n, "int")
        self.expect_colors(e.color, "color")
        return "cards"

    def e_DirectlyUnder(self, e: A.DirectlyUnder):
        self.expect(e.subject, "cards")
        if e.value is not None:
            self.expect(e.value, "int")
        else:
            self.expect(e.cards, "cards")
        return "bool"

    def e_ZoneExpr(self, e: A.ZoneExpr):
        self.zone(e.zone)
        return "cards"


def _repeats_in(stmts) -> list:
    out = []
    for s in stmts:
        if isinstance(s, A.Repeat):
            out.append(s)
        for attr in ("then", "orelse", "body"):
            v = getattr(s, attr, None)
            if isinstance(v, list):
                out += _repeats_in(v)
        if isinstance(s, A.Either):
            for o in s.options:
                out += _repeats_in(o)
    return out


def _all_or_none(sel: A.Selection) -> bool:
    return sel.quantity is not None and sel.quantity.kind == "all_or_none"


def _last_word(pos: Pos, word: str) -> Pos:
    """Where ``word`` is when it ends the span ``pos`` ('with NAME', 'X has NAME'), else ``pos``."""
    col = pos.end_column - len(word)
    if pos.end_line == pos.line and col >= pos.column:
        return Pos(pos.line, col, pos.line, pos.end_column)
    if pos.end_line > pos.line and col >= 1:
        return Pos(pos.end_line, col, pos.end_line, pos.end_column)
    return pos


def _close_binding(name: str, bound: list[str]):
    """A looser match among bound names only ('drawn' for 'drawn_card', 'c' for 'col')."""
    import difflib
    close = difflib.get_close_matches(name, bound, n=1, cutoff=0.4)
    if not close:
        close = [b for b in bound if b.startswith(name) or name.startswith(b)][:1]
    return f"did you mean '{close[0]}' (bound earlier in this effect)?" if close else None


def _article(t: str) -> str:
    names = {"int": "a number", "bool": "a condition", "cards": "cards", "color": "a colour",
             "colors": "colours", "player": "a player", "players": "players", "icon": "an icon",
             "values": "values", "str": "a card name", "any": "a value", "icons": "icons"}
    return names.get(t, t)


def _bindings_in(stmts) -> set[str]:
    """Every name an effect binds anywhere, to tell 'used before bound' from 'unknown'."""
    out: set[str] = set()

    def walk(ss):
        for s in ss:
            for attr in ("bind", "name"):
                v = getattr(s, attr, None)
                if isinstance(v, str) and not isinstance(s, A.Repeat):
                    out.add(v)
            for attr in ("then", "orelse", "body"):
                v = getattr(s, attr, None)
                if isinstance(v, list):
                    walk(v)
            if isinstance(s, A.Either):
                for o in s.options:
                    walk(o)
    walk(stmts)
    return out


def warnings(card: A.Card, path: str, vocab: Vocabulary | None = None) -> list:
    """What compiles but is probably a mistake (reported by check, compile and the language server;
    errors under 'check --strict')."""
    r = Reporter(path)
    out = []
    dogma, icons = card.get("dogma"), card.get("icons") or []
    if dogma and icons:
        values = card.get("cell_values") or [None] * len(icons)
        hexes = {vocab.hex, *vocab.hex_like} if vocab else set()
        cells = set(vocab.cells) if vocab else set()
        shown = " ".join("-" if w is None else w if n is None else f"{w} {n}" for w, n in zip(icons, values))
        why = None
        if dogma not in icons:
            why = ""
        elif dogma in hexes:        # a set's icon printed as the hex ('music_note')
            why = f": '{dogma}' counts as the hex"
        elif dogma in cells:        # a set's cell ('bonus 2'), even one counted as an icon
            why = f": '{dogma}' is a cell, not an icon"
        if why is not None:
            out.append(r.warning("W200", f"the dogma icon '{dogma}' is not among this card's icons ({shown}){why}",
                                 card.meta_pos("dogma"),
                                 "the featured icon is printed on the card: check 'icons' and 'dogma'"))
    return out


def resolve(card: A.Card, vocab: Vocabulary, reporter: Reporter, check_meta: bool = True) -> dict[int, str]:
    return Resolver(vocab, reporter).card(card, check_meta)
