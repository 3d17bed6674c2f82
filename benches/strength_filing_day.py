"""``oracle-game`` against three experts as they played when opponent models were asked for.

The product's experts now ask the Oracle for their put-down after a stock draw and read every
seat by its model, as ``oracle-game`` does: a tournament against them measures the Oracle
player against opponents who gained what it gained. This one holds the opponents where they
were: three experts (the Oracle at 300 deals / 1,000 playouts, playing for the round) who read
every opponent by the table's rule and, after a stock draw, put down by the table's rule.
With ``--filing-day-me`` the ``oracle-game`` seat plays the same way (reading by the table's
rule, putting down by it after a draw): the player of that day, on today's engine.

    python benches/strength_filing_day.py --games 2000 --seed 1
    python benches/strength_filing_day.py --games 2000 --seed 1 --filing-day-me

Four seats, the standard table, seats rotated, ``oracle-game`` at 1,000 deals / 2,000
playouts: the settings of ``thirtyone tournament --players oracle-game,expert,expert,expert``,
whose games (deals and seeds) these are.
"""

from __future__ import annotations

import argparse
import json
from dataclasses import dataclass

from thirtyone.game.seats import Action, Policy, SeatView
from thirtyone.oracle.answer import Kind
from thirtyone.oracle.player import OraclePlayer
from thirtyone.study import tournament


class FilingDayPlayer(OraclePlayer):
    """An Oracle player that, after a stock draw, puts down by the table's rule (the Oracle's
    choice of the turn is otherwise played as :class:`OraclePlayer` plays it)."""

    def decide(self, view: SeatView) -> Action:
        before = self.advice
        action = super().decide(view)
        advice = self.advice
        if view.pending.phase != "start" or advice is None or advice is before:
            return action
        choice = advice.best
        if self.objective == "game" and advice.best_game is not None:
            choice = advice.best_game
        if choice.kind is Kind.DRAW:  # (the put-down that follows: by the table's rule)
            self._then = (self._where(view), None)
        return action


@dataclass(frozen=True)
class FilingDaySettings(tournament.Settings):
    """The tournament's settings, its experts (and with ``filing_day_me`` its first player)
    made :class:`FilingDayPlayer` players reading every seat by the table's rule."""

    filing_day_me: bool = False

    def player(self, index: int, game: int) -> Policy:
        p = super().player(index, game)
        if not isinstance(p, OraclePlayer) or (index == 0 and not self.filing_day_me):
            return p
        return FilingDayPlayer(
            p.name,
            deals=p.deals,
            playouts=p.playouts,
            seed=p.seed,
            threads=1,
            max_time=None,
            objective=p.objective,
            read_as="table",
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=2_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--filing-day-me", action="store_true")
    parser.add_argument("--json", dest="json_out")
    args = parser.parse_args()
    settings = FilingDaySettings(
        players=("oracle-game", "expert", "expert", "expert"),
        games=args.games,
        seed=args.seed,
        jobs=args.jobs,
        filing_day_me=args.filing_day_me,
    )
    tallies = tournament.run(settings)
    for t in tallies:
        d = t.to_dict()
        low, high = d["ci"]
        print(
            f"{d['player']:12s} {d['wins']:5d} of {d['games']:,} {100 * d['win_rate']:5.1f}% "
            f"({100 * low:.1f}-{100 * high:.1f})  lives a round {d['lives_lost_per_round']:.3f}"
            f"  knocks {d['knocks']:,}, caught {100 * (d['caught_rate'] or 0):.1f}%"
        )
    if args.json_out:
        with open(args.json_out, "w") as f:
            json.dump(tournament.to_json(settings, tallies), f, indent=1)


if __name__ == "__main__":
    main()
