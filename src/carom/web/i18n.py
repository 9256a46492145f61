"""The words of the web pages in English and Slovak, and choosing the language.

The user's choice (a cookie set by the language switch) wins; without one, the
browser's ``Accept-Language``; without that, English. Czech browsers get Slovak.
"""

from __future__ import annotations

from carom.notation.words import WORDS as SHEET_WORDS
from carom.rules.catalog import RULES
from carom.rules.disciplines import DISCIPLINES

LANGUAGES = ("en", "sk")
COOKIE = "carom_lang"
_ALIASES = {"en": "en", "sk": "sk", "cs": "sk"}

_UI: dict[str, dict[str, str]] = {
    "en": {
        "matches": "Matches", "players_stats": "Players", "organiser": "Organiser",
        "board": "Board", "tablet": "Tablet", "scoresheet": "Scoresheet", "export": "Export",
        "live": "live", "finished": "finished", "not_started": "not started",
        "no_matches": "No matches yet.", "new_match": "New match", "create": "Create match",
        "import": "Import a carom/1 file", "import_button": "Import", "discipline": "Discipline",
        "table_size": "Table", "player_a": "Player 1", "player_b": "Player 2",
        "points_limit": "Points limit", "innings_limit": "Innings limit", "sets_to_win": "Sets to win",
        "none": "none", "equalizing": "Equalizing inning (E3)", "login": "Log in",
        "logout": "Log out", "password": "Password", "password_again": "Password again",
        "setup": "Set the organiser password", "setup_code": "Setup code (printed by carom serve)",
        "save": "Save", "wrong_password": "Wrong password.", "passwords_differ": "The passwords differ.",
        "password_short": "Use at least 8 characters.", "wrong_code": "Wrong setup code.",
        "already_set": "The organiser password is already set.",
        "tablet_link": "Referee tablet link (keep it for the referee)",
        "at_table": "at the table", "to_play": "{name} to play", "series": "Series",
        "inning_no": "Inning {n}", "set_no": "Set {n}", "sets_score": "Sets",
        "won_by": "{name} wins", "draw": "Draw", "carom": "Carom", "miss": "Miss", "foul": "Foul",
        "undo": "Undo", "respot": "Re-spot (frozen ball)", "pick_rule": "Which fault?",
        "lag": "The lag", "lag_help": "Enter each lag ball: where it stopped (cm from the bottom "
        "cushion) and what happened.",
        "reached_top": "reached the top cushion", "touched_red": "touched the red ball",
        "crossed": "crossed into the other half", "distance_cm": "cm from the bottom cushion",
        "collided": "The two lag balls collided", "record_lag": "Record the lag",
        "by_lot": "Or the opener is drawn by lot:", "opens": "{name} opens",
        "lag_won": "{name} won the lag and chooses who opens (L2–L6).",
        "lag_repeat": "The lag must be repeated (L3, L5, L6).",
        "opening_stroke": "Opening stroke: ball 1 must hit the red ball first (O3).",
        "equalizing_now": "Equalizing inning: {name} plays the last inning ({rule}).",
        "zones": "Forbidden fields: at most {limit} carom(s) in a row in a field or anchor; "
        "then an object ball must leave it, or the carom is a fault (Z2, Z3, Z7).",
        "zone_count": "{zone}: {count} of {limit} caroms in a row",
        "frozen_title": "Frozen ball?", "frozen_S3": "All three balls go to the starting position "
        "and the same player continues (S3): no request needed.",
        "frozen_K3": "The striker may have all three balls put in the starting position, play "
        "off a cushion, play a massé, or play first onto the ball that is not touching (K3).",
        "frozen_1C3": "As in balkline: starting position, a cushion first, a massé, or the ball "
        "not touching first; the stroke must still touch a cushion before ball 3 (1C3).",
        "frozen_3C5": "The striker may have only the touching balls spotted on the long string, "
        "play first onto the ball not touching, off a cushion or a massé; three cushions are "
        "still needed (3C5).",
        "frozen_now": "Ball 1 is frozen to {balls}.",
        "place_balls": "Place the balls like this ({rules})", "start_position": "Starting position (O2)",
        "last": "Last", "plus": "{name}: +{points}", "missed": "{name}: miss",
        "fouled": "{name}: foul {codes} – {title}", "respotted": "{name}: balls re-spotted ({rules})",
        "stale": "Another tablet entered a record first (the match is now at record {seq}). "
        "This is the match as it is: enter the stroke again if it still applies.",
        "refused": "Refused", "record_n": "record {n}", "read_only": "Read-only: {problem}",
        "match_over": "The match is over.", "general_average": "General average",
        "best_game": "Best game average", "high_run": "High run", "played": "Matches",
        "won": "Won", "points": "Points", "innings": "Innings", "average": "Average",
        "player": "Player",
        "stats_note": "Finished matches only; general average = total points ÷ total innings.",
        "no_stats": "No finished matches yet.", "token_needed": "This page needs the match's referee "
        "token: open the tablet link the organiser gave you.", "not_found": "Not found",
        "error": "Error", "language": "Language", "limits": "Limits", "vs": "vs",
        "draw_lot": "drawn by lot", "created": "Created", "records": "Records",
        "open_tablet": "Open the tablet", "audience": "Audience board", "copy_hint": "",
        "choose_opener": "Who opens?", "statistics": "Statistics", "refresh": "Refresh",
    },
    "sk": {
        "matches": "Zápasy", "players_stats": "Hráči", "organiser": "Organizátor",
        "board": "Tabuľa", "tablet": "Tablet", "scoresheet": "Zápis", "export": "Export",
        "live": "hrá sa", "finished": "skončený", "not_started": "nezačatý",
        "no_matches": "Zatiaľ žiadne zápasy.", "new_match": "Nový zápas", "create": "Vytvoriť zápas",
        "import": "Import súboru carom/1", "import_button": "Importovať", "discipline": "Disciplína",
        "table_size": "Stôl", "player_a": "Hráč 1", "player_b": "Hráč 2",
        "points_limit": "Limit bodov", "innings_limit": "Limit nábehov", "sets_to_win": "Víťazné sety",
        "none": "žiadny", "equalizing": "Dohrávka (E3)", "login": "Prihlásiť",
        "logout": "Odhlásiť", "password": "Heslo", "password_again": "Heslo znova",
        "setup": "Nastavte heslo organizátora", "setup_code": "Kód (vypísal ho carom serve)",
        "save": "Uložiť", "wrong_password": "Nesprávne heslo.", "passwords_differ": "Heslá sa líšia.",
        "password_short": "Aspoň 8 znakov.", "wrong_code": "Nesprávny kód.",
        "already_set": "Heslo organizátora už je nastavené.",
        "tablet_link": "Odkaz na tablet rozhodcu (iba pre rozhodcu)",
        "at_table": "pri stole", "to_play": "Hrá {name}", "series": "Séria",
        "inning_no": "Nábeh {n}", "set_no": "Set {n}", "sets_score": "Sety",
        "won_by": "Vyhráva {name}", "draw": "Remíza", "carom": "Karambol", "miss": "Chyba",
        "foul": "Faul", "undo": "Späť", "respot": "Rozostaviť (lepiace gule)",
        "pick_rule": "Aká chyba?", "lag": "Rozhodovací strk",
        "lag_help": "Zadajte obe gule: kde zastali (cm od dolného mantinelu) a čo sa stalo.",
        "reached_top": "došla k hornému mantinelu", "touched_red": "dotkla sa červenej",
        "crossed": "prešla do súperovej polovice", "distance_cm": "cm od dolného mantinelu",
        "collided": "Gule sa zrazili", "record_lag": "Zapísať strk",
        "by_lot": "Alebo zahajujúceho určí žreb:", "opens": "Zahajuje {name}",
        "lag_won": "{name} vyhral rozhodovací strk a určí, kto zahajuje (L2–L6).",
        "lag_repeat": "Rozhodovací strk sa opakuje (L3, L5, L6).",
        "opening_stroke": "Začiatočný strk: guľa 1 musí najprv zasiahnuť červenú (O3).",
        "equalizing_now": "Dohrávka: {name} hrá posledný nábeh ({rule}).",
        "zones": "Zakázané polia: najviac {limit} karambol(y) za sebou v poli alebo kotve; "
        "potom musí cudzia guľa pole opustiť, inak je karambol chybou (Z2, Z3, Z7).",
        "zone_count": "{zone}: {count} z {limit} karambolov za sebou",
        "frozen_title": "Lepiace gule?", "frozen_S3": "Všetky tri gule idú do základnej pozície "
        "a hrá ten istý hráč (S3), bez žiadosti.",
        "frozen_K3": "Hráč si môže dať rozostaviť gule do základnej pozície, hrať od mantinelu, "
        "masé alebo najprv na guľu, ktorá nelepí (K3).",
        "frozen_1C3": "Ako v kádri: základná pozícia, najprv mantinel, masé alebo najprv guľa, "
        "ktorá nelepí; mantinel pred guľou 3 platí aj tak (1C3).",
        "frozen_3C5": "Hráč si môže dať rozostaviť len lepiace gule na pozdĺžnu čiaru, hrať najprv "
        "na guľu, ktorá nelepí, od mantinelu alebo masé; tri mantinely platia aj tak (3C5).",
        "frozen_now": "Guľa 1 lepí na: {balls}.",
        "place_balls": "Rozostavte gule takto ({rules})", "start_position": "Základná pozícia (O2)",
        "last": "Naposledy", "plus": "{name}: +{points}", "missed": "{name}: chyba",
        "fouled": "{name}: faul {codes} – {title}", "respotted": "{name}: gule rozostavené ({rules})",
        "stale": "Iný tablet zapísal záznam skôr (zápas je teraz pri zázname {seq}). "
        "Toto je aktuálny stav: zadajte strk znova, ak ešte platí.",
        "refused": "Odmietnuté", "record_n": "záznam {n}", "read_only": "Iba na čítanie: {problem}",
        "match_over": "Zápas skončil.", "general_average": "Generálny priemer",
        "best_game": "Najlepší priemer v hre", "high_run": "Najvyššia séria", "played": "Zápasy",
        "won": "Výhry", "points": "Body", "innings": "Nábehy", "average": "Priemer",
        "player": "Hráč",
        "stats_note": "Len skončené zápasy; generálny priemer = body spolu ÷ nábehy spolu.",
        "no_stats": "Zatiaľ žiadne skončené zápasy.", "token_needed": "Táto stránka potrebuje "
        "token rozhodcu: otvorte odkaz na tablet od organizátora.", "not_found": "Nenájdené",
        "error": "Chyba", "language": "Jazyk", "limits": "Limity", "vs": "–",
        "draw_lot": "žreb", "created": "Vytvorený", "records": "Záznamy",
        "open_tablet": "Otvoriť tablet", "audience": "Tabuľa pre divákov", "copy_hint": "",
        "choose_opener": "Kto zahajuje?", "statistics": "Štatistiky", "refresh": "Obnoviť",
    },
}

