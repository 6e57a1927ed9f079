"""boston-analyser: Monte Carlo strategy analysis for Boston (Foster's decimal settlement).

The public API is the one in shared/API.md; every name below imports from here.
Names are resolved lazily so that `import analyser` stays cheap (no numba compile)
until a kernel is actually used.
"""

from importlib import import_module

__version__ = "0.1.0"

# public name -> module that defines it
_EXPORTS = {
    # cards and deals
    "parse_hand": "analyser.cards",
    "format_hand": "analyser.cards",
    "parse_deal": "analyser.cards",
    "format_deal": "analyser.cards",
    "shape": "analyser.cards",
    "parse_seat": "analyser.cards",
    "deal_random": "analyser.dealing",
    "deal_with": "analyser.dealing",
    "deal_known": "analyser.dealing",
    "preference_suits": "analyser.dealing",
    # play rules
    "legal_cards": "analyser.rules",
    "trick_winner": "analyser.rules",
    "playout": "analyser.rules",
    # double-dummy solving
    "dd_tricks": "analyser.solver",
    "dd_misere": "analyser.solver",
    "dd_little_misere": "analyser.solver",
    "dd_tricks_partnership": "analyser.solver",
    "dd_table": "analyser.solver",
    "dd_misere_table": "analyser.solver",
    "dd_scores": "analyser.solver",
    "dd_reach": "analyser.solver",
    "dd_scores_batch": "analyser.solver",
    # auction and settlement
    "run_auction": "analyser.auction",
    "IllegalCall": "analyser.auction",
    "Ledger": "analyser.ledger",
    # analyses
    "analyse_hand": "analyser.hand",
    "play_hand": "analyser.play",
}

__all__ = sorted(_EXPORTS) + ["__version__"]


def __getattr__(name):
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'analyser' has no attribute {name!r}")
    value = getattr(import_module(module), name)
    globals()[name] = value
    return value


def __dir__():
    return __all__
