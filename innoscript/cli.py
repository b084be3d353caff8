"""The ``innoscript`` command line.

Imports are deferred into each command so ``innoscript --help`` stays fast.
Bad input never produces a traceback: compile errors print as positioned
diagnostics and the exit status is 1; a usage error exits 2.
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path


def _console(stderr: bool = False):
    """A rich console that never truncates: in a pipe, tables get the width they need."""
    from rich.console import Console
    con = Console(highlight=False, stderr=stderr)
    if not con.is_terminal:
        con = Console(highlight=False, stderr=stderr, width=10_000)
    return con


def _errors_out(err, fmt: str = "text") -> int:
    if fmt == "json":
        print(json.dumps({"ok": False, "diagnostics": [d.to_json() for d in err.diagnostics]}, indent=2))
    else:
        print(err.render(), file=sys.stderr)
        n = len(err.diagnostics)
        print(f"{n} error{'s' if n != 1 else ''}", file=sys.stderr)
    return 1


def cmd_check(args) -> int:
    import dataclasses
    from innoscript.compiler.bundle import compile_card, compile_hooks, edition_vocabulary, vocabulary
    from innoscript.core.diagnostics import CompileError, Diagnostic, Pos
    from innoscript.core.editions import (cards_root, edition_for_path, load_edition, load_manifest, normalise_sets,
                                          set_for_path, with_required)

    paths = [Path(p) for p in (args.paths or [str(cards_root())])]
    extra_sets = normalise_sets(args.sets or ())
    files: list[Path] = []
    diagnostics, sources = [], {}
    for p in paths:
        if p.is_dir():
            files.extend(sorted(p.rglob("*.inno")))
        elif p.exists():
            files.append(p)
        else:
            diagnostics.append(Diagnostic("E103", "no such file or folder", str(p), Pos(0, 0)))
    vocabs: dict[object, object] = {}
    edition_warnings: dict[str, list] = {}     # file -> warnings of its edition about it
    warns = []
    checked = 0
    for f in files:
        folder = edition_for_path(f.resolve().parent)
        set_folder = set_for_path(f.resolve().parent)
        try:
            if set_folder is not None and not args.edition:
                # a set's file: its edition (the folder's name) with the set and any others asked for
                ed_name = set_folder.name
                sets = with_required([set_folder.parent.name] + extra_sets, ed_name)
                key = (ed_name, tuple(sets))
                if key not in vocabs:
                    vocabs[key] = edition_vocabulary(load_edition(ed_name, sets=sets))
            elif args.edition:
                sets = with_required(extra_sets + ([set_folder.parent.name] if set_folder is not None else []),
                                     args.edition)
                key = (args.edition, tuple(sets))
                if key not in vocabs:
                    vocabs[key] = edition_vocabulary(load_edition(args.edition, sets=sets))
            elif folder is None:
                diagnostics.append(Diagnostic("E500", "not inside an edition folder (no edition.json above it); "
                                              "pass --edition", str(f), Pos(0, 0)))
                continue
            else:
                key = folder
                if key not in vocabs:
                    try:
                        edition = load_edition(folder.name, folder.parent)
                        vocabs[key] = vocabulary(edition.manifest, edition.card_names)
                        for w in edition.warnings:
                            edition_warnings.setdefault(str(Path(w.path).resolve()), []).append(w)
                    except CompileError:
                        vocabs[key] = vocabulary(load_manifest(folder))
            try:
                text = f.read_bytes().decode("utf-8")
            except UnicodeDecodeError as err:
                diagnostics.append(Diagnostic("E103", f"not UTF-8 text (byte {err.start})", str(f), Pos(1, 1)))
                continue
            sources[str(f)] = text
            if set_folder is not None and (set_folder / "rules") in f.resolve().parents:
                compile_hooks(text, str(f), vocabs[key])
                checked += 1
                continue
            compiled = compile_card(text, str(f), vocabs[key])
            warns += compiled.warnings
            warns += [dataclasses.replace(w, path=str(f)) for w in edition_warnings.get(str(f.resolve()), [])]
            checked += 1
        except CompileError as err:
            diagnostics.extend(err.diagnostics)
            sources.update(err.sources)
    if args.strict:
        diagnostics += [dataclasses.replace(w, severity="error") for w in warns]
        warns = []
    if args.format == "json":
        print(json.dumps({"ok": not diagnostics, "files": len(files), "diagnostics":
                          [d.to_json() for d in sorted(diagnostics + warns, key=lambda d: d.sort_key())]}, indent=2))
        return 1 if diagnostics else 0
    if warns:
        print(CompileError(warns, sources).render(), file=sys.stderr)
    if diagnostics:
        return _errors_out(CompileError(diagnostics, sources))
    n = len(warns)
    print(f"{checked} card file{'s' if checked != 1 else ''} checked, no errors"
          + (f", {n} warning{'s' if n != 1 else ''} (check --strict fails on them)" if n else ""))
    return 0


def cmd_compile(args) -> int:
    from innoscript.compiler.bundle import compile_edition, dumps
    from innoscript.core.diagnostics import CompileError
    from innoscript.core.editions import load_edition

    warns: list = []
    try:
        edition = load_edition(args.edition, sets=args.sets or ())
        bundle = compile_edition(edition, warns)
    except CompileError as err:
        return _errors_out(err)
    if warns:       # as 'check' reports them; the bundle is written all the same
        print(CompileError(warns, {s.relpath: s.text for s in edition.sources}).render(), file=sys.stderr)
    text = dumps(bundle)
    if args.output in (None, "-"):
        sys.stdout.write(text)
    else:
        Path(args.output).write_text(text, encoding="utf-8")
        print(f"{len(bundle['cards'])} cards -> {args.output} (source hash {bundle['source_hash'][:12]})",
              file=sys.stderr)
    return 0


def find_card(bundle: dict, name: str):
    from innoscript.core.diagnostics import suggest
    for c in bundle["cards"]:
        if c["name"].lower() == name.lower():
            return c, None
    return None, suggest(name, [c["name"] for c in bundle["cards"]])


def cmd_dis(args) -> int:
    from innoscript.compiler.bundle import compile_card, load_bundle, vocabulary
    from innoscript.compiler.tools.disasm import disassemble_card
    from innoscript.core.diagnostics import CompileError
    from innoscript.core.editions import load_edition, source_path

    try:
        bundle = load_bundle(args.edition, sets=args.sets or ())
    except CompileError as err:
        # Another card is broken: compile just the one asked for.
        try:
            edition = load_edition(args.edition, sets=args.sets or ())
        except CompileError as err2:
            return _errors_out(err2)
        src = next((s for s in edition.sources if (s.name or "").lower() == args.card.lower()), None)
        if src is None:
            return _errors_out(err)
        try:
            data = compile_card(src.text, src.relpath, vocabulary(edition.manifest, edition.card_names)).data
        except CompileError as err3:
            return _errors_out(err3)
        bundle = {"edition": edition.name, "cards": [data]}
    card, hint = find_card(bundle, args.card)
    if card is None:
        print(f"error: no card named {args.card!r} in edition {bundle['edition']}"
              + (f"; did you mean {hint!r}?" if hint else ""), file=sys.stderr)
        return 1
    source = source_path(card["source"]).read_text(encoding="utf-8")
    sys.stdout.write(disassemble_card(card, source))
    return 0


def cmd_scenario(args) -> int:
    from innoscript.runtime.tools.scenario import ScenarioError, run
    from rich.console import Console

    console = Console(highlight=False)
    files: list[Path] = []
    for p in args.paths:
        path = Path(p)
        if not path.exists():
            raise Misuse(f"no such file or folder: {p}")
        files += sorted(path.rglob("*.yaml")) + sorted(path.rglob("*.json")) if path.is_dir() else [path]
    if args.sets:
        files = [f for f in files if _scenario_sets(f) in (None, args.sets)]
    results = []
    for f in files:
        started = time.perf_counter()
        try:
            out = run(f)
            row = {"path": str(f), "name": out.name, "status": "pass" if out.passed else "fail",
                   "failures": out.failures}
        except ScenarioError as err:
            row = {"path": str(f), "name": f.stem, "status": "error", "failures": [str(err)]}
        row["seconds"] = round(time.perf_counter() - started, 3)
        results.append(row)
        if args.format == "json":
            continue
        if row["status"] == "error":
            console.print(f"[red]ERROR[/red] {row['failures'][0]}")
        elif row["status"] == "pass":
            if args.verbose:
                console.print(f"[green]PASS[/green] {f}  {row['name']}")
        else:
            console.print(f"[red]FAIL[/red] {f}  {row['name']}")
            for msg in row["failures"]:
                console.print(f"     {msg}")
    passed = sum(r["status"] == "pass" for r in results)
    failed = len(results) - passed
    if args.junit:
        Path(args.junit).write_text(_junit(results), encoding="utf-8")
    if args.format == "json":
        print(json.dumps({"scenarios": results, "passed": passed, "failed": failed}, indent=2))
    else:
        console.print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


def _scenario_sets(path: Path):
    """The sets a scenario file plays with (None when it cannot be read: it runs, and reports why)."""
    from innoscript.runtime.tools.scenario import ScenarioError, read
    try:
        return sorted(read(path).get("sets", []))
    except ScenarioError:
        return None


def _junit(results: list[dict]) -> str:
    """JUnit XML: one test case per scenario file; a failing file is a failure, a malformed one an error."""
    from xml.sax.saxutils import escape, quoteattr
    fails = sum(r["status"] == "fail" for r in results)
    errors = sum(r["status"] == "error" for r in results)
    total = sum(r["seconds"] for r in results)
    lines = ['<?xml version="1.0" encoding="UTF-8"?>',
             f'<testsuite name="scenarios" tests="{len(results)}" failures="{fails}" errors="{errors}" '
             f'time="{total:.3f}">']
    for r in results:
        head = f'  <testcase classname={quoteattr(r["path"])} name={quoteattr(r["name"])} time="{r["seconds"]:.3f}"'
        if r["status"] == "pass":
            lines.append(head + "/>")
            continue
        tag = "failure" if r["status"] == "fail" else "error"
        text = "\n".join(r["failures"])
        lines += [head + ">", f'    <{tag} message={quoteattr(r["failures"][0] if r["failures"] else tag)}>'
                  f'{escape(text)}</{tag}>', "  </testcase>"]
    lines.append("</testsuite>")
    return "\n".join(lines) + "\n"


def cmd_cards(args) -> int:
    from innoscript.core.diagnostics import CompileError
    from innoscript.runtime.tools.catalog import catalog
    from rich.table import Table

    try:
        data = catalog(args.edition, Path(args.scenarios) if args.scenarios else None, sets=args.sets or ())
    except CompileError as err:
        return _errors_out(err)
    if args.format == "json":
        print(json.dumps(data, indent=2))
        return 0
    console = _console()
    sets = data.get("sets", [])
    table = Table(title=f"Cards of edition {data['edition']}" + (f" with {', '.join(sets)}" if sets else ""))
    for col in ("age", "card", *(["set"] if sets else []), "colour", "compiled", "implemented", "effects",
                "scenarios", "covered"):
        table.add_column(col)
    for r in data["cards"]:
        covered = "[green]yes[/green]" if r["every_effect_has_scenario"] else \
            f"[red]{len(r['effects_with_scenario'])}/{r['effects']}[/red]"
        table.add_row(str(r["age"] or "?"), r["name"] or r["source"], *([r["set"]] if sets else []), r["color"] or "?",
                      "yes" if r["compiled"] else "[red]no[/red]", "yes" if r["implemented"] else "[red]no[/red]",
                      str(r["effects"]), str(r["scenarios"]), covered)
    console.print(table)
    t = data["totals"]
    if t["not_implemented"]:
        console.print(f"[red]not implemented (no effects scripted):[/red] {', '.join(t['not_implemented'])}")
    if t["face_only"]:
        console.print("[yellow]face only (cards of a set this engine does not have: age, colour and icons, no "
                      f"effects):[/yellow] {', '.join(t['face_only'])}")
    if t.get("removed_at_setup"):
        console.print("[yellow]removed at set-up (printed, not in these games; see docs/rules.md):[/yellow] "
                      f"{', '.join(t['removed_at_setup'])}")
    for label, s in ([(f"set {n}: ", data["totals_by_set"][n]) for n in ["base", *sets]] if sets else []) + [("", t)]:
        console.print(f"{label}{s['compiled']}/{s['cards']} cards compile, {s['implemented']} implemented; "
                      f"{s['effects_with_scenario']}/{s['effects']} effects "
                      f"have a passing scenario; {s['cards_fully_covered']} cards fully covered", markup=False)
    console.print(f"{t['failing_scenarios']} failing scenario(s)")
    return 0


def _options(args, players: int):
    """The --options of a command, checked; None (after saying why) when they are wrong."""
    from innoscript.runtime.rules.options import OptionsError, normalise, parse
    try:
        return normalise(parse(args.options), players)
    except (OptionsError, OSError) as err:
        print(f"innoscript {args.command}: error: {err}", file=sys.stderr)
        return None


def cmd_simulate(args) -> int:
    from innoscript.compiler.bundle import load_bundle
    from innoscript.core.diagnostics import CompileError
    from innoscript.runtime.tools import simulate as S
    from innoscript.runtime.bots import BOTS
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    _check_players(args.edition, args.players)
    sets = tuple(args.sets or ())
    try:
        bundle = load_bundle(args.edition, sets=sets)
    except CompileError as err:
        return _errors_out(err)
    _set_warnings(bundle, "innoscript simulate")
    bots = tuple(b.strip() for b in args.bots.split(",")) if args.bots else ()
    bad = [b for b in bots if b not in BOTS]
    if bad or len(bots) > args.players:
        raise Misuse(f"--bots takes up to {args.players} of: {', '.join(BOTS)}")
    options = _options(args, args.players)
    if options is None:
        return 2
    console = Console(stderr=True, highlight=False)
    columns = [TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn()]
    with Progress(*columns, console=console, disable=args.format == "json" or not console.is_terminal) as bar:
        task = bar.add_task(f"{'+'.join((args.edition,) + sets)}, {args.players} players", total=args.games)
        try:
            records = S.run(bundle["edition"], args.players, args.games, args.seed, args.jobs or None,
                            progress=lambda: bar.advance(task), bots=bots, backend=args.backend,
                            address=args.address, options=options, sets=sets)
        except RuntimeError as err:
            print(f"error: {err}", file=sys.stderr)
            return 1
    if args.out:
        with open(args.out, "w", encoding="utf-8") as f:
            for r in records:
                f.write(json.dumps(r, sort_keys=True) + "\n")
    summary = S.summarise(records, args.players, [c["name"] for c in bundle["cards"]])
    if args.plots:
        S.plots(summary, args.plots, f"{'+'.join([bundle['edition'], *sets])}, {args.players} players, {args.games} games")
    if args.format == "json":
        print(json.dumps(summary.to_json(), indent=2))
    else:
        from rich.table import Table
        out = _console()
        if sets:
            out.print(f"sets in play: {', '.join(sets)}")
        out.print(f"games {summary.games}, errors {summary.errors}, mean turns {summary.mean_turns}, "
                  f"mean actions {summary.mean_actions}")
        table = Table(title="how the games ended")
        table.add_column("ended by")
        table.add_column("games", justify="right")
        for reason, n in sorted(summary.by_reason.items(), key=lambda kv: (-kv[1], kv[0])):
            table.add_row(reason, str(n))
        out.print(table)
        table = Table(title="wins by seat")
        table.add_column("seat", justify="right")
        table.add_column("bot")
        table.add_column("wins", justify="right")
        for i, n in enumerate(summary.wins_by_seat):
            table.add_row(str(i + 1), bots[i] if i < len(bots) else "random", str(n))
        out.print(table)
        if summary.win_rate_by_bot:
            table = Table(title="win rate by bot")
            table.add_column("bot")
            table.add_column("win rate", justify="right")
            for bot, rate in sorted(summary.win_rate_by_bot.items()):
                table.add_row(bot, f"{rate:.3f}" if isinstance(rate, float) else str(rate))
            out.print(table)
        never = [n for n, k in summary.dogmas.items() if k == 0]
        out.print(f"cards whose dogma was used: {len(summary.dogmas) - len(never)}/{len(summary.dogmas)}"
                  + (f"; never: {', '.join(never)}" if never else ""))
        if args.plots:
            out.print(f"plots in {args.plots}/")
        for e in summary.error_samples:
            out.print(f"[red]error[/red] {e}")
    return 1 if summary.errors else 0


def cmd_soak(args) -> int:
    from innoscript.runtime.tools.soak import soak
    from rich.console import Console
    from rich.progress import Progress

    console = Console(stderr=True, highlight=False)
    results = []
    try:
        counts = [int(n) for n in args.players.split(",")]
    except ValueError:
        raise Misuse(f"--players: {args.players!r} is not a comma-separated list of numbers") from None
    for n in counts:
        _check_players(args.edition, n)
    checked = [_options(args, n) for n in counts]
    if any(o is None for o in checked):
        return 2
    sets = tuple(args.sets or ())
    if sets:
        from innoscript.compiler.bundle import load_bundle
        _set_warnings(load_bundle(args.edition, sets=sets), "innoscript soak")
    with Progress(console=console, disable=args.format == "json" or not console.is_terminal) as bar:
        for n, options in zip(counts, checked):
            task = bar.add_task(f"{'+'.join((args.edition,) + sets)}, {n} players", total=args.games)
            results.append(soak(args.edition, n, args.games, args.seed, args.jobs or None,
                                progress=lambda: bar.advance(task), options=options, sets=sets))
    if args.format == "json":
        print(json.dumps(results, indent=2))
    else:
        out = Console(highlight=False)
        for r in results:
            opts = "".join(f", {k} {v}" for k, v in r.get("options", {}).items() if v not in ("none", False))
            label = "+".join([r["edition"], *r.get("sets", [])])
            out.print(f"{label} {r['players']} players{opts}: games {r['games']}, actions {r['actions']}, "
                      f"decisions {r['decisions']}, violations {r['violations']}, errors {r['errors']}")
            for s in r["samples"]:
                out.print(f"   [red]{s}[/red]")
    return 1 if any(r["violations"] or r["errors"] for r in results) else 0


def _edition_asts(edition_name: str, sets=()):
    """Parse every card of an edition (and sets) to its AST (for the renderer, errata and diff)."""
    from innoscript.compiler.bundle import edition_vocabulary, parse_card
    from innoscript.core.editions import load_edition, with_required
    edition = load_edition(edition_name, sets=with_required(sets, edition_name) if sets else ())
    vocab = edition_vocabulary(edition)
    return edition, [parse_card(s.text, s.relpath, vocab)[0] for s in edition.sources]


def cmd_render(args) -> int:
    from innoscript.compiler.tools.render import render_card, render_text
    from innoscript.core.diagnostics import CompileError, suggest

    try:
        edition, asts = _edition_asts(args.edition, args.sets or ())
    except CompileError as err:
        return _errors_out(err)
    by_name = {c.name.lower(): c for c in asts}
    card = by_name.get(args.card.lower())
    if card is None:
        hint = suggest(args.card, [c.name for c in asts])
        print(f"error: no card named {args.card!r} in edition {edition.name}"
              + (f"; did you mean {hint!r}?" if hint else ""), file=sys.stderr)
        return 1
    if args.format == "json":
        print(json.dumps(render_card(card), indent=2))
    else:
        print(render_text(card))
    return 0


def _pick_cards(asts, card: str | None, set_name: str | None, edition: str):
    """The cards an authoring command is aimed at: one by name, one set, or all. Returns (cards, error)."""
    from innoscript.core.diagnostics import suggest
    from innoscript.compiler.tools.errata import carrier
    chosen = asts
    if set_name:
        chosen = [c for c in chosen if carrier(c) == set_name]
        if not chosen:
            sets = sorted({carrier(c) for c in asts})
            return None, f"no card of set {set_name!r} in edition {edition} (its sets: {', '.join(sets)})"
    if card:
        chosen = [c for c in chosen if c.name.lower() == card.lower()]
        if not chosen:
            hint = suggest(card, [c.name for c in asts])
            return None, f"no card named {card!r} in edition {edition}" + (f"; did you mean {hint!r}?" if hint else "")
    return chosen, None


def cmd_errata(args) -> int:
    from innoscript.compiler.tools import errata as E
    from innoscript.core.diagnostics import CompileError

    from innoscript.core.editions import available_sets, normalise_sets
    sets = list(args.sets or ())
    if args.set and args.set != "base" and args.set in available_sets(args.edition):
        sets = normalise_sets(sets + [args.set])      # the cards of a set: that set in play
    try:
        edition, asts = _edition_asts(args.edition, sets)
        cards, problem = _pick_cards(asts, args.card, args.set, edition.name)
        if problem:
            print(f"error: {problem}", file=sys.stderr)
            return 1
        reference = E.merge([E.load_json(path) for path in args.reference])
        checks = E.check(cards, reference, edition.name)
    except CompileError as err:
        return _errors_out(err)
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as err:
        print(f"error: cannot use the reference {', '.join(args.reference)}: {err} (its format: docs/errata.md)",
              file=sys.stderr)
        return 1
    total = E.summary(checks)
    per_set = E.by_set(checks)
    if args.format == "json":
        print(json.dumps({"edition": edition.name, "summary": total, "sets": per_set,
                          "effects": [c.to_json() for c in checks]}, indent=2))
        return 0
    if args.format == "markdown":
        only = args.set if args.set and args.set != "base" else None
        sys.stdout.write(E.markdown_report(edition.name, checks, only))
        return 0
    con = _console()
    for c in checks:
        if c.status == "exact" and not (args.all or args.card):
            continue
        color = {"exact": "green", "close": "yellow", "different": "red", "no reference": "blue"}[c.status]
        if c.similarity is None:
            con.print(f"[{color}]no reference text[/{color}] {c.card} #{c.effect}")
            con.print(f"           {c.rendered}", markup=False)
            continue
        con.print(f"[{color}]{c.status:9s}[/{color}] {c.similarity:.3f}  {c.card} #{c.effect}")
        if args.card:
            con.print(f"           rendered: {c.rendered}", markup=False)
            con.print(f"           printed:  {c.printed}", markup=False)
        con.print(f"           {c.diff}", markup=False)
    if len(per_set) > 1:
        for name, t in per_set.items():
            con.print(f"{name}: {E.summary_line(t)}", markup=False)
    con.print(E.summary_line(total), markup=False)
    return 0


def cmd_diff(args) -> int:
    from innoscript.compiler.tools.diff import diff_card, diff_editions
    from innoscript.core.diagnostics import CompileError, suggest
    from rich.table import Table
    from rich.text import Text

    try:
        old_ed, old = _edition_asts(args.old, args.sets or ())
        new_ed, new = _edition_asts(args.new, args.sets or ())
    except CompileError as err:
        return _errors_out(err)
    con = _console()
    if args.card:
        o = next((c for c in old if c.name.lower() == args.card.lower()), None)
        n = next((c for c in new if c.name.lower() == args.card.lower()), None)
        if o is None and n is None:
            hint = suggest(args.card, [c.name for c in old + new])
            print(f"error: no card named {args.card!r}" + (f"; did you mean {hint!r}?" if hint else ""), file=sys.stderr)
            return 1
        d = diff_card(o, n)
        if args.format == "json":
            print(json.dumps(d.to_json(), indent=2))
            return 0
        con.print(f"{d.name}: {d.summary()}", markup=False)
        if d.effects:
            table = Table(show_lines=True)
            table.add_column("effect")
            table.add_column(old_ed.name)
            table.add_column(new_ed.name)
            for e in d.effects:
                # Rendered text holds "[castle]" and "[3]": plain Text, never rich markup.
                label = f"{e['cell'] + ' ' if e.get('cell') else ''}{e['index']} ({e['change']})"
                table.add_row(label, Text(e["old"] or "-"), Text(e["new"] or "-"))
            con.print(table)
        return 0
    diffs = diff_editions(old, new)
    changed = [d for d in diffs if d.status != "same"]
    if args.format == "json":
        print(json.dumps({"from": old_ed.name, "to": new_ed.name, "changed": len([d for d in diffs if d.status == "changed"]),
                          "cards": [d.to_json() for d in changed]}, indent=2))
        return 0
    for d in changed:
        con.print(f"{d.name:22s} {d.summary()}", markup=False)
    counts = {s: sum(1 for d in diffs if d.status == s) for s in ("changed", "added", "removed", "unscripted", "same")}
    con.print(f"{counts['changed']} cards changed, {counts['added']} added, {counts['removed']} removed, "
              f"{counts['unscripted']} not scripted yet, {counts['same']} the same")
    return 0


def cmd_coverage(args) -> int:
    from innoscript.core.diagnostics import CompileError, suggest
    from innoscript.core.editions import source_path
    from innoscript.runtime.tools import coverage as C
    from rich.table import Table

    try:
        result = C.measure(args.edition, Path(args.scenarios) if args.scenarios else None, sets=args.sets or ())
    except CompileError as err:
        return _errors_out(err)
    if args.card:
        picked = [c for c in result["cards"] if c["name"].lower() == args.card.lower()]
        if not picked:
            hint = suggest(args.card, [c["name"] for c in result["cards"]])
            print(f"error: no card named {args.card!r} in edition {result['edition']}"
                  + (f"; did you mean {hint!r}?" if hint else ""), file=sys.stderr)
            return 1
        result = C.only(result, picked)
    t = result["totals"]
    if args.html:
        Path(args.html).write_text(C.html_report(result), encoding="utf-8")
    if args.format == "json":
        result.pop("bundle")
        print(json.dumps(result, indent=2))
        return 0
    con = _console()
    table = Table(title=f"Bytecode coverage of edition {result['edition']} by {result['scenarios']} scenarios")
    for col in ("card", "effect", "instructions", "branches"):
        table.add_column(col)
    for c in result["cards"]:
        for e in c["effects"]:
            full = e["executed"] == e["instructions"] and e["branches_taken"] == e["branches"]
            style = "green" if full else ("yellow" if e["executed"] else "red")
            table.add_row(c["name"], e["label"], f"[{style}]{e['executed']}/{e['instructions']}[/{style}]",
                          f"[{style}]{e['branches_taken']}/{e['branches']}[/{style}]")
    if not args.summary:
        con.print(table)
    if args.card or args.branches:
        for c in result["cards"]:
            path = source_path(c["source"])
            lines = path.read_text(encoding="utf-8").splitlines() if path.exists() else []
            for e in c["effects"]:
                for b in e["branch_detail"]:
                    if not b["taken"]:
                        text = lines[b["line"] - 1].strip() if 0 < b["line"] <= len(lines) else ""
                        con.print(f"never taken: {c['name']} effect {e['label']}, {c['source']}:{b['line']}: "
                                  f"{text}  <- no scenario has {b['meaning']}", markup=False)
    for name, s in result.get("totals_by_set", {}).items():
        con.print(f"set {name}: instructions {s['executed']}/{s['instructions']} "
                  f"({C.percent(s['executed'], s['instructions'])}%), branch outcomes {s['branches_taken']}/"
                  f"{s['branches']} ({C.percent(s['branches_taken'], s['branches'])}%)", markup=False)
    con.print(f"instructions {t['executed']}/{t['instructions']} ({C.percent(t['executed'], t['instructions'])}%), "
              f"branch outcomes {t['branches_taken']}/{t['branches']} ({C.percent(t['branches_taken'], t['branches'])}%)"
              + (f"; HTML report: {args.html}" if args.html else ""))
    return 0


def cmd_lsp(args) -> int:
    from innoscript.lsp import main as lsp_main
    lsp_main()
    return 0


def cmd_serve(args) -> int:
    from innoscript.runtime.serving import quotas as Q
    from innoscript.runtime.serving.server import serve_stdio, serve_websocket
    try:
        quotas = Q.parse(args.quota, off=args.no_quotas)
    except ValueError as err:
        raise Misuse(f"--quota: {err}") from None
    storage = {"expire_seconds": round(args.expire_days * 86400), "max_db_bytes": args.max_db_mb << 20}
    if args.stdio:
        serve_stdio(args.db, allow_seeds=args.allow_seeds, storage=storage)
    else:
        serve_websocket(args.host, args.port, args.db, web=args.web, allow_origins=args.allow_origin,
                        allow_seeds=args.allow_seeds, quotas=quotas, storage=storage)
    return 0


def cmd_play(args) -> int:
    from innoscript.runtime.serving.terminal import play
    seats = [s.strip() for s in args.bots.split(",")] if args.bots else []   # checked by play: human or a bot
    if not args.load:
        _check_players(args.edition, args.players)
    options = _options(args, args.players) if not args.load else {}
    if options is None:
        return 2
    return play(args.edition, args.players, seats, args.seed, args.load, options=options, sets=args.sets or ())


class Misuse(Exception):
    """A command used wrongly (a bad value, a missing file): one line on stderr, exit status 2.
    With a code, the line is written like a diagnostic: ``error[E500]: ...``."""

    def __init__(self, message: str, code: str | None = None):
        self.code = code
        super().__init__(message)


class _Parser(argparse.ArgumentParser):
    """Usage errors as one line (what is wrong, and where the help is), exit status 2."""

    def error(self, message):
        self.exit(2, f"{self.prog}: error: {message} (see '{self.prog} --help')\n")


def _int_in(lo: int, hi: int | None = None):
    def parse(text: str) -> int:
        try:
            n = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
        if n < lo or (hi is not None and n > hi):
            raise argparse.ArgumentTypeError(f"{n} is out of range ({lo} to {hi})" if hi is not None
                                             else f"{n} is less than {lo}")
        return n
    parse.__name__ = "number"
    return parse


def _float_in(lo: float):
    def parse(text: str) -> float:
        try:
            x = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
        if not lo <= x <= 10 ** 6:   # also refuses nan and inf
            raise argparse.ArgumentTypeError(f"{text} is out of range ({lo} to 1000000)")
        return x
    parse.__name__ = "number"
    return parse


class _HelpFormatter(argparse.RawDescriptionHelpFormatter):
    """Every option's help ends with its default, unless the text already says it."""

    def _get_help_string(self, action):
        text = action.help or ""
        if "default" in text.lower() or action.required or action.default is argparse.SUPPRESS \
                or not action.option_strings:
            return text
        if action.default is None:
            return text
        if action.default is False and action.nargs == 0:
            return text + " (default: off)"
        return text + " (default: %(default)s)"


