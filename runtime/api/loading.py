"""What a saved game must satisfy beyond its schema before the engine touches it.

A saved game is data from anywhere, so nothing in it is trusted: every player,
card and effect index is in range, zones have their shapes, the pending
decision names real cards and players, and the running dogma's frames refer
only to compiled effects of the bundle, each paused at an instruction with
exactly the stack depth the verifier computed for it there.  A frame cannot
carry code (the only chunks are the bundle's).  Then the engine's own
invariants (runtime/rules/invariants.py) must hold.  Each fault raises ValueError
with a short reason; ``Game.load`` turns it into ``BadSave``.
"""
from __future__ import annotations

from innoscript.compiler.verifier import VerifyError, verify
from innoscript.core.hook_points import HOOK_POINTS
from ..machine.frames import HOOK

MAX_NUMBER = 10 ** 6
MAX_NAME = 100
FRAME_KEYS = {"card", "effect", "kind", "pc", "stack", "locals", "you", "me", "did", "sel_full", "sharer",
              "changes_at_start", "depth", "record", "must", "decider"}
DECISION_KINDS = {"initial_meld", "action", "select_cards", "yes_no", "choose", "choose_option", "splay_color", "order"}
CARD_KINDS = {"initial_meld", "select_cards", "order"}
PRELUDE_STEPS = {"pay", "share", "avoid"}


def _execution_options(item: dict, n: int, what: str) -> None:
    """An execution's options on its work list or frame: 'must' is true; 'decider' is [performer, decider],
    two different players."""
    if "must" in item and item["must"] is not True:
        raise ValueError(f"{what}/must is true when present")
    if "decider" in item:
        dec = item["decider"]
        if not isinstance(dec, list) or len(dec) != 2:
            raise ValueError(f"{what}/decider is [performer, decider]")
        if _int(dec[0], 0, n, f"{what}/decider") == _int(dec[1], 0, n, f"{what}/decider"):
            raise ValueError(f"{what}/decider: a player does not decide for themselves")


def _int(v, lo, hi, what):
    if not isinstance(v, int) or isinstance(v, bool) or not lo <= v < hi:
        raise ValueError(f"{what} is {str(v)[:20]!r}, not a whole number from {lo} to {hi - 1}")
    return v


def _value(v, ncards, what):
    """A value on a frame's stack or in its locals: a small scalar, or a flat list of small ones
    (card sets, players, values: never negative)."""
    if v is None or isinstance(v, bool) or isinstance(v, str) and len(v) <= MAX_NAME:
        return
    if isinstance(v, int):
        _int(v, -MAX_NUMBER, MAX_NUMBER + 1, what)
        return
    if isinstance(v, list) and len(v) <= ncards:
        for x in v:
            if isinstance(x, str) and len(x) <= MAX_NAME:
                continue
            _int(x, 0, ncards, what + " item")
        return
    raise ValueError(f"{what} is not a value a card effect can hold")


def _small_json(v, what) -> None:
    """Bookkeeping the engine keeps in a frame: plain data of bounded size, no code."""
    work, seen = [(v, 0)], 0
    while work:
        x, depth = work.pop()
        seen += 1
        if depth > 4 or seen > 2000:
            raise ValueError(f"{what} is not a value a card effect can hold")
        if isinstance(x, list):
            work += [(y, depth + 1) for y in x]
        elif isinstance(x, dict):
            raise ValueError(f"{what} is not a value a card effect can hold")
        elif isinstance(x, int) and not isinstance(x, bool):
            _int(x, -MAX_NUMBER, MAX_NUMBER + 1, what)
        elif not (x is None or isinstance(x, bool) or isinstance(x, str) and len(x) <= MAX_NAME):
            raise ValueError(f"{what} is not a value a card effect can hold")



def _names(v) -> bool:
    """A short list of short strings (a free Dogma's marks)."""
    return isinstance(v, list) and len(v) <= 8 and all(isinstance(x, str) and 0 < len(x) <= 40 for x in v)

