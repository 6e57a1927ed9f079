"""Random numbers with explicit state: xoshiro256** in a 4-word uint64 array.

Kernels take the state array as an argument (STYLE.md, after pynndescent), so no
result depends on global state and every stream replays from its seed. Streams for
blocks of work are derived from one root seed by `stream_state`, so the numbers a block
sees never depend on how many threads or jobs share the work.
"""

import numpy as np
from llvmlite import ir
from numba import types
from numba.extending import intrinsic

from kernels.jit import njit

STATE_WORDS = 4
_MASK64 = (1 << 64) - 1


@njit
def _rotl(x, k):
    return (x << np.uint64(k)) | (x >> np.uint64(64 - k))


@njit
def splitmix64(x):
    """One step of SplitMix64 on a uint64: it expands seeds into states."""
    z = np.uint64(x) + np.uint64(0x9E3779B97F4A7C15)
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


@njit
def stream_state(root, stream, state):
    """Fill `state` (4 uint64) for sub-stream number `stream` of the 4-word `root` key."""
    acc = splitmix64(root[0] ^ splitmix64(np.uint64(stream)))
    for i in range(STATE_WORDS):
        acc = splitmix64(acc ^ root[i] ^ np.uint64(i * 0x632BE59BD9B4E019))
        state[i] = acc
    if state[0] == 0 and state[1] == 0 and state[2] == 0 and state[3] == 0:
        state[0] = np.uint64(1)  # the all-zero state is xoshiro's one fixed point


@njit
def xoshiro_step(s0, s1, s2, s3):
    """One xoshiro256** step on a state held in four uint64 scalars: (output, s0, s1, s2, s3).

    Tight loops (rejection sampling in kernels/dealing.py) keep the state in registers
    this way instead of loading and storing the state array for every word.
    """
    result = _rotl(s1 * np.uint64(5), 7) * np.uint64(9)
    t = s1 << np.uint64(17)
    s2 ^= s0
    s3 ^= s1
    s1 ^= s2
    s0 ^= s3
    s2 ^= t
    s3 = _rotl(s3, 45)
    return result, s0, s1, s2, s3


@njit
def next_u64(state):
    """Next 64 random bits (xoshiro256**), advancing `state` in place."""
    result, s0, s1, s2, s3 = xoshiro_step(state[0], state[1], state[2], state[3])
    state[0], state[1], state[2], state[3] = s0, s1, s2, s3
    return result


@intrinsic
def mul_hi(typingctx, x, y):
    """High 64 bits of the 128-bit product of two uint64 (one `mul` instruction on x86-64)."""
    if not (isinstance(x, types.Integer) and isinstance(y, types.Integer)):
        return None

    def codegen(context, builder, signature, args):
        wide = ir.IntType(128)
        a = builder.zext(context.cast(builder, args[0], x, types.uint64), wide)
        b = builder.zext(context.cast(builder, args[1], y, types.uint64), wide)
        product = builder.mul(a, b)
        return builder.trunc(builder.lshr(product, ir.Constant(wide, 64)), ir.IntType(64))

    return types.uint64(x, y), codegen


@njit
def below(state, n):
    """Uniform integer in 0..n-1 (1 <= n < 2**63), exactly unbiased (Lemire's multiply-reject)."""
    bound = np.uint64(n)
    x = next_u64(state)
    low = x * bound  # low word of the 128-bit product x * n
    if low < bound:  # only then can x fall in the rejected zone; skip the division otherwise
        threshold = (np.uint64(0) - bound) % bound  # 2**64 mod n
        while low < threshold:
            x = next_u64(state)
            low = x * bound
    return np.int64(mul_hi(x, bound))


def root_key(seed) -> np.ndarray:
    """The 4-word root key of a seed (int or numpy SeedSequence), via numpy's SeedSequence."""
    seq = seed if isinstance(seed, np.random.SeedSequence) else np.random.SeedSequence(seed)
    return seq.generate_state(STATE_WORDS, dtype=np.uint64)
