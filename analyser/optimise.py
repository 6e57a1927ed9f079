"""Best response in the threshold family, iterated towards a stable profile.

The search: one seat plays a candidate strategy against three seats of the field
strategy, on common deals. Each session (12 hands, R31) is played four times on the same
cards (analyser.session's rotation with the strategies [candidate, field, field, field]),
so the candidate sits once in every seat; its session result is the mean of its four
final balances (exact). On the same deals the field's own result, averaged over the four
seats, is exactly START_BALANCE (R8: the balances of a finished session sum to 4000), so
a candidate's gain over the field is its result minus 1000, session by session.

Coordinate search: for each parameter in turn (the numbers' common threshold, then each
misère's and spread's, R15, R16), every value of the grid is tried with the other
parameters at the incumbent's values, on the same sessions. The candidate with the best
mean paired improvement over the incumbent (per-session differences on identical cards)
replaces it only when that improvement exceeds ACCEPT_SE standard errors of the
differences; otherwise the incumbent stays. A round is one pass over the parameters
against a fixed field; the next round's field is the last round's best response, played
on fresh sessions, until a round accepts nothing (a stable profile within the grid and
the noise) or the rounds run out.

Strategy regions (the strategy chart): the strategy's own `call` evaluated on sampled
hands at each position as the auction opens (every earlier seat passed, R13), tabulated
by hand features (misère danger, estimated tricks, longest suit).
"""

import dataclasses
import functools
from fractions import Fraction

import numpy as np
import pandas as pd

from analyser import backends
from analyser.auction import PASS, Auction
from analyser.constants import DEFAULT_POOL, SEATS
from analyser.contracts import MISERE_CONTRACTS, NUMERIC_CONTRACTS, contract_of
from analyser.errors import UserError
from analyser.features import high_card_points, honour_counts, misere_danger, suit_lengths
from analyser.ledger import START_BALANCE
from analyser.session import HANDS, SEAT_COLUMNS, SessionConfig, Table, play_session
from analyser.stats import mean_and_stderr
from analyser.strategy import (
    EXPECTED_VALUE,
    NUMBERS_KEY,
    THRESHOLD,
    CallView,
    ExpectedValueStrategy,
)

PARAMETERS = (NUMBERS_KEY, *MISERE_CONTRACTS)  # searched in this order
NEVER = None  # a parameter value: the contract is never bid (no threshold)
GRID = (0.3, 0.45, 0.6, 0.75, 0.9, NEVER)
ACCEPT_SE = 2.0  # a candidate replaces the incumbent when its paired gain > 2 standard errors
FIELD_SEATS = SEATS - 1


# ----------------------------------------------------------------------- parameters


def value_text(value) -> str:
    """A parameter value as shown in tables: "never", "0.45", or "mixed" (numbers that
    differ from one another)."""
    if value is NEVER:
        return "never"
    return value if isinstance(value, str) else f"{value:g}"


def parameter_value(strategy, parameter: str):
    """The strategy's threshold for `parameter`: a number, NEVER, or "mixed" when the
    numbers 5..13 have different thresholds (R10)."""
    if parameter != NUMBERS_KEY:
        return strategy.thresholds.get(parameter, NEVER)
    values = {strategy.thresholds.get(c, NEVER) for c in NUMERIC_CONTRACTS}
    return values.pop() if len(values) == 1 else "mixed"


def with_parameter(strategy, parameter: str, value, name: str):
    """A copy of `strategy` (same family, estimate, min_ev and pass value) named `name`, with
    `parameter` set to `value`: "numbers" sets every number 5..13; NEVER removes it."""
    thresholds = dict(strategy.thresholds)
    for contract in (NUMERIC_CONTRACTS if parameter == NUMBERS_KEY else (parameter,)):
        thresholds.pop(contract, None)
        if value is not NEVER:
            thresholds[contract] = float(value)
    return dataclasses.replace(strategy, name=name, thresholds=thresholds, source="")


def profile_text(strategy, parameters=PARAMETERS) -> str:
    """The searched parameters of a strategy in one line: "numbers=0.6 LM=0.65 GM=never"."""
    return " ".join(f"{p}={value_text(parameter_value(strategy, p))}" for p in parameters)


