"""A simulated terminal's end of the virtual radio (tenace.simulation.radio): a TCP connection, polled."""

import select
import socket


class PolledSocket:
    """A TCP connection to the virtual radio as the reader StreamTransport takes (any(), read(n) without waiting);
    `sock` writes, `poller` waits. `who` names the program in the message it exits with when the radio goes."""

    def __init__(self, port, who):
        self.who = who
        self.sock = socket.socket()
        self.sock.connect(socket.getaddrinfo("127.0.0.1", port)[0][-1])
        self.poller = select.poll()
        self.poller.register(self.sock, select.POLLIN)

    def any(self):
        return 1 if self.poller.poll(0) else 0

    def read(self, n):
        data = self.sock.recv(n)
        if not data:
            raise SystemExit("%s: the radio closed the connection" % self.who)
        return data
