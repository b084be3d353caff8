"""Terminal play: ``innoscript play``, hot-seat or against any of the project's bots.

Each decision shows the deciding player's view: every board (colour piles
with their top card's icons and, when splayed, the icons the splay reveals;
a set's cell with its number: Echoes' bonus), points (with what the sets add to the score pile's),
achievements, hands (your own cards coloured with their icons, the others' as
ages), the sets' zones (the forecast: its cards to whoever may see them, else
its size and ages), the supply and each set's, the sets' game-wide zones (their
cards, or face down their ages); then the log (cell effects, a set's verbs,
promotions, free dogmas and exchanges marked), each line under the turn it
happened in, with a separator per turn and the whole of the last turn; then the
decision, worded like the web table's (runtime/api/wording.py) with the running
effect's English and numbered options. On a terminal all of it fits one screen:
options that would not fit one a line go in columns, then in pages ('more'), and
the log keeps its latest lines. Icons named in English ('[castle]') are drawn as
their glyphs, or named where the terminal cannot print them.
Commands at the prompt: a number (several, separated by spaces, for a choice
of cards; 0 or an empty line declines when that is allowed), ``card NAME``,
``more``, ``board``, ``save FILE``, ``undo``, ``log``, ``help``, ``quit``; only an
answer (or ``undo``, ``board``) draws the table again, so what a command printed
stays above the prompt.

Seats are ``human`` or a bot name (runtime/bots/); seats left unnamed after
``--bots`` are played by the search bot, the default opponent. Saved games
record seats with the same words in both frontends (``you`` is read as
``human``).
"""
from __future__ import annotations

import json
import math
import re
import sys

from rich.console import Console
from rich.rule import Rule
from rich.text import Text

from innoscript.core.diagnostics import suggest
from ..api.faces import card_catalog
from ..api.game import BadSave, Game
from ..api.wording import card_name
from ..bots import BOTS, answer_for, make_bot
from ..machine.faults import RuntimeFault
from ..rules.engine import IllegalAnswer
from ..rules.sets import report as set_report, warnings as set_warnings

COLORS = {"blue": "bright_blue", "red": "red", "green": "green", "yellow": "yellow", "purple": "magenta"}
GLYPHS = {"crown": ("♛", "yellow"), "leaf": ("❦", "green"), "lightbulb": ("✹", "magenta"), "castle": ("♜", "white"),
          "factory": ("⚙", "red"), "clock": ("◷", "bright_blue"), "avatar": ("☻", "dark_orange"), "hex": ("⬡", "grey50")}
# the glyphs of the sets in play (their manifests' icons and cells), set by the game being played
SET_GLYPHS: dict[str, tuple[str, str]] = {}
# readable names of the sets' icons and cells; those without a glyph of their own (drawn by their initial)
SET_NAMES: dict[str, str] = {}
NO_GLYPH: set[str] = set()
ENCODING = ["utf-8"]     # the terminal's encoding, set by the game being played
ICON_MARK = re.compile(r"\[([a-z][a-z_]*)\]")     # an icon inside a card's English: '[castle]'
HELP = ("Answer with the number of an option (several numbers separated by spaces when choosing cards; 0 or an "
        "empty line declines when that is allowed). Commands: card NAME (read a card), more (the next options "
        "when they do not all fit), board (draw the table again), save FILE, undo, log, help, quit.")
SEAT_WORDS = {"you": "human", "human": "human"}


def card_text(c: dict) -> str:
    return card_name(c)


def seat_kinds(seats: list[str], players: int) -> list[str]:
    """Seats in the one vocabulary (human or a bot name); raise ValueError for an unknown kind or extra seats."""
    out = [SEAT_WORDS.get(s, s) for s in seats]
    bad = [s for s in out if s != "human" and s not in BOTS]
    if bad:
        raise ValueError(f"unknown seat kind {bad[0]!r}: use human or a bot ({', '.join(BOTS)})")
    if len(out) > players:
        raise ValueError(f"{len(out)} seats given for {players} players")
    # seats not named: everyone human when none is named (hot-seat), else the default opponent
    return out + ["search" if out else "human"] * (players - len(out))


