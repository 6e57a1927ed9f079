"""A session's money: four balances and the pools, settled exactly (R7, R8, R22, R24-R31).

All amounts are `fractions.Fraction` units (R27). Every method validates its whole input
before touching any state, so a rejected call (ValueError naming the field) leaves the
ledger exactly as it was.

The pools (R30) are kept as one total T: full pools of 250 are set aside as they form, so
the state is always `T // 250` full pools plus a partial pool of `T % 250`. Adding money
(a doubling, a misdeal) therefore fills the partial pool and turns it into a full one when
it reaches 250. The active pool is a full pool if any exists, else the partial one.
"""

from fractions import Fraction

import numpy as np

from analyser.cards import CardError, parse_seat
from analyser.constants import ANTE, MAX_POOL
from analyser.contracts import contract_of, is_numeric, tricks_needed
from analyser.payments import payment

START_BALANCE = 1000  # R7
MISDEAL_FINE = 10  # R22
SESSION_TOTAL = 4 * START_BALANCE  # R8


def _seat(value, field):
    try:
        return parse_seat(value)
    except CardError as err:
        raise ValueError(f"{field}: {err}") from None


def _check_tricks(tricks):
    """A trick count 0..13 (Python or numpy integer) as an int, or ValueError naming `tricks`."""
    if isinstance(tricks, bool) or not isinstance(tricks, (int, np.integer)):
        raise ValueError(f"tricks: {tricks!r} is not a whole number of tricks")
    if not 0 <= tricks <= 13:
        raise ValueError(f"tricks: {tricks} is not 0..13")
    return int(tricks)


