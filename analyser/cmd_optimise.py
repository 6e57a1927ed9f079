"""`boston-analyser optimise`: the best response in the threshold family to a field
strategy, iterated towards a stable profile, with the strategy chart (analyser/optimise.py)."""

import datetime
from pathlib import Path

from analyser import options
from analyser.cmd_session import add_play_arguments
from analyser.session import CONCESSIONS, MAX_SESSIONS, PLAY_MODES

DEFAULT_SESSIONS = 30
DEFAULT_SEED = 1
DEFAULT_ROUNDS = 1
MAX_ROUNDS = 20
DEFAULT_OUT = "out/optimise"
MAX_ROUND_SESSIONS = MAX_SESSIONS // MAX_ROUNDS  # all rounds' sessions within one session run
REGION_HANDS = 1500  # sampled hands per strategy chart, each called at all four positions
STRATEGY_FILE, SEARCH_FILE, ROUNDS_FILE = "strategy.toml", "search.csv", "rounds.csv"
REPORT_FILE = "report.html"

HELP = "search the strategy thresholds that do best against a field strategy; chart them"


def _description() -> str:
    from analyser.optimise import ACCEPT_SE, GRID, PARAMETERS, value_text

    return f"""\
Finds the best response, within the threshold family (docs/strategies.md), to a field
strategy (--field: a built-in name such as cautious, standard, bold, or a strategy file).

Scoring: one seat plays the candidate, three seats the field, in 12-hand sessions (R31)
played four times on the same cards so that the candidate sits in every seat once (as
`boston-analyser session` does). A candidate's gain is its session result (the mean of
its four final balances) minus 1000, which is exactly what the field earns on the same
deals (R8); every candidate of a round plays the same sessions.

Search: coordinate search over the parameters ({', '.join(PARAMETERS)}), each tried at
{', '.join(value_text(v) for v in GRID)} with the others held. The candidate with the best
mean improvement over the incumbent (paired, session by session) replaces it only when
that improvement exceeds {ACCEPT_SE:g} standard errors. A round is one pass against a
fixed field; with --rounds R the next round's field is the last best response, on fresh
sessions, until a round accepts nothing (a stable profile) or R rounds are done.

Options:
  --field X        the field's strategy: a built-in name or a strategy file (required)
  --sessions N     sessions per round, 2..{MAX_ROUND_SESSIONS:,} (default {DEFAULT_SESSIONS}); each
                   candidate plays 4 x 12 hands per session
  --seed S         root seed, 0..2^63-1 (default {DEFAULT_SEED}); round r plays sessions
                   (r-1)N .. rN-1 of the seed's stream
  --rounds R       rounds of best response, 1..{MAX_ROUNDS} (default {DEFAULT_ROUNDS})
  --parameters P   comma-separated parameters to search (default all: {','.join(PARAMETERS)})
  --play MODE      {' or '.join(PLAY_MODES)} (default dd), as in `session`
  --concede RULE   {' or '.join(CONCESSIONS)} (R28, default made), as in `session`
  --model DIR      the trick estimate the strategies use (analyser.estimate.load)
  --jobs J         worker processes (default 1); the results are the same for any J
  --out DIR        output directory (default {DEFAULT_OUT})

Output in DIR: {STRATEGY_FILE} (the optimised strategy, loadable by `session --strategy
FILE`), {SEARCH_FILE} (every candidate: round, parameter, incumbent and tried value,
sessions, gain and gain_se over the field, improvement and improvement_se over the
incumbent, accepted, gain_exact), {ROUNDS_FILE} (one row per round) and {REPORT_FILE}
(the search and the strategy chart: where the field and the optimised strategy open each
contract, by misère danger and position or by estimated tricks and longest suit).
docs/optimise.md describes it all.
"""


DESCRIPTION = _description()


def _parameters(text):
    from analyser.optimise import check_parameters

    return check_parameters([p.strip() for p in text.split(",") if p.strip()])


