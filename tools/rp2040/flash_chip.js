// The Pico's flash chip (Winbond W25Q16JV, 2 MB) behind the RP2040's SSI and the QSPI chip select, for rp2040js.
//
// rp2040js maps flash reads straight onto its `flash` array but its SSI peripheral is a register stub (its issue
// 157): a page program or a sector erase sent by the boot ROM's flash functions never reaches that array, so
// littlefs on rp2.Flash() cannot write. This replaces the stub with an SSI whose data register carries bytes to a
// model of the chip's SPI commands (W25Q16JV datasheet rev. H, section 8: 06h write enable, 04h write disable,
// 05h/35h/15h read status 1/2/3, 02h page program, 20h/52h/D8h sector and block erase, C7h/60h chip erase,
// 03h/0Bh read, 9Fh JEDEC id, 4Bh unique id), and the IO_QSPI bank whose SS output override frames a command when
// the boot ROM forces the chip select (flash_cs_force). Every command completes at once: status's BUSY is never set.
'use strict';

const SSI_CTRLR0 = 0x00;
const SSI_SSIENR = 0x08;
const SSI_TXFLR = 0x20;
const SSI_RXFLR = 0x24;
const SSI_SR = 0x28;
const SSI_IDR = 0x58;
const SSI_VERSION_ID = 0x5c;
const SSI_DR0 = 0x60;
const SR_TFNF = 0x02; // transmit FIFO not full
const SR_TFE = 0x04; // transmit FIFO empty
const SR_RFNE = 0x08; // receive FIFO not empty
const QSPI_SS_CTRL = 0x0c; // IO_QSPI GPIO_QSPI_SS_CTRL: OUTOVER in bits 9:8 (2 drive low, 3 drive high)
const PAGE = 256;
const SECTOR = 4096;
const JEDEC_ID = [0xef, 0x40, 0x15]; // Winbond, SPI NOR, 16 Mbit

class FlashChip {
  constructor(flash, size = 2 * 1024 * 1024) {
    this.flash = flash; // rp2040js's array: XIP reads see every program and erase
    this.size = size;
    this.wel = false; // write enable latch (status 1, bit 1)
    this.status2 = 0x02; // QE set, as the Pico's boot2 leaves it (it rewrites it otherwise)
    this.cmd = null; // the command of the open transaction; null: none clocked yet
    this.bytes = []; // what followed the command byte
    this.programs = 0; // page programs done, erases done: the wear
    this.erases = 0;
    this.errors = [];
  }

  begin() {
    this.cmd = null;
    this.bytes = [];
  }

  // One byte clocked: `value` in, the returned byte out.
  exchange(value) {
    if (this.cmd === null) {
      this.cmd = value;
      return 0xff;
    }
    const i = this.bytes.length;
    this.bytes.push(value);
    switch (this.cmd) {
      case 0x05:
        return this.wel ? 0x02 : 0x00;
      case 0x35:
        return this.status2;
      case 0x15:
        return 0x60; // driver strength bits at their default
      case 0x9f:
        return JEDEC_ID[i % 3];
      case 0x4b:
        return i < 4 ? 0xff : 0x50 + i; // four dummy bytes, then an id of our own
      case 0x03:
      case 0x0b: {
        const skip = this.cmd === 0x0b ? 4 : 3;
        if (i < skip) return 0xff;
        return this.flash[(this.address() + i - skip) % this.size];
      }
      default:
        return 0xff;
    }
  }

  address(b = this.bytes) {
    return ((b[0] << 16) | (b[1] << 8) | b[2]) >>> 0;
  }

  // Chip select rises: a write command takes effect now (datasheet 8.2: the instruction is executed on /CS high).
  end() {
    const cmd = this.cmd;
    const b = this.bytes;
    this.cmd = null;
    this.bytes = [];
    if (cmd === null) return;
    if (cmd === 0x06) {
      this.wel = true;
    } else if (cmd === 0x04) {
      this.wel = false;
    } else if (cmd === 0x02 || cmd === 0x20 || cmd === 0x52 || cmd === 0xd8 || cmd === 0xc7 || cmd === 0x60) {
      if (!this.wel) {
        this.errors.push(`command 0x${cmd.toString(16)} without write enable: ignored`);
        return;
      }
      this.wel = false; // cleared when a program or erase completes
      if (cmd === 0x02) {
        if (b.length < 4) return;
        const start = this.address(b);
        const page = start - (start % PAGE);
        for (let k = 3; k < b.length; k++) {
          const at = page + ((start + k - 3) % PAGE); // wraps within the page (8.2.13)
          this.flash[at] &= b[k]; // NOR: programming only clears bits
        }
        this.programs += 1;
      } else if (cmd === 0xc7 || cmd === 0x60) {
        this.flash.fill(0xff, 0, this.size);
        this.erases += 1;
      } else {
        if (b.length < 3) return;
        const span = cmd === 0x20 ? SECTOR : cmd === 0x52 ? 32768 : 65536;
        const start = this.address(b) - (this.address(b) % span);
        this.flash.fill(0xff, start, start + span);
        this.erases += 1;
      }
    }
  }
}

