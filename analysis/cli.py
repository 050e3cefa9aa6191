"""The ``sapsam`` command line.

Every command validates its input first; bad input prints one line ``Error: ...`` and exits
with status 2 (click's usage errors do the same), never a traceback.
"""

import functools
import json
import sys

import click
from rich.console import Console
from rich.table import Table

from analysis import rules as _rules
from analysis import score as _score
from analysis import settings as _settings
from analysis.cards import format_cards
from analysis.policies import POLICY_NAMES
from analysis.provenance import writable_folder


class InputError(click.ClickException):
    """Bad input from the user: one line on stderr, exit status 2."""

    exit_code = 2


def reports_bad_input(command):
    """Turn ``ValueError``/``TypeError`` raised by validation into an :class:`InputError`."""

    @functools.wraps(command)
    def wrapper(*args, **kwargs):
        try:
            return command(*args, **kwargs)
        except (ValueError, TypeError) as exc:
            raise InputError(str(exc)) from None

    return wrapper


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="sapsam")
def main():
    """Strategy analyser for 13-card Chinese Poker (Sap Sam Cheung, Pusoy, Xap Xam, Thirteen)."""


@main.command("settings")
@click.argument("hand")
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of a table.")
@click.option("--wheel-rank", type=click.Choice(["ace-low", "second"]), default="ace-low",
              show_default=True, help="Where A-2-3-4-5 ranks among straights.")
@reports_bad_input
def settings_command(hand, as_json, wheel_rank):
    """Count the legal settings of a 13-card HAND and list its Pareto frontier.

    HAND is 13 cards such as "As Kd Qh Jc Ts 9s 9h 5c 5d 4h 3s 2c 2d". The frontier keeps
    the legal settings no other legal setting matches or beats in every row, one per
    distinct strength triple (the others with that triple are counted as 'same').
    """
    frontier = _settings.pareto_frontier(hand, wheel_rank=wheel_rank)
    if as_json:
        payload = {
            "hand": format_cards(frontier.hand, descending=True),
            "legal": frontier.legal,
            "distinct": frontier.distinct,
            "frontier": [[format_cards(row, descending=True) for row in (m.front, m.middle, m.back)]
                         for m in frontier.members],
            "details": [{"setting": m.text, "split": m.split, "strengths": list(m.strengths),
                         "rows": list(m.describe()), "same": m.equivalent}
                        for m in frontier.members],
        }
        click.echo(json.dumps(payload, indent=2, ensure_ascii=False))
        return
    console = _console()
    console.print(f"Hand: [bold]{format_cards(frontier.hand, descending=True)}[/bold]")
    console.print(f"Legal splits: {frontier.legal:,} of {_settings.N_SPLITS:,}   "
                  f"distinct strength triples: {frontier.distinct:,}   "
                  f"frontier: {len(frontier.members):,}")
    table = Table(show_lines=False, header_style="bold")
    for name in ("#", "front", "middle", "back", "front hand", "middle hand", "back hand", "same"):
        table.add_column(name, justify="right" if name in ("#", "same") else "left")
    for i, m in enumerate(frontier.members, 1):
        table.add_row(str(i), *m.text.split(" | "), *m.describe(), str(m.equivalent))
    console.print(table)


@main.command("rules")
@click.argument("ruleset", required=False)
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@reports_bad_input
def rules_command(ruleset, as_json):
    """List the named rulesets, or show RULESET (an id or a TOML file) in full."""
    if ruleset is None:
        listing = {rid: _rules.load_ruleset(rid) for rid in _rules.ruleset_ids()}
        if as_json:
            click.echo(json.dumps({rid: r.describe() for rid, r in listing.items()}, indent=2))
            return
        table = Table(header_style="bold", box=None)
        table.add_column("id")
        table.add_column("name")
        table.add_column("scoring")
        for rid, r in listing.items():
            table.add_row(rid, r.name, r.describe())
        _console().print(table)
        return
    rules = _rules.load_ruleset(ruleset)
    if as_json:
        click.echo(json.dumps(_rules.as_dict(rules), indent=2))
        return
    click.echo(_rules.as_toml(rules))


