"""Commands about strategies: ``fit`` one, ``exploit`` it, derive the ``houseway`` from it,
draw a ``chart`` of it."""

import click

from sapsam.base.files import json_text, writable_folder
from sapsam.cli.common import (
    Names,
    OutputFile,
    OutputFolder,
    compile_notice,
    console,
    distinct_rulesets,
    fits_ready,
    given,
    json_option,
    print_verdict,
    quiet_option,
    reports_bad_input,
    resumable,
    resume_options,
    resume_or_fresh,
    rules_option,
    seed_option,
    unwritable,
    wrapped,
)
from sapsam.play.names import CHART_KINDS, POLICY_NAMES

_POLICY = click.Choice(POLICY_NAMES)
HOUSEWAY_OUT = "results/houseway"  # houseway's --out by default (a HAND writes nothing)


@click.command("fit")
@rules_option(None, required=True)
@click.option("--players", type=click.IntRange(2, 4), default=None,
              help="Table size  [default: the ruleset's, 4 but in criss-cross]")
@click.option("--iterations", type=click.IntRange(1), default=30, show_default=True)
@click.option("--hands", type=click.IntRange(100), default=20000, show_default=True,
              help="Hands dealt per iteration.")
@click.option("--removal-rounds", type=click.IntRange(0), default=4, show_default=True,
              help="Rounds of self-play fitting the card-removal model (0: none).")
@click.option("--removal-tables", type=click.IntRange(1000), default=None,
              help="Tables dealt per round of the card-removal fit  [default: about 400,000 "
                   "pairs of a hand and an opposing hand, at least 20,000 tables]")
@click.option("--removal-features", type=click.Choice(["16", "61"]), default="61", show_default=True,
              help="Features of a hand the card-removal model reads: its rank counts and longest "
                   "suits (16), and which ranks it holds two, three or four times and the suits' "
                   "powers too (61).")
@click.option("--exact-field", "exact_splits", type=click.IntRange(0, 100_000), default=None,
              help="Criss-cross: deal each side's 26 cards this many ways to value a player's "
                   "settings against the opponent's exact field (0: the fitted field)  [default: "
                   "512 where rows pay their unit alone, else none]")
@seed_option()
@click.option("--out", type=OutputFile(), default=None,
              help="Strategy file, ending in .npz [default: <ruleset>-<players>p.npz in your "
                   "data folder, where sapsam looks first].")
@resume_options
@quiet_option()
@reports_bad_input
def fit_command(ruleset, players, iterations, hands, seed, removal_rounds, removal_tables, removal_features,
                exact_splits, out, resume, fresh, quiet):
    """Fit a strategy by blended iterated best response and store it with a manifest.

    The field's rows are fitted first, then a card-removal model (how the field changes with
    the cards a hand holds) by rounds of self-play.  Every iteration of the first is
    checkpointed; after an interruption, --resume continues and ends with the same strategy
    as an uninterrupted fit.  The shipped strategies are never overwritten unless --out names
    them.
    """
    from sapsam.base.files import checkpoint_beside, lock_beside
    from sapsam.base.progress import Progress
    from sapsam.compile import policy_kernels
    from sapsam.game.ruleset_files import load_ruleset
    from sapsam.strategy.fit import default_strategy_path, fit_and_save, strategy_file

    resume_or_fresh(resume, fresh)
    rules = load_ruleset(ruleset)
    players = rules.check_players(players or rules.players)
    path = strategy_file(out or default_strategy_path(rules.id, players))
    reason = unwritable(path.parent)
    if reason:
        raise ValueError(f"cannot write {path}: {reason}")
    compile_notice(quiet, *policy_kernels())
    resumable(saved=[checkpoint_beside(path)])
    with lock_beside(path), Progress(quiet) as bars:
        task = bars.task("fitting", iterations, unit="iterations")
        removal = bars.task("card removal", removal_rounds, unit="rounds") if removal_rounds else None
        manifest = fit_and_save(rules, players, path, resume=resume, fresh=fresh,
                                iterations=iterations, hands=hands, seed=seed,
                                removal_rounds=removal_rounds, removal_tables=removal_tables,
                                removal_features=int(removal_features), exact_splits=exact_splits,
                                progress=(lambda it, change: task(it)) if task else None,
                                removal_progress=(lambda it, change: removal(it)) if removal else None)
    model = manifest.get("card_removal")
    extra = f", card removal in {model['rounds']} rounds" if model else ""
    exact = manifest.get("exact_field")
    extra += f", an exact field of {exact['splits']} splits" if exact else ""
    click.echo(f"fitted {manifest['ruleset']} with {players} players: {manifest['iterations']} "
               f"iterations, last CDF change {manifest['cdf_change_per_iteration'][-1]:.4f}{extra}, "
               f"{manifest['seconds']} s\nwrote {path} and {path.with_suffix('.json')}")


