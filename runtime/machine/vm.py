"""The InnoScript virtual machine.

How it works
------------
A card effect is a *chunk* of verified bytecode (see innoscript/core/opcodes.py
for the instruction set).  The engine runs one effect for one player at a
time as a *frame*, a JSON object:

    {"card": id, "effect": i, "kind": "demand"|"non_demand"|..., "pc": 0,
     "stack": [], "locals": [...], "you": p, "me": q, "did": false, ...}

``you`` is the player performing the effect; ``me`` the player who took the
dogma action (the demander inside a demand).  Values on the operand stack are
JSON values: numbers, booleans, strings (colours, icons, card names), null,
and lists (card sets are lists of card ids, players are seat numbers).

The machine is resumable without Python generators.  An instruction that
needs a player's decision (SELECT, CHOOSE, ASK, CHOOSE_OPTION, SPLAY with a
choice, REARRANGE) first computes its options from the state, then asks the
engine.  If the frame carries no answer yet, the engine records the pending
decision and the VM stops *before* the instruction has changed anything, pc
unchanged.  When the answer arrives it is stored in the frame and the same
instruction runs again, now consuming the answer.  Because instructions do
not change the state before they ask, re-running them is safe, and the whole
game -- frames, stacks and all -- can be saved at any decision and resumed in
another process.

``run_vm`` returns why it stopped: "done" (RETURN), "execute" (EXECUTE pushed
other effects to run first; this frame resumes after them), "end_dogma", or
raises ``NeedDecision``/``GameOver`` (runtime/machine/faults.py).  A step
budget turns a runaway effect into a ``RuntimeFault`` naming the card and
source line.  Callers run a frame with ``tier.run``, which hands a fresh frame
to the compiled tier when the engine selects it (runtime/machine/tier.py) and
any other to this interpreter.

The VM changes nothing by itself: it runs against a *host*, the engine
(runtime/rules/engine.py), whose methods make the moves, draws and decisions
of the rules, and answer the questions whose answers a set may change
(``points``: the score).  An expression evaluated outside any action has a
smaller host (runtime/machine/expressions.py) that makes no moves.

The dispatch loop is one function with an if/elif chain on local opcode
numbers, most frequent first; the rarer instructions call helpers.
"""
from __future__ import annotations

from innoscript.core import opcodes as O
from ..state import teams
from ..state.board import board_cards, pile_ends, pile_icons, top_cards, values
from . import builtins as builtins_impl
from .faults import BudgetExhausted, GameOver, NeedDecision, OutOfRange, RuntimeFault, fault, python_fault
from .frames import chunk_of

MAX_NUMBER = 10 ** 6      # numbers beyond this are a card's fault, not a game position

ENUM = O.ENUMS
_CMP = {
    0: lambda a, b: a == b, 1: lambda a, b: a != b, 2: lambda a, b: a < b,
    3: lambda a, b: a <= b, 4: lambda a, b: a > b, 5: lambda a, b: a >= b,
}
ALL = -1


def _as_list(v):
    if v is None:
        return []
    return v if isinstance(v, list) else [v]


def _unique(xs):
    seen, out = set(), []
    for x in xs:
        if x not in seen:
            seen.add(x)
            out.append(x)
    return out


