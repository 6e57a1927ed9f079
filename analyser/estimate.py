"""P(make | hand features, position, contract): the estimate the bidding strategies use.

An `Estimate` is fitted from a stored run directory (analyser/store.py: one row per deal x
seat, with the hand, its position relative to the leader and its solved results) and saved
as a small JSON file together with the run's configuration and size, so that every
estimate says what it came from.

- Numbers (R10): for each hand and each suit as trump, P(tricks >= k) for k = 1..13 from
  one logistic model per k over the hand's features seen from that trump
  (`TRUMP_FEATURES`), made monotone in k (P(>= k+1) <= P(>= k)) by a running minimum; so
  the whole distribution of tricks, 0..13, follows (`trick_distribution`), which the
  expected-value strategies use. A hand's P(make n) in a set of allowed trumps (R12) is
  the best of them.
- Misères (R15): one logistic model each for LM and GM over the hand's misère features
  (`MISERE_FEATURES`), fitted on the double-dummy verdicts; LS and GS (R16) take LM's and
  GM's estimate, since a double-dummy verdict is the same for a spread and its misère
  (analyser/aggregate.py). From a run with real play (`run --play real`, whose rows also
  hold the real player's outcome of each misère and spread, analyser/pipeline.py) the four
  are fitted each on its own real outcomes (`Estimate.real_miseres`), so a spread's
  exposure and the defenders' guessing are in the estimate; numbers stay double-dummy (a
  real run plays one number per seat, too few for a trick distribution).
Every model has the position (0 = the leader, R18) as three indicator features.

Fitting is logistic regression by iteratively reweighted least squares in numpy, on
standardised features with a small ridge penalty (so that a contract never made in the
run still gets a finite, small estimate); it is deterministic. The deals with
`deal_id % HOLD_OUT == 0` are held out of the fit and used for the calibration table
(predicted against observed, by bins of the prediction).
"""

import functools
import json
import math
import shlex
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path

import numpy as np
import pandas as pd

from analyser import store
from analyser.aggregate import MISERE_VERDICT as STORED_VERDICT
from analyser.aggregate import POSITION_NAMES, TRICK_COLUMNS
from analyser.contracts import MISERE_CONTRACTS, NUMERIC_CONTRACTS
from analyser.errors import UserError
from analyser.features import (
    HCP_WEIGHTS,
    HONOUR_RANKS,
    SUIT_MASK,
    high_card_points,
    honour_counts,
    misere_danger,
    suit_lengths,
)
from analyser.pipeline import REAL_MISERE_COLUMNS
from analyser.stats import wilson_interval

FORMAT = 1  # version of the saved file's layout
HOLD_OUT = 5  # deals with deal_id % HOLD_OUT == 0 are held out for calibration
RIDGE = 1.0  # penalty on the standardised slopes
INTERCEPT_RIDGE = 1e-3  # keeps the intercept finite when a contract is never (or always) made
MAX_ITERATIONS = 100
TOLERANCE = 1e-9
HAND_CACHE = 65536  # hands whose estimates an Estimate remembers
CALIBRATION_BINS = 10  # equal-width bins of the predicted probability
DEFAULT_FILE = "estimate.json"  # the estimate in a directory, and the shipped default's name
# without models of their own (a double-dummy fit) LS and GS take their misère's model
MISERE_MODEL = {"LM": "LM", "GM": "GM", "LS": "LM", "GS": "GM"}
MISERE_VERDICT = {c: STORED_VERDICT[c] for c in ("LM", "GM")}
NUMBERS = tuple(int(c) for c in NUMERIC_CONTRACTS)
TRICK_LEVELS = tuple(range(1, NUMBERS[-1] + 1))  # P(tricks >= k) is fitted for each k
POSITION_FEATURES = tuple(POSITION_NAMES[p] for p in (1, 2, 3))  # the leader is the base
TRUMP_FEATURES = (
    "trump_length", "trump_length_sq", "trump_hcp", "trump_ace", "trump_king",
    "side_hcp", "side_aces", "side_kings", "side_voids", "side_singletons", "longest_side",
) + POSITION_FEATURES
MISERE_FEATURES = (
    "misere_danger", "misere_danger_sq", "worst_suit_danger", "safe_suits", "hcp", "aces",
    "kings", "shortest_suit", "longest_suit",
) + POSITION_FEATURES
_POINTS = tuple((HONOUR_RANKS[name], HCP_WEIGHTS[name]) for name in HCP_WEIGHTS)  # (rank, points)
_SUIT_SHIFTS = np.array([0, 13, 26, 39], dtype=np.uint64)


