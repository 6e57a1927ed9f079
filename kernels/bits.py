"""Bit intrinsics (population count, trailing and leading zeros) as single LLVM instructions.

Every hand is a 64-bit mask, so these are on every hot path; numba has no public
popcount, and a Python-level loop would cost tens of cycles per call.
"""

from llvmlite import ir
from numba import types
from numba.extending import intrinsic

from kernels.jit import njit


def _unary_intrinsic(name, emit):
    """Build an intrinsic that casts its integer argument to uint64 and applies `emit`."""

    def typer(typingctx, x):
        if not isinstance(x, types.Integer):
            return None
        sig = types.int64(x)

        def codegen(context, builder, signature, args):
            (val,) = args
            val64 = builder.zext(val, ir.IntType(64)) if x.bitwidth < 64 else val
            return emit(builder, val64)

        return sig, codegen

    typer.__name__ = name
    return intrinsic(typer)


popcount = _unary_intrinsic("popcount", lambda b, v: b.ctpop(v))
popcount.__doc__ = "Number of set bits of a 64-bit mask."


def _cttz(builder, v):
    return builder.cttz(v, ir.Constant(ir.IntType(1), 0))


def _ctlz(builder, v):
    return builder.ctlz(v, ir.Constant(ir.IntType(1), 0))


trailing_zeros = _unary_intrinsic("trailing_zeros", _cttz)
trailing_zeros.__doc__ = "Index of the lowest set bit (64 for zero)."

leading_zeros = _unary_intrinsic("leading_zeros", _ctlz)
leading_zeros.__doc__ = "Number of zero bits above the highest set bit (64 for zero)."


@njit
def lowest_bit_index(mask):
    """Index of the lowest set bit of a non-zero mask."""
    return trailing_zeros(mask)


@njit
def highest_bit_index(mask):
    """Index of the highest set bit of a non-zero mask."""
    return 63 - leading_zeros(mask)
