"""``thirtyone rules`` as a screen: the presets with the rule document each follows and how it
differs from standard, every option with its values, default and meaning; or one preset's value
of every option."""

from __future__ import annotations

from rich import box
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from thirtyone.game.rules import Rules


def rules_report(preset: str | None = None) -> RenderableType:
    """Every preset and option; with ``preset``, that table's value of every option."""
    if preset is not None:
        return preset_table(preset)
    presets = Table(title="Presets (--rules)", title_justify="left", box=box.SIMPLE_HEAD)
    presets.add_column("Preset", no_wrap=True)
    presets.add_column("How it differs from standard")
    for p in Rules.PRESET_INFO.values():
        presets.add_row(
            Text(p.name, style="bold").append(f"\n{p.document}", style="dim"), p.differs
        )
    options = Table(
        title="Rule options (--rule KEY=VALUE)", title_justify="left", box=box.SIMPLE_HEAD
    )
    options.add_column("Option", max_width=24)
    options.add_column("Default", max_width=16)
    options.add_column("Meaning")
    for o in Rules.options():
        options.add_row(
            Text(o.name, style="bold").append(f"\n{o.values}", style="dim"),
            o.default,
            Text(o.meaning).append(f" — rule document {o.seed}", style="dim"),
        )
    note = Text(
        "Example: thirtyone play --rules scat --rule placing=ranked --rule min_knock=17\n"
        "Computer players never call the blind showdown and always show a 31 (the table's "
        "decision rule has no clause for either); the Oracle assumes the same of every player.",
        style="dim",
    )
    return Group(presets, options, note)


def preset_table(preset: str) -> Table:
    """One preset's value of every option, beside the standard table's where it differs."""
    info = Rules.PRESET_INFO[preset]
    rules = Rules.preset(preset)
    standard = Rules.standard()
    table = Table(
        title=f"{preset}: {info.document}",
        title_justify="left",
        box=box.SIMPLE_HEAD,
        caption=info.differs,
        caption_justify="left",
    )
    table.add_column("Option", style="bold", no_wrap=True)
    table.add_column("Value")
    table.add_column("Standard", style="dim")
    for option in Rules.options():
        value = _rule_value(getattr(rules, option.name))
        base = _rule_value(getattr(standard, option.name))
        table.add_row(option.name, value, "" if value == base else base)
    return table


def _rule_value(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, tuple):
        return ", ".join(value) if value else "(none)"
    return str(value)
