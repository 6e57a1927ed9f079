"""The input of `hand`: the hand, where it sits, what else is known and how many samples.

Seats: the dealer sits West (`constants.DEALER`), so the seat at `position` p from the
dealer's left is seat p (0 = N leads to the first trick, R18; 1 = E; 2 = S; 3 = W = the
dealer). Known cards of the other players are named by these letters. When the known cards
complete the deal, the query holds one sample and is exact.
"""

from dataclasses import dataclass

import numpy as np

from analyser import options
from analyser.cards import (
    SEAT_LETTERS,
    CardError,
    card_name,
    format_hand,
    parse_hand,
    parse_seat,
    parse_suit,
)
from analyser.constants import DEFAULT_POOL
from analyser.errors import UserError

DEFAULT_SAMPLES = None  # by default, as many samples as the time budget below allows
BUDGET_SECONDS = 10.0  # the default answers in about 10 s once the kernels are compiled
BUDGET_MAX_SAMPLES = 1000  # the default's cap: intervals are then at most about +-3%
# real play costs about 4 s of one core per sample (six contracts played): 150 s on two
# cores is about 70-100 samples, and the whole answer stays within 3 minutes
BUDGET_REAL_SECONDS = 150.0
PLAYS = ("dd", "real")  # double-dummy play only, or real play beside it (analyser.play)


@dataclass(frozen=True)
class HandQuery:
    """A checked request: the hand, where it sits, what else is known, and the run size."""

    hand: int
    position: int
    first_preference: int | None
    pool: int  # whole units (R29, R30)
    samples: int  # completions dealt; with a budget, the most that may be solved
    seed: int
    known: tuple[int, int, int, int]  # card masks by seat; the analysed seat holds `hand`
    budget: float | None = None  # seconds: solve completions in order until it is spent
    play: str = "dd"  # "dd" or "real" (PLAYS)
    jobs: int = 1  # processes playing samples under real play
    real_options: tuple = ()  # (name, value) settings of the real player, sorted by name

    @property
    def exact(self) -> bool:
        """Every card is known: there is one deal, solved once, and no sampling error."""
        return sum(mask.bit_count() for mask in self.known) == 52


def _parse_position(position) -> int:
    """Seat 0..3 counted from the dealer's left (a seat letter N/E/S/W means the same here)."""
    if isinstance(position, str):
        text = position.strip()
        if text.isdigit():
            position = int(text)
        else:
            try:
                return parse_seat(text)
            except CardError:
                raise UserError(
                    f"position {position!r} is not 0..3 (counted from the dealer's left) "
                    "or one of N, E, S, W"
                ) from None
    if isinstance(position, (int, np.integer)) and not isinstance(position, bool):
        if 0 <= position <= 3:
            return int(position)
    raise UserError(f"position {position!r} is not 0..3 (counted from the dealer's left)")


def _known_tokens(known) -> list[tuple[str, object]]:
    """(seat, cards) pairs from a dict, a "SEAT:hand ..." text, or a list of either."""
    if known is None:
        return []
    if isinstance(known, dict):
        return list(known.items())
    if isinstance(known, str):
        tokens = known.replace(",", " ").split()
        pairs = []
        for token in tokens:
            seat, sep, cards = token.partition(":")
            if not sep:
                raise CardError(f"known cards {token!r} must look like 'E:A.K..' (seat:hand)")
            pairs.append((seat, cards))
        return pairs
    if isinstance(known, (list, tuple)):
        return [pair for item in known for pair in _known_tokens(item)]
    raise CardError(f"known cards must be text like 'E:A.K..' or a dict, got {known!r}")


def _parse_known(known, hand: int, position: int) -> tuple[int, int, int, int]:
    """Card masks by seat: the analysed hand at `position`, the known cards elsewhere."""
    masks = [0, 0, 0, 0]
    masks[position] = hand
    for seat_text, cards in _known_tokens(known):
        seat = parse_seat(seat_text)
        label = SEAT_LETTERS[seat]
        if seat == position:
            raise CardError(
                f"--known names seat {label}, which is the analysed hand (position {position})"
            )
        mask = int(cards) if isinstance(cards, (int, np.integer)) else parse_hand(cards)
        if mask < 0 or mask >> 52:
            raise CardError(f"known cards for {label}: mask {mask:#x} is not 52 cards")
        clash = mask & masks[position]
        if clash:
            card = (clash & -clash).bit_length() - 1
            raise CardError(f"known card {card_name(card)} for {label} is in the analysed hand")
        for other in range(4):
            if other != position and other != seat and mask & masks[other]:
                clash = mask & masks[other]
                card = (clash & -clash).bit_length() - 1
                raise CardError(
                    f"known card {card_name(card)} is given to both {label} and "
                    f"{SEAT_LETTERS[other]}"
                )
        masks[seat] |= mask
        if masks[seat].bit_count() > 13:
            raise CardError(
                f"known cards give {label} {masks[seat].bit_count()} cards (at most 13)"
            )
    return tuple(masks)


