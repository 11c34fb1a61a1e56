"""The terminal app's dict messages and the wire's messages (tenace_wire): results out, host messages in."""

from micropython import const

from tenace_rules.board import SEATS
from tenace_rules.contract import Contract, from_text
from tenace_rules.notation import CARD_RANKS, CARD_SUITS
from tenace_terminal import catalogue
from tenace_wire.control import ACCEPTED, NO_SUCH_TABLE, STORED_CONFLICT, TABLE_TAKEN
from tenace_wire.table_messages import ADJUSTED, NOT_PLAYED, PASSED_OUT, PLAYED, Erase, Players, Result, card_code

_MSG_PLAYERS = const("players")
_MSG_SIGN_IN_OK = const("sign_in_ok")
_MSG_ROUND_PLAN = const("round_plan")
_MSG_TRAVELLER = const("traveller")
_MSG_RANKING = const("ranking")
_MSG_MESSAGE = const("message")

TYPE_CHECKING = False
if TYPE_CHECKING:  # for the type checkers only
    from tenace_wire.control import SignInAnswer
    from tenace_wire.director_messages import Ranking, RoundPlan, Traveller
    from tenace_wire.fields import Message
    from tenace_wire.hand_record import HandRecord

SECTIONS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"

_ADJUSTMENTS = ("", "A-", "A", "A+")  # the wire's ns_adjust / ew_adjust 0-3
# The wire's setting numbers (control.py) as the app's settings words (app.DEFAULT_SETTINGS).
_PLAYER_NUMBERS = ("off", "optional", "required")
_LEAD = ("off", "on", "warn", "force")
_RESULT = ("any", "tricks", "relative")
_DIRECTIONS = ("", "NS ", "EW ")  # a ranking line's FIELD, NS, EW


def table_message(message: dict) -> "Message":
    """The wire message of the app's "result" or "players" dict (an erase is an Erase)."""
    section = SECTIONS.find(message["section"])
    if message["type"] == _MSG_PLAYERS:
        n = message["numbers"]
        return Players(section=section, table=message["table"], round=message["round"],
                       north=n[0], east=n[1], south=n[2], west=n[3])
    kind = message["kind"]
    if kind == "erase":
        return Erase(section=section, table=message["table"], round=message["round"], board=message["board"],
                     version=message["version"])
    r = Result(section=section, table=message["table"], round=message["round"], board=message["board"],
               ns_pair=message["ns"], ew_pair=message["ew"], version=message["version"])
    if kind == "played":
        contract = from_text(message["contract"])
        r.kind = PLAYED
        r.level = contract.level
        r.strain = contract.strain
        r.doubling = contract.doubling
        r.declarer = SEATS.find(message["declarer"])
        r.tricks = message["tricks"]
        lead = message.get("lead")
        if lead:
            r.lead = card_code(CARD_SUITS.find(lead[0]), CARD_RANKS.find(lead[1]))
    elif kind == "passed_out":
        r.kind = PASSED_OUT
    elif kind == "adjusted":
        r.kind = ADJUSTED
        r.ns_adjust = _ADJUSTMENTS.index(message["ns_adj"])
        r.ew_adjust = _ADJUSTMENTS.index(message["ew_adj"])
    else:
        r.kind = NOT_PLAYED
    return r


def sign_in_reply(answer: "SignInAnswer", section: int, table: int) -> dict:
    """The app's sign_in_ok for an accepted sign-in, else a message saying why it was refused."""
    if answer.status != ACCEPTED:
        key = "table_taken" if answer.status == TABLE_TAKEN else (
            "no_table" if answer.status == NO_SUCH_TABLE else "event_closed")
        return {"type": _MSG_MESSAGE, "text": catalogue.text(key, SECTIONS[section], table)}
    settings = {"players": _PLAYER_NUMBERS[answer.player_numbers], "lead": _LEAD[answer.lead_entry],
                "result": _RESULT[answer.result_entry], "traveller": bool(answer.show_traveller),
                "pin": "%04d" % answer.pin,
                "language": answer.language}
    return {"type": _MSG_SIGN_IN_OK, "section": SECTIONS[answer.section], "table": answer.table, "settings": settings}


