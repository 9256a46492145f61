"""Keeping the catalogues in step with the code (docs/i18n.md).

    python -m carom.locale.catalogues update    # code → carom.pot → every <lang>.po
    python -m carom.locale.catalogues compile   # every .po → its .mo
    python -m carom.locale.catalogues check     # what is missing, untranslated or stale

The template (``carom.pot``) gathers four kinds of messages:

- the gettext calls of the web's and the notation's Python code (``gettext``,
  ``ngettext``, ``pgettext``, ``N_`` ...) and of the Jinja2 templates (``_()``,
  ``{% trans %}``);
- one entry per registered rule, discipline and table, and per ball, under the message
  contexts ``rule``, ``discipline``, ``table`` and ``ball``: their display names live only
  in the catalogues, so a row added to a registry shows up here to be named;
- the decimal separator of each language (context ``number``);
- the refusals of the reader and the engine (context ``refusal``): the English text of
  every ``raise ...Error(...)`` and ``_fail(...)`` of those modules, each f-string turned
  into a template whose ``%(name)s`` stand for its expressions.

The compiled ``.mo`` files are committed beside their ``.po`` (the pure core reads them
with the standard library; a fresh clone needs no build step); ``check`` and the tests
fail when one differs from what its ``.po`` compiles to.
"""

from __future__ import annotations

import ast
import io
import re
import sys
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

from babel.messages.catalog import Catalog, Message
from babel.messages.extract import extract_from_file
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

from carom.core.table import TABLES
from carom.league.rules import LEAGUE_RULES
from carom.notation.said import TRACKED
from carom.notation.words import DOMAIN, ID_CONTEXTS, LOCALE, REFUSAL, SOURCE
from carom.rules.catalog import RULES
from carom.rules.competition import COMPETITION_RULES
from carom.rules.disciplines import DISCIPLINES

PACKAGE = LOCALE.parent
TEMPLATE = LOCALE / f"{DOMAIN}.pot"
PYTHON_SOURCES = ("web", "notation")
"""Packages whose gettext calls are extracted."""
WEB = PACKAGE / "web"
REFUSAL_SOURCES = (
    "core/inputs.py", "core/sources.py", "core/checks.py", "core/position.py", "core/table.py",
    "core/events.py", "core/records.py", "rules/validity.py", "notation/reader.py",
    "notation/matchfile.py", "notation/drawing.py", "match/engine.py", "match/replay.py",
    "storage/book.py", "storage/errors.py", "storage/events.py", "storage/players.py",
    "storage/tournaments.py", "storage/register.py", "storage/daylog.py", "storage/tournament_rows.py",
    "storage/accounts.py", "core/spreadsheet.py",
    "competition/day/settings.py", "competition/day/apply.py", "competition/day/planning.py",
    "competition/day/result.py", "competition/day/keys.py", "track/errors.py",
    "track/readers/__init__.py", "track/readers/balls_jsonl.py", "league/fixtures.py",
    "league/formats.py", "league/lineups.py", "league/meetings.py", "league/reports.py",
    "league/season.py", "league/sheets.py", "storage/leagues/office.py", "storage/leagues/season.py",
    "web/tournaments/desk.py", "web/review/fitting.py")
"""Modules whose refusals can reach a page (an import, a tablet, the organiser's form)."""
BALLS = ("white", "yellow", "red")
SAID_SOURCES = ("track", "fit", "video", "notation/said.py")
"""The packages (and the module) whose words about a tracked stroke are ``Said(...)``
(context ``tracked``)."""
SAID_NOTE = ("Words about a tracked stroke (the auto-referee's doubt, or why the stroke read back is not "
             "what was played), shown on the review page. The values are a ball's or a cushion's name, a "
             "number, or another of these phrases.")
JINJA_OPTIONS = {"extensions": "jinja2.ext.i18n", "trimmed": "true", "silent": "false"}
COPYRIGHT = "the carom authors"
EPOCH = datetime(2026, 1, 1, tzinfo=UTC)
"""A fixed creation date: the template changes only when a message does."""


def _relative(path: Path) -> str:
    return path.relative_to(PACKAGE.parent).as_posix()


