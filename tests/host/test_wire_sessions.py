"""Terminal and host sessions end to end (CPython): sign-in, results exactly once, reboots, restarts, replays."""

from __future__ import annotations

import random
from itertools import pairwise

import pytest

from tenace_wire.auth import Tagger
from tenace_wire.control import REFUSED_WRONG_TABLE, SignInAnswer
from tenace_wire.director_call import NO_CLOCK, Call, Clock, Coming
from tenace_wire.director_messages import (
    Ranking,
    RankingLine,
    RoundPlan,
    Text,
    Traveller,
    TravellerLine,
)
from tenace_wire.errors import DUPLICATE, NOT_MINE, NOT_SIGNED_IN, REPLAY, WRONG_TABLE, WireError
from tenace_wire.field_messages import Ping
from tenace_wire.frame import decode_frame, encode_frame
from tenace_wire.frame_types import ACK, MAX_FRAME, OVERHEAD, PING, RESULT, ROUND_PLAN
from tenace_wire.hand_record import HandRecord
from tenace_wire.host_session import HostSession
from tenace_wire.messages import decode_message
from tenace_wire.table_messages import ADJUSTED, Result
from tenace_wire.terminal_session import TerminalSession

KEY = b"event-key-16byte"


class Store:
    """What the host's store does for the session: the durable 'already ingested' check."""

    def __init__(self) -> None:
        self.rows: dict[tuple[int, int], object] = {}

    def ingested(self, terminal: int, seq: int) -> bool:
        return (terminal, seq) in self.rows


def result(board: int = 5) -> Result:
    return Result(section=0, table=3, round=1, board=board, ns_pair=1, ew_pair=2, level=4, strain=3, tricks=10)


def signed_in(rng: random.Random, store: Store | None = None) -> tuple[TerminalSession, HostSession]:
    t = TerminalSession(7, rng.getrandbits, KEY)
    h = HostSession(KEY, rng.getrandbits, ingested=(store or Store()).ingested)
    t.sign_in(0, 3, 0)
    inbound = h.receive(t.due(0)[0], 0)
    assert inbound is not None
    h.answer_sign_in(inbound, SignInAnswer(section=0, table=3, round=1, language="fr"), 0)
    for frame in h.due(0):
        t.receive(frame, 0)
    for frame in t.due(0):
        h.receive(frame, 0)
    assert t.signed_in and t.pending() == 0 and h.pending() == 0
    return t, h


def deliver(h: HostSession, store: Store, frames: list[bytes]) -> list[bytes]:
    """The collector: ingest new messages in the store, acknowledge after the commit."""
    for frame in frames:
        inbound = h.receive(frame, 0)
        if inbound is None or inbound.type == ACK:
            continue
        if not inbound.duplicate:
            store.rows[(inbound.terminal, inbound.seq)] = inbound.message
        h.acknowledge(inbound)
    return h.due(0)


def test_a_result_exactly_once_through_lost_acks_and_a_reboot() -> None:
    rng = random.Random(1)
    store = Store()
    reserved: list[int] = []
    t = TerminalSession(7, rng.getrandbits, KEY, reserve=reserved.append)
    h = HostSession(KEY, rng.getrandbits, ingested=store.ingested)
    h.resume(7, 0, 3)
    seq = t.queue(result(), 0)
    journal = [(seq, result())]
    frame = t.due(0)
    assert len(frame[0]) == OVERHEAD + 11 == 26 <= MAX_FRAME
    deliver(h, store, frame)                 # stored, but the ACK is lost
    assert t.pending() == 1
    # The terminal reboots: next_seq from the reservation, the result from the journal, same seq.
    t2 = TerminalSession(7, rng.getrandbits, KEY, next_seq=reserved[-1])
    for s, msg in journal:
        t2.requeue(s, msg, 100)
    h2 = HostSession(KEY, rng.getrandbits, ingested=store.ingested)   # and the host restarts too
    h2.resume(7, 0, 3)
    acks = deliver(h2, store, t2.due(100))
    assert h2.counters[DUPLICATE] == 1 and len(store.rows) == 1
    for a in acks:
        t2.receive(a, 100)
    assert t2.pending() == 0
    assert t2.queue(result(6), 200) >= reserved[-1]  # a new result never reuses a number


def test_retransmissions_follow_the_back_off_and_stop_on_ack() -> None:
    rng = random.Random(2)
    t, h = signed_in(rng)
    t.queue(result(), 1000)
    sent = [now for now in range(1000, 20000, 50) for _ in t.due(now)]
    assert sent[0] == 1000 and len(sent) >= 4
    gaps = [b - a for a, b in pairwise(sent)]
    assert all(b >= a for a, b in pairwise(gaps))  # never shorter than the last
    store = Store()
    for a in deliver(h, store, [t.due(10**9)[0]]):
        t.receive(a, 10**9)
    assert t.pending() == 0 and t.due(10**10) == []


