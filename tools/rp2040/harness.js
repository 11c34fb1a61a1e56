// An emulated RP2040 (rp2040js) running a UF2 image, driven line by line over stdin/stdout by tools/chip.py.
//
//   node harness.js --uf2 IMAGE --bootrom ROM [--fs IMAGE] [--board JSON]
//
// Commands in (one a line): `run US` runs the chip for US microseconds of its clock; `serial HEX` types bytes on
// its USB CDC serial; `key ROW COL 0|1` lets go of or presses a key of the matrix; `dump PATH` writes the flash
// from the filesystem's offset to the end of the 2 MB; `quit`. Each command ends with `T NANOS` (the chip's clock).
// Lines out meanwhile: `S HEX` serial bytes from the chip, `I ADDR HEX NANOS` an I2C write, `P PIN LEVEL` a
// watched pin moved, `X BYTE` an SPI byte out (the answer, the byte in, is read from stdin at once), `E TEXT`.
'use strict';

const fs = require('fs');
const { RP2040, USBCDC, ConsoleLogger, LogLevel } = require('rp2040js');
const { attachFlashChip } = require('./flash_chip.js');
const { KeyMatrix, wireI2C, wireSPI } = require('./board.js');

const FLASH_START = 0x10000000;
const FS_OFFSET = 0xa0000; // MicroPython's littlefs on RPI_PICO: 352 blocks of 4 KB up to the end of the 2 MB
const FLASH_SIZE = 2 * 1024 * 1024;
const NANOS_PER_CYCLE = 8; // 125 MHz

function args(argv) {
  const found = {};
  for (let i = 0; i < argv.length; i += 2) found[argv[i].replace(/^--/, '')] = argv[i + 1];
  return found;
}

function loadUF2(path, flash) {
  const data = fs.readFileSync(path);
  for (let at = 0; at + 512 <= data.length; at += 512) {
    const block = data.subarray(at, at + 512);
    if (block.readUInt32LE(0) !== 0x0a324655 || block.readUInt32LE(4) !== 0x9e5d5157) {
      throw new Error(`${path}: not a UF2 block at ${at}`);
    }
    const target = block.readUInt32LE(12);
    const size = block.readUInt32LE(16);
    flash.set(block.subarray(32, 32 + size), target - FLASH_START);
  }
}

const out = (line) => fs.writeSync(1, line + '\n');

// stdin read synchronously: an SPI byte's answer is needed before the instruction that sent it completes.
let pending = '';
function readLine() {
  const buf = Buffer.alloc(4096);
  for (;;) {
    const nl = pending.indexOf('\n');
    if (nl >= 0) {
      const line = pending.slice(0, nl);
      pending = pending.slice(nl + 1);
      return line;
    }
    let n;
    try {
      n = fs.readSync(0, buf, 0, buf.length, null);
    } catch (e) {
      if (e.code === 'EAGAIN') continue;
      throw e;
    }
    if (n === 0) return null;
    pending += buf.toString('latin1', 0, n);
  }
}

function main() {
  const opts = args(process.argv.slice(2));
  const board = opts.board ? JSON.parse(opts.board) : null;
  const mcu = new RP2040();
  mcu.logger = new ConsoleLogger(LogLevel.Error);
  const rom = fs.readFileSync(opts.bootrom);
  mcu.loadBootrom(new Uint32Array(rom.buffer, rom.byteOffset, rom.length / 4));
  loadUF2(opts.uf2, mcu.flash);
  if (opts.fs) mcu.flash.set(fs.readFileSync(opts.fs).subarray(0, FLASH_SIZE - FS_OFFSET), FS_OFFSET);
  const chip = attachFlashChip(mcu);
  const { clock } = mcu;
  const cdc = new USBCDC(mcu.usbCtrl);
  cdc.onSerialData = (value) => out('S ' + Buffer.from(value).toString('hex'));
  let keys = null;
  if (board) {
    mcu.adc.channelValues[board.adc[0]] = board.adc[1];
    keys = new KeyMatrix(mcu, board.rows, board.cols);
    wireI2C(mcu.i2c[board.i2c], board.i2c_devices, (addr, bytes) =>
      out(`I ${addr} ${Buffer.from(bytes).toString('hex')} ${clock.nanos}`));
    wireSPI(mcu, mcu.spi[board.spi], (value) => {
      out(`X ${value}`);
      return Number(readLine()) & 0xff;
    }, board.watch, (pin, level) => out(`P ${pin} ${level}`));
  }
  mcu.core.PC = 0x10000000;

  function run(micros) {
    const end = clock.nanos + micros * 1000;
    while (clock.nanos < end) {
      if (mcu.core.waiting) {
        const next = clock.nanosToNextAlarm;
        clock.tick(next > 0 ? Math.min(next, end - clock.nanos) : end - clock.nanos);
      } else {
        clock.tick(mcu.core.executeInstruction() * NANOS_PER_CYCLE);
      }
    }
  }

  for (;;) {
    const line = readLine();
    if (line === null) return;
    const [cmd, ...rest] = line.trim().split(/\s+/);
    if (cmd === 'run') {
      run(Number(rest[0]));
    } else if (cmd === 'serial') {
      for (const b of Buffer.from(rest[0] || '', 'hex')) cdc.sendSerialByte(b);
    } else if (cmd === 'key' && keys) {
      keys.set(Number(rest[0]), Number(rest[1]), rest[2] === '1');
    } else if (cmd === 'dump') {
      fs.writeFileSync(rest[0], mcu.flash.subarray(FS_OFFSET, FLASH_SIZE));
    } else if (cmd === 'wear') {
      out(`W ${chip.programs} ${chip.erases}`);
    } else if (cmd === 'quit') {
      return;
    } else {
      out(`E unknown command: ${line}`);
    }
    for (const e of chip.errors.splice(0)) out(`E flash: ${e}`);
    out(`T ${clock.nanos}`);
  }
}

main();
