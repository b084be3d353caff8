"""Bots that look ahead: the heuristic bot and the search bot, both from their own player's view only.

A bot never reads the real state. To look ahead it *determinises*: it builds a
full game state consistent with its view (every visible card where the view
shows it; each hidden slot - other hands and score piles by age, every
achievement by age, the supply by count, the junk by age - filled with a card
of that age drawn at random from the cards it has not seen), then plays the
rules engine forward in that sampled world.

- ``HeuristicBot`` ("heuristic"): for each action, a few determinisations
  play the action out (the decisions inside its dogma as the bots really
  answer them: the greedy bot's answers, ``quick_answer``) and an
  evaluation scores the result: achievements, then points, top cards, icons,
  splays, achievements within reach and a kept hand. It never uses the same
  dogma twice in a turn when an opponent shares it. Its other decisions are
  the greedy bot's.
- ``SearchBot`` ("search"): information-set Monte Carlo tree search. Each
  iteration plays one determinisation: it walks a tree of the bot's own
  actions (UCB1 counted over the actions available in that sample), then
  plays on with the quick policy (``quick_action``, and ``quick_answer``
  inside dogmas) for a few actions and scores the position
  with the same evaluation. At the root it compares the actions by
  sequential halving over paired worlds (``root="halving"``, the default):
  every action still in contention is played in the same sampled worlds,
  and each round keeps the better half. ``root="ucb"`` is plain UCB1 at the
  root too, a fresh world per iteration. Seeded; budgeted by iterations or
  by seconds per decision. With ``prune`` it searches only the heuristic's
  best few actions at the root.
"""
from __future__ import annotations

import copy
import math
import pickle
import random
import time
import weakref

from ..api.game import load_game_bundle
from ..machine.expressions import derived_achievements, points
from ..rules.engine import Engine
from ..state import teams as T
from ..state.board import board_table, top_cards
from ..state.cards import Cards
from ..state.positions import new_state
from .simple import GreedyBot, greedy_dogma_answer

_BUNDLES: dict = {}


def _cards_for(edition: str, sets=()) -> tuple[dict, Cards]:
    """The bundle of an edition with the sets in play (a view names them), and its card table."""
    key = (edition, tuple(sets))
    if key not in _BUNDLES:
        bundle = load_game_bundle(edition, tuple(sets))
        _BUNDLES[key] = (bundle, Cards(bundle))
    return _BUNDLES[key]


# ---------------------------------------------------------------- determinisation

