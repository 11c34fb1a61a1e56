"""Frame types (the 5-bit number in every frame's first byte, and who may send which) and frame sizes (frame.py)."""

from micropython import const

VERSION = const(1)
MAX_FRAME = const(32)      # one nRF24L01 payload
HEADER_SIZE = const(5)
TAG_SIZE = const(8)        # truncated HMAC-SHA256 (auth.py)
CRC_SIZE = const(2)
OVERHEAD = HEADER_SIZE + TAG_SIZE + CRC_SIZE  # 15
MAX_PAYLOAD = MAX_FRAME - OVERHEAD            # 17
MAX_SEQ = const(65535)
MAX_TERMINAL = const(65534)

# Frame types (5 bits). The number is on the wire: never renumber, only add.
ACK = const(1)             # both ways: "I have your frames seq .. seq+count-1", with a status
HELLO = const(2)           # terminal, unauthenticated: "I have no key, tell me the event nonce"
PAIR_OFFER = const(3)      # host, unauthenticated: the event nonce
SIGN_IN = const(4)         # terminal: section, table, a fresh nonce
SIGN_IN_ANSWER = const(5)  # host: the nonce back, the table's settings
RESULT = const(6)          # terminal: one board's result (fits one frame)
PLAYERS = const(7)         # terminal: the four player numbers of a round
ERASE = const(8)           # terminal: a board's result withdrawn (a new version)
REQUEST = const(9)         # terminal: "send me my round plan / a traveller / the ranking / a hand"
ROUND_PLAN = const(10)     # host: a table's round: pairs, boards, where everyone moves next
TRAVELLER = const(11)      # host: a board's results at every table, with the matchpoint percentages
RANKING = const(12)        # host: the ranking of a section
HAND_RECORD = const(13)    # host: a board's deal, with its double-dummy tricks and par when analysed
TEXT = const(14)           # host: a message from the director
STATUS = const(15)         # terminal: firmware, battery, link counters, factory test (field_messages.py)
PING = const(16)           # host: nothing but its ACK back, timed by `tenace survey` (field_messages.py)
MORE = const(17)           # host, unsequenced: "n more frames wait for you: keep listening" (0: nothing more)
CALL = const(18)           # terminal: the table calls the director (director_call.py)
COMING = const(19)         # host: the director has seen the call and is coming
CLOCK = const(20)          # host: the round clock, its length and the seconds left
FRAGMENT = const(31)       # both ways: one piece of a message longer than MAX_PAYLOAD (fragments.py)

# Which types each side may send, as bit masks over the type number.
FROM_TERMINAL = ((1 << ACK) | (1 << HELLO) | (1 << SIGN_IN) | (1 << RESULT) | (1 << PLAYERS)
                 | (1 << ERASE) | (1 << REQUEST) | (1 << STATUS) | (1 << CALL) | (1 << FRAGMENT))
FROM_HOST = ((1 << ACK) | (1 << PAIR_OFFER) | (1 << SIGN_IN_ANSWER) | (1 << ROUND_PLAN) | (1 << TRAVELLER)
             | (1 << RANKING) | (1 << HAND_RECORD) | (1 << TEXT) | (1 << PING) | (1 << MORE) | (1 << COMING)
             | (1 << CLOCK) | (1 << FRAGMENT))
UNAUTHENTICATED = (1 << HELLO) | (1 << PAIR_OFFER)