def use_set_glyphs(cards) -> None:
    """The glyphs the sets in play give their icons and cells (manifest ``glyph``; else the word's initial)."""
    SET_GLYPHS.clear()
    SET_NAMES.clear()
    NO_GLYPH.clear()
    specs = [(w, spec, "grey70") for n in cards.set_names
             for w, spec in cards.bundle["sets"][n]["manifest"].get("icons", {}).items()]
    specs += [(w, spec, "bold yellow" if spec.get("value") else "cyan") for w, spec in cards.cells.items()]
    for word, spec, style in specs:
        SET_GLYPHS[word] = (spec.get("glyph", word[:1].upper()), style)
        SET_NAMES[word] = spec.get("label", word.replace("_", " "))
        if "glyph" not in spec:
            NO_GLYPH.add(word)


def encodes(text: str, encoding: str) -> bool:
    try:
        text.encode(encoding)
        return True
    except (UnicodeEncodeError, LookupError):
        return False


def shows(glyph: str) -> bool:
    """The terminal can print this glyph (an ASCII one cannot print most)."""
    return encodes(glyph, ENCODING[0])


def dot() -> str:
    return "·" if shows("·") else "-"


def icon_text(text: str, style: str = "") -> Text:
    """English with its icon markers ('[castle]') drawn as glyphs; an icon with no glyph, or one the terminal
    cannot print, by its name. Other brackets ('[3]', a value) stay as written."""
    out = Text(style=style)
    pos = 0
    for m in ICON_MARK.finditer(text):
        word = m.group(1)
        found = GLYPHS.get(word) or SET_GLYPHS.get(word)
        if not found:
            continue
        out.append(text[pos:m.start()])
        g, st = found
        named = word in NO_GLYPH or not shows(g)
        out.append(SET_NAMES.get(word, word.replace("_", " ")) if named else g, style=st)
        pos = m.end()
    out.append(text[pos:])
    return out


def listing(texts: list[str]) -> str:
    """'A', 'A and B', 'A, B and C'; 'no cards' for none."""
    if not texts:
        return "no cards"
    return texts[0] if len(texts) == 1 else f"{', '.join(texts[:-1])} and {texts[-1]}"


def glyphs(icons: list[str], hex_name: str = "hex", values=None) -> Text:
    """Icons as glyphs; a cell with its number ('bonus 3': '+3'; values: the numbers by icon position)."""
    t = Text()
    for k, i in enumerate(icons):
        if not i:                          # a position printed empty, or no featured icon
            t.append("·" if shows("·") else ".", style="dim")
            continue
        g, style = GLYPHS.get(i) or SET_GLYPHS.get(i) or (i[:1].upper(), "bold")
        if not shows(g):                   # two letters: crown, castle and clock share an initial
            g = i[:2].capitalize()
        if values and k < len(values) and values[k] is not None:
            g = f"{g}{values[k]}"
        t.append(g, style=style)
    return t


def card_line(c: dict) -> Text:
    if c.get("hidden") or "special" in c or c.get("token"):      # a token (a museum): its name only
        return Text(card_name(c), style="dim")
    t = Text(f"{c['name']} [{c['age']}] ", style=COLORS.get(c.get("color"), ""))
    t.append_text(glyphs(c.get("icons", []), values=c.get("cell_values")))
    return t