class Ledger:
    """One session's balances and pools: 990 each and a partial pool of 40 at the start (R7)."""

    def __init__(self):
        self._balances = [Fraction(START_BALANCE - ANTE)] * 4
        self._pool_total = Fraction(4 * ANTE)
        self._ended = False

    # --- reading -----------------------------------------------------------------------

    @property
    def balances(self) -> tuple:
        """The four balances by seat, exact Fractions."""
        return tuple(self._balances)

    @property
    def pools(self) -> tuple:
        """(number of full pools, amount of the partial pool) (R30)."""
        full = int(self._pool_total // MAX_POOL)
        return full, self._pool_total - full * MAX_POOL

    @property
    def active_pool(self) -> Fraction:
        """The pool a contract plays for: a full pool if any exists, else the partial (R30)."""
        return min(self._pool_total, Fraction(MAX_POOL))

    @property
    def total(self) -> Fraction:
        """Balances plus all pools: always 4000 (R8)."""
        return sum(self._balances) + self._pool_total

    @property
    def ended(self) -> bool:
        """Whether `end_session` has divided the pools (R31)."""
        return self._ended

    def __repr__(self):
        full, partial = self.pools
        return f"Ledger(balances={[str(b) for b in self._balances]}, pools=({full}, {partial}))"

    # --- settling ----------------------------------------------------------------------

    def settle(self, declarer, contract, tricks=None, made=None, conceded=False):
        """Settle one played contract (R24, R25) and its pool (R28-R30).

        Numeric contracts ("5".."13", a tier such as "8-2nd" is accepted and ignored) take
        `tricks`, the declarer's tricks; misères and spreads take `made`. `conceded=True` is
        the defenders' unanimous "pay" at 5 or 6 (R28): they pay the made amount and the
        pool is saved. It is only allowed at 5 or 6; since it means the contract counts as
        made, `tricks` may be omitted, but `tricks` below the contract contradicts it and
        is rejected. Returns the declarer's change of balance.
        """
        self._check_open()
        declarer = _seat(declarer, "declarer")
        contract = contract_of(contract, field="contract")
        if not isinstance(conceded, bool):
            raise ValueError(f"conceded: {conceded!r} is not True or False")
        if is_numeric(contract):
            n = tricks_needed(contract)
            if made is not None:
                raise ValueError(f"made: contract {contract} is numeric; give tricks, not made")
            if conceded:
                if n > 6:
                    raise ValueError(
                        f"conceded: defenders may concede only at 5 or 6, not {contract} (R28)"
                    )
                if tricks is not None and _check_tricks(tricks) < n:
                    raise ValueError(
                        f"conceded: the defenders concede only a made contract, but {tricks} "
                        f"tricks fail {contract}"
                    )
                tricks = n if tricks is None else tricks
            elif tricks is None:
                raise ValueError(f"tricks: contract {contract} needs the tricks taken")
            tricks = _check_tricks(tricks)
            per_opponent = payment(contract, tricks=tricks)
            is_made = tricks >= n
        else:
            if tricks is not None:
                raise ValueError(f"tricks: contract {contract} is settled on made, not tricks")
            if conceded:
                raise ValueError(f"conceded: defenders may concede only at 5 or 6, not {contract}")
            if not isinstance(made, (bool, np.bool_)):
                raise ValueError(f"made: contract {contract} needs made=True or False")
            made = bool(made)
            per_opponent = payment(contract, made=made)
            is_made = made

        # all input is valid: now change state
        before = self._balances[declarer]
        for seat in range(4):
            if seat != declarer:
                self._balances[seat] -= per_opponent
        self._balances[declarer] += 3 * per_opponent
        if is_made and not conceded:
            self._win_pool(declarer)  # R28
        elif not is_made:
            self._double_pool(declarer)  # R29
        return self._balances[declarer] - before

    def settle_partout(self, tricks):
        """Settle misère partout (R26): each leader pays each non-leader 10(h - t)/m; pools stay.

        `tricks` are the four players' tricks by seat, summing to 13.
        """
        self._check_open()
        try:
            counts = [_check_tricks(t) for t in tricks]
        except TypeError:
            raise ValueError(f"tricks: {tricks!r} is not four trick counts") from None
        if len(counts) != 4:
            raise ValueError(f"tricks: need four trick counts (one per seat), got {len(counts)}")
        if sum(counts) != 13:
            raise ValueError(f"tricks: {counts} sum to {sum(counts)}, not 13")
        h = max(counts)
        leaders = [s for s in range(4) if counts[s] == h]
        m = len(leaders)  # at most 3: 13 tricks cannot split evenly four ways
        for leader in leaders:
            for seat in range(4):
                if counts[seat] != h:
                    amount = Fraction(10 * (h - counts[seat]), m)  # R26, exact (R27)
                    self._balances[leader] -= amount
                    self._balances[seat] += amount

    def misdeal(self, dealer):
        """A misdeal: the dealer pays 10 more into the pool (R22 Decision)."""
        self._check_open()
        dealer = _seat(dealer, "dealer")
        self._balances[dealer] -= MISDEAL_FINE
        self._pool_total += MISDEAL_FINE

    def end_session(self):
        """Divide all remaining pools equally among the four, exactly (R31), and close the
        ledger: any further settlement raises ValueError. Returns the final balances."""
        self._check_open()
        share = self._pool_total / 4
        self._balances = [b + share for b in self._balances]
        self._pool_total = Fraction(0)
        self._ended = True
        return self.balances

    # --- pools (R28-R30) -----------------------------------------------------------------

    def _win_pool(self, declarer):
        """The declarer takes one full pool if any, else the partial pool (R28, R30)."""
        won = self.active_pool
        self._balances[declarer] += won
        self._pool_total -= won
        self._reante_if_empty()

    def _double_pool(self, declarer):
        """The declarer adds as much as the active pool holds (R29); 250s set aside (R30)."""
        added = self.active_pool
        self._balances[declarer] -= added
        self._pool_total += added
        self._reante_if_empty()

    def _reante_if_empty(self):
        """When no pool is left at all, every player pays 10 again (R30)."""
        if self._pool_total == 0:
            self._balances = [b - ANTE for b in self._balances]
            self._pool_total = Fraction(4 * ANTE)

    def _check_open(self):
        if self._ended:
            raise ValueError(
                "session: the session has ended (end_session, R31); nothing more can be settled"
            )


__all__ = ["Ledger", "START_BALANCE", "MISDEAL_FINE", "SESSION_TOTAL"]
