"""The double-dummy solver: the exact tricks a side takes with every hand in view.

One module per concept, callers first:

- `batch`: a worker's jobs over many deals (numeric contracts, misères), one table kept.
- `scores`: every card's value in a position that may start inside a trick (real play).
- `search`: the target search (`solve_value`, the misère solves), its probes and cut-offs.
- `moves`: the order in which a node tries its cards.
- `tt`: the transposition table of bound classes and exact entries.
- `sure_tricks`: quick bounds at a trick boundary (cashing, crossing, lengths).
- `trump_rules`: the trump-specific quick bounds.
- `misere`: the misère rules and the one-suit forcing game.
- `settle`: settles inside a trick.
- `trump_game`, `ruff_game`: a lone declarer's trump and ruffing games, searched within
  a budget.
- `state`: the position (hands as card masks, the trick in progress) and mask helpers.
"""
