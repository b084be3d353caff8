"""The InnoScript AST: plain dataclasses, each with its source position.

The builder (builder.py) makes these from Lark's parse tree; the resolver
annotates expression types; the code generator walks them; the renderer and
the edition diff compare them.  ``pos`` never takes part in equality so two
cards that say the same thing compare equal wherever they are written.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional, Union

from innoscript.core.diagnostics import NOWHERE, Pos


@dataclass
class Node:
    pos: Pos = field(default=NOWHERE, compare=False, repr=False, kw_only=True)


# ---------------------------------------------------------------- expressions
@dataclass
class Int(Node):
    value: int


@dataclass
class Str(Node):
    value: str


@dataclass
class Name(Node):
    name: str


@dataclass
class Call(Node):
    fn: str
    args: list["Expr"]


@dataclass
class BinOp(Node):
    op: str               # + - * // or and
    left: "Expr"
    right: "Expr"


@dataclass
class Compare(Node):
    op: str
    left: "Expr"
    right: "Expr"


@dataclass
class Not(Node):
    operand: "Expr"


@dataclass
class Neg(Node):
    operand: "Expr"


@dataclass
class HasIcon(Node):
    subject: "Expr"
    icon: str


@dataclass
class Is(Node):
    subject: "Expr"
    what: "Expr"           # a colour (or colours) the cards must be


@dataclass
class In(Node):
    item: "Expr"
    collection: "Expr"
    negate: bool = False


@dataclass
class Where(Node):
    base: "Expr"
    cond: "Expr"
    name: Optional[str] = None     # 'where v (...)': the item has a name as well as 'it'/'them'


@dataclass
class WithIcon(Node):
    base: "Expr"
    icon: str
    negate: bool = False


@dataclass
class Pronoun(Node):
    who: str               # you, me, them, it


@dataclass
class AnyColor(Node):
    pass


@dataclass
class ActionVar(Node):
    name: str


@dataclass
class OwnVar(Node):
    """'your.NAME' / 'my.NAME': what that player recorded with 'record your NAME = ...' during this card's
    execution (0, or no cards, if nothing was recorded)."""
    name: str
    who: str        # 'you' or 'me'


@dataclass
class PlayerSet(Node):
    kind: str              # all, opponents, others


@dataclass
class Quantified(Node):
    kind: str              # any, no, all
    players: PlayerSet
    cond: "Expr"


@dataclass
class SinglePlayer(Node):
    extreme: str           # most, least, highest, lowest
    measure: "Expr"


@dataclass
class Owner(Node):
    kind: str              # you, me, them, binding, opponents, others, all, any_opponent, any_player
    name: Optional[str] = None


@dataclass
class Zone(Node):
    kind: str              # hand score board top achievements revealed junk available available_special available_all junk_special deck revealed_all set shared
    owner: Optional[Owner] = None
    age: Optional["Expr"] = None
    name: Optional[str] = None     # kind 'set': a zone a set manifest declares ('forecast'), as written;
                                   # kind 'shared': a game-wide zone a set manifest declares ('the NAME');
                                   # kind 'deck': the set whose pile it is ('echoes', 'base'; None: base)


@dataclass
class ZoneExpr(Node):
    zone: Zone


# ---------------------------------------------------------------- selections
@dataclass
class Quantity(Node):
    kind: str              # one, exact, up_to, range, any_number, all, all_or_none, all_but, half
    n: Optional["Expr"] = None
    n2: Optional["Expr"] = None
    rounding: str = "down"


@dataclass
class Filter(Node):
    kind: str              # with, without, color, noncolor, value, values, color_on, color_not_on, not_named, named, not_this, where
    icon: Optional[str] = None
    color: Optional["Expr"] = None
    cmp: Optional[str] = None
    value: Optional["Expr"] = None
    values: list["Expr"] = field(default_factory=list)
    zone: Optional[Zone] = None
    name: Optional[str] = None
    cond: Optional["Expr"] = None


@dataclass
class Selection(Node):
    quantity: Optional[Quantity]
    order: str             # any, highest, lowest
    position: Optional[str]   # top, bottom
    each_color: bool
    filters: list[Filter]
    source: Union[Zone, Name, Beneath]
    chooser: Optional[str] = None   # you, me, owner
    unrevealed: Optional[Pos] = None   # 'unrevealed': the chooser sees the options as backs (where it was written)
    also: list = field(default_factory=list)   # more zones chosen from with the source: 'from your hand and your score pile'

    def chooses(self) -> bool:
        """Whether the selection is a choice (a SELECT), not just the cards of a binding or a pile position."""
        given = self.quantity is None or isinstance(self.source, Beneath)
        return not (given and isinstance(self.source, (Name, Beneath)) and self.order == "any" and not self.each_color)


@dataclass
class Beneath(Node):
    """'the card beneath X' (directly beneath) or 'all cards beneath X', in X's pile (or the pile X left)."""
    card: "Expr"
    all: bool = False


