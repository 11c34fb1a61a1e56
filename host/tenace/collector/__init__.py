"""The collector: the director laptop's end of the radio link, from frames on the air to results in the store.

- link_key.py: the event's pairing code, nonce and key, made once and kept in the event file (tenace.store.link);
- settings.py: the table settings sent with every accepted sign-in;
- wire_results.py: a RESULT or ERASE message as the store's IncomingResult;
- round_plans.py: round plans and the current round from the stored movement;
- board_reports.py: travellers and rankings for the tables, from the store through the report model;
- board_messages.py: a report's traveller or ranking as the wire messages the terminals show;
- collector.py: Collector, frames in and frames out, no I/O of its own (like HostSession), composed of
  pairing.py (the terminals' ways of pairing and keys, who holds a table), pushes.py (round plans sent unasked)
  and survey.py (the radio surveys);
- service.py: the asyncio loop (base stations, ticker, progress); tcp_link.py and serial_link.py: its transports.
(tenace.simulation.loopback puts terminals and a collector on a simulated channel, for the tests and a benchmark.)
"""

from tenace.collector.collector import Collector
from tenace.collector.link_key import LinkKey, link_key
from tenace.collector.settings import Settings

__all__ = ["Collector", "LinkKey", "Settings", "link_key"]
