"""The rule ids of RULES.md, with short titles in English and Slovak.

Every ruling cites these ids; error messages, the scoresheet and the web show them.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache


@dataclass(frozen=True, slots=True)
class Rule:
    id: str
    en: str
    sk: str


_RULES = (
    Rule("C1", "valid carom: ball 1 hits balls 2 and 3, no fault", "platný karambol: guľa 1 zasiahne gule 2 a 3 bez chyby"),
    Rule("C2", "a valid carom is worth 1 point", "platný karambol má hodnotu 1 bodu"),
    Rule("C3", "the player keeps the table after a carom", "hráč pokračuje po platnom karambole"),
    Rule("L1", "lag set-up", "rozostavenie na rozhodovací strk"),
    Rule("L2", "the ball closer to the bottom cushion wins the lag", "vyhráva guľa bližšie k dolnému mantinelu"),
    Rule("L3", "equal distances: the lag is repeated", "rovnaká vzdialenosť: strk sa opakuje"),
    Rule("L4", "a lag ball hits red: fault, the opponent chooses", "guľa zasiahne červenú: chyba, voľbu má súper"),
    Rule("L5", "the lag balls collide: the player who did not cross chooses", "gule sa zrazia: voľbu má hráč, ktorý neprešiel"),
    Rule("L6", "a lag ball misses the top cushion: repeat; second failure loses", "guľa nedôjde k mantinelu: opakuje sa, pri druhom pochybení rozhoduje súper"),
    Rule("E1", "a game ends at the points or innings limit", "hra končí limitom karambolov alebo nábehov"),
    Rule("E2", "both players have the same number of innings", "obaja hráči majú rovnaký počet nábehov"),
    Rule("E3", "the equalizing inning, from the starting position", "dohrávka zo základnej pozície"),
    Rule("E4", "a set ends at once at its points limit", "set končí ihneď po dosiahnutí limitu"),
    Rule("E5", "innings-limited set: last inning from the starting position", "set limitovaný nábehmi: posledný nábeh zo základnej pozície"),
    Rule("E6", "set openers alternate", "každý set začína iný hráč"),
    Rule("Q1", "table sizes", "rozmery stola"),
    Rule("Q2", "cushion height", "výška mantinelov"),
    Rule("Q3", "table height", "výška stola"),
    Rule("Q4", "heated bed, fast cloth", "vyhrievaná doska, rýchle plátno"),
    Rule("Q5", "balls: diameter and mass", "gule: priemer a hmotnosť"),
    Rule("Q6", "lighting", "osvetlenie"),
    Rule("Q7", "space around the table", "priestor okolo stola"),
    Rule("F1", "no carom", "neuspeje v karambole"),
    Rule("F2", "jumped ball", "vyhodená guľa"),
    Rule("F3", "stroke before the balls came to rest", "strk pred zastavením gulí"),
    Rule("F4", "touching a ball", "dotyk gule"),
    Rule("F5", "touching a ball to clean it", "dotyk gule pri odstraňovaní telieska"),
    Rule("F6", "moving balls deliberately", "úmyselné premiestnenie gulí"),
    Rule("F7", "striking with the cue but the tip", "úder inou časťou tága ako kožou"),
    Rule("F8", "push shot", "postrk"),
    Rule("F9", "playing straight into a frozen ball 2", "priamy zásah lepiacej gule č. 2"),
    Rule("F10", "double hit with the tip", "dvojitý dotyk kožou"),
    Rule("F11", "no foot on the floor", "žiadna noha na podlahe"),
    Rule("F12", "marks on the table", "značky na stole"),
    Rule("F13", "playing the opponent's ball", "hra cudzou guľou"),
    Rule("F14", "a fault voids the carom of that stroke", "chyba ruší karambol strku"),
    Rule("F15", "a carom after an uncalled fault stands", "karambol po neohlásenej chybe platí"),
    Rule("F16", "a third person's fault: balls put back", "chyba tretej osoby: gule späť"),
    Rule("F17", "wrong ball at the opening stroke", "cudzia guľa pri začiatočnom strku"),
    Rule("Z1", "forbidden fields are marked", "vyznačenie zakázaných polí"),
    Rule("Z2", "limited caroms in a forbidden field", "obmedzený počet karambolov v poli"),
    Rule("Z3", "a ball must leave the field", "guľa musí opustiť pole"),
    Rule("Z4", "a ball may come back: the count starts again", "guľa sa môže vrátiť: počet od začiatku"),
    Rule("Z5", "anchors", "kotvy"),
    Rule("Z6", "a ball on a line is inside", "guľa na čiare je vo vnútri"),
    Rule("Z7", "no ball left the field: fault", "žiadna guľa neopustila pole: chyba"),
    Rule("O1", "the opener plays white", "zahajujúci hrá bielou"),
    Rule("O2", "the starting position", "základná pozícia"),
    Rule("O3", "the opening stroke hits red first", "začiatočný strk od červenej"),
    Rule("S1", "straight rail: unlimited caroms", "voľná hra: neobmedzene karambolov"),
    Rule("S2", "straight rail: forbidden corners", "voľná hra: zakázané rohy"),
    Rule("S3", "straight rail: frozen ball, starting position, same player", "voľná hra: lepiace gule, základná pozícia, hrá ten istý"),
    Rule("S4", "straight rail: jumped ball, starting position, opponent", "voľná hra: vyhodená guľa, základná pozícia, hrá súper"),
    Rule("K1", "balkline: fields by lines", "kádre: polia vymedzené čiarami"),
    Rule("K2", "balkline: fields and anchors follow Z", "kádre: polia a kotvy podľa Z"),
    Rule("K3", "balkline: frozen ball remedies", "kádre: lepiace gule"),
    Rule("K4", "balkline: jumped ball", "kádre: vyhodená guľa"),
    Rule("1C1", "one-cushion: a cushion before ball 3", "jednoband: mantinel pred guľou 3"),
    Rule("1C2", "one-cushion: no forbidden fields", "jednoband: bez zakázaných polí"),
    Rule("1C3", "one-cushion: frozen ball remedies", "jednoband: lepiace gule"),
    Rule("1C4", "one-cushion: jumped ball", "jednoband: vyhodená guľa"),
    Rule("3C1", "three-cushion: three cushions before ball 3", "trojband: tri mantinely pred guľou 3"),
    Rule("3C2", "three-cushion: no forbidden fields", "trojband: bez zakázaných polí"),
    Rule("3C3", "three-cushion: spotting on the long string", "trojband: rozostavenie na pozdĺžnu čiaru"),
    Rule("3C4", "three-cushion: covered spot", "trojband: zakrytá bodka"),
    Rule("3C5", "three-cushion: frozen ball remedies", "trojband: lepiace gule"),
    Rule("3C6", "three-cushion: jumped ball", "trojband: vyhodená guľa"),
)

RULES: dict[str, Rule] = {rule.id: rule for rule in _RULES}
"""Every rule id of RULES.md, in the rulebook's order."""

CALLABLE_FOULS: tuple[str, ...] = (*(f"F{n}" for n in range(2, 14)), "Z7", "O3")
"""The faults a referee may give in a record (FORMAT.md): F2–F13, Z7, O3."""

STROKE_FOULS: tuple[str, ...] = tuple(f"F{n}" for n in range(2, 14))
"""The faults a ``stroke`` record's ``fouls`` may call (FORMAT.md): F2–F13."""

_ORDER = {rule_id: i for i, rule_id in enumerate(RULES)}


@cache
def in_rulebook_order(ids: tuple[str, ...]) -> tuple[str, ...]:
    """Rule ids without repeats, in the order of RULES.md."""
    return tuple(sorted(set(ids), key=_ORDER.__getitem__))