def _parse_play(play) -> str:
    """The play policy: "dd" or "real" (PLAYS)."""
    if isinstance(play, str) and play.strip().lower() in PLAYS:
        return play.strip().lower()
    raise UserError(f"play must be one of {', '.join(PLAYS)}, got {play!r}")


def _parse_budget(value) -> float:
    """A time budget in seconds: a positive finite number (text or a number)."""
    if isinstance(value, (bool, np.bool_)):
        raise UserError(f"time budget must be a positive number of seconds, got {value!r}")
    try:
        seconds = float(value.strip() if isinstance(value, str) else value)
    except (TypeError, ValueError):
        raise UserError(f"time budget must be a positive number of seconds, got {value!r}"
                        ) from None
    if not 0 < seconds < float("inf"):
        raise UserError(f"time budget must be a positive number of seconds, got {value!r}")
    return seconds


def _parse_real_options(real_options) -> tuple:
    """Settings of the real player as sorted (name, value) pairs; names must be those of
    analyser.play.REAL_PLAY_DEFAULTS (play_hand checks the values)."""
    from analyser.play import REAL_PLAY_DEFAULTS

    if real_options is None:
        return ()
    if not isinstance(real_options, dict):
        raise UserError(f"real_options must be a dict of settings, got {real_options!r}")
    unknown = sorted(set(real_options) - set(REAL_PLAY_DEFAULTS))
    if unknown:
        raise UserError(f"real_options: unknown setting {unknown[0]!r} "
                        f"(known: {', '.join(REAL_PLAY_DEFAULTS)})")
    return tuple(sorted(real_options.items()))


def default_budget(play: str) -> float:
    """The default time budget of `play` in seconds."""
    return BUDGET_REAL_SECONDS if play == "real" else BUDGET_SECONDS


def prepare(hand, position=0, first_preference=None, pool=DEFAULT_POOL,
            samples=DEFAULT_SAMPLES, seed=0, known=None, play="dd", time_budget=None,
            jobs=1, real_options=None) -> HandQuery:
    """Read and check every input; raise CardError/UserError naming the first problem.

    `samples` None or "auto" means as many as `time_budget` seconds allow (default:
    `default_budget(play)`), at most BUDGET_MAX_SAMPLES; with a count, `time_budget` (when
    given) may stop it earlier."""
    mask = int(hand) if isinstance(hand, (int, np.integer)) else parse_hand(hand)
    if mask < 0 or mask >> 52:
        raise CardError(f"hand mask {mask:#x} has bits outside the 52 cards")
    if mask.bit_count() != 13:
        raise CardError(f"hand {format_hand(mask)!r} has {mask.bit_count()} cards, not 13")
    seat = _parse_position(position)
    preference = None if first_preference is None else parse_suit(first_preference)
    if preference == -1:
        raise UserError("first preference must be a suit S, H, D or C (R6), not no-trump")
    play = _parse_play(play)
    budget = None if time_budget is None else _parse_budget(time_budget)
    if samples is None or (isinstance(samples, str) and samples.strip().lower() == "auto"):
        samples = BUDGET_MAX_SAMPLES
        budget = default_budget(play) if budget is None else budget
    samples = options.count(samples, "samples")
    jobs = options.count(jobs, "jobs")
    real_options = _parse_real_options(real_options)
    pool = options.pool(pool)
    seed = options.seed(seed)
    masks = _parse_known(known, mask, seat)
    if sum(m.bit_count() for m in masks) == 52:
        samples, budget = 1, None  # the whole deal is given: solving it once is exact
    return HandQuery(mask, seat, preference, pool, samples, seed, masks, budget, play, jobs,
                     real_options)