@main.command("score")
@click.argument("declarations", nargs=-1, required=True)
@click.option("--rules", "ruleset", default="standard", show_default=True,
              help="Ruleset id or TOML file.")
@click.option("--bank", type=int, default=None, help="The bank's seat (1-based) in a bank game.")
@click.option("--chips", default=None, help="Chip stacks A,B,C,D: chip-limited settlement.")
@click.option("--names", default=None, help="Seat names, e.g. North,East,South,West.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@reports_bad_input
def score_command(declarations, ruleset, bank, chips, names, as_json):
    """Settle a showdown of 2-4 players.

    Each DECLARATION is 'front | middle | back', 'natural:<13 cards>' or
    'surrender:<13 cards>'. A foul setting is scored as a foul and flagged.
    """
    chip_stacks = _int_list(chips, "--chips") if chips else None
    seat_names = [x.strip() for x in names.split(",")] if names else None
    if bank is not None and bank < 1:
        raise ValueError(f"--bank is a seat number from 1, got {bank}")
    result = _score.score_showdown(ruleset, declarations, bank=None if bank is None else bank - 1,
                                   chips=chip_stacks, names=seat_names)
    if as_json:
        payload = {"rules": result.rules.id, "names": list(result.names), "status": list(result.status),
                   "totals": result.totals, "pairs": result.pairs()}
        click.echo(json.dumps(payload, indent=2))
        return
    console = _console()
    console.print(f"Ruleset: [bold]{result.rules.id}[/bold] ({result.rules.describe()})")
    for name, decl, status in zip(result.names, result.declarations, result.status):
        flag = "  [red]FOUL[/red]" if status == "foul" else ""
        console.print(f"  {name}: {decl.text}  [dim]({status})[/dim]{flag}")
    pairs = result.pairs()
    if pairs:
        table = Table(header_style="bold")
        for col in ("pair", "front", "middle", "back", "units", "rows", "royalties", "bonus",
                    "naturals", "surrender", "aces"):
            table.add_column(col, justify="left" if col in ("pair", "front", "middle", "back") else "right")
        for p in pairs:
            rows = p["rows"] or {"front": "-", "middle": "-", "back": "-"}
            b = p["breakdown"]
            table.add_row(" v ".join(p["names"]), rows["front"], rows["middle"], rows["back"],
                          f"{p['units']:+g}", *(f"{b[k]:+g}" for k in ("rows", "royalties", "bonus",
                                                                        "naturals", "surrender", "aces")))
        console.print(table)
        console.print("[dim]units: paid to the first seat of the pair by the second[/dim]")
    console.print("Totals: " + ", ".join(f"{n} {t:+g}" for n, t in zip(result.names, result.totals)))


_POLICY = click.Choice(list(POLICY_NAMES))


def _progress_bar(label, quiet):
    """A rich progress callback ``(done, total)`` for long runs; None when quiet or piped."""
    import sys

    if quiet or not sys.stderr.isatty():
        return None, None
    from rich.progress import BarColumn, Progress, TextColumn, TimeRemainingColumn

    bar = Progress(TextColumn(label), BarColumn(), TextColumn("{task.completed:,}/{task.total:,}"),
                   TimeRemainingColumn(), console=Console(stderr=True), transient=True)
    task = bar.add_task(label, total=None)
    return bar, lambda done, total: bar.update(task, completed=done, total=total)


@main.command("best")
@click.argument("hand")
@click.option("--rules", "ruleset", default="standard", show_default=True, help="Ruleset id or TOML file.")
@click.option("--players", type=click.IntRange(2, 4), default=4, show_default=True)
@click.option("--opponents", type=_POLICY, default="fitted", show_default=True, help="Opponent policy.")
@click.option("--samples", type=click.IntRange(1), default=10000, show_default=True,
              help="Sampled opponent tables (the most used with --precision).")
@click.option("--seed", type=click.IntRange(0), default=0, show_default=True)
@click.option("--precision", type=float, default=None,
              help="Stop once the best is separated or every CI half-width is below this.")
@click.option("--top", type=click.IntRange(1), default=None, help="Show only the best K.")
@click.option("--strategy", type=click.Path(dir_okay=False), default=None,
              help="Strategy file for fitted opponents.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@click.option("--csv", "csv_path", type=click.Path(dir_okay=False, writable=True), default=None,
              help="Also write every candidate to this CSV file.")
@click.option("--quiet", is_flag=True, help="No progress bar.")
@reports_bad_input
def best_command(hand, ruleset, players, opponents, samples, seed, precision, top, strategy,
                 as_json, csv_path, quiet):
    """Rank every sensible way to set a 13-card HAND by Monte Carlo EV.

    Candidates are the Pareto frontier (plus declaring a natural and surrendering where the
    ruleset has them); all meet the same sampled opponents, so gaps between them are paired.
    """
    from analysis.best import best_setting

    bar, progress = _progress_bar("sampling", quiet or as_json)
    with bar or _nothing():
        result = best_setting(hand, ruleset, players, opponents, samples, seed, precision,
                              strategy=strategy, progress=progress)
    _report_best(result, top, as_json, csv_path)


@main.command("review")
@click.argument("hand")
@click.argument("setting")
@click.option("--rules", "ruleset", default="standard", show_default=True, help="Ruleset id or TOML file.")
@click.option("--players", type=click.IntRange(2, 4), default=4, show_default=True)
@click.option("--opponents", type=_POLICY, default="fitted", show_default=True, help="Opponent policy.")
@click.option("--samples", type=click.IntRange(1), default=10000, show_default=True)
@click.option("--seed", type=click.IntRange(0), default=0, show_default=True)
@click.option("--strategy", type=click.Path(dir_okay=False), default=None)
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@click.option("--quiet", is_flag=True, help="No progress bar.")
@reports_bad_input
def review_command(hand, setting, ruleset, players, opponents, samples, seed, strategy, as_json, quiet):
    """Review the SETTING played with a 13-card HAND: its rank and EV loss against the best."""
    import numpy as np

    from analysis.best import best_setting
    from analysis.cards import format_setting, parse_hand, parse_setting

    cards = parse_hand(hand)
    rows = parse_setting(setting)
    if sorted(np.concatenate(rows).tolist()) != sorted(cards.tolist()):
        raise ValueError("the setting must use exactly the 13 cards of the hand")
    played = format_setting(*rows)
    bar, progress = _progress_bar("sampling", quiet or as_json)
    with bar or _nothing():
        result = best_setting(cards, ruleset, players, opponents, samples, seed, extra=[rows],
                              strategy=strategy, progress=progress)
    table = result.table
    from analysis.best import candidates
    from analysis.hands import setting_strengths

    triple = setting_strengths(*rows, result.rules.wheel_rank)
    # the played setting, or the candidate with its strength triple (they score the same)
    same = {c.label for c in candidates(result.hand, result.rules, extra=[rows])
            if c.rows == triple and c.natural < 0 and not c.surrender}
    match = [i for i, c in enumerate(table["setting"]) if c in same]
    row = table.iloc[match[0]]
    payload = {"setting": played, "rank": match[0] + 1, "candidates": len(table),
               "ev": row.ev, "ci": [row.ci_low, row.ci_high], "best": table.iloc[0].setting,
               "best_ev": table.iloc[0].ev, "loss": -row.gap, "loss_ci": [-row.gap_high, -row.gap_low],
               "distinguishable": bool(row.distinguishable), "samples": result.samples}
    if as_json:
        click.echo(json.dumps(payload, indent=2))
        return
    console = _console()
    console.print(f"Played: [bold]{played}[/bold] ({'foul' if not triple[2] >= triple[1] >= triple[0] else 'legal'})")
    console.print(f"Rank {payload['rank']} of {payload['candidates']}; EV {row.ev:+.3f} "
                  f"[{row.ci_low:+.3f}, {row.ci_high:+.3f}] units per hand")
    if payload["rank"] == 1:
        console.print("This is the best setting found.")
    else:
        console.print(f"Best: {payload['best']} (EV {payload['best_ev']:+.3f}); loss "
                      f"{payload['loss']:.3f} [{payload['loss_ci'][0]:.3f}, {payload['loss_ci'][1]:.3f}]"
                      + ("" if row.distinguishable else " (not distinguishable from 0)"))
    console.print(f"[dim]{result.samples:,} sampled tables, {players} players, {opponents} opponents, "
                  f"{result.rules.id}[/dim]")


@main.command("fit")
@click.option("--rules", "ruleset", required=True, help="Ruleset id or TOML file.")
@click.option("--players", type=click.IntRange(2, 4), default=4, show_default=True)
@click.option("--iterations", type=click.IntRange(1), default=30, show_default=True)
@click.option("--hands", type=click.IntRange(100), default=20000, show_default=True,
              help="Hands dealt per iteration.")
@click.option("--seed", type=click.IntRange(0), default=0, show_default=True)
@click.option("--out", type=click.Path(dir_okay=False), default=None,
              help="Strategy file (default results/strategies/<ruleset>-<players>p.npz).")
@click.option("--resume", is_flag=True, help="Continue an interrupted fit from its checkpoint.")
@click.option("--quiet", is_flag=True, help="No progress bar.")
@reports_bad_input
def fit_command(ruleset, players, iterations, hands, seed, out, resume, quiet):
    """Fit a strategy by blended iterated best response and store it with a manifest.

    Every iteration is checkpointed; after an interruption, --resume continues and ends with
    the same strategy as an uninterrupted fit.
    """
    from analysis.fit import fit_and_save

    bar, progress = _progress_bar("fitting", quiet)
    with bar or _nothing():
        manifest = fit_and_save(ruleset, players, out, resume=resume, iterations=iterations,
                                hands=hands, seed=seed,
                                progress=(lambda it, change: progress(it, iterations)) if progress else None)
    click.echo(f"fitted {manifest['ruleset']} with {players} players: {manifest['iterations']} "
               f"iterations, last CDF change {manifest['cdf_change_per_iteration'][-1]:.4f}, "
               f"{manifest['seconds']} s")


@main.command("exploit")
@click.option("--rules", "ruleset", default="two-four", show_default=True)
@click.option("--players", type=click.IntRange(2, 4), default=2, show_default=True)
@click.option("--policy", type=_POLICY, default="fitted", show_default=True)
@click.option("--deals", type=click.IntRange(1), default=200, show_default=True)
@click.option("--samples", type=click.IntRange(4), default=2000, show_default=True,
              help="Sampled opponent tables per hand (half choose the best response, half measure it).")
@click.option("--seed", type=click.IntRange(0), default=0, show_default=True)
@click.option("--strategy", type=click.Path(dir_okay=False), default=None)
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@click.option("--out", type=click.Path(dir_okay=False), default=None,
              help="Write the result with its provenance to this JSON file (and checkpoint "
                   "finished deals beside it).")
@click.option("--resume", is_flag=True, help="Continue an interrupted run from its checkpoint.")
@click.option("--quiet", is_flag=True, help="No progress bar.")
@reports_bad_input
def exploit_command(ruleset, players, policy, deals, samples, seed, strategy, as_json, out, resume,
                    quiet):
    """What a policy loses per hand to its Monte Carlo best response (duplicate deals)."""
    from pathlib import Path

    from analysis.exploit import exploitability
    from analysis.provenance import provenance, write_json

    if resume and not out:
        raise ValueError("--resume needs --out: the checkpoint lives beside the result file")
    checkpoint = Path(out).with_name(f".{Path(out).stem}.partial.npz") if out else None
    bar, progress = _progress_bar("deals", quiet or as_json)
    with bar or _nothing():
        result = exploitability(ruleset, players, policy, deals, samples, seed, strategy, progress,
                                checkpoint=checkpoint, resume=resume)
    payload = {"gap": result.gap, "ci": list(result.ci), "gap_in_sample": result.gap_in_sample,
               "ci_in_sample": list(result.ci_in_sample), "deals": result.deals,
               "hands": len(result.gaps), "samples": result.samples}
    if out:
        write_json(out, {**payload, "provenance": provenance(
            ruleset=ruleset, players=players, policy=policy, seed=seed, strategy=result.strategy)})
        checkpoint.unlink(missing_ok=True)
    if as_json:
        click.echo(json.dumps(payload))
        return
    click.echo(f"{policy} loses {result.gap:.4f} units per hand to its best response "
               f"(held out, a lower estimate; 95% CI [{result.ci[0]:.4f}, {result.ci[1]:.4f}])\n"
               f"in-sample best response (an upper estimate): {result.gap_in_sample:.4f} "
               f"[{result.ci_in_sample[0]:.4f}, {result.ci_in_sample[1]:.4f}]\n"
               f"{result.deals} deals played from every seat, {result.samples} samples per hand")


@main.command("simulate")
@click.option("--rules", "rulesets", required=True,
              help="Ruleset ids or TOML files, comma-separated; 'all' for every named one.")
@click.option("--players", type=click.IntRange(2, 4), default=4, show_default=True)
@click.option("--seats", default="fitted", show_default=True,
              help="A policy per seat, comma-separated, or one for every seat.")
@click.option("--tables", type=int, default=100000, show_default=True)
@click.option("--seed", type=click.IntRange(0), default=0, show_default=True)
@click.option("--block-size", type=click.IntRange(1), default=500, show_default=True,
              help="Tables per block (one random stream each; the unit of checkpoints and tasks).")
@click.option("--out", required=True, type=click.Path(file_okay=False),
              help="Folder for the reports, plots, manifest and checkpoint.")
@click.option("--resume", is_flag=True, help="Continue an interrupted run in --out.")
@click.option("--scheduler", default=None, help="Run the blocks on this Dask scheduler (tcp://HOST:PORT).")
@click.option("--workers", type=click.IntRange(1), default=None,
              help="Start a local Dask cluster of this many worker processes.")
@click.option("--quiet", is_flag=True, help="No progress bar.")
@reports_bad_input
def simulate_command(rulesets, players, seats, tables, seed, block_size, out, resume, scheduler,
                     workers, quiet):
    """Deal many tables, set them with the seats' policies, score them under every ruleset.

    The same deals meet every ruleset (common random numbers).  Finished blocks are
    checkpointed in --out; after an interruption, --resume continues and ends with the same
    numbers.  The report (CSV, Parquet, Markdown, plots, manifest) is written at the end;
    `sapsam report DIR` re-renders it.
    """
    import time
    from pathlib import Path

    from analysis.simulate import Simulation, run

    ids = _rules.ruleset_ids() if rulesets.strip() == "all" else [r.strip() for r in rulesets.split(",")]
    for rid in ids:
        _rules.load_ruleset(rid)  # unknown ids and malformed files fail here, with their message
    names = [x.strip() for x in seats.split(",")]
    sim = Simulation(tuple(ids), players, tuple(names * players if len(names) == 1 else names),
                     tables, seed, block_size)
    if scheduler and workers:
        raise ValueError("give --scheduler or --workers, not both")
    folder = writable_folder(out)
    start = time.perf_counter()
    bar, progress = _progress_bar("tables", quiet)
    backend = "local"
    with bar or _nothing():
        if scheduler or workers:
            from analysis.cluster import dask_compute

            backend = f"dask {scheduler or f'LocalCluster({workers} workers)'}"
            with dask_compute(sim, scheduler=scheduler, workers=workers) as compute:
                # rounds (between checkpoints) big enough to keep every worker busy
                totals = run(sim, folder, resume, progress, compute=compute,
                             round_blocks=max(8, 4 * (workers or compute.workers)))
        else:
            totals = run(sim, folder, resume, progress)
    from analysis.report import write_report
    from analysis.simulate import compile_simulation, seats_frame

    seconds = time.perf_counter() - start
    compiled = compile_simulation(sim)
    write_report(folder, sim, compiled, totals, seconds, backend)
    table = Table(header_style="bold", title="EV per hand (units), 95% CI")
    for col in ("ruleset", "seat", "policy", "EV", "95% CI", "SD"):
        table.add_column(col, justify="left" if col in ("ruleset", "policy") else "right")
    for row in seats_frame(sim, compiled, totals[0]).itertuples(index=False):
        table.add_row(row.ruleset, str(row.seat), row.policy, f"{row.mean:+.4f}",
                      f"[{row.ci_low:+.4f}, {row.ci_high:+.4f}]", f"{row.sd:.3f}")
    console = _console()
    console.print(table)
    console.print(f"{tables:,} tables x {len(ids)} rulesets in {seconds:.1f} s "
                  f"({tables / seconds:,.0f} tables/s); report, plots and manifest in {folder}")


@main.command("report")
@click.argument("folder", type=click.Path(file_okay=False))
@reports_bad_input
def report_command(folder):
    """Re-render the report of a finished simulation in FOLDER (no simulating)."""
    from pathlib import Path

    from analysis.report import render_report

    if not any((Path(folder) / name).is_file() for name in ("manifest.json", "checkpoint.npz")):
        raise ValueError(f"{folder} holds no simulation (no manifest.json or checkpoint.npz)")
    render_report(folder)
    click.echo(f"re-rendered the report in {folder}")


# analysis.charts.CHART_KINDS, spelled out so that every command does not import pandas
# (tests/test_charts.py checks they agree)
_CHART_KINDS = ("rows", "front", "rulesets", "declare", "policies")


@main.command("chart")
@click.argument("kind", type=click.Choice(_CHART_KINDS))
@click.option("--rules", "ruleset", default=None,
              help="Ruleset id or TOML file [default: standard]; for 'rulesets', ids "
                   "comma-separated or 'all' (every one with a fitted strategy) [default: all].")
@click.option("--players", type=click.IntRange(2, 4), default=4, show_default=True)
@click.option("--samples", type=click.IntRange(1), default=None,
              help="Hands (front) or tables (rulesets: per ruleset; declare, policies) "
                   "[default: 20,000; rulesets 4,000]; rows is exact.")
@click.option("--seed", type=click.IntRange(0), default=0, show_default=True)
@click.option("--policies", default="greedy,balanced", show_default=True,
              help="Policies measured against fitted (rulesets, policies), comma-separated.")
@click.option("--out", type=click.Path(file_okay=False), default="results/charts",
              show_default=True, help="Folder for the chart, its data and manifest.")
@reports_bad_input
def chart_command(kind, ruleset, players, samples, seed, policies, out):
    """Draw a strategy chart of the fitted strategy: KIND is rows (win chance by hand and row),
    front (what goes in front), declare (naturals and surrender), policies (what greedy,
    balanced... cost against fitted) or rulesets (the same, by ruleset).

    Writes <kind>-<rules>-<players>p.png/.svg, the data as .csv and a .json manifest.
    """
    from analysis.charts import write_chart

    if kind == "rulesets":
        text = (ruleset or "all").strip()
        rules = "all" if text == "all" else [r.strip() for r in text.split(",") if r.strip()]
    else:
        rules = ruleset or "standard"
        if "," in rules:
            raise ValueError(f"chart {kind} takes one ruleset, got {rules!r}")
    names = [p.strip() for p in policies.split(",") if p.strip()]
    for path in write_chart(kind, rules, players, samples, seed, out, names):
        click.echo(str(path))


@main.command("houseway")
@click.option("--rules", "rulesets", default="standard", show_default=True,
              help="Ruleset ids, comma-separated, or 'all' (every one with a fitted strategy).")
@click.option("--players", type=click.IntRange(2, 4), default=4, show_default=True)
@click.option("--tables", type=click.IntRange(1), default=20000, show_default=True,
              help="Seeded tables for the paired cost against fitted (per ruleset).")
@click.option("--seed", type=click.IntRange(0), default=0, show_default=True)
@click.option("--out", type=click.Path(file_okay=False), default="results/houseway",
              show_default=True, help="Folder for <rules>-<players>p.md/.json and costs.csv.")
@click.option("--price", is_flag=True,
              help="Also measure charts of 2 to 8 lines per row (the price of simplicity).")
@reports_bad_input
def houseway_command(rulesets, players, tables, seed, out, price):
    """Derive the house way (a dozen-line point count for setting a hand) from the fitted
    strategy and measure what following it costs against fitted players.

    Prints the rules and the cost with its 95% CI; writes them under --out.
    """
    from analysis.houseway import write_costs, write_houseway, write_price_of_simplicity
    from analysis.policies import fitted_strategies

    fitted = [r for r, p in fitted_strategies() if p == players]
    ids = fitted if rulesets.strip() == "all" else [r.strip() for r in rulesets.split(",") if r.strip()]
    for rid in ids:
        _rules.load_ruleset(rid)  # an unknown id fails before any work
        if rid not in fitted:
            raise ValueError(f"no fitted strategy for {rid} with {players} players; "
                             f"run 'sapsam fit --rules {rid} --players {players}'")
    writable_folder(out)
    results = []
    for rid in ids:
        way, gap, _ = write_houseway(rid, players, tables, seed, out)
        results.append((way, gap))
        click.echo(way.describe())
        click.echo(f"Cost against fitted: {-gap.gap:.3f} units per hand "
                   f"(95% CI {-gap.ci_high:.3f} to {-gap.ci_low:.3f}; {tables:,} paired tables)\n")
        if price:
            for path in write_price_of_simplicity(rid, players, tables, seed, out):
                click.echo(f"wrote {path}")
    if len(results) > 1:
        click.echo(f"wrote {write_costs(results, out, players)}")


def _report_best(result, top, as_json, csv_path):
    table = result.table
    if csv_path:
        try:
            table.to_csv(csv_path, index=False)
        except OSError as exc:
            raise ValueError(f"cannot write {csv_path}: {exc.strerror}") from None
    if as_json:
        click.echo(json.dumps({"hand": format_cards(result.hand, descending=True),
                               "rules": result.rules.id, "players": result.players,
                               "opponents": result.opponents, "samples": result.samples,
                               "seed": result.seed, "candidates": result.to_records(top)}, indent=2))
        return
    console = _console()
    console.print(f"Hand: [bold]{format_cards(result.hand, descending=True)}[/bold]   "
                  f"{result.rules.id}, {result.players} players, {result.opponents} opponents, "
                  f"{result.samples:,} sampled tables (seed {result.seed})")
    grid = Table(header_style="bold")
    for col in ("#", "setting", "EV", "95% CI", "gap to best", "gap CI", "F w/t/l", "M w/t/l",
                "B w/t/l", "sweep", "swept"):
        grid.add_column(col, justify="left" if col == "setting" else "right")
    for i, row in enumerate(table.head(top).itertuples(index=False), 1):
        gap = "best" if i == 1 else f"{row.gap:+.3f}" + ("" if row.distinguishable else " ~")
        grid.add_row(str(i), row.setting, f"{row.ev:+.3f}", f"[{row.ci_low:+.3f}, {row.ci_high:+.3f}]",
                     gap, "" if i == 1 else f"[{row.gap_low:+.3f}, {row.gap_high:+.3f}]",
                     *(f"{getattr(row, r + '_win'):.2f}/{getattr(row, r + '_tie'):.2f}/{getattr(row, r + '_loss'):.2f}"
                       for r in ("front", "middle", "back")),
                     f"{row.sweep:.3f}", f"{row.swept:.3f}")
    console.print(grid)
    console.print("[dim]EV in units per hand; '~' = not distinguishable from the best at 95%; "
                  "w/t/l per opponent[/dim]")


class _nothing:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


def _int_list(text, option):
    try:
        return [int(x) for x in text.split(",")]
    except ValueError:
        raise ValueError(f"{option} takes whole numbers separated by commas, got {text!r}") from None


def _console():
    """A rich console; wide enough for whole rows when the output is not a terminal."""
    console = Console()
    return console if console.is_terminal else Console(width=200)


def run():
    """The ``sapsam`` console command: click's own usage errors also fit on one line."""
    try:
        code = main(standalone_mode=False)
    except click.UsageError as exc:
        click.echo(f"Error: {exc.format_message()}", err=True)
        sys.exit(2)
    except click.ClickException as exc:
        exc.show()
        sys.exit(exc.exit_code)
    except click.Abort:
        click.echo("Aborted.", err=True)
        sys.exit(130)
    sys.exit(code if isinstance(code, int) else 0)


if __name__ == "__main__":
    run()
