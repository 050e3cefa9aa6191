"""What each kind of job does: the same analyses and files as the command of its name, into the
job's folder, with the job's progress (:class:`sapsam.web.jobs.Job`)."""

import time

from sapsam.base.files import provenance, write_json


def run_job(job):
    """Do ``job`` (its ``kind`` and checked ``params``); returns its JSON-ready result."""
    return WORK[job.kind](job, **{k: v for k, v in job.params.items() if k != "kind"})


def _simulate(job, rules, players, seats, tables, seed, block_size):
    from sapsam.measure.simulate import Simulation, compile_simulation, run
    from sapsam.output.report import write_report
    from sapsam.output.simulation_frames import seats_frame

    if len(seats) not in (1, players):
        raise ValueError(f"seats: give one policy for every seat or {players}, got {len(seats)}")
    sim = Simulation(tuple(rules), players, tuple(seats * players if len(seats) == 1 else seats),
                     tables, seed, block_size)
    start = time.perf_counter()
    totals = run(sim, job.folder, progress=job.stage_callback("tables", tables, "tables"),
                 fresh=True)
    compiled = compile_simulation(sim)
    write_report(job.folder, sim, compiled, totals, time.perf_counter() - start, "local")
    return {"seats": seats_frame(sim, compiled, totals[0]).to_dict("records")}


def _exploit(job, rules, players, policy, deals, samples, seed):
    from sapsam.measure.exploit import exploitability

    result = exploitability(rules, players, policy, deals, samples, seed,
                            progress=job.stage_callback("deals", deals, "deals"))
    payload = result.to_dict()
    write_json(job.folder / "exploit.json", {**payload, "provenance": provenance(
        ruleset=rules, players=players, policy=policy, seed=seed, strategy=result.strategy)})
    return payload


def _houseway(job, rules, players, tables, seed):
    from sapsam.output.houseway import write_houseway

    way, gap, _ = write_houseway(rules, players, tables, seed, job.folder,
                                 stage=job.stage_callback)
    return {"rules": rules, "players": players, "house_way": way.describe(),
            "cost": -gap.gap, "ci": [-gap.ci_high, -gap.ci_low], "tables": tables}


def _chart(job, chart, rules, players, samples, seed, policies):
    from sapsam.output.charts import write_chart

    paths = write_chart(chart, rules, players, samples, seed, job.folder, list(policies),
                        progress=job.stage_callback(f"chart {chart}", unit="hands"))
    return {"chart": chart, "files": [p.name for p in paths]}


WORK = {"simulate": _simulate, "exploit": _exploit, "houseway": _houseway, "chart": _chart}
