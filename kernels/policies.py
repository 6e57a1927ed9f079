"""Card-play policies chosen by integer id: kernels take no callbacks (STYLE.md).

`choose_card(policy, ...)` is the one dispatcher every playout calls. It receives what a
player may know at the table (own hand, the cards already played, the trick so far,
trump, declarer, tricks taken) plus the RNG state, so imperfect-information policies for
declarer and defenders slot in as new ids and new branches without changing callers.
Names map to ids only at the Python boundary (`POLICY_IDS`).
"""

import platform

import llvmlite.binding as llvm
import numba
import numpy as np
from llvmlite import ir
from numba import types
from numba.extending import intrinsic

from kernels.bits import popcount, trailing_zeros
from kernels.jit import njit
from kernels.rng import below

RANDOM_LEGAL = 0  # a uniformly random legal card (R19)
N_POLICIES = 1

POLICY_IDS = {"random-legal": RANDOM_LEGAL}

_LOW32 = np.uint64(0xFFFFFFFF)
_LOW16 = np.uint64(0xFFFF)
_LOW8 = np.uint64(0xFF)


def _select_in_byte_table():
    """SELECT_IN_BYTE[8 * b + k]: index of the k-th lowest set bit of the byte b."""
    table = np.zeros(256 * 8, dtype=np.uint8)
    for b in range(256):
        for k, i in enumerate(i for i in range(8) if b >> i & 1):
            table[8 * b + k] = i
    return table


SELECT_IN_BYTE = _select_in_byte_table()


# inline='always' (numba-level inlining): on the per-card hot path a call costs as much as
# the work; LLVM does not inline across numba's separately compiled functions
@njit(inline='always')
def select_bit_portable(mask, k):
    """Index of the k-th lowest set bit of `mask` (k = 0 is the lowest; k < popcount(mask))."""
    # Narrow to the byte holding the answer by popcounts of low halves, then look the bit
    # up in a 2 KB table: no loop, and the selects compile to conditional moves, because a
    # branch on a random k would be mispredicted about every other card.
    m = np.uint64(mask)
    k = np.int64(k)
    c = popcount(m & _LOW32)
    up = k >= c
    k = k - c if up else k
    shift = np.int64(32) if up else np.int64(0)
    c = popcount((m >> np.uint64(shift)) & _LOW16)
    up = k >= c
    k = k - c if up else k
    shift += 16 if up else 0
    c = popcount((m >> np.uint64(shift)) & _LOW8)
    up = k >= c
    k = k - c if up else k
    shift += 8 if up else 0
    byte = np.int64((m >> np.uint64(shift)) & _LOW8)
    return shift + np.int64(SELECT_IN_BYTE[8 * byte + k])


def _pdep_fast_on_host() -> bool:
    """Whether numba compiles for an x86-64 CPU with a fast PDEP instruction (BMI2).

    AMD before Zen 3 implements PDEP in microcode (tens to hundreds of cycles), so those
    CPUs, and any explicitly configured numba target, use the portable select.
    """
    if platform.machine().lower() not in ("x86_64", "amd64"):
        return False
    if numba.config.CPU_NAME or numba.config.CPU_FEATURES:
        return False  # a chosen (e.g. generic, portable-cache) target may lack BMI2
    name = llvm.get_host_cpu_name()
    if name.startswith(("znver1", "znver2", "bdver", "btver")):
        return False
    return bool(llvm.get_host_cpu_features().get("bmi2", False))


FAST_PDEP = _pdep_fast_on_host()


@intrinsic
def _pdep(typingctx, src, mask):
    """x86 BMI2 parallel bit deposit of two uint64 (only compiled when FAST_PDEP)."""
    sig = types.uint64(types.uint64, types.uint64)

    def codegen(context, builder, signature, args):
        i64 = ir.IntType(64)
        fn = builder.module.declare_intrinsic("llvm.x86.bmi.pdep.64",
                                              fnty=ir.FunctionType(i64, [i64, i64]))
        return builder.call(fn, args)

    return sig, codegen


@njit(inline='always')  # hot path, see select_bit_portable
def select_bit_pdep(mask, k):
    """As select_bit_portable, with one PDEP: deposit bit k onto the set bits of `mask`."""
    # The select is on the critical path of every trick (card -> led suit / winner), and
    # PDEP's 3-cycle latency replaces about 25 cycles of popcount steps: twice the playouts/s.
    return trailing_zeros(_pdep(np.uint64(1) << np.uint64(k), np.uint64(mask)))


# chosen once per process; both give the same answer, so results never depend on the CPU
select_bit = select_bit_pdep if FAST_PDEP else select_bit_portable


@njit(inline='always')  # hot path, see select_bit_portable
def random_legal_card(legal, state):
    """A card drawn uniformly from the non-empty mask `legal`."""
    return select_bit(legal, below(state, popcount(legal)))


@njit(inline='always')  # hot path, see select_bit_portable
def choose_card(policy, seat, hand, legal, trick, n_in_trick, trump, declarer, played, taken,
                state):
    """Card id that `seat` plays under policy id `policy`.

    `hand` is the seat's hand and `legal` its legal cards (R19, non-empty); `trick[:n_in_trick]`
    the cards already in the current trick in play order; `played` the mask of every card
    played before (the current trick included); `taken` the tricks taken so far by seat;
    `declarer` the declarer's seat or -1 (misère partout, R14); `state` the RNG state.
    """
    if policy == RANDOM_LEGAL:
        return random_legal_card(legal, state)
    raise ValueError("unknown play policy id")


__all__ = ["RANDOM_LEGAL", "N_POLICIES", "POLICY_IDS", "SELECT_IN_BYTE", "FAST_PDEP",
           "select_bit", "select_bit_portable", "select_bit_pdep", "random_legal_card",
           "choose_card"]