def template() -> Catalog:
    """What the code says today: every message, with where it comes from."""
    catalog = Catalog(project="carom", copyright_holder=COPYRIGHT, creation_date=EPOCH,
                      revision_date=EPOCH, fuzzy=False, domain=DOMAIN)
    for package in PYTHON_SOURCES:
        for path in sorted((PACKAGE / package).rglob("*.py")):
            _add_extracted(catalog, path, "python", {})
    for path in sorted(WEB.glob("*/templates/*.html")):
        _add_extracted(catalog, path, "jinja2.ext:babel_extract", JINJA_OPTIONS)
    for source in SAID_SOURCES:
        found = PACKAGE / source
        for path in [found] if found.suffix == ".py" else sorted(found.rglob("*.py")):
            for line, message, _, _ in extract_from_file("python", path, keywords={"Said": None}):
                catalog.add(message, context=TRACKED, locations=[(_relative(path), line)],
                            auto_comments=[SAID_NOTE], flags=["python-format"])
    registry = _relative(PACKAGE / "locale" / "catalogues.py")
    for rule_id in RULES:
        catalog.add(rule_id, context="rule", locations=[(registry, 0)],
                    auto_comments=[f"The short title of rule {rule_id} of RULES.md."])
    for rule_id in COMPETITION_RULES:
        catalog.add(rule_id, context="rule", locations=[(registry, 0)],
                    auto_comments=[f"The short title of carom's competition rule {rule_id} "
                                   "(docs/clock.md, docs/format.md)."])
    for rule_id in LEAGUE_RULES:
        catalog.add(rule_id, context="rule", locations=[(registry, 0)],
                    auto_comments=[f"The short title of carom's league rule {rule_id} (docs/leagues.md): "
                                   f"{LEAGUE_RULES[rule_id]}."])
    for discipline_id in DISCIPLINES:
        catalog.add(discipline_id, context="discipline", locations=[(registry, 0)],
                    auto_comments=["The name of a discipline, as lists and the scoresheet show it."])
    for name, spec in TABLES.items():
        catalog.add(name, context="table", locations=[(registry, 0)],
                    auto_comments=[f"A table of {spec.length:.2f} × {spec.width:.2f} m, as the "
                                   "scoresheet names it (\"large table\")."])
    for ball in BALLS:
        catalog.add(ball, context="ball", locations=[(registry, 0)], auto_comments=["A ball's colour."])
    catalog.add("decimal separator", context="number", locations=[(registry, 0)],
                auto_comments=["The language's decimal separator: \".\" or \",\"."])
    catalog.add("line %(line)s: %(reason)s", context=REFUSAL, flags=["python-format"],
                locations=[(_relative(PACKAGE / "core" / "errors.py"), 0)],
                auto_comments=["An error placed at a line of a file: InputError.__str__."])
    for path, line, text, comments in refusals():
        catalog.add(text, context=REFUSAL, locations=[(path, line)], auto_comments=comments,
                    flags=["python-format"] if "%(" in text else [])
    return catalog


def _add_extracted(catalog: Catalog, path: Path, method: str, options: dict[str, str]) -> None:
    for line, message, comments, context in extract_from_file(
            method, path, comment_tags=("Translators:",), options=options, strip_comment_tags=True):
        catalog.add(message, context=context, locations=[(_relative(path), line)],
                    auto_comments=comments, flags=["python-format"] if "%" in str(message) else [])


# --- the refusals -----------------------------------------------------------------------


def refusals() -> Iterator[tuple[str, int, str, list[str]]]:
    """(file, line, template, comments) of every refusal the reader and the engine raise."""
    for name in REFUSAL_SOURCES:
        path = PACKAGE / name
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and node.args and _raises(node.func):
                for text, notes in _templates(_message(node)):
                    if text.strip():
                        yield _relative(path), node.lineno, text, notes