def check(cards, state: dict) -> None:
    n = len(state["players"])
    ncards = len(cards.cards)
    m = cards.manifest["players"]
    if not m["min"] <= n <= m["max"]:
        raise ValueError(f"{n} players; the edition is for {m['min']} to {m['max']}")
    for p, pl in enumerate(state["players"]):
        if len(pl["name"]) > MAX_NAME:
            raise ValueError(f"player {p}'s name is longer than {MAX_NAME} characters")
        for a in pl["achievements"]:
            if isinstance(a, str) and a not in cards.specials:
                raise ValueError(f"player {p} has an unknown special achievement {a[:40]!r}")
        # the sets' zones: exactly those the sets in play declare (a zone over its limit is allowed: a
        # limit that shrinks keeps the cards; runtime/rules/zones.py)
        if sorted(pl.get("zones", {})) != sorted(cards.zones) or ("zones" in pl) != bool(cards.zones):
            raise ValueError(f"player {p}'s zones {sorted(pl.get('zones', {}))[:5]} are not the sets' zones "
                             f"{sorted(cards.zones)}")
        for name, ids in pl.get("zones", {}).items():
            for cid in ids:
                _int(cid, 0, ncards, f"player {p} {name}")
    # the sets' game-wide zones: exactly those the sets in play declare (only when one does)
    shared = state.get("zones", {})
    if not isinstance(shared, dict) or sorted(shared) != sorted(cards.shared_zones) or \
            ("zones" in state) != bool(cards.shared_zones):
        raise ValueError(f"the game-wide zones {sorted(shared)[:5] if isinstance(shared, dict) else '?'} are not "
                         f"the sets' game-wide zones {sorted(cards.shared_zones)}")
    for name, ids in shared.items():
        for cid in ids:
            _int(cid, 0, ncards, f"zones/{name}")
    for name in state["available"]["special"] + state["junk_special"]:
        if name not in cards.specials:
            raise ValueError(f"unknown special achievement {name[:40]!r}")
    if sorted(state.get("sets", [])) != cards.set_names or sorted(state.get("set_supply", {})) != cards.set_names:
        raise ValueError(f"the game's sets {sorted(state.get('sets', []))[:5]} and their piles are not the "
                         f"bundle's sets {cards.set_names}")
    for name, piles in state.get("set_supply", {}).items():
        for age in piles:
            if not (age.isdigit() and int(age) in cards.ages):
                raise ValueError(f"set_supply/{name}/{age[:20]} is not an age of the game")
    t = state["turn"]
    _int(t["active"], 0, n, "turn/active")
    _int(t["actions_left"], 0, 3, "turn/actions_left")
    _int(t["number"], 0, 100_000, "turn/number")
    for c, rec in t.get("boards", {}).items():
        _int(int(c), 0, ncards, "turn/boards (a card)")
        if rec["start"] is not None:
            _int(rec["start"], 0, n, "turn/boards/start")
        for q in rec["seen"]:
            _int(q, 0, n, "turn/boards/seen")
        if len(set(rec["seen"])) != len(rec["seen"]) or rec["start"] is not None and rec["seen"][:1] != [rec["start"]]:
            raise ValueError(f"turn/boards/{c}: each board once, the board it started on first")
    for name, times in t.get("set_actions", {}).items():
        if name not in cards.set_actions or not 1 <= times <= cards.set_actions[name]["per_turn"]:
            raise ValueError(f"turn/set_actions/{name[:40]}: no action of the sets in play, or taken more than it may be")
    for key in ("scored", "tucked", "drawn"):
        if key not in t:        # 'drawn' is absent in games saved before it was kept
            continue
        if len(t[key]) != n:
            raise ValueError(f"turn/{key} has {len(t[key])} entries for {n} players")
        for x in t[key]:
            _int(x, 0, ncards + 1, f"turn/{key}")
    if "revs" in state and len(state["revs"]) != n:
        raise ValueError(f"revs has {len(state['revs'])} entries for {n} players")
    if len(state["setup_melds"]) != n:
        raise ValueError(f"setup_melds has {len(state['setup_melds'])} entries for {n} players")
    for p, cid in enumerate(state["setup_melds"]):
        if state["phase"] == "setup" and cid is not None and cid not in state["players"][p]["hand"]:
            raise ValueError(f"player {p}'s first meld is not a card in their hand")
    for key, where in state.get("revealed_from", {}).items():
        if not key.isdigit() or int(key) >= ncards or not _came_from(where, n, [*cards.zones, *cards.shared_zones]):
            raise ValueError(f"revealed_from/{key[:20]} is not a card and the zone and player it came from")
    _check_phase(state, n)
    _check_pending(cards, state, n)
    if state["dogma"] is not None:
        _check_dogma(cards, state, n)