def run_vm(engine, frame: dict) -> str:
    """The reference interpreter."""
    cards = engine.cards
    state = engine.state
    chunk = chunk_of(cards, frame)
    code = chunk["code"]
    consts = chunk["consts"]
    stack = frame["stack"]
    loc = frame["locals"]
    pc = frame["pc"]
    budget = engine.budget
    trace = engine.trace          # None unless coverage is being measured
    where = (frame["card"], frame.get("effect", -1))
    # an effect's or a hook's frame stops for a move's event hooks (runtime/rules/hooks.py, follow_move); a
    # condition, run inside a move's checks, never does
    yields = frame["kind"] != "condition"
    if yields and getattr(engine, "events_due", False):
        engine.events_due = False      # a move's event hooks first (a compiled frame handed over after its move)
        return "execute"
    CONST, LOAD, STORE, JUMP, JUMP_IF_FALSE, POP = O.CONST, O.LOAD, O.STORE, O.JUMP, O.JUMP_IF_FALSE, O.POP
    FOR_NEXT, COMPARE, CALL, PLAYER, ZONE = O.FOR_NEXT, O.COMPARE, O.CALL, O.PLAYER, O.ZONE
    try:
        while True:
            budget -= 1
            if budget <= 0:
                raise fault(cards, frame, chunk, pc, "step budget exhausted: a runaway effect was stopped",
                             BudgetExhausted)
            ins = code[pc]
            op = ins[0]
            if trace is not None:
                trace.add((*where, pc))
            if op == CONST:
                stack.append(consts[ins[1]])
                pc += 1
            elif op == LOAD:
                stack.append(loc[ins[1]])
                pc += 1
            elif op == STORE:
                loc[ins[1]] = stack.pop()
                pc += 1
            elif op == JUMP:
                pc = ins[1]
            elif op == JUMP_IF_FALSE:
                new = pc + 1 if stack.pop() else ins[1]
                if trace is not None:
                    trace.add((*where, pc, new))
                pc = new
            elif op == POP:
                stack.pop()
                pc += 1
            elif op == FOR_NEXT:
                lst, i = loc[ins[1]] or [], loc[ins[2]]
                if i < len(lst):
                    loc[ins[3]] = [lst[i]] if ins[4] else lst[i]
                    loc[ins[2]] = i + 1
                    new = pc + 1
                else:
                    new = ins[5]
                if trace is not None:
                    trace.add((*where, pc, new))
                pc = new
            elif op == COMPARE:
                b = stack.pop()
                a = stack.pop()
                stack.append(_CMP[ins[1]](_num(a), _num(b)) if ins[1] > 1 else _CMP[ins[1]](a, b))
                pc += 1
            elif op == CALL:
                n = ins[2]
                args = stack[len(stack) - n:] if n else []
                if n:
                    del stack[len(stack) - n:]
                stack.append(builtins_impl.call(engine, frame, consts[ins[1]], args))
                pc += 1
            elif op == PLAYER:
                stack.append(frame["you"] if ins[1] == 0 else frame["me"])
                pc += 1
            elif op == ZONE:
                stack.append(_zone(engine, stack.pop(), ENUM["zone"][ins[1]]))
                pc += 1
            elif op == O.RETURN:
                frame["pc"] = pc
                return "done"
            else:
                frame["pc"] = pc
                old = pc
                pc = _slow_op(engine, frame, chunk, ins, op, pc)
                if isinstance(pc, str):
                    return pc
                if yields and getattr(engine, "events_due", False):   # a move's event hooks now, the frame after
                    engine.events_due = False
                    frame["pc"] = pc
                    return "execute"
                if trace is not None and op == O.JUMP_IF_TRUE:
                    trace.add((*where, old, pc))
    except NeedDecision:
        frame["pc"] = pc
        raise
    except GameOver:
        frame["pc"] = pc
        raise
    except RuntimeFault:
        raise
    except (TypeError, IndexError, KeyError, ValueError, AttributeError, ZeroDivisionError) as err:
        raise python_fault(cards, frame, chunk, pc, err) from None
    finally:
        engine.budget = budget


def _bounded(n):
    if isinstance(n, int) and not -MAX_NUMBER <= n <= MAX_NUMBER:
        raise OutOfRange(f"number out of range: a result beyond {MAX_NUMBER:,} in either direction")
    return n


def _num(v):
    if v is None:
        return 0
    if isinstance(v, bool):
        return int(v)
    return v


def _player_zone(state: dict, p: int, kind: str) -> list:
    """A new list of one player's cards in a zone."""
    pl = state["players"][p]
    if kind == "board":
        return board_cards(state, p)
    if kind == "top":
        return top_cards(state, p)
    if kind == "achievements":
        return [a for a in pl["achievements"] if isinstance(a, int)]
    if kind in ("hand", "score", "revealed"):
        return list(pl[kind])
    return []


def _zone(engine, who, kind: str) -> list:
    state = engine.state
    if who.__class__ is int:     # one player, the common case
        return _player_zone(state, who, kind)
    out: list = []
    for p in _as_list(who):
        if p is not None:
            out += _player_zone(state, p, kind)
    return out


