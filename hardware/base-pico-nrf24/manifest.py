# The frozen production image of the Pico base station: its firmware packages, board file and nRF24L01+
# driver run from flash and cost no heap. Build and flash: hardware/README.md ("A frozen image").
# include, package, module, require: MicroPython's manifest functions (tools/manifestfile.py); paths are
# relative to this file. main.py stays on the file system: `tenace flash --frozen` writes it.
# pyright: reportUndefinedVariable=false
# ruff: noqa: F821

include("$(PORT_DIR)/boards/manifest.py")  # what the port freezes by default (asyncio, ...)

package("tenace_wire", base_path="../../firmware")  # frames, CRC, authentication tags
package("tenace_radio", base_path="../../firmware")  # the relay and its transports
module("board.py")  # imported as board by main.py; a board.py on the file system would take its place
require("nrf24l01")  # micropython-lib's driver
