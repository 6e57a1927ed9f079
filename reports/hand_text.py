"""The plain-text report of one hand's analysis: header, contract table, tricks, advice, notes.

Renders only the plain dict `analyser.hand.HandAnalysis.to_dict()` hands over (JSON types);
computes nothing new and imports nothing from analyser (STYLE.md).
"""

SUIT_SYMBOLS = "♠♥♦♣"  # PBN suit order S.H.D.C


def _card_names(pbn: str) -> str:
    """'♠K ♥A ♥Q' style names of the cards of a PBN hand ("K.AQ..")."""
    return " ".join(symbol + rank for symbol, holding in zip(SUIT_SYMBOLS, pbn.split("."),
                                                               strict=True)
                    for rank in holding)


def _interval(low, high) -> str:
    """'12.3-45.6%' text of a probability interval."""
    return f"{100 * low:.1f}-{100 * high:.1f}%"


def _header(data: dict) -> list[str]:
    lines = [
        f"Hand {data['hand']} ({data['shape']}) at position {data['position']} "
        f"(seat {data['seat']}; dealer {data['dealer']}, {data['leader']} leads)",
    ]
    pref = data["first_preference"] or "none (plain suits)"
    lines.append(f"First preference: {pref}   Active pool: {data['pool']}")
    if data["play"] == "real":
        lines.append(f"Play: real (imperfect information) for {', '.join(data['real_contracts'])}"
                     f", in {data['jobs']} process(es); double-dummy beside it (DD columns) "
                     "and for the other numbers")
    else:
        lines.append("Play: double-dummy")
    if data["known"]:
        lines.append("Known: " + "; ".join(f"{seat} holds {_card_names(hand)}"
                                           for seat, hand in data["known"].items()))
    if data["exact"]:
        lines.append(f"Exact: every card is known, the deal was solved once "
                     f"in {data['seconds']:.1f} s")
        return lines
    rate = data["samples_per_second"]
    rate_text = f"{rate:.3g} samples/s" if rate is not None else "instant"
    lines.append(
        f"Samples: {data['samples']} (seed {data['seed']}) in {data['seconds']:.1f} s "
        f"({rate_text}); 95% Wilson intervals at most "
        f"±{100 * data['max_ci_half_width']:.1f} points wide"
    )
    if data["samples_budget_seconds"] is not None:
        stage = "real play" if data["play"] == "real" else "solving"
        lines.append(
            f"(Time budget: {data['samples']} samples used, as many as fit in about "
            f"{data['samples_budget_seconds']:g} s of {stage}, at most "
            f"{data['samples_budget_max']}; --samples {data['samples']} --seed "
            f"{data['seed']} reproduces this exactly.)"
        )
    return lines


def _contracts(data: dict) -> list[str]:
    real = data["play"] == "real"
    ci_head = "result" if data["exact"] else "95% CI"
    dd_head = f" {'DD P(make)':>10} {'DD EV':>9}" if real else ""
    header = (f"{'contract':<8} {'trump':<5} {'bid':<7} {'P(make)':>7}  {ci_head:<13}"
              f"{dd_head}  {'tricks':>6} {'EV/opp':>8} {'payments':>9} {'pool':>7} "
              f"{'EV total':>9}")
    lines = [header, "-" * len(header)]
    for r in data["contracts"]:
        mean = "" if r["mean_tricks"] is None else f"{r['mean_tricks']:.2f}"
        ci = ("made" if r["made"] else "failed") if data["exact"] else _interval(
            r["ci_low"], r["ci_high"])
        mark = "^" if real and r["play"] != "real" else "" if r["recommendable"] else "*"
        dd = f" {100 * r['p_make_dd']:9.1f}% {r['ev_total_dd']:+9.2f}" if real else ""
        lines.append(
            f"{r['contract']:<8} {r['trump'] or '-':<5} {r['bid'] + mark:<7} "
            f"{100 * r['p_make']:6.1f}%  {ci:<13}{dd}  {mean:>6} {r['ev_per_opponent']:+8.2f} "
            f"{r['ev_payments']:+9.2f} {r['pool_term']:+7.2f} {r['ev_total']:+9.2f}"
        )
    if real:
        lines.append("^ double-dummy only (not played for real): its P(make) and money are "
                     "double-dummy, never recommended")
    elif not all(r["recommendable"] for r in data["contracts"]):
        lines.append("* shown, never recommended (see the notes)")
    trump = next(r["trump"] for r in data["contracts"] if r["trump"] is not None)
    lines.append(f"Numbers are played in {trump}, the hand's {data['trump_rule']} trump, fixed "
                 "before any sample was dealt.")
    return lines


def _tricks(data: dict) -> list[str]:
    n = data["samples"]
    lines = ["Tricks by trump, double-dummy (share of samples taking exactly k tricks):",
             "trump " + "".join(f"{k:>6}" for k in range(14))]
    for suit, counts in data["tricks"].items():
        lines.append(f"{suit:<6}" + "".join(f"{100 * c / n:6.1f}" if c else f"{'.':>6}"
                                             for c in counts))
    return lines


def render(data: dict) -> str:
    """The plain-text report of `data` (a HandAnalysis as a dict)."""
    lines = _header(data) + [""] + _contracts(data) + [""] + _tricks(data) + [""]
    lines.append("Recommendation: " + data["recommendation"]["text"])
    if data["recommendation"]["spreads_excluded"]:
        lines.append(data["recommendation"]["spreads_reason"])
    lines.append(data["little_misere"]["text"])
    lines.append("")
    lines.extend("Note: " + note for note in data["notes"])
    return "\n".join(lines)