@click.command("exploit")
@rules_option("two-four", help=None)
@click.option("--players", type=click.IntRange(2, 4), default=2, show_default=True)
@click.option("--policy", type=_POLICY, default="fitted", show_default=True)
@click.option("--deals", type=click.IntRange(1), default=200, show_default=True)
@click.option("--samples", type=click.IntRange(4), default=2000, show_default=True,
              help="Sampled opponent tables per hand (half choose the best response, half measure it).")
@seed_option()
@click.option("--strategy", type=click.Path(dir_okay=False, exists=True), default=None)
@json_option()
@click.option("--out", type=OutputFile(), default=None,
              help="Write the result with its provenance to this JSON file (and checkpoint "
                   "finished deals beside it).")
@resume_options
@quiet_option()
@reports_bad_input
def exploit_command(ruleset, players, policy, deals, samples, seed, strategy, as_json, out, resume,
                    fresh, quiet):
    """What a policy loses per hand to its Monte Carlo best response (duplicate deals)."""

    from sapsam.base.files import checkpoint_beside, provenance, write_json, writing_result
    from sapsam.base.progress import Progress
    from sapsam.compile import best_kernels
    from sapsam.measure.best import sampler_search
    from sapsam.measure.exploit import exploitability

    resume_or_fresh(resume, fresh, out)
    checkpoint = checkpoint_beside(out) if out else None
    compile_notice(quiet or as_json, *best_kernels(ruleset, policy), search=sampler_search(policy, ruleset))
    if out:
        resumable(saved=[checkpoint])
    with writing_result(out, resume, fresh), Progress(quiet or as_json) as bars:
        if strategy is None:
            fits_ready([ruleset], players, [policy], bars, quiet or as_json)
        result = exploitability(ruleset, players, policy, deals, samples, seed, strategy,
                                bars.task("deals", deals, unit="deals"), checkpoint=checkpoint,
                                resume=resume, fresh=fresh)
        payload = result.to_dict()
        if out:
            write_json(out, {**payload, "provenance": provenance(
                ruleset=ruleset, players=players, policy=policy, seed=seed, strategy=result.strategy)})
            checkpoint.unlink(missing_ok=True)
    if as_json:
        click.echo(json_text(payload))
        return
    click.echo(f"{policy} loses {result.gap:.4f} units per hand to its best response\n"
               f"  held out (a lower estimate): 95% CI [{result.ci[0]:.4f}, {result.ci[1]:.4f}]\n"
               f"in-sample best response (an upper estimate): {result.gap_in_sample:.4f} "
               f"[{result.ci_in_sample[0]:.4f}, {result.ci_in_sample[1]:.4f}]\n"
               f"{result.deals} deals played from every seat, {result.samples} samples per hand; "
               f"{ruleset}, {players} players, seed {seed}")


# sapsam.output.charts.CHART_KINDS, spelled out so that the command line does not import pandas
# (tests/test_charts.py checks they agree)
@click.command("chart")
@click.argument("kind", type=click.Choice(CHART_KINDS))
@click.option("--rules", "rulesets", type=Names(every="all"), default=None,
              help="Ruleset id or TOML file [default: standard]; for 'rulesets', ids "
                   "comma-separated or 'all' (every one with a fitted strategy) [default: all].")
@click.option("--players", type=click.IntRange(2, 4), default=None,
              help="Table size [default: the ruleset's; 4 for rulesets].")
@click.option("--samples", type=click.IntRange(1), default=None,
              help="Hands (front) or tables (rulesets: per ruleset; declare, policies) "
                   "[default: 20,000; rulesets 4,000]; rows is exact.")
@seed_option()
@click.option("--policies", type=Names(POLICY_NAMES), default="greedy,balanced",
              show_default=True,
              help="Policies measured against fitted (rulesets, policies), comma-separated.")