def _came_from(where, n, zones=()) -> bool:
    if not (isinstance(where, list) and len(where) == 2):
        return False
    zone, p = where
    return (zone in ("hand", "score", "board", "supply", "achievements", "available", "junk", "removed")
            or zone in zones) and (
        p is None or isinstance(p, int) and not isinstance(p, bool) and 0 <= p < n)


def _check_phase(state, n):
    phase, pending = state["phase"], state["pending"]
    if phase == "over":
        if pending is not None or not isinstance(state["result"], dict):
            raise ValueError("a finished game has a result and nothing pending")
        winners = state["result"].get("winners")
        if not isinstance(winners, list) or any(not isinstance(w, int) or isinstance(w, bool) or not 0 <= w < n
                                                for w in winners):
            raise ValueError("the result's winners are not players of the game")
        return
    if pending is None:
        raise ValueError(f"phase {phase} with no decision pending")
    if (phase == "dogma") != (state["dogma"] is not None):
        raise ValueError("the dogma phase and the running dogma action do not agree")
    if state["result"] is not None:
        raise ValueError("a game in play has a result")


PENDING_TEXT = ("prompt", "source", "purpose", "what", "direction", "color")
PENDING_FLAGS = ("optional", "one_per_color", "unrevealed")


def _check_pending(cards, state, n):
    """The pending decision names real cards and players, its fields have their types, and it can be answered:
    its counts fit its options (so some answer is legal)."""
    d = state["pending"]
    if d is None:
        return
    ncards = len(cards.cards)
    _int(d["player"], 0, n, "pending/player")
    _int(d["id"], 0, 10 ** 9, "pending/id")
    if not 0 <= d["min"] <= max(d["max"], 0) <= ncards and d["max"] != -1:
        raise ValueError("pending min and max are not a range of counts")
    kind = d["kind"]
    if kind == "initial_meld" and state["phase"] != "setup" or kind != "initial_meld" and state["phase"] == "setup":
        raise ValueError(f"a {kind} decision in phase {state['phase']}")
    if kind == "action" and state["phase"] != "action" or kind not in ("action", "initial_meld") and state["phase"] != "dogma":
        raise ValueError(f"a {kind} decision in phase {state['phase']}")
    for key in PENDING_TEXT:
        if key in d and not (isinstance(d[key], str) and len(d[key]) <= 2 * MAX_NAME):
            raise ValueError(f"pending/{key} is not a short text")
    for key in PENDING_FLAGS:
        if key in d and not isinstance(d[key], bool):
            raise ValueError(f"pending/{key} is true or false")
    opts = d["options"]
    if len(opts) > 4 * ncards:
        raise ValueError("pending options are more than the game can offer")
    if kind in CARD_KINDS:
        for o in opts:
            if not (isinstance(o, str) and o in cards.specials):
                _int(o, 0, ncards, "pending option")
    elif kind == "action":
        for o in opts:
            if not isinstance(o, dict) or o.get("type") not in ("draw", "meld", "achieve", "dogma", "set_action") \
                    or o["type"] == "set_action" and o.get("action") not in cards.set_actions:
                raise ValueError("an action option is not an action")
            if "card" in o:
                _int(o["card"], 0, ncards, "action option card")
            if "age" in o:
                _int(o["age"], 0, cards.max_age + 1, "action option age")
    elif kind == "yes_no":
        if opts != [True, False]:
            raise ValueError("a yes/no decision's options are [true, false]")
    elif kind == "choose_option":
        if opts != list(range(len(opts))) or not 2 <= len(opts) <= 16:
            raise ValueError("a choose_option decision's options are 0 to n-1")
    else:
        for o in opts:
            _value(o, ncards, "pending option")
    _check_answerable(cards, d, kind, opts)