class Sampler:
    """Determinisation for one decision's view: what the view fixes is read once; each ``sample`` fills
    the hidden slots afresh (the same draws, in the same order, as ``determinise``)."""

    def __init__(self, bundle: dict, cards: Cards, view: dict, keep_specials: bool = False):
        self.n = n = len(view["players"])
        names = [p["name"] for p in view["players"]]
        self.base = base = new_state(cards, names, 0)
        seen: set[int] = set()
        self.fixed = []   # per player: its board, revealed cards and whichever of hand/score it can see
        self.hidden = []  # per player: the ages of the hidden hand and score, and of its achievements
        for pv in view["players"]:
            board = {color: ([c["id"] for c in pile["cards"]], pile["splay"]) for color, pile in pv["board"].items()}
            for ids, _ in board.values():
                seen.update(ids)
            revealed = [c["id"] for c in pv["revealed"]]
            seen.update(revealed)
            shown, ages = {}, {}
            for zone in ("hand", "score"):
                if isinstance(pv[zone], list):
                    shown[zone] = [c["id"] for c in pv[zone]]
                    seen.update(shown[zone])
                else:
                    ages[zone] = list(pv[zone]["ages"])
            self.fixed.append((pv.get("eliminated", False), board, revealed, shown))
            self.hidden.append((ages, list(pv["achievements"]["ages"]), list(pv["achievements"]["special"])))
        # the sets' game-wide zones: the cards everyone sees stay; face-down ones are sampled by age
        self.shared = {z: ([c["id"] for c in zv["cards"]], None) if "cards" in zv else ([], list(zv.get("ages", [])))
                       for z, zv in (view.get("zones") or {}).items()}
        for ids, _ in self.shared.values():
            seen.update(ids)
        pool: dict[int, list[int]] = {}
        for c in range(len(cards.cards)):
            if c not in seen:
                pool.setdefault(cards.age[c], []).append(c)
        self.pool = pool
        self.standard = list(view["available"]["standard"])
        self.special = list(view["available"]["special"]) if keep_specials else []
        self.junk = list(view["junk"]["ages"])
        self.junk_special = list(view["junk"].get("special", []))
        self.supply = [(age, count) for age, count in view["supply"].items()]
        self.set_supply = [(name, list(piles.items())) for name, piles in (view.get("set_supply") or {}).items()]
        self.card_set = cards.set
        self.options = dict(view.get("options") or {})
        self.teams = ([list(t["players"]) for t in view["teams"]], list(view["seating"])) if view.get("teams") else None
        t = view["turn"]
        self.turn = (t["number"], t["active"], t["actions_left"])

    def _take_set(self, pool: dict, name: str, age: int, take) -> int:
        cs = pool.get(age) or []
        for i in range(len(cs) - 1, -1, -1):
            if self.card_set[cs[i]] == name:
                return cs.pop(i)
        return take(age)

    def sample(self, rng: random.Random) -> dict:
        n = self.n
        st = dict(self.base)   # the fixed parts are copied where the rules may change them
        st["players"] = players = [dict(pl) for pl in self.base["players"]]
        for pl in players:
            if "zones" in pl:
                pl["zones"] = {z: [] for z in pl["zones"]}
        if "set_supply" in st:
            st["sets"] = list(st["sets"])
            st["set_supply"] = {name: {} for name in st["set_supply"]}
        pool = {age: list(cs) for age, cs in self.pool.items()}
        for cs in pool.values():
            rng.shuffle(cs)

        def take(age: int) -> int:
            cs = pool.get(age) or next((v for v in pool.values() if v), None)
            return cs.pop()
        for name, piles in self.set_supply:   # first: a set's pile holds that set's cards
            for age, count in piles:
                st["set_supply"][name][age] = [self._take_set(pool, name, int(age), take) for _ in range(count)]
        for pl, (eliminated, board, revealed, shown) in zip(players, self.fixed):
            pl["eliminated"] = eliminated
            pl["board"] = {color: {"cards": [], "splay": "none"} for color in pl["board"]}
            pl["board"].update((color, {"cards": list(ids), "splay": splay}) for color, (ids, splay) in board.items())
            pl["revealed"] = list(revealed)
            for zone, ids in shown.items():
                pl[zone] = list(ids)
        for pl, (ages, ach_ages, ach_special) in zip(players, self.hidden):
            for zone in ("hand", "score"):
                if zone in ages:
                    pl[zone] = [take(a) for a in ages[zone]]
            pl["achievements"] = [take(a) for a in ach_ages] + list(ach_special)
        st["available"] = {"standard": [take(a) for a in self.standard], "special": list(self.special)}
        st["junk"] = [take(a) for a in self.junk]
        st["junk_special"] = list(self.junk_special)
        if "zones" in st:
            st["zones"] = {z: list(ids) if ages is None else [take(a) for a in ages]
                           for z, (ids, ages) in self.shared.items()}
        st["supply"] = dict(st["supply"])
        for age, count in self.supply:
            st["supply"][str(age)] = [take(int(age)) for _ in range(count)]
        st["removed"] = [c for cs in pool.values() for c in cs]
        st["options"] = dict(self.options)
        if self.teams:   # team play: the same teams and turn order
            st["teams"] = [list(t) for t in self.teams[0]]
            st["seating"] = list(self.teams[1])
        number, active, actions_left = self.turn
        st["turn"] = {"number": number, "active": active, "actions_left": actions_left,
                      "scored": [0] * n, "tucked": [0] * n}
        st["phase"] = "action"
        st["setup_melds"] = [0] * n
        st["revs"] = [0] * n
        st["seed"] = rng.randrange(1 << 30)
        return st