def _own_key(frame, name: str, player: int) -> str:
    """A performer's own record ('record your NAME'): one per card and player in the execution's record."""
    return f"{frame['card']}/{name}/{player}"


def _slow_op(engine, frame, chunk, ins, op, pc):
    """The less frequent instructions, one function each (SLOW): the next pc, or a stop reason string.
    The compiled tier calls the functions themselves."""
    fn = SLOW.get(op)
    if fn is None:
        raise fault(engine.cards, frame, chunk, pc, f"opcode {O.OPCODES[op].name} is not implemented by this VM")
    r = fn(engine, frame, chunk, ins, pc)
    return pc + 1 if r is None else r


# Each returns None to go on at the next instruction, or the next pc, or a stop reason string.
def _op_dup(engine, frame, chunk, ins, pc):
    stack = frame["stack"]
    stack.append(stack[-1])


def _op_jump_if_true(engine, frame, chunk, ins, pc):
    stack = frame["stack"]
    return pc + 1 if not stack.pop() else ins[1]


def _op_load_action(engine, frame, chunk, ins, pc):
    stack = frame["stack"]
    consts = chunk["consts"]
    stack.append(engine.action_vars(frame).get(consts[ins[1]], 0))


def _op_store_action(engine, frame, chunk, ins, pc):
    stack = frame["stack"]
    consts = chunk["consts"]
    engine.action_vars(frame)[consts[ins[1]]] = stack.pop()


def _op_store_own(engine, frame, chunk, ins, pc):
    stack = frame["stack"]
    consts = chunk["consts"]
    engine.action_vars(frame)[_own_key(frame, consts[ins[1]], frame["you"])] = stack.pop()


def _op_load_own(engine, frame, chunk, ins, pc):
    stack = frame["stack"]
    consts = chunk["consts"]
    who = frame["you"] if ins[2] == 0 else frame["me"]
    stack.append(engine.action_vars(frame).get(_own_key(frame, consts[ins[1]], who), [] if ins[3] else 0))


def _op_binary(engine, frame, chunk, ins, pc):
    stack = frame["stack"]
    b = stack.pop()
    stack[-1] = BINARY[ins[1]](stack[-1], b)


def _difference(a, b):
    bs = set(_as_list(b))
    return [x for x in _as_list(a) if x not in bs]


_BINOPS = {
    "+": lambda a, b: _bounded(_num(a) + _num(b)),
    "-": lambda a, b: _bounded(_num(a) - _num(b)),
    "*": lambda a, b: _bounded(_num(a) * _num(b)),
    "//": lambda a, b: _num(a) // _num(b) if _num(b) else 0,
    "union": lambda a, b: _unique(_as_list(a) + _as_list(b)),
    "difference": _difference,
}
# BINARY's operations by its operand, in the opcode table's order (the compiled tier calls them too)
BINARY = [_BINOPS[name] for name in ENUM["binop"]]


def _op_not(engine, frame, chunk, ins, pc):
    stack = frame["stack"]
    stack.append(not stack.pop())


def _op_neg(engine, frame, chunk, ins, pc):
    stack = frame["stack"]
    stack.append(_bounded(-_num(stack.pop())))


def _op_in(engine, frame, chunk, ins, pc):
    cards = engine.cards
    stack = frame["stack"]
    coll = _as_list(stack.pop())
    item = stack.pop()
    if isinstance(item, str) and coll and isinstance(coll[0], int) and item not in cards.colors:
        stack.append(any(cards.name[c] == item for c in coll))
    elif isinstance(item, list):
        stack.append(bool(item) and all(x in coll for x in item))
    else:
        stack.append(item in coll)


def _op_has_icon(engine, frame, chunk, ins, pc):
    cards = engine.cards
    stack = frame["stack"]
    consts = chunk["consts"]
    icon = consts[ins[1]]
    stack.append(any(icon in cards.printed[c] for c in _as_list(stack.pop())))


def _op_is_color(engine, frame, chunk, ins, pc):
    cards = engine.cards
    stack = frame["stack"]
    colors = set(_as_list(stack.pop()))
    cs = _as_list(stack.pop())
    stack.append(bool(cs) and all(cards.color[c] in colors for c in cs))


