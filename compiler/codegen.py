"""Stage 4: checked AST -> bytecode chunks, one per effect.

A chunk is ``{"code": [[op, arg...]...], "consts": [...], "lines": [[line,
col]...], "locals": [...], "max_stack": n}``; ``lines[pc]`` is the source
position of instruction ``pc``.  Instructions are numbered by the opcode
table (innoscript/core/opcodes.py) and nothing else.
"""
from __future__ import annotations

from innoscript.core import opcodes as O
from innoscript.core.diagnostics import Pos
from . import ast as A

ALL = -1  # 'max' meaning "as many as there are"


class Chunk:
    def __init__(self, kind: str, cell: str | None = None):
        self.kind = kind
        self.cell = cell            # kind 'cell': the word of the effect's cell ('echo')
        self.code: list[list[int]] = []
        self.lines: list[list[int]] = []
        self.consts: list = []
        self._const_index: dict[str, int] = {}
        self.locals: list[str] = []

    def const(self, value) -> int:
        key = repr((type(value).__name__, value))
        if key not in self._const_index:
            self._const_index[key] = len(self.consts)
            self.consts.append(value)
        return self._const_index[key]

    def emit(self, op: int, *args: int, pos: Pos) -> int:
        self.code.append([op, *args])
        self.lines.append([pos.line, pos.column])
        return len(self.code) - 1

    def patch(self, pc: int, target: int) -> None:
        info = O.OPCODES[self.code[pc][0]]
        idx = info.operands.index("target") + 1
        self.code[pc][idx] = target

    def here(self) -> int:
        return len(self.code)

    def to_json(self) -> dict:
        out = {"kind": self.kind, "code": self.code, "consts": self.consts, "lines": self.lines,
               "locals": self.locals}
        if self.cell is not None:
            out["cell"] = self.cell
        return out


def E(kind: str, value: str) -> int:
    return O.enum_index(kind, value)