def determinise(bundle: dict, cards: Cards, view: dict, rng: random.Random, keep_specials: bool = False) -> dict:
    """A full state consistent with `view` (an action decision's view), hidden cards sampled. Unless
    keep_specials, the unclaimed special achievements are left out: testing their conditions after every
    change costs more than they change in a short look-ahead."""
    return Sampler(bundle, cards, view, keep_specials).sample(rng)


_BASE: dict = {}


def engine_from(bundle: dict, state: dict) -> Engine:
    """An engine on a sampled state, sharing the edition's card table (built once)."""
    base = _BASE.get(id(bundle))
    if base is None:
        base = _BASE[id(bundle)] = Engine(bundle, {})
    e = copy.copy(base)
    e.restore(state)
    e.events, e.icon_cache, e.trace = [], {}, None
    e.transactional = False
    e.advance()
    return e


# ---------------------------------------------------------------- evaluation and the quick policy

_VISIBLE: "weakref.WeakKeyDictionary[Cards, dict]" = weakref.WeakKeyDictionary()


def _visible(cards: Cards, pile: dict) -> int:
    """How many icons a pile shows (any kind), memoised by its cards and splay."""
    memo = _VISIBLE.get(cards)
    if memo is None:
        memo = _VISIBLE[cards] = {}
    key = (tuple(pile["cards"]), pile["splay"])
    n = memo.get(key)
    if n is None:
        cs, splay = pile["cards"], pile["splay"]
        n = len(cards.visible_icons(cs[0], splay, True)) + sum(len(cards.visible_icons(c, splay, False)) for c in cs[1:])
        if len(memo) > 50_000:
            memo.clear()
        memo[key] = n
    return n


def evaluate(cards: Cards, st: dict, me: int) -> float:
    """How good the position is for `me`: positive when ahead of the best opponent."""
    res = st.get("result")
    if res:
        return 1000.0 if me in res["winners"] else -1000.0
    vals = []
    avail = sorted(cards.age[c] for c in st["available"]["standard"])
    for p, pl in enumerate(st["players"]):
        if pl.get("eliminated"):
            vals.append(-500.0)
            continue
        tops = [cards.age[c] for c in top_cards(st, p)]
        pts = points(cards, st, p)
        top = max(tops, default=0)
        reach = sum(1 for a in avail if pts >= 5 * a and top >= a)
        icons = sum(_visible(cards, pile) for pile in pl["board"].values() if pile["cards"])
        splays = sum(1 for pile in pl["board"].values() if pile["splay"] != "none" and len(pile["cards"]) > 1)
        held = len(pl["achievements"]) + (derived_achievements(cards, st, p) if cards.cell_achievements else 0)
        v = (60.0 * held + 1.2 * pts + 3.0 * sum(tops) + 4.0 * top + 0.8 * icons
             + 2.0 * splays + 12.0 * min(reach, 2) + 2.5 * min(len(pl["hand"]), 3))
        vals.append(v)
    if T.has_teams(st):   # a team's strength is its players' together; the opponents are the other team
        mine = sum(vals[p] for p in T.team(st, me))
        return mine - sum(vals[p] for p in T.opponents(st, me))
    mine = vals[me]
    best_other = max(v for p, v in enumerate(vals) if p != me)
    return mine - best_other


