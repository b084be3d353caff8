"""Terminal play: ``innoscript play``, hot-seat or against bots.

Each decision shows the deciding player's view (boards with colours, splays
and icon counts, their hand and score pile, the others' counts), the recent
events, and the options numbered.  Commands at the prompt: a number (or
several, separated by spaces, for a choice of cards), ``save FILE``,
``undo``, ``log``, ``help``, ``quit``.
"""
from __future__ import annotations

import json
import random

from rich.console import Console
from rich.text import Text

from .bots import RandomBot
from .game import BadSave, Game
from .engine import IllegalAnswer

COLORS = {"blue": "blue", "red": "red", "green": "green", "yellow": "yellow", "purple": "magenta"}
HELP = ("Answer with the number of an option (several numbers separated by spaces when choosing cards; "
        "an empty line chooses none when that is allowed). Commands: save FILE, undo, log, help, quit.")


def card_text(c: dict) -> str:
    if c.get("hidden"):
        return f"a hidden [{c['age']}]"
    if "special" in c:
        return c["special"]
    return f"{c['name']} [{c['age']}]"


def describe_option(decision: dict, o) -> str:
    kind = decision["kind"]
    if kind == "action":
        t = o["type"]
        if t == "draw":
            return "draw"
        if t == "achieve":
            return f"achieve {o['age']}"
        return f"{t} {card_text(o['card'])}"
    if isinstance(o, dict):
        return card_text(o)
    if kind == "choose_option":
        return f"option {o + 1}"
    return str(o)


