"""The compiled tier: verified bytecode translated into Python functions.

How it works
------------
The VM (runtime/machine/vm.py) is the reference.  This tier translates one chunk
at a time into the source of a Python function with the same contract as
``vm.run_vm(engine, frame)``, compiles it once, and caches it keyed by the
bundle's source hash and the chunk, as template engines do with templates.

The verifier guarantees that the operand stack has the same depth at a pc
on every path, so the stack lives in Python locals ``s0, s1, ...``; locals
stay in the frame's list.  The code is cut into basic blocks, run in pc
order under one ``while True`` (a jump forward falls through to its block,
a jump back continues the loop).  Each block charges its instruction count
to the step budget at once; when the budget would run out inside a block,
the VM takes over at the block's start and stops at the same instruction
it would have stopped at.

Instructions that always ask a player (CHOOSE, ASK, ...) or change the
dogma's course (EXECUTE, WIN, LOSE, END_DOGMA) are not translated: the
function writes its pc and stack into the frame and hands over to the VM,
which runs the rest of the frame, so a frame saved at a decision is the
VM's frame and resumes anywhere.  Those that ask only sometimes (SELECT,
SPLAY, MOVE: most often there is nothing to choose) run the VM's own
implementation and end their block; when one does ask, the function writes
its pc and the whole stack into the frame before the ``NeedDecision``
leaves, which is the frame the VM would have left there (the budget too:
the block's charge ends with that instruction).  The other rare instructions call the VM's
own implementation (``vm.SLOW``, a function per instruction) on the frame's stack, so both tiers
share one definition of each instruction.  Only fresh frames (pc 0, no
answer) enter this tier; coverage tracing always uses the VM.  A chunk is
translated only once it is hot (``HOT`` fresh frames run on the VM in the
process), so a short run does not pay for translating what it barely uses.
Compiled translations are kept in the cache folder, one file per generated
source (as Python keeps ``__pycache__``): a later process loads a chunk's
code at its first run instead of compiling it again (docs/vm.md).

``run(engine, frame)`` is how the rules run a frame: on this tier when it
can, else on the VM.  ``engine.tier`` selects the tier ("compiled" or "vm");
its default comes from the environment variable INNOSCRIPT_TIER (compiled
unless set to vm).
"""
from __future__ import annotations

import hashlib
import importlib.util
import marshal
import os
import types

from innoscript.core import opcodes as O
from innoscript.core.cache import cache_dir
from . import builtins as builtins_impl, vm
from .frames import chunk_of

TIERS = ("compiled", "vm")

# Handed to the VM: they may ask a player, or they end or redirect the frame.
_HANDOVER = {O.UNSPLAY, O.REARRANGE, O.ASK, O.CHOOSE, O.CHOOSE_OPTION, O.EXCHANGE,
             O.WIN, O.LOSE, O.EXECUTE, O.EXECUTE_WITH, O.DOGMA, O.DOGMA_WITH, O.END_DOGMA,
             O.ACT, O.ACT_END}                                  # ACT: another player is 'you' for a while
# They may ask (MOVE: the owner may order cards onto one pile); most often they do not. Each ends its block.
_MAY_ASK = {O.SELECT, O.SPLAY, O.MOVE, O.MOVE_NAMED}
_INLINE = {O.CONST, O.POP, O.DUP, O.LOAD, O.STORE, O.JUMP, O.JUMP_IF_FALSE, O.JUMP_IF_TRUE, O.COMPARE,
           O.NOT, O.CALL, O.PLAYER, O.ZONE, O.FOR_NEXT, O.RETURN, O.RESULT, O.REPEAT, O.LIST_NEW, O.APPEND,
           O.BINARY}
_CMP_OPS = {2: "<", 3: "<=", 4: ">", 5: ">="}

_cache: dict = {}      # (bundle source hash, chunk key) -> (code, consts, function)
_runs: dict = {}       # (bundle source hash, chunk key) -> fresh frames run on the VM so far

