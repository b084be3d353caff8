"""The machine: verified bytecode run against a game.

- ``vm``: the reference interpreter, resumable at any decision;
- ``tier``: the compiled tier (hot chunks translated into Python functions),
  and ``run``, which runs a frame on whichever tier applies;
- ``builtins``: the builtin functions' implementations;
- ``frames``: one running effect, hook or condition, as JSON;
- ``faults``: why a frame stops other than by finishing (a decision to wait
  for, the end of the game, a card's error at run time);
- ``expressions``: the sets' manifest expressions (draw rule, score, zone
  limits) run outside any action, and the score they add to.

The machine makes no move of its own: instructions that move cards or ask a
player call the engine, its *host* (runtime/rules/engine.py), which is
passed in and never imported.
"""
