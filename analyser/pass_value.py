"""What a hand is worth to a seat that does not declare: the values single-hand tables miss.

`hand` and `run` value a contract by the declarer's change of balance (analyser/payments.py).
A seat that passes changes its balance too: as a defender it is paid when the declarer
fails and pays when the declarer makes (R24, R25), it pays the re-ante when a declarer
takes the last pool (R30), and when all four pass it plays misère partout (R14, R26).
This module measures those values on whole sessions (analyser/session.py), where the
auction decides who declares.

For every hand of a session directory and every seat:
- change: the balance after the hand less the balance before it (990 before hand 1, R7);
  after hand 12 the end split's share (R31) is taken off, since it divides the pools and is
  no result of the hand's play;
- position: the seat counted from the dealer's left, (seat - dealer - 1) mod 4, as `hand`
  counts it (0 leads to the first trick, R18; 3 is the dealer);
- role: `declarer`, `defender` (another seat declares) or `partout` (all four passed);
- the seat's hand, for its 4-3-2-1 points (hcp) and misère danger (analyser/features.py):
  under `--deal-model random` the deals are dealt again from the session seed (the lot,
  then each hand's deck order and turned card, analyser/session.py), checked against the
  stored dealer and turned card; under `cut-only` a deck depends on the play before it, so
  the feature rows are left out.

`pass_values(session_dir)` returns one DataFrame, one row per cell:
- scope `pass`: the seat-hands of a seat that does not declare (defender or partout), by
  position (feature `all`), by position and hcp bin, by position and misère-danger bin;
- scope `partout`: the partout seat-hands, by position;
- scope `pool`: the change of all pools per hand (the pool's flow; position `all`).
The bins are aggregate.FEATURE_BINS'; position -1 and bin -1 mean all. Columns:
scope, feature, position, bin, bin_label, hands, mean, stderr (floats), mean_exact (the
exact mean as text, R27). Each hand's four changes and the pools' change sum to 0 (R8).

`hand` reads the shipped table analyser/data/pass_values.json (`default_table`), whose
`source` states the commands that regenerate it; `python -m analyser.pass_value DIR --out
FILE` writes such a file from a session directory.
"""

from __future__ import annotations

import argparse
import functools
import json
import sys
from dataclasses import dataclass
from fractions import Fraction
from importlib import resources
from pathlib import Path

import numpy as np
import pandas as pd

from analyser import store
from analyser.aggregate import FEATURE_BINS, feature_bin_labels
from analyser.constants import ANTE, DEFAULT_POOL, MAX_POOL, SEATS
from analyser.errors import UserError
from analyser.features import high_card_points, honour_counts, misere_danger
from analyser.stats import mean_and_stderr

DEFAULT_FILE = "pass_values.json"
FEATURES = ("hcp", "misere_danger")  # the hand features of the `pass` rows
LOOKUP_FEATURE = "hcp"  # the feature `lookup` refines a position's value with
MIN_HANDS = 30  # a feature cell needs this many seat-hands to be used, else its position's
ALL = -1  # position or bin: every one
COLUMNS = ("scope", "feature", "position", "bin", "bin_label", "hands", "mean", "stderr",
           "mean_exact")
FILE_FORMAT = 1


# ------------------------------------------------------------------- per seat and hand


def _start_balance() -> Fraction:
    from analyser.ledger import START_BALANCE

    return Fraction(START_BALANCE - ANTE)  # R7