# A chunk is translated once fresh frames of it have run this many times in the process (on the VM
# until then), as a tiered JIT waits for code to be hot: translating costs about as much as a few
# dozen runs save, and most chunks of a game run only a few times. 0: translate at the first run.
HOT = 16
# Compiled translations are kept on disk between processes (runtime cache folder); INNOSCRIPT_TIER_CACHE=0: not.
DISK = os.environ.get("INNOSCRIPT_TIER_CACHE", "on").strip().lower() not in ("0", "off", "no", "false")


def default_tier() -> str:
    t = os.environ.get("INNOSCRIPT_TIER", "compiled").strip().lower()
    return t if t in TIERS else "compiled"


# ---------------------------------------------------------------- translation

def _depths(code) -> dict[int, int]:
    """Stack depth before each reachable instruction (the chunk is verified)."""
    at = {0: 0}
    work = [0]
    while work:
        pc = work.pop()
        info = O.OPCODES[code[pc][0]]
        pops, pushes = O.stack_effect(info, code[pc][1:])
        after = at[pc] - pops + pushes
        for nxt in O.successors(info, code[pc], pc):
            if nxt not in at:
                at[nxt] = after
                work.append(nxt)
    return at


def translate(chunk: dict, name: str = "chunk") -> str:
    """The Python source of a function ``run(engine, frame)`` equivalent to the VM on this chunk."""
    code, consts = chunk["code"], chunk["consts"]
    depth = _depths(code)
    leaders = {0}
    for pc, ins in enumerate(code):
        if pc not in depth:
            continue
        info = O.OPCODES[ins[0]]
        if info.jumps:
            leaders.add(O.jump_target(info, ins))
        if info.jumps or info.terminal or ins[0] in _HANDOVER or ins[0] in _MAY_ASK:
            leaders.add(pc + 1)
        if ins[0] in _HANDOVER or (ins[0] not in _INLINE and ins[0] not in _EMULATED and ins[0] not in _MAY_ASK):
            leaders.add(pc)
    leaders = sorted(p for p in leaders if p in depth)
    nstack = max([d for d in depth.values()] + [chunk.get("max_stack", 0), 1]) + 1
    svars = [f"s{i}" for i in range(nstack)]
    # a chunk that moves no card and reads piles: 'you's pile summaries are fetched once for the run
    pure = all(ins[0] in _PURE for pc, ins in enumerate(code) if pc in depth) and \
        any(_pile_read(code, consts, pc) for pc in depth)
    # a pure chunk of inline instructions alone keeps its locals in Python variables: nothing else reads the frame's
    nlocals = len(chunk.get("locals", ())) if all(code[pc][0] in _INLINE for pc in depth) else None
    out = [f"def run(engine, frame):  # {name}",
           "    loc = frame['locals']",
           "    _st = frame['stack']",
           "    budget = engine.budget",
           f"    {' = '.join(svars)} = None",
           "    pc = blk = 0",
           "    hand = -1"]
    if nlocals:
        out.append(f"    {' = '.join(f'l{k}' for k in range(nlocals))} = None   # a fresh frame's")
    if pure:   # 'you's pile summaries are read once, at the first pile read
        out += ["    _you, _ys = frame['you'], None", "    _hex, _noti = engine.cards.hex, engine.cards.not_icons"]
    out += ["    try:",
            "        while True:"]
    starts = set(leaders)
    for start in leaders:
        end = start + 1   # a block ends at the next leader or after a jump or a terminal instruction
        while end < len(code) and end not in starts and not _ends(code[end - 1]):
            end += 1
        body = _block(code, consts, depth, start, end, pure, nlocals)
        out.append(f"            if blk == {start}:")
        out += ["                " + line for line in body]
    back = ["        " + x for x in _write_back(nlocals)]
    out += ["    except vm.NeedDecision:   # an instruction of _MAY_ASK asks: the VM's frame at that pc",
            "        frame['pc'] = pc",
            f"        _st[:] = ({', '.join(svars)},)[:DEPTH[pc]]",
            "        engine.budget = budget",
            "        raise",
            "    except vm.GameOver:",
            "        frame['pc'] = pc",
            "        engine.budget = budget",
            "        raise",
            "    except vm.RuntimeFault:",
            "        engine.budget = budget",
            *back,
            "        raise",
            "    except (TypeError, IndexError, KeyError, ValueError, AttributeError, ZeroDivisionError) as err:",
            "        engine.budget = budget",
            *back,
            "        raise vm.python_fault(engine.cards, frame, CHUNK, pc, err) from None",
            "    # the VM takes over at pc 'hand' with the stack (and the locals) as they are there",
            *["    " + x for x in _write_back(nlocals)],
            "    frame['pc'] = hand",
            f"    _st[:] = ({', '.join(svars)},)[:DEPTH[hand]]",
            "    engine.budget = budget",
            "    return vm.run_vm(engine, frame)"]
    return "\n".join(out) + "\n"