_BALLS = {"en": {"white": "white", "yellow": "yellow", "red": "red"},
          "sk": {"white": "biela", "yellow": "žltá", "red": "červená"}}


def negotiate(cookie: str | None, accept_language: str | None) -> str:
    """The language to answer in: the cookie's, else the best of ``Accept-Language``."""
    if cookie in LANGUAGES:
        return cookie
    best, best_q = "en", -1.0
    for i, part in enumerate((accept_language or "").split(",")):
        tag, _, params = part.strip().partition(";")
        lang = _ALIASES.get(tag.split("-")[0].strip().lower())
        q = 1.0
        if params.strip().startswith("q="):
            try:
                q = float(params.strip()[2:])
            except ValueError:
                q = 0.0
        if lang and q > best_q and q > 0:
            best, best_q = lang, q - i * 1e-6
    return best


class Words:
    """The words of one language, for templates: ``t("to_play", name=…)``."""

    def __init__(self, lang: str) -> None:
        self.lang = lang if lang in LANGUAGES else "en"
        self._ui = _UI[self.lang]
        self._sheet = SHEET_WORDS[self.lang]

    def __call__(self, key: str, **values: object) -> str:
        text = self._ui.get(key) or self._sheet.get(key) or key
        return text.format(**values) if values else text

    def rule(self, rule_id: str) -> str:
        rule = RULES.get(rule_id)
        return rule_id if rule is None else (rule.sk if self.lang == "sk" else rule.en)

    def discipline(self, discipline_id: str) -> str:
        d = DISCIPLINES.get(discipline_id)
        return discipline_id if d is None else (d.sk if self.lang == "sk" else d.en)

    def ball(self, ball: str) -> str:
        return _BALLS[self.lang].get(ball, ball)