def answer(message: dict, status: int) -> dict:
    """The app's message for a result or player numbers the host refused for good (ACK status >= 16: the director
    sees why at the host), or for a result it stored that counts for nothing until the director decides (ACK
    STORED_CONFLICT: another, different result for the board is there)."""
    if "board" in message:
        key = "conflict" if status == STORED_CONFLICT else "refused"
        return {"type": _MSG_MESSAGE, "text": catalogue.text(key, message["board"])}
    return {"type": _MSG_MESSAGE, "text": catalogue.text("players_refused")}


def round_plan(plan: "RoundPlan") -> dict:
    """The app's round_plan; in the last round (no table to go to) "last" and no moves."""
    out = {"type": _MSG_ROUND_PLAN, "round": plan.round, "ns": plan.ns_pair, "ew": plan.ew_pair,
           "boards": list(plan.boards)}
    if plan.done:  # boards the host has from another terminal at this table: not offered again
        out["done"] = list(plan.done)
    going = 0  # an individual's players go on to tables of their own (its boards stay: a copy at every table)
    for p in plan.players:
        going |= p[1]
    if plan.ns_next or plan.ew_next or plan.boards_next or going:
        # A Howell's pairs change direction: where each sits next comes with its table.
        out["next"] = {"ns": [plan.ns_next, "ew" if plan.ns_next_ew else "ns"],
                       "ew": [plan.ew_next, "ns" if plan.ew_next_ns else "ew"], "boards": plan.boards_next}
    else:
        out["last"] = True
    if plan.players:  # an individual: its four players, N E S W, and where each sits next
        out["players"] = [p[0] for p in plan.players]
        out["player_next"] = [[p[1], p[2]] for p in plan.players]
    return out


def traveller(t: "Traveller", ns_pair: int) -> dict:
    """The app's traveller: [ns, ew, contract, declarer, result, ns score] lines and pair ns_pair's percentage."""
    lines = []
    out = {"type": _MSG_TRAVELLER, "board": t.board, "lines": lines}
    for line in t.lines:
        declarer = result = ""
        if line.kind == PLAYED:
            contract = Contract(line.level, line.strain, line.doubling).text()
            declarer = SEATS[line.declarer]
            over = line.tricks - line.level - 6
            result = "%+d" % over if over else "="
        elif line.kind == PASSED_OUT:
            contract = "Pass"
        elif line.kind == ADJUSTED:
            contract = _ADJUSTMENTS[line.ns_adjust] + "/" + _ADJUSTMENTS[line.ew_adjust]
        else:
            contract = "-"
        lines.append([line.ns_pair, line.ew_pair, contract, declarer, result, line.ns_score])
        if line.ns_pair == ns_pair:
            out["percentage"] = line.ns_percent / 100
    return out


def ranking(r: "Ranking") -> dict:
    """The app's ranking: [rank, pair as directors name it ("NS 3", "EW 3", a Howell's "3"), score in hundredths]."""
    lines = []
    for line in r.lines:
        lines.append([line.rank, (_DIRECTIONS[line.direction] + str(line.pair)), line.score])
    return {"type": _MSG_RANKING, "unit": r.unit, "lines": lines}


def deal_text(owners: bytes) -> str:
    """A HandRecord's owners (seat 0-3 of each card, card_code order) as the app's PBN deal "N:S.H.D.C ..."."""
    hands = []
    for seat in range(4):
        suits = []
        for suit in (3, 2, 1, 0):
            suits.append("".join([CARD_RANKS[r] for r in range(12, -1, -1) if owners[suit * 13 + r] == seat]))
        hands.append(".".join(suits))
    return "N:" + " ".join(hands)


def analysis_text(record: "HandRecord"):
    """A HandRecord's double-dummy analysis as the app keeps it, "<20 hex digits of tricks> <NS par>" (declarers
    N E S W, each strains C D H S NT, as the event file keeps them), or None when it came without one."""
    if not record.tricks:
        return None
    return "".join(["%X" % n for n in record.tricks]) + " %d" % record.par
