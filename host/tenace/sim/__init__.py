"""`tenace sim`: a whole session of simulated terminals (the real firmware on MicroPython) against the real collector.

faults.py: what the virtual radio does to each frame;  radio.py: the virtual radio and base station;
processes.py: the collector and terminal child processes;  outcome.py: what the tables accepted against
what the store holds, and both rankings;  session.py: the run, start to end.
"""