class Terminal:
    def __init__(self, game: Game, seats: list[str], console: Console, seed: int = 0, input_fn=input,
                 log: list | None = None):
        self.game, self.seats, self.con, self.input = game, seats, console, input_fn
        self.bots = {p: make_bot(kind, seed * 31 + p) for p, kind in enumerate(seats) if kind != "human"}
        self.log: list[tuple[int, str]] = list(log or [])      # (turn, line); a save's log goes on
        self.turn = game.state["turn"]["number"]  # the turn the events being noted happen in
        self.catalog = None
        # a terminal shows one screenful per decision; piped output gets everything
        self.fit = console.is_terminal
        self.pages: list[list] = []               # the option list's pages of drawn rows, and the one shown
        self.page = 0
        self.redraw = True                        # the table is drawn again at the next prompt
        use_set_glyphs(game.cards)
        ENCODING[0] = console.encoding

    @property
    def people(self) -> list[int]:
        return [p for p, k in enumerate(self.seats) if k == "human"]

    def texts(self) -> dict:
        if self.catalog is None:
            try:
                cat = card_catalog(self.game.state["edition"], self.game.cards.set_names)
                self.catalog = {c["name"].lower(): c for c in cat["cards"]}
            except Exception:   # cards from other sources: no English at hand
                self.catalog = {}
        return self.catalog

    # ------------------------------------------------------------ drawing
    def show(self, seat: int) -> None:
        """The table as this seat sees it, the log and the decision; on a terminal, fitted to one screen."""
        v = self.game.view(seat)
        board = self.board(seat, v)
        log = self.log_lines(v["turn"]["number"])
        if v.get("decision") is None or v["decision"].get("player") != seat:
            self.out(board + log)
            return
        head, options, tail = self.decision_lines(v, seat)
        if not self.fit:
            self.pages = [[self.row([o], [0]) for o in options]]
            self.out(board + log + head + self.pages[0] + tail)
            return
        measure = self.measure
        room = self.con.height - 1 - sum(map(measure, board + head + tail))    # 1: the prompt
        keep_log = min(sum(map(measure, log)), 4)
        self.pages, self.page = [[self.row([o], [0]) for o in options]], 0
        if sum(map(measure, self.pages[0])) + keep_log > room:
            # in columns; pages (each in its columns) when even those are too long, 'more' shows the next
            cols, avail = self.fit_columns(options), max(room - keep_log, 4)
            size = cols * (avail if math.ceil(len(options) / cols) <= avail else avail - 1)    # 1: the note
            self.pages = [[self.row(r, widths) for r in rows]
                          for rows, widths in (self.layout(options[i:i + size], cols)
                                               for i in range(0, len(options), size))]
        shown = self.pages[0] + ([self.more_note()] if len(self.pages) > 1 else [])
        log_room = room - sum(map(measure, shown))
        self.out(board + self.trim(log, log_room) + head + shown + tail)

    def board(self, seat: int, v: dict) -> list:
        """The boards, hands, zones and supply, one renderable a line."""
        lines: list = []
        t = v["turn"]
        lines.append(Rule(f"Turn {t['number']}: {v['players'][t['active']]['name']} to play, "
                          f"{t['actions_left']} action(s) left; you are {v['players'][seat]['name']}"))
        splays = self.game.cards.splay_positions
        for p, pl in enumerate(v["players"]):
            kind = "you" if p == seat else ("bot: " + self.seats[p] if self.seats[p] != "human" else "human")
            ach = pl["achievements"]
            head = Text(f"{pl['name']} ({kind}): {self.points_text(pl)}, {ach['count']} achievements", style="bold")
            if ach["count"]:
                head.append(f" {' '.join(map(str, ach['ages']))}{' ' if ach['special'] else ''}{', '.join(ach['special'])}",
                            style="")
            if v.get("teams") and "partner" in pl:   # team play: the partner and the pooled achievements
                team = v["teams"][pl["team"]]
                head.append(f"; team with {v['players'][pl['partner']]['name']}: {team['achievements']} achievements, "
                            f"{team['points']} points", style="")
            lines.append(head)
            counts = Text("   icons ")
            for k, n in pl["icons"].items():
                counts.append_text(glyphs([k]))
                counts.append(f"{n} ")
            lines.append(counts)
            for color, pile in pl["board"].items():
                if not pile["cards"]:
                    continue
                top = pile["cards"][0]
                line = Text(f"   {color:7s} ", style=COLORS.get(color, ""))
                line.append_text(card_line(self.full(top)))
                if len(pile["cards"]) > 1:
                    line.append(f"  +{len(pile['cards']) - 1}", style="dim")
                if pile["splay"] != "none":
                    shown = [c["icons"][k] for c in pile["cards"][1:] for k in splays.get(pile["splay"], [])]
                    line.append(f"  splayed {pile['splay']}: ", style="dim")
                    line.append_text(glyphs([i for i in shown if i != self.game.cards.hex]))
                lines.append(line)
            hand = pl["hand"]
            if isinstance(hand, list):
                line = Text("   hand: ")
                for i, c in enumerate(hand):
                    line.append_text(card_line(c))
                    if i < len(hand) - 1:
                        line.append(f" {dot()} ")
                lines.append(line if hand else Text("   hand: -"))
                lines.append(Text(f"   score pile: {', '.join(card_text(c) for c in pl['score']) or '-'}"))
            else:
                lines.append(Text(f"   hand: {hand['count']} card(s), ages {hand['ages']}; "
                                  f"score pile: {pl['score']['count']} card(s)"))
            for name, z in (pl.get("zones") or {}).items():    # a set's zones: the owner sees the cards
                limit = f", at most {z['limit']}" if z.get("limit") is not None else ""
                size = "size hidden" if "count" not in z else f"{z['count']} card(s)"
                line = Text(f"   {name} ({size}{limit}): ")
                if "cards" in z:
                    self.card_list(line, z["cards"])
                elif "ages" in z:
                    line.append(f"ages {' '.join(map(str, z['ages'])) or '-'}")
                lines.append(line)
        supply = "  ".join(f"{a}:{n}" for a, n in v["supply"].items())
        lines.append(Text(f"supply {supply}   achievements available: {' '.join(map(str, v['available']['standard']))}"
                          f"{'; ' + ', '.join(v['available']['special']) if v['available']['special'] else ''}"
                          f"{'   junk: ' + str(v['junk']['count']) if v['junk']['count'] else ''}"))
        for name, piles in (v.get("set_supply") or {}).items():   # each set's own piles
            lines.append(Text(f"{name} supply " + "  ".join(f"{a}:{n}" for a, n in piles.items())))
        for name, z in (v.get("zones") or {}).items():   # the sets' game-wide zones: cards, or backs' ages
            limit = f", at most {z['limit']}" if z.get("limit") is not None else ""
            line = Text(f"the {name} ({z['count']} card(s){limit}): ")
            if "cards" in z:
                self.card_list(line, z["cards"])
            else:
                line.append(f"face down, ages {' '.join(map(str, z.get('ages', []))) or '-'}")
            lines.append(line)
        return lines

    def decision_lines(self, v: dict, seat: int) -> tuple[list, list, list]:
        """The decision worded: its title, effect and warning; its options as (number, label); what follows."""
        d = v["decision"]
        w = d["wording"]
        head = [Text(f"{v['players'][seat]['name']}: ", style="bold cyan").append_text(icon_text(w["title"]))]
        if w.get("effect"):
            head.append(icon_text(f"  “{w['effect']}”", style="italic"))
        if w.get("warning"):
            head.append(icon_text(f"  ! {w['warning']}", style="yellow"))
        options = [(i, icon_text(label)) for i, label in enumerate(w["labels"], 1)]
        if w.get("decline"):
            options.append((0, Text(w["decline"])))
        tail = []
        if w.get("confirm"):
            tail.append(Text(f"  ({w['confirm']}: numbers separated by spaces, {d['min']} to {d['max']})"))
        return head, options, tail

    def measure(self, r) -> int:
        return len(self.con.render_lines(r, pad=False))

    def out(self, items: list) -> None:
        for r in items:
            self.con.print(r)

    def fit_columns(self, options: list) -> int:
        """The most columns of options the width allows."""
        for cols in range(len(options), 1, -1):
            if sum(self.layout(options, cols)[1]) - 3 + 2 <= self.con.width:     # 3: the gap, 2: the indent
                return cols
        return 1

    @staticmethod
    def layout(options: list, cols: int) -> tuple[list, list[int]]:
        """Options numbered down each column: (rows of (number, label), column widths with their gap)."""
        per = math.ceil(len(options) / cols)
        groups = [options[i:i + per] for i in range(0, len(options), per)]
        widths = [max(len(f"{n}. ") + label.cell_len for n, label in g) + 3 for g in groups]
        return [[g[r] for g in groups if r < len(g)] for r in range(per)], widths

    def row(self, cells: list, widths: list[int]) -> Text:
        line = Text("  ")
        for k, (n, label) in enumerate(cells):
            cell = Text(f"{n}. ").append_text(label)
            if k < len(cells) - 1:
                cell.pad_right(widths[k] - cell.cell_len)
            line.append_text(cell)
        return line

    def more_note(self) -> Text:
        return Text(f"  (page {self.page + 1} of {len(self.pages)} of the options: 'more' shows the next; "
                    "any option's number answers)", style="dim")

    def more(self) -> None:
        if len(self.pages) < 2:
            self.con.print("every option is shown above")
            return
        self.page = (self.page + 1) % len(self.pages)
        self.out(self.pages[self.page] + [self.more_note()])

    def trim(self, log: list, room: int) -> list:
        """The log's last lines that fit in `room` under their turn's separator, with a note of how many
        earlier ones 'log' shows."""
        if room < 1:
            return []
        cut, used = len(log), 1                   # 1: the note
        while cut and used + self.measure(log[cut - 1]) <= room:
            cut -= 1
            used += self.measure(log[cut])
        if not cut:
            return log
        kept = log[cut:]
        if kept and not isinstance(kept[0], Rule):      # the kept lines' turn: its separator for their first line
            kept[0] = next(r for r in reversed(log[:cut]) if isinstance(r, Rule))
        dropped = sum(not isinstance(r, Rule) for r in log) - sum(not isinstance(r, Rule) for r in kept)
        return [Text(f"  ({dropped} earlier log line(s): 'log' shows them)", style="dim")] + kept

    def card_list(self, line: Text, faces: list) -> None:
        """A zone's cards on one line, separated by dots ('-' for none)."""
        for i, c in enumerate(faces):
            line.append_text(card_line(self.full(c)))
            if i < len(faces) - 1:
                line.append(f" {dot()} ")
        if not faces:
            line.append("-")

    def full(self, face: dict) -> dict:
        """A view's face with what only the catalog holds (a set card's cell numbers)."""
        entry = self.texts().get(str(face.get("name", "")).lower())
        if entry and "cell_values" in entry and "cell_values" not in face:
            return {**face, "cell_values": entry["cell_values"]}
        return face

    def points_text(self, pl: dict) -> str:
        """The score, and what the sets in play add to the score pile's values (Echoes' bonuses)."""
        ages = [c["age"] for c in pl["score"]] if isinstance(pl["score"], list) else pl["score"]["ages"]
        extra = pl["points"] - sum(ages)
        if not extra:
            return f"{pl['points']} points"
        labels = " and ".join(r["label"] for r in set_report(self.game.cards)) or "the sets"
        return f"{pl['points']} points ({sum(ages)} in the score pile, {extra:+d} from {labels})"

    def show_log(self, turn: int, everything: bool = False) -> None:
        self.out(self.log_lines(turn, everything))

    def log_lines(self, turn: int, everything: bool = False) -> list:
        """The log with a separator per turn: the whole of the previous turn and of this one."""
        out, last = [], None
        for n, line in self.log:
            if not everything and n < turn - 1:
                continue
            if n != last:
                out.append(Rule(f"turn {n}" if n else "set-up", style="dim", align="left"))
                last = n
            out.append(Text(f"  {dot()} {line}", style="dim" if n < turn else ""))
        return out

    VERBS = {"draw": "draws", "meld": "melds", "tuck": "tucks", "score": "scores", "return": "returns",
             "transfer": "transfers", "reveal": "reveals", "keep": "keeps", "junk": "junks", "remove": "removes",
             "achieve": "achieves", "take": "takes", "dogma": "uses the dogma of", "execute": "executes"}
    ZONES = {"hand": "hand", "score": "score pile", "board": "board", "supply": "supply", "revealed": "revealed cards",
             "achievements": "achievements", "junk": "junk"}     # a set's zones are named by their own names

    def note(self, events: list[dict], seat: int | None) -> None:
        names = [pl["name"] for pl in self.game.state["players"]]
        for e in self.game.events_for(events, seat):
            t = e["type"]
            who = names[e["player"]] if isinstance(e.get("player"), int) else ""
            if t == "turn":     # what follows happens in this turn (the state may be turns ahead by now)
                self.turn = e["number"]
                continue
            if t == "effect" and e.get("cell") and isinstance(e.get("card"), dict):
                label = self.game.cards.cells.get(e["cell"], {}).get("label", f"{e['cell']} effect")
                line = f"↳ {label} of {card_text(e['card'])}" + (f" for {who}" if who else "")
            elif t == "look":
                seen = card_text(e["card"]) if not e["card"].get("hidden") else "it"
                line = f"{who} looks at the top card of the {e.get('set')} {e.get('age')} deck: {seen}"
            elif e.get("zone") and t not in self.VERBS and isinstance(e.get("card"), dict):
                line = f"{who} {t}s {card_text(e['card'])}"      # a set's verb into its zone ('foreshadows')
            elif t in ("meld", "tuck") and e.get("verb") and isinstance(e.get("card"), dict):
                # a set's verb that moves as a meld ('promotes ... from their forecast')
                line = f"{who} {e['verb']}s {card_text(e['card'])}" + (f" from their {e['from']}" if e.get("from") else "")
            elif t == "dogma" and isinstance(e.get("card"), dict):
                line = f"{who} uses the {'free dogma' if e.get('free') else 'dogma'} of {card_text(e['card'])}" \
                       + (f" ({e['mark']})" if e.get("mark") else "")
                sharers = [names[q] for q, n in enumerate(e.get("counts", [])) if q != e["player"]
                           and n >= e["counts"][e["player"]]]
                if sharers:
                    line += f" (shared by {', '.join(sharers)})"
            elif "card" in e and isinstance(e["card"], dict) and t in self.VERBS:
                line = f"{who} {self.VERBS[t]} {card_text(e['card'])}"
                if e.get("from"):
                    src = e["from"]
                    owner = e.get("from_player")
                    line += f" from {'their' if owner == e.get('player') or owner is None else names[owner] + chr(39) + 's'}" \
                            f" {self.ZONES.get(src, src)}" if src not in ("supply",) else " from the supply"
                if isinstance(e.get("to"), int) and e["to"] != e.get("player"):
                    line += f" to {names[e['to']]}'s {self.ZONES.get(e.get('zone'), e.get('zone') or '')}"
                elif e.get("zone") == "available":
                    line += " to the available achievements"
            elif t == "achieve":
                line = f"{who} achieves age {e.get('age')}" + (f" from their {e['from']}" if e.get("from") else "")
            elif t == "splay":
                line = f"{who} splays {e['color']} {e['direction']}"
            elif t == "exchange":   # the cards this seat may see by name, the others by age
                def side(key, zone, owner):
                    where = self.ZONES.get(e.get(zone), e.get(zone))
                    whose = "their" if e.get(owner) == e.get("player") else \
                        (names[e[owner]] + "'s" if isinstance(e.get(owner), int) else "")
                    text = listing([card_text(c) for c in e.get(key, [])]) or "nothing"
                    return f"{text} from {whose} {where}" if where else text
                line = f"{who} exchanges {side('cards', 'zone', 'owner')} with {side('other', 'other_zone', 'other_owner')}"
            elif t == "coin_flip":
                line = f"{who} flips a coin and {'wins' if e.get('won') else 'loses'} the flip"
            elif t == "special_achievement":
                line = f"{who} claims {e['name']}"
            elif t == "sharing_bonus":
                line = f"★ {who} gets the sharing bonus (a free draw)"
            elif t == "game_over":
                line = f"game over: {', '.join(names[w] for w in e['winners'])} won by {e['reason'].replace('_', ' ')}"
            else:
                continue
            self.log.append((self.turn, line))

    def read_card(self, name: str) -> None:
        entry = self.texts().get(name.strip().lower())
        if entry is None:
            hint = suggest(name, [c["name"] for c in self.texts().values()])
            self.con.print(f"[red]no card named {name!r}{'; did you mean ' + repr(hint) + '?' if hint else ''}[/red]")
            return
        head = card_line(entry)
        head.append(f"   {entry['color']}, featured icon ")
        head.append_text(glyphs([entry["dogma"]]))
        if entry.get("set", "base") != "base":
            head.append(f", set {entry['set']}")
        self.con.print(head)
        dogma = [e for e in entry["effects"] if e["kind"] != "cell"]
        for boxed in entry.get("cell_effects", []):      # a cell's effect (echo), printed in its own box
            line = Text(f"  {boxed['cell']} ")
            line.append_text(glyphs([boxed["cell"]]))
            line.append(" ").append_text(icon_text(boxed["text"]))
            self.con.print(line)
        for i, e in enumerate(dogma, 1):
            self.con.print(Text(f"  {i}. ").append_text(icon_text(e["text"])))
        if entry.get("face_only"):
            self.con.print(f"  (a card of {entry['face_only']}, a set not in this game: its effects are not here)")
        elif entry.get("no_effect"):
            self.con.print("  (no dogma effect printed)")
        elif not entry["effects"]:
            self.con.print("  (no effects scripted yet)")

    # ------------------------------------------------------------ the loop
    def run(self) -> int:
        game = self.game
        self.redraw = True
        while not game.over:
            d = game.decision
            seat = d["player"]
            if seat in self.bots:
                self.note(game.apply(answer_for(game, self.bots[seat], seat)), self.people[0] if self.people else None)
                self.redraw = True
                continue
            view_d = game.view(seat)["decision"]
            if self.redraw:     # only when the game moved: what a command printed stays above the prompt
                self.show(seat)
                self.redraw = False
            try:
                line = self.input("> ").strip()
            except EOFError:
                return 0
            except KeyboardInterrupt:
                self.con.print("\n(interrupted: 'save FILE' keeps the game, 'quit' leaves)")
                continue
            if not self.command(line, seat, d, view_d["options"], view_d["wording"]):
                return 0
        self.summary()
        return 0

    def summary(self) -> None:
        v = self.game.view(None)
        res = v["result"] or {}
        self.con.print(Rule("Game over"))
        self.show_log(v["turn"]["number"])
        winners = [v["players"][w]["name"] for w in res.get("winners", [])]
        self.con.print(Text(f"{' and '.join(winners)} won by {str(res.get('reason', '')).replace('_', ' ')}",
                            style="bold green"))
        for p, pl in enumerate(v["players"]):
            a = pl["achievements"]
            self.con.print(f"  {pl['name']}: {a['count']} achievements"
                           f"{' (' + ', '.join(a['special']) + ')' if a['special'] else ''}, {pl['points']} points")

    def save(self, path: str) -> bool:
        """Write the game; a failure is reported and play goes on (the game is still in memory)."""
        import os
        text = json.dumps({"game": self.game.to_json(), "seats": self.seats, "log": self.log[-LOG_KEPT:]})
        tmp = f"{path}.{os.getpid()}.tmp"
        try:
            with open(tmp, "w", encoding="utf-8") as f:
                f.write(text)
            os.replace(tmp, path)    # never a half-written save over a good one
        except OSError as err:
            try:
                os.unlink(tmp)
            except OSError:
                pass
            self.con.print(Text(f"cannot save to {path}: {err.strerror or err}; the game goes on, "
                                "try another file", style="red"))
            return False
        self.con.print(f"saved to {path}")
        return True

    def command(self, line: str, seat: int, d: dict, options: list, w: dict | None = None) -> bool:
        game = self.game
        w = w or {}
        words = line.split()
        if words[:1] == ["quit"]:
            return False
        if words[:1] == ["help"]:
            self.con.print(HELP)
            return True
        if words[:1] == ["log"]:
            self.show_log(0, everything=True)
            return True
        if words[:1] == ["more"]:
            self.more()
            return True
        if words[:1] == ["board"]:
            self.redraw = True
            return True
        if words[:1] == ["card"]:
            self.read_card(line.split(None, 1)[1] if len(words) > 1 else "")
            return True
        if words[:1] == ["save"]:
            if len(words) != 2:
                self.con.print("[red]save FILE: one file name, without spaces[/red]")
                return True
            self.save(words[1])
            return True
        if words[:1] == ["undo"]:
            try:
                game.undo(people=self.people)
                self.turn = game.state["turn"]["number"]     # an undone turn's end: back in that turn
                self.log.append((self.turn, "(the last action was taken back)"))
                self.con.print("the last action was taken back")
                self.redraw = True
            except IllegalAnswer as err:
                self.con.print(f"[red]{err}[/red]")
            return True
        try:
            picks = [int(w_) - 1 for w_ in words]
            if any(not -1 <= i < len(options) for i in picks) or (-1 in picks and not w.get("decline")):
                raise ValueError
        except ValueError:
            self.con.print(f"[red]answer with option numbers from 1 to {len(options)}, or 'help'[/red]")
            return True
        raw = d["options"]
        declined = picks == [-1] or (not picks and w.get("decline"))
        if declined:
            answer = None if d["kind"] == "splay_color" else []
        elif -1 in picks:
            self.con.print("[red]0 declines on its own[/red]")
            return True
        elif d["kind"] in ("select_cards", "order") or (d["kind"] == "choose" and d["max"] != 1):
            answer = [raw[i] for i in picks]
        elif len(picks) != 1:
            self.con.print("[red]choose exactly one option[/red]")
            return True
        else:
            answer = raw[picks[0]]
        try:
            self.note(game.apply(answer, seat), seat)
            self.redraw = True
        except (IllegalAnswer, RuntimeFault) as err:    # the answer is undone; the game goes on
            self.con.print(Text(str(err), style="red"))
        return True


