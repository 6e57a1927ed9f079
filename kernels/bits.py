"""Bit intrinsics (population count, trailing and leading zeros) as single LLVM instructions.

Every hand is a 64-bit mask, so these are on every hot path; numba has no public
popcount, and a Python-level loop would cost tens of cycles per call.
"""

from llvmlite import ir
from numba import types
from numba.core import cgutils
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
    """Index of the highest set bit of a mask (-1 for zero: `leading_zeros` gives 64)."""
    return 63 - leading_zeros(mask)


def _prefetch_typer(typingctx, table, row):
    """Typing of `prefetch_row(table, row)`: a 2-D array and an integer row index."""
    if not (isinstance(table, types.Array) and table.ndim == 2
            and isinstance(row, types.Integer)):
        return None
    sig = types.void(table, row)

    def codegen(context, builder, signature, args):
        arrty = signature.args[0]
        arr = context.make_array(arrty)(context, builder, args[0])
        idx = context.cast(builder, args[1], signature.args[1], types.intp)
        ptr = cgutils.get_item_pointer(context, builder, arrty, arr,
                                       [idx, ir.Constant(idx.type, 0)])
        i8p = builder.bitcast(ptr, ir.IntType(8).as_pointer())
        i32 = ir.IntType(32)
        fnty = ir.FunctionType(ir.VoidType(), [i8p.type, i32, i32, i32])
        fn = cgutils.get_or_insert_function(builder.module, fnty, "llvm.prefetch.p0")
        # a read, kept in every cache level, of data
        builder.call(fn, [i8p, ir.Constant(i32, 0), ir.Constant(i32, 3), ir.Constant(i32, 1)])
        return context.get_dummy_value()

    return sig, codegen


_prefetch_typer.__name__ = "prefetch_row"
prefetch_row = intrinsic(_prefetch_typer)
prefetch_row.__doc__ = """Ask the CPU to start loading the cache line of row `row` of a 2-D
array (LLVM's prefetch hint: no effect on results, no fault on any address)."""


def _target_features() -> str:
    """The CPU features numba compiles for: NUMBA_CPU_FEATURES when set, else the host's
    (as numba reads them)."""
    from numba.core import config
    from numba.core.codegen import get_host_cpu_features

    return config.CPU_FEATURES if config.CPU_FEATURES is not None else get_host_cpu_features()


# Whether the compiled code may use BMI2's bit gather and scatter (`pext`, `pdep`): x86
# processors since 2013-2015. Where it may not, the callers take their portable path.
HAS_BMI2 = "+bmi2" in _target_features().split(",")


def _bmi2_intrinsic(name, llvm_name):
    """An intrinsic (x, mask) -> uint64 calling the x86 BMI2 instruction `llvm_name`."""

    def typer(typingctx, x, m):
        if not (isinstance(x, types.Integer) and isinstance(m, types.Integer)):
            return None
        sig = types.uint64(x, m)

        def codegen(context, builder, signature, args):
            i64 = ir.IntType(64)
            vals = [builder.zext(v, i64) if t.bitwidth < 64 else v
                    for v, t in zip(args, signature.args, strict=True)]
            fn = cgutils.get_or_insert_function(builder.module,
                                                ir.FunctionType(i64, [i64, i64]), llvm_name)
            return builder.call(fn, vals)

        return sig, codegen

    typer.__name__ = name
    return intrinsic(typer)


pext = _bmi2_intrinsic("pext", "llvm.x86.bmi.pext.64")
pext.__doc__ = """The bits of `x` at the set bits of `mask`, packed from bit 0 up (BMI2's
PEXT; only where HAS_BMI2)."""
pdep = _bmi2_intrinsic("pdep", "llvm.x86.bmi.pdep.64")
pdep.__doc__ = """The low bits of `x` placed, from bit 0 up, at the set bits of `mask`
(BMI2's PDEP; only where HAS_BMI2)."""


def _bit_reverse_typer(typingctx, x):
    if not isinstance(x, types.Integer) or x.bitwidth != 64:
        return None
    sig = types.uint64(x)

    def codegen(context, builder, signature, args):
        return builder.bitreverse(args[0])

    return sig, codegen


_bit_reverse_typer.__name__ = "bit_reverse"
bit_reverse = intrinsic(_bit_reverse_typer)
bit_reverse.__doc__ = "A 64-bit word with its bits in reverse order (bit i to bit 63 - i)."