_EMULATED = {O.NEG, O.IN, O.HAS_ICON, O.IS_COLOR, O.PLAYERS, O.ZONE_GLOBAL, O.DECK, O.FILTER_POS,
             O.FILTER_ICON, O.FILTER_COLOR, O.FILTER_VALUE, O.FILTER_VALUES, O.FILTER_NAME, O.TRANSFER,
             O.DRAW, O.DID, O.SET_DID, O.PICK_SINGLE, O.CLAIM, O.LOAD_ACTION,
             O.STORE_ACTION, O.DRAW_SET, O.ZONE_SET, O.TRANSFER_SET, O.DECK_SET, O.DRAW_NAMED,
             O.ZONE_SHARED, O.TRANSFER_SHARED, O.DRAW_FROM}


# the instructions that may move a card by a verb an event hook follows (runtime/rules/hooks.py, follow_move)
_MOVING = {O.TRANSFER, O.DRAW, O.DRAW_SET, O.TRANSFER_SET, O.DRAW_NAMED, O.TRANSFER_SHARED, O.DRAW_FROM, O.SPLAY,
           O.MOVE, O.MOVE_NAMED}


def _write_back(nlocals) -> list[str]:
    """The lines that put the Python variables of the locals back into the frame (none: they live there)."""
    if not nlocals:
        return []
    return [f"loc[:] = [{', '.join(f'l{k}' for k in range(nlocals))}]"]


def _ends(ins) -> bool:
    info = O.OPCODES[ins[0]]
    return info.jumps or info.terminal


def _goto(targets: list[int], here: int, expr: str) -> list[str]:
    lines = [f"blk = {expr}"]
    if any(t <= here for t in targets):
        lines.append("continue")
    return lines