def seat_changes(rows: pd.DataFrame) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(seats, pools) of a session's stored rows.

    seats: one row per hand and seat: deal_id, hand, seat, position, role, change (exact
    Fraction). pools: one row per hand: deal_id, hand, change of all pools (Fraction).
    """
    from analyser.session import HANDS, SEAT_COLUMNS

    rows = rows.sort_values(["session", "rotation", "hand"], kind="stable")
    balances, pools = {}, {}
    seats, flows = [], []
    for record in rows.itertuples(index=False):
        key = (record.session, record.rotation)
        if record.hand == 1:
            balances[key], pools[key] = [_start_balance()] * SEATS, Fraction(DEFAULT_POOL)
        elif key not in balances:
            raise UserError(f"session {record.session} rotation {record.rotation} has no hand "
                            "1 in the stored rows")
        after = [Fraction(getattr(record, f"balance_{s}")) for s in SEAT_COLUMNS]
        pool_after = Fraction(int(record.pool_full) * MAX_POOL + int(record.pool_partial))
        if record.hand == HANDS:  # R31: the end split divides the pools; not the hand's play
            split = Fraction(int(record.pool_split))
            after = [b - split / SEATS for b in after]
            pool_after += split
        dealer, declarer = int(record.dealer), int(record.declarer)
        for seat in range(SEATS):
            role = ("partout" if declarer < 0 else "declarer" if seat == declarer
                    else "defender")
            seats.append((int(record.deal_id), int(record.hand), seat,
                          (seat - dealer - 1) % SEATS, role,
                          after[seat] - balances[key][seat]))
        flows.append((int(record.deal_id), int(record.hand), pool_after - pools[key]))
        balances[key], pools[key] = after, pool_after
    seat_frame = pd.DataFrame(seats, columns=["deal_id", "hand", "seat", "position", "role",
                                              "change"])
    pool_frame = pd.DataFrame(flows, columns=["deal_id", "hand", "change"])
    return seat_frame, pool_frame


def replay_deals(config, rows: pd.DataFrame) -> dict:
    """deal_id -> the deal (4,) uint64 by seat, dealt again from the session seed (deal
    model `random` only), each checked against its stored dealer and turned card."""
    from analyser.session import HANDS, Decks, session_generator

    if config.deal_model != "random":
        raise UserError(f"deal model {config.deal_model!r}: the deals depend on the play "
                        "and cannot be dealt again; only 'random' has hand features")
    stored = rows.drop_duplicates("deal_id").set_index("deal_id")
    deals = {}
    for session in sorted(rows["session"].unique().tolist()):
        rng = session_generator(config.seed, int(session))
        first_dealer = int(rng.integers(SEATS))  # R5, as play_session draws it
        decks = Decks("random", rng)
        for hand in range(1, HANDS + 1):
            dealer = (first_dealer + hand - 1) % SEATS
            deal, turned = decks.next_hand(hand, dealer)
            deal_id = int(session) * HANDS + hand - 1
            row = stored.loc[deal_id]
            if int(row["dealer"]) != dealer or int(row["turned_card"]) != turned:
                raise UserError(f"deal {deal_id}: the stored dealer and turned card do not "
                                "follow from the run's seed; was the directory changed?")
            deals[deal_id] = np.asarray(deal, dtype=np.uint64)
    return deals


def _with_features(seats: pd.DataFrame, deals: dict) -> pd.DataFrame:
    masks = np.array([deals[d][s] for d, s in zip(seats["deal_id"], seats["seat"],
                                                  strict=True)], dtype=np.uint64)
    return seats.assign(hcp=high_card_points(honour_counts(masks)),
                        misere_danger=misere_danger(masks))


# ---------------------------------------------------------------------------- the table


def _cell(scope, feature, position, b, label, changes) -> dict:
    changes = list(changes)
    exact = sum(changes, Fraction(0)) / len(changes) if changes else None
    mean, se = mean_and_stderr([float(c) for c in changes])
    return {"scope": scope, "feature": feature, "position": position, "bin": b,
            "bin_label": label, "hands": len(changes), "mean": mean, "stderr": se,
            "mean_exact": None if exact is None else str(exact)}


def feature_bin(feature: str, values) -> np.ndarray:
    """The bin number of each value in aggregate.FEATURE_BINS[feature]."""
    return np.digitize(np.asarray(values), FEATURE_BINS[feature][1:-1])


def value_table(seats: pd.DataFrame, pools: pd.DataFrame) -> pd.DataFrame:
    """The cells of the module docstring from `seat_changes` (with the feature columns
    when the deals are known)."""
    out = []
    passing = seats[seats["role"] != "declarer"]
    partout = seats[seats["role"] == "partout"]
    for scope, frame in (("pass", passing), ("partout", partout)):
        for position in (ALL, *range(SEATS)):
            sel = frame if position == ALL else frame[frame["position"] == position]
            out.append(_cell(scope, "all", position, ALL, "all", sel["change"]))
    for feature in FEATURES:
        if feature not in seats:
            continue
        bins = feature_bin(feature, passing[feature])
        for position in (ALL, *range(SEATS)):
            at = np.ones(len(passing), bool) if position == ALL else (
                passing["position"].to_numpy() == position)
            for b, label in enumerate(feature_bin_labels(feature)):
                sel = passing["change"][at & (bins == b)]
                out.append(_cell("pass", feature, position, b, label, sel))
    out.append(_cell("pool", "all", ALL, ALL, "all", pools["change"]))
    frame = pd.DataFrame(out, columns=list(COLUMNS))
    return frame.astype({"position": "int8", "bin": "int8", "hands": "int64"})


def pass_values(session_dir) -> pd.DataFrame:
    """The pass values of a session directory (module docstring); UserError naming a
    directory that holds no complete session run."""
    from analyser.session import SessionConfig, read_rows

    config = SessionConfig.from_dict(store.load_config(session_dir))
    rows = read_rows(session_dir, config)
    seats, pools = seat_changes(rows)
    if config.deal_model == "random":
        seats = _with_features(seats, replay_deals(config, rows))
    return value_table(seats, pools)


# ------------------------------------------------------------------ the shipped table


@dataclass(frozen=True)
class PassValue:
    """The value of passing for one hand: the mean change of balance of a seat that does not
    declare, at the hand's position and (when the cell is large enough) its hcp bin."""

    value: Fraction
    stderr: float
    hands: int  # seat-hands the mean is taken over
    position: int
    feature: str  # LOOKUP_FEATURE, or "all" when the position's value is used
    bin_label: str
    source: str  # where the table comes from (its file and the command that made it)

    def basis(self) -> str:
        """The cell in words: "position 0, hcp 9-11" or "position 0"."""
        where = f"position {self.position}"
        return where if self.feature == "all" else f"{where}, {self.feature} {self.bin_label}"

    def to_dict(self) -> dict:
        return {"value": float(self.value), "value_exact": str(self.value),
                "stderr": self.stderr, "hands": self.hands, "position": self.position,
                "feature": self.feature, "bin": self.bin_label, "basis": self.basis(),
                "source": self.source}