@click.option("--out", type=OutputFolder(), default="results/charts",
              show_default=True, help="Folder for the chart, its data and manifest.")
@quiet_option()
@reports_bad_input
def chart_command(kind, rulesets, players, samples, seed, policies, out, quiet):
    """Draw a strategy chart of the fitted strategy: KIND is rows (win chance by hand and row),
    front (what goes in front), declare (naturals and surrender), policies (what greedy,
    balanced... cost against fitted), rulesets (the same, by ruleset) or match (first-to-11:
    where playing for the match and for points differ, by score; --samples hands).

    Writes <kind>-<rules>-<players>p.png/.svg, the data as .csv and a .json manifest.
    """
    from sapsam.base.progress import Progress
    from sapsam.compile import policy_kernels
    from sapsam.game.ruleset_files import load_ruleset, ruleset_ids
    from sapsam.output.charts import write_chart

    if kind == "rulesets":
        rules = "all" if rulesets in (None, ("all",)) else distinct_rulesets(rulesets)
    else:
        if rulesets and len(rulesets) > 1:
            raise ValueError(f"chart {kind} takes one ruleset, got {','.join(rulesets)}")
        rules = distinct_rulesets(rulesets or ["first-to-11" if kind == "match" else "standard"])[0]
    if players is None:
        players = 4 if kind == "rulesets" else load_ruleset(rules).players
    compile_notice(quiet, *policy_kernels())
    with Progress(quiet) as bars:
        # "all": every named ruleset played at this table, as the chart takes them (not criss-cross at 4)
        named = ([r for r in ruleset_ids() if players in load_ruleset(r).tables] if rules == "all"
                 else [rules] if isinstance(rules, str) else rules)
        fits_ready(named, players, ["fitted"], bars, quiet)  # the chart's baseline
        paths = write_chart(kind, rules, players, samples, seed, out, list(policies),
                            progress=bars.task(f"chart {kind}", unit="hands"))
    for path in paths:
        click.echo(str(path))


@click.command("houseway")
@click.argument("hand", required=False)
@click.option("--rules", "rulesets", type=Names(every="all"), default="standard", show_default=True,
              help="Ruleset ids or TOML files, comma-separated, or 'all' (every named one).")
@click.option("--players", type=click.IntRange(2, 4), default=None,
              help="Table size [default: one ruleset's own; 4 for several or all].")
@click.option("--tables", type=click.IntRange(1), default=20000, show_default=True,
              help="Seeded tables for the paired cost against fitted (per ruleset).")
@click.option("--samples", type=click.IntRange(1), default=10000, show_default=True,
              help="With HAND: sampled tables for the EV of its settings.")
@click.option("--opponents", type=click.Choice(POLICY_NAMES), default="fitted", show_default=True,
              help="With HAND: the opponents' policy.")
@click.option("--other", default=None,
              help="With HAND in criss-cross: your other hand (13 cards); the opponent holds the rest.")
@seed_option()
@click.option("--out", type=OutputFolder(), default=None,  # checked in the body: a HAND writes nothing
              help="Folder for <rules>-<players>p.md/.json, the chart page (-chart.pdf/.png) and "
              f"costs-<players>p.csv.  [default: {HOUSEWAY_OUT}]")
@click.option("--price", is_flag=True,
              help="Also measure charts of 2 to 24 lines (the price of simplicity).")
@click.option("--ship", is_flag=True,
              help="Also store each chart in the package (maintainers: make houseways).")