def strategy_toml(strategy, description: str) -> str:
    """A strategy file (docs/strategies.md) holding `strategy`, loadable by load_strategy."""
    family = strategy_family(strategy)
    lines = [f"name = {_toml_string(strategy.name)}",
             f"description = {_toml_string(description)}",
             f"family = {_toml_string(family)}"]
    if family == EXPECTED_VALUE:
        lines.append(f"min_ev = {strategy.min_ev!r}")
        if isinstance(strategy.pass_value, float):
            lines.append(f"pass_value = {strategy.pass_value!r}")
    lines += ["", "[thresholds]"]
    numbers = parameter_value(strategy, NUMBERS_KEY)
    for contract, threshold in strategy.thresholds.items():
        if contract in NUMERIC_CONTRACTS and numbers != "mixed":
            continue
        lines.append(f"{_toml_string(contract)} = {threshold!r}")
    if numbers not in ("mixed", NEVER):
        lines.insert(lines.index("[thresholds]") + 1, f"numbers = {numbers!r}")
    return "\n".join(lines) + "\n"


def strategy_family(strategy) -> str:
    """"ev" for the expected-value family, else "threshold" (analyser.strategy)."""
    return EXPECTED_VALUE if isinstance(strategy, ExpectedValueStrategy) else THRESHOLD


def _toml_string(text: str) -> str:
    escaped = text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
    return f'"{escaped}"'


# ------------------------------------------------------------------------ evaluation


@dataclasses.dataclass(frozen=True)
class Play:
    """How the sessions are played: the seed and analyser.session's play options."""

    seed: int
    play: str = "dd"
    deal_model: str = "random"
    concede: str = "made"

    def config(self, sessions: int) -> SessionConfig:
        labels = ("candidate", *("field",) * FIELD_SEATS)  # the rotation needs 4 strategies
        return SessionConfig(sessions=sessions, seed=self.seed, strategies=labels,
                             play=self.play, deal_model=self.deal_model, concede=self.concede)


def candidate_results(play: Play, candidates, field, sessions) -> list[list[Fraction]]:
    """For each candidate, its exact session result (the mean of its four final balances,
    one per seat) in each session of `sessions`, against three field seats. One `Table`
    serves every candidate, so a contract already played on the same cards is not solved
    again."""
    config = play.config(max(sessions) + 1)
    table = Table(config.play, config.defender_discard, config.deal_model == "cut-only")
    timing = {}
    out = []
    for candidate in candidates:
        seated = [candidate, *(field,) * FIELD_SEATS]
        results = []
        for session in sessions:
            total = Fraction(0)
            for rotation in range(SEATS):
                rows = play_session(config, seated, session, rotation, table, timing)
                seat = (-rotation) % SEATS  # seat_strategy(seat, rotation, 4) == 0
                final = rows[-1]
                assert final["hand"] == HANDS
                total += Fraction(final[f"balance_{SEAT_COLUMNS[seat]}"])
            results.append(total / SEATS)
        out.append(results)
    return out


def _chunk_results(chunk, play, candidates, field):
    return chunk[0], candidate_results(play, candidates, field, chunk)


def evaluate(play: Play, candidates, field, sessions: range, jobs: int = 1):
    """`candidate_results` over `sessions`, cut into chunks played by `jobs` processes
    (analyser.backends.run_chunks on joblib); the results do not depend on `jobs`."""
    n = max(1, min(jobs, len(sessions)))
    bounds = np.linspace(sessions.start, sessions.stop, n + 1).round().astype(int)
    chunks = [range(a, b) for a, b in zip(bounds[:-1], bounds[1:], strict=True) if b > a]
    work = functools.partial(_chunk_results, play=play, candidates=list(candidates),
                             field=field)
    parts = dict(backends.run_chunks(work, chunks, jobs=jobs))
    return [sum((parts[c.start][i] for c in chunks), []) for i in range(len(candidates))]


# ---------------------------------------------------------------------------- search


def _stats(values) -> tuple[float, float]:
    return mean_and_stderr([float(v) for v in values])


def accepts(differences, factor: float = ACCEPT_SE) -> bool:
    """The acceptance rule: the mean paired improvement exceeds `factor` standard errors
    (with at least two sessions; a zero standard error accepts any positive mean)."""
    mean, se = _stats(differences)
    return len(differences) >= 2 and mean > 0 and mean > factor * se