@dataclass(frozen=True)
class PassValueTable:
    """A table of `pass_values` with where it comes from."""

    table: pd.DataFrame
    source: dict  # the session configuration and the commands that regenerate it
    path: str  # the file it was read from

    def describe(self) -> str:
        """Where the values come from, in one line."""
        config = self.source.get("config", {})
        strategies = ", ".join(config.get("strategies", [])) or "?"
        return (f"{self.path}: {config.get('sessions', '?')} sessions of {strategies} "
                f"(play {config.get('play', '?')}, seed {config.get('seed', '?')})")

    def lookup(self, position: int, hand: int) -> PassValue:
        """The pass value of `hand` (a card mask) at `position` (0..3 from the dealer's
        left): its position and hcp bin when that cell holds MIN_HANDS seat-hands, else its
        position's."""
        hcp = high_card_points(honour_counts(np.array([hand], dtype=np.uint64)))
        row = self._row(position, int(feature_bin(LOOKUP_FEATURE, hcp)[0]))
        return PassValue(Fraction(row["mean_exact"]), float(row["stderr"]), int(row["hands"]),
                         position, str(row["feature"]), str(row["bin_label"]), self.describe())

    def values(self, positions, hcps) -> np.ndarray:
        """The exact pass value (Fraction) of each hand given by its position and high-card
        points, as `lookup` gives it."""
        bins = feature_bin(LOOKUP_FEATURE, np.asarray(hcps))
        out = np.empty(len(bins), dtype=object)
        for i, key in enumerate(zip(np.asarray(positions).tolist(), bins.tolist(), strict=True)):
            out[i] = self._value(*key)
        return out

    def value_of(self, position: int, hand: int) -> Fraction:
        """`lookup(position, hand).value`, from the cells already read (strategies ask for
        it at every call of an auction)."""
        hcp = high_card_points(honour_counts(np.array([hand], dtype=np.uint64)))
        return self._value(position, int(feature_bin(LOOKUP_FEATURE, hcp)[0]))

    @functools.cached_property
    def _values(self) -> dict:
        return {}  # (position, hcp bin) -> the exact value used for it

    def _value(self, position: int, b: int) -> Fraction:
        if (position, b) not in self._values:
            self._values[position, b] = Fraction(self._row(position, b)["mean_exact"])
        return self._values[position, b]

    def _row(self, position: int, b: int):
        """The cell used for position `position` and hcp bin `b` (`lookup`)."""
        t = self.table[self.table["scope"] == "pass"]
        cell = t[(t["feature"] == LOOKUP_FEATURE) & (t["position"] == position)
                 & (t["bin"] == b)]
        if cell.empty or int(cell["hands"].iloc[0]) < MIN_HANDS:
            cell = t[(t["feature"] == "all") & (t["position"] == position)]
        if cell.empty or int(cell["hands"].iloc[0]) == 0:
            raise UserError(f"{self.path} has no pass value for position {position}")
        return cell.iloc[0]


