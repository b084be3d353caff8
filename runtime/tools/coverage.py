"""Bytecode coverage of the scenarios, from the VM's pc trace.

For every card effect: which instructions ran, and which outcomes of each
branch (JUMP_IF_FALSE, JUMP_IF_TRUE, FOR_NEXT: falling through or jumping)
were taken, over all the passing and failing scenarios of an edition (and the
sets in play: each card says its set, and the totals are also given per set).
"""
from __future__ import annotations

import html
from pathlib import Path

from innoscript.compiler.bundle import load_bundle
from innoscript.core import opcodes as O
from innoscript.core.effects import effect_labels
from innoscript.core.editions import source_path
from .catalog import default_scenario_dir
from .scenario import ScenarioError, run

BRANCHES = {O.JUMP_IF_FALSE, O.JUMP_IF_TRUE, O.FOR_NEXT}
# What each outcome means in the script, for authors: (falling through, jumping).
MEANING = {O.JUMP_IF_FALSE: ("the condition true", "the condition false"),
           O.JUMP_IF_TRUE: ("the condition false", "the condition true"),
           O.FOR_NEXT: ("the loop's body run", "the loop finished")}


def measure(edition: str, scenario_dir: Path | None = None, sets=()) -> dict:
    bundle = load_bundle(edition, sets=sets)
    set_names = sorted(bundle.get("sets", {}))
    trace: set = set()
    scenario_dir = scenario_dir or default_scenario_dir(bundle["edition"], set_names)
    files = sorted(scenario_dir.rglob("*.yaml")) if scenario_dir.exists() else []
    ran = 0
    for f in files:
        try:
            run(f, bundle, trace)
            ran += 1
        except ScenarioError:
            pass
    cards = []
    totals = {"instructions": 0, "executed": 0, "branches": 0, "branches_taken": 0}
    for card in bundle["cards"]:
        effects = []
        labels = effect_labels(card["effects"])
        for e, chunk in enumerate(card["effects"]):
            code = chunk["code"]
            executed = sorted(pc for pc in range(len(code)) if (card["id"], e, pc) in trace)
            branches = []
            for pc, ins in enumerate(code):
                if ins[0] in BRANCHES:
                    target = ins[-1]
                    for dest, label, meaning in zip((pc + 1, target), ("fall through", "jump"), MEANING[ins[0]]):
                        branches.append({"pc": pc, "line": chunk["lines"][pc][0], "outcome": label,
                                         "meaning": meaning, "taken": (card["id"], e, pc, dest) in trace})
            eff = {"effect": e + 1, "label": labels[e], "instructions": len(code), "executed": len(executed),
                   "executed_pcs": executed, "branches": len(branches),
                   "branches_taken": sum(b["taken"] for b in branches), "branch_detail": branches}
            for k in totals:
                totals[k] += eff[k]
            effects.append(eff)
        cards.append({"name": card["name"], "set": card.get("set") or "base", "age": card["age"],
                      "source": card["source"], "effects": effects})
    out = {"edition": bundle["edition"], "scenarios": ran, "cards": cards, "totals": totals, "bundle": bundle}
    if set_names:
        out["sets"] = set_names
        out["totals_by_set"] = {name: _totals([c for c in cards if c["set"] == name]) for name in ["base", *set_names]}
    return out


def _totals(cards: list[dict]) -> dict:
    return {k: sum(e[k] for c in cards for e in c["effects"])
            for k in ("instructions", "executed", "branches", "branches_taken")}


def only(result: dict, cards: list[dict]) -> dict:
    """The result narrowed to some cards, totals recounted (the bundle kept for the HTML report)."""
    names = {c["name"] for c in cards}
    bundle = dict(result["bundle"], cards=[c for c in result["bundle"]["cards"] if c["name"] in names])
    out = dict(result, cards=cards, totals=_totals(cards), bundle=bundle)
    if "totals_by_set" in result:
        out["totals_by_set"] = {s: _totals([c for c in cards if c["set"] == s]) for s in result["totals_by_set"]}
    return out


def percent(a: int, b: int) -> float:
    return round(100.0 * a / b, 1) if b else 100.0


def html_report(result: dict) -> str:
    bundle = result["bundle"]
    t = result["totals"]
    out = ["<!doctype html><meta charset='utf-8'><title>InnoScript coverage</title>",
           "<style>body{font-family:sans-serif} pre{background:#f6f6f6;padding:.5em} .hit{background:#d7f5d7}"
           " .miss{background:#f8d4d4} td,th{padding:2px 8px}</style>",
           f"<h1>Coverage of edition {html.escape(result['edition'])}</h1>",
           f"<p>{result['scenarios']} scenarios; instructions {t['executed']}/{t['instructions']} "
           f"({percent(t['executed'], t['instructions'])}%), branches {t['branches_taken']}/{t['branches']} "
           f"({percent(t['branches_taken'], t['branches'])}%).</p><table><tr><th>card</th><th>effect</th>"
           "<th>instructions</th><th>branches</th></tr>"]
    for c in result["cards"]:
        for e in c["effects"]:
            out.append(f"<tr><td><a href='#{html.escape(c['name'])}'>{html.escape(c['name'])}</a></td><td>{e['label']}</td>"
                       f"<td>{e['executed']}/{e['instructions']}</td><td>{e['branches_taken']}/{e['branches']}</td></tr>")
    out.append("</table>")
    for c, card in zip(result["cards"], bundle["cards"]):
        path = source_path(c["source"])
        lines = path.read_text(encoding="utf-8").splitlines() if path.exists() else []
        hit, seen = set(), set()
        for e, chunk in zip(c["effects"], card["effects"]):
            for pc, (line, _col) in enumerate(chunk["lines"]):
                seen.add(line)
                if pc in e["executed_pcs"]:
                    hit.add(line)
        out.append(f"<h2 id='{html.escape(c['name'])}'>{html.escape(c['name'])}</h2><pre>")
        for i, text in enumerate(lines, 1):
            cls = "hit" if i in hit else "miss" if i in seen else ""
            out.append(f"<span class='{cls}'>{i:3d}  {html.escape(text)}</span>")
        out.append("</pre>")
        missed = [b for e in c["effects"] for b in e["branch_detail"] if not b["taken"]]
        if missed:
            out.append("<p>Branch outcomes never taken: " + ", ".join(
                f"line {b['line']} ({b['outcome']})" for b in missed) + "</p>")
    return "\n".join(out) + "\n"
