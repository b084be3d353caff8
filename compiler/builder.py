"""Stage 2: Lark parse tree -> AST (compiler/ast.py), keeping positions.

Selections are written as a free sequence of English atoms ("the 2 highest
top non-red cards without factory"); here they are folded into one
``Selection`` node, and a second quantity is an error at its position.
"""
from __future__ import annotations

from lark import Token, Transformer, Tree, v_args

from innoscript.core.diagnostics import Pos, Reporter
from . import ast as A


def _pos(meta) -> Pos:
    if meta is None or getattr(meta, "empty", True):
        return Pos(0, 0)
    return Pos(meta.line, meta.column, meta.end_line, meta.end_column)


def _tpos(tok: Token) -> Pos:
    return Pos(tok.line, tok.column, tok.end_line or tok.line, tok.end_column or tok.column + len(tok))


class _Atom:
    """A selection atom before folding: kind, payload, position."""

    def __init__(self, kind: str, pos: Pos, **data):
        self.kind, self.pos, self.data = kind, pos, data


@v_args(meta=True)
class Builder(Transformer):
    def __init__(self, reporter: Reporter):
        super().__init__()
        self.r = reporter

    # ------------------------------------------------------------ card
    def start(self, meta, children):
        header, *effects = children
        name, metas, pos = header
        return A.Card(name, metas, effects, pos=pos, path=self.r.path)

    def card_no_effect(self, meta, children):
        name, metas, pos = children[0]
        return A.Card(name, metas, [], pos=pos, path=self.r.path, no_effect=True)

    def hooks_file(self, meta, children):
        return A.Card("", [], [], pos=_pos(meta), path=self.r.path, hooks=list(children))

    def hook_def(self, meta, c):
        name, *rest = c
        params = next((x for x in rest[:-1] if isinstance(x, list)), [])
        order = next((x for x in rest[:-1] if isinstance(x, int)), 0)
        verb = next((x[1] for x in rest[:-1] if isinstance(x, tuple)), None)
        return A.Hook(str(name), params, rest[-1], order, verb, pos=_tpos(name))

    def hook_verb(self, meta, c):
        return ("verb", str(c[0]))

    def hook_order(self, meta, c):
        return int(c[0])
    def hook_params(self, meta, c):
        return [str(t) for t in c]

    def card_header(self, meta, children):
        name_tok, *metas = children
        for m in list(metas):   # cell values are a fact of their own, so a changed value is a changed card
            if m.key == "icons" and getattr(m, "cell_values", None):
                metas.append(A.Meta("cell_values", m.cell_values, pos=m.pos))
        return (name_tok.value[1:-1], metas, _tpos(name_tok))

    def meta_age(self, meta, c):
        return A.Meta("age", int(c[0]), pos=_tpos(c[0]))

    def meta_color(self, meta, c):
        return A.Meta("color", str(c[0]), pos=_tpos(c[0]))

    def meta_icons(self, meta, c):
        # each cell: (word, position, its number or None); a set's cells ('echo', 'bonus 3') are words too
        m = A.Meta("icons", [w for w, _, _ in c], pos=c[0][1])
        m.positions = [p for _, p, _ in c]  # per-icon positions for precise errors
        if any(b is not None for _, _, b in c):
            m.cell_values = [b for _, _, b in c]
        return m

    def cell_icon(self, meta, c):
        return (str(c[0]), _tpos(c[0]), None)

    def cell_value(self, meta, c):
        return (str(c[0]), _tpos(c[0]), int(c[1]))

    def cell_blank(self, meta, c):
        return (None, _pos(meta), None)

    def meta_dogma(self, meta, c):
        return A.Meta("dogma", str(c[0]), pos=_tpos(c[0]))

    def meta_face_only(self, meta, c):
        return A.Meta("face_only", True, pos=_pos(meta))

    def meta_set(self, meta, c):
        return A.Meta("set", str(c[0]), pos=_tpos(c[0]))

    def meta_token(self, meta, c):
        """'token': a piece of a set printed with no age, colour, icons or text (Artifacts' museums)."""
        return A.Meta("token", True, pos=_pos(meta))

    def meta_board_value(self, meta, c):
        """'value on board 11': the value the card has while it is on a board (its age elsewhere)."""
        return A.Meta("board_value", int(c[0]), pos=_tpos(c[0]))

    def cell_effect(self, meta, c):
        return A.Effect("cell", c[1], pos=_pos(meta), cell=str(c[0]))

    def demand_effect(self, meta, c):
        return A.Effect("demand", c[0], pos=_pos(meta))

    def plain_effect(self, meta, c):
        return A.Effect("non_demand", c[0], pos=_pos(meta))

    def plain_effect_params(self, meta, c):
        return A.Effect("non_demand", c[1], c[0], pos=_pos(meta))

    def params(self, meta, c):
        return list(c)

    def param(self, meta, c):
        return A.Let(str(c[0]), c[1], pos=_tpos(c[0]))

    def compel_effect(self, meta, c):
        return A.Effect("compel", c[0], pos=_pos(meta))

    def block(self, meta, c):
        return list(c)

    # ------------------------------------------------------------ statements
    def draw_stmt(self, meta, c):
        then = count = times = bind = set_name = None
        age, set_pos = None, Pos(0, 0)
        for x in c:
            if isinstance(x, tuple) and x[0] == "set":
                set_name, set_pos = x[1], x[2]
            elif isinstance(x, tuple) and x[0] == "then":
                then = x[1]
            elif isinstance(x, tuple) and x[0] == "count":
                count = x[1]
            elif isinstance(x, tuple) and x[0] == "age":
                age = x[1]
            elif isinstance(x, A.Times):
                times = x
            elif isinstance(x, tuple) and x[0] == "bind":
                bind = x[1]
        return A.Draw(then, count, age, times, bind, set_name, set_pos, pos=_pos(meta))

    def draw_set(self, meta, c):
        return ("set", str(c[0]), _tpos(c[0]))

    def draw_then(self, meta, c):
        return ("then", c[0])

    def draw_verb(self, meta, c):
        return str(c[0])

    def draw_then_set(self, meta, c):
        """'draw and foreshadow [3]': then a verb a set in play declares."""
        return ("then", str(c[0]))

    def move_verb(self, meta, c):
        return (str(c[0]), _tpos(c[0]))

    def count(self, meta, c):
        x = c[0]
        return ("count", A.Int(int(x), pos=_tpos(x)) if isinstance(x, Token) else x)

    def age_ref(self, meta, c):
        return ("age", c[0])

    def times_each(self, meta, c):
        return A.Times("each", c[0], pos=_pos(meta))

    def times_every(self, meta, c):
        return A.Times("every", c[1], int(c[0]), pos=_pos(meta))

    def binding(self, meta, c):
        return ("bind", str(c[0]))

    def _tail(self, c):
        times = bind = None
        for x in c:
            if isinstance(x, A.Times):
                times = x
            elif isinstance(x, tuple) and x[0] == "bind":
                bind = x[1]
        return times, bind

    def move_stmt(self, meta, c):
        (verb, _vp), sel, *rest = c
        times, bind = self._tail(rest)
        return A.Move(verb, sel, times, bind, pos=_pos(meta))

    def set_move(self, meta, c):
        """'foreshadow a card from your hand': a verb a set in play declares (the resolver checks it)."""
        verb, sel, *rest = c
        times, bind = self._tail(rest)
        return A.Move(str(verb), sel, times, bind, set_verb=True, pos=_pos(meta))

    def place_stmt(self, meta, c):
        sel, *rest = c
        times, bind = self._tail(rest)
        return A.Move("place", sel, times, bind, pos=_pos(meta))

    def transfer_stmt(self, meta, c):
        sel = c[0]
        dest = next(x for x in c[1:] if isinstance(x, A.Zone))
        times, bind = self._tail(c[1:])
        return A.Transfer(sel, dest, times, bind, pos=_pos(meta))

    def exchange_stmt(self, meta, c):
        return A.Exchange(c[0], c[1], pos=_pos(meta))

    def splay_stmt(self, meta, c):
        return A.Splay(c[0], c[1], pos=_pos(meta))

    def splay_on(self, meta, c):
        return A.Splay(c[0], c[2], board=c[1], pos=_pos(meta))

    def direction(self, meta, c):
        return str(c[0])

    def unsplay_stmt(self, meta, c):
        return A.Unsplay(c[0], pos=_pos(meta))

    def rearrange_stmt(self, meta, c):
        return A.Rearrange(c[0], pos=_pos(meta))

    def if_stmt(self, meta, c):
        cond, then, *rest = c
        orelse = rest[0] if rest else None
        return A.If(cond, then, orelse, pos=_pos(meta))

    def you_do(self, meta, c):
        return A.YouDo(False, pos=_pos(meta))

    def you_do_not(self, meta, c):
        return A.YouDo(True, pos=_pos(meta))

    def caused_change(self, meta, c):
        return A.CausedChange(pos=_pos(meta))

    def else_part(self, meta, c):
        x = c[0]
        return x if isinstance(x, list) else [x]

    def may_one(self, meta, c):
        return A.May([c[0]], False, pos=_pos(meta))

    def may_block(self, meta, c):
        return A.May(c[0], True, pos=_pos(meta))

    def either_stmt(self, meta, c):
        return A.Either(list(c), pos=_pos(meta))

    def repeat_stmt(self, meta, c):
        if c:
            name, expr = c[0]
            return A.Repeat(name, expr, pos=_pos(meta))
        return A.Repeat(pos=_pos(meta))

    def repeat_args(self, meta, c):
        return (str(c[0]), c[1])

    def let_stmt(self, meta, c):
        return A.Let(str(c[0]), c[1], pos=_pos(meta))

    def record_stmt(self, meta, c):
        return A.Record(str(c[0]), c[1], pos=_pos(meta))

    def record_own(self, meta, c):
        return A.Record(str(c[0]), c[1], own=True, pos=_pos(meta))

    def for_stmt(self, meta, c):
        return A.ForEach(str(c[0]), c[1], c[2], pos=_pos(meta))

    def acting_stmt(self, meta, c):
        return A.Act(c[0], c[1], pos=_pos(meta))

    def end_stmt(self, meta, c):
        return A.EndDogma(pos=_pos(meta))

    def look_stmt(self, meta, c):
        return A.Look(pos=_pos(meta))

    def flip_stmt(self, meta, c):
        return A.Flip(str(c[0]), pos=_pos(meta))

    def win_stmt(self, meta, c):
        return A.Win(c[0], pos=_pos(meta))

    def win_you(self, meta, c):
        return A.Win(A.Pronoun("you", pos=_pos(meta)), pos=_pos(meta))

    def lose_stmt(self, meta, c):
        return A.Lose(A.Pronoun("you", pos=_pos(meta)), pos=_pos(meta))

    def claim_stmt(self, meta, c):
        return A.Claim(c[0].value[1:-1], pos=_tpos(c[0]))

    def execute_stmt(self, meta, c):
        return A.Execute(c[0], c[1], pos=_pos(meta))

    def execute_with(self, meta, c):
        """'self-execute X replacing may with must', 'self-execute X decided by P' (options in any order)."""
        ex = A.Execute(c[0], c[1], pos=_pos(meta))
        for kind, value in c[2:]:
            if kind == "must":
                ex.must = True
            else:
                ex.decider = value
        return ex

    def exec_must(self, meta, c):
        return ("must", None)

    def exec_decider(self, meta, c):
        return ("decider", c[0])

    def execute_as_if(self, meta, c):
        """'execute X as if on this card': X's effects with the running Dogma's icon, counts and demanded."""
        return A.Execute(c[0], c[1], pos=_pos(meta), as_if=True)

    def dogma_stmt(self, meta, c):
        return A.Dogma(c[0], None, pos=_pos(meta), options=c[1] if len(c) > 1 else [])

    def dogma_marked(self, meta, c):
        """'dogma X, foreseen': a free Dogma marked by a mark a set declares."""
        return A.Dogma(c[0], str(c[1]), pos=_pos(meta), mark_pos=_tpos(c[1]), options=c[2] if len(c) > 2 else [])

    def dogma_options(self, meta, c):
        return list(c)

    def dogma_own_icons(self, meta, c):
        """'counting its icons': the card's own icons join the launcher's count of its featured icon."""
        return A.DogmaOption("own_icons", pos=_pos(meta))

    def dogma_no_cells(self, meta, c):
        """'running no cell effects': no cell effect runs before the card's own effects."""
        return A.DogmaOption("no_cells", pos=_pos(meta))

    def dogma_twice(self, meta, c):
        """'doubling its effects': the launcher performs each effect twice; demands and compels go round twice."""
        return A.DogmaOption("twice", pos=_pos(meta))

    def dogma_cells_of(self, meta, c):
        """'running the cell effects of CARDS': those cards' visible cell effects instead of the pile's."""
        return A.DogmaOption("cells_of", c[0], pos=_pos(meta))

    def execute_kind(self, meta, c):
        return "fully-execute" if str(c[0]) == "fully" else str(c[0])

    def choose_value(self, meta, c):
        kind = c[0]
        source = chooser = None
        for x in c[1:-1]:
            if isinstance(x, tuple) and x[0] == "chooser":
                chooser = x[1]
            else:
                source = x
        return A.Choose(kind, source, chooser, str(c[-1]), pos=_pos(meta))

    def choice_kind(self, meta, c):
        return "two_colors" if len(c) == 2 else str(c[0])

    def chooser(self, meta, c):
        return ("chooser", _player_word(c[0]))

    def choose_cards(self, meta, c):
        return A.ChooseCards(c[0], str(c[1]), pos=_pos(meta))

    # ------------------------------------------------------------ selections
    def select_binding(self, meta, c):
        tok = c[0]
        return A.Selection(None, "any", None, False, [], A.Name(str(tok), pos=_tpos(tok)), pos=_pos(meta))

    def select_owned(self, meta, c):
        owner, position, *rest = c
        filters = []
        color_tok = rest[0] if rest else None
        if color_tok is not None:
            filters.append(A.Filter("color", color=A.Name(str(color_tok), pos=_tpos(color_tok)), pos=_tpos(color_tok)))
        zone = A.Zone("board", owner, pos=owner.pos)
        return A.Selection(A.Quantity("one", pos=_pos(meta)), "any", position, False, filters, zone, pos=_pos(meta))

    def end_position(self, meta, c):
        return str(c[0])

    def select_from(self, meta, c):
        atoms = [x for x in c if isinstance(x, _Atom)]
        zone = next(x for x in c if isinstance(x, (A.Zone, A.Beneath, list)))
        also = []
        if isinstance(zone, list):       # 'from your hand and your score pile'
            zone, also = zone[0], zone[1:]
        sel = self._fold(atoms, zone, _pos(meta))
        sel.also = also
        if isinstance(zone, A.Beneath):   # "all cards beneath X": every card under X; "the card beneath X": one
            zone.all = sel.quantity is not None and sel.quantity.kind == "all"
        return sel

    def sel_source(self, meta, c):
        return c[0]

    def src_zones(self, meta, c):
        return list(c)

    def src_beneath(self, meta, c):
        return A.Beneath(c[0], pos=_pos(meta))

    def _fold(self, atoms: list[_Atom], source, pos: Pos) -> A.Selection:
        quantity = None
        order, position, each_color, chooser = "any", None, False, None
        unrevealed = None
        filters: list[A.Filter] = []
        for a in atoms:
            k = a.kind
            if k.startswith("q_"):
                if quantity is not None:
                    self.r.error("E301", "a selection can have only one quantity", a.pos,
                                 "remove one of the quantities")
                    continue
                quantity = a.data["q"]
            elif k in ("highest", "lowest"):
                order = k
            elif k in ("top", "bottom"):
                position = k
            elif k == "each_color":
                each_color = True
            elif k == "chooser":
                chooser = a.data["who"]
            elif k == "filter":
                filters.append(a.data["f"])
            elif k == "unrevealed":
                unrevealed = a.pos
        return A.Selection(quantity, order, position, each_color, filters, source, chooser, unrevealed, pos=pos)

    def _q(self, meta, kind, **kw):
        return _Atom("q_" + kind, _pos(meta), q=A.Quantity(kind, pos=_pos(meta), **kw))

    def q_one(self, meta, c):
        return self._q(meta, "one")

    def q_exact(self, meta, c):
        return self._q(meta, "exact", n=A.Int(int(c[0]), pos=_tpos(c[0])))

    def q_exact_expr(self, meta, c):
        return self._q(meta, "exact", n=c[0])

    def q_up_to(self, meta, c):
        return self._q(meta, "up_to", n=c[0])

    def q_range(self, meta, c):
        return self._q(meta, "range", n=A.Int(int(c[0]), pos=_tpos(c[0])), n2=A.Int(int(c[1]), pos=_tpos(c[1])))

    def q_any_number(self, meta, c):
        return self._q(meta, "any_number")

    def q_all(self, meta, c):
        return self._q(meta, "all")

    def q_all_or_none(self, meta, c):
        return self._q(meta, "all_or_none")

    def q_all_but(self, meta, c):
        return self._q(meta, "all_but", n=c[0])

    def q_half(self, meta, c):
        rounding = c[0] if c else "down"
        return self._q(meta, "half", rounding=rounding)

    def rounding(self, meta, c):
        return str(c[1])

    def quant_n(self, meta, c):
        x = c[0]
        return A.Int(int(x), pos=_tpos(x)) if isinstance(x, Token) else x

    def a_the(self, meta, c):
        return _Atom("noise", _pos(meta))

    a_noun = a_the

    def a_other(self, meta, c):
        return _Atom("noise", _pos(meta))

    def a_highest(self, meta, c):
        return _Atom("highest", _pos(meta))

    def a_lowest(self, meta, c):
        return _Atom("lowest", _pos(meta))

    def a_top(self, meta, c):
        return _Atom("top", _pos(meta))

    def a_bottom(self, meta, c):
        return _Atom("bottom", _pos(meta))

    def a_each_color(self, meta, c):
        return _Atom("each_color", _pos(meta))

    def a_chooser(self, meta, c):
        return _Atom("chooser", _pos(meta), who=_player_word(c[0]))

    def a_unrevealed(self, meta, c):
        return _Atom("unrevealed", _pos(meta))

    def _f(self, meta, kind, **kw):
        return _Atom("filter", _pos(meta), f=A.Filter(kind, pos=_pos(meta), **kw))

    def a_color(self, meta, c):
        tok = c[0]
        return self._f(meta, "color", color=A.Name(str(tok), pos=_tpos(tok)))

    def a_noncolor(self, meta, c):
        tok = c[0]
        p = _tpos(tok)
        return self._f(meta, "noncolor", color=A.Name(str(tok)[4:], pos=Pos(p.line, p.column + 4, p.end_line, p.end_column)))

    def f_with(self, meta, c):
        return self._f(meta, "with", icon=str(c[0]))

    def f_without(self, meta, c):
        return self._f(meta, "without", icon=str(c[0]))

    def f_color(self, meta, c):
        return self._f(meta, "color", color=c[0])

    def f_color_on(self, meta, c):
        return self._f(meta, "color_on", zone=c[0])

    def f_color_not_on(self, meta, c):
        return self._f(meta, "color_not_on", zone=c[0])

    def f_value(self, meta, c):
        cmp, value = c[0]
        return self._f(meta, "value", cmp=cmp, value=value)

    def f_value_any(self, meta, c):
        if len(c) == 1:
            return self._f(meta, "value", cmp="==", value=c[0])
        return self._f(meta, "values", values=list(c))

    def value_ref(self, meta, c):
        return c[0]

    def vt_eq(self, meta, c):
        return ("==", c[0])

    def vt_le(self, meta, c):
        return ("<=", c[0])

    def vt_ge(self, meta, c):
        return (">=", c[0])

    def vt_gt(self, meta, c):
        return (">", c[0])

    def vt_lt(self, meta, c):
        return ("<", c[0])

    def f_not_named(self, meta, c):
        return self._f(meta, "not_named", name=c[0].value[1:-1])

    def f_named(self, meta, c):
        return self._f(meta, "named", name=c[0].value[1:-1])

    def f_not_this(self, meta, c):
        return self._f(meta, "not_this")

    def f_where(self, meta, c):
        return self._f(meta, "where", cond=c[0])

    # ------------------------------------------------------------ zones
    def zone_owned(self, meta, c):
        owner, kind = c
        return A.Zone(kind, owner, pos=_pos(meta))

    def zone_kind(self, meta, c):
        words = [str(t) for t in c]
        if words[0] in ("hand", "hands"):
            return "hand"
        if words[0] == "score":
            return "score"
        if words[0] in ("board", "boards"):
            return "board"
        if words[0] == "top":
            return "top"
        if words[0] == "revealed":
            return "revealed"
        return "achievements"

    def zone_set(self, meta, c):
        owner, name = c
        return A.Zone("set", owner, name=str(name), pos=_pos(meta))

    dest_set = zone_set

    def zone_shared(self, meta, c):
        """'the NAME': a game-wide zone a set manifest declares (scope game), no owner."""
        return A.Zone("shared", name=str(c[0]), pos=_pos(meta))

    dest_shared = zone_shared

    def zone_junk(self, meta, c):
        return A.Zone("junk", pos=_pos(meta))

    def zone_available(self, meta, c):
        return A.Zone("available", pos=_pos(meta))

    def zone_available_special(self, meta, c):
        return A.Zone("available_special", pos=_pos(meta))

    def zone_available_all(self, meta, c):
        return A.Zone("available_all", pos=_pos(meta))

    def zone_junk_special(self, meta, c):
        return A.Zone("junk_special", pos=_pos(meta))

    def zone_deck(self, meta, c):
        return A.Zone("deck", age=c[0], pos=_pos(meta))

    def zone_deck_set(self, meta, c):
        """'deck echoes [3]': a set's supply pile of that value ('deck base [3]': the base cards')."""
        return A.Zone("deck", age=c[1], name=str(c[0]), pos=_pos(meta))

    def zone_revealed(self, meta, c):
        return A.Zone("revealed_all", pos=_pos(meta))

    def dest_zone(self, meta, c):
        owner, kind = c
        return A.Zone(kind, owner, pos=_pos(meta))

    def dest_junk(self, meta, c):
        return A.Zone("junk", pos=_pos(meta))

    def dest_available(self, meta, c):
        return A.Zone("available", pos=_pos(meta))

    def _own(kind):
        def f(self, meta, c):
            return A.Owner(kind, pos=_pos(meta))
        return f

    own_you = _own("you")
    own_me = _own("me")
    own_them = _own("them")
    own_opponents = _own("opponents")
    own_others = _own("others")
    own_all = _own("all")
    own_any_opponent = _own("any_opponent")
    own_any_player = _own("any_player")

    def own_binding(self, meta, c):
        return A.Owner("binding", str(c[0]), pos=_tpos(c[0]))

    # ------------------------------------------------------------ expressions
    def _chain(self, meta, c, op_for):
        if len(c) == 1:
            return c[0]
        node = c[0]
        i = 1
        while i < len(c):
            if isinstance(c[i], str) and not isinstance(c[i], A.Node):
                op, rhs = c[i], c[i + 1]
                i += 2
            else:
                op, rhs = op_for, c[i]
                i += 1
            node = A.BinOp(op, node, rhs, pos=_pos(meta))
        return node

    def or_(self, meta, c):
        return self._chain(meta, c, "or")

    def and_(self, meta, c):
        return self._chain(meta, c, "and")

    def arith(self, meta, c):
        return self._chain(meta, c, None)

    def add_op(self, meta, c):
        return str(c[0])

    mul_op = add_op

    def compare_op(self, meta, c):
        return str(c[0])

    def not_(self, meta, c):
        return A.Not(c[0], pos=_pos(meta))

    def neg(self, meta, c):
        return A.Neg(c[0], pos=_pos(meta))

    def compare(self, meta, c):
        if len(c) == 1:
            return c[0]
        return A.Compare(c[1], c[0], c[2], pos=_pos(meta))

    def has_icon(self, meta, c):
        return A.HasIcon(c[0], str(c[1]), pos=_pos(meta))

    def is_(self, meta, c):
        what = c[1]
        if isinstance(c[0], A.Pronoun) and c[0].who == "it" and isinstance(what, A.ZoneExpr) \
                and what.zone.kind == "set" and what.zone.name == "turn":
            # "it is my turn", "it is their turn": only the performer's turn can be asked
            self.r.error("E312", "only 'it is your turn' says whose turn it is", _pos(meta),
                         "write 'it is your turn' (the performer's), or 'not it is your turn'")
            return A.Call("your_turn", [], pos=_pos(meta))
        return A.Is(c[0], c[1], pos=_pos(meta))

    def in_(self, meta, c):
        return A.In(c[0], c[1], False, pos=_pos(meta))

    def not_in(self, meta, c):
        return A.In(c[0], c[1], True, pos=_pos(meta))

    def where_(self, meta, c):
        return A.Where(c[0], c[1], pos=_pos(meta))

    def where_named(self, meta, c):
        return A.Where(c[0], c[2], str(c[1]), pos=_pos(meta))

    def with_icon(self, meta, c):
        return A.WithIcon(c[0], str(c[1]), False, pos=_pos(meta))

    def without_icon(self, meta, c):
        return A.WithIcon(c[0], str(c[1]), True, pos=_pos(meta))

    def int_lit(self, meta, c):
        return A.Int(int(c[0]), pos=_tpos(c[0]))

    def str_lit(self, meta, c):
        return A.Str(c[0].value[1:-1], pos=_tpos(c[0]))

    def name_ref(self, meta, c):
        return A.Name(str(c[0]), pos=_tpos(c[0]))

    def call(self, meta, c):
        return A.Call(str(c[0]), [x for x in c[1:] if x is not None], pos=_tpos(c[0]))

    def this_card(self, meta, c):
        """'this card': the card whose text is running, without spelling its name."""
        return A.Call("this_card", [], pos=_pos(meta))

    def card_beneath(self, meta, c):
        return A.Beneath(c[0], False, pos=_pos(meta))

    def cards_beneath(self, meta, c):
        return A.Beneath(c[0], True, pos=_pos(meta))

    def pile_top(self, meta, c):
        return A.PileEnd("top", c[0], c[1], c[2], pos=_pos(meta))

    def pile_bottom(self, meta, c):
        return A.PileEnd("bottom", c[0], c[1], c[2], pos=_pos(meta))

    def pile_all_but_top(self, meta, c):
        return A.PileEnd("all_but_top", c[0], c[1], c[2], pos=_pos(meta))

    def pile_part(self, meta, c):
        return c[0]

    def under_value(self, meta, c):
        return A.DirectlyUnder(c[0], value=c[1], pos=_pos(meta))

    def under_cards(self, meta, c):
        return A.DirectlyUnder(c[0], cards=c[1], pos=_pos(meta))

    def your_turn(self, meta, c):
        """'it is your turn': the performer is the player whose turn it is."""
        return A.Call("your_turn", [], pos=_pos(meta))

    def this_marked(self, meta, c):
        """'this card was foreseen': whether this card's execution carries a mark a set declares."""
        return A.Call("was_marked", [A.Str(str(c[0]), pos=_tpos(c[0]))], pos=_pos(meta))

    def you_ref(self, meta, c):
        return A.Pronoun("you", pos=_pos(meta))

    def me_ref(self, meta, c):
        return A.Pronoun("me", pos=_pos(meta))

    def them_ref(self, meta, c):
        return A.Pronoun("them", pos=_pos(meta))

    def it_ref(self, meta, c):
        return A.Pronoun("it", pos=_pos(meta))

    def zone_expr(self, meta, c):
        return A.ZoneExpr(c[0], pos=_pos(meta))

    def action_var(self, meta, c):
        return A.ActionVar(str(c[0]), pos=_pos(meta))

    def own_var_you(self, meta, c):
        return A.OwnVar(str(c[0]), "you", pos=_pos(meta))

    def own_var_me(self, meta, c):
        return A.OwnVar(str(c[0]), "me", pos=_pos(meta))

    def any_color(self, meta, c):
        return A.AnyColor(pos=_pos(meta))

    def players_all(self, meta, c):
        return A.PlayerSet("all", pos=_pos(meta))

    def players_opponents(self, meta, c):
        return A.PlayerSet("opponents", pos=_pos(meta))

    def players_others(self, meta, c):
        return A.PlayerSet("others", pos=_pos(meta))

    def player_set_base(self, meta, c):
        words = [str(t) for t in c]
        kind = {"players": "all", "opponents": "opponents"}.get(words[0], "others")
        return A.PlayerSet(kind, pos=_pos(meta))

    def any_players(self, meta, c):
        return A.Quantified("any", c[0], c[1], pos=_pos(meta))

    def no_players(self, meta, c):
        return A.Quantified("no", c[0], c[1], pos=_pos(meta))

    def all_players_have(self, meta, c):
        return A.Quantified("all", c[0], c[1], pos=_pos(meta))

    def single_player(self, meta, c):
        return A.SinglePlayer(c[0], c[1], pos=_pos(meta))

    def extreme(self, meta, c):
        return str(c[0])

    def player_ref(self, meta, c):
        return c[0]


def _player_word(x) -> str:
    if isinstance(x, A.Pronoun):
        return x.who
    if isinstance(x, A.Name):
        return x.name
    return "you"


def build(tree: Tree, reporter: Reporter) -> A.Card:
    return Builder(reporter).transform(tree)