class CodeGen:
    def __init__(self, types: dict[int, str]):
        self.types = types
        self.c: Chunk
        self.scopes: list[dict[str, int]] = []
        self.it_slot: list[int] = []
        self.them_slot: list[int] = []
        self.tmp = 0
        self.change_marks: dict[int, int] = {}     # id of an 'if this caused a change' -> the count's slot

    # ------------------------------------------------------------ helpers
    def typ(self, e) -> str:
        return self.types.get(id(e), "any")

    def slot(self, name: str) -> int:
        self.c.locals.append(name)
        return len(self.c.locals) - 1

    def temp(self, what: str) -> int:
        self.tmp += 1
        return self.slot(f"${what}{self.tmp}")

    def bind(self, name: str) -> int:
        for scope in reversed(self.scopes):
            if name in scope:
                return scope[name]
        s = self.slot(name)
        self.scopes[-1][name] = s
        return s

    def lookup(self, name: str):
        for scope in reversed(self.scopes):
            if name in scope:
                return scope[name]
        return None

    def emit(self, op, *args, pos):
        return self.c.emit(op, *args, pos=pos)

    def const(self, value, pos):
        self.emit(O.CONST, self.c.const(value), pos=pos)

    def store_or_pop(self, name, pos):
        if name:
            self.emit(O.STORE, self.bind(name), pos=pos)
        else:
            self.emit(O.POP, pos=pos)

    # ------------------------------------------------------------ effects
    def effect(self, eff: A.Effect) -> Chunk:
        self.c = Chunk(eff.kind, eff.cell)
        self.scopes = [{}]
        self.tmp = 0
        for p in eff.params:
            self.s_Let(p)
        self.entry = self.c.here()  # 'repeat' restarts here, keeping the parameters
        self.block(eff.body)
        self.emit(O.RETURN, pos=_end(eff.pos))
        return self.c

    def hook(self, h: A.Hook) -> Chunk:
        """A hook's arguments are its first locals, set by the engine before it runs."""
        self.c = Chunk("hook")
        self.scopes = [{}]
        self.tmp = 0
        for name in h.params:
            self.bind(name)
        self.entry = self.c.here()
        self.block(h.body)
        self.emit(O.RETURN, pos=_end(h.pos) if h.pos.end_line else h.pos)
        return self.c

    def condition(self, expr, pos: Pos) -> Chunk:
        self.c = Chunk("condition")
        self.scopes = [{}]
        self.expr(expr)
        self.emit(O.RESULT, pos=pos)
        return self.c

    def block(self, stmts):
        for i, s in enumerate(stmts):
            nxt = stmts[i + 1] if i + 1 < len(stmts) else None
            if isinstance(nxt, A.If) and isinstance(nxt.cond, A.CausedChange):
                # 'if this caused a change' after s: the game's change count before s, compared after it
                slot = self.temp("changes")
                self.emit(O.CALL, self.c.const("changes"), 0, pos=nxt.cond.pos)
                self.emit(O.STORE, slot, pos=nxt.cond.pos)
                self.change_marks[id(nxt.cond)] = slot
            getattr(self, "s_" + type(s).__name__)(s)

    # ------------------------------------------------------------ statements
    def count_times(self, base, times: A.Times | None, pos):
        """Push base (an expr or int) multiplied by a 'for each/every' suffix."""
        if isinstance(base, int):
            self.const(base, pos)
        else:
            self.expr(base)
        if times is not None:
            self.expr(times.expr)
            if self.typ(times.expr) != "int":
                self.emit(O.CALL, self.c.const("count"), 1, pos=times.pos)
            if times.kind == "every":
                self.const(times.every, times.pos)
                self.emit(O.BINARY, E("binop", "//"), pos=times.pos)
            self.emit(O.BINARY, E("binop", "*"), pos=times.pos)

    def s_Draw(self, s: A.Draw, optional: bool = False):
        self.count_times(s.count if s.count is not None else 1, s.times, s.pos)
        self.expr(s.age)
        if s.then is not None and s.then not in O.ENUMS["draw"]:      # a verb a set declares
            self.emit(O.DRAW_NAMED, self.c.const(s.then), self.c.const(s.set), pos=s.pos)
        elif s.set is not None and self.lookup(s.set) is not None:     # a set bound at run time: 'draw s [2]'
            self.emit(O.LOAD, self.lookup(s.set), pos=s.pos)
            self.emit(O.DRAW_FROM, E("draw", s.then or "draw"), pos=s.pos)
        elif s.set is not None:
            self.emit(O.DRAW_SET, E("draw", s.then or "draw"), self.c.const(s.set), pos=s.pos)
        else:
            self.emit(O.DRAW, E("draw", s.then or "draw"), pos=s.pos)
        self.store_or_pop(s.bind, s.pos)

    def s_Move(self, s: A.Move, optional: bool = False):
        self.selection(s.selection, s.times, optional)
        if s.set_verb:
            self.emit(O.MOVE_NAMED, self.c.const(s.verb), pos=s.pos)
        else:
            self.emit(O.MOVE, E("verb", s.verb), pos=s.pos)
        self.store_or_pop(s.bind, s.pos)

    def s_Transfer(self, s: A.Transfer, optional: bool = False):
        self.selection(s.selection, s.times, optional)
        if s.dest.kind in ("junk", "available"):   # shared zones: a move of 'you', no player operand
            self.emit(O.MOVE, E("verb", "junk" if s.dest.kind == "junk" else "make_available"), pos=s.pos)
        elif s.dest.kind == "set":
            self.owner(s.dest.owner, s.dest.pos)
            self.emit(O.TRANSFER_SET, self.c.const(s.dest.name), pos=s.pos)
        elif s.dest.kind == "shared":     # a set's game-wide zone: no player operand
            self.emit(O.TRANSFER_SHARED, self.c.const(s.dest.name), pos=s.pos)
        else:
            self.owner(s.dest.owner, s.dest.pos)
            self.emit(O.TRANSFER, E("zone", s.dest.kind), pos=s.pos)
        self.store_or_pop(s.bind, s.pos)

    def s_Exchange(self, s: A.Exchange, optional: bool = False):
        # Each side's zone travels with it: an empty side still says where the other side goes.
        # 'all or none of' on the first side is the exchange's own choice: all of it, or nothing.
        optional = optional or _all_or_none(s.first)
        for sel in (s.first, s.second):
            self.selection(sel, None, False, whole=True)
            self.owner(sel.source.owner, sel.source.pos)
        self.emit(O.EXCHANGE, E("zone", s.first.source.kind), E("zone", s.second.source.kind), int(optional),
                  pos=s.pos)

    def s_Splay(self, s: A.Splay, optional: bool = False):
        self.colors(s.color)
        if s.board is not None:
            self.owner(s.board, s.board.pos)
            self.emit(O.SPLAY_ON, E("direction", s.direction), int(optional), pos=s.pos)
            return
        self.emit(O.SPLAY, E("direction", s.direction), int(optional), pos=s.pos)

    def s_Unsplay(self, s: A.Unsplay):
        self.colors(s.color)
        self.emit(O.UNSPLAY, pos=s.pos)

    def s_Rearrange(self, s: A.Rearrange):
        self.expr(s.color)
        self.emit(O.REARRANGE, pos=s.pos)

    def s_If(self, s: A.If):
        if isinstance(s.cond, A.YouDo):
            self.emit(O.DID, pos=s.cond.pos)
            if s.cond.negate:
                self.emit(O.NOT, pos=s.cond.pos)
        elif isinstance(s.cond, A.CausedChange):
            self.emit(O.CALL, self.c.const("changes"), 0, pos=s.cond.pos)
            self.emit(O.LOAD, self.change_marks[id(s.cond)], pos=s.cond.pos)
            self.emit(O.COMPARE, E("cmp", ">"), pos=s.cond.pos)
        else:
            self.expr(s.cond)
        jf = self.emit(O.JUMP_IF_FALSE, 0, pos=s.pos)
        self.scopes.append({})
        self.block(s.then)
        self.scopes.pop()
        if s.orelse:
            # no jump over the else branch when the then branch cannot fall through (it ends in repeat): its last
            # instruction ends the flow and nothing jumps past it (a loop's exit does: 'each' ends in a jump back)
            last = self.c.code[-1][0] if self.c.code else None
            here = self.c.here()
            reached = any(O.OPCODES[ins[0]].jumps and O.jump_target(O.OPCODES[ins[0]], ins) == here
                          for ins in self.c.code[jf + 1:])
            ends = last is not None and O.OPCODES[last].terminal and not reached
            jend = None if ends else self.emit(O.JUMP, 0, pos=s.pos)
            self.c.patch(jf, self.c.here())
            self.scopes.append({})
            self.block(s.orelse)
            self.scopes.pop()
            if jend is not None:
                self.c.patch(jend, self.c.here())
        else:
            self.c.patch(jf, self.c.here())

    def s_May(self, s: A.May):
        # "may <move>" folds into the choice itself: choosing nothing declines.
        if not s.block and len(s.body) == 1:
            inner = s.body[0]
            if isinstance(inner, (A.Move, A.Transfer)) and inner.selection.chooses():
                getattr(self, "s_" + type(inner).__name__)(inner, optional=True)
                return
            if isinstance(inner, A.Exchange):  # asks once both sides are known, and only if any card would move
                self.s_Exchange(inner, optional=True)
                return
            if isinstance(inner, A.Splay):  # the colour choice offers "decline"
                self.s_Splay(inner, optional=True)
                return
        self.emit(O.ASK, pos=s.pos)
        jf = self.emit(O.JUMP_IF_FALSE, 0, pos=s.pos)
        self.block(s.body)
        self.c.patch(jf, self.c.here())

    def s_Either(self, s: A.Either):
        self.emit(O.CHOOSE_OPTION, len(s.options), pos=s.pos)
        ends = []
        for i, opt in enumerate(s.options):
            last = i == len(s.options) - 1
            if not last:
                self.emit(O.DUP, pos=s.pos)
                self.const(i, s.pos)
                self.emit(O.COMPARE, E("cmp", "=="), pos=s.pos)
                jf = self.emit(O.JUMP_IF_FALSE, 0, pos=s.pos)
            self.emit(O.POP, pos=s.pos)
            self.scopes.append({})
            self.block(opt)
            self.scopes.pop()
            if not last:
                ends.append(self.emit(O.JUMP, 0, pos=s.pos))
                self.c.patch(jf, self.c.here())
        for j in ends:
            self.c.patch(j, self.c.here())

    def s_Choose(self, s: A.Choose):
        if s.source is not None:
            self.expr(s.source)
        elif s.kind in ("color", "two_colors"):
            self.emit(O.CALL, self.c.const("all_colors"), 0, pos=s.pos)
        elif s.kind == "icon":
            self.emit(O.CALL, self.c.const("all_icons"), 0, pos=s.pos)
        elif s.kind == "player":
            self.emit(O.PLAYERS, E("players", "all"), pos=s.pos)
        elif s.kind == "set":
            self.emit(O.CALL, self.c.const("sets"), 0, pos=s.pos)
        else:
            self.emit(O.CALL, self.c.const("ages"), 0, pos=s.pos)
        self.emit(O.CHOOSE, E("choice", s.kind), E("chooser", s.chooser or "you"), pos=s.pos)
        self.emit(O.STORE, self.bind(s.name), pos=s.pos)

    def s_ChooseCards(self, s: A.ChooseCards):
        self.selection(s.selection, None, False)
        self.emit(O.STORE, self.bind(s.name), pos=s.pos)

    def s_Let(self, s: A.Let):
        self.expr(s.expr)
        self.emit(O.STORE, self.bind(s.name), pos=s.pos)

    def s_Record(self, s: A.Record):
        self.expr(s.expr)
        self.emit(O.STORE_OWN if s.own else O.STORE_ACTION, self.c.const(s.name), pos=s.pos)

    def s_ForEach(self, s: A.ForEach):
        self.expr(s.iterable)
        lst, idx = self.temp("list"), self.temp("i")
        self.emit(O.STORE, lst, pos=s.pos)
        self.const(0, s.pos)
        self.emit(O.STORE, idx, pos=s.pos)
        self.scopes.append({})
        item = self.bind(s.name)
        wrap = 1 if self.typ(s.iterable) == "cards" else 0
        top = self.c.here()
        fn = self.emit(O.FOR_NEXT, lst, idx, item, wrap, 0, pos=s.pos)
        self.block(s.body)
        self.emit(O.JUMP, top, pos=s.pos)
        self.c.patch(fn, self.c.here())
        self.scopes.pop()

    def s_Repeat(self, s: A.Repeat):
        if s.name is not None:
            self.expr(s.expr)
            self.emit(O.STORE, self.bind(s.name), pos=s.pos)
        self.emit(O.REPEAT, self.entry, pos=s.pos)

    def s_Act(self, s: A.Act):
        kept = self.temp("you")
        self.expr(s.player)
        act = self.emit(O.ACT, kept, 0, pos=s.pos)
        known = set(self.scopes[-1])
        self.block(s.body)      # its bindings stay visible after it
        made = [slot for name, slot in self.scopes[-1].items() if name not in known]
        self.emit(O.ACT_END, kept, pos=s.pos)
        if made:   # skipped: the block's names hold no cards, not what an earlier repeat left in them
            over = self.emit(O.JUMP, 0, pos=s.pos)
            self.c.patch(act, self.c.here())
            for slot in made:
                self.emit(O.LIST_NEW, pos=s.pos)
                self.emit(O.STORE, slot, pos=s.pos)
            self.c.patch(over, self.c.here())
        else:
            self.c.patch(act, self.c.here())

    def s_EndDogma(self, s):
        self.emit(O.END_DOGMA, pos=s.pos)

    def s_Look(self, s):
        self.emit(O.LOOK, pos=s.pos)

    def s_Flip(self, s: A.Flip):
        self.emit(O.FLIP, pos=s.pos)
        self.emit(O.STORE, self.bind(s.name), pos=s.pos)

    def s_Win(self, s: A.Win):
        self.expr(s.player)
        self.emit(O.WIN, pos=s.pos)

    def s_Lose(self, s: A.Lose):
        self.expr(s.player)
        self.emit(O.LOSE, pos=s.pos)

    def s_Claim(self, s: A.Claim):
        self.emit(O.CLAIM, self.c.const(s.achievement), pos=s.pos)

    def s_Dogma(self, s: A.Dogma):
        self.expr(s.target)
        if not s.options:
            self.emit(O.DOGMA, self.c.const(s.mark), pos=s.pos)
            return
        # DOGMA_WITH's flags: 1 counting its icons, 2 running no cell effects, 4 the cell effects of cards,
        # 8 doubling its effects
        flags = sum({"own_icons": 1, "no_cells": 2, "cells_of": 4, "twice": 8}[o.kind] for o in s.options)
        cells = s.option("cells_of")
        if cells is not None:
            self.expr(cells.cards)
        else:
            self.emit(O.CONST, self.c.const(None), pos=s.pos)
        self.emit(O.DOGMA_WITH, self.c.const(s.mark), flags, pos=s.pos)

    def s_Execute(self, s: A.Execute):
        self.expr(s.target)
        if s.must or s.decider is not None:
            if s.decider is not None:
                self.expr(s.decider)
            else:
                self.const(None, s.pos)
            self.emit(O.EXECUTE_WITH, E("execute", s.kind), int(s.must) | (2 if s.decider is not None else 0),
                      pos=s.pos)
            return
        self.emit(O.EXECUTE, E("execute", "as-if" if s.as_if else s.kind), pos=s.pos)

    # ------------------------------------------------------------ selections
    def selection(self, sel: A.Selection, times: A.Times | None, optional: bool, whole: bool = False):
        """Push the selected cards; 'whole': an all-or-none side of an exchange selects all (the exchange asks)."""
        pos = sel.pos
        if isinstance(sel.source, (A.Name, A.Beneath)):
            self.expr(sel.source)
        else:
            self.zone(sel.source)
        for z in sel.also:
            self.zone(z)
            self.emit(O.BINARY, E("binop", "union"), pos=pos)
        if sel.position:
            self.emit(O.FILTER_POS, E("position", sel.position), pos=pos)
        for f in sel.filters:
            self.filter(f)
        q = sel.quantity
        if isinstance(sel.source, A.Beneath) and sel.order == "any" and not sel.each_color:
            q = None       # 'the card beneath X' / 'all cards beneath X' are given by the pile, not chosen
        if q is None and isinstance(sel.source, (A.Name, A.Beneath)) and sel.order == "any" and not sel.each_color:
            if optional:  # "may score drawn": all of it or nothing
                self.const(0, pos)
                self.const(ALL, pos)
                self.emit(O.SELECT, E("select", "all"), E("order", "any"), E("chooser", "you"), 1, pos=pos)
            return
        mode, lo, hi = "count", 1, 1
        if sel.each_color:
            mode, lo, hi = "each_color", 1, 1
        if q is not None:
            if q.kind == "one":
                pass
            elif q.kind == "exact":
                lo = hi = q.n
            elif q.kind == "up_to":
                lo, hi = 0, q.n
            elif q.kind == "range":
                lo, hi = q.n, q.n2
            elif q.kind == "any_number":
                lo, hi = 0, ALL
            elif q.kind == "all":
                mode, lo, hi = ("each_color" if sel.each_color else "all"), 0, ALL
            elif q.kind == "all_or_none":
                mode, lo, hi = ("all" if whole else "all_or_none"), 0, ALL
            elif q.kind == "all_but":
                mode, lo, hi = "all_but", q.n, q.n
            elif q.kind == "half":
                mode, lo, hi = ("half_up" if q.rounding == "up" else "half_down"), 0, 0
        self.count_times(lo, times, pos)
        self.count_times(hi, times if hi != ALL else None, pos)
        chooser = sel.chooser or self.default_chooser(sel)
        flags = int(optional) | (2 if sel.unrevealed is not None else 0)   # 2: the chooser sees backs
        self.emit(O.SELECT, E("select", mode), E("order", sel.order), E("chooser", chooser), flags, pos=pos)

    @staticmethod
    def default_chooser(sel: A.Selection) -> str:
        # Ties among highest/lowest cards hidden from the performer are broken by their owner.
        src = sel.source
        if sel.order != "any" and isinstance(src, A.Zone) and src.owner is not None \
                and src.owner.kind != "you" and src.kind in ("hand", "score"):
            return "owner"
        return "you"

    def filter(self, f: A.Filter):
        pos = f.pos
        if f.kind in ("with", "without"):
            if self.lookup(f.icon) is not None:   # an icon chosen at run time
                cond = A.Call("has", [A.Pronoun("it", pos=pos), A.Name(f.icon, pos=pos)], pos=pos)
                self.types[id(cond)] = "bool"
                self.where_loop(A.Not(cond, pos=pos) if f.kind == "without" else cond, "cards", pos)
                return
            self.emit(O.FILTER_ICON, self.c.const(f.icon), int(f.kind == "without"), pos=pos)
        elif f.kind in ("color", "noncolor"):
            self.colors(f.color)
            self.emit(O.FILTER_COLOR, int(f.kind == "noncolor"), pos=pos)
        elif f.kind == "value":
            self.expr(f.value)
            self.emit(O.FILTER_VALUE, E("cmp", f.cmp), pos=pos)
        elif f.kind == "values":
            for v in f.values:
                self.expr(v)
            self.emit(O.CALL, self.c.const("values"), len(f.values), pos=pos)
            self.emit(O.FILTER_VALUES, pos=pos)
        elif f.kind in ("color_on", "color_not_on"):
            self.zone(f.zone)
            self.emit(O.CALL, self.c.const("colors"), 1, pos=pos)
            self.emit(O.FILTER_COLOR, int(f.kind == "color_not_on"), pos=pos)
        elif f.kind == "not_named":
            self.emit(O.FILTER_NAME, self.c.const(f.name), pos=pos)
        elif f.kind == "named":      # the cards less those other than it: the named card, if among them
            self.emit(O.DUP, pos=pos)
            self.emit(O.FILTER_NAME, self.c.const(f.name), pos=pos)
            self.emit(O.BINARY, E("binop", "difference"), pos=pos)
        elif f.kind == "not_this":
            self.emit(O.CALL, self.c.const("this_card"), 0, pos=pos)
            self.emit(O.BINARY, E("binop", "difference"), pos=pos)
        elif f.kind == "where":
            self.where_loop(f.cond, "cards", pos)

    def where_loop(self, cond, elem_type: str, pos: Pos, name: str | None = None):
        """The collection is on the stack; replace it with the items satisfying cond."""
        lst, idx, res = self.temp("list"), self.temp("i"), self.temp("kept")
        item = self.temp("it")
        self.scopes.append({name: item} if name else {})
        self.emit(O.STORE, lst, pos=pos)
        self.emit(O.LIST_NEW, pos=pos)
        self.emit(O.STORE, res, pos=pos)
        self.const(0, pos)
        self.emit(O.STORE, idx, pos=pos)
        top = self.c.here()
        fn = self.emit(O.FOR_NEXT, lst, idx, item, int(elem_type == "cards"), 0, pos=pos)
        is_player = elem_type == "players"
        (self.them_slot if is_player else self.it_slot).append(item)
        self.expr(cond)
        (self.them_slot if is_player else self.it_slot).pop()
        self.emit(O.JUMP_IF_FALSE, top, pos=pos)
        self.emit(O.LOAD, item, pos=pos)
        self.emit(O.APPEND, res, pos=pos)
        self.emit(O.JUMP, top, pos=pos)
        self.c.patch(fn, self.c.here())
        self.emit(O.LOAD, res, pos=pos)
        self.scopes.pop()

    # ------------------------------------------------------------ zones
    def owner(self, owner: A.Owner, pos: Pos):
        k = owner.kind
        if k in ("you", "me"):
            self.emit(O.PLAYER, E("who", k), pos=pos)
        elif k == "them":
            self.emit(O.LOAD, self.them_slot[-1] if self.them_slot else 0, pos=pos)
        elif k == "binding":
            self.emit(O.LOAD, self.lookup(owner.name), pos=pos)
        elif k in ("opponents", "any_opponent"):
            self.emit(O.PLAYERS, E("players", "opponents"), pos=pos)
        elif k == "others":
            self.emit(O.PLAYERS, E("players", "others"), pos=pos)
        else:
            self.emit(O.PLAYERS, E("players", "all"), pos=pos)

    def zone(self, z: A.Zone):
        if z.owner is not None and z.kind == "set":
            self.owner(z.owner, z.pos)
            self.emit(O.ZONE_SET, self.c.const(z.name), pos=z.pos)
        elif z.owner is not None:
            self.owner(z.owner, z.pos)
            self.emit(O.ZONE, E("zone", z.kind), pos=z.pos)
        elif z.kind == "shared":
            self.emit(O.ZONE_SHARED, self.c.const(z.name), pos=z.pos)
        elif z.kind == "deck":
            self.expr(z.age)
            if z.name is None:
                self.emit(O.DECK, pos=z.pos)
            else:
                self.emit(O.DECK_SET, self.c.const(z.name), pos=z.pos)
        elif z.kind == "available_all":   # "an available achievement": standard ones and special ones together
            self.emit(O.ZONE_GLOBAL, E("global_zone", "available"), pos=z.pos)
            self.emit(O.ZONE_GLOBAL, E("global_zone", "available_special"), pos=z.pos)
            self.emit(O.BINARY, E("binop", "union"), pos=z.pos)
        else:
            self.emit(O.ZONE_GLOBAL, E("global_zone", z.kind), pos=z.pos)

    # ------------------------------------------------------------ expressions
    def colors(self, e):
        self.expr(e)

    def expr(self, e):
        getattr(self, "e_" + type(e).__name__)(e)

    def e_Int(self, e):
        self.const(e.value, e.pos)

    def e_Str(self, e):
        self.const(e.value, e.pos)

    def e_Name(self, e):
        slot = self.lookup(e.name)
        if slot is not None:
            self.emit(O.LOAD, slot, pos=e.pos)
        else:  # a colour or icon constant
            self.const(e.name, e.pos)

    def e_Call(self, e: A.Call):
        for a in e.args:
            if isinstance(a, A.Name) and self.typ(a) in ("icon", "cell") and self.lookup(a.name) is None:
                self.const(a.name, a.pos)
            else:
                self.expr(a)
        self.emit(O.CALL, self.c.const(e.fn), len(e.args), pos=e.pos)

    def e_BinOp(self, e: A.BinOp):
        if e.op in ("and", "or") and self.typ(e) == "bool":
            self.expr(e.left)
            self.emit(O.DUP, pos=e.pos)
            j = self.emit(O.JUMP_IF_FALSE if e.op == "and" else O.JUMP_IF_TRUE, 0, pos=e.pos)
            self.emit(O.POP, pos=e.pos)
            self.expr(e.right)
            self.c.patch(j, self.c.here())
            return
        self.expr(e.left)
        self.expr(e.right)
        if e.op == "or":
            op = "union"
        elif e.op == "-" and self.typ(e) != "int":
            op = "difference"
        else:
            op = e.op
        self.emit(O.BINARY, E("binop", op), pos=e.pos)

    def e_Compare(self, e: A.Compare):
        self.expr(e.left)
        self.expr(e.right)
        self.emit(O.COMPARE, E("cmp", e.op), pos=e.pos)

    def e_Not(self, e):
        self.expr(e.operand)
        self.emit(O.NOT, pos=e.pos)

    def e_Neg(self, e):
        self.expr(e.operand)
        self.emit(O.NEG, pos=e.pos)

    def e_HasIcon(self, e: A.HasIcon):
        self.expr(e.subject)
        slot = self.lookup(e.icon)
        if slot is not None:   # an icon chosen at run time
            self.emit(O.LOAD, slot, pos=e.pos)
            self.emit(O.CALL, self.c.const("has"), 2, pos=e.pos)
            return
        self.emit(O.HAS_ICON, self.c.const(e.icon), pos=e.pos)

    def e_Is(self, e: A.Is):
        self.expr(e.subject)
        self.expr(e.what)
        self.emit(O.IS_COLOR, pos=e.pos)

    def e_In(self, e: A.In):
        self.expr(e.item)
        self.expr(e.collection)
        self.emit(O.IN, pos=e.pos)
        if e.negate:
            self.emit(O.NOT, pos=e.pos)

    def e_Where(self, e: A.Where):
        self.expr(e.base)
        self.where_loop(e.cond, self.typ(e.base), e.pos, e.name)

    def e_WithIcon(self, e: A.WithIcon):
        self.expr(e.base)
        self.emit(O.FILTER_ICON, self.c.const(e.icon), int(e.negate), pos=e.pos)

    def e_Pronoun(self, e: A.Pronoun):
        if e.who in ("you", "me"):
            self.emit(O.PLAYER, E("who", e.who), pos=e.pos)
        elif e.who == "them":
            self.emit(O.LOAD, self.them_slot[-1], pos=e.pos)
        else:
            self.emit(O.LOAD, self.it_slot[-1], pos=e.pos)

    def e_AnyColor(self, e):
        self.emit(O.CALL, self.c.const("all_colors"), 0, pos=e.pos)

    def e_ActionVar(self, e):
        self.emit(O.LOAD_ACTION, self.c.const(e.name), pos=e.pos)

    def e_OwnVar(self, e: A.OwnVar):
        self.emit(O.LOAD_OWN, self.c.const(e.name), E("who", e.who), int(self.typ(e) == "cards"), pos=e.pos)

    def e_PlayerSet(self, e):
        self.emit(O.PLAYERS, E("players", e.kind), pos=e.pos)

    def e_Quantified(self, e: A.Quantified):
        self.e_PlayerSet(e.players)
        self.where_loop(e.cond, "players", e.pos)
        self.emit(O.CALL, self.c.const("count"), 1, pos=e.pos)
        if e.kind == "all":
            self.e_PlayerSet(e.players)
            self.emit(O.CALL, self.c.const("count"), 1, pos=e.pos)
            self.emit(O.COMPARE, E("cmp", "=="), pos=e.pos)
        else:
            self.const(0, e.pos)
            self.emit(O.COMPARE, E("cmp", ">" if e.kind == "any" else "=="), pos=e.pos)

    def e_SinglePlayer(self, e: A.SinglePlayer):
        lst, idx, scores, them = self.temp("players"), self.temp("i"), self.temp("scores"), self.temp("them")
        self.emit(O.PLAYERS, E("players", "all"), pos=e.pos)
        self.emit(O.STORE, lst, pos=e.pos)
        self.emit(O.LIST_NEW, pos=e.pos)
        self.emit(O.STORE, scores, pos=e.pos)
        self.const(0, e.pos)
        self.emit(O.STORE, idx, pos=e.pos)
        top = self.c.here()
        fn = self.emit(O.FOR_NEXT, lst, idx, them, 0, 0, pos=e.pos)
        self.them_slot.append(them)
        self.expr(e.measure)
        self.them_slot.pop()
        self.emit(O.APPEND, scores, pos=e.pos)
        self.emit(O.JUMP, top, pos=e.pos)
        self.c.patch(fn, self.c.here())
        self.emit(O.LOAD, lst, pos=e.pos)
        self.emit(O.LOAD, scores, pos=e.pos)
        extreme = "most" if e.extreme in ("most", "highest") else "least"
        self.emit(O.PICK_SINGLE, E("extreme", extreme), pos=e.pos)

    def e_Beneath(self, e: A.Beneath):
        self.expr(e.card)
        self.emit(O.CALL, self.c.const("all_beneath" if e.all else "beneath"), 1, pos=e.pos)

    def e_PileEnd(self, e: A.PileEnd):
        self.owner(e.owner, e.owner.pos)
        self.expr(e.color)
        self.emit(O.CALL, self.c.const("pile"), 2, pos=e.pos)
        self.expr(e.n)
        fn = {"top": "first", "bottom": "last", "all_but_top": "below"}[e.kind]
        self.emit(O.CALL, self.c.const(fn), 2, pos=e.pos)

    def e_DirectlyUnder(self, e: A.DirectlyUnder):
        self.expr(e.subject)
        self.emit(O.CALL, self.c.const("above"), 1, pos=e.pos)
        if e.value is not None:        # some card right above is of that value
            self.expr(e.value)
            self.emit(O.FILTER_VALUE, E("cmp", "=="), pos=e.pos)
            self.emit(O.CALL, self.c.const("count"), 1, pos=e.pos)
            self.const(0, e.pos)
            self.emit(O.COMPARE, E("cmp", ">"), pos=e.pos)
        else:                          # the card right above is one of those cards
            self.expr(e.cards)
            self.emit(O.IN, pos=e.pos)

    def e_ZoneExpr(self, e: A.ZoneExpr):
        self.zone(e.zone)


def _all_or_none(sel: A.Selection) -> bool:
    return sel.quantity is not None and sel.quantity.kind == "all_or_none"


def _end(pos: Pos) -> Pos:
    return Pos(pos.end_line or pos.line, max(pos.end_column - 1, 1) if pos.end_column else pos.column)
