"""Builtin functions callable from card scripts: name, argument types,
result type and a one-line doc.  The resolver checks calls against this
table, the VM implements each entry (runtime/machine/builtins.py) and the docs
list it.  Types: int, bool, cards, color, colors, player, players, icon,
values, str, any, and cell (a word of a cell a set in play declares,
manifest "cells").
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Builtin:
    name: str
    args: tuple[str, ...]
    result: str
    doc: str
    variadic: bool = False
    hex: bool = False        # its icon argument may be the hex (music notes and other hex-like icons count)


BUILTINS: dict[str, Builtin] = {b.name: b for b in [
    Builtin("count", ("any",), "int", "how many cards, colours, values or players"),
    Builtin("value", ("cards",), "int", "the value of a card (the total value of several; 0 for none)"),
    Builtin("highest", ("cards",), "int", "the highest value among the cards (0 for none); of a list of values, the highest "
                                          "value: highest(cell_values(CELL, your board))"),
    Builtin("lowest", ("cards",), "int", "the lowest value among the cards (0 for none)"),
    Builtin("count_player", ("player",), "int", "how many players a player expression names: 1, or 0 for none "
                                                "(written 'count(P)': the single player with the most, when there is one)"),
    Builtin("highest_value", ("values",), "int", "the highest of a list of values (0 for none; written 'highest(VALUES)')"),
    Builtin("lowest_value", ("values",), "int", "the lowest of a list of values (0 for none; written 'lowest(VALUES)')"),
    Builtin("color", ("cards",), "color", "the colour of a card (the first of several)"),
    Builtin("colors", ("cards",), "colors", "the different colours among the cards, in colour order"),
    Builtin("values_of", ("cards",), "values", "the different values among the cards"),
    Builtin("values", ("int",), "values", "a list of values: values(7, 8)", variadic=True),
    Builtin("icons", ("icon", "cards"), "int", "how many of the icon the cards show (visible icons for board cards; "
                                               "'hex' counts hexes, music notes included)", hex=True),
    Builtin("top", ("cards", "color"), "cards", "the top card of that colour among board cards"),
    Builtin("pile", ("player", "color"), "cards", "the player's pile of that colour, top first"),
    Builtin("first", ("cards", "int"), "cards", "the first n of an ordered set (a pile: its top n cards)"),
    Builtin("below", ("cards", "int"), "cards", "all but the first n of an ordered set (a pile: the cards under its top n)"),
    Builtin("last", ("cards", "int"), "cards", "the last n of an ordered set (a pile: its bottom n cards)"),
    Builtin("splayed", ("str",), "colors", "colours of your board splayed in a direction ('left', 'right', 'up', 'aslant', 'any')"),
    Builtin("splayable", ("player", "str"), "colors", "the colours of the player's board that could be splayed in a "
                                                       "direction now (two or more cards, not already splayed so)"),
    Builtin("splay_of", ("player", "color"), "str", "the splay direction of a player's pile ('none' when unsplayed)"),
    Builtin("points", ("player",), "int", "the player's score (total value of the score pile)"),
    Builtin("achievements", ("player",), "int", "how many achievements the player has"),
    Builtin("demand_effects", ("cards",), "int", "how many of the cards have a demand effect"),
    Builtin("owner", ("cards",), "player", "the player whose zone holds the card"),
    Builtin("scored_this_turn", ("player",), "int", "cards the player scored this turn"),
    Builtin("tucked_this_turn", ("player",), "int", "cards the player tucked this turn"),
    Builtin("drawn_this_turn", ("player",), "int", "cards that left a deck for the player this turn (every draw, "
                                                   "'draw and ...' too; the set-up's draws are no turn's): a draw "
                                                   "rule's 'first draw of a turn'"),
    Builtin("turn_number", (), "int", "the turn's number: 0 while the game is set up, 1 for the first turn"),
    Builtin("left_of", ("player",), "player", "the player to a player's left: the next in turn order still in the game"),
    Builtin("right_of", ("player",), "player", "the player to a player's right: the previous in turn order still in "
                                               "the game"),
    Builtin("featured_icon", ("cards",), "icon", "the featured icon a card prints for its dogma (the first of several; "
                                                 "compare it: featured_icon(it) == i)"),
    Builtin("has", ("cards", "icon"), "bool", "whether any of the cards shows the icon (for an icon chosen at run time)"),
    Builtin("all_colors", (), "colors", "every colour of the edition"),
    Builtin("all_icons", (), "icons", "every icon of the edition (the hex excluded)"),
    Builtin("ages", (), "values", "every age of the edition"),
    Builtin("this_card", (), "cards", "the card whose effect is running (written 'this card')"),
    Builtin("beneath", ("cards",), "cards", "the card directly beneath each card in its pile, or beneath where it was "
                                            "when this effect moved it off a pile (written 'the card beneath X')"),
    Builtin("all_beneath", ("cards",), "cards", "every card beneath the cards in their pile, or beneath where they were "
                                                "when this effect moved them off (written 'all cards beneath X')"),
    Builtin("above", ("cards",), "cards", "the card directly above each card in its pile (written 'X is directly "
                                          "under ...')"),
    Builtin("your_turn", (), "bool", "whether the performer ('you') is the player whose turn it is (written 'it is your turn')"),
    Builtin("was_marked", ("str",), "bool", "whether this card's execution carries a Dogma mark a set declares (written 'this card was MARK', after a free Dogma 'dogma X, MARK')"),
    Builtin("set", ("cards",), "str", "the set a card belongs to ('base' for the base game; the first of several)"),
    Builtin("cell_value", ("cell", "cards"), "int", "the number a card prints in a set's value cell (0 for none; the "
                                                     "highest of several): 'cell_value(CELL, drawn)'"),
    Builtin("cell_values", ("cell", "cards"), "values", "every visible number of that cell on board cards (every printed "
                                                        "one elsewhere), one per cell: 'cell_values(CELL, your board)'"),
    Builtin("cell_effects", ("cell", "cards"), "int", "how many effects of that effect cell the cards show (visible ones "
                                                      "for board cards): 'cell_effects(CELL, pile(you, red))'"),
    Builtin("cell_score", ("cell", "player"), "int", "the points the cell adds to the player's score, by its set's "
                                                     "rule (manifest cells.CELL.score): 'cell_score(CELL, you)'"),
    Builtin("hex_position", ("cards",), "int", "the icon position of a card's hex, counted from 1 in the edition's "
                                               "icon_positions (0 for none or no card): two cards whose hexes are in the "
                                               "same position have the same number"),
    Builtin("draw_age", ("int",), "int", "the age a draw of that value would come from now: the first base age at "
                                         "or above it with cards (0 past the last age)"),
    Builtin("boards_during_action", ("cards",), "players", "the players whose boards the card has been on during "
                                                           "this action, the one it is on now included (written "
                                                           "'the boards X has been on this action')"),
    Builtin("board_at_start", ("cards",), "player", "the player whose board the card was on when this action started "
                                                    "(none when it was on no board)"),
    Builtin("max", ("int",), "int", "the largest of the numbers: max(0, n - 1)", variadic=True),
    Builtin("min", ("int",), "int", "the smallest of the numbers: min(3, count(your hand))", variadic=True),
    Builtin("splay_rank", ("str",), "int", "a splay direction's rank: 'none' 0, then its place in the edition's splay_order (left 1, right 2, up 3, aslant 4)"),
    Builtin("highest_splay", ("player",), "str", "the player's highest-ranked splay direction ('none' when nothing is splayed)"),
    Builtin("eligible", ("cards",), "bool",
            "whether you may achieve the card now: the Achieve action's test on its value (every card, at least one)"),
    Builtin("alphabetically_before", ("cards", "cards"), "bool",
            "whether the first cards' names (every one, at least one) come before the second's (its first card's) in "
            "the alphabet: letters only, case and accents ignored (written 'X comes before Y in the alphabet' in English)"),
    Builtin("sets", (), "any", "the card types (sets) of this game: 'base', then each set in play (the options of "
                                "'choose set as s')"),
    Builtin("home", ("cards",), "str", "the game-wide zone that is a card's home (manifest 'return_to_home'; "
                                       "'' for none): home(it) == \"vault\""),
    Builtin("in_play", ("cards",), "bool", "whether the cards' types (sets) are all the game's: the base game's or a "
                                           "set in play (a card a set carries may be of a type not in play)"),
    Builtin("same_icons", ("cards", "cards"), "bool",
            "whether each of the first cards prints exactly the icons, in type and number, of one of the second "
            "cards (the hex and non-icon cells aside): same_icons(it, your top cards)"),
    Builtin("cell_at", ("cards", "str"), "str", "the word a card prints at an icon position, named as the manifests "
                                                "name it ('' for none or an empty position): cell_at(melded, \"top_middle\")"),
    Builtin("icon_at", ("cards", "str"), "icon", "the icon a card prints at an icon position (none when it prints the "
                                                 "hex, a set's cell or nothing there): has(X, icon_at(X, \"top_middle\"))"),
    Builtin("cell_count", ("cell", "cards"), "int", "how many of that cell the cards show (visible ones for board "
                                                    "cards, every printed one elsewhere): cell_count(CELL, your board)"),
    Builtin("cell_printed", ("cell", "cards"), "int", "how many of that cell the cards print, wherever they are "
                                                      "(shown or not): cell_printed(CELL, tucked)"),
    Builtin("visible_cards", ("player", "color"), "int", "how many cards of the player's pile of that colour are "
                                                         "visible: its top card, and every card under it when the "
                                                         "pile is splayed"),
    Builtin("changes", (), "int", "how many changes the game has had so far in this dogma action (a card moved, drawn "
                                  "or revealed, a splay, a pile reordered: what the sharing bonus counts); 0 outside "
                                  "one. 'if this caused a change' compares it before and after the statement before it"),
]}
