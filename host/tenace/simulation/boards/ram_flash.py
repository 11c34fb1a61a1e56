"""Flash in RAM for littlefs (vfs.VfsLfs2) under the MicroPython unix port, able to lose power mid-write."""

_EIO = -5  # what a block device returns to littlefs for an I/O error


class RamBlockDevice:
    """Flash in RAM for vfs.VfsLfs2 (readblocks/writeblocks/ioctl, erase included).

    With cut_at=N the power fails at the N-th write or erase counted from arm(): that operation is
    torn (only its first half reaches the flash) and the device is dead from then on, so `data` is
    exactly what the flash holds after the cut.
    """

    def __init__(self, blocks=64, block_size=256, data=None):
        self.blocks = blocks
        self.block_size = block_size
        # One allocation of the flash's size, then erased in place: bytes(...) * n would need a second as large.
        self.data = bytearray(blocks * block_size)
        self.load(data)

    def arm(self, cut_at):
        """Power on (again) and start counting writes from here; 0 never cuts."""
        self.writes = 0
        self.cut_at = cut_at
        self.dead = False

    def load(self, data=None):
        """Replace the whole flash: by `data` (bytes of the same size), or erased (all 0xFF)."""
        if data is None:
            for i in range(len(self.data)):
                self.data[i] = 0xFF
        else:
            self.data[:] = data
        self.arm(0)

    def _write(self, start, data):
        if self.dead:
            return _EIO
        self.writes += 1
        if self.writes == self.cut_at:
            half = len(data) // 2
            self.data[start:start + half] = data[:half]
            self.dead = True
            return _EIO
        self.data[start:start + len(data)] = data
        return 0

    def readblocks(self, block, buf, offset=0):
        if self.dead:
            return _EIO
        start = block * self.block_size + offset
        buf[:] = self.data[start:start + len(buf)]
        return 0

    def writeblocks(self, block, buf, offset=None):
        return self._write(block * self.block_size + (offset or 0), buf)

    def ioctl(self, op, arg):
        if op == 4:  # block count
            return self.blocks
        if op == 5:  # block size
            return self.block_size
        if op == 6:  # erase a block
            return self._write(arg * self.block_size, b"\xff" * self.block_size)
        return 0


_mounted = [0]


def mount(device=None):
    """A directory on littlefs over `device` (a new, formatted RamBlockDevice by default): the journal's storage."""
    import vfs

    if device is None:
        device = RamBlockDevice()
        # The stubs' AbstractBlockDev is a class, not a protocol: readblocks, writeblocks and ioctl make one.
        vfs.VfsLfs2.mkfs(device)  # pyright: ignore[reportArgumentType]
    _mounted[0] += 1
    path = "/flash%d" % _mounted[0]
    vfs.mount(vfs.VfsLfs2(device), path)  # pyright: ignore[reportArgumentType]
    return path


def unmount(path):
    import vfs

    vfs.umount(path)