def _check_answerable(cards, d, kind, opts):
    """Counts that some answer meets: a single choice among options (or none, if optional); a list of distinct
    options within min and max (and one of the sizes, one card of each colour where asked)."""
    keys = [(type(o).__name__, o) for o in opts if not isinstance(o, (dict, list))]
    if len(set(keys)) != len(keys) and kind != "action":
        raise ValueError("pending options are not distinct")
    single = kind in ("initial_meld", "splay_color") or kind == "choose" and d["max"] == 1
    if kind in ("initial_meld", "splay_color") and d["max"] != 1:
        raise ValueError(f"a {kind} decision chooses one option (max 1)")
    if single or kind == "action":
        if not opts and not (d["optional"] and kind != "action"):
            raise ValueError(f"a {kind} decision with no option to choose")
        return
    if kind in ("select_cards", "choose"):
        if not d["min"] <= d["max"] <= len(opts):
            raise ValueError(f"a decision to choose {d['min']} to {d['max']} of {len(opts)} options")
        sizes = d.get("sizes")
        if sizes is not None and (kind != "select_cards" or not isinstance(sizes, list) or not sizes or any(
                not isinstance(k, int) or isinstance(k, bool) or not d["min"] <= k <= d["max"] for k in sizes)):
            raise ValueError("pending/sizes are counts between min and max")
        if d.get("one_per_color"):
            if kind != "select_cards" or not all(isinstance(o, int) for o in opts):
                raise ValueError("one card of each colour is chosen among cards")
            if d["max"] != len({cards.color[o] for o in opts}) or d["min"] not in (0, d["max"]):
                raise ValueError("one card of each colour: max is the number of colours among the options")
    elif kind == "order" and not opts:
        raise ValueError("an order decision with no cards to order")


def _chunk(cards, card, effect, what):
    if card == HOOK:   # a set's hook (runtime/rules/hooks.py)
        _int(effect, 0, len(cards.hooks), f"{what} hook")
        return cards.hooks[effect]["chunk"]
    _int(card, 0, len(cards.cards), f"{what} card")
    _int(effect, 0, len(cards.cards[card]["effects"]), f"{what} effect")
    return cards.cards[card]["effects"][effect]


