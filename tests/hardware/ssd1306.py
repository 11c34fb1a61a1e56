"""A test stand-in for micropython-lib's `ssd1306` driver, which no pinned PyPI package provides (see README).

It has the driver's interface as the board files use it, SSD1306_I2C(width, height, i2c, addr): a
framebuf.FrameBuffer over the display's 1024 bytes, with show(), poweroff(), poweron(), contrast() and invert(),
and speaks the chip's I2C protocol as the SSD1306 datasheet gives it: [0x80, command] per command byte and
[0x40, data...] for the display RAM, the start-up commands a 128 x 64 module with its internal charge pump needs,
and show() writing the whole RAM in horizontal addressing. On the device the real driver (mpremote mip install
ssd1306) takes its place; tests/hardware/bus_models.py checks the bytes either would send.
"""

try:
    import framebuf
except ImportError:  # CPython: the host tests' pure-Python framebuf stand-in (tests/host/framebuf_standin.py)
    import importlib.util
    import os

    _path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "host", "framebuf_standin.py")
    _spec = importlib.util.spec_from_file_location("framebuf_standin", _path)
    framebuf = importlib.util.module_from_spec(_spec)
    _spec.loader.exec_module(framebuf)

# The start-up sequence: display off, horizontal addressing, segment and COM remapped (column 0 and row 0 at the
# top left of the usual modules), 64 lines, COM pins alternative, clock, pre-charge and VCOMH for the internal
# charge pump, full contrast, RAM shown as it is, charge pump on, display on.
_INIT = (0xAE, 0x20, 0x00, 0x40, 0xA1, 0xA8, 0x3F, 0xC8, 0xD3, 0x00, 0xDA, 0x12, 0xD5, 0x80, 0xD9, 0xF1,
         0xDB, 0x30, 0x81, 0xFF, 0xA4, 0xA6, 0x8D, 0x14, 0xAF)


class SSD1306_I2C(framebuf.FrameBuffer):
    def __init__(self, width, height, i2c, addr=0x3C, external_vcc=False):
        self.width = width
        self.height = height
        self.pages = height // 8
        self.i2c = i2c
        self.addr = addr
        self.buffer = bytearray(self.pages * width)
        super().__init__(self.buffer, width, height, framebuf.MONO_VLSB)
        self._cmd = bytearray(2)
        self._cmd[0] = 0x80  # Co=1, D/C#=0: one command byte follows
        self._data = [b"\x40", self.buffer]  # Co=0, D/C#=1: display RAM bytes follow
        for cmd in _INIT:
            self.write_cmd(cmd)
        self.fill(0)
        self.show()

    def write_cmd(self, cmd):
        self._cmd[1] = cmd
        self.i2c.writeto(self.addr, self._cmd)

    def poweroff(self):
        self.write_cmd(0xAE)

    def poweron(self):
        self.write_cmd(0xAF)

    def contrast(self, value):
        self.write_cmd(0x81)
        self.write_cmd(value)

    def invert(self, on):
        self.write_cmd(0xA6 | (1 if on else 0))

    def show(self):
        for cmd in (0x21, 0, self.width - 1, 0x22, 0, self.pages - 1):
            self.write_cmd(cmd)
        self.i2c.writevto(self.addr, self._data)