def test_host_messages_fragmented_deduplicated_and_replay_refused() -> None:
    rng = random.Random(3)
    t, h = signed_in(rng)
    plan = RoundPlan(section=0, table=3, round=2, ns_pair=5, ew_pair=6, boards=(4, 5, 6), ns_next=4, ew_next=2,
                     boards_next=2)
    h.send(7, plan, 0)
    frames = h.due(0)
    assert len(frames) == 2 and all(len(f) <= MAX_FRAME for f in frames)
    got = [t.receive(f, 0) for f in reversed(frames)]
    assert got[0] is None and got[1] is not None and got[1].message == plan
    assert t.receive(frames[0], 1) is None and t.counters[DUPLICATE] == 1  # a retransmission: acked again
    for a in t.due(1):
        h.receive(a, 1)
    assert h.pending() == 0
    # A new sign-in (a reboot): host frames from before it are replays.
    t.sign_in(0, 3, 10)
    inbound = h.receive(t.due(10)[0], 10)
    assert inbound is not None
    h.answer_sign_in(inbound, SignInAnswer(section=0, table=3, round=2), 10)
    answer = h.due(10)
    for f in answer:
        t.receive(f, 10)
    with pytest.raises(WireError) as refused:
        t.receive(frames[1], 11)
    assert refused.value.reason == REPLAY
    # An old answer (to the previous nonce) is a replay too.
    t.sign_in(0, 3, 20)
    with pytest.raises(WireError) as old:
        t.receive(answer[-1], 20)
    assert old.value.reason == REPLAY


def test_wrong_table_and_unknown_terminal_refused_with_the_inbound_to_refuse() -> None:
    rng = random.Random(4)
    t, h = signed_in(rng)
    t.queue(Result(section=0, table=4, round=1, board=1, ns_pair=1, ew_pair=2, kind=ADJUSTED, level=0, tricks=0,
                   ns_adjust=3, ew_adjust=1), 0)
    with pytest.raises(WireError) as e:
        h.receive(t.due(0)[0], 0)
    assert e.value.reason == WRONG_TABLE and e.value.inbound is not None
    h.acknowledge(e.value.inbound, REFUSED_WRONG_TABLE)  # type: ignore[arg-type]
    acks = h.due(0)
    assert t.receive(acks[0], 0).message.status == REFUSED_WRONG_TABLE  # type: ignore[union-attr]
    assert t.pending() == 0
    stranger = TerminalSession(9, rng.getrandbits, KEY)
    stranger.queue(result(), 0)
    with pytest.raises(WireError) as e2:
        h.receive(stranger.due(0)[0], 0)
    assert e2.value.reason == NOT_SIGNED_IN
    assert h.counters[WRONG_TABLE] == 1 and h.counters[NOT_SIGNED_IN] == 1


def test_pairing_with_the_code() -> None:
    rng = random.Random(5)
    from tenace_wire.pairing import event_key
    nonce = bytes(range(8))
    h = HostSession(event_key("314159", nonce), rng.getrandbits)
    t = TerminalSession(12, rng.getrandbits)
    hello = h.receive(t.hello(), 0)
    assert hello is not None
    offer = t.receive(h.offer_pairing(12, nonce), 0)
    assert offer is not None
    t.pair("314 159", offer.message.nonce)  # type: ignore[union-attr]
    t.sign_in(1, 8, 0)
    assert h.receive(t.due(0)[0], 0) is not None
    wrong = TerminalSession(13, rng.getrandbits)
    wrong.pair("000000", nonce)
    wrong.sign_in(1, 9, 0)
    with pytest.raises(WireError) as e:
        h.receive(wrong.due(0)[0], 0)
    assert e.value.reason == "bad_tag"