def play(edition: str, players: int, seats: list[str], seed: int, load: str | None, console: Console | None = None,
         input_fn=input, options: dict | None = None, sets=()) -> int:
    """sets: the sets in play in a new game (a loaded game keeps its own)."""
    if console is None and hasattr(sys.stdout, "reconfigure") and \
            not encodes("♜·“", sys.stdout.encoding or "utf-8"):
        sys.stdout.reconfigure(errors="replace")   # an ASCII terminal: icons are named, other marks become '?'
    con = console or Console(highlight=False)
    if load:
        try:
            with open(load, encoding="utf-8") as f:
                data = json.load(f)
            if not isinstance(data, dict):
                raise BadSave("a saved game is a JSON object")
            game = Game.load(data["game"] if "game" in data else data)
            seats = data.get("seats") or seats
            if not isinstance(seats, list) or not all(isinstance(s, str) for s in seats):
                raise BadSave("'seats' is a list of seat kinds")
            log = saved_log(data.get("log"))
        except (OSError, ValueError, BadSave, RecursionError) as err:   # JSONDecodeError is a ValueError
            msg = f"{err.strerror}: {err.filename}" if isinstance(err, OSError) and err.strerror else str(err)
            print(f"innoscript play: error: cannot resume {load}: {msg}", file=sys.stderr)
            return 2
    else:
        game, log = Game.new(edition=edition, players=players, seed=seed, options=options, sets=list(sets) or None), []
    for w in set_warnings(game.cards):
        con.print(Text(f"warning: {w}", style="yellow"))
    try:
        seats = seat_kinds(list(seats), len(game.state["players"]))
    except ValueError as err:
        print(f"innoscript play: error: {err}", file=sys.stderr)
        return 2
    return Terminal(game, seats, con, seed, input_fn, log).run()


LOG_KEPT = 2000      # the log lines a save keeps (the latest)


def saved_log(raw) -> list[tuple[int, str]]:
    """A save's log, checked: [turn, line] pairs, at most LOG_KEPT, each line plain text of at most 400
    characters (it is printed as text, never as markup); raise BadSave otherwise. None: no log."""
    if raw is None:
        return []
    if not isinstance(raw, list) or len(raw) > LOG_KEPT:
        raise BadSave(f"'log' is a list of at most {LOG_KEPT} [turn, line] pairs")
    out = []
    for entry in raw:
        if not (isinstance(entry, list) and len(entry) == 2 and isinstance(entry[0], int)
                and not isinstance(entry[0], bool) and 0 <= entry[0] < 10 ** 6 and isinstance(entry[1], str)
                and len(entry[1]) <= 400 and entry[1].isprintable()):
            raise BadSave("'log' entries are [turn, line]: a turn number and a line of printable text")
        out.append((entry[0], entry[1]))
    return out
