"""Reports: one typed model of what a report holds, and its writers.

- model.py: pairs (named as directors write them), boards and travellers, adjustments, rankings, a team match;
- rescore.py: the report of a PBN file rescored (`tenace score`);
- session.py: the report of a scored session (`tenace demo`, `tenace sim`);
- store_results.py: the store's results as a report's pairs and traveller lines (the collector);
- text.py, json.py, pbn.py: the writers for the screen, JSON and PBN 2.1 (the terminals' writer is
  tenace.collector.board_messages: it speaks the wire).
"""