def best_response(field, evaluate_candidates, parameters=PARAMETERS, grid=GRID,
                  round_number: int = 1, name: str = "best-response"):
    """Coordinate search from `field` for the best response to it.

    `evaluate_candidates(candidates)` returns each candidate's exact session results
    against the field on the round's common sessions. Returns (best strategy, search rows:
    one per candidate tried, with its gain over the field and its improvement over the
    incumbent of the moment, each with a standard error, and whether it was accepted)."""
    incumbent = dataclasses.replace(field, name=name, source="")
    incumbent_results = None  # the field against itself: START_BALANCE in every session
    rows = []
    for parameter in parameters:
        current = parameter_value(incumbent, parameter)
        values = [v for v in grid if v != current]
        if not values:
            continue
        candidates = [with_parameter(incumbent, parameter, v, name) for v in values]
        results = evaluate_candidates(candidates)
        if incumbent_results is None:
            incumbent_results = [Fraction(START_BALANCE)] * len(results[0])
        improvements = [[r - i for r, i in zip(res, incumbent_results, strict=True)]
                        for res in results]
        means = [_stats(d)[0] for d in improvements]
        best = int(np.argmax(means))  # the first of equal means: the earlier grid value
        accepted = accepts(improvements[best])
        for k, (value, res, diffs) in enumerate(zip(values, results, improvements,
                                                    strict=True)):
            gain, gain_se = _stats([r - START_BALANCE for r in res])
            improvement, improvement_se = _stats(diffs)
            rows.append({"round": round_number, "parameter": parameter,
                         "incumbent": value_text(current), "value": value_text(value),
                         "sessions": len(res), "gain": gain, "gain_se": gain_se,
                         "improvement": improvement, "improvement_se": improvement_se,
                         "accepted": accepted and k == best,
                         "gain_exact": str(sum(res, Fraction(0)) / len(res) - START_BALANCE)})
        if accepted:
            incumbent, incumbent_results = candidates[best], results[best]
    return incumbent, rows


SEARCH_COLUMNS = ("round", "parameter", "incumbent", "value", "sessions", "gain", "gain_se",
                  "improvement", "improvement_se", "accepted", "gain_exact")
ROUND_COLUMNS = ("round", "sessions", "field", "best_response", "gain", "gain_se",
                 "changes", "stable")


def optimise(field, play: Play, sessions: int, rounds: int = 1, parameters=PARAMETERS,
             grid=GRID, jobs: int = 1, name: str | None = None, notify=None):
    """Iterated best response from `field`: round r (1..rounds) plays sessions
    (r-1)*sessions .. r*sessions-1 of the seed's stream, its field the previous round's
    best response; it stops early once a round accepts nothing. Returns (final strategy,
    search table, rounds table)."""
    name = name or f"optimised-{field.name}"
    search, summary = [], []
    current = field
    for r in range(1, rounds + 1):
        span = range((r - 1) * sessions, r * sessions)
        best, rows = best_response(
            current, lambda cands, f=current, s=span: evaluate(play, cands, f, s, jobs),
            parameters, grid, r, name)
        search += rows
        accepted = [row for row in rows if row["accepted"]]
        final = accepted[-1] if accepted else None
        summary.append({
            "round": r, "sessions": sessions, "field": profile_text(current, parameters),
            "best_response": profile_text(best, parameters),
            "gain": final["gain"] if final else 0.0,
            "gain_se": final["gain_se"] if final else 0.0,
            "changes": ", ".join(f"{row['parameter']} {row['incumbent']}→{row['value']}"
                                 for row in accepted) or "none",
            "stable": not accepted})
        if notify is not None:
            notify(summary[-1])
        current = best
        if not accepted:
            break
    current = dataclasses.replace(current, name=name)
    return (current, pd.DataFrame(search, columns=list(SEARCH_COLUMNS)),
            pd.DataFrame(summary, columns=list(ROUND_COLUMNS)))


# --------------------------------------------------------------------- strategy regions


POSITIONS = ("leader", "second", "third", "dealer")  # CallView.position 0..3
REGION_DEALER = 3  # seat p is at position p
SAMPLE_WEIGHT = 0.75  # per rank step: how strongly the skewed thirds favour low or high cards


