"""A stand-in for the director's host on the other end of a terminal's link: sign-in, round plans, acks, travellers.

It plays a Mitchell-like session for one table (NS stay, EW move up, boards move down), answers
every result with an ack, and sends the next round's plan once a round's boards are all in.
Runs under CPython and the MicroPython unix port.
"""

from tenace_rules.notation import parse_contract
from tenace_rules.score import ns_score


def summary(message):
    """A result or player-numbers message as one short line: what the tests compare, cheap to keep.

    "played v0 4S N 11 HK +450", "passed_out v0 Pass", "adjusted v0 A+ A-", "erase v1", "players 101 0 3 4"
    """
    if message["type"] == "players":
        return "players " + " ".join([str(n) for n in message["numbers"]])
    words = [message["kind"], "v%d" % message["version"]]
    for name in ("contract", "declarer", "tricks", "lead", "ns_adj", "ew_adj"):
        if name in message:
            words.append(str(message[name]))
    if "score" in message and message["kind"] == "played":
        words.append("%+d" % message["score"] if message["score"] else "0")
    return " ".join(words)


class StandInHost:
    def __init__(self, link, rounds=3, boards_per_round=3, tables=4, settings=None, deals=False, ack=True,
                 keep_log=True):
        self.link = link
        self.rounds = rounds
        self.boards_per_round = boards_per_round
        self.tables = tables
        self.settings = settings or {}
        self.with_deals = deals
        self.ack = ack  # False: results are received but never acknowledged
        self.online = True  # False: nothing is read (the host is unreachable)
        self.table = 0
        self.section = ""
        # Short summaries only (none with keep_log=False), so that a long session fits the terminal's small heap.
        self.keep_log = keep_log
        self.received = {}  # seq -> summary() of the first copy of each result or player-numbers message
        self.duplicates = 0
        self.results = {}  # round * 1000 + board -> summary() of its latest result (its kind without the log)
        self.acknowledged = []  # round * 1000 + board of the results it has acknowledged
        self.plans_sent = []  # round numbers, in the order plans were sent

    def plan(self, number):
        first = (number - 1) * self.boards_per_round + 1
        boards = list(range(first, first + self.boards_per_round))
        table = self.table
        plan = {"type": "round_plan", "round": number, "ns": table,
                "ew": self.tables + 1 + (table - 1 + number - 1) % self.tables, "boards": boards,
                "next": {"ns": [table, "ns"], "ew": [table % self.tables + 1, "ew"],
                         "boards": (table - 2) % self.tables + 1}}
        if number == self.rounds:
            plan["last"] = True
        if self.with_deals:
            from deals import deal  # only the tests of the lead check need hand records

            plan["deals"] = [deal(b) for b in boards]
        return plan

    def send_plan(self, number):
        self.plans_sent.append(number)
        self.link.send(self.plan(number))

    def round_complete(self, number):
        first = (number - 1) * self.boards_per_round + 1
        for board in range(first, first + self.boards_per_round):
            result = self.results.get(number * 1000 + board)
            if result is None or result.startswith("erase"):
                return False
        return True

    def poll(self):
        """Read and answer everything the terminal sent."""
        while self.online:
            message = self.link.recv()
            if message is None:
                return
            self.handle(message)

    def handle(self, message):
        kind = message.get("type")
        if kind == "sign_in":
            self.table = message["table"]
            self.section = message["section"]
            self.link.send({"type": "sign_in_ok", "section": self.section, "table": self.table,
                            "settings": self.settings})
            number = 1
            while number < self.rounds and self.round_complete(number):
                number += 1
            self.send_plan(number)
        elif kind == "round_request":
            if 1 <= message["round"] <= self.rounds:
                self.send_plan(message["round"])
        elif kind == "result" or kind == "players":
            seq = message["seq"]
            if seq in self.received:
                self.duplicates += 1
            else:
                line = summary(message) if self.keep_log else message.get("kind", "")
                self.received[seq] = line
                if kind == "result":
                    self.results[message["round"] * 1000 + message["board"]] = line
            if self.ack:
                self.link.send({"type": "ack", "seq": seq})
                if kind == "result":
                    self.acknowledged.append(message["round"] * 1000 + message["board"])
            if kind == "result":
                number = message["round"]
                if self.settings.get("traveller") and message.get("kind") == "played":
                    self.link.send(self.traveller(message))
                if number < self.rounds and self.round_complete(number) and number + 1 not in self.plans_sent:
                    self.send_plan(number + 1)

    def result(self, number, board):
        """What arrived last for `board` of round `number`: its summary() (or kind), or None."""
        return self.results.get(number * 1000 + board)

    def traveller(self, result):
        """The board's traveller: this table's result and two made-up ones from other tables."""
        ns = result["ns"]
        ew = result["ew"]
        relative = self._relative(result["contract"], result["tricks"])
        lines = [[ns, ew, result["contract"], result["declarer"], relative, result["score"]]]
        for contract, declarer, tricks in (("3NT", "S", 9), ("4S", "N", 9)):
            score = ns_score(parse_contract(contract), declarer, "none", tricks)
            lines.append([ns + 1, ew + 1, contract, declarer, self._relative(contract, tricks), score])
        mine = result["score"]
        points = 0
        for line in lines[1:]:
            points += 2 if mine > line[5] else (1 if mine == line[5] else 0)
        return {"type": "traveller", "board": result["board"], "lines": lines,
                "percentage": 100.0 * points / (2 * (len(lines) - 1))}

    @staticmethod
    def _relative(contract, tricks):
        over = tricks - parse_contract(contract).level - 6
        return "%+d" % over if over else "="
