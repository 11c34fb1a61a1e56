"""`tenace sim`: a whole session of simulated terminals (the real firmware on MicroPython) against the real collector.

processes.py: the collector and terminal child processes;  event_setup.py: the event file they play;
outcome.py: what the tables accepted against what the store holds, and both rankings;  runner.py: the run,
start to end (the radio and its faults are tenace.simulation.radio and .faults);  demo.py: `tenace demo`'s
session, played by random players without terminals.
"""