def _block(code, consts, depth, start, end, pure=False, nlocals=None) -> list[str]:
    """One basic block's lines. ``pure``: the chunk moves no card; ``nlocals``: its locals live in Python
    variables l0, l1, ... (written back to the frame whenever the function leaves)."""
    def L(k):
        return f"loc[{k}]" if nlocals is None else f"l{k}"

    ins0 = code[start]
    if ins0[0] in _HANDOVER or (ins0[0] not in _INLINE and ins0[0] not in _EMULATED and ins0[0] not in _MAY_ASK):
        return [f"hand = {start}", "break"]
    n = end - start
    lines = [f"if budget <= {n}:", f"    hand = {start}", "    break", f"budget -= {n}"]
    fused = set()
    for pc in range(start, end):
        ins = code[pc]
        op, d = ins[0], depth[pc]
        top = f"s{d - 1}"
        if pc in fused:
            pass
        elif op == O.ZONE and O.ENUMS["zone"][ins[1]] == "board" and pc + 1 < end and _board_call(code[pc + 1], consts):
            # a builtin of X's board with a quick form (_BOARD_CALLS); when that says None, the two
            # instructions as they are
            fname, argc = consts[code[pc + 1][1]], code[pc + 1][2]
            fused.add(pc + 1)
            args = [f"s{i}" for i in range(d - argc, d)]     # the board's owner last, the result in the first
            lines += [f"pc = {pc}", f"_t = {_BOARD_CALLS[fname, argc].format(*args)}", "if _t is None:",
                      f"    {top} = _zone(engine, {top}, 'board')", f"    pc = {pc + 1}",
                      f"    {args[0]} = IMPL[{fname!r}](engine, frame, {', '.join(args)})", "else:", f"    {args[0]} = _t"]
        elif pc + 1 < end and _pile_read(code, consts, pc):
            # X(what, pile(p, colour)) read from the pile's summary (_PILE_CALLS); when that says None, the
            # two calls as they are
            fname = consts[code[pc + 1][1]]
            fused.add(pc + 1)
            what, who, color = f"s{d - 3}", f"s{d - 2}", f"s{d - 1}"
            lines += [f"pc = {pc}"]
            if pure:     # 'you's piles, from the summaries read once for the run
                lines += ["_t = None", f"if {who} == _you and {who}.__class__ is int and {what}.__class__ is str:",
                          "    if _ys is None:", "        _ys = _summaries(engine.cards, engine.state, _you, engine.icon_cache)",
                          f"    _s = _ys.get({color})", "    if _s is not None:",
                          "        _t = " + _SUMMARY_READS[fname].format(what=what),
                          "if _t is None:", f"    _t = {_PILE_CALLS[fname]}(engine, {what}, {who}, {color})"]
            else:
                lines += [f"_t = {_PILE_CALLS[fname]}(engine, {what}, {who}, {color})"]
            lines += ["if _t is None:",
                      f"    {who} = IMPL['pile'](engine, frame, {who}, {color})", f"    pc = {pc + 1}",
                      f"    {what} = IMPL[{fname!r}](engine, frame, {what}, {who})", "else:", f"    {what} = _t"]
        elif op == O.BINARY:       # the VM's own operation, on the two stack values
            lines += [f"pc = {pc}", f"s{d - 2} = _binary[{ins[1]}](s{d - 2}, {top})"]
        elif op == O.CONST:
            lines.append(f"s{d} = {consts[ins[1]]!r}")
        elif op == O.POP:
            pass
        elif op == O.DUP:
            lines.append(f"s{d} = {top}")
        elif op == O.LOAD:
            lines.append(f"s{d} = {L(ins[1])}")
        elif op == O.STORE:
            lines.append(f"{L(ins[1])} = {top}")
        elif op == O.PLAYER:
            lines.append(f"s{d} = frame[{'you' if ins[1] == 0 else 'me'!r}]")
        elif op == O.NOT:
            lines.append(f"{top} = not {top}")
        elif op == O.COMPARE:
            a, b = f"s{d - 2}", top
            lines.append(f"pc = {pc}")
            if ins[1] in _CMP_OPS:   # _num inline for a plain int, the usual case
                lines.append(f"{a} = ({a} if {a}.__class__ is int else _num({a})) {_CMP_OPS[ins[1]]} "
                             f"({b} if {b}.__class__ is int else _num({b}))")
            else:
                lines.append(f"{a} = {a} {'==' if ins[1] == 0 else '!='} {b}")
        elif op == O.CALL:
            argc = ins[2]
            args = ", ".join(f"s{i}" for i in range(d - argc, d))
            fname = consts[ins[1]]
            lines.append(f"pc = {pc}")
            if fname == "count" and argc == 1:     # a list's length at once; anything else as the builtin
                lines.append(f"s{d - 1} = len({top}) if {top}.__class__ is list else IMPL['count'](engine, frame, {top})")
            elif fname in builtins_impl.IMPLEMENTATIONS:
                lines.append(f"s{d - argc} = IMPL[{fname!r}](engine, frame{', ' if args else ''}{args})")
            else:
                lines.append(f"s{d - argc} = builtins_impl.call(engine, frame, {fname!r}, [{args}])")
        elif op == O.LIST_NEW:
            lines.append(f"s{d} = []")
        elif op == O.APPEND:      # as the VM: a list is added item by item
            slot = ins[1]
            lines += [f"if {L(slot)} is None:", f"    {L(slot)} = []",
                      f"if isinstance({top}, list):", f"    {L(slot)}.extend({top})",
                      "else:", f"    {L(slot)}.append({top})"]
        elif op == O.ZONE:
            lines.append(f"pc = {pc}")
            lines.append(f"{top} = _zone(engine, {top}, {O.ENUMS['zone'][ins[1]]!r})")
        elif op == O.FOR_NEXT:
            lst, idx, var, single, target = ins[1:]
            lines += [f"pc = {pc}", f"_l = {L(lst)} or []", f"_i = {L(idx)}", "if _i < len(_l):",
                      f"    {L(var)} = {'[_l[_i]]' if single else '_l[_i]'}", f"    {L(idx)} = _i + 1"]
            lines += ["    " + x for x in _goto([pc + 1], start, str(pc + 1))]
            lines += ["else:"] + ["    " + x for x in _goto([target], start, str(target))]
        elif op in (O.JUMP, O.REPEAT):
            lines += _goto([ins[1]], start, str(ins[1]))
        elif op in (O.JUMP_IF_FALSE, O.JUMP_IF_TRUE):
            yes, no = (pc + 1, ins[1]) if op == O.JUMP_IF_FALSE else (ins[1], pc + 1)
            lines += _goto([yes, no], start, f"{yes} if {top} else {no}")
        elif op == O.RETURN:
            lines += [f"frame['pc'] = {pc}", "engine.budget = budget"] + _write_back(nlocals) + ["return 'done'"]
        elif op == O.RESULT:
            lines += [f"frame['pc'] = {pc}", f"frame['result'] = {top}", "engine.budget = budget"] + \
                _write_back(nlocals) + ["return 'done'"]
        else:   # the VM's own implementation, on the frame's (otherwise empty) stack
            info = O.OPCODES[op]
            pops, pushes = O.stack_effect(info, ins[1:])
            lines += [f"pc = {pc}", f"frame['pc'] = {pc}"]
            if pops:
                lines.append(f"_st += ({', '.join(f's{i}' for i in range(d - pops, d))},)")
            lines.append(f"_op{op}(engine, frame, CHUNK, INS[{pc}], {pc})")
            if pushes:
                lines.append(f"s{d - pops} = _st.pop()")
            if op in _MOVING:    # a move's event hooks run now: the VM takes over after it and yields to them
                lines += ["if engine.__dict__.get('events_due') and frame['kind'] != 'condition':", f"    hand = {pc + 1}",
                          "    break"]
        if pc == end - 1 and not (O.OPCODES[op].terminal or O.OPCODES[op].jumps):
            lines.append(f"blk = {end}")   # falls through to the next block
    return lines