def add_arguments(parser):
    """Options of `optimise`, each checked as it is parsed (one line, exit 2)."""
    parser.add_argument("--field", required=True, metavar="X",
                        help="the field's strategy: a built-in name or a file")
    parser.add_argument("--sessions", type=options.argument(options.count, "--sessions", 2,
                                                            MAX_ROUND_SESSIONS),
                        default=DEFAULT_SESSIONS, metavar="N",
                        help=f"sessions per round (default {DEFAULT_SESSIONS})")
    parser.add_argument("--seed", type=options.argument(options.seed, "--seed"),
                        default=DEFAULT_SEED, metavar="S", help="root seed (default 1)")
    parser.add_argument("--rounds", type=options.argument(options.count, "--rounds", 1,
                                                          MAX_ROUNDS),
                        default=DEFAULT_ROUNDS, metavar="R",
                        help=f"rounds of best response (default {DEFAULT_ROUNDS})")
    parser.add_argument("--parameters", type=_parameters, default=None, metavar="P",
                        help="comma-separated parameters to search (default all)")
    add_play_arguments(parser)
    parser.add_argument("--jobs", type=options.argument(options.count, "--jobs", 1, 1024),
                        default=1, metavar="J", help="worker processes (default 1)")
    parser.add_argument("--out", default=DEFAULT_OUT, metavar="DIR",
                        help=f"output directory (default {DEFAULT_OUT})")


def _print_round(row: dict) -> None:
    verdict = "stable: nothing gained 2 se" if row["stable"] else (
        f"gain {row['gain']:+.2f} ± {row['gain_se']:.2f} per session over the field")
    print(f"round {row['round']}: field [{row['field']}] -> best response "
          f"[{row['best_response']}]; changes: {row['changes']}; {verdict}", flush=True)


def run(args) -> int:
    """Search, write the strategy, the tables and the report; 0 on success."""
    from analyser import jit_notice, store
    from analyser.estimate import load as load_estimate
    from analyser.optimise import PARAMETERS, Play, optimise, strategy_toml
    from analyser.strategy import load_strategy

    model = load_estimate(args.model) if args.model is not None else None
    field = load_strategy(args.field, model=model)
    parameters = args.parameters or PARAMETERS
    out = Path(args.out)
    store.check_writable(out)
    play = Play(seed=args.seed, play=args.play, concede=args.concede)
    jit_notice.fire()
    best, search, rounds = optimise(field, play, args.sessions, args.rounds, parameters,
                                    jobs=args.jobs, notify=_print_round)
    command = (f"boston-analyser optimise --field {args.field} --sessions {args.sessions} "
               f"--seed {args.seed} --rounds {args.rounds} --parameters "
               f"{','.join(parameters)} --play {args.play} --concede {args.concede}")
    description = (f"best response to {field.name} within the threshold family, found by "
                   f"`{command}`")
    store.write_text(out / STRATEGY_FILE, strategy_toml(best, description))
    store.write_text(out / SEARCH_FILE, search.to_csv(index=False))
    store.write_text(out / ROUNDS_FILE, rounds.to_csv(index=False))
    report = build_report(out / REPORT_FILE, field, best, search, rounds, parameters,
                          command, args.seed)
    print(f"optimised strategy: {out / STRATEGY_FILE}; search: {out / SEARCH_FILE}; "
          f"rounds: {out / ROUNDS_FILE}; report: {report}")
    return 0


# --------------------------------------------------------------------------- report


MONEY = "{:+.2f}"
SE = "{:.2f}"


def _money_line(search, parameter: str, field_value: str, best_value: str) -> str:
    """What the search found for one parameter, with the money: each accepted step's gain
    over the field (± se) and improvement over the incumbent."""
    steps = search[(search["parameter"] == parameter) & search["accepted"]]
    if steps.empty:
        return (f"{parameter}: threshold kept at {field_value} (no value gained "
                f"{ACCEPT_TEXT} over the incumbent)")
    parts = [f"round {r.round}: {r.incumbent}→{r.value}, gain over the field "
             f"{r.gain:+.1f} ± {r.gain_se:.1f} per session (improvement "
             f"{r.improvement:+.1f} ± {r.improvement_se:.1f})" for r in steps.itertuples()]
    return f"{parameter}: {field_value} → {best_value}; " + "; ".join(parts)


ACCEPT_TEXT = "2 standard errors"


