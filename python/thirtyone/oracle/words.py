"""The Oracle's answer in plain words: what each option does later, the reason for the best, and
the glossary of the figures. Every sentence is built from the figures and the table's words
(``unit``: ``lives`` or ``letters``), so that it is right at every table.

- A margin is in percentage points, and says so.
- The never threshold reads "never knock: play for 31"; a put-down that makes 31 reads "makes
  31 — show it", not as a plan for later.
- When every option is hopeless (0% safe), the options are ranked by what they cost and then by
  the hand they keep, and the reason says so.
- Two figures are compared only when they differ as shown (one decimal); the "costs more when it
  fails" caveat appears only when the difference in the unit lost exceeds its margin.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, NamedTuple

from thirtyone.oracle.answer import Kind

if TYPE_CHECKING:
    from thirtyone.oracle.answer import OptionAdvice

NEVER_PLAN = "never knock: play for 31"
FIRST_PLAN = "knock at the first chance"
MAKES_31 = "makes 31 — show it"


def pct(p: float) -> str:
    """``94.9%``."""
    return f"{100 * p:.1f}%"


def pp(x: float) -> str:
    """A difference or margin in percentage points: ``7.1 percentage points``."""
    return f"{100 * x:.1f} percentage points"


def score_text(score: float) -> str:
    """``21`` for 21.0, ``30.5`` for 30.5."""
    return str(int(score)) if float(score).is_integer() else str(score)


def makes_31(option: OptionAdvice) -> bool:
    """Whether the option is a put-down that leaves 31 (or more: three aces)."""
    return option.kind is Kind.PUT_DOWN and option.keeps is not None and option.keeps >= 31


def later_plan(option: OptionAdvice) -> str:
    """When a swept option knocks later: ``knock at 25 or more``, ``never knock: play for 31``,
    or ``knock at the first chance`` when it is the lowest score swept (one every hand
    reaches)."""
    if option.knock_at is None:
        return NEVER_PLAN
    lowest = option.sweep.knock_at[0] if option.sweep is not None else None
    if lowest is not None and option.knock_at <= lowest:
        return FIRST_PLAN
    return f"knock at {score_text(option.knock_at)} or more"


def plan(option: OptionAdvice) -> str:
    """What follows the option, in a few words: ``makes 31 — show it`` for a 31-making
    put-down, the later knock plan of a swept option, else nothing."""
    if makes_31(option):
        return MAKES_31
    return later_plan(option) if option.swept else ""


def _later_clause(option: OptionAdvice) -> str:
    """The plan as a clause of the reason: ``, never knocking: play for 31``."""
    if makes_31(option):
        return " (it makes 31 — show it)"
    if not option.swept:
        return ""
    shown = later_plan(option)
    if shown == NEVER_PLAN:
        return ", never knocking later: play for 31"
    if shown == FIRST_PLAN:
        return ", knocking at your next turn whatever you hold"
    return f", knocking on a later turn once you hold {score_text(option.knock_at or 0)} or more"


def hopeless(options: Sequence[OptionAdvice]) -> bool:
    """True when no option comes through safe in any simulated round."""
    return all(o.p_safe <= 0.0 for o in options)


def rank_hopeless(options: Sequence[OptionAdvice]) -> list[OptionAdvice]:
    """Hopeless options ranked by what they cost (least first), then by the hand kept (the
    highest first; an option that keeps no known hand last)."""
    return sorted(
        options,
        key=lambda o: (round(o.lives_lost, 4), -(o.keeps if o.keeps is not None else -1.0)),
    )


def _and(parts: Sequence[str]) -> str:
    """``a``, ``a or b`` → ``a and b``, ``a, b and c``."""
    if len(parts) <= 1:
        return "".join(parts)
    return ", ".join(parts[:-1]) + " and " + parts[-1]


def _upper_first(text: str) -> str:
    """The text with its first letter upper-case (``str.capitalize`` would lower ``2S``)."""
    return text[:1].upper() + text[1:]


def _equal_shown(a: OptionAdvice, b: OptionAdvice) -> bool:
    return pct(a.p_safe) == pct(b.p_safe)


def reason(
    options: Sequence[OptionAdvice],
    tied: Sequence[OptionAdvice],
    *,
    unit: str = "lives",
) -> str:
    """The reason for the best option (``options[0]``), in words. ``unit``: what the lost
    figure counts (``lives``, ``letters``)."""
    best = options[0]
    later = _later_clause(best)
    if hopeless(options):
        text = (
            f"No option comes through safe in any simulated round, so they are ranked by the "
            f"{unit} they cost, then by the hand they keep: {best.describe()}{later} costs "
            f"{best.lives_lost:.2f} {unit} on average"
        )
        if best.keeps is not None:
            text += f" and keeps {score_text(best.keeps)}"
        return text + "."
    if len(options) == 1:
        return (
            f"Your only option is to {best.describe()}{later}: you come through safe in "
            f"{pct(best.p_safe)} of the simulated rounds."
        )
    names = _and([f"to {o.describe()}" for o in tied])
    if tied and all(_equal_shown(o, best) for o in tied):
        return (
            f"To {best.describe()}{later} and {names} are equally safe: "
            f"{pct(best.p_safe)} of the simulated rounds each."
        )
    if tied:
        runner = max(tied, key=lambda o: o.p_safe)
        return (
            f"To {best.describe()}{later} and {names} are statistically tied: they differ "
            f"by less than the margin of ±{pp(best.margin)}. The first is marginally ahead at "
            f"{pct(best.p_safe)} safe against {pct(runner.p_safe)}."
        )
    second = options[1]  # the options come best first, then by p_safe
    if _equal_shown(best, second):
        text = (
            f"{_upper_first(best.describe())}{later}: safe in {pct(best.p_safe)} of the "
            f"simulated rounds, as is to {second.describe()}."
        )
    else:
        text = (
            f"{_upper_first(best.describe())}{later}: safe in {pct(best.p_safe)} of the "
            f"simulated rounds, {pp(best.p_safe - second.p_safe)} better than to "
            f"{second.describe()} ({pct(second.p_safe)})."
        )
    return text + _cost_caveat(best, second, unit)


def _cost_caveat(best: OptionAdvice, second: OptionAdvice, unit: str) -> str:
    """``It costs more when it fails, though: ...`` when the best loses more on average than
    the next, by more than the margin of that difference (shown figures differing)."""
    diff = best.lives_lost - second.lives_lost
    # The difference of two figures has at most the sum of their margins.
    margin = best.lives_lost_margin + second.lives_lost_margin
    if diff <= margin or f"{best.lives_lost:.2f}" == f"{second.lives_lost:.2f}":
        return ""
    return (
        f" It costs more when it fails, though: {best.lives_lost:.2f} {unit} lost on average "
        f"against {second.lives_lost:.2f}."
    )


GLOSSARY = (
    ("safe", "the share of simulated rounds in which you lose nothing"),
    ("±", "the margin, in percentage points (95 in 100 within it)"),
    ("≈ tied", "within the margin of the best (★): no real difference"),
    ("knock at", "the score from which you knock on a later turn"),
    ("{unit} lost", "what the option costs on average"),
)


def glossary(unit: str = "lives") -> list[tuple[str, str]]:
    """The advice's words and what each means, in the table's unit."""
    return [(word.format(unit=unit), meaning.format(unit=unit)) for word, meaning in GLOSSARY]


class Lives(NamedTuple):
    """Every round seat's lives (``lives``), yours (``me``), the seats' names (None: "seat N")
    and whether the table plays the county (0 lives: on the county)."""

    lives: Sequence[int]
    me: int
    names: Sequence[str] | None = None
    county: bool = False

    def name(self, seat: int) -> str:
        return self.names[seat] if self.names else f"seat {seat}"

    def held(self, lives: int, unit: str = "lives") -> str:
        if self.county and lives == 0:
            return "on the county"
        return f"{lives} {unit if lives != 1 else unit.rstrip('s')}" if unit else str(lives)

    def last(self, seat: int) -> bool:
        """Whether the next loss puts ``seat`` out (a knock caught may cost more)."""
        return self.lives[seat] == (0 if self.county else 1)

    def summary(self, unit: str = "lives") -> str:
        """``lives: you 3, Ben 1, Cy on the county`` (``letters left: …`` under Gin lives)."""
        head = "letters left" if unit == "letters" else unit

        def one(seat: int) -> str:
            n = self.lives[seat]
            return "on the county" if self.county and n == 0 else str(n)

        others = [f"{self.name(s)} {one(s)}" for s in range(len(self.lives)) if s != self.me]
        return f"{head}: you {one(self.me)}, " + ", ".join(others)


def game_figure(option: OptionAdvice, points: bool = False) -> str:
    """``wins the game 41.2% of the time`` (ranked placing: ``expects 1.62 points``)."""
    value = option.p_win or 0.0
    return f"expects {value:.2f} points" if points else f"wins the game {pct(value)} of the time"


def game_reason(
    best: OptionAdvice,
    best_game: OptionAdvice,
    lives: Lives,
    *,
    points: bool = False,
    unit: str = "lives",
) -> str:
    """The game's word after the round's reason: the same option, or which is better for the
    game and why (the lives every seat holds decide it)."""
    if best_game.option == best.option:
        return f" For the game too: it {game_figure(best, points)}."
    g, b = best_game.p_win or 0.0, best.p_win or 0.0
    margin = best_game.p_win_margin or 0.0
    if points:
        compare = f"{g:.2f} points against {b:.2f}"
    else:
        compare = f"it wins the game {pct(g)} of the time against {pct(b)}"
    text = (
        f" For the game, {best_game.describe()} is better: {compare} for {best.describe()}"
        f" ({lives.summary(unit)})"
    )
    if g - b <= margin:
        text += f", within the margin of ±{100 * margin:.1f} percentage points"
    return text + ". " + _upper_first(_game_why(best, best_game, lives, unit)) + "."


def _game_why(best: OptionAdvice, best_game: OptionAdvice, lives: Lives, unit: str) -> str:
    if best_game.lives_lost + best_game.lives_lost_margin < best.lives_lost:
        return (
            f"it loses fewer {unit} on average ({best_game.lives_lost:.2f} against "
            f"{best.lives_lost:.2f}), and with {lives.held(lives.lives[lives.me], unit)} left "
            "each one lost weighs more than the round's safety shows"
        )
    last = [lives.name(s) for s in range(len(lives.lives)) if s != lives.me and lives.last(s)]
    if last:
        who = _and(last)
        return (
            f"{who} {'is' if len(last) == 1 else 'are'} one loss from going out: the game "
            "counts who this round can put out, not only whether you lose"
        )
    return (
        "the game counts the lives every outcome leaves you and the others, not only whether "
        "you lose one this round"
    )