def _message(call: ast.Call) -> ast.expr:
    """The message of a refusal: its first argument; a league rule's second
    (``LeagueError("LG5", ...)``); for ``Refused(field, reason, rule)``
    (:class:`carom.competition.day.Refused`) the f-string it makes, "field: reason (rule)"."""
    if isinstance(call.func, ast.Name) and call.func.id == "LeagueError" and len(call.args) > 1:
        return call.args[1]
    if not (isinstance(call.func, ast.Name) and call.func.id == "Refused" and len(call.args) >= 2):
        return call.args[0]
    parts: list[ast.expr] = [call.args[0], ast.Constant(": "), call.args[1]]
    if len(call.args) > 2:
        parts += [ast.Constant(" ("), call.args[2], ast.Constant(")")]
    values: list[ast.expr] = []
    for part in parts:
        if isinstance(part, ast.JoinedStr):
            values.extend(part.values)
        elif isinstance(part, ast.Constant):
            values.append(part)
        else:
            values.append(ast.FormattedValue(part, -1, None))
    return ast.JoinedStr(values)


def _raises(func: ast.expr) -> bool:
    """A call that states a refusal: ``_fail(...)``, ``refuse(...)``, ``SomeError(...)``,
    an error's ``super().__init__(...)``, or ``problems.append(...)`` (the problems a
    reader then refuses with)."""
    if isinstance(func, ast.Name):
        named = func.id in ("_fail", "refuse", "Refused")
        return named or func.id.endswith(("Error", "Token", "Match", "Conflict"))
    if not isinstance(func, ast.Attribute):
        return False
    if func.attr == "__init__":
        return isinstance(func.value, ast.Call) and isinstance(func.value.func, ast.Name) \
            and func.value.func.id == "super"
    return func.attr == "append" and isinstance(func.value, ast.Name) and func.value.id == "problems"


def _templates(node: ast.expr) -> list[tuple[str, list[str]]]:
    """The message's templates: one per branch of a conditional message."""
    if isinstance(node, ast.IfExp):
        return [*_templates(node.body), *_templates(node.orelse)]
    found = _template(node)
    return [] if found is None else [found]