def _sub(sub, name: str, help: str, examples: list[tuple[str, str]]):
    """A subcommand with its help line and an examples section (checked by the tests)."""
    epilog = "examples:\n" + "\n".join(f"  {cmd:<58} {what}" if len(cmd) <= 58 else f"  {cmd}\n  {'':<58} {what}"
                                        for cmd, what in examples)
    return sub.add_parser(name, help=help, description=help[0].upper() + help[1:] + ".", epilog=epilog,
                          formatter_class=_HelpFormatter)


FORMAT_HELP = "output format: text for people, json for scripts"
SETS_HELP = "sets (expansions) in play, e.g. echoes; repeat or separate with commas (default: none, the base game)"
OPTIONS_HELP = ("table options as a JSON object or a JSON file (docs/options.md), e.g. "
                "'{\"teams\": \"1+3\", \"extra_achievement\": true}' (default: none, a classic game)")


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(prog="innoscript", description="InnoScript: compile, check and run Innovation card scripts.",
                                epilog="examples:\n  innoscript check\n  innoscript render Metalworking\n"
                                       "  innoscript COMMAND --help      options and examples of one command",
                                formatter_class=_HelpFormatter)
    from innoscript import __version__
    p.add_argument("--version", action="version", version=f"innoscript {__version__}",
                   help="print the version and exit")
    sub = p.add_subparsers(dest="command", metavar="COMMAND")

    c = _sub(sub, "check", "check card files for errors (exit 0 clean, 1 errors)", [
        ("innoscript check", "every shipped card"),
        ("innoscript check cards/3e/age1/metalworking.inno", "one file (its edition is the enclosing folder)"),
        ("innoscript check --strict mycards/", "a folder of your own set; warnings fail too"),
        ("innoscript check --format json --edition 3e x.inno", "diagnostics as JSON, for editors and CI")])
    c.add_argument("paths", nargs="*", metavar="PATH", help="card files or folders (default: every shipped card)")
    c.add_argument("--edition", help="check against this edition's vocabulary "
                                     "(default: the edition of the enclosing folder)")
    c.add_argument("--sets", metavar="SET[,SET]", action="append",
                   help="check with these sets in play too; a set's own files always have their set (default: none)")
    c.add_argument("--strict", action="store_true", help="treat warnings (W-codes) as errors: exit 1 on any")
    c.add_argument("--format", choices=["text", "json"], default="text", help=FORMAT_HELP)
    c.set_defaults(func=cmd_check)

    c = _sub(sub, "compile", "compile an edition (and any sets) to one JSON bundle", [
        ("innoscript compile --edition 3e -o 3e.bundle.json", "the 3rd edition to a file"),
        ("innoscript compile --edition 4e", "to standard output"),
        ("innoscript compile --edition 3e --sets echoes", "the 3rd edition with Echoes of the Past")])
    c.add_argument("--edition", required=True, help="edition name, e.g. 3e (required)")
    c.add_argument("--sets", metavar="SET[,SET]", action="append", help=SETS_HELP)
    c.add_argument("-o", "--output", metavar="FILE", help="output file (default: standard output)")
    c.set_defaults(func=cmd_compile)

    c = _sub(sub, "render", "print a card as a reader sees it, its effects in English made from the script", [
        ("innoscript render Metalworking", "the 3rd-edition card in English"),
        ("innoscript render Alchemy --edition 4e --format json", "as JSON"),
        ("innoscript render Ruler --edition 4e --sets echoes", "a card of a set")])
    c.add_argument("card", help="card name (any case)")
    c.add_argument("--edition", default="3e", help="edition name")
    c.add_argument("--sets", metavar="SET[,SET]", action="append", help=SETS_HELP)
    c.add_argument("--format", choices=["text", "json"], default="text", help=FORMAT_HELP)
    c.set_defaults(func=cmd_render)

    c = _sub(sub, "errata", "compare every effect's rendered text with a reference's printed text", [
        ("innoscript errata --reference innovation-base-cards.json", "every 3rd-edition effect that differs"),
        ("innoscript errata Alchemy --reference innovation-base-cards.json", "one card"),
        ("innoscript errata --edition 4e --all --reference REF.json", "exact matches listed too"),
        ("innoscript errata --edition myset --set myset --reference mine.json", "only the cards of one set"),
        ("innoscript errata --set echoes --reference innovation-expansion-cards.json",
         "the Echoes cards, their cells' effects included"),
        ("innoscript errata --sets echoes --reference innovation-base-cards.json "
         "--reference innovation-expansion-cards.json", "every card, with a report per set")])
    c.add_argument("card", nargs="?", help="one card: both texts and their word diff (default: every card)")
    c.add_argument("--edition", default="3e", help="edition name")
    c.add_argument("--sets", metavar="SET[,SET]", action="append", help=SETS_HELP)
    c.add_argument("--set", help="only the cards of this set (the card header's 'set'; a set of cards/sets/ is put "
                                 "in play; default: every card)")
    c.add_argument("--reference", required=True, metavar="FILE", action="append",
                   help="reference JSON of printed texts (required; e.g. innovation-base-cards.json; repeat it for "
                        "a set's own file, e.g. innovation-expansion-cards.json)")
    c.add_argument("--format", choices=["text", "json", "markdown"], default="text",
                   help="output format: text, json, or the markdown report of the docs")
    c.add_argument("--all", action="store_true", help="list exact matches too")
    c.set_defaults(func=cmd_errata)

    c = _sub(sub, "diff", "what changed between two editions (compared on the scripts' meaning)", [
        ("innoscript diff", "every card that changed from 3e to 4e"),
        ("innoscript diff Alchemy", "one card, both renderings side by side"),
        ("innoscript diff --from 3e --to myset --format json", "your own set against the edition it builds on"),
        ("innoscript diff --sets echoes", "the Echoes cards too, 3rd against 4th edition")])
    c.add_argument("card", nargs="?", help="one card to compare (default: every card)")
    c.add_argument("--sets", metavar="SET[,SET]", action="append", help=SETS_HELP)
    c.add_argument("--from", dest="old", default="3e", metavar="EDITION", help="the older edition")
    c.add_argument("--to", dest="new", default="4e", metavar="EDITION", help="the newer edition")
    c.add_argument("--format", choices=["text", "json"], default="text", help=FORMAT_HELP)
    c.set_defaults(func=cmd_diff)

    c = _sub(sub, "coverage", "bytecode coverage of the scenarios, per card and effect", [
        ("innoscript coverage", "every 3rd-edition card"),
        ("innoscript coverage --summary --edition 4e", "the totals only"),
        ("innoscript coverage --html coverage.html", "also an HTML report with the source lines"),
        ("innoscript coverage Metalworking", "one card, with the source line of each untaken branch"),
        ("innoscript coverage --summary --sets echoes", "with Echoes of the Past, totals per set")])
    c.add_argument("card", nargs="?", help="one card, listing its untaken branches (default: every card)")
    c.add_argument("--edition", default="3e", help="edition name")
    c.add_argument("--sets", metavar="SET[,SET]", action="append", help=SETS_HELP)
    c.add_argument("--branches", action="store_true", help="list every untaken branch with its source line")
    c.add_argument("--scenarios", metavar="FOLDER",
                   help="scenario folder (default: tests/scenarios/<edition> of this checkout, "
                        "tests/scenarios/<set>-<edition> with sets)")
    c.add_argument("--html", metavar="FILE", help="also write an HTML report to this file (default: none)")
    c.add_argument("--summary", action="store_true", help="print the totals only")
    c.add_argument("--format", choices=["text", "json"], default="text", help=FORMAT_HELP)
    c.set_defaults(func=cmd_coverage)

    c = _sub(sub, "play", "play in the terminal, hot-seat or against bots", [
        ("innoscript play", "two players at one terminal"),
        ("innoscript play --players 3 --bots human,random,random", "you against two bots"),
        ("innoscript play --load saved.json", "resume a saved game"),
        ('innoscript play --players 4 --bots human,random,random,random --options \'{"teams": "1+3"}\'',
         "2 vs 2, you and player 3 against two bots"),
        ("innoscript play --sets echoes --bots human,random", "with Echoes of the Past, against a bot")])
    c.add_argument("--edition", default="3e", help="edition name")
    c.add_argument("--sets", metavar="SET[,SET]", action="append", help=SETS_HELP + "; a loaded game keeps its own")
    c.add_argument("--players", type=_int_in(1, 99), default=2, help="number of players")
    c.add_argument("--bots", help="per seat, comma-separated: human or a bot (search, heuristic, greedy, random); seats not named are "
                        "played by the search bot (default: everyone human)")
    c.add_argument("--seed", type=_int_in(0), default=0, help="random seed: the same seed deals the same game")
    c.add_argument("--load", metavar="FILE", help="resume a game saved with the 'save FILE' command (default: a new game)")
    c.add_argument("--options", metavar="JSON", help=OPTIONS_HELP)
    c.set_defaults(func=cmd_play)

    c = _sub(sub, "serve", "serve the JSON protocol (stdio or WebSocket), games kept in SQLite or PostgreSQL", [
        ("innoscript serve --stdio", "one JSON message per line, for a frontend that starts it"),
        ("innoscript serve --web", "the web playground at http://127.0.0.1:8765/"),
        ("innoscript serve --port 9000 --db games.sqlite", "WebSocket on another port and database"),
        ("innoscript serve --port 9000 --db postgresql://inno@db.example/games",
         "games in PostgreSQL, shared with other servers on that database")])
    c.add_argument("--stdio", action="store_true", help="one JSON message per line on standard input/output")
    c.add_argument("--web", action="store_true", help="also serve the web playground at http://HOST:PORT/")
    c.add_argument("--port", type=_int_in(0, 65535), default=8765, help="WebSocket port")
    c.add_argument("--host", default="127.0.0.1",
                   help="address to listen on (default: 127.0.0.1, this machine only; any other prints a warning)")
    c.add_argument("--allow-origin", action="append", metavar="ORIGIN",
                   help="a web page origin (e.g. https://example.org) that may also open the WebSocket; repeatable "
                        "(default: only the web app's own origin)")
    c.add_argument("--db", metavar="FILE|URL",
                   help="SQLite file for the games (default: ~/.local/share/innoscript/games.sqlite), or a "
                        "postgresql:// URL: games in PostgreSQL, shared by every server given the same URL")
    c.add_argument("--allow-seeds", action="store_true",
                   help="let 'create' name the seed that deals the game (tests only: whoever knows a game's seed knows "
                        "every hand; by default each game is dealt from a seed of the server's own that no one sees)")
    c.add_argument("--quota", action="append", metavar="NAME=N",
                   help="a quota per connection or address, 0 for none; repeatable (WebSocket only; the defaults: "
                        "messages_per_second=20, address_messages_per_second=60, games_per_minute=6, "
                        "spectators_per_game=200, connections_per_address=32)")
    c.add_argument("--no-quotas", action="store_true", help="no quotas at all (benchmarks, a server for one person)")
    c.add_argument("--expire-days", type=_float_in(0), default=30, metavar="DAYS",
                   help="delete games nobody has moved for this many days (default: 30; 0: never)")
    c.add_argument("--max-db-mb", type=_int_in(0), default=1024, metavar="MB",
                   help="store no new game while the games take more than this (default: 1024; 0: no limit)")
    c.set_defaults(func=cmd_serve)

    c = _sub(sub, "lsp", "run the language server on standard input/output (for editors)", [
        ("innoscript lsp", "started by the editor; see the docs' Editor support page")])
    c.set_defaults(func=cmd_lsp)

    c = _sub(sub, "cards", "list an edition's cards: compiled, effects, scenarios, coverage", [
        ("innoscript cards", "the 3rd edition as a table"),
        ("innoscript cards --edition 4e --format json | jq '.totals'", "JSON for pipes"),
        ("innoscript cards --edition 4e --sets echoes", "with Echoes of the Past, totals per set")])
    c.add_argument("--edition", default="3e", help="edition name")
    c.add_argument("--sets", metavar="SET[,SET]", action="append", help=SETS_HELP)
    c.add_argument("--scenarios", metavar="FOLDER",
                   help="scenario folder (default: tests/scenarios/<edition> of this checkout, "
                        "tests/scenarios/<set>-<edition> with sets)")
    c.add_argument("--format", choices=["text", "json"], default="text", help=FORMAT_HELP)
    c.set_defaults(func=cmd_cards)

    c = _sub(sub, "simulate", "play seeded random games and summarise them", [
        ("innoscript simulate --games 100", "100 two-player 3rd-edition games"),
        ("innoscript simulate --edition 4e --players 3 --bots greedy,random,random", "a greedy bot against two random"),
        ("innoscript simulate --games 1000 --plots plots/ --out games.jsonl", "charts and one record per game"),
        ('innoscript simulate --players 4 --options \'{"teams": "random"}\'', "2 vs 2 team games"),
        ("innoscript simulate --edition 4e --sets echoes --games 20", "with Echoes of the Past")])
    c.add_argument("--edition", default="3e", help="edition name")
    c.add_argument("--sets", metavar="SET[,SET]", action="append", help=SETS_HELP)
    c.add_argument("--players", type=_int_in(1, 99), default=2, help="players per game")
    c.add_argument("--games", type=_int_in(1), default=100, help="number of games")
    c.add_argument("--seed", type=_int_in(0), default=0, help="first seed; game i uses seed + i")
    c.add_argument("--jobs", type=_int_in(0, 512), default=0, help="worker processes (default: 0, all cores)")
    c.add_argument("--bots", help="bot per seat, comma-separated: search, heuristic, greedy or random (default: random)")
    c.add_argument("--backend", choices=["local", "ray"], default="local",
                   help="local worker processes, or Ray (optional extra innoscript[ray])")
    c.add_argument("--address", help="Ray cluster address (default: start a local Ray instance)")
    c.add_argument("--plots", metavar="FOLDER", help="write PNG charts of the summary into this folder (default: none)")
    c.add_argument("--out", metavar="FILE", help="write one JSON record per game to this file (default: none)")
    c.add_argument("--options", metavar="JSON", help=OPTIONS_HELP)
    c.add_argument("--format", choices=["text", "json"], default="text", help=FORMAT_HELP)
    c.set_defaults(func=cmd_simulate)

    c = _sub(sub, "soak", "seeded random games in checked mode: invariants after every answer", [
        ("innoscript soak --games 100", "100 checked two-player games"),
        ("innoscript soak --edition 4e --players 2,3,4,5 --format json", "every player count, as JSON"),
        ('innoscript soak --players 4 --options \'{"teams": "1+2"}\'', "checked 2 vs 2 games, players 1 and 2 partners"),
        ("innoscript soak --sets echoes --games 20", "checked games with Echoes of the Past")])
    c.add_argument("--edition", default="3e", help="edition name")
    c.add_argument("--sets", metavar="SET[,SET]", action="append", help=SETS_HELP)
    c.add_argument("--players", default="2", help="player counts, comma-separated (e.g. 2,3,4)")
    c.add_argument("--games", type=_int_in(1), default=100, help="games per player count")
    c.add_argument("--seed", type=_int_in(0), default=0, help="first seed; game i uses seed + i")
    c.add_argument("--jobs", type=_int_in(0, 512), default=0, help="worker processes (default: 0, all cores)")
    c.add_argument("--options", metavar="JSON", help=OPTIONS_HELP)
    c.add_argument("--format", choices=["text", "json"], default="text", help=FORMAT_HELP)
    c.set_defaults(func=cmd_soak)

    c = _sub(sub, "scenario", "run scenario files (files or folders) and report each", [
        ("innoscript scenario tests/scenarios/3e", "every scenario of an edition"),
        ("innoscript scenario -v tests/scenarios/3e/age1/metalworking-repeat.yaml", "one file, passes listed too"),
        ("innoscript scenario --format json --junit results.xml tests/scenarios", "records for tools and CI"),
        ("innoscript scenario --sets echoes tests/scenarios", "only the scenarios played with Echoes")])
    c.add_argument("paths", nargs="+", metavar="PATH", help="scenario files or folders")
    c.add_argument("--sets", metavar="SET[,SET]", action="append",
                   help="run only the scenarios whose sets in play are these, e.g. echoes (default: every scenario)")
    c.add_argument("-v", "--verbose", action="store_true", help="list passing scenarios too")
    c.add_argument("--format", choices=["text", "json"], default="text",
                   help="text, or json: one record per file (default: %(default)s)")
    c.add_argument("--junit", metavar="FILE", default=None,
                   help="also write the results as JUnit XML to FILE (default: none)")
    c.set_defaults(func=cmd_scenario)

    c = _sub(sub, "dis", "disassemble a card's bytecode beside its source", [
        ("innoscript dis Metalworking", "each instruction beside its source line"),
        ("innoscript dis Alchemy --edition 4e", "another edition's card"),
        ("innoscript dis Bangle --sets echoes", "a card of a set")])
    c.add_argument("card", help="card name (any case)")
    c.add_argument("--edition", default="3e", help="edition name")
    c.add_argument("--sets", metavar="SET[,SET]", action="append", help=SETS_HELP)
    c.set_defaults(func=cmd_dis)

    c = _sub(sub, "completion", "print a shell completion script for innoscript", [
        ("innoscript completion bash > ~/.local/share/bash-completion/completions/innoscript", "bash"),
        ("innoscript completion zsh > ~/.zfunc/_innoscript", "zsh (with ~/.zfunc on $fpath)")])
    c.add_argument("shell", choices=["bash", "zsh", "tcsh"], help="the shell to complete in")
    c.set_defaults(func=cmd_completion)
    return p