def _masks(masks) -> np.ndarray:
    return np.asarray(masks, dtype=np.uint64).reshape(-1)


def _holdings(masks) -> np.ndarray:
    """(m, 4) int64 13-bit holdings (S, H, D, C) of each hand mask."""
    return ((_masks(masks)[:, None] >> _SUIT_SHIFTS[None, :]) & SUIT_MASK).astype(np.int64)


def _position_columns(positions, m: int) -> np.ndarray:
    """(m, 3) indicators of positions 1..3 (the leader, 0, is all zeros)."""
    positions = np.broadcast_to(np.asarray(positions, dtype=np.int64), (m,))
    if ((positions < 0) | (positions > 3)).any():
        raise ValueError("position: every position must be 0..3 (0 = the leader)")
    return (positions[:, None] == np.arange(1, 4)[None, :]).astype(float)


def trump_features(masks, positions) -> np.ndarray:
    """(m, 4, len(TRUMP_FEATURES)) features of each hand with each suit as trump."""
    holdings = _holdings(masks)
    m = len(holdings)
    lengths = suit_lengths(_masks(masks)).astype(float)
    points = sum(w * ((holdings >> r) & 1) for r, w in _POINTS).astype(float)
    aces = ((holdings >> 12) & 1).astype(float)
    kings = ((holdings >> 11) & 1).astype(float)
    position = _position_columns(positions, m)
    out = np.empty((m, 4, len(TRUMP_FEATURES)))
    for trump in range(4):
        side = [s for s in range(4) if s != trump]
        side_lengths = lengths[:, side]
        out[:, trump, :11] = np.column_stack([
            lengths[:, trump], lengths[:, trump] ** 2, points[:, trump], aces[:, trump],
            kings[:, trump], points[:, side].sum(axis=1), aces[:, side].sum(axis=1),
            kings[:, side].sum(axis=1), (side_lengths == 0).sum(axis=1),
            (side_lengths == 1).sum(axis=1), side_lengths.max(axis=1),
        ])
        out[:, trump, 11:] = position
    return out


def misere_features(masks, positions) -> np.ndarray:
    """(m, len(MISERE_FEATURES)) misère features of each hand (analyser/features.py's
    misère-danger score, in total and per suit, with the hand's high cards and shape)."""
    masks = _masks(masks)
    m = len(masks)
    # the danger of one suit is the score of the hand cut down to that suit
    per_suit = np.column_stack([
        misere_danger(masks & (SUIT_MASK << shift)) for shift in _SUIT_SHIFTS
    ]).astype(float)
    danger = per_suit.sum(axis=1)
    counts = honour_counts(masks)
    lengths = suit_lengths(masks)
    hcp = high_card_points(counts)
    return np.column_stack([
        danger, danger ** 2, per_suit.max(axis=1), (per_suit == 0).sum(axis=1), hcp,
        counts["aces"], counts["kings"], lengths.min(axis=1), lengths.max(axis=1),
        _position_columns(positions, m),
    ]).astype(float)


def _sigmoid(eta: np.ndarray) -> np.ndarray:
    return 1.0 / (1.0 + np.exp(-np.clip(eta, -40.0, 40.0)))


def fit_logistic(x: np.ndarray, y: np.ndarray) -> tuple[float, np.ndarray]:
    """(intercept, slopes) of a ridge-penalised logistic regression of y (0/1) on x, by
    IRLS on standardised columns; the slopes are returned on the original scale."""
    x = np.asarray(x, dtype=float)
    y = np.asarray(y, dtype=float)
    mean = x.mean(axis=0)
    scale = x.std(axis=0)
    scale[scale == 0] = 1.0
    z = np.column_stack([np.ones(len(x)), (x - mean) / scale])
    penalty = np.full(z.shape[1], RIDGE)
    penalty[0] = INTERCEPT_RIDGE
    beta = np.zeros(z.shape[1])
    for _ in range(MAX_ITERATIONS):
        p = _sigmoid(z @ beta)
        gradient = z.T @ (y - p) - penalty * beta
        hessian = (z.T * (p * (1 - p))) @ z + np.diag(penalty)
        step = np.linalg.solve(hessian, gradient)
        beta += step
        if np.abs(step).max() < TOLERANCE:
            break
    slopes = beta[1:] / scale
    return float(beta[0] - mean @ slopes), slopes