def _check_dogma(cards, state, n):
    d = state["dogma"]
    ncards = len(cards.cards)
    if "hook" in d:    # the hooks of a hook point are running (runtime/rules/hooks.py)
        if d["hook"] not in cards.hooks_at and d["hook"] not in HOOK_POINTS or d["card"] != -1 \
                or d["icon"] is not None:
            raise ValueError("dogma/hook names a hook point, with no card and no icon")
    else:
        _int(d["card"], 0, ncards, "dogma/card")
        if d["icon"] not in cards.icons:
            raise ValueError("dogma/icon is not one of the edition's icons")
    _int(d["active"], 0, n, "dogma/active")
    if not isinstance(d["counts"], list) or len(d["counts"]) != n:
        raise ValueError("dogma/counts has one count per player")
    for c in d["counts"]:
        _int(c, -1, 10 ** 4, "dogma/counts")
    if not isinstance(d["vars"], dict) or len(d["vars"]) > 64:
        raise ValueError("dogma/vars is a small object")
    records = d.get("records", [])
    if not isinstance(records, list) or len(records) > 64 or not all(isinstance(r, dict) for r in records):
        raise ValueError("dogma/records is a short list of records")
    for rec in [d["vars"]] + records:
        if len(rec) > 64:
            raise ValueError("a dogma record is a small object")
        for k, v in rec.items():
            _value(v, ncards, f"dogma/vars/{k[:20]}")
    _int(d["changes"], 0, 10 ** 6, "dogma/changes")
    if not isinstance(d["shared_change"], bool) or not isinstance(d["built"], bool) or \
            not isinstance(d.get("shared", False), bool):
        raise ValueError("dogma/shared_change and dogma/built are true or false")
    if not isinstance(d["excluded"], list):
        raise ValueError("dogma/excluded is a list of players")
    for q in d["excluded"]:
        _int(q, 0, n, "dogma/excluded")
    if not isinstance(d["prelude"], list):
        raise ValueError("dogma/prelude is a list")
    _check_steps(d["prelude"], n)
    if not isinstance(d["prelude_frame"], dict) or d["prelude_frame"]:
        raise ValueError("dogma/prelude_frame holds nothing between decisions")
    for key in ("budget", "asked"):
        if key in d:
            _int(d[key], 0, 10 ** 7, f"dogma/{key}")
    stack = d["stack"]
    if len(stack) > 200:
        raise ValueError("dogma/stack is deeper than executions can nest")
    for i, item in enumerate(stack):
        what = f"dogma/stack/{i}"
        if "parley" in item:    # a free Dogma's parley choices, its work list waiting in "then"
            if set(item) != {"parley", "excluded", "counts", "then"} or not isinstance(item["then"], dict) \
                    or "free" not in item["then"] or item["then"].get("work") != []:
                raise ValueError(f"{what}: a free Dogma's parley holds its steps, the excluded, counts and its work")
            _check_steps(item["parley"], n)
            if not isinstance(item["excluded"], list) or not isinstance(item["counts"], list) or len(item["counts"]) != n:
                raise ValueError(f"{what}: excluded players and one count per player")
            for q in item["excluded"]:
                _int(q, 0, n, f"{what}/excluded")
            for c in item["counts"]:
                _int(c, -1, 10 ** 4, f"{what}/counts")
            item = item["then"]
        if "work" in item:
            if set(item) - {"work", "depth", "record", "free", "must", "decider"}:
                raise ValueError(f"{what}: a work item holds work and its depth only")
            _execution_options(item, n, what)
            if "free" in item:    # a free Dogma's own record of who shared (runtime/rules/dogma.py)
                free = item["free"]
                if not isinstance(free, dict) or not FREE_KEYS <= set(free) <= FREE_KEYS | FREE_OPTIONS \
                        or not all(isinstance(free[k], bool) for k in ("shared", "shared_change")) \
                        or not _names(free["marks"]):
                    raise ValueError(f"{what}/free: a free Dogma names its card, its player, its marks and two flags "
                                     "(and its counts, and its options: own_icons, cells, twice)")
                _int(free["card"], 0, ncards, f"{what}/free/card")
                _int(free["active"], 0, n, f"{what}/free/active")
                _check_free_options(cards, free, f"{what}/free")
                if "counts" in free:
                    if not isinstance(free["counts"], list) or len(free["counts"]) != n:
                        raise ValueError(f"{what}/free/counts has one count per player")
                    for c in free["counts"]:
                        _int(c, -1, 10 ** 4, f"{what}/free/counts")
            if not isinstance(item["work"], list) or len(item["work"]) > 64 * n:
                raise ValueError(f"{what}/work is a list of effects to run")
            for w in item["work"]:
                plain = isinstance(w, list) and len(w) == 5
                hook = isinstance(w, list) and len(w) == 6 and w[0] == HOOK and isinstance(w[5], list) and len(w[5]) <= 8
                if not ((plain or hook) and isinstance(w[4], bool)):
                    raise ValueError(f"{what}/work: an entry is [card, effect, you, me, sharer] "
                                     "(a hook's: [hook, index, you, me, sharer, arguments])")
                for arg in w[5] if len(w) == 6 else ():
                    _value(arg, ncards, f"{what} hook argument")
                _chunk(cards, w[0], w[1], what)
                _int(w[2], 0, n, f"{what} player")
                _int(w[3], 0, n, f"{what} player")
            if "depth" in item:
                _int(item["depth"], 0, 64, f"{what}/depth")
            if "record" in item:
                _int(item["record"], 0, len(d.get("records", [])) + 1, f"{what}/record")
        else:
            _check_frame(cards, item, n, what, records)
    if not d["prelude"] and state["pending"] is not None and (not stack or "work" in stack[-1]):
        raise ValueError("a decision is pending in a dogma action, but no effect is waiting for it")