@json_option("With HAND: print JSON.")
@quiet_option()
@reports_bad_input
def houseway_command(hand, rulesets, players, tables, samples, opponents, other, seed, out, price,
                     ship, as_json, quiet):
    """Derive the house way (a dozen-line point count for setting a hand) from the fitted
    strategy and measure what following it costs against fitted players.

    Prints the rules and the cost with its 95% CI; writes them under --out.  With a 13-card
    HAND: how the house way sets that hand and which rule decided it, next to the best
    setting and the EV the house way gives up (paired, with its 95% CI).
    """
    from sapsam.base.progress import Progress
    from sapsam.compile import policy_kernels
    from sapsam.game.ruleset_files import load_ruleset, ruleset_ids
    from sapsam.output.houseway import (
        write_costs,
        write_houseway,
        write_price_of_simplicity,
    )
    from sapsam.strategy.houseway import ship_chart
    from sapsam.strategy.houseway_chart import has_house_way

    if players is None:  # one ruleset: its own table; several: four players each
        players = load_ruleset(rulesets[0]).players if len(rulesets) == 1 and rulesets != ("all",) else 4
    # each option serves one of the two uses: refuse one given for the other, never ignore it
    with_hand, without = ("samples", "opponents", "other", "as_json"), ("tables", "out", "price", "ship")
    stray = given(*(without if hand is not None else with_hand))
    if stray:
        raise click.BadParameter(f"goes {'without' if hand is not None else 'with'} a HAND",
                                 param_hint=f"'{stray[0]}'")
    if hand is not None:
        return _houseway_hand(hand, rulesets, players, opponents, samples, seed, as_json, quiet,
                              other)
    if ship and seed != 0:
        raise click.BadParameter("only the house way derived with seed 0 ships",
                                 param_hint="'--ship'")
    out = out or str(writable_folder(HOUSEWAY_OUT))
    ids = ruleset_ids() if rulesets == ("all",) else distinct_rulesets(rulesets)
    if rulesets == ("all",):  # those with a house way at this table; a named one gets its error
        ids = [rid for rid in ids if has_house_way(load_ruleset(rid))
               and players in load_ruleset(rid).tables]
    compile_notice(quiet, *policy_kernels())
    results = []
    for rid in ids:
        with Progress(quiet) as bars:
            fits_ready([rid], players, ["fitted"], bars, quiet)
            way, gap, _ = write_houseway(rid, players, tables, seed, out, stage=bars.task)
            click.echo(wrapped(way.describe(markdown=False)))
            click.echo(wrapped(f"Cost against fitted: {-gap.gap:.3f} units per hand (95% CI "
                               f"{-gap.ci_high:.3f} to {-gap.ci_low:.3f}; {tables:,} paired "
                               "tables)") + "\n")
            if ship:
                click.echo(f"shipped {ship_chart(way)}")
            if price:
                task = bars.task(f"{rid}: price of simplicity", unit="charts")
                for path in write_price_of_simplicity(rid, players, tables, seed, out,
                                                      progress=task):
                    click.echo(f"wrote {path}")
        results.append((way, gap))
    if len(results) > 1:
        click.echo(f"wrote {write_costs(results, out, players)}")


def _houseway_hand(hand, rulesets, players, opponents, samples, seed, as_json, quiet, other):
    """``sapsam houseway HAND``: the house way's decision explained, beside the best."""
    from sapsam.base.progress import Progress
    from sapsam.compile import best_kernels
    from sapsam.game.cards import parse_hand
    from sapsam.game.ruleset_files import load_ruleset
    from sapsam.measure.best import sampler_search, unseen_cards
    from sapsam.measure.review import houseway_review

    parse_hand(hand)  # bad cards are told before anything else
    if rulesets == ("all",) or len(rulesets) != 1:
        raise click.BadParameter("with a HAND, give one ruleset", param_hint="'--rules'")
    rules = load_ruleset(rulesets[0])
    unseen_cards(hand, rules, other)  # a missing or needless other hand, before any fit on demand
    compile_notice(quiet or as_json, *best_kernels(rules, opponents), search=sampler_search(opponents, rules))
    with Progress(quiet or as_json) as bars:
        fits_ready([rules], players, ["fitted", opponents], bars, quiet or as_json)
        payload = houseway_review(hand, rules, players, opponents, samples, seed,
                                  stage=bars.task, other=other)
    if as_json:
        click.echo(json_text(payload, indent=2))
        return
    way = payload["houseway"]
    out = console()
    out.print(f"Hand: [bold]{payload['hand']}[/bold]")
    out.print(f"House way ({rules.id}, {players} players): [bold]{way['decision']}[/bold]")
    out.print(f"  rule {way['rule']}: {way['reason']}")
    for line in way["lines"]:
        out.print(f"  {line['row']:<6} {line['line']}: {line['points']} points")
    low, high = payload["ci"]
    out.print(f"  EV {payload['ev']:+.3f} [{low:+.3f}, {high:+.3f}] units per hand "
              f"(rank {payload['rank']} of {payload['candidates']})")
    print_verdict(out, payload, "The house way plays the best setting found.")
    out.print(f"[dim]{payload['samples']:,} sampled tables, {opponents} opponents[/dim]")