def _op_players(engine, frame, chunk, ins, pc):
    state = engine.state
    stack = frame["stack"]
    stack.append(teams.player_set(state, frame["you"], ENUM["players"][ins[1]]))


def _op_zone_global(engine, frame, chunk, ins, pc):
    state = engine.state
    stack = frame["stack"]
    kind = ENUM["global_zone"][ins[1]]
    if kind == "junk":
        stack.append(list(state["junk"]))
    elif kind == "available":
        stack.append(list(state["available"]["standard"]))
    elif kind == "revealed_all":
        stack.append([c for pl in state["players"] for c in pl["revealed"]])
    elif kind == "available_special":
        stack.append(list(state["available"]["special"]))
    else:  # junk_special
        stack.append(list(state["junk_special"]))


def _op_deck(engine, frame, chunk, ins, pc):
    state = engine.state
    stack = frame["stack"]
    stack.append(list(state["supply"].get(str(stack.pop()), [])))


def _op_deck_set(engine, frame, chunk, ins, pc):
    state = engine.state
    stack = frame["stack"]
    name, age = chunk["consts"][ins[1]], str(stack.pop())
    piles = state["supply"] if name == "base" else state.get("set_supply", {}).get(name, {})
    stack.append(list(piles.get(age, [])))


def _op_filter_pos(engine, frame, chunk, ins, pc):
    state = engine.state
    stack = frame["stack"]
    ends = pile_ends(state, 0 if ENUM["position"][ins[1]] == "top" else -1)
    out = []
    for c in stack.pop():
        if c in ends:
            out.append(c)
    stack.append(out)


def _op_filter_icon(engine, frame, chunk, ins, pc):
    cards = engine.cards
    state = engine.state
    stack = frame["stack"]
    consts = chunk["consts"]
    icon, negate = consts[ins[1]], bool(ins[2])
    items = _as_list(stack.pop())
    if items and isinstance(items[0], str):  # colours: piles of 'you' showing the icon
        board = state["players"][frame["you"]]["board"]
        stack.append([c for c in items if (pile_icons(cards, board[c]).get(icon, 0) > 0) != negate])
    else:
        stack.append([c for c in items if (icon in cards.printed[c]) != negate])


def _op_filter_color(engine, frame, chunk, ins, pc):
    cards = engine.cards
    stack = frame["stack"]
    colors = set(_as_list(stack.pop()))
    negate = bool(ins[1])
    stack.append([c for c in stack.pop() if (cards.color[c] in colors) != negate])


def _op_filter_value(engine, frame, chunk, ins, pc):
    cards = engine.cards
    stack = frame["stack"]
    v = _num(stack.pop())
    cmp = _CMP[ins[1]]
    age = cards.age if not cards.board_value else values(cards, engine.state, engine.icon_cache)
    stack.append([c for c in stack.pop() if cmp(age[c], v)])


def _op_filter_values(engine, frame, chunk, ins, pc):
    cards = engine.cards
    stack = frame["stack"]
    vs = set(_as_list(stack.pop()))
    age = cards.age if not cards.board_value else values(cards, engine.state, engine.icon_cache)
    stack.append([c for c in stack.pop() if age[c] in vs])


def _op_filter_name(engine, frame, chunk, ins, pc):
    cards = engine.cards
    stack = frame["stack"]
    consts = chunk["consts"]
    nm = consts[ins[1]]
    stack.append([c for c in stack.pop() if cards.name[c] != nm])


def _op_select(engine, frame, chunk, ins, pc):
    stack = frame["stack"]
    hi = stack[-1]
    lo = stack[-2]
    chosen = engine.select(frame, _unique(_as_list(stack[-3])), ENUM["select"][ins[1]], ENUM["order"][ins[2]],
                           ENUM["chooser"][ins[3]], bool(ins[4] & 1), _num(lo), _num(hi), bool(ins[4] & 2))
    del stack[-3:]
    stack.append(chosen)


def _op_move(engine, frame, chunk, ins, pc):
    stack = frame["stack"]
    moved = engine.move(frame, _as_list(stack[-1]), ENUM["verb"][ins[1]])   # may ask: pop after
    stack[-1] = moved