def to_json(table: pd.DataFrame, source: dict) -> dict:
    """The file form of a table: {"format", "source", "rows"}."""
    rows = [{k: (None if isinstance(v, float) and np.isnan(v) else
                 v.item() if isinstance(v, np.generic) else v) for k, v in r.items()}
            for r in table.to_dict("records")]
    return {"format": FILE_FORMAT, "source": source, "rows": rows}


def from_json(data: dict, path: str) -> PassValueTable:
    """The table of a file written by `to_json`; UserError naming what is wrong."""
    if not isinstance(data, dict) or data.get("format") != FILE_FORMAT:
        raise UserError(f"{path}: not a pass-value file of format {FILE_FORMAT}")
    rows = data.get("rows")
    if not isinstance(rows, list) or not rows or any(set(r) != set(COLUMNS) for r in rows):
        raise UserError(f"{path}: rows must each hold {', '.join(COLUMNS)}")
    frame = pd.DataFrame(rows, columns=list(COLUMNS))
    frame[["mean", "stderr"]] = frame[["mean", "stderr"]].astype(float)
    return PassValueTable(frame, dict(data.get("source") or {}), path)


def load(path) -> PassValueTable:
    """A pass-value file."""
    path = Path(path)
    try:
        data = json.loads(path.read_text("utf-8"))
    except (OSError, ValueError) as exc:
        raise UserError(f"cannot read pass values {str(path)!r}: {exc}") from None
    return from_json(data, str(path))


@functools.cache
def default_table() -> PassValueTable:
    """The table shipped with the package (analyser/data/pass_values.json), read once."""
    text = resources.files("analyser").joinpath("data", DEFAULT_FILE).read_text("utf-8")
    return from_json(json.loads(text), f"analyser/data/{DEFAULT_FILE}")


def session_source(session_dir, out) -> dict:
    """The `source` of a file made from `session_dir`: its configuration and the commands
    that regenerate the file."""
    from analyser.session import SessionConfig

    config = SessionConfig.from_dict(store.load_config(session_dir))
    options = [f"--sessions {config.sessions}", f"--seed {config.seed}",
               *(f"--strategy {s}" for s in config.strategies), f"--play {config.play}",
               f"--deal-model {config.deal_model}", f"--concede {config.concede}",
               f"--chunk {config.chunk}"]
    if config.model is not None:
        options.append(f"--model {config.model}")
    return {"config": config.as_dict(), "commands": [
        f"boston-analyser session {' '.join(options)} --out {session_dir}",
        f"python -m analyser.pass_value {session_dir} --out {out}"]}


def main(argv=None) -> int:
    """`python -m analyser.pass_value DIR [--out FILE]`: print the table, or write it."""
    parser = argparse.ArgumentParser(
        prog="python -m analyser.pass_value",
        description="The pass values (analyser/pass_value.py) of a session directory.")
    parser.add_argument("session_dir", metavar="DIR")
    parser.add_argument("--out", metavar="FILE", help="write the table as a pass-value file")
    args = parser.parse_args(argv)
    try:
        table = pass_values(args.session_dir)
        if args.out is None:
            print(table.drop(columns="mean_exact").to_string(index=False))
        else:
            data = to_json(table, session_source(args.session_dir, args.out))
            store.write_text(args.out, json.dumps(data, indent=1) + "\n")
    except UserError as exc:
        print(f"{parser.prog}: error: {exc}", file=sys.stderr)
        return 2
    return 0


__all__ = [
    "pass_values", "seat_changes", "replay_deals", "value_table", "feature_bin",
    "PassValue", "PassValueTable", "load", "default_table", "from_json", "to_json",
    "session_source", "main", "DEFAULT_FILE", "MIN_HANDS",
]


if __name__ == "__main__":
    sys.exit(main())
