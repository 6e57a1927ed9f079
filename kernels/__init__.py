"""Numba kernels for Boston: cards, RNG, dealing, play rules, solver, policies, settlement.

Everything here is pure numba over plain numpy arrays and scalars (STYLE.md):
no Python objects cross into a kernel; policies and contract kinds are integer ids.
The public, documented entry points live in :mod:`analyser`.
"""
