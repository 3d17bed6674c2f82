"""The rules of a table: every rule choice is a named field of :class:`Rules`.

``Rules.preset("standard")`` is the standard table of seed 000 (``rules.md``). A changed copy:
``rules.replace(knock_penalty=1)``. Invalid values raise :class:`~thirtyone.errors.RuleError`
naming the field.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from typing import Any, ClassVar

from thirtyone.errors import RuleError

KNOCKER_TIE = ("knocker_pays", "others_pay", "only_knocker", "cadillac")
THREE_OF_A_KIND = ("none", "30", "30.5")
THREE_ACES = ("none", "33")
FIRST_TURN_KNOCK = ("allowed", "forbidden")
THIRTY_ONE_AFTER_KNOCK = ("ends_round", "continues")

# The fields the Rust core plays a round by (the rest are game-level).
_ROUND_FIELDS = (
    "knock_penalty",
    "knocker_tie",
    "three_of_a_kind",
    "three_aces",
    "runs",
    "min_knock",
    "knock_needs_one_suit",
    "first_turn_knock",
    "thirty_one_after_knock",
    "two_player_mercy",
)


def _doc(text: str) -> dict[str, str]:
    return {"doc": text}


@dataclass(frozen=True)
class Rules:
    """A table's rules. The defaults are the standard table (seed 000, ``rules.md``)."""

    seats: int = field(default=4, metadata=_doc("players at the table, you included (2 to 9)"))
    lives: int = field(default=3, metadata=_doc("lives each player starts with (1 or more)"))
    knock_penalty: int = field(
        default=2, metadata=_doc("lives a knocker pays when lowest or tied lowest (1 or 2)")
    )
    knocker_tie: str = field(
        default="knocker_pays",
        metadata=_doc(
            "who pays when the knocker ties for lowest: knocker_pays (knocker pays the penalty, "
            "the others tied 1), others_pay (knocker safe), only_knocker, cadillac (knocker 2, "
            "the others nothing)"
        ),
    )
    three_of_a_kind: str = field(
        default="none", metadata=_doc("what three of a kind scores: none (like any hand), 30, 30.5")
    )
    three_aces: str = field(default="none", metadata=_doc("three aces: none, or 33 (Cadillac)"))
    runs: bool = field(
        default=False,
        metadata=_doc("three in sequence of one suit score 30 (A-K-Q 31)"),
    )
    min_knock: float = field(default=0, metadata=_doc("the lowest score that may knock (0: any)"))
    knock_needs_one_suit: bool = field(
        default=False, metadata=_doc("a knock only with three cards of one suit")
    )
    first_turn_knock: str = field(
        default="allowed",
        metadata=_doc("may the first player knock on the round's first turn: allowed, forbidden"),
    )
    thirty_one_after_knock: str = field(
        default="ends_round",
        metadata=_doc(
            "a 31 shown after a knock: ends_round, or continues (everybody else loses a life "
            "and the round goes on to the showdown)"
        ),
    )
    two_player_mercy: bool = field(
        default=False,
        metadata=_doc(
            "with two players left, on the final turn after the opponent knocks you may take "
            "your own last put-down"
        ),
    )

    PRESETS: ClassVar[dict[str, dict[str, Any]]] = {
        "standard": {},
    }

    def __post_init__(self) -> None:
        self._check()

    # -- construction ---------------------------------------------------------------------------

    @classmethod
    def standard(cls) -> Rules:
        """The standard table (seed 000): 4 seats, 3 lives, knock penalty 2."""
        return cls()

    @classmethod
    def preset(cls, name: str) -> Rules:
        """The rules of a named preset (see :attr:`PRESETS`)."""
        if not isinstance(name, str) or name not in cls.PRESETS:
            raise RuleError(
                f"unknown preset {name!r}: choose one of {', '.join(sorted(cls.PRESETS))}"
            )
        return cls(**cls.PRESETS[name])

    def replace(self, **changes: Any) -> Rules:
        """A copy with some fields changed (unknown fields are refused)."""
        known = {f.name for f in fields(self)}
        for key in changes:
            if key not in known:
                raise RuleError(f"unknown rule option {key!r}")
        return dataclasses.replace(self, **changes)

    @classmethod
    def from_spec(cls, spec: str | Mapping[str, Any] | Rules | None) -> Rules:
        """Rules from a preset name, a mapping ``{"preset": ..., key: value, ...}``, or Rules."""
        if spec is None:
            return cls.standard()
        if isinstance(spec, Rules):
            return spec
        if isinstance(spec, str):
            return cls.preset(spec)
        if isinstance(spec, Mapping):
            changes = dict(spec)
            base = cls.preset(changes.pop("preset", "standard"))
            return base.replace(**changes)
        raise RuleError(f"rules must be a preset name or an object, not {type(spec).__name__}")

    @classmethod
    def option_names(cls) -> list[str]:
        return [f.name for f in fields(cls)]

    @classmethod
    def describe(cls) -> list[tuple[str, str, str]]:
        """(name, default, meaning) for every option."""
        return [(f.name, _text(f.default), f.metadata["doc"]) for f in fields(cls)]

    @classmethod
    def parse_assignment(cls, text: str) -> tuple[str, Any]:
        """Parse ``KEY=VALUE`` (as given to ``--rule``) into a field name and a typed value."""
        key, sep, raw = text.partition("=")
        key = key.strip().replace("-", "_")
        if not sep:
            raise RuleError(f"--rule {text!r}: write it as KEY=VALUE, e.g. knock_penalty=1")
        kinds = {f.name: f.type for f in fields(cls)}
        if key not in kinds:
            raise RuleError(f"unknown rule option {key!r}")
        raw = raw.strip()
        kind = kinds[key]
        try:
            if kind == "bool":
                low = raw.lower()
                if low not in ("true", "false", "yes", "no", "on", "off", "1", "0"):
                    raise ValueError
                return key, low in ("true", "yes", "on", "1")
            if kind == "int":
                return key, int(raw)
            if kind == "float":
                return key, float(raw)
        except ValueError:
            raise RuleError(f"rule {key}: {raw!r} is not a {kind}") from None
        return key, raw

    # -- use ------------------------------------------------------------------------------------

    def round_rules(self) -> dict[str, Any]:
        """The round-level fields, as the Rust core takes them."""
        return {name: getattr(self, name) for name in _ROUND_FIELDS}

    def to_dict(self) -> dict[str, Any]:
        return {f.name: getattr(self, f.name) for f in fields(self)}

    def _check(self) -> None:
        def bad(name: str, why: str) -> RuleError:
            return RuleError(f"rule {name}: {why}")

        def integer(name: str, value: object) -> int:
            if isinstance(value, bool) or not isinstance(value, int):
                raise bad(name, f"must be a whole number, not {value!r}")
            return value

        def one_of(name: str, value: object, options: tuple[str, ...]) -> None:
            if value not in options:
                raise bad(name, f"{value!r} is not one of {', '.join(options)}")

        if not 2 <= integer("seats", self.seats) <= 9:
            raise bad("seats", f"must be 2 to 9, not {self.seats}")
        if integer("lives", self.lives) < 1:
            raise bad("lives", f"must be at least 1, not {self.lives}")
        if integer("knock_penalty", self.knock_penalty) not in (1, 2):
            raise bad("knock_penalty", f"must be 1 or 2, not {self.knock_penalty}")
        one_of("knocker_tie", self.knocker_tie, KNOCKER_TIE)
        one_of("three_of_a_kind", self.three_of_a_kind, THREE_OF_A_KIND)
        one_of("three_aces", self.three_aces, THREE_ACES)
        one_of("first_turn_knock", self.first_turn_knock, FIRST_TURN_KNOCK)
        one_of("thirty_one_after_knock", self.thirty_one_after_knock, THIRTY_ONE_AFTER_KNOCK)
        for name in ("runs", "knock_needs_one_suit", "two_player_mercy"):
            if not isinstance(getattr(self, name), bool):
                raise bad(name, f"must be true or false, not {getattr(self, name)!r}")
        mk = self.min_knock
        if isinstance(mk, bool) or not isinstance(mk, int | float):
            raise bad("min_knock", f"must be a score, not {mk!r}")
        if not 0 <= mk <= 31 or (mk * 2) != int(mk * 2):
            raise bad("min_knock", f"must be a score from 0 to 31, not {mk}")


def _text(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)