def _op_move_named(engine, frame, chunk, ins, pc):
    stack = frame["stack"]
    moved = engine.move(frame, _as_list(stack[-1]), chunk["consts"][ins[1]])   # a set's verb; may ask: pop after
    stack[-1] = moved


def _op_transfer(engine, frame, chunk, ins, pc):
    stack = frame["stack"]
    target = stack.pop()
    moved = engine.transfer(frame, _as_list(stack.pop()), target, ENUM["zone"][ins[1]])
    stack.append(moved)


def _drawn(engine, frame, then: str, from_set=None) -> None:
    """The draws: pop age, count; draw, do ``then`` to each card; push the cards drawn."""
    stack = frame["stack"]
    age = _num(stack[-1])
    count = _num(stack[-2])
    del stack[-2:]
    stack.append(engine.draw_effect(frame, count, age, then, from_set))


def _op_draw(engine, frame, chunk, ins, pc):
    _drawn(engine, frame, ENUM["draw"][ins[1]])


def _op_draw_named(engine, frame, chunk, ins, pc):
    consts = chunk["consts"]
    _drawn(engine, frame, consts[ins[1]], consts[ins[2]])


def _op_draw_set(engine, frame, chunk, ins, pc):
    _drawn(engine, frame, ENUM["draw"][ins[1]], chunk["consts"][ins[2]])


def _op_draw_from(engine, frame, chunk, ins, pc):
    from_set = frame["stack"].pop()     # a set's name bound at run time ('choose set as s', set(c))
    _drawn(engine, frame, ENUM["draw"][ins[1]], from_set if isinstance(from_set, str) else None)


def _op_zone_set(engine, frame, chunk, ins, pc):
    state = engine.state
    stack = frame["stack"]
    consts = chunk["consts"]
    name = consts[ins[1]]
    stack.append([c for p in _as_list(stack.pop()) if p is not None
                  for c in state["players"][p].get("zones", {}).get(name, [])])


def _op_transfer_set(engine, frame, chunk, ins, pc):
    stack = frame["stack"]
    consts = chunk["consts"]
    target = stack.pop()
    moved = engine.transfer(frame, _as_list(stack.pop()), target, consts[ins[1]])
    stack.append(moved)


def _op_zone_shared(engine, frame, chunk, ins, pc):
    """The cards of a set's game-wide zone (scope game), oldest first."""
    frame["stack"].append(list(engine.state.get("zones", {}).get(chunk["consts"][ins[1]], [])))


def _op_transfer_shared(engine, frame, chunk, ins, pc):
    stack = frame["stack"]
    moved = engine.transfer(frame, _as_list(stack.pop()), None, chunk["consts"][ins[1]])
    stack.append(moved)


def _op_exchange(engine, frame, chunk, ins, pc):
    stack = frame["stack"]
    pb, b, pa, a = stack[-1], _as_list(stack[-2]), stack[-3], _as_list(stack[-4])
    engine.exchange(frame, a, pa, ENUM["zone"][ins[1]], b, pb, ENUM["zone"][ins[2]], bool(ins[3]))
    del stack[-4:]


def _op_splay(engine, frame, chunk, ins, pc):
    stack = frame["stack"]
    engine.splay(frame, _as_list(stack[-1]), ENUM["direction"][ins[1]], bool(ins[2]))
    stack.pop()


def _op_splay_on(engine, frame, chunk, ins, pc):
    stack = frame["stack"]
    if stack[-1] is not None:    # none: no such player, nothing to splay
        engine.splay(frame, _as_list(stack[-2]), ENUM["direction"][ins[1]], bool(ins[2]), board_of=stack[-1])
    else:
        frame["did"] = False
    del stack[-2:]


def _op_unsplay(engine, frame, chunk, ins, pc):
    stack = frame["stack"]
    engine.splay(frame, _as_list(stack[-1]), "none", False)
    stack.pop()


def _op_rearrange(engine, frame, chunk, ins, pc):
    stack = frame["stack"]
    engine.rearrange(frame, stack[-1])
    stack.pop()