def test_pairing_with_the_club_key_and_a_terminals_own_keys_at_the_host() -> None:
    from tenace_wire.pairing import club_id, event_key
    rng = random.Random(6)
    nonce, club = bytes(range(8)), bytes(range(16))
    code_key, club_key = event_key("314159", nonce), event_key("314159", nonce, club)
    h = HostSession(code_key, rng.getrandbits)
    t = TerminalSession(12, rng.getrandbits, club=club)
    hello = h.receive(t.hello(), 0)
    assert hello is not None and hello.message.club == club_id(club)  # type: ignore[union-attr]
    assert t.pair("314159", nonce) == club_key
    t.sign_in(1, 8, 0)
    frame = t.due(0)[0]
    with pytest.raises(WireError) as e:  # under the event's key alone: refused
        h.receive(frame, 0)
    assert e.value.reason == "bad_tag"
    # The terminal's own keys, tried in order; the one its frame verified under becomes the key of frames to it.
    h.use_keys(12, [code_key, club_key])
    inbound = h.receive(frame, 0)
    assert inbound is not None and h.key_of(12) == club_key
    h.acknowledge(inbound)
    ack = h.due(0)[0]
    assert decode_frame(ack, Tagger(club_key), True).type == ACK and t.receive(ack, 0) is not None
    _, ping = h.probe(12, Ping(number=1))  # a survey's PING too: under the event's key the terminal drops it
    assert decode_frame(ping, Tagger(club_key), True).type == PING
    # Other terminals stay under the event's key; [] gives terminal 12 back to it.
    assert h.key_of(13) == code_key
    h.use_keys(12, [])
    assert h.key_of(12) == code_key


@pytest.mark.parametrize("msg", [
    Traveller(section=1, board=7, lines=(
        TravellerLine(ns_pair=1, ew_pair=2, level=3, strain=4, declarer=0, tricks=10, lead=1, ns_score=630,
                      ns_percent=8333),
        TravellerLine(ns_pair=3, ew_pair=4, kind=ADJUSTED, level=0, tricks=0, ns_adjust=3, ew_adjust=1,
                      ns_percent=6000),
        TravellerLine(ns_pair=5, ew_pair=6, level=7, strain=4, doubling=2, declarer=1, tricks=0, ns_score=7600),
    )),
    Ranking(section=0, round=3, lines=tuple(RankingLine(rank=i + 1, pair=i + 1, score=6000 - 100 * i)
                                            for i in range(20))),
    HandRecord(board=3, owners=bytes((i * 7) % 4 for i in range(52))),
    HandRecord(board=3, owners=bytes((i * 7) % 4 for i in range(52)), tricks=bytes(range(14)) + bytes(6), par=-430),
    Text(text="Dernière donne : changez de table ↑\nMerci"),
    RoundPlan(section=2, table=9, round=1, ns_pair=9, ew_pair=18, boards=tuple(range(1, 28))),
    RoundPlan(section=0, table=2, round=1, ns_pair=2, ew_pair=4, boards=(4, 5, 6), ns_next=1, ew_next=3, boards_next=4,
              ns_next_ew=1, ew_next_ns=1),
    RoundPlan(section=0, table=2, round=1, ns_pair=3, ew_pair=4, boards=(1, 2, 3),
              players=((3, 1, 1), (5, 1, 3), (7, 2, 3), (6, 2, 1))),
    RoundPlan(section=0, table=2, round=1, ns_pair=2, ew_pair=4, boards=(4, 5, 1023), done=(4, 1023)),
])
def test_director_messages_round_trip_through_frames(msg: object) -> None:
    rng = random.Random(6)
    t, h = signed_in(rng)
    h.send(7, msg, 0)  # type: ignore[arg-type]
    frames = h.due(0)
    rng.shuffle(frames)
    got = [x for x in (t.receive(f, 0) for f in frames) if x is not None]
    assert len(got) == 1 and got[0].message == msg


def test_decode_refuses_director_fields() -> None:
    bad = HandRecord(board=3, owners=bytes(52))  # North holds every card
    with pytest.raises(WireError):
        bad.encode()
    with pytest.raises(WireError):
        Text(text="").encode()
    with pytest.raises(WireError):
        decode_message(14, b"\xff\xfe")
    frame = encode_frame(h_tagger(), False, RESULT, 7, 1, result().encode())
    assert decode_frame(frame, h_tagger(), False).terminal == 7


def h_tagger():  # type: ignore[no-untyped-def]
    from tenace_wire.auth import Tagger
    return Tagger(KEY)


def test_a_terminal_drops_other_terminals_frames_before_any_hashing() -> None:
    # On ESP-NOW broadcast every terminal hears the host's frames for the others, and the others' own frames.
    rng = random.Random(4)
    t, _h = signed_in(rng)
    neighbour = TerminalSession(8, rng.getrandbits, KEY)
    neighbour.sign_in(0, 4, 0)
    heard = [*neighbour.due(0), encode_frame(Tagger(KEY), True, ROUND_PLAN, 8, 1, b"")]
    for frame in heard:
        with pytest.raises(WireError) as refused:
            t.receive(frame, 0)
        assert refused.value.reason == NOT_MINE
    assert t.counters[NOT_MINE] == len(heard)


