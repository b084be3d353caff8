"""The rules: one game's decisions, answers and main loop, one module per rule.

``engine.Engine`` is the decision loop; it is composed of one mixin per
rule, each independent of the others:

- ``turn``: set-up, turns and the four actions;
- ``dogma``: the Dogma action: sharing, demands, executing other cards;
- ``moves``: card moves (meld, tuck, score, transfer, splay, ...);
- ``supply``: the supply piles, the deal and drawing;
- ``choices``: the choices effects ask (cards, colours, values, options);
- ``chance``: the game's seeded coin ('flip a coin');
- ``achievements``: claims, special achievements, winning and losing.

Below them: ``hooks`` (where a set's rules run), ``sets`` (what the sets in
play declare), ``zones`` (the sets' per-player zones), ``options`` (the table
options) and ``invariants`` (what every position must satisfy, checked in
checked mode).

Everything that differs between editions and sets is data, read from the
bundle: nothing here names a card, a set or an edition.
"""
