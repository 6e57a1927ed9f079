"""Game constants used across the analyser, each defined once with the rule it comes from."""

SEATS = 4  # R1
DEALER = 3  # analyses seat the dealer West, so North (0) is the dealer's left
LEADER = 0  # R18: the dealer's left leads to the first trick
ANTE = 10  # R7: each player's stake into a new pool
DEFAULT_POOL = 4 * ANTE  # R7: a fresh pool holds four antes
MAX_POOL = 250  # R30: a pool holds at most 250