@dataclass
class PileEnd(Node):
    """'your top N cards of colour C', 'your N bottom cards ...', 'all but your top N cards ...'."""
    kind: str              # top, bottom, all_but_top
    owner: Owner
    n: "Expr"
    color: "Expr"


@dataclass
class DirectlyUnder(Node):
    """'X is directly under [N]' / '... under Y': the card right above X in its pile is of that value / one of Y."""
    subject: "Expr"
    value: Optional["Expr"] = None
    cards: Optional["Expr"] = None


Expr = Union[Int, Str, Name, Call, BinOp, Compare, Not, Neg, HasIcon, Is, In, Where, WithIcon,
             Pronoun, AnyColor, ActionVar, OwnVar, PlayerSet, Quantified, SinglePlayer, ZoneExpr, Beneath, PileEnd,
             DirectlyUnder]


# ---------------------------------------------------------------- statements
@dataclass
class Times(Node):
    kind: str              # each, every
    expr: "Expr"
    every: int = 1


@dataclass
class Draw(Node):
    then: Optional[str]    # meld score tuck reveal junk achieve, or a set's zone verb (None: keep in hand)
    count: Optional["Expr"]
    age: "Expr"
    times: Optional[Times] = None
    bind: Optional[str] = None
    set: Optional[str] = None      # 'draw echoes [1]': that set's supply piles; None: the draw rules decide
    set_pos: Pos = field(default=NOWHERE, compare=False, repr=False)     # where the set's word is


@dataclass
class Move(Node):
    verb: str
    selection: Selection
    times: Optional[Times] = None
    bind: Optional[str] = None
    set_verb: bool = False   # a verb a set in play declares ('foreshadow', 'promote'), not one of the language's


@dataclass
class Transfer(Node):
    selection: Selection
    dest: Zone
    times: Optional[Times] = None
    bind: Optional[str] = None


@dataclass
class Exchange(Node):
    first: Selection
    second: Selection


@dataclass
class Splay(Node):
    color: "Expr"
    direction: str
    board: Optional["Owner"] = None     # 'splay red on target's board left': another player's pile


@dataclass
class Unsplay(Node):
    color: "Expr"


@dataclass
class Rearrange(Node):
    color: "Expr"


@dataclass
class YouDo(Node):
    negate: bool = False


@dataclass
class CausedChange(Node):
    """'if this caused a change': the statement just before the 'if' changed the game (builtin changes())."""


@dataclass
class If(Node):
    cond: Union["Expr", YouDo, CausedChange]
    then: list["Stmt"]
    orelse: Optional[list["Stmt"]] = None


@dataclass
class May(Node):
    body: list["Stmt"]
    block: bool            # 'may { ... }' rather than 'may <statement>'


@dataclass
class Either(Node):
    options: list[list["Stmt"]]


@dataclass
class Choose(Node):
    kind: str              # color value player icon two_colors
    source: Optional["Expr"]
    chooser: Optional[str]
    name: str