# Builtins of one player's board read from what the engine keeps (builtins_impl): icons(X, your board) from
# the icon table kept per revision, colors(X's board) from the piles with cards; None: ask the builtin.
_BOARD_CALLS = {("icons", 2): "_board_icons(engine, frame, {0}, {1})", ("colors", 1): "_board_colors(engine, {0})",
                ("cell_values", 2): "_board_read(engine, 'cell_values', {0}, {1})",
                ("cell_effects", 2): "_board_read(engine, 'cell_effects', {0}, {1})"}
# Builtins of one pile, X(what, pile(p, colour)), read from the pile's summary (state/board.py): the special
# conditions' counts per colour ("three icons of one kind in four colours") without building the pile's list.
_PILE_CALLS = {"icons": "_pile_icons", "cell_effects": "_pile_cell_effects", "cell_values": "_pile_cell_values"}
# The same reads written out on a summary ``_s`` (as builtins_impl.pile_icons_of and the others read it)
_SUMMARY_READS = {"icons": "_s.hexes if {what} == _hex else (0 if {what} in _noti else _s.icons.get({what}, 0))",
                  "cell_effects": "_s.effects.get({what}, 0)", "cell_values": "list(_s.cells.get({what}, ()))"}
# Instructions that never move a card nor ask: a chunk of these alone (a condition, a set's expression) reads
# a state that stands still while it runs.
_PURE = _INLINE | {O.ZONE_SET, O.ZONE_GLOBAL, O.NEG, O.IN}