def cmd_completion(args) -> int:
    # shtab writes the script from the parser itself, so completion cannot drift from the options.
    import shtab
    sys.stdout.write(shtab.complete(build_parser(), shell=args.shell))
    return 0


def _check_players(edition: str, n: int) -> None:
    from innoscript.core.editions import load_edition
    m = load_edition(edition).manifest["players"]
    if not m["min"] <= n <= m["max"]:
        raise Misuse(f"--players: edition {edition} is for {m['min']} to {m['max']} players, not {n}")


def _check_editions(args) -> None:
    """An unknown edition is a misuse, found before any work (and never a path)."""
    from innoscript.core.diagnostics import suggest
    from innoscript.core.editions import available_editions, normalise_edition
    known = available_editions()
    for opt, dest in (("--edition", "edition"), ("--from", "old"), ("--to", "new")):
        name = getattr(args, dest, None)
        if isinstance(name, str) and normalise_edition(name) not in known:
            hint = suggest(name, known)
            raise Misuse(f"unknown edition {name!r} given to {opt} (known: {', '.join(known)})"
                         + (f"; did you mean {hint!r}?" if hint else ""), "E500")


def _set_editions(name: str) -> list[str]:
    from innoscript.core.editions import card_roots
    return sorted({p.parent.name for r in card_roots() for p in (r / "sets" / name).glob("*/set.json")})


