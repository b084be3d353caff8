"""A game at its first action whose active player has Writing on top with a script of the test's own."""
import json

from innoscript.compiler.bundle import compile_card, vocabulary
from innoscript.core.editions import load_edition
from innoscript.runtime import Game
from innoscript.runtime.bots import RandomBot
from innoscript.runtime.state.positions import place, remove_from_anywhere

HEAD = 'card "Writing" {\n age 1\n color blue\n icons hex lightbulb lightbulb crown\n dogma lightbulb\n}\n'


def game_with_writing(bundle, script: str) -> tuple[Game, int]:
    """A game at its first action, the active player's blue top card being Writing with this script."""
    ed = load_edition("3e")
    data = compile_card(HEAD + script, "test.inno", vocabulary(ed.manifest, ed.card_names)).data
    b = json.loads(json.dumps(bundle))
    wid = next(c["id"] for c in b["cards"] if c["name"] == "Writing")
    b["cards"][wid]["effects"] = data["effects"]
    game = Game.new(players=2, seed=1, bundle=b)
    bot = RandomBot(1)
    while game.decision["kind"] == "initial_meld":
        game.apply(bot.answer(game.decision, game.cards))
    st = game.state
    p = st["turn"]["active"]
    remove_from_anywhere(st, wid)
    place(game.cards, st, wid, "board", p)
    st["pending"]["options"] = game.engine.compute_legal_actions(p)
    return game, wid
