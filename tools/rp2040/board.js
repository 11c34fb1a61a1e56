// The Pico terminal's devices around an emulated RP2040 (rp2040js), wired as hardware/terminal-pico-nrf24 says:
// the key matrix on GPIO (rows driven low one at a time, columns pulled up), the I2C bus's writes passed on whole
// (the SSD1306 model is the Python side's), the SPI bus's bytes and the CE and CSN pins passed to the nRF24
// register model on the Python side (which answers each byte: the chip's MISO).
'use strict';

const { GPIOPinState } = require('rp2040js');

// Key (row, col) pressed joins its row to its column: the column reads low while the firmware drives that row low.
class KeyMatrix {
  constructor(mcu, rows, cols) {
    this.mcu = mcu;
    this.rows = rows;
    this.cols = cols;
    this.pressed = new Set();
    for (const r of rows) mcu.gpio[r].addListener(() => this.update());
    this.update();
  }

  set(row, col, down) {
    const key = row * 8 + col;
    if (down) this.pressed.add(key);
    else this.pressed.delete(key);
    this.update();
  }

  update() {
    const { gpio } = this.mcu;
    this.cols.forEach((c, ci) => {
      let low = false;
      this.rows.forEach((r, ri) => {
        if (this.pressed.has(ri * 8 + ci) && gpio[r].value === GPIOPinState.Low) low = true;
      });
      gpio[c].setInputValue(!low); // the pull-up, unless a pressed key joins it to a row held low
    });
  }
}

// Every write transaction to `devices` (7-bit addresses) acknowledged and handed to `sink(address, bytes)` at its
// stop; reads answer 0xff; any other address is not acknowledged, as on a bus where nothing answers there.
function wireI2C(i2c, devices, sink) {
  let address = -1;
  let bytes = [];
  i2c.onStart = () => i2c.completeStart();
  i2c.onConnect = (addr) => {
    address = addr;
    bytes = [];
    i2c.completeConnect(devices.includes(addr));
  };
  i2c.onWriteByte = (value) => {
    bytes.push(value);
    i2c.completeWrite(true);
  };
  i2c.onReadByte = () => i2c.completeRead(0xff);
  i2c.onStop = () => {
    if (bytes.length) sink(address, bytes);
    bytes = [];
    i2c.completeStop();
  };
}

// Each SPI byte exchanged with `exchange(byte) -> byte`; `pins` reported to `changed(pin, level)` as they move.
// The answer comes after the byte's eight clocks at the bus's rate, as on the wire: answered within onTransmit, the
// port's DMA transfers (32-byte payloads) never completed.
function wireSPI(mcu, spi, exchange, pins, changed) {
  let answer = 0;
  const done = mcu.clock.createAlarm(() => spi.completeTransmit(answer));
  spi.onTransmit = (value) => {
    answer = exchange(value);
    const hz = spi.clockFrequency || 4e6;
    done.schedule(Math.max(8, Math.round(8e9 / hz)));
  };
  for (const p of pins) {
    let level = -1;
    mcu.gpio[p].addListener((state) => {
      const now = state === GPIOPinState.High || state === GPIOPinState.InputPullUp ? 1 : 0;
      if (now !== level) {
        level = now;
        changed(p, now);
      }
    });
  }
}

module.exports = { KeyMatrix, wireI2C, wireSPI };