@dataclass
class Model:
    """One logistic model: P = sigmoid(intercept + features @ slopes)."""

    intercept: float
    slopes: np.ndarray

    def predict(self, x: np.ndarray) -> np.ndarray:
        return _sigmoid(self.intercept + x @ self.slopes)

    def to_json(self) -> dict:
        return {"intercept": self.intercept, "slopes": [float(s) for s in self.slopes]}

    @classmethod
    def from_json(cls, data, n_features: int, where: str) -> "Model":
        try:
            intercept = float(data["intercept"])
            slopes = np.array([float(s) for s in data["slopes"]])
        except (KeyError, TypeError, ValueError):
            raise UserError(f"{where}: needs 'intercept' and a list of 'slopes'") from None
        if len(slopes) != n_features or not np.isfinite(slopes).all() or not math.isfinite(
                intercept):
            raise UserError(f"{where}: needs {n_features} finite slopes and a finite intercept")
        return cls(intercept, slopes)


@dataclass
class Estimate:
    """P(make) of every contract for a hand at a position, and where the models came from.

    `source` describes the run (directory, configuration, deals, hands, rows fitted and
    held out, the commands that regenerate it); `calibration` is the held-out table of
    `calibration_table`.
    """

    tricks: dict  # "1".."13": Model of P(tricks >= k) over TRUMP_FEATURES
    miseres: dict  # "LM", "GM" (and "LS", "GS" from real play) -> Model over MISERE_FEATURES
    source: dict
    calibration: pd.DataFrame
    _cache: dict = field(default_factory=dict, repr=False, compare=False)

    @property
    def real_miseres(self) -> bool:
        """Whether the misère and spread models were fitted on real-play outcomes (then each
        of LM, GM, LS, GS has its own) rather than on double-dummy verdicts."""
        return set(self.miseres) == set(MISERE_CONTRACTS)

    def at_least(self, masks, positions) -> np.ndarray:
        """(m, 4, 13) P(tricks >= k) for each hand, each suit as trump and k = 1..13,
        non-increasing in k."""
        x = trump_features(masks, positions)
        p = np.stack([self.tricks[str(k)].predict(x) for k in TRICK_LEVELS], axis=-1)
        return np.minimum.accumulate(p, axis=-1)

    def trump_probabilities(self, masks, positions) -> np.ndarray:
        """(m, 4, 9) P(make n) = P(tricks >= n) for each hand, each suit as trump and each
        number n = 5..13 (R10)."""
        return self.at_least(masks, positions)[..., NUMBERS[0] - 1:]

    def misere_probabilities(self, masks, positions) -> dict:
        """P(make) of LM, GM, LS and GS for each hand: name -> (m,) array."""
        x = misere_features(masks, positions)
        fitted = {name: model.predict(x) for name, model in self.miseres.items()}
        return {c: fitted[c if c in fitted else MISERE_MODEL[c]] for c in MISERE_CONTRACTS}

    def _hand(self, hand: int, position: int) -> tuple[np.ndarray, dict]:
        """(4, 13) P(tricks >= k) per trump and the misères' P(make), for one hand
        (remembered, since a strategy asks about the same hand at each of its turns)."""
        key = (int(hand), int(position))
        if key not in self._cache:
            if len(self._cache) >= HAND_CACHE:
                self._cache.clear()
            at_least = self.at_least([hand], [position])[0]
            miseres = {c: float(p[0]) for c, p in
                       self.misere_probabilities([hand], [position]).items()}
            self._cache[key] = (at_least, miseres)
        return self._cache[key]

    def hand(self, hand: int, position: int) -> tuple[np.ndarray, dict]:
        """(4, 9) P(make n) per trump and number 5..13, and the misères' P(make) dict."""
        at_least, miseres = self._hand(hand, position)
        return at_least[:, NUMBERS[0] - 1:], miseres

    def hand_distribution(self, hand: int, position: int) -> np.ndarray:
        """(4, 14) P(tricks = k), k = 0..13, per trump, for one hand."""
        at_least, _ = self._hand(hand, position)
        return _distribution(at_least)

    def probability(self, hand: int, position: int, contract: str, trumps=(0, 1, 2, 3)) -> float:
        """P(make `contract`) for one hand; for a number, in the best of `trumps` (R12)."""
        numbers, miseres = self.hand(hand, position)
        if contract in miseres:
            return miseres[contract]
        return float(numbers[list(trumps), int(contract) - NUMBERS[0]].max())

    def trick_distribution(self, masks, positions) -> np.ndarray:
        """(m, 4, 14) P(tricks = k), k = 0..13, per hand and suit as trump."""
        return _distribution(self.at_least(masks, positions))

    def to_json(self) -> dict:
        return {
            "format": FORMAT,
            "source": self.source,
            "trump_features": list(TRUMP_FEATURES),
            "misere_features": list(MISERE_FEATURES),
            "tricks": {k: m.to_json() for k, m in self.tricks.items()},
            "miseres": {c: m.to_json() for c, m in self.miseres.items()},
            "calibration": json.loads(self.calibration.to_json(orient="records")),
        }

    def save(self, path) -> None:
        """Write the estimate as JSON, atomically."""
        store.write_text(path, json.dumps(self.to_json(), indent=1, sort_keys=True) + "\n")