def _template(node: ast.expr) -> tuple[str, list[str]] | None:
    """An f-string as a template: its text, ``%(name)s`` for each expression, and a
    translator's note of what each name stands for."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value.replace("%", "%%"), []
    if not isinstance(node, ast.JoinedStr):
        return None
    text, notes, used = [], [], set[str]()
    for part in node.values:
        if isinstance(part, ast.Constant):
            text.append(str(part.value).replace("%", "%%"))
        elif isinstance(part, ast.FormattedValue):
            name = _unique(_name_of(part.value), used)
            text.append(f"%({name})s")
            notes.append(f"%({name})s: {ast.unparse(part.value)}")
    return "".join(text), notes


def _name_of(expr: ast.expr) -> str:
    if isinstance(expr, ast.Name):
        name = expr.id
    elif isinstance(expr, ast.Attribute):
        name = expr.attr if expr.attr not in ("__name__", "value") else _name_of(expr.value)
    elif isinstance(expr, ast.Call):
        name = _name_of(expr.args[0]) if expr.args else _name_of(expr.func)
    elif isinstance(expr, ast.Subscript | ast.Starred):
        name = _name_of(expr.value)
    elif isinstance(expr, ast.BinOp):
        name = _name_of(expr.left)
    else:
        name = "value"
    return name.strip("_").lower() or "value"


def _unique(name: str, used: set[str]) -> str:
    candidate, n = name, 2
    while candidate in used:
        candidate, n = f"{name}{n}", n + 1
    used.add(candidate)
    return candidate


# --- the files --------------------------------------------------------------------------


def po_path(lang: str) -> Path:
    return LOCALE / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


def languages() -> list[str]:
    """Every language with a ``.po``, the source language first."""
    found = sorted(path.parents[1].name for path in LOCALE.glob(f"*/LC_MESSAGES/{DOMAIN}.po"))
    return [SOURCE, *(lang for lang in found if lang != SOURCE)]


def read(lang: str) -> Catalog:
    with po_path(lang).open("rb") as po:
        return read_po(po, locale=lang, domain=DOMAIN)


def po_text(catalog: Catalog) -> bytes:
    out = io.BytesIO()
    write_po(out, catalog, width=100, ignore_obsolete=True, include_previous=False, include_lineno=False)
    return out.getvalue()


def mo_bytes(catalog: Catalog) -> bytes:
    out = io.BytesIO()
    write_mo(out, catalog)
    return out.getvalue()


def merged(lang: str, pot: Catalog) -> Catalog:
    """The language's catalogue brought in step with the template (new messages empty,
    gone ones dropped, translations kept)."""
    catalog = read(lang)
    catalog.update(pot, no_fuzzy_matching=True, update_header_comment=False)
    catalog.revision_date = EPOCH
    return catalog


def update() -> None:
    pot = template()
    TEMPLATE.write_bytes(po_text(pot))
    for lang in languages():
        po_path(lang).write_bytes(po_text(merged(lang, pot)))


def compile_all() -> None:
    for lang in languages():
        po_path(lang).with_suffix(".mo").write_bytes(mo_bytes(read(lang)))


# --- what is wrong ----------------------------------------------------------------------


_CALL = re.compile(r"""\b(?:_|N_|gettext|ngettext)\(\s*(["'])(?P<text>(?:(?!\1)[^\\])*)\1\s*(?P<next>\S)""")
_CONTEXT_CALL = re.compile(
    r"""\b(?:pgettext|npgettext)\(\s*(["'])[^"']*\1\s*,\s*(["'])(?P<text>(?:(?!\2)[^\\])*)\2\s*(?P<next>\S)""")


def missed(pot: Catalog) -> list[str]:
    """Messages written in a gettext call that the extraction did not find (a call
    inside an f-string's braces, say): each would stay in English in every language."""
    known = [_key(m.id) for m in pot if m.id]
    out = []
    sources = [p for package in PYTHON_SOURCES for p in sorted((PACKAGE / package).rglob("*.py"))]
    for path in [*sources, *sorted(WEB.glob("*/templates/*.html"))]:
        text = path.read_text(encoding="utf-8")
        for found in (*_CALL.finditer(text), *_CONTEXT_CALL.finditer(text)):
            literal, continued = found.group("text"), found.group("next") in "\"'"
            if literal and not any(message.startswith(literal) if continued else message == literal
                                   for message in known):
                out.append(f"{_relative(path)}: {literal!r} is not in the template: the extraction missed it "
                           "(a gettext call inside an f-string?)")
    return out


def problems() -> list[str]:
    """Everything that keeps the catalogues from being complete and in step, in words."""
    pot = template()
    out = missed(pot)
    if not TEMPLATE.exists() or TEMPLATE.read_bytes() != po_text(pot):
        out.append(f"{TEMPLATE.name}: not what the code says today (run: update)")
    for lang in languages():
        catalog = read(lang)
        where = _relative(po_path(lang))
        have = {(m.context, _key(m.id)) for m in catalog if m.id}
        for message in pot:
            if message.id and (message.context, _key(message.id)) not in have:
                out.append(f"{where}: missing {_show(message)} (run: update)")
        for message in catalog:
            if not message.id:
                continue
            if message.fuzzy:
                out.append(f"{where}: fuzzy {_show(message)}")
            if _untranslated(message, lang):
                out.append(f"{where}: untranslated {_show(message)}")
        for message, errors in catalog.check():
            out.extend(f"{where}: {_show(message)}: {error}" for error in errors)
        mo = po_path(lang).with_suffix(".mo")
        if not mo.exists() or mo.read_bytes() != mo_bytes(catalog):
            out.append(f"{_relative(mo)}: not what {po_path(lang).name} compiles to (run: compile)")
    return out


def _key(message_id: str | tuple[str, ...] | list[str]) -> str:
    return message_id if isinstance(message_id, str) else message_id[0]


def _untranslated(message: Message, lang: str) -> bool:
    """Every message of every language but the source's is translated; the source
    language translates its id-keyed messages (a rule's title, a table's name)."""
    if lang == SOURCE and message.context not in ID_CONTEXTS:
        return False
    strings = message.string if isinstance(message.string, tuple | list) else (message.string,)
    return not all(strings)


def _show(message: Message) -> str:
    context = f"[{message.context}] " if message.context else ""
    return f"{context}{_key(message.id)!r}"


def main(argv: list[str]) -> int:
    command = argv[0] if argv else "check"
    if command == "update":
        update()
    elif command == "compile":
        compile_all()
    elif command != "check":
        print("usage: python -m carom.locale.catalogues [update|compile|check]", file=sys.stderr)
        return 2
    found = problems()
    for problem in found:
        print(problem)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