def _check_sets(args) -> None:
    """--sets, found wrong before any work: each name is a set folder, and the set has the command's edition(s).
    The names are normalised in place (lower case, sorted, without repeats)."""
    from innoscript.core.diagnostics import suggest
    from innoscript.core.editions import available_sets, normalise_edition, normalise_sets
    if not getattr(args, "sets", None):
        return
    args.sets = normalise_sets(args.sets)
    known = available_sets()
    editions = [getattr(args, d, None) for d in ("edition", "old", "new")]
    for name in args.sets:
        if name not in known:
            hint = suggest(name, known)
            raise Misuse(f"unknown set {name!r} given to --sets (known: {', '.join(known) or 'none'})"
                         + (f"; did you mean {hint!r}?" if hint else ""), "E500")
        has = _set_editions(name)
        for ed in editions:
            if isinstance(ed, str) and normalise_edition(ed) not in has:
                raise Misuse(f"set {name!r} has no {normalise_edition(ed)} edition (it has: {', '.join(has)})", "E500")


def _set_warnings(bundle: dict, prog: str, stream=None) -> None:
    """One line per incomplete set in play (fewer card files than its manifest expects), on stderr."""
    if not bundle.get("sets"):
        return
    from innoscript.runtime.rules.sets import warnings
    from innoscript.runtime.state.cards import Cards
    for w in warnings(Cards(bundle)):
        print(f"{prog}: warning: {w}", file=stream or sys.stderr)


