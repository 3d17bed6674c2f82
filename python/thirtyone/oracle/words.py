"""The Oracle's answer in plain words: what each option does later, the reason for the best, the
one-line gist of it for a small screen, and the glossary of the figures. Every sentence is built
from the figures and the table's words (``unit``: ``lives`` or ``letters``), so that it is right
at every table.

- A margin or a difference of chances is in percentage points, and says so (the one-line
  gist says "points" for short, except under ranked placing, where the game's figure is
  points to expect); a margin of ranked points is in points (ruling 358).
- The never threshold reads "never knock: play for 31" (a later knock score of 31 or more is
  never: such a hand is shown at once), or "never knock: wait for another's knock" after an
  option that keeps 30 or more (at 30, a draw rarely makes 31: the hand waits, as when the
  Oracle keeps 30 rather than show a 31 for the game); a put-down or a take that makes 31 reads
  "makes 31 — show it", not as a plan for later.
- When every option is hopeless (0% safe), the options are ranked by what they cost and then by
  the hand they keep, and the reason says so; those that cost no more than the best (beyond the
  margins: :func:`~thirtyone.oracle.rank.hopeless_ties`) are tied with it.
- A figure is shown as the JSON answer reports it: its four places, then one decimal of a
  percentage, halves up (:func:`~thirtyone.oracle.rank.tenths`), as the browser shows it too.
- Two figures are compared only when they differ as shown (one decimal of a percentage, two
  decimals of lives); a difference of lives lost only when it also exceeds the sum of the two
  margins (:func:`~thirtyone.oracle.rank.fewer_lost`).
- When the best is not the safest of the options tied on safety, the reason says what made it
  the best (fewer lives lost, or the game: :mod:`thirtyone.oracle.rank`).
- Options are listed once each ("to put down the QC, the QD and the TC"); lives in seat order,
  from the seat after yours.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, NamedTuple

from thirtyone.oracle.answer import Kind
from thirtyone.oracle.rank import (
    fewer_lost,
    game_lead_within,
    game_shown,
    higher_game,
    lost_shown,
    named_for_game,
    percent_shown,
    shown_gap,
    two_places,
)

if TYPE_CHECKING:
    from thirtyone.oracle.answer import Advice, OptionAdvice

NEVER_PLAN = "never knock: play for 31"
NEVER_WAIT = "never knock: wait for another's knock"
#: The hand an option keeps from which its never plan waits rather than plays for 31.
WAITS_FROM = 30
FIRST_PLAN = "knock at the first chance"
MAKES_31 = "makes 31 — show it"
#: The same where you already hold a 31 kept hidden: the option keeps one (ruling 314).
KEEPS_31 = "keeps your 31 — show it"
#: The plan of a draw while you hold a 31 kept hidden: the 31 is kept and shown at the put-down.
SHOWS_HIDDEN_31 = "show your 31"


def pct(p: float) -> str:
    """``94.9%`` (as shown: :func:`~thirtyone.oracle.rank.tenths`)."""
    return f"{percent_shown(p)}%"


def pp(x: float) -> str:
    """A difference or margin in percentage points: ``7.1 percentage points``."""
    return f"{percent_shown(x)} percentage points"


def points_word(ranked: bool) -> str:
    """The unit of a difference of chances, short: ``points``; ``ranked``: beside ranked points
    (a table placed ranked, a cost in expected points), in full, ``percentage points``, told
    apart from them (ruling 358)."""
    return "percentage points" if ranked else "points"


def counted(n: int, noun: str) -> str:
    """A number of things, the noun in the singular for one: ``1 consistent deal``, ``10,000
    consistent deals`` (ruling 359)."""
    return f"{n:,} {noun}{'' if n == 1 else 's'}"


def score_text(score: float) -> str:
    """``21`` for 21.0, ``30.5`` for 30.5."""
    return str(int(score)) if float(score).is_integer() else str(score)


def label(option: OptionAdvice) -> str:
    """An option in a few words: ``knock``, ``draw``, ``take QC, put down 4H``, ``put down
    9C``."""
    if option.kind is Kind.TAKE:
        return f"take {option.card}, put down {option.discard}"
    if option.kind is Kind.PUT_DOWN:
        return f"put down {option.discard}"
    return option.option


def makes_31(option: OptionAdvice) -> bool:
    """Whether the option is a put-down or a take that leaves 31 (or more: three aces), which is
    shown at once."""
    kinds = (Kind.PUT_DOWN, Kind.TAKE)
    return option.kind in kinds and option.keeps is not None and option.keeps >= 31


def _makes_or_keeps(option: OptionAdvice) -> str:
    """``makes`` for an option that leaves a 31, ``keeps your`` where you hold one kept hidden."""
    return "keeps your" if option.shows_hidden_31 else "makes"


def later_plan(option: OptionAdvice) -> str:
    """When a swept option knocks later: ``knock at 25 or more``, ``never knock: play for 31``
    (``never knock: wait for another's knock`` when it keeps 30 or more), or ``knock at the
    first chance`` when it is the lowest score swept (one every hand reaches)."""
    if option.knock_at is None or option.knock_at >= 31:
        waits = option.keeps is not None and option.keeps >= WAITS_FROM
        return NEVER_WAIT if waits else NEVER_PLAN
    lowest = option.sweep.knock_at[0] if option.sweep is not None else None
    if lowest is not None and option.knock_at <= lowest:
        return FIRST_PLAN
    return f"knock at {score_text(option.knock_at)} or more"


def plan(option: OptionAdvice) -> str:
    """What follows the option, in a few words: ``makes 31 — show it`` for a put-down or a take
    that makes 31, ``show your 31`` for a draw while you hold a 31 kept hidden, the later knock
    plan of a swept option, else nothing."""
    if makes_31(option):
        return KEEPS_31 if option.shows_hidden_31 else MAKES_31
    if option.shows_hidden_31:
        return SHOWS_HIDDEN_31
    return later_plan(option) if option.swept else ""


#: A knock at the first chance, said where the table lets any hand knock (no knock minimum, no
#: one suit needed) and where it does not: the lowest score swept is then the table's least.
FIRST_ANY = "knock at your next turn whatever you hold"
FIRST_ALLOWED = "knock at the first chance the table's knock rules allow"


def _later_clause(option: OptionAdvice, any_hand: bool = True) -> str:
    """The plan as a clause of the reason: ``, then never knocking: play for 31``; ``any_hand``:
    whether the table lets any hand knock (a knock at the first chance is then whatever you
    hold)."""
    if makes_31(option):
        return f" (it {plan(option)})"
    if option.shows_hidden_31:
        return ", then showing your 31"
    if not option.swept:
        return ""
    shown = later_plan(option)
    if shown == NEVER_PLAN:
        return ", then never knocking (playing for 31)"
    if shown == NEVER_WAIT:
        return ", then never knocking (waiting for another's knock)"
    if shown == FIRST_PLAN:
        return ", then " + (FIRST_ANY if any_hand else FIRST_ALLOWED).replace(
            "knock", "knocking", 1
        )
    return f", then knocking at {score_text(option.knock_at or 0)} or more"


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


def and_list(parts: Sequence[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    if len(parts) <= 1:
        return "".join(parts)
    return ", ".join(parts[:-1]) + " and " + parts[-1]


def _upper_first(text: str) -> str:
    """The text with its first letter upper-case (``str.capitalize`` would lower ``2S``)."""
    return text[:1].upper() + text[1:]


def _equal_shown(a: OptionAdvice, b: OptionAdvice) -> bool:
    return pct(a.p_safe) == pct(b.p_safe)


def listed(options: Sequence[OptionAdvice]) -> str:
    """The options as one list, each once: ``to put down the QC, the QD and the TC``, ``to draw
    from the stock and to knock``."""
    if len(options) > 1 and all(o.kind is Kind.PUT_DOWN for o in options):
        return "to put down " + and_list([f"the {o.discard}" for o in options])
    return and_list([f"to {o.describe()}" for o in options])


def safest(best: OptionAdvice, tied: Sequence[OptionAdvice]) -> OptionAdvice:
    """The safest of the best and the options tied with it (the best on equal figures)."""
    return max([best, *tied], key=lambda o: o.p_safe)


def lives_matter(advice: Advice) -> bool:
    """Whether the unit lost changes the picture, so that the lives lost are worth showing:
    every option is hopeless, a safer option costs more on average than a less safe one by more
    than the margin of that difference (ruling 33), or the best was chosen over a safer tied
    option for losing fewer."""
    options = advice.options
    if all(o.p_safe <= 0.0 for o in options):
        return True
    return any(
        a.p_safe > b.p_safe
        and a.lives_lost - b.lives_lost > a.lives_lost_margin + b.lives_lost_margin
        for a in options
        for b in options
    ) or fewer_lost(advice.best, safest(advice.best, advice.tied))


def star_why(
    best: OptionAdvice, other: OptionAdvice, unit: str = "lives", points: bool = False
) -> str:
    """Why the best goes before ``other``, an option as safe or safer: ``loses fewer lives on
    average (0.38 against 0.67)``, or ``wins the game more often (…)``, or where the game's
    figures differ by less than the best's margin, that it has the higher one as shown and by
    how little; empty when neither."""
    if fewer_lost(best, other):
        return (
            f"loses fewer {unit} on average ({lost_shown(best.lives_lost)} against "
            f"{lost_shown(other.lives_lost)})"
        )
    if not higher_game(best, other, points):
        return ""
    figures = f"({game_shown(best, points)} against {game_shown(other, points)})"
    within = game_within(best, other, points)
    if within:
        what = "expected points" if points else "chance to win the game"
        return f"has the higher {what} as shown {figures}, within the margin of ±{within}"
    return f"{'expects more points' if points else 'wins the game more often'} {figures}"


def game_within(best: OptionAdvice, other: OptionAdvice, points: bool = False) -> str:
    """The best's game margin (``2.8 percentage points``, ``0.05 points``) when its figure is
    above ``other``'s by no more than it; empty otherwise."""
    margin = best.p_win_margin or 0.0
    if (best.p_win or 0.0) - (other.p_win or 0.0) > margin:
        return ""
    return game_margin(margin, points)


def game_margin(margin: float, points: bool = False) -> str:
    """A game figure's margin with its unit: ``2.8 percentage points`` of a chance to win, or
    ``0.05 points`` of ranked points to expect (ruling 358)."""
    return f"{_margin_short(margin, points)} {'points' if points else 'percentage points'}"


def reason(
    options: Sequence[OptionAdvice],
    tied: Sequence[OptionAdvice],
    *,
    unit: str = "lives",
    points: bool = False,
    any_hand: bool = True,
) -> str:
    """The reason for the best option (``options[0]``), in words. ``unit``: what the lost
    figure counts (``lives``, ``letters``); ``points``: the game-level figure is ranked
    points; ``any_hand``: whether the table lets any hand knock (no knock minimum, no one
    suit needed)."""
    best = options[0]
    later = _later_clause(best, any_hand)
    if hopeless(options):
        text = (
            f"No option comes through safe in any simulated round, so they are ranked by the "
            f"{unit} they cost, then by the hand they keep: {best.describe()}{later} costs "
            f"{two_places(best.lives_lost)} {unit} on average"
        )
        if best.keeps is not None:
            text += f" and keeps {score_text(best.keeps)}"
        return text + "."
    if len(options) == 1:
        return (
            f"Your only option is to {best.describe()}{later}: you come through safe in "
            f"{pct(best.p_safe)} of the simulated rounds."
        )
    if tied:
        return _tied_reason(best, tied, unit, points, any_hand)
    second = options[1]  # the options come best first, then by p_safe
    if _equal_shown(best, second):
        text = (
            f"{_upper_first(best.describe())}{later}: safe in {pct(best.p_safe)} of the "
            f"simulated rounds, as is to {second.describe()}."
        )
    else:
        text = (
            f"{_upper_first(best.describe())}{later}: safe in {pct(best.p_safe)} of the "
            f"simulated rounds, {pp(shown_gap(best.p_safe, second.p_safe))} better than to "
            f"{second.describe()} ({pct(second.p_safe)})."
        )
    return text + _cost_caveat(best, second, unit)


def _tied_reason(
    best: OptionAdvice, tied: Sequence[OptionAdvice], unit: str, points: bool, any_hand: bool
) -> str:
    """The reason when options are tied with the best: which are, by how much, what made the
    best the best when it is not the safest, and what it does later."""
    names = _upper_first(listed([best, *tied]))
    top = safest(best, tied)
    if all(_equal_shown(o, best) for o in tied):
        text = f"{names} are equally safe: {pct(best.p_safe)} of the simulated rounds each."
    elif top is best:
        runner = max(tied, key=lambda o: o.p_safe)
        text = (
            f"{names} are statistically tied: they differ by less than the margin of "
            f"±{pp(best.margin)}. "
        )
        level = [o for o in tied if _equal_shown(o, best)]
        if level:  # (not "ahead at 49.2% against 49.2%": ruling 308)
            text += (
                f"The first is safe in {pct(best.p_safe)} of the simulated rounds, as "
                f"{'is' if len(level) == 1 else 'are'} {listed(level)}."
            )
        else:
            text += (
                f"The first is marginally ahead at {pct(best.p_safe)} safe against "
                f"{pct(runner.p_safe)}."
            )
    else:
        text = (
            f"{names} are tied on safety: they differ by less than the margin of "
            f"±{pp(top.margin)} ({pct(best.p_safe)} for the first, {pct(top.p_safe)} for "
            f"{'the safest' if len(tied) > 1 else 'the other'})."
        )
    if top is not best:
        why = star_why(best, top, unit, points)
        text += f" The first {why}." if why else _put_out(best, [best, *tied], unit, points)
    if makes_31(best):
        text += f" The first {_makes_or_keeps(best)} 31: show it."
    elif best.swept:
        shown = later_plan(best)
        if shown in (NEVER_PLAN, NEVER_WAIT):
            text += f" With the first, you then {shown}."
        elif shown == FIRST_PLAN:
            text += f" With the first, you {FIRST_ANY if any_hand else FIRST_ALLOWED}."
        else:
            text += f" With the first, you then {shown}."
    return text


def _put_out(
    best: OptionAdvice, group: Sequence[OptionAdvice], unit: str, points: bool, short: bool = False
) -> str:
    """What made the best the best when it neither loses fewer ``unit`` than the safest of
    the ``group`` (the best and the options tied with it) nor wins the game more often than
    it: the safest was left out for losing more than the option that loses fewest
    (:func:`~thirtyone.oracle.rank.pick`), and the best wins the game more often than that
    one, or as often and is safer. ``short``: the gist's clause (after "Tied on safety with
    …"), else a sentence of the reason (with its leading space); empty when neither
    applies."""
    top = safest(best, group)
    fewest = min(group, key=lambda o: o.lives_lost)
    if fewest is best or not fewer_lost(fewest, top):
        return ""
    lost_more = f"{lost_shown(top.lives_lost)} against {lost_shown(fewest.lives_lost)}"
    beat = star_why(best, fewest, unit, points) or "is safer, the game's figures alike as shown"
    if short:
        head = f", which loses more {unit} than {label(fewest)} ({lost_more})"
        return f"{head}; against that one it {beat}"
    return (
        f" The safest loses more {unit} on average than to {fewest.describe()} ({lost_more}); "
        f"of the others, the first {beat}."
    )


def _cost_caveat(best: OptionAdvice, second: OptionAdvice, unit: str) -> str:
    """``It costs more when it fails, though: ...`` when the best loses more on average than
    the next, by more than the margin of that difference (shown figures differing)."""
    if not fewer_lost(second, best):
        return ""
    return (
        f" It costs more when it fails, though: {two_places(best.lives_lost)} {unit} lost on "
        f"average against {two_places(second.lives_lost)}."
    )


def _margin_short(margin: float, points: bool) -> str:
    """A game figure's margin, short: ``2.8`` (percentage points) or ``0.05`` (points)."""
    return two_places(margin) if points else percent_shown(margin)


def _points(x: float, ranked: bool = False) -> str:
    """A difference or margin in percentage points, short: ``7.8 points``; ``ranked``: at a
    table placed ranked, where the game's figure is in points too, in full, ``7.8 percentage
    points`` (ruling 358)."""
    return f"{percent_shown(x)} {points_word(ranked)}"


def gist(advice: Advice) -> str:
    """The reason in one short line, for a small screen: how the best compares with the next
    option, or why it is the best of those tied with it."""
    options, tied, unit = advice.options, advice.tied, advice.unit
    best = options[0]
    if hopeless(options):
        return f"Nothing is safe: ranked by the {unit} lost, then by the hand kept."
    if len(options) == 1:
        return f"Your only option: safe in {pct(best.p_safe)}."
    lead = f"It {_makes_or_keeps(best)} 31: show it. " if makes_31(best) else ""
    if tied:
        top = safest(best, tied)
        if top is not best:
            higher = higher_game(best, top, advice.points)
            if higher and not fewer_lost(best, top) and game_within(best, top, advice.points):
                # The short line: the figures and their margin, no more.
                game, points = game_shown(best, advice.points), advice.points
                return (
                    f"{lead}Tied on safety with {label(top)}; game {game} against "
                    f"{game_shown(top, points)}, within ±"
                    f"{_margin_short(best.p_win_margin or 0.0, points)}."
                )
            why = star_why(best, top, unit, advice.points)
            if not why:  # (the safest was left out for the lives it loses: :func:`_put_out`)
                clause = _put_out(best, [best, *tied], unit, advice.points, short=True)
                return f"{lead}Tied on safety with {label(top)}{clause}."
            return f"{lead}Tied on safety with {label(top)}; it {why}."
        others = label(tied[0]) if len(tied) == 1 else f"{len(tied)} other options"
        if all(_equal_shown(o, best) for o in tied):
            return f"{lead}As safe as {others}: {pct(best.p_safe)} each."
        runner = max(tied, key=lambda o: o.p_safe)
        return (
            f"{lead}Tied with {others}: {pct(best.p_safe)} against {pct(runner.p_safe)}, "
            f"within ±{_points(best.margin, advice.points)}."
        )
    second = options[1]
    if _equal_shown(best, second):
        return f"{lead}As safe as {label(second)}: {pct(best.p_safe)} each."
    return (
        f"{lead}{_points(shown_gap(best.p_safe, second.p_safe), advice.points)} safer than "
        f"{label(second)} "
        f"({pct(best.p_safe)} against {pct(second.p_safe)})."
    )


GLOSSARY = (
    ("safe", "the share of simulated rounds in which you lose nothing"),
    ("±", "the margin, in percentage points (95 in 100 within it)"),
    ("★ best", "the safest option; among options tied on safety, the one that loses fewest"),
    ("", "{unit}, then the one likeliest to win the game. Enter plays it"),
    ("≈ tied", "within the margin of the safest: no real difference in safety"),
    ("knock at", "the score from which you knock on a later turn; first: at the first chance"),
    ("", "the table allows; never: play for 31, or, after an option that keeps 30 or more,"),
    ("", "wait for another's knock; 31: show: the option makes 31, shown at once"),
    ("{unit} lost", "what the option costs on average"),
    ("win game", "your chance of winning the game after the option, the later rounds played"),
    ("", "by the table's rule (points: the ranked points to expect)"),
    ("for the game", "Best for the game: the option likeliest to win the game, when it is"),
    ("", "not the ★ and wins more often as shown"),
)


def glossary(unit: str = "lives") -> list[tuple[str, str]]:
    """The advice's words and what each means, in the table's unit (a word left empty goes on
    with the meaning above it)."""
    return [(word.format(unit=unit), meaning.format(unit=unit)) for word, meaning in GLOSSARY]


class Lives(NamedTuple):
    """Every round seat's lives (``lives``), yours (``me``), the seats' names (None: "seat N")
    and whether the table plays the county (0 lives: on the county); ``standings``: each seat's
    lives in the table's words where the table names them (``middle of the bus``, ``on the
    stairs``: :meth:`~thirtyone.game.rules.Rules.standing`), None where a count says them."""

    lives: Sequence[int]
    me: int
    names: Sequence[str] | None = None
    county: bool = False
    standings: Sequence[str] | None = None

    def name(self, seat: int) -> str:
        return self.names[seat] if self.names else f"seat {seat}"

    def last(self, seat: int) -> bool:
        """Whether the next loss puts ``seat`` out (a knock caught may cost more)."""
        return self.lives[seat] == (0 if self.county else 1)

    def others(self) -> list[int]:
        """The other seats in turn order from the seat after yours (the same order every
        turn, whoever deals)."""
        n = len(self.lives)
        return [(self.me + step) % n for step in range(1, n)]

    def summary(self, unit: str = "lives") -> str:
        """``lives: you 3, Ben 1, Cy on the county`` (``letters left: …`` under Gin lives; at a
        table that names its lives, those names: ``lives: you back of the bus, Ben on the
        stairs``, ``letters: you apple`` under Gin lives, a name saying the letters taken, not
        those left), the others in turn order from the seat after yours."""
        head = unit
        if unit == "letters" and self.standings is None:
            head = "letters left"

        def one(seat: int) -> str:
            if self.standings is not None:
                return self.standings[seat]
            n = self.lives[seat]
            return "on the county" if self.county and n == 0 else str(n)

        others = [f"{self.name(s)} {one(s)}" for s in self.others()]
        return f"{head}: you {one(self.me)}, " + ", ".join(others)


def game_figure(option: OptionAdvice, points: bool = False) -> str:
    """``wins the game 41.2% of the time`` (ranked placing: ``expects 1.62 points``)."""
    value = option.p_win or 0.0
    return (
        f"expects {two_places(value)} points"
        if points
        else f"wins the game {pct(value)} of the time"
    )


def game_reason(
    best: OptionAdvice,
    best_game: OptionAdvice,
    lives: Lives,
    *,
    points: bool = False,
    unit: str = "lives",
) -> str:
    """The game's word after the round's reason: the same option, or which is better for the
    game and why (the lives every seat holds decide it). Another option is named only when its
    figure is higher as shown."""
    if named_for_game(best, best_game, points) is None:
        return f" For the game too: it {game_figure(best, points)}."
    g, b = best_game.p_win or 0.0, best.p_win or 0.0
    margin = best_game.p_win_margin or 0.0
    if points:
        compare = f"{two_places(g)} points against {two_places(b)}"
    else:
        compare = f"it wins the game {pct(g)} of the time against {pct(b)}"
    text = (
        f" For the game, {best_game.describe()} is better: {compare} to {best.describe()}"
        f" ({lives.summary(unit)})"
    )
    if game_lead_within(best, best_game):
        text += f", within the margin of ±{game_margin(margin, points)}"
    return text + ". " + _upper_first(_game_why(best, best_game, lives, unit)) + "."


def _game_why(best: OptionAdvice, best_game: OptionAdvice, lives: Lives, unit: str) -> str:
    if fewer_lost(best_game, best):
        text = (
            f"it loses fewer {unit} on average ({lost_shown(best_game.lives_lost)} against "
            f"{lost_shown(best.lives_lost)})"
        )
        if lives.last(lives.me):
            text += ", and you are one loss from going out"
        return text
    last = [lives.name(s) for s in lives.others() if lives.last(s)]
    if last:
        who = and_list(last)
        return (
            f"{who} {'is' if len(last) == 1 else 'are'} one loss from going out: the game "
            "counts who this round can put out, not only whether you lose"
        )
    return (
        "the game counts the lives every outcome leaves you and the others, not only whether "
        "you lose one this round"
    )


_SEAT = re.compile(r"\bseat (\d+)(?='s\b| )")


def name_seats(text: str, names: Sequence[str] | None) -> str:
    """A warning of the core's with each round seat it names (``seat 2's play``) called by its
    player's name when the names are known (a game's players)."""
    if not names:
        return text
    return _SEAT.sub(lambda m: names[int(m[1])] if int(m[1]) < len(names) else m[0], text)
