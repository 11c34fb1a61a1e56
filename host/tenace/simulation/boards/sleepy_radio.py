"""The headless simulator's radio as the sleepy link leaves it: deaf while the receiver is off (session_runner's
Simulator(sleepy=True)). A module of its own: imported only then, its code takes no heap from the other runs."""

from host_end import Radio


class SleepyRadio(Radio):
    """A Radio that hears only while the sleepy link listens (transport.listen, wire_link.py): what the host sends
    while the receiver is off is lost (counted in `deaf`), as on the air."""

    def __init__(self, loss=0.0, seed=5):
        Radio.__init__(self, loss, seed)
        self.ear = True
        self.deaf = 0

    def listen(self, on):
        self.ear = on

    def deliver(self, frames):
        if self.ear:
            Radio.deliver(self, frames)
        else:
            self.deaf += len(frames)