def quick_action(eng: Engine, rng: random.Random, eps: float = 0.15) -> dict:
    """The quick policy's action: achieve when it can; a higher meld, a dogma nobody shares, or a draw."""
    st, cards = eng.state, eng.cards
    p = st["pending"]["player"]
    options = st["pending"]["options"]
    if rng.random() < eps:
        return rng.choice(options)
    best, best_v = None, -1e9
    tops = {color: (pile["cards"][0] if pile["cards"] else None) for color, pile in st["players"][p]["board"].items()}
    tables: dict = {}   # icon tables, read only if a dogma is offered (kept by the engine per player revision)

    def icons(q: int) -> dict:
        t = tables.get(q)
        if t is None:
            t = tables[q] = board_table(cards, st, q, eng.icon_cache)[1]
        return t
    for o in options:
        t = o["type"]
        if t == "achieve":
            v = 100 + o["age"]
        elif t == "meld":
            cur = tops[cards.color[o["card"]]]
            v = 2 + cards.age[o["card"]] - (cards.age[cur] if cur is not None else 0) * 0.8
        elif t == "dogma":
            icon = cards.cards[o["card"]]["dogma"]
            mine = icons(p).get(icon, 0)
            shared = any(icons(q).get(icon, 0) >= mine for q in T.opponents(st, p))
            v = 3 + 0.4 * cards.age[o["card"]] - (3 if shared else 0)
        else:
            v = 1.5
        v += rng.random()
        if v > best_v:
            best, best_v = o, v
    return best


def quick_answer(eng: Engine, rng: random.Random):
    """Any other decision in a sampled world: inside a dogma, what the bots really answer there (the
    greedy bot's choice, else a legal random one)."""
    d = eng.state["pending"]
    kind, options = d["kind"], d["options"]
    if kind == "action":
        return quick_action(eng, rng)
    if kind != "initial_meld":
        age = eng.cards.age
        answer = greedy_dogma_answer(d, lambda o: age[o] if o.__class__ is int else 0)
        if answer is not None:
            return answer
    if kind in ("initial_meld", "choose_option"):
        return rng.choice(options)
    if kind == "splay_color":
        return rng.choice(options)
    if kind == "order":
        return list(options)
    if kind == "choose" and d.get("max", 1) == 1:
        return rng.choice(options)
    if d.get("one_per_color"):
        first: dict = {}
        for o in rng.sample(options, len(options)):
            first.setdefault(eng.cards.color[o] if isinstance(o, int) else o, o)
        return list(first.values())
    k = rng.choice(d["sizes"]) if "sizes" in d else rng.randint(d["min"], d["max"])
    return rng.sample(options, k)


def play_out(eng: Engine, rng: random.Random, actions: int, limit: int = 400) -> None:
    """Play on with the quick policy until `actions` more actions began (or the game ends)."""
    n = 0
    while eng.state["phase"] != "over" and n < limit:
        d = eng.state["pending"]
        if d["kind"] == "action":
            if actions <= 0:
                return
            actions -= 1
        eng.answer(quick_answer(eng, rng))
        n += 1


def _key(o: dict) -> tuple:
    return (o["type"], o.get("card"), o.get("age"))


def _engine_action(o: dict) -> dict:
    out = {k: v for k, v in o.items() if k in ("type", "age")}
    if "card" in o:
        out["card"] = o["card"]["id"] if isinstance(o["card"], dict) else o["card"]
    return out


# ---------------------------------------------------------------- the bots

class HeuristicBot(GreedyBot):
    name = "heuristic"
    previews = True     # it weighs who would share a dogma
    samples = 4

    def __init__(self, seed: int = 0):
        super().__init__(seed)
        self.used: dict = {"turn": None, "cards": set()}   # the dogmas this bot used this turn

    def scores(self, decision: dict, v: dict) -> list[tuple[dict, float]]:
        """Each allowed action with its evaluation summed over the sampled worlds (less the shared-dogma
        penalty), in the order of the options."""
        me = v["viewer"]
        bundle, cards = _cards_for(v["edition"], v.get("sets") or ())
        options = decision["options"]
        turn = v["turn"]["number"]
        if self.used["turn"] != turn:
            self.used = {"turn": turn, "cards": set()}
        # never the same shared dogma twice in a turn: the opponent would get it twice as well
        allowed = [o for o in options if not (o["type"] == "dogma" and o.get("preview", {}).get("opponents_share")
                                              and o["card"]["id"] in self.used["cards"])] or options
        sampler = self.sampler(bundle, cards, v)
        worlds = [sampler.sample(random.Random(self.rng.randrange(1 << 30))) for _ in range(self.samples)]
        out = []
        for o in allowed:
            total = 0.0
            for w in worlds:
                eng = engine_from(bundle, pickle.loads(pickle.dumps(w, pickle.HIGHEST_PROTOCOL)))
                try:
                    eng.answer(_engine_action(o))
                    play_out(eng, self.rng, 0)
                except Exception:   # a sampled world the action cannot be played in
                    continue
                total += evaluate(cards, eng.state, me)
            if o["type"] == "dogma" and o.get("preview", {}).get("opponents_share"):
                total -= 4.0 * self.samples
            out.append((o, total))
        return out

    def sampler(self, bundle: dict, cards: Cards, v: dict) -> Sampler:
        """The determiniser of this decision's view (made once for the heuristic's scores and the search)."""
        last = getattr(self, "_sampler", None)
        if last is None or last[0] is not v:
            self._sampler = last = (v, Sampler(bundle, cards, v))
        return last[1]

    def chosen(self, o: dict) -> dict:
        if o["type"] == "dogma":
            self.used["cards"].add(o["card"]["id"])
        return o

    def action(self, decision: dict, v: dict):
        best, best_v = None, -1e18
        for o, total in self.scores(decision, v):
            if total > best_v:
                best, best_v = o, total
        return self.chosen(best)