class Terminal:
    def __init__(self, game: Game, seats: list[str], console: Console, seed: int = 0, input_fn=input):
        self.game, self.seats, self.con, self.input = game, seats, console, input_fn
        self.bots = {p: RandomBot(seed * 31 + p) for p, kind in enumerate(seats) if kind != "human"}
        self.log: list[str] = []

    # ------------------------------------------------------------ drawing
    def show(self, seat: int) -> None:
        v = self.game.view(seat)
        con = self.con
        t = v["turn"]
        con.rule(f"Turn {t['number']}: {v['players'][t['active']]['name']} to play, "
                 f"{t['actions_left']} action(s) left; you are {v['players'][seat]['name']}")
        for p, pl in enumerate(v["players"]):
            head = Text(f"{pl['name']}{' (you)' if p == seat else ''}: {pl['points']} points, "
                        f"{pl['achievements']['count']} achievements", style="bold")
            con.print(head)
            icons = "  ".join(f"{k} {n}" for k, n in pl["icons"].items() if n)
            con.print(f"   icons: {icons or '-'}")
            for color, pile in pl["board"].items():
                if not pile["cards"]:
                    continue
                top = pile["cards"][0]
                splay = f" splayed {pile['splay']}" if pile["splay"] != "none" else ""
                line = Text(f"   {color:7s}", style=COLORS.get(color, ""))
                line.append(f"{top['name']} [{top['age']}] ({' '.join(top['icons'])})"
                            f"{' +' + str(len(pile['cards']) - 1) if len(pile['cards']) > 1 else ''}{splay}")
                con.print(line)
            hand = pl["hand"]
            if isinstance(hand, list):
                con.print(f"   hand: {', '.join(card_text(c) for c in hand) or '-'}")
                con.print(f"   score pile: {', '.join(card_text(c) for c in pl['score']) or '-'}")
            else:
                con.print(f"   hand: {hand['count']} card(s) {hand['ages']}; score pile: {pl['score']['count']} card(s)")
        con.print(f"achievements available: {v['available']['standard']} and {', '.join(v['available']['special'])}")
        for line in self.log[-8:]:
            con.print(f"  · {line}", style="dim")

    VERBS = {"draw": "draws", "meld": "melds", "tuck": "tucks", "score": "scores", "return": "returns",
             "transfer": "transfers", "reveal": "reveals", "keep": "keeps", "junk": "junks", "remove": "removes",
             "achieve": "achieves", "take": "takes", "dogma": "uses the dogma of", "execute": "executes"}

    def note(self, events: list[dict], seat: int | None) -> None:
        for e in self.game.events_for(events, seat):
            t = e["type"]
            who = self.game.state["players"][e["player"]]["name"] if isinstance(e.get("player"), int) else ""
            if "card" in e and isinstance(e["card"], dict) and t in self.VERBS:
                self.log.append(f"{who} {self.VERBS[t]} {card_text(e['card'])}")
            elif t == "splay":
                self.log.append(f"{who} splays {e['color']} {e['direction']}")
            elif t == "special_achievement":
                self.log.append(f"{who} claims {e['name']}")
            elif t == "game_over":
                names = [self.game.state["players"][w]["name"] for w in e["winners"]]
                self.log.append(f"game over: {', '.join(names)} win(s) by {e['reason']}")

    # ------------------------------------------------------------ the loop
    def run(self) -> int:
        game = self.game
        while not game.over:
            d = game.decision
            seat = d["player"]
            if seat in self.bots:
                self.note(game.apply(self.bots[seat].answer(d, game.cards)), None)
                continue
            self.show(seat)
            view_d = game.view(seat)["decision"]
            self.con.print(Text(f"{game.state['players'][seat]['name']}: {view_d.get('prompt', d['kind'])}"
                                f"{' (from ' + d['source'] + ')' if d.get('source') else ''}", style="bold cyan"))
            options = view_d["options"]
            for i, o in enumerate(options, 1):
                self.con.print(f"  {i}. {describe_option(d, o)}")
            if d["kind"] in ("select_cards", "choose") and d["max"] != 1 or d["kind"] == "order":
                self.con.print(f"  (choose {d['min']} to {d['max']}: numbers separated by spaces)")
            try:
                line = self.input("> ").strip()
            except EOFError:
                return 0
            if not self.command(line, seat, d, options):
                return 0
        self.con.print(self.log[-1] if self.log else "game over")
        return 0

    def command(self, line: str, seat: int, d: dict, options: list) -> bool:
        game = self.game
        words = line.split()
        if words[:1] == ["quit"]:
            return False
        if words[:1] == ["help"]:
            self.con.print(HELP)
            return True
        if words[:1] == ["log"]:
            for l in self.log:
                self.con.print(f"  · {l}")
            return True
        if words[:1] == ["save"] and len(words) == 2:
            with open(words[1], "w", encoding="utf-8") as f:
                json.dump({"game": game.to_json(), "seats": self.seats}, f)
            self.con.print(f"saved to {words[1]}")
            return True
        if words[:1] == ["undo"]:
            try:
                game.undo()
                self.con.print("the last action was taken back")
            except IllegalAnswer as err:
                self.con.print(f"[red]{err}[/red]")
            return True
        try:
            picks = [int(w) - 1 for w in words]
            if any(not 0 <= i < len(options) for i in picks):
                raise ValueError
        except ValueError:
            self.con.print(f"[red]answer with option numbers from 1 to {len(options)}, or 'help'[/red]")
            return True
        raw = d["options"]
        if d["kind"] in ("select_cards", "order") or (d["kind"] == "choose" and d["max"] != 1):
            answer = [raw[i] for i in picks]
        elif d["kind"] == "splay_color" and not picks and d.get("optional"):
            answer = None
        elif len(picks) != 1:
            self.con.print("[red]choose exactly one option[/red]")
            return True
        else:
            answer = raw[picks[0]]
        try:
            self.note(game.apply(answer, seat), seat)
        except IllegalAnswer as err:
            self.con.print(f"[red]{err}[/red]")
        return True


def play(edition: str, players: int, seats: list[str], seed: int, load: str | None, console: Console | None = None,
         input_fn=input) -> int:
    con = console or Console(highlight=False)
    if load:
        try:
            with open(load, encoding="utf-8") as f:
                data = json.load(f)
            game = Game.load(data["game"] if "game" in data else data)
            seats = data.get("seats", seats)
        except (OSError, json.JSONDecodeError, BadSave, KeyError) as err:
            con.print(f"[red]cannot resume {load}: {err}[/red]")
            return 1
    else:
        game = Game.new(edition=edition, players=players, seed=seed)
    seats = (seats + ["human"] * players)[:len(game.state["players"])]
    return Terminal(game, seats, con, seed, input_fn).run()