def build_report(path, field, best, search, rounds, parameters, command: str,
                 seed: int) -> Path:
    """Write the optimisation report (self-contained HTML) to `path`; return it."""
    import pandas as pd

    from analyser import store
    from analyser.contracts import LADDER
    from analyser.optimise import (
        NUMBERS_KEY,
        contract_regions,
        parameter_value,
        sample_hands,
        value_text,
    )
    from reports import charts_optimise as charts
    from reports.charts import png
    from reports.html import Image, Params, Section, Table, Text, render_page

    masks, preferences = sample_hands(REGION_HANDS, seed)
    regions = {"field": contract_regions(field, masks, preferences),
               "best": contract_regions(best, masks, preferences)}
    final = rounds.iloc[-1]
    sections = [
        Section("The search", [
            Params([("field", f"{field.name} [{rounds.iloc[0]['field']}]"),
                    ("optimised", f"{best.name} [{final['best_response']}]"),
                    ("rounds played", f"{len(rounds)} ("
                     f"{'stable' if final['stable'] else 'the last still moved'})"),
                    ("sessions per round", f"{int(final['sessions']):,} (x 4 seats x 12 "
                                           "hands per candidate)"),
                    ("acceptance", f"mean paired improvement over the incumbent > {ACCEPT_TEXT}"),
                    ("command", command),
                    ("report written", datetime.datetime.now(datetime.UTC).strftime(
                        "%Y-%m-%d %H:%M UTC"))]),
            Text("Each round is one pass of coordinate search against a fixed field; gain: "
                 "the best response's mean session result over the field on the round's "
                 "sessions (units per session; 0 when nothing was accepted)."),
            Table(rounds, {"gain": MONEY, "gain_se": SE}),
        ]),
        Section("Every candidate", [
            Image(png(charts.search_chart(search, parameters)),
                  "gain over the field of every candidate, with two standard errors"),
            Table(search.drop(columns=["gain_exact"]),
                  {c: MONEY for c in ("gain", "improvement")} |
                  {c: SE for c in ("gain_se", "improvement_se")}),
        ]),
    ]
    blocks = [Text("Where each strategy opens a contract: every sampled hand called by the "
                   "strategy itself at each position as the auction opens (the earlier "
                   "seats passed, R13). Cells: the share of the hands in the cell whose "
                   f"call is the contract. {REGION_HANDS:,} hands from seed {seed}: a third "
                   "uniform, a third weighted to low cards, a third to high cards, so that "
                   "every region has hands.", note=True)]
    for contract in (*[p for p in parameters if p != NUMBERS_KEY], NUMBERS_KEY):
        field_value = value_text(parameter_value(field, contract))
        best_value = value_text(parameter_value(best, contract))
        line = _money_line(search, contract, field_value, best_value) if contract in \
            parameters else f"{contract}: not searched ({field_value})"
        if contract == NUMBERS_KEY:
            labels = ("estimated tricks in the best trump (the estimate's mean)",
                      "longest suit")
            title = "Numbers 5..13 (R10): share of hands that open a number"
        else:
            labels = ("misère danger score (analyser/features.py; 0 = safest)", "position")
            title = f"{contract}: share of hands that open {contract}"
        blocks += [Text(line), Image(png(charts.region_chart(
            [regions["field"][contract], regions["best"][contract]],
            [f"field: {field.name} ({field_value})", f"optimised ({best_value})"],
            title, *labels)), title)]
    sections.append(Section("The strategy chart", blocks))
    contracts = [c for c in LADDER if c in field.thresholds or c in best.thresholds]
    sections.append(Section("The thresholds", [
        Text(f"Estimated P(make) at which each strategy bids a contract (blank: never); "
             f"the optimised one is written to {STRATEGY_FILE}."),
        Table(pd.DataFrame({"contract": contracts,
                            "field": [field.thresholds.get(c) for c in contracts],
                            "optimised": [best.thresholds.get(c) for c in contracts]}),
              {"field": "{:.2f}", "optimised": "{:.2f}"})]))
    intro = [Text("Best response in the threshold family to a field strategy, searched on "
                  "common deals (docs/optimise.md).")]
    page = render_page(f"Boston strategy optimisation: best response to {field.name}",
                       intro, sections)
    store.write_text(path, page)
    return Path(path)