def _board_call(ins, consts) -> bool:
    return ins[0] == O.CALL and (consts[ins[1]], ins[2]) in _BOARD_CALLS


def _pile_read(code, consts, pc) -> bool:
    """Whether pc calls pile(p, colour) and the next instruction one of _PILE_CALLS on it."""
    ins, nxt = code[pc], code[pc + 1] if pc + 1 < len(code) else None
    return ins[0] == O.CALL and (consts[ins[1]], ins[2]) == ("pile", 2) and nxt is not None and \
        nxt[0] == O.CALL and nxt[2] == 2 and consts[nxt[1]] in _PILE_CALLS


def build(chunk: dict, name: str = "chunk", code=None):
    """Compile a chunk's translation into a function (``code``: its code object, already compiled)."""
    if code is None:
        code = compile(translate(chunk, name), f"<innoscript {name}>", "exec")
    namespace = {"vm": vm, "builtins_impl": builtins_impl, "IMPL": builtins_impl.IMPLEMENTATIONS,
                 "_num": vm._num, "_zone": vm._zone, "_board_icons": builtins_impl.board_icons_of,
                 "_board_colors": builtins_impl.board_colors_of, "_board_read": builtins_impl.board_read_of,
                 "_summaries": builtins_impl.board_summaries, "_pile_icons": builtins_impl.pile_icons_of,
                 "_pile_cell_effects": builtins_impl.pile_cell_effects_of,
                 "_pile_cell_values": builtins_impl.pile_cell_values_of, "_binary": vm.BINARY, "CHUNK": chunk,
                 "INS": [list(i) for i in chunk["code"]], "DEPTH": _depths(chunk["code"]),
                 **{f"_op{op}": fn for op, fn in vm.SLOW.items()}}
    exec(code, namespace)
    return namespace["run"]


# ---------------------------------------------------------------- the code cache on disk

def _store_folder():
    """Where compiled translations are kept between processes (None: not kept). Like Python's own
    __pycache__: one file per translation, in a folder per bytecode format (the interpreter's magic
    number)."""
    if not DISK:
        return None
    return cache_dir() / f"tier-{importlib.util.MAGIC_NUMBER.hex()}"


_translator: list = []     # the digest of this module's and the opcode table's code, once computed


def _store_path(chunk: dict, name: str):
    """A translation's file, named by what its source depends on: the translator's code, the function's
    name and the chunk's code and constants (so nothing needs translating to find it)."""
    folder = _store_folder()
    if folder is None:
        return None
    if not _translator:
        h = hashlib.sha256()
        for f in (__file__, O.__file__):
            with open(f, "rb") as fh:
                h.update(fh.read())
        _translator.append(h.digest())
    h = hashlib.sha256(_translator[0])
    h.update(name.encode())
    try:
        h.update(marshal.dumps((chunk["code"], chunk["consts"])))
    except ValueError:
        return None
    return folder / (h.hexdigest()[:40] + ".code")


def _stored(chunk: dict, name: str):
    """The code object an earlier process compiled for this chunk, or None. A file that is not one
    (truncated, foreign, another version's) is ignored; the chunk is compiled again over it."""
    path = _store_path(chunk, name)
    if path is None:
        return None
    try:
        code = marshal.loads(path.read_bytes())
    except (OSError, EOFError, ValueError, TypeError):
        return None
    if not isinstance(code, types.CodeType) or code.co_filename != f"<innoscript {name}>":
        return None
    return code