def _one_line(err: BaseException) -> str:
    if isinstance(err, OSError) and err.strerror:
        return f"{err.strerror}: {err.filename}" if err.filename else err.strerror
    text = " ".join(str(err).split()) or type(err).__name__
    return text if len(text) <= 300 else text[:300] + "..."


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 0
    prog = f"innoscript {args.command}"
    try:
        _check_editions(args)
        _check_sets(args)
        return args.func(args)
    except BrokenPipeError:
        return 0
    except KeyboardInterrupt:
        return 130
    except Exception as err:
        return _failed(prog, err)


def _failed(prog: str, err: Exception) -> int:
    """A command's failure on one line, with its exit status (imported only then: --help stays quick)."""
    import sqlite3
    from innoscript.core.diagnostics import CompileError
    try:
        from innoscript.runtime.serving.store import StorageError
    except Exception:   # the runtime itself failed to import: the failure is still one line
        StorageError = ()
    if isinstance(err, CompileError):
        return _errors_out(err)
    if isinstance(err, Misuse):
        print(f"error[{err.code}]: {err}" if err.code else f"{prog}: error: {err}", file=sys.stderr)
        return 2
    if isinstance(err, (OSError, sqlite3.Error, StorageError, ValueError)):
        print(f"{prog}: error: {_one_line(err)}", file=sys.stderr)
        return 2
    # a bug: still one line, never a traceback
    print(f"{prog}: internal error ({type(err).__name__}): {_one_line(err)}", file=sys.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(main())