def _op_ask(engine, frame, chunk, ins, pc):
    stack = frame["stack"]
    ans = engine.ask_yes_no(frame)
    frame["did"] = ans
    stack.append(ans)


def _op_choose(engine, frame, chunk, ins, pc):
    stack = frame["stack"]
    options = stack[-1]
    chosen = engine.choose(frame, ENUM["choice"][ins[1]], ENUM["chooser"][ins[2]], _as_list(options))
    stack.pop()
    stack.append(chosen)


def _op_choose_option(engine, frame, chunk, ins, pc):
    stack = frame["stack"]
    stack.append(engine.choose_option(frame, ins[1]))


def _op_did(engine, frame, chunk, ins, pc):
    stack = frame["stack"]
    stack.append(bool(frame["did"]))


def _op_set_did(engine, frame, chunk, ins, pc):
    frame["did"] = bool(ins[1])


def _op_list_new(engine, frame, chunk, ins, pc):
    stack = frame["stack"]
    stack.append([])


def _op_append(engine, frame, chunk, ins, pc):
    stack = frame["stack"]
    loc = frame["locals"]
    v = stack.pop()
    if loc[ins[1]] is None:
        loc[ins[1]] = []
    if isinstance(v, list):
        loc[ins[1]].extend(v)
    else:
        loc[ins[1]].append(v)


def _op_pick_single(engine, frame, chunk, ins, pc):
    state = engine.state
    stack = frame["stack"]
    scores = [_num(s) for s in stack.pop()]
    players = stack.pop()
    stack.append(teams.single(state, players, scores, ENUM["extreme"][ins[1]], frame["you"]))


def _op_win(engine, frame, chunk, ins, pc):
    cards = engine.cards
    stack = frame["stack"]
    who = stack.pop()
    frame["pc"] = pc + 1
    if who is not None:
        engine.win([who], "effect", cards.name[frame["card"]] if frame["card"] >= 0 else None)


def _op_lose(engine, frame, chunk, ins, pc):
    cards = engine.cards
    state = engine.state
    stack = frame["stack"]
    who = stack.pop()
    frame["pc"] = pc + 1
    if who is not None:
        engine.lose(who, cards.name[frame["card"]] if frame["card"] >= 0 else None)
        if state["players"][frame["you"]].get("eliminated"):
            return "done"   # an eliminated player's effect stops here


def _op_claim(engine, frame, chunk, ins, pc):
    consts = chunk["consts"]
    frame["did"] = engine.claim_by_effect(frame, consts[ins[1]])


def _op_execute(engine, frame, chunk, ins, pc):
    stack = frame["stack"]
    target = _as_list(stack.pop())
    frame["pc"] = pc + 1
    if target:
        engine.execute(frame, target[0], ENUM["execute"][ins[1]])
        return "execute"
    return pc + 1


def _op_execute_with(engine, frame, chunk, ins, pc):
    stack = frame["stack"]
    decider = stack.pop()
    target = _as_list(stack.pop())
    frame["pc"] = pc + 1
    if ins[2] & 2 and (not isinstance(decider, int) or isinstance(decider, bool)
                       or not 0 <= decider < len(engine.state["players"])):
        decider = None          # nobody to decide (an unset binding): the performer decides
    if target:
        engine.execute(frame, target[0], ENUM["execute"][ins[1]], must=bool(ins[2] & 1),
                       decider=decider if ins[2] & 2 else None)
        return "execute"
    return pc + 1


def _op_flip(engine, frame, chunk, ins, pc):
    frame["stack"].append(engine.flip_coin(frame))


def _op_act(engine, frame, chunk, ins, pc):
    state = engine.state
    stack = frame["stack"]
    loc = frame["locals"]
    who = stack.pop()
    if not isinstance(who, int) or isinstance(who, bool) or not 0 <= who < len(state["players"]) \
            or state["players"][who].get("eliminated"):
        return ins[2]
    loc[ins[1]] = frame["you"]
    frame["you"] = who


def _op_act_end(engine, frame, chunk, ins, pc):
    loc = frame["locals"]
    frame["you"] = loc[ins[1]]