def _store(chunk: dict, name: str, code) -> None:
    """Keep a compiled translation for later processes (atomically: concurrent workers may write the
    same file); a cache folder that cannot be written only costs the next process the compile."""
    path = _store_path(chunk, name)
    if path is None:
        return
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_bytes(marshal.dumps(code))
        os.replace(tmp, path)
    except OSError:
        pass


# ---------------------------------------------------------------- lookup

def _name(engine, frame, key) -> str:
    card = frame["card"]
    return engine.cards.name[card] + f" effect {frame['effect'] + 1}" if card >= 0 else f"condition {key}"


def function_for(engine, frame):
    """The compiled function for a fresh frame, or None when the VM must run it."""
    memo = engine.__dict__.get("_tier_fns")
    if memo is None:
        memo = engine.__dict__["_tier_fns"] = {}
    card = frame["card"]
    if card >= 0:
        key = (card, frame["effect"])
    else:
        key = frame.get("label")
        entry = memo.get(key)
        if entry is not None and entry[0] is frame["chunk"]:
            return entry[1]
        sa = engine.cards.specials.get(key)
        if sa is None or sa["condition"] is not frame["chunk"]:
            return None
    entry = memo.get(key)
    if entry is None:
        chunk = chunk_of(engine.cards, frame)
        fn = _compiled((engine.cards.bundle.get("source_hash"), key), chunk, lambda: _name(engine, frame, key))
        if fn is None:
            return None   # not hot yet: the VM runs it
        entry = memo[key] = (chunk, fn)
    return entry[1]


_expressions: dict = {}    # id(chunk) -> (chunk, function): the manifest expressions' translations


def expression_function(cards, chunk: dict, label: str):
    """The compiled function of a set's manifest expression (runtime/machine/expressions.py), or None while
    it is not hot. Its host is fresh at each reading, so the translation is kept here, by the chunk."""
    entry = _expressions.get(id(chunk))
    if entry is not None and entry[0] is chunk:
        return entry[1]
    fn = _compiled((cards.bundle.get("source_hash"), ("expression", label)), chunk, lambda: f"expression {label}")
    if fn is not None:
        if len(_expressions) > 1024:
            _expressions.clear()
        _expressions[id(chunk)] = (chunk, fn)
    return fn


def _compiled(ck, chunk: dict, name):
    """The function translated from a chunk, kept by ``ck`` (bundle source hash, chunk key) in the process
    and on disk; None while the chunk is not hot (``name()``: the function's name, made when needed)."""
    cached = _cache.get(ck)
    if cached is not None and (cached[0] != chunk["code"] or cached[1] != chunk["consts"]):
        cached = None
    if cached is None:
        code = None
        if ck not in _runs:       # its first run in this process: compiled by an earlier one?
            code = _stored(chunk, name())
            _runs[ck] = 0
        if code is None:
            if HOT:
                runs = _runs[ck] = _runs[ck] + 1
                if runs <= HOT:
                    return None
            label = name()
            code = compile(translate(chunk, label), f"<innoscript {label}>", "exec")
            _store(chunk, label, code)
        cached = _cache[ck] = (chunk["code"], chunk["consts"], build(chunk, code=code))
    return cached[2]


def run(engine, frame: dict) -> str:
    """Run a frame until it finishes or must wait (runtime/machine/vm.py). A fresh frame runs on this
    tier when the engine selects it and its chunk is translated; any other runs on the VM."""
    if frame["pc"] == 0 and getattr(engine, "tier", "vm") == "compiled" and engine.trace is None \
            and "answer" not in frame and not frame["stack"]:
        fn = function_for(engine, frame)
        if fn is not None:
            return fn(engine, frame)
    return vm.run_vm(engine, frame)
