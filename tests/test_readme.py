"""README.md's command reference is generated from the commands (cog) and stays complete and current."""

from __future__ import annotations

import re
from pathlib import Path

import click
from cogapp import Cog

from checker.cli import build_parser
from labeling.cli import cli as pplabel
from mining.cli import cli as ppmine
from ppbench.cli import cli as ppbench

README = Path(__file__).resolve().parent.parent / "README.md"
PROGRAMS = {"ppmine": ppmine, "pplabel": pplabel, "ppbench": ppbench}


def _sections(text: str) -> dict[str, str]:
    """Command -> its generated section (``<details><summary><code>COMMAND</code></summary> ... </details>``)."""
    found = re.findall(r"<details><summary><code>([^<]+)</code></summary>(.*?)</details>", text, re.S)
    return dict(found)


def _commands(command: click.Command, path: list[str]):
    yield " ".join(path), command
    if isinstance(command, click.Group):
        for name, sub in command.commands.items():
            yield from _commands(sub, [*path, name])


def test_the_reference_is_what_the_commands_say(capsys):
    """`python3 -m cogapp -r README.md` after changing a command; this fails until it has been run."""
    status = Cog().main(["cog", "--check", "--diff", str(README)])
    assert status == 0, f"README.md's command reference is out of date:\n{capsys.readouterr().out[-3000:]}"


def _missing(text: str) -> list[str]:
    """Every command (``ppmine db current``) and option (``ppmine import-dump --batch-size``) not in ``text``'s
    reference."""
    sections = _sections(text)
    missing = []
    for prog, group in PROGRAMS.items():
        for name, command in _commands(group, [prog]):
            if name not in sections:
                missing.append(name)
                continue
            options = [opt for param in command.params for opt in param.opts if opt.startswith("-")]
            missing += [f"{name} {opt}" for opt in options if not _names(sections[name], opt)]
    ppcheck = sections.get("ppcheck", "")
    options = [opt for action in build_parser()._actions for opt in action.option_strings]
    return missing + [f"ppcheck {opt}" for opt in options if not _names(ppcheck, opt)]


def _names(text: str, option: str) -> bool:
    """Whether ``text`` names ``option`` as a whole word (``--to`` is not in ``--top``)."""
    return re.search(rf"(?<![\w-]){re.escape(option)}(?![\w-])", text) is not None


def test_every_command_and_option_is_in_the_readme():
    assert _missing(README.read_text(encoding="utf-8")) == []


def test_a_missing_command_or_option_is_found():
    text = README.read_text(encoding="utf-8")
    assert "ppmine import-dump --batch-size" in _missing(text.replace("--batch-size", "--batch"))
    assert "ppmine db current" in _missing(text.replace("<code>ppmine db current</code>", "<code>x</code>"))
    assert "ppcheck --explain" in _missing(text.replace("--explain", "--explained-away"))