@dataclass
class ChooseCards(Node):
    selection: Selection
    name: str


@dataclass
class Let(Node):
    name: str
    expr: "Expr"


@dataclass
class Record(Node):
    name: str
    expr: "Expr"
    own: bool = False     # 'record your NAME': kept for the performer, read as 'your.NAME' / 'my.NAME'


@dataclass
class ForEach(Node):
    name: str
    iterable: "Expr"
    body: list["Stmt"]


@dataclass
class Repeat(Node):
    name: Optional[str] = None
    expr: Optional["Expr"] = None


@dataclass
class EndDogma(Node):
    pass


@dataclass
class Look(Node):
    """'look at the top card of any deck': a private look at a supply pile's top card."""


@dataclass
class Flip(Node):
    """'flip a coin as won': the game's seeded coin, seen by every player; 'won' is true when 'you' win."""
    name: str


@dataclass
class Win(Node):
    player: "Expr"


@dataclass
class Lose(Node):
    player: "Expr"


@dataclass
class Claim(Node):
    achievement: str


@dataclass
class Execute(Node):
    kind: str              # execute self-execute super-execute fully-execute
    target: "Expr"
    as_if: bool = False    # 'execute X as if on this card': inside the running Dogma, its targets (kind 'execute')
    must: bool = False     # 'replacing may with must': every 'may' of the execution is done where it can be
    decider: Optional["Expr"] = None   # 'decided by P': P makes the performer's decisions in the execution


@dataclass
class Act(Node):
    """'P does { ... }': player P performs the block as 'you'."""
    player: "Expr"
    body: list["Stmt"]



@dataclass
class DogmaOption(Node):
    """An option of a free Dogma: 'counting its icons' (own_icons), 'running no cell effects' (no_cells),
    'running the cell effects of CARDS' (cells_of, with its cards)."""
    kind: str
    cards: Optional["Expr"] = None


@dataclass
class Dogma(Node):
    target: "Expr"
    mark: Optional[str] = None     # a mark a set declares ('dogma X, foreseen'): that execution carries it
    mark_pos: Optional[Pos] = field(default=None, compare=False, repr=False)
    options: list[DogmaOption] = field(default_factory=list)   # in the order written

    def option(self, kind: str) -> Optional[DogmaOption]:
        return next((o for o in self.options if o.kind == kind), None)


Stmt = Union[Draw, Move, Transfer, Exchange, Splay, Unsplay, Rearrange, If, May, Either, Choose,
             ChooseCards, Let, Record, ForEach, Repeat, EndDogma, Win, Lose, Claim, Execute, Act, Dogma, Look, Flip]


# ---------------------------------------------------------------- cards
@dataclass
class Effect(Node):
    kind: str              # cell, demand, non_demand, compel
    body: list[Stmt]
    params: list[Let] = field(default_factory=list)
    cell: Optional[str] = None   # kind 'cell': the word of the set's effect cell ('echo')


@dataclass
class Meta(Node):
    key: str
    value: object


@dataclass
class Hook(Node):
    point: str             # a hook point of innoscript/core/hook_points.py
    params: list[str]      # names for the hook point's arguments, in order
    body: list[Stmt]
    order: int = 0         # 'order N': where it runs among its point's hooks, lower first
    verb: str | None = None  # an event hook's verb ('hook after dig(card, from)')


@dataclass
class Card(Node):
    name: str
    meta: list[Meta]
    effects: list[Effect]
    path: str = field(default="", compare=False)
    hooks: list[Hook] = field(default_factory=list)   # a set's rules file: hooks and no card
    no_effect: bool = False     # printed with no effect at all ('no effect' after the header)

    def get(self, key: str, default=None):
        for m in self.meta:
            if m.key == key:
                return m.value
        return default

    def meta_pos(self, key: str) -> Pos:
        for m in self.meta:
            if m.key == key:
                return m.pos
        return self.pos