// The SSI (RP2040 datasheet 4.10.13) as the boot ROM and boot2 drive it in standard SPI mode: each byte written to
// DR0 is exchanged with the chip at once and its answer queued for reading. With the chip select not forced, a
// command is framed as the hardware frames it for boot2's sequences: it starts with the first byte written after
// everything received was read.
class SSI {
  constructor(chip, select) {
    this.chip = chip;
    this.select = select;
    this.rx = [];
    this.regs = new Map();
    this.drained = true;
  }

  readUint32(offset) {
    switch (offset) {
      case SSI_TXFLR:
        return 0;
      case SSI_RXFLR:
        return Math.min(this.rx.length, 16);
      case SSI_SR:
        return SR_TFE | SR_TFNF | (this.rx.length ? SR_RFNE : 0);
      case SSI_IDR:
        return 0x51535049;
      case SSI_VERSION_ID:
        return 0x3430312a;
      case SSI_DR0: {
        const value = this.rx.length ? this.rx.shift() : 0;
        if (!this.rx.length) this.drained = true;
        return value;
      }
      default:
        return this.regs.get(offset) ?? 0;
    }
  }

  writeUint32(offset, value) {
    if (offset === SSI_DR0) {
      if (!this.select.forced && this.drained && !this.rx.length) {
        this.chip.end();
        this.chip.begin();
      }
      this.drained = false;
      const deselected = this.select.forced && !this.select.low; // clocks with CS held high reach no chip
      this.rx.push(deselected ? 0xff : this.chip.exchange(value & 0xff));
      return;
    }
    if (offset === SSI_SSIENR || offset === SSI_CTRLR0) {
      if (!this.select.forced) this.chip.end();
      this.rx = [];
      this.drained = true;
    }
    this.regs.set(offset, value >>> 0);
  }

  writeUint32Atomic(offset, value, atomicType) {
    if (!atomicType) {
      this.writeUint32(offset, value >>> 0); // a plain write: reading DR0 first would take a byte off the FIFO
      return;
    }
    const now = this.readUint32(offset);
    this.writeUint32(offset, [value, now ^ value, now | value, now & ~value][atomicType] >>> 0);
  }
}

// IO_QSPI (datasheet 2.19.6.2): registers kept; the SS pin's output override drives the chip select.
class QspiSelect {
  constructor(chip) {
    this.chip = chip;
    this.regs = new Map();
    this.forced = false;
    this.low = false; // while forced: whether it is forced low
  }

  readUint32(offset) {
    return this.regs.get(offset) ?? 0;
  }

  writeUint32(offset, value) {
    this.regs.set(offset, value >>> 0);
    if (offset !== QSPI_SS_CTRL) return;
    const over = (value >> 8) & 3;
    if (over === 2) {
      if (!this.forced) this.chip.end();
      this.forced = true;
      this.low = true;
      this.chip.begin();
    } else if (over === 3) {
      this.chip.end();
      this.forced = true;
      this.low = false;
    } else {
      this.forced = false;
    }
  }

  writeUint32Atomic(offset, value, atomicType) {
    if (!atomicType) {
      this.writeUint32(offset, value >>> 0); // a plain write: reading DR0 first would take a byte off the FIFO
      return;
    }
    const now = this.readUint32(offset);
    this.writeUint32(offset, [value, now ^ value, now | value, now & ~value][atomicType] >>> 0);
  }
}

// Put the chip on `mcu` (an rp2040js RP2040) in place of the SSI stub; returns the chip (for its counters).
function attachFlashChip(mcu) {
  const chip = new FlashChip(mcu.flash);
  const select = new QspiSelect(chip);
  mcu.peripherals[0x18000] = new SSI(chip, select);
  mcu.peripherals[0x40018] = select;
  return chip;
}

module.exports = { attachFlashChip, FlashChip };