def sample_hands(n: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """`n` hand masks and first-preference suits (R6) from `seed`: a third uniform, a
    third weighted towards low cards and a third towards high cards, so that safe misère
    hands and strong number hands appear in every region of the chart."""
    rng = np.random.Generator(np.random.PCG64(np.random.SeedSequence(seed, spawn_key=(7,))))
    ranks = np.arange(52) % 13
    weights = [np.ones(52), SAMPLE_WEIGHT ** ranks, SAMPLE_WEIGHT ** (12 - ranks)]
    masks = np.zeros(n, dtype=np.uint64)
    for i in range(n):
        w = weights[i % 3]
        cards = rng.choice(52, 13, replace=False, p=w / w.sum())
        masks[i] = np.uint64(sum(1 << int(c) for c in cards))
    return masks, rng.integers(4, size=n)


def _opening_views():
    """Per position: (calls, legal calls) when every earlier seat has passed (R13)."""
    views = []
    for position in range(SEATS):
        auction = Auction(REGION_DEALER)
        for _ in range(position):
            auction.call(PASS)
        views.append((tuple(auction.calls), auction.legal_calls()))
    return views


def opening_calls(strategy, masks, preferences) -> pd.DataFrame:
    """The strategy's opening call for each hand at each position, with the hand's
    features: hand, position, call, contract ("pass" when it passes), misere_danger,
    hcp, longest (suit length), expected_tricks (the estimate's, in the best trump)."""
    masks = np.asarray(masks, dtype=np.uint64)
    danger = misere_danger(masks)
    hcp = high_card_points(honour_counts(masks))
    longest = suit_lengths(masks).max(axis=1)
    tricks = np.arange(14)
    rows = []
    for position, (calls, legal) in enumerate(_opening_views()):
        for i, mask in enumerate(masks.tolist()):
            view = CallView(hand=mask, seat=position, dealer=REGION_DEALER,
                            first_preference=int(preferences[i]), calls=calls,
                            pool=Fraction(DEFAULT_POOL), legal=legal)
            call = strategy.call(view)
            expected = strategy.estimate.hand_distribution(mask, position) @ tricks
            rows.append({"hand": mask, "position": position, "call": call,
                         "contract": PASS if call == PASS else contract_of(call),
                         "misere_danger": int(danger[i]), "hcp": int(hcp[i]),
                         "longest": int(longest[i]), "expected_tricks": float(expected.max())})
    return pd.DataFrame(rows)


DANGER_BINS = (0, 1, 2, 3, 4, 6, 10, 15, 25, 1000)
TRICK_BINS = (0, 2, 3, 3.5, 4, 4.5, 5, 5.5, 6, 7, 8, 14)  # finest where numbers start
LONGEST_BINS = (4, 5, 6, 7, 8, 14)


def _bin_labels(edges) -> list[str]:
    """"4", "5-9" (whole-number features), "3.5-4" (the estimate's tricks), and "50+" for
    the last bin (its upper edge is a mere bound)."""
    pairs = list(zip(edges[:-1], edges[1:], strict=True))
    whole = all(float(e).is_integer() for e in edges)
    labels = []
    for low, high in pairs[:-1]:
        if not whole:
            labels.append(f"{low:g}-{high:g}")
        else:
            labels.append(str(low) if high == low + 1 else f"{low}-{high - 1}")
    return labels + [f"{pairs[-1][0]:g}+"]


def region_table(calls: pd.DataFrame, contracts, x: str, x_edges, y: str,
                 y_edges=None) -> pd.DataFrame:
    """The share of hands whose opening call is one of `contracts`, per cell of hand
    feature `x` (binned by `x_edges`) and `y` (binned by `y_edges`, or its own values):
    a frame indexed by the y bins with one column per x bin; NaN where no hand falls."""
    xs = pd.cut(calls[x], list(x_edges), right=False, labels=_bin_labels(x_edges))
    ys = (calls[y] if y_edges is None else
          pd.cut(calls[y], list(y_edges), right=False, labels=_bin_labels(y_edges)))
    bids = calls["contract"].isin(list(contracts)).astype(float)
    table = bids.groupby([ys, xs], observed=False).mean().unstack()
    return table


def contract_regions(strategy, masks, preferences) -> dict:
    """Per chart: (title, region table) of the misères and spreads by misère danger and
    position, and of the numbers by the estimate's tricks and the longest suit."""
    calls = opening_calls(strategy, masks, preferences)
    calls["position"] = calls["position"].map(dict(enumerate(POSITIONS)))
    out = {}
    for contract in MISERE_CONTRACTS:
        table = region_table(calls, [contract], "misere_danger", DANGER_BINS, "position")
        out[contract] = table.reindex(list(POSITIONS))
    out[NUMBERS_KEY] = region_table(calls, NUMERIC_CONTRACTS, "expected_tricks", TRICK_BINS,
                                    "longest", LONGEST_BINS)
    return out


def check_parameters(names) -> tuple:
    """The searched parameters named on the command line, in PARAMETERS order."""
    for name in names:
        if name not in PARAMETERS:
            raise UserError(f"--parameters: {name!r} is not one of {', '.join(PARAMETERS)}")
    if not names:
        raise UserError("--parameters: name at least one parameter")
    return tuple(p for p in PARAMETERS if p in names)


__all__ = ["PARAMETERS", "GRID", "NEVER", "ACCEPT_SE", "Play", "value_text", "parameter_value",
           "with_parameter", "profile_text", "strategy_toml", "candidate_results", "evaluate",
           "accepts", "best_response", "optimise", "sample_hands", "opening_calls",
           "region_table", "contract_regions", "check_parameters", "POSITIONS"]