def _op_dogma(engine, frame, chunk, ins, pc):
    stack = frame["stack"]
    target = _as_list(stack.pop())
    frame["pc"] = pc + 1
    if target:
        engine.free_dogma(frame, target[0], chunk["consts"][ins[1]])
        return "execute"
    return pc + 1


def _op_dogma_with(engine, frame, chunk, ins, pc):
    stack = frame["stack"]
    cells = stack.pop()
    target = _as_list(stack.pop())
    frame["pc"] = pc + 1
    if target:
        flags = ins[2]
        # the cell effects run first: the pile's, none, or those of the cards given
        engine.free_dogma(frame, target[0], chunk["consts"][ins[1]], own_icons=bool(flags & 1),
                          cells="none" if flags & 2 else "given" if flags & 4 else "pile", cells_of=_as_list(cells),
                          twice=bool(flags & 8))
        return "execute"
    return pc + 1


def _op_repeat(engine, frame, chunk, ins, pc):
    frame["pc"] = ins[1]
    return ins[1]


def _op_look(engine, frame, chunk, ins, pc):
    engine.look(frame)


def _op_end_dogma(engine, frame, chunk, ins, pc):
    frame["pc"] = pc
    return "end_dogma"


def _op_result(engine, frame, chunk, ins, pc):
    stack = frame["stack"]
    frame["result"] = stack.pop()
    return "done"


SLOW = {
    O.DUP: _op_dup,
    O.JUMP_IF_TRUE: _op_jump_if_true,
    O.LOAD_ACTION: _op_load_action,
    O.STORE_ACTION: _op_store_action,
    O.STORE_OWN: _op_store_own,
    O.LOAD_OWN: _op_load_own,
    O.BINARY: _op_binary,
    O.NOT: _op_not,
    O.NEG: _op_neg,
    O.IN: _op_in,
    O.HAS_ICON: _op_has_icon,
    O.IS_COLOR: _op_is_color,
    O.PLAYERS: _op_players,
    O.ZONE_GLOBAL: _op_zone_global,
    O.DECK: _op_deck,
    O.DECK_SET: _op_deck_set,
    O.MOVE_NAMED: _op_move_named,
    O.DRAW_NAMED: _op_draw_named,
    O.FILTER_POS: _op_filter_pos,
    O.FILTER_ICON: _op_filter_icon,
    O.FILTER_COLOR: _op_filter_color,
    O.FILTER_VALUE: _op_filter_value,
    O.FILTER_VALUES: _op_filter_values,
    O.FILTER_NAME: _op_filter_name,
    O.SELECT: _op_select,
    O.MOVE: _op_move,
    O.TRANSFER: _op_transfer,
    O.DRAW: _op_draw,
    O.DRAW_SET: _op_draw_set,
    O.DRAW_FROM: _op_draw_from,
    O.ZONE_SET: _op_zone_set,
    O.TRANSFER_SET: _op_transfer_set,
    O.ZONE_SHARED: _op_zone_shared,
    O.TRANSFER_SHARED: _op_transfer_shared,
    O.EXCHANGE: _op_exchange,
    O.SPLAY: _op_splay,
    O.SPLAY_ON: _op_splay_on,
    O.UNSPLAY: _op_unsplay,
    O.REARRANGE: _op_rearrange,
    O.ASK: _op_ask,
    O.CHOOSE: _op_choose,
    O.CHOOSE_OPTION: _op_choose_option,
    O.DID: _op_did,
    O.SET_DID: _op_set_did,
    O.LIST_NEW: _op_list_new,
    O.APPEND: _op_append,
    O.PICK_SINGLE: _op_pick_single,
    O.WIN: _op_win,
    O.LOSE: _op_lose,
    O.CLAIM: _op_claim,
    O.EXECUTE: _op_execute,
    O.EXECUTE_WITH: _op_execute_with,
    O.FLIP: _op_flip,
    O.ACT: _op_act,
    O.ACT_END: _op_act_end,
    O.DOGMA: _op_dogma,
    O.DOGMA_WITH: _op_dogma_with,
    O.REPEAT: _op_repeat,
    O.LOOK: _op_look,
    O.END_DOGMA: _op_end_dogma,
    O.RESULT: _op_result,
}