def test_a_round_plan_carries_where_each_pair_sits_next_in_two_bits() -> None:
    # A Howell: pair 2 (NS now) sits East-West next round, pair 4 (EW now) North-South.
    fields = dict(section=0, table=2, round=1, ns_pair=2, ew_pair=4, boards=(4, 5, 6), ns_next=1, ew_next=3,
                  boards_next=4)
    plain = RoundPlan(**fields).encode()
    for ns_turns, ew_turns in ((0, 1), (1, 0), (1, 1)):
        turned = RoundPlan(**fields, ns_next_ew=ns_turns, ew_next_ns=ew_turns)
        payload = turned.encode()
        assert len(payload) == len(plain) == 15 + 1 + 2 * 3  # 114 bits of fields in 15 bytes, then the boards
        back = decode_message(ROUND_PLAN, payload)
        assert (back.ns_next_ew, back.ew_next_ns) == (ns_turns, ew_turns) and back == turned
        # The two bits are the 113th and 114th: byte 14's top two bits, the rest padding.
        assert payload[14] == (ns_turns << 7) | (ew_turns << 6) and payload[:14] == plain[:14]
    assert (decode_message(ROUND_PLAN, plain).ns_next_ew, decode_message(ROUND_PLAN, plain).ew_next_ns) == (0, 0)
    with pytest.raises(WireError):  # a value a bit cannot hold
        RoundPlan(**fields, ns_next_ew=2).encode()
    with pytest.raises(WireError):  # padding after the two bits must be zero: one encoding per message
        decode_message(ROUND_PLAN, plain[:14] + bytes([0x01]) + plain[15:])


def test_a_round_plan_marks_the_boards_the_host_has_in_their_numbers_top_bit() -> None:
    """A spare taking over a table is told which boards are in already: the top bit of each board's two bytes,
    the frame no longer; a plan with none is the same bytes as before."""
    fields = dict(section=0, table=2, round=1, ns_pair=2, ew_pair=4, boards=(4, 5, 6))
    plain = RoundPlan(**fields).encode()
    marked = RoundPlan(**fields, done=(5,)).encode()
    assert len(marked) == len(plain) and marked[:16] == plain[:16]
    assert marked[16:] == bytes((0, 4, 0x80, 5, 0, 6))
    back = decode_message(ROUND_PLAN, marked)
    assert back.boards == (4, 5, 6) and back.done == (5,)
    assert decode_message(ROUND_PLAN, plain).done == ()


def test_an_individuals_round_plan_carries_its_four_players_and_their_next_seats() -> None:
    fields = dict(section=0, table=2, round=1, ns_pair=3, ew_pair=4, boards=(1, 2, 3))
    plain = RoundPlan(**fields).encode()
    players = ((3, 1, 1), (5, 1, 3), (7, 2, 3), (600, 0, 0))
    payload = RoundPlan(**fields, players=players).encode()
    assert payload[:len(plain)] == plain and len(payload) == len(plain) + 4 * 5  # player 16, table 16, seat 8
    assert payload[-5:] == bytes((600 >> 8, 600 & 0xFF, 0, 0, 0))
    assert decode_message(ROUND_PLAN, payload).players == players
    for bad in (players[:3], ((0, 1, 1), *players[1:]), ((3, 1, 4), *players[1:]), ((3, 1024, 1), *players[1:])):
        with pytest.raises(WireError):
            RoundPlan(**fields, players=bad).encode()
    for cut in (payload[:-1], payload[:-5], payload + b"\x00"):
        with pytest.raises(WireError):
            decode_message(ROUND_PLAN, cut)


def test_a_call_of_the_director_is_checked_against_the_table_and_the_clock_comes_back() -> None:
    rng = random.Random(6)
    t, h = signed_in(rng)
    t.queue(Call(section=0, table=4, round=1, call=1, left=NO_CLOCK), 0)  # another table's: refused
    with pytest.raises(WireError) as e:
        h.receive(t.due(0)[0], 0)
    assert e.value.reason == WRONG_TABLE
    store = Store()
    t2, h2 = signed_in(random.Random(7), store)
    t2.queue(Call(section=0, table=3, round=1, call=1, left=12), 0)
    frames = t2.due(0)
    back = deliver(h2, store, frames + frames)  # heard twice: one call
    assert [m for m in store.rows.values() if isinstance(m, Call)] == [Call(section=0, table=3, round=1, call=1,
                                                                          left=12)]
    for frame in back:
        t2.receive(frame, 0)
    assert t2.pending() == 0
    h2.send(7, Coming(section=0, table=3, call=1), 0)
    h2.send(7, Clock(section=0, round=1, minutes=20, left=1190), 0)
    got = [t2.receive(frame, 0) for frame in h2.due(0)]
    assert [g.message for g in got if g is not None] == [Coming(section=0, table=3, call=1),
                                                         Clock(section=0, round=1, minutes=20, left=1190)]