FREE_KEYS = {"card", "active", "marks", "shared", "shared_change"}
FREE_OPTIONS = {"own_icons", "cells", "twice",   # a free Dogma's options, kept only when given (runtime/rules/dogma.py)
                "counts"}                 # the counts it started with (absent in games saved before they were kept)


def _check_free_options(cards, free: dict, what: str) -> None:
    """'counting its icons' is kept as own_icons: true; the cell effects the options chose as cells: at most
    64 [card, effect] pairs, each a cell effect of its card."""
    for flag in ("own_icons", "twice"):
        if flag in free and free[flag] is not True:
            raise ValueError(f"{what}/{flag} is true when kept")
    cells = free.get("cells", [])
    if not isinstance(cells, list) or len(cells) > 64:
        raise ValueError(f"{what}/cells is a short list of cell effects")
    for pair in cells:
        if not (isinstance(pair, list) and len(pair) == 2) or pair[0] == HOOK:
            raise ValueError(f"{what}/cells: an entry is [card, effect]")
        if _chunk(cards, pair[0], pair[1], f"{what}/cells").get("kind") != "cell":
            raise ValueError(f"{what}/cells: an entry is a cell effect of its card")


def _check_steps(steps, n):
    if not isinstance(steps, list):
        raise ValueError("dogma/prelude is a list")
    for step in steps:
        if not (isinstance(step, list) and len(step) == 2 and step[0] in PRELUDE_STEPS):
            raise ValueError("a prelude step is [pay|share|avoid, player]")
        _int(step[1], 0, n, "prelude player")


def _check_frame(cards, f, n, what, state_records):
    if "chunk" in f or "code" in f:
        raise ValueError(f"{what}: a frame has no field 'chunk' (frames cannot carry code)")
    for key in set(f) - FRAME_KEYS:     # the engine's own bookkeeping: small values only
        if len(str(key)) > 40 or len(f) > 40:
            raise ValueError(f"{what}: a frame has too many or too long fields")
        _small_json(f[key], f"{what}/{str(key)[:20]}")
    missing = {"card", "effect", "kind", "pc", "stack", "locals", "you", "me", "did"} - set(f)
    if missing:
        raise ValueError(f"{what}: a frame needs {sorted(missing)[0]}")
    chunk = _chunk(cards, f["card"], f["effect"], what)
    if f["kind"] != chunk["kind"]:
        raise ValueError(f"{what}: kind {str(f['kind'])[:20]!r} is not its effect's")
    _int(f["you"], 0, n, f"{what}/you")
    _int(f["me"], 0, n, f"{what}/me")
    pc = _int(f["pc"], 0, len(chunk["code"]), f"{what}/pc")
    if not isinstance(f["did"], bool) or f.get("sel_full") not in (None, True, False) or \
            not isinstance(f.get("sharer", False), bool):
        raise ValueError(f"{what}: did, sel_full and sharer are true, false (or null)")
    for key in ("changes_at_start", "depth"):
        if key in f:
            _int(f[key], 0, 10 ** 6, f"{what}/{key}")
    _execution_options(f, n, what)
    if "record" in f:
        _int(f["record"], 0, len(state_records) + 1, f"{what}/record")
    if not isinstance(f["locals"], list) or len(f["locals"]) != len(chunk["locals"]):
        raise ValueError(f"{what}: {len(chunk['locals'])} locals expected")
    depths: dict[int, int] = {}
    try:
        verify(chunk, depths)
    except VerifyError as err:   # the bundle itself is verified on load; this is belt and braces
        raise ValueError(f"{what}: its effect fails verification: {err}") from None
    if pc not in depths:
        raise ValueError(f"{what}: pc {pc} is not reachable in its effect")
    if not isinstance(f["stack"], list) or len(f["stack"]) != depths[pc]:
        raise ValueError(f"{what}: a stack of {len(f['stack']) if isinstance(f['stack'], list) else '?'} "
                         f"value(s) at pc {pc}, where the verifier says {depths[pc]}")
    ncards = len(cards.cards)
    for j, v in enumerate(f["stack"]):
        _value(v, ncards, f"{what}/stack/{j}")
    for j, v in enumerate(f["locals"]):
        _value(v, ncards, f"{what}/locals/{j}")