class SearchBot(HeuristicBot):
    """Information-set MCTS over this bot's own actions; budget by ``iterations`` or ``seconds``."""
    name = "search"

    def __init__(self, seed: int = 0, iterations: int | None = None, seconds: float | None = None,
                 depth: int = 4, c: float = 0.2, prune: int = 0, root: str = "halving"):
        super().__init__(seed)
        if root not in ("halving", "ucb"):
            raise ValueError(f"root must be 'halving' or 'ucb', not {root!r}")
        self.prune = prune
        self.root = root
        self.iterations = iterations if iterations is not None else (None if seconds else 300)
        self.seconds = seconds
        self.depth, self.c = depth, c

    def action(self, decision: dict, v: dict):
        options = decision["options"]
        if len(options) == 1:
            return options[0]
        achieves = [o for o in options if o["type"] == "achieve"]
        if achieves:
            return max(achieves, key=lambda o: o["age"])
        me = v["viewer"]
        bundle, cards = _cards_for(v["edition"], v.get("sets") or ())
        root = {"n": 0, "w": 0.0, "avail": 0, "kids": {}}
        start = time.monotonic()   # the heuristic's scoring counts against the budget
        if self.prune:   # only the heuristic's best few actions are searched
            scored = self.scores(decision, v)
            order = sorted(range(len(scored)), key=lambda i: -scored[i][1])   # stable: ties keep the options' order
            options = [scored[i][0] for i in order[:self.prune]]
            if len(options) == 1 or self.iterations == 0:
                return self.chosen(options[0])
        sampler = self.sampler(bundle, cards, v)
        by_key = {_key(_engine_action(o)): o for o in options}
        root["only"] = set(by_key)
        if self.root == "halving":
            k = self._halving(sampler, bundle, cards, root, by_key, me, start) if self.iterations != 0 else None
            return self.chosen(by_key[k]) if k is not None else super().action(decision, v)
        it, longest = 0, 0.0
        while True:
            if self.iterations is not None and it >= self.iterations:
                break
            now = time.monotonic()
            if self.seconds is not None and now - start + longest >= self.seconds:   # no iteration overruns it
                break
            it += 1
            rng = random.Random(self.rng.randrange(1 << 30))
            eng = engine_from(bundle, sampler.sample(rng))
            self._iterate(eng, root, me, cards, rng)
            longest = max(longest, time.monotonic() - now)
        scored = [(k, node) for k, node in root["kids"].items() if k in by_key and node["n"]]
        if not scored:
            return super().action(decision, v)
        k, _ = max(scored, key=lambda kv: (kv[1]["n"], kv[1]["w"] / kv[1]["n"]))
        return self.chosen(by_key[k])

    def _halving(self, sampler: Sampler, bundle: dict, cards: Cards, root: dict, by_key: dict, me: int,
                 start: float) -> tuple | None:
        """Sequential halving at the root over paired worlds. Each round samples worlds and plays every
        surviving action in each of them (the same world and the same play-out seed for all), then keeps
        the better half by mean score. Comparing actions in the same worlds cancels most of the luck of
        the hidden cards, which otherwise swamps the differences between actions; halving spends the
        budget on the actions still in contention. Budgeted by iterations, each round gets an equal share
        of them; by seconds, an equal share of the time, and no world is begun that would overrun it.
        None when no world could be played (the caller falls back to the heuristic)."""
        alive = list(by_key)
        rounds = max(1, math.ceil(math.log2(len(alive))))
        total = {k: [0, 0.0] for k in alive}
        longest = 0.0   # the longest single play-out so far: a world costs about that per action alive
        for r in range(rounds):
            if self.iterations is not None:
                worlds, deadline = max(1, self.iterations // (rounds * len(alive))), None
            else:
                worlds, deadline = 1 << 30, start + self.seconds * (r + 1) / rounds
            for _ in range(worlds):
                if deadline is not None and time.monotonic() + longest * len(alive) >= deadline:
                    break
                seed, play = self.rng.randrange(1 << 30), self.rng.randrange(1 << 30)
                world = pickle.dumps(sampler.sample(random.Random(seed)), pickle.HIGHEST_PROTOCOL)
                for k in alive:
                    t = time.monotonic()
                    eng = engine_from(bundle, pickle.loads(world))   # the same world for every action
                    value = self._iterate(eng, root, me, cards, random.Random(play), first=k)
                    longest = max(longest, time.monotonic() - t)
                    if value is not None:
                        total[k][0] += 1
                        total[k][1] += value
            played = [k for k in alive if total[k][0]]
            if not played:
                return None
            # the best mean first; ties keep the options' order
            played.sort(key=lambda k: -total[k][1] / total[k][0])
            alive = played[:max(1, (len(played) + 1) // 2)]
            if len(alive) == 1:
                break
        return alive[0]

    def _iterate(self, eng: Engine, root: dict, me: int, cards: Cards, rng: random.Random,
                 first: tuple | None = None) -> float | None:
        path = [root]
        node = root
        left = self.depth
        try:
            while eng.state["phase"] != "over" and left > 0:
                d = eng.state["pending"]
                if d["kind"] != "action" or d["player"] != me or node is None:
                    if d["kind"] == "action":
                        left -= 1
                        if left <= 0:
                            break
                    eng.answer(quick_answer(eng, rng))
                    continue
                left -= 1
                legal = {_key(o): o for o in d["options"]}
                if node is root:
                    legal = {k: o for k, o in legal.items() if k in root["only"]} or legal
                    if first is not None:
                        if first not in legal:
                            return None
                        child = node["kids"].setdefault(first, {"n": 0, "w": 0.0, "avail": 0, "kids": {}})
                        child["avail"] += 1
                        node = child
                        path.append(child)
                        eng.answer(legal[first])
                        continue
                for k in legal:
                    kid = node["kids"].setdefault(k, {"n": 0, "w": 0.0, "avail": 0, "kids": {}})
                    kid["avail"] += 1
                fresh = [k for k in legal if node["kids"][k]["n"] == 0]
                if fresh:
                    k = rng.choice(fresh)
                    child = node["kids"][k]
                    path.append(child)
                    eng.answer(legal[k])
                    node = None            # expanded one node: the rest is the play-out
                    continue
                k = max(legal, key=lambda k: node["kids"][k]["w"] / node["kids"][k]["n"]
                        + self.c * 40 * math.sqrt(math.log(node["kids"][k]["avail"]) / node["kids"][k]["n"]))
                node = node["kids"][k]
                path.append(node)
                eng.answer(legal[k])
            play_out(eng, rng, left)
            value = evaluate(cards, eng.state, me)
        except Exception:   # a sampled world that the rules cannot continue: count nothing
            return None
        value = max(-200.0, min(200.0, value))
        for n in path:
            n["n"] += 1
            n["w"] += value
        return value