def from_json(data, where: str) -> Estimate:
    """An Estimate from its saved JSON (UserError naming `where` and the field if malformed)."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise UserError(f"{where}: not a boston-analyser estimate (format {FORMAT})")
    if data.get("trump_features") != list(TRUMP_FEATURES) or \
            data.get("misere_features") != list(MISERE_FEATURES):
        raise UserError(f"{where}: fitted on other features than this version uses; fit again "
                        "with `boston-analyser estimate RUN_DIR`")
    tricks, miseres = data.get("tricks"), data.get("miseres")
    if not isinstance(tricks, dict) or sorted(tricks) != sorted(map(str, TRICK_LEVELS)):
        raise UserError(f"{where}:tricks: needs a model for each of 1..13")
    if not isinstance(miseres, dict) or sorted(miseres) not in (sorted(MISERE_VERDICT),
                                                                sorted(MISERE_CONTRACTS)):
        raise UserError(f"{where}:miseres: needs a model for each of LM, GM (and LS, GS)")
    source = data.get("source")
    if not isinstance(source, dict):
        raise UserError(f"{where}:source: missing")
    try:
        calibration = pd.DataFrame.from_records(data.get("calibration", []),
                                                columns=list(CALIBRATION_COLUMNS))
    except (TypeError, ValueError):
        raise UserError(f"{where}:calibration: not a table of {CALIBRATION_COLUMNS}") from None
    return Estimate(
        tricks={k: Model.from_json(m, len(TRUMP_FEATURES), f"{where}:tricks.{k}")
                for k, m in tricks.items()},
        miseres={c: Model.from_json(m, len(MISERE_FEATURES), f"{where}:miseres.{c}")
                 for c, m in miseres.items()},
        source=source,
        calibration=calibration,
    )


def _distribution(at_least: np.ndarray) -> np.ndarray:
    """P(tricks = k), k = 0..13, from P(tricks >= k), k = 1..13, on the last axis."""
    shape = at_least.shape[:-1]
    upper = np.concatenate([np.ones((*shape, 1)), at_least], axis=-1)
    lower = np.concatenate([at_least, np.zeros((*shape, 1))], axis=-1)
    return upper - lower


def _misere_outcomes(hands: pd.DataFrame, real: bool) -> dict:
    """Contract -> the stored column of its outcome: the real player's (LM, GM, LS, GS) or
    the double-dummy verdicts (LM, GM)."""
    return dict(REAL_MISERE_COLUMNS) if real else dict(MISERE_VERDICT)


def _has_real_play(hands: pd.DataFrame) -> bool:
    return all(c in hands.columns for c in REAL_MISERE_COLUMNS.values())


def _check_rows(hands: pd.DataFrame, where: str, real: bool = False) -> None:
    needed = ("deal_id", "hand", "position", *TRICK_COLUMNS, *MISERE_VERDICT.values(),
              *(REAL_MISERE_COLUMNS.values() if real else ()))
    missing = [c for c in needed if c not in hands.columns]
    if missing:
        raise UserError(f"{where}: the stored hands lack the columns {', '.join(missing)}")


def fit(hands: pd.DataFrame, source: dict | None = None) -> Estimate:
    """Fit every model on the rows not held out and tabulate the calibration on the rest.

    `hands` has the stored columns deal_id, hand, position, tricks_s/h/d/c, grand_misere
    and little_misere; with the real-play columns real_lm, real_gm, real_ls and real_gs
    (a run with `--play real`) the misères and spreads are fitted on those. The deals with
    deal_id % HOLD_OUT == 0 are held out (all of them are used when that leaves nothing to
    fit on).
    """
    real = _has_real_play(hands)
    _check_rows(hands, "hands", real)
    held = (hands["deal_id"].to_numpy() % HOLD_OUT) == 0
    rule = f"deal_id % {HOLD_OUT} == 0"
    if held.all():
        held = np.zeros(len(hands), dtype=bool)
        rule = "none: every deal is needed for the fit"
    train = hands[~held]
    masks, positions = train["hand"].to_numpy(), train["position"].to_numpy()
    tricks = train[list(TRICK_COLUMNS)].to_numpy().reshape(-1)
    x_tricks = trump_features(masks, positions).reshape(-1, len(TRUMP_FEATURES))
    models = {str(k): Model(*fit_logistic(x_tricks, tricks >= k)) for k in TRICK_LEVELS}
    x_miseres = misere_features(masks, positions)
    miseres = {c: Model(*fit_logistic(x_miseres, train[col].to_numpy(dtype=bool)))
               for c, col in _misere_outcomes(hands, real).items()}
    estimate = Estimate(models, miseres, dict(source or {}), pd.DataFrame())
    estimate.source.update(fitted_rows=int(len(train)), held_out_rows=int(held.sum()),
                           held_out=rule, miseres_from="real play" if real else "double dummy")
    estimate.calibration = calibration_table(estimate, hands[held])
    return estimate


CALIBRATION_COLUMNS = ("contract", "bin_low", "bin_high", "hands", "predicted", "observed",
                       "observed_ci_low", "observed_ci_high")


def predictions(estimate: Estimate, hands: pd.DataFrame) -> pd.DataFrame:
    """Predicted P(make) and the outcome, per row of `hands` and contract 5..13, LM, GM
    (and LS, GS for an estimate of real play).

    A number's prediction is for the trump the estimate finds best (any suit, R12 Decision
    "any") and its outcome the stored tricks in that trump; a misère's outcome is its
    stored verdict, the real player's when the estimate was fitted on real play.
    """
    _check_rows(hands, "hands", estimate.real_miseres)
    masks, positions = hands["hand"].to_numpy(), hands["position"].to_numpy()
    frames = []
    if len(hands):
        p = estimate.trump_probabilities(masks, positions)
        tricks = hands[list(TRICK_COLUMNS)].to_numpy()
        rows = np.arange(len(hands))
        for i, n in enumerate(NUMBERS):
            best = p[:, :, i].argmax(axis=1)
            frames.append(pd.DataFrame({"contract": str(n), "predicted": p[rows, best, i],
                                        "made": tricks[rows, best] >= n}))
        misere = estimate.misere_probabilities(masks, positions)
        for c, col in _misere_outcomes(hands, estimate.real_miseres).items():
            frames.append(pd.DataFrame({"contract": c, "predicted": misere[c],
                                        "made": hands[col].to_numpy().astype(bool)}))
    if not frames:
        return pd.DataFrame({"contract": [], "predicted": [], "made": []})
    return pd.concat(frames, ignore_index=True)


def calibration_table(estimate: Estimate, hands: pd.DataFrame,
                      bins: int = CALIBRATION_BINS) -> pd.DataFrame:
    """Predicted against observed P(make), per contract and equal-width bin of the
    prediction: hands in the bin, mean prediction, observed rate and its 95% Wilson
    interval. Empty bins are left out."""
    table = predictions(estimate, hands)
    return _binned(table, "contract", bins)


def _binned(table: pd.DataFrame, by: str, bins: int) -> pd.DataFrame:
    edges = np.arange(bins + 1) / bins
    table = table.assign(bin=np.clip(np.searchsorted(edges, table["predicted"], side="right")
                                     - 1, 0, bins - 1))
    grouped = table.groupby([by, "bin"], sort=False).agg(
        hands=("made", "size"), predicted=("predicted", "mean"), made=("made", "sum"))
    grouped = grouped.reset_index()
    low, high = wilson_interval(grouped["made"].to_numpy(), grouped["hands"].to_numpy())
    out = pd.DataFrame({
        "contract": grouped[by].astype(str),
        "bin_low": edges[grouped["bin"]], "bin_high": edges[grouped["bin"] + 1],
        "hands": grouped["hands"].astype(int), "predicted": grouped["predicted"],
        "observed": grouped["made"] / grouped["hands"],
        "observed_ci_low": low, "observed_ci_high": high,
    })
    order = {c: i for i, c in enumerate((*NUMERIC_CONTRACTS, *MISERE_CONTRACTS))}
    out = out.assign(_order=out["contract"].map(order)).sort_values(["_order", "bin_low"])
    return out.drop(columns="_order").reset_index(drop=True)


NUMBER_GROUP = "5-13"  # the numbers pooled in `calibration_summary`


def calibration_summary(table: pd.DataFrame) -> pd.DataFrame:
    """A calibration table with the numbers 5..13 pooled into one group ("5-13") bin by bin,
    beside the misères: what the calibration chart draws."""
    numbers = table["contract"].isin(NUMERIC_CONTRACTS)
    pooled = table[numbers].assign(made=lambda t: t["observed"] * t["hands"],
                                   weight=lambda t: t["predicted"] * t["hands"])
    pooled = pooled.groupby(["bin_low", "bin_high"], as_index=False).agg(
        hands=("hands", "sum"), made=("made", "sum"), weight=("weight", "sum"))
    made = np.rint(pooled["made"].to_numpy())
    low, high = wilson_interval(made, pooled["hands"].to_numpy())
    pooled = pd.DataFrame({
        "contract": NUMBER_GROUP, "bin_low": pooled["bin_low"], "bin_high": pooled["bin_high"],
        "hands": pooled["hands"].astype(int), "predicted": pooled["weight"] / pooled["hands"],
        "observed": made / pooled["hands"], "observed_ci_low": low, "observed_ci_high": high,
    })
    return pd.concat([pooled, table[~numbers]], ignore_index=True)[list(CALIBRATION_COLUMNS)]


def brier_scores(table: pd.DataFrame) -> pd.Series:
    """Per contract of a calibration table, the bin-level squared gap between mean
    prediction and observed rate, weighted by hands (0 is perfectly calibrated bins)."""
    gap = (table["predicted"] - table["observed"]) ** 2 * table["hands"]
    return gap.groupby(table["contract"], sort=False).sum() / table.groupby(
        "contract", sort=False)["hands"].sum()


def run_commands(run_dir, config: dict, deals: int, out) -> list[str]:
    """The commands that regenerate an estimate: the run of the `deals` stored (its chunks'
    random streams depend on the seed and chunk only, so a run stopped early is the whole
    run of that size) and the fit."""
    run = ["boston-analyser", "run", "--deals", str(deals)]
    for key in ("seed", "chunk", "pool", "play"):
        if key in config:
            run += [f"--{key}", str(config[key])]
    run += ["--out", str(run_dir)]
    fit_cmd = ["boston-analyser", "estimate", str(run_dir), "--out", str(out)]
    return [shlex.join(run), shlex.join(fit_cmd)]


def fit_run(run_dir, out=None) -> Estimate:
    """Fit an estimate on every stored row of a run directory, with its source description."""
    run_dir = Path(run_dir)
    config = store.load_config(run_dir)
    hands = store.read_hands(run_dir)
    _check_rows(hands, str(run_dir))
    deals = int(hands["deal_id"].nunique())
    source = {
        "run_dir": str(run_dir),
        "config": config,
        "deals": deals,
        "hands": int(len(hands)),
        "chunks": len(store.done_chunks(run_dir)),
        "commands": run_commands(run_dir, config, deals, out or run_dir / DEFAULT_FILE),
    }
    return fit(hands, source)


def load(path) -> Estimate:
    """An estimate from a saved file, a directory holding `estimate.json`, or a run
    directory (fitted from its stored rows). UserError naming the path otherwise."""
    path = Path(path)
    if path.is_dir():
        if (path / DEFAULT_FILE).is_file():
            path = path / DEFAULT_FILE
        elif (path / store.RUN_FILE).is_file():
            return fit_run(path)
        else:
            raise UserError(f"{str(path)!r} holds neither {DEFAULT_FILE} nor a run "
                            f"({store.RUN_FILE})")
    if not path.is_file():
        raise UserError(f"{str(path)!r}: no such estimate file or directory")
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise UserError(f"{path}: not valid JSON ({exc})") from None
    return from_json(data, str(path))


@functools.cache
def default_estimate() -> Estimate:
    """The estimate shipped with the package (analyser/data/estimate.json; its `source`
    says the commands that regenerate it), read once."""
    text = resources.files("analyser").joinpath("data", DEFAULT_FILE).read_text("utf-8")
    return from_json(json.loads(text), f"analyser/data/{DEFAULT_FILE}")


__all__ = [
    "Estimate", "Model", "fit", "fit_run", "load", "default_estimate", "from_json",
    "fit_logistic", "trump_features", "misere_features", "predictions", "calibration_table",
    "calibration_summary", "brier_scores", "run_commands", "TRUMP_FEATURES",
    "MISERE_FEATURES", "HOLD_OUT", "CALIBRATION_COLUMNS", "NUMBER_GROUP",
]
